/*
 * The HTML report: one self-contained page (no network: CSS and script
 * inline, nothing fetched) with the text report's content as HTML tables
 * under a table of contents and, drawn by the scripts from the data
 * embedded beside them, an interactive flame graph with its callers and
 * callees view, and every thread's timeline with arrows from each waker
 * to the wait it ended. All text from the trace is escaped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen/bt_html.h"
#include "reports/html/html_int.h"
#include "reports/report_startup.h"

/* Rows a table shows; the JSON report has them all. A thousand rows of
 * a wide table took Chromium some 400 ms to lay out. */
#define TABLE_ROWS 300

void bt_html_esc(FILE *out, const char *s)
{
	size_t run;

	while (*s) {
		run = strcspn(s, "&<>\"'");
		fwrite(s, 1, run, out);
		s += run;
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: return;
		}
		s++;
	}
}

void bt_html_scripts(FILE *out)
{
	fprintf(out, "<script>\n%s%s%s%s</script>\n", bt_html_text[BT_HTML_UTIL_JS], bt_html_text[BT_HTML_FLAME_JS],
		bt_html_text[BT_HTML_TIMELINE_JS], bt_html_text[BT_HTML_REPORT_JS]);
}

void bt_html_finish(FILE *out)
{
	/* a page whose scripts failed has no BT: one error is enough */
	fputs("<script>if (window.BT && BT.finish) BT.finish();</script>\n", out);
}

void bt_html_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\" data-errors=\"0\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      /* The page fetches nothing; the browser enforces it. */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
	      "<title>", out);
	bt_html_esc(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n<script>\n%s</script>\n</head>\n<body>\n",
		bt_html_text[BT_HTML_REPORT_CSS], bt_html_text[BT_HTML_CATCH_JS]);
}

static void facts(FILE *out, const struct bt_facts *f)
{
	fputs("<header>\n<h1>btrace-analyze report: ", out);
	bt_html_esc(out, f->source ? f->source : "?");
	fputs("</h1>\n", out);
	if (f->partial) {
		fputs("<p class=\"facts sev-error\"><strong>Partial trace</strong>: the input is cut short: ", out);
		bt_html_esc(out, f->partial);
		fputs("</p>\n", out);
	}
	if (f->no_names) {
		fputs("<p class=\"facts sev-error\"><strong>No names</strong>: ", out);
		bt_html_esc(out, f->no_names);
		fputs("</p>\n", out);
	}
	if (f->no_threads) {
		fputs("<p class=\"facts sev-error\"><strong>No thread data</strong>: ", out);
		bt_html_esc(out, f->no_threads);
		fputs("</p>\n", out);
	}
	if (f->unrecorded) {
		fputs("<p class=\"facts\"><strong>Not in this trace</strong>: ", out);
		bt_html_esc(out, f->unrecorded);
		fputs(f->cpu_time || f->no_waits || f->no_idle ? " (their columns read " BT_UNKNOWN ")</p>\n" : "</p>\n", out);
	}
	fputs("<p class=\"facts\">", out);
	bt_html_esc(out, f->format ? f->format : "?");
	if (f->version)
		fprintf(out, " v%lld", (long long)f->version);
	if (f->has_pid && f->process) {
		fputs(" · ", out);
		bt_html_esc(out, f->process);
		fputc(',', out);
	}
	if (f->has_pid)
		fprintf(out, "%s pid %lld, main thread tid %lld", f->process ? "" : " ·", (long long)f->pid, (long long)f->main_tid);
	if (f->other_processes)
		fprintf(out, ", and the threads of %lld other process%s (every figure counts them too)",
			(long long)f->other_processes, f->other_processes > 1 ? "es" : "");
	if (f->imported)
		fprintf(out, " · %lld slices as the trace has them", (long long)f->slices);
	else
		fprintf(out, " · %lld samples of %lld records", (long long)f->samples, (long long)f->records);
	fprintf(out, " · %lld threads · %.1f ms</p>\n", (long long)f->threads, (double)(f->end_ns - f->start_ns) / 1e6);
	if (f->mapping) {
		fputs("<p class=\"facts\">mapping ", out);
		bt_html_esc(out, f->mapping);
		fputs("</p>\n", out);
	}
	fputs("<noscript><p>The flame graph and the timeline need JavaScript.</p></noscript>\n</header>\n", out);
}

/* A cell: numbers right-aligned, with their raw value for sorting; a
 * method's name short, in full on hover. */
static void cell(FILE *out, const struct bt_value *v, enum bt_unit u, const struct bt_col_fmt *k,
		 const struct bt_namer *names, struct bt_buf *b)
{
	if (v->type == BT_V_TEXT) {
		fputs("<td>", out);
		bt_html_name(out, names, v->u.s);
		fputs("</td>", out);
		return;
	}
	bt_buf_reset(b);
	bt_col_cell(names, v, k, u, b);
	if (v->type == BT_V_INT)
		fprintf(out, "<td class=\"n\" data-v=\"%lld\">", (long long)v->u.i);
	else if (v->type == BT_V_REAL)
		fprintf(out, "<td class=\"n\" data-v=\"%.17g\">", v->u.d);
	else
		fputs("<td>", out);
	bt_html_esc(out, b->buf);
	fputs("</td>", out);
}

/* The startup summary (reports/report_startup.h): headline and phases. */
static void startup(FILE *out, const struct bt_startsum *s)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i, k;

	if (!s->found)
		return;
	bt_startsum_headline(s, &b);
	fputs("<section id=\"startup\">\n<h2>Startup</h2>\n<p class=\"facts\"><strong>", out);
	bt_html_esc(out, b.buf);
	fputs("</strong></p>\n<table class=\"data\"><thead><tr><th>phase</th><th>start ms</th><th>dur ms</th>"
	      "<th>running ms</th><th>blocked ms</th><th>idle ms</th><th>unexplained ms</th>", out);
	if (s->have_states)   /* the main thread's scheduler states, before the bounds */
		fputs("<th>runnable ms</th><th>sleeping ms</th><th>io ms</th><th>uninterruptible ms</th>", out);
	fputs("<th>bounds</th></tr></thead><tbody>\n", out);
	for (i = 0; i < s->nphases; i++) {
		const struct bt_su_phase *p = &s->phases[i];
		int64_t v[10] = { p->ts - s->ts, p->dur, p->cpu, p->blocked, p->idle, p->unexplained,
				  p->runnable, p->sleeping, p->io, p->uninterruptible };
		fputs("<tr><td>", out);
		bt_html_esc(out, p->phase ? p->phase : "?");
		fputs("</td>", out);
		for (k = 0; k < (s->have_states ? 10u : 6u); k++) {
			bt_buf_reset(&b);
			bt_startsum_ms(v[k], &b);
			fprintf(out, "<td class=\"n\">%s</td>", b.buf);
		}
		fprintf(out, "<td>%s</td></tr>\n", p->exact ? "exact" : "sampled");
	}
	fputs("</tbody></table>\n</section>\n", out);
	bt_buf_release(&b);
}

/* Where the scripts draw; they find these by id and fill the legends. */
static void canvases(FILE *out, int nocpu)
{
	fputs("<section id=\"flame\">\n<h2>Flame graph</h2>\n<div class=\"controls\">"
	      "<label>Thread <select id=\"fg-thread\"></select></label> "
	      "<label>Weight <select id=\"fg-weight\"><option value=\"0\">wall time</option>", out);
	fputs(nocpu ? "<option value=\"1\">CPU time (not in this trace)</option>"
		      "<option value=\"6\">off-CPU time (not in this trace)</option>"
		    : "<option value=\"1\">CPU time</option><option value=\"6\">off-CPU time</option>", out);
	fputs("<option value=\"3\">allocated bytes</option></select></label> "
	      "<input id=\"fg-search\" type=\"search\" placeholder=\"Search frames\" autocomplete=\"off\"> "
	      "<button id=\"fg-reset\" type=\"button\">Reset zoom</button> "
	      "<button id=\"fg-sandwich\" type=\"button\">Callers and callees of the zoomed frame</button> "
	      "<span id=\"fg-match\" class=\"note\"></span></div>\n"
	      "<div id=\"fg-legend\" class=\"legend\"></div>\n<p id=\"fg-note\" class=\"note\"></p>\n"
	      "<div id=\"fg-wrap\" class=\"wrap\"><canvas id=\"fg-canvas\"></canvas></div>\n</section>\n"
	      "<section id=\"sandwich\">\n<h2>Callers and callees</h2>\n<div class=\"controls\">"
	      "<label>Method <select id=\"sw-method\"></select></label> "
	      "<span class=\"note\">shift-click a frame of the flame graph to choose it</span></div>\n"
	      "<p id=\"sw-note\" class=\"note\"></p>\n"
	      "<h3 class=\"sw\">Callers <span class=\"note\">(who calls it, the method at the top)</span></h3>\n"
	      "<div id=\"sw-up-wrap\" class=\"wrap\"><canvas id=\"sw-up\"></canvas></div>\n"
	      "<h3 class=\"sw\">Callees <span class=\"note\">(what it calls)</span></h3>\n"
	      "<div id=\"sw-down-wrap\" class=\"wrap\"><canvas id=\"sw-down\"></canvas></div>\n</section>\n"
	      "<section id=\"timeline\">\n<h2>Timeline</h2>\n<div class=\"controls\">"
	      "<button id=\"tl-reset\" type=\"button\">Reset zoom</button> "
	      "<span class=\"note\">wheel to zoom, drag to pan, click a thread's name to fold it; arrows run "
	      "from the waker's slice to the end of the wait</span>"
	      "</div>\n<div id=\"tl-legend\" class=\"legend\"></div>\n<p id=\"tl-note\" class=\"note\"></p>\n"
	      "<div id=\"tl-wrap\" class=\"wrap\"><canvas id=\"tl-canvas\"></canvas><div id=\"tl-space\"></div></div>\n"
	      "<pre id=\"tl-arrows\" hidden></pre>\n</section>\n", out);
}

/* Links to every section; the script adds nothing to it. */
static void toc(FILE *out, const struct bt_result *res, int has_startup)
{
	size_t i;

	fputs("<nav id=\"toc\"><strong>Contents</strong> ", out);
	if (has_startup)
		fputs("<a href=\"#startup\">Startup</a> ", out);
	fprintf(out, "<a href=\"#flame\">Flame graph</a> <a href=\"#sandwich\">Callers and callees</a> "
		"<a href=\"#timeline\">Timeline</a> <a href=\"#findings\">Findings (%zu)</a> ", res->nfindings);
	for (i = 0; i < res->ntables; i++) {
		fprintf(out, "<a href=\"#table-%zu\">", i + 1);
		bt_html_esc(out, res->tables[i].title ? res->tables[i].title : "table");
		fputs("</a> ", out);
	}
	fputs("<a href=\"#metrics\">Metrics</a> <a href=\"#diagnostics\">Diagnostics</a></nav>\n", out);
}

static void metrics(FILE *out, const struct bt_result *res, const struct bt_metric *const *m)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	fprintf(out, "<section id=\"metrics\">\n<details><summary><h2>Metrics (%zu)</h2></summary>\n"
		"<table class=\"data\"><thead><tr><th>metric</th><th>value</th></tr></thead><tbody>\n",
		res->nmetrics);
	for (i = 0; i < res->nmetrics; i++) {
		enum bt_unit u = bt_unit_of(m[i]->name, BT_UNIT_COUNT);
		fputs("<tr><td>", out);
		bt_html_esc(out, m[i]->name);
		fputs("</td>", out);
		cell(out, &m[i]->v, u, &(struct bt_col_fmt){ 0 }, NULL, &b);
		fputs(u == BT_UNIT_NS ? "<td>ms</td></tr>\n" : "<td></td></tr>\n", out);
	}
	fputs("</tbody></table>\n</details>\n</section>\n", out);
	bt_buf_release(&b);
}

static void table(FILE *out, const struct bt_rtable *t, size_t k, int64_t t0, const struct bt_namer *names)
{
	struct bt_buf b = BT_BUF_INIT;
	struct bt_col_fmt *fmt;
	size_t r, shown = t->nrows < TABLE_ROWS ? t->nrows : TABLE_ROWS;
	int c;

	fprintf(out, "<section class=\"table\" id=\"table-%zu\">\n<h2>", k + 1);
	bt_html_esc(out, t->title);
	fputs("</h2>\n", out);
	if (!t->nrows) {
		fputs("<p>No rows.</p>\n</section>\n", out);
		return;
	}
	fmt = bt_xcalloc((size_t)t->ncols + 1, sizeof *fmt);
	for (c = 0; c < t->ncols; c++)   /* times since the start, a column's ns in one scale */
		bt_col_fmt_of(t, c, shown, t0, &fmt[c]);
	fputs("<table class=\"data sortable\"><thead><tr>", out);
	for (c = 0; c < t->ncols; c++) {
		bt_buf_reset(&b);
		bt_col_heading(t, c, &fmt[c], &b);
		fputs("<th>", out);
		bt_html_esc(out, b.buf);
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
	for (r = 0; r < shown; r++) {
		fputs("<tr>", out);
		for (c = 0; c < t->ncols; c++)
			cell(out, &t->cells[r * (size_t)t->ncols + c], t->units[c], &fmt[c], names, &b);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	if (shown < t->nrows)
		fprintf(out, "<p class=\"note\">%zu more rows not shown (the JSON report has them all).</p>\n",
			t->nrows - shown);
	fputs("</section>\n", out);
	free(fmt);
	bt_buf_release(&b);
}

static void diagnostics(FILE *out, const struct bt_report_ctx *c)
{
	size_t i;

	fputs("<section id=\"diagnostics\">\n<h2>Diagnostics</h2>\n", out);
	if (!c->ndiag)
		fputs("<p>None.</p>\n", out);
	else
		fputs("<ul>\n", out);
	for (i = 0; i < c->ndiag; i++) {
		fputs("<li><code>", out);
		bt_html_esc(out, c->diag[i].code);
		fprintf(out, "</code> (%lld): ", (long long)c->diag[i].count);
		bt_html_esc(out, c->diag[i].detail);
		fputs("</li>\n", out);
	}
	if (c->ndiag)
		fputs("</ul>\n", out);
	fputs("</section>\n", out);
}

static int write_html(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	struct bt_db *db = x->db;
	const struct bt_result *res = x->res;
	struct bt_report_ctx c;
	struct bt_startsum su;
	struct bt_buf title = BT_BUF_INIT;
	size_t i;
	int rc;

	if (x->progress)
		x->progress(x->progress_ctx, 0, 1);   /* the start; bt_html_data_write goes on */
	if (bt_report_ctx_load(db, res, &c, err))
		return err->code;
	if (bt_startsum_load(db, &su, err)) {
		bt_report_ctx_release(&c);
		return err->code;
	}
	bt_buf_addf(&title, "btrace-analyze report: %s", c.facts.source ? c.facts.source : "?");
	bt_html_head(out, title.buf);
	bt_buf_release(&title);
	facts(out, &c.facts);
	toc(out, res, su.found);
	startup(out, &su);
	bt_startsum_release(&su);
	/* the flame graph before the findings: a long trace's many findings
	 * must not push it out of sight */
	canvases(out, c.facts.cpu_time == BT_CPU_UNKNOWN);
	bt_html_findings(out, res, c.facts.start_ns, x->names);
	for (i = 0; i < res->ntables; i++)
		table(out, &res->tables[i], i, c.facts.start_ns, x->names);
	metrics(out, res, c.metrics);
	diagnostics(out, &c);
	fputs("<div id=\"bt-tip\" class=\"tip\" hidden></div>\n<pre id=\"bt-errors\" hidden></pre>\n"
	      "<pre id=\"bt-selftest\" hidden></pre>\n", out);
	rc = bt_html_data_write(x, &c.facts, out, err);
	if (!rc) {
		fputs("</body>\n</html>\n", out);
		if (ferror(out))
			rc = bt_err_set(err, BT_EIO, "cannot write the HTML report: %s", strerror(errno));
	}
	bt_report_ctx_release(&c);
	return rc;
}

const struct bt_exporter bt_rep_html = { "html", ".html", BT_NEED_RESULT | BT_NEED_TIMELINE, write_html };
