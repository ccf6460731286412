/*
 * The text report, for a terminal: trace facts, the startup summary
 * (when the model found one), findings (headlines, then most severe
 * first), metrics, then each table aligned, ns shown as ms and bytes
 * with binary units. Long tables are cut at BT_REPORT_ROWS rows.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "reports/text/grid.h"
#include "reports/report.h"
#include "reports/report_startup.h"
#include "reports/text/startup_text.h"

#define PAD "          "

static void facts(FILE *out, const struct bt_facts *f, size_t cols)
{
	struct bt_buf b = BT_BUF_INIT;

	if (f->partial) {   /* first: every figure below is of what was salvaged */
		bt_buf_addf(&b, "the input is cut short: %s", f->partial);
		bt_text_wrap(out, "PARTIAL   ", PAD, b.buf, cols);
	}
	if (f->no_names)
		bt_text_wrap(out, "NO NAMES  ", PAD, f->no_names, cols);
	if (f->no_threads)
		bt_text_wrap(out, "NO THREADS ", PAD, f->no_threads, cols);
	fprintf(out, "trace     %s (%s", f->source ? f->source : "?", f->format ? f->format : "?");
	fprintf(out, f->version ? " v%lld)\n" : ")\n", (long long)f->version);
	if (f->mapping)
		fprintf(out, "mapping   %s\n", f->mapping);
	if (f->has_pid && f->process)
		fprintf(out, "process   %s, pid %lld, main thread tid %lld\n", f->process, (long long)f->pid,
			(long long)f->main_tid);
	else if (f->has_pid)
		fprintf(out, "process   pid %lld, main thread tid %lld\n", (long long)f->pid,
			(long long)f->main_tid);
	else
		fprintf(out, "process   pid unknown\n");
	if (f->other_processes) {
		bt_buf_reset(&b);
		bt_buf_addf(&b, "and the threads of %lld other process%s: every figure below counts them too",
			    (long long)f->other_processes, f->other_processes > 1 ? "es" : "");
		bt_text_wrap(out, PAD, PAD, b.buf, cols);
	}
	if (f->imported)
		fprintf(out, "slices    %lld as the trace has them, %lld threads\n", (long long)f->slices,
			(long long)f->threads);
	else
		fprintf(out, "samples   %lld of %lld records, %lld threads\n", (long long)f->samples,
			(long long)f->records, (long long)f->threads);
	bt_buf_reset(&b);
	bt_format_duration((double)(f->end_ns - f->start_ns), &b);
	fprintf(out, "span      %s\n", b.buf);   /* its ends in ns: JSON and SQL */
	if (f->unrecorded) {
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%s: not in this trace%s", f->unrecorded,
			    f->cpu_time || f->no_waits || f->no_idle ? " (their columns read " BT_UNKNOWN ")" : "");
		bt_text_wrap(out, "unknown   ", PAD, b.buf, cols);
	}
	bt_buf_release(&b);
}

static void findings(FILE *out, const struct bt_result *res, int64_t t0, const struct bt_namer *names,
		     size_t cols)
{
	struct bt_buf line = BT_BUF_INIT;
	char first[32];
	size_t i;
	int k;

	fprintf(out, "\nFindings (%zu)\n\n", res->nfindings);
	if (!res->nfindings)
		fputs("(none)\n", out);
	for (i = 0; i < res->nfindings; i++) {
		const struct bt_finding *f = &res->findings[i];

		snprintf(first, sizeof first, "%-7s ", bt_severity_name[f->severity]);
		bt_buf_reset(&line);
		bt_buf_addf(&line, "[%s] %s", f->rule, f->message);
		bt_text_wrap(out, first, "          ", line.buf, cols);
		if (f->has_tid || f->has_ts) {
			bt_buf_reset(&line);
			bt_buf_adds(&line, "at");
			if (f->has_tid)
				bt_buf_addf(&line, " tid %lld", (long long)f->tid);
			if (f->has_ts) {
				bt_buf_addc(&line, ' ');
				bt_format_at(f->ts, t0, &line);
			}
			if (f->has_dur) {
				bt_buf_adds(&line, " for ");
				bt_format_duration((double)f->dur, &line);
			}
			bt_text_wrap(out, "        ", "          ", line.buf, cols);
		}
		for (k = 0; k < f->nev; k++) {
			bt_buf_reset(&line);
			bt_buf_addf(&line, "%s: ", f->ev[k].key);
			bt_format_evidence(f->ev[k].key, &f->ev[k].v, t0, names, &line);
			bt_text_wrap(out, "        ", "          ", line.buf, cols);
		}
	}
	bt_buf_release(&line);
}

/* Metrics by name; the per-method ones and the zeros are only counted here. */
static void metrics(FILE *out, const struct bt_result *res, const struct bt_metric *const *m)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i, methods = 0, zeros = 0, window = 0;

	fputs("\nMetrics\n\n", out);
	for (i = 0; i < res->nmetrics; i++) {
		enum bt_unit u = bt_unit_of(m[i]->name, BT_UNIT_COUNT);
		if (bt_metric_in_window(m[i]->name)) {
			window++;
			continue;
		}
		if (bt_metric_per_method(m[i]->name)) {
			methods++;
			continue;
		}
		if (bt_rep_value_zero(&m[i]->v)) {
			zeros++;
			continue;
		}
		bt_buf_reset(&b);
		if (u == BT_UNIT_NS)
			bt_format_duration(m[i]->v.type == BT_V_INT ? (double)m[i]->v.u.i : m[i]->v.u.d, &b);
		else
			bt_format_value(&m[i]->v, u, &b);
		{   /* numbers right-aligned, their units after: "1.68 s", "351.6 ms" */
			const char *unit = strrchr(b.buf, ' ');
			if (unit && (unit[1] < '0' || unit[1] > '9'))
				fprintf(out, "%-44s %14.*s %s\n", m[i]->name, (int)(unit - b.buf), b.buf, unit + 1);
			else
				fprintf(out, "%-44s %14s\n", m[i]->name, b.buf);
		}
	}
	if (zeros)
		fprintf(out, "(and %zu metrics of 0 left out: see the JSON report)\n", zeros);
	if (methods)
		fprintf(out, "(and %zu per-method metrics: see the JSON report)\n", methods);
	if (window)
		fprintf(out, "(and %zu over the main thread's first messages, which compare reads: see the JSON report)\n",
			window);
	if (!res->nmetrics)
		fputs("(none)\n", out);
	bt_buf_release(&b);
}

/* Columns the tables must fit: --width, else the terminal's (stdout a
 * terminal), else no limit (a file or a pipe keeps whole names). */
static size_t out_width(const struct bt_export *x, FILE *out)
{
	struct winsize ws;

	if (x->width > 0)
		return (size_t)x->width;
	if (isatty(fileno(out)) && !ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

static void table(FILE *out, const struct bt_rtable *t, size_t cols, int64_t t0,
		  const struct bt_namer *names)
{
	struct bt_grid g;
	struct bt_buf b = BT_BUF_INIT;
	struct bt_col_fmt *k = bt_xcalloc((size_t)t->ncols + 1, sizeof *k);
	size_t r, shown = 0, zeros = 0, limit = t->nrows < BT_REPORT_ROWS ? t->nrows : BT_REPORT_ROWS;
	int c;

	for (c = 0; c < t->ncols; c++)
		bt_col_fmt_of(t, c, limit, t0, &k[c]);
	fprintf(out, "\n%s\n\n", t->title);
	bt_grid_init(&g, t->ncols);
	if (t->spare)
		memcpy(g.spare, t->spare, (size_t)t->ncols);
	for (c = 0; c < t->ncols; c++) {
		bt_buf_reset(&b);
		bt_col_heading(t, c, &k[c], &b);
		bt_grid_add(&g, b.buf, b.len);
	}
	for (r = 0; r < t->nrows && shown < limit; r++) {
		if (bt_row_zero(t, r)) {
			zeros++;
			continue;
		}
		for (c = 0; c < t->ncols; c++) {
			const struct bt_value *v = &t->cells[r * (size_t)t->ncols + c];
			int num = v->type == BT_V_INT || v->type == BT_V_REAL;
			if (!num && v->type != BT_V_NULL)
				g.numeric[c] = 0;
			bt_buf_reset(&b);
			bt_col_cell(names, v, &k[c], t->units[c], &b);
			bt_grid_add(&g, b.buf, b.len);
		}
		shown++;
	}
	bt_grid_print_fit(&g, out, cols);
	if (zeros)
		fprintf(out, "(%zu rows of zeros left out)\n", zeros);
	if (r < t->nrows)
		fprintf(out, "(%zu more rows in the JSON report)\n", t->nrows - r);
	bt_grid_release(&g);
	bt_buf_release(&b);
	free(k);
}

static int write_text(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	struct bt_db *db = x->db;
	const struct bt_result *res = x->res;
	struct bt_report_ctx c;
	struct bt_startsum su;
	struct bt_buf b = BT_BUF_INIT;
	size_t i, cols = out_width(x, out);

	if (bt_report_ctx_load(db, res, &c, err))
		return err->code;
	if (bt_startsum_load(db, &su, err)) {
		bt_report_ctx_release(&c);
		return err->code;
	}
	facts(out, &c.facts, cols);
	bt_startsum_text(out, &su, x->names, cols);   /* the review's headline, before the findings */
	bt_startsum_release(&su);
	findings(out, res, c.facts.start_ns, x->names, cols);
	metrics(out, res, c.metrics);
	for (i = 0; i < res->ntables; i++)
		table(out, &res->tables[i], cols, c.facts.start_ns, x->names);
	fputs("\nDiagnostics\n\n", out);
	if (!c.ndiag)
		fputs("(none)\n", out);
	for (i = 0; i < c.ndiag; i++) {
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%s (%lld): %s", c.diag[i].code, (long long)c.diag[i].count, c.diag[i].detail);
		bt_text_wrap(out, "", "  ", b.buf, cols);
	}
	bt_buf_release(&b);
	bt_report_ctx_release(&c);
	return BT_OK;
}

const struct bt_exporter bt_rep_text = { "text", ".txt", BT_NEED_RESULT, write_text };
