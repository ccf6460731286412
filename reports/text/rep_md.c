/*
 * The Markdown report, for pull-request comments: the text report's
 * content as GitHub-flavoured Markdown tables, metrics folded away in a
 * <details> block (the per-method ones counted, not listed). A comment
 * holds 65,536 characters: the report stays under MD_LIMIT bytes (at
 * least as many characters), the least important sections cut first, at
 * a row, with a note saying what was left out. Cell text is escaped so
 * method names like <init> or a|b cannot break the table.
 */
#include <stdlib.h>
#include <string.h>

#include "reports/markdown.h"
#include "reports/report.h"
#include "reports/report_startup.h"

static void facts(FILE *out, const struct bt_facts *f)
{
	fputs("# btrace-analyze report: ", out);
	bt_md_put(out, f->source ? f->source : "?");
	fputs("\n\n", out);
	if (f->partial) {
		fputs("> **Partial trace**: the input is cut short: ", out);
		bt_md_put(out, f->partial);
		fputs("\n\n", out);
	}
	if (f->no_names) {
		fputs("> **No names**: ", out);
		bt_md_put(out, f->no_names);
		fputs("\n\n", out);
	}
	if (f->no_threads) {
		fputs("> **No thread data**: ", out);
		bt_md_put(out, f->no_threads);
		fputs("\n\n", out);
	}
	if (f->unrecorded) {
		fputs("> **Not in this trace**: ", out);
		bt_md_put(out, f->unrecorded);
		fputs(f->cpu_time || f->no_waits || f->no_idle ? " (their columns read " BT_UNKNOWN ")\n\n" : "\n\n", out);
	}
	fputs(f->format ? f->format : "?", out);
	if (f->version)
		fprintf(out, " v%lld", (long long)f->version);
	if (f->has_pid && f->process) {
		fputs(" · ", out);
		bt_md_put(out, f->process);
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
	{
		struct bt_buf b = BT_BUF_INIT;

		bt_format_duration((double)(f->end_ns - f->start_ns), &b);
		fprintf(out, " · %lld threads · %s\n", (long long)f->threads, b.buf);
		bt_buf_release(&b);
	}
}

static void findings(FILE *out, const struct bt_result *res, int64_t t0)
{
	size_t i;

	fprintf(out, "\n## Findings (%zu)\n\n", res->nfindings);
	if (!res->nfindings) {
		fputs("No findings.\n", out);
		return;
	}
	fputs("| severity | rule | message | thread | at ms | for ms |\n|---|---|---|---:|---:|---:|\n", out);
	for (i = 0; i < res->nfindings; i++) {
		const struct bt_finding *f = &res->findings[i];
		fprintf(out, "| %s | ", bt_severity_name[f->severity]);
		bt_md_put(out, f->rule);
		fputs(" | ", out);
		bt_md_put(out, f->message);
		fputs(" | ", out);
		if (f->has_tid)
			fprintf(out, "%lld", (long long)f->tid);
		fputs(" | ", out);
		if (f->has_ts)
			fprintf(out, "%.1f", (double)bt_sat_sub(f->ts, t0) / 1e6);
		fputs(" | ", out);
		if (f->has_dur)
			fprintf(out, "%.1f", (double)f->dur / 1e6);
		fputs(" |\n", out);
	}
}

static void metrics(FILE *out, const struct bt_result *res, const struct bt_metric *const *m)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i, per_method = 0, zeros = 0;

	for (i = 0; i < res->nmetrics; i++) {
		if (bt_metric_per_method(m[i]->name))
			per_method++;
		else if (bt_rep_value_zero(&m[i]->v))
			zeros++;
	}
	fprintf(out, "\n<details><summary>Metrics (%zu", res->nmetrics - per_method - zeros);
	if (zeros)
		fprintf(out, "; %zu of 0 left out", zeros);
	if (per_method)
		fprintf(out, "; %zu per-method metrics in the JSON report", per_method);
	fputs(")</summary>\n\n| metric | value |\n|---|---:|\n", out);
	for (i = 0; i < res->nmetrics; i++) {
		enum bt_unit u = bt_unit_of(m[i]->name, BT_UNIT_COUNT);
		if (bt_metric_per_method(m[i]->name) || bt_rep_value_zero(&m[i]->v))
			continue;
		bt_buf_reset(&b);
		if (u == BT_UNIT_NS)
			bt_format_duration(m[i]->v.type == BT_V_INT ? (double)m[i]->v.u.i : m[i]->v.u.d, &b);
		else
			bt_format_value(&m[i]->v, u, &b);
		fputs("| ", out);
		bt_md_put(out, m[i]->name);
		fprintf(out, " | %s |\n", b.buf);
	}
	bt_buf_release(&b);
}

static void table(FILE *out, const struct bt_rtable *t, int64_t t0, const struct bt_namer *names)
{
	struct bt_buf b = BT_BUF_INIT;
	struct bt_col_fmt *k;
	size_t r, shown = 0, zeros = 0, limit = t->nrows < BT_REPORT_ROWS ? t->nrows : BT_REPORT_ROWS;
	int c;

	fputs("\n## ", out);
	bt_md_put(out, t->title);
	fputs("\n\n", out);
	if (!t->nrows) {
		fputs("No rows.\n", out);
		return;
	}
	k = bt_xcalloc((size_t)t->ncols + 1, sizeof *k);
	for (c = 0; c < t->ncols; c++)
		bt_col_fmt_of(t, c, limit, t0, &k[c]);
	fputs("|", out);
	for (c = 0; c < t->ncols; c++) {
		bt_buf_reset(&b);
		bt_col_heading(t, c, &k[c], &b);
		fputc(' ', out);
		bt_md_put(out, b.buf);
		fputs(" |", out);
	}
	fputs("\n|", out);
	for (c = 0; c < t->ncols; c++) {
		const struct bt_value *v = &t->cells[c];
		fputs(v->type == BT_V_INT || v->type == BT_V_REAL ? "---:|" : "---|", out);
	}
	fputc('\n', out);
	for (r = 0; r < t->nrows && shown < limit; r++) {
		if (bt_row_zero(t, r)) {
			zeros++;
			continue;
		}
		fputs("|", out);
		for (c = 0; c < t->ncols; c++) {
			bt_buf_reset(&b);
			bt_col_cell(names, &t->cells[r * (size_t)t->ncols + c], &k[c], t->units[c], &b);
			fputc(' ', out);
			bt_md_put(out, b.buf);
			fputs(" |", out);
		}
		fputc('\n', out);
		shown++;
	}
	if (zeros)
		fprintf(out, "\n%zu rows of zeros left out.\n", zeros);
	if (r < t->nrows)
		fprintf(out, "\n%zu more rows in the JSON report.\n", t->nrows - r);
	free(k);
	bt_buf_release(&b);
}

static void diagnostics(FILE *out, const struct bt_report_ctx *c)
{
	size_t i;

	fputs("\n## Diagnostics\n\n", out);
	if (!c->ndiag)
		fputs("None.\n", out);
	for (i = 0; i < c->ndiag; i++) {
		fputs("- ", out);
		bt_md_put(out, c->diag[i].code);
		fprintf(out, " (%lld): ", (long long)c->diag[i].count);
		bt_md_put(out, c->diag[i].detail);
		fputc('\n', out);
	}
}

#define MD_LIMIT 60000
#define NOTE_ROOM 800   /* the note's room, kept free */

/* A part of the report: its text, what closes it (written even when it is
 * cut) and how much it matters (higher: cut first). */
struct md_part {
	char *text;
	size_t len;
	const char *close, *what;
	int rank;
};

static FILE *part_open(struct md_part *p, const char *what, int rank)
{
	memset(p, 0, sizeof *p);
	p->close = "";
	p->what = what;
	p->rank = rank;
	return open_memstream(&p->text, &p->len);
}

/* Cut the least important parts, at a line, until all fit; say so in note. */
static void fit(struct md_part *p, size_t n, struct bt_buf *note)
{
	size_t total = 0, i;

	for (i = 0; i < n; i++)
		total += p[i].len + strlen(p[i].close);
	while (total + NOTE_ROOM > MD_LIMIT) {
		size_t worst = 0, keep, over = total + NOTE_ROOM - MD_LIMIT;
		for (i = 1; i < n; i++)
			if (p[i].len && (!p[worst].len || p[i].rank > p[worst].rank))
				worst = i;
		if (!p[worst].len || !p[worst].rank)
			break;
		keep = over >= p[worst].len ? 0 : bt_md_lines_within(p[worst].text, p[worst].len, p[worst].len - over);
		bt_buf_addf(note, "%s%s (%s)", note->len ? ", " : "", p[worst].what,
			    keep ? "cut" : "left out");
		total -= p[worst].len - keep;
		p[worst].len = keep;
		if (!keep) {
			total -= strlen(p[worst].close);
			p[worst].close = "";   /* nothing opened */
			p[worst].rank = 0;     /* nothing left to cut */
		}
	}
}

static int write_md(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	struct bt_db *db = x->db;
	const struct bt_result *res = x->res;
	struct bt_report_ctx c;
	struct bt_startsum su;
	struct bt_buf note = BT_BUF_INIT;
	struct md_part *p;
	size_t i, n = 0;
	FILE *f;

	if (bt_report_ctx_load(db, res, &c, err))
		return err->code;
	if (bt_startsum_load(db, &su, err)) {
		bt_report_ctx_release(&c);
		return err->code;
	}
	p = bt_xcalloc(res->ntables + 5, sizeof *p);
	if ((f = part_open(&p[n++], "the facts", 0))) {
		facts(f, &c.facts);
		bt_startsum_md(f, &su);   /* the review's headline, before the findings */
		fclose(f);
	}
	if ((f = part_open(&p[n++], "findings", 3))) {
		findings(f, res, c.facts.start_ns);
		fclose(f);
	}
	if ((f = part_open(&p[n], "the metrics", 1000))) {
		metrics(f, res, c.metrics);
		p[n++].close = "\n</details>\n";
		fclose(f);
	}
	for (i = 0; i < res->ntables; i++) {
		if (!(f = part_open(&p[n++], res->tables[i].title, 10 + (int)i)))
			continue;
		table(f, &res->tables[i], c.facts.start_ns, x->names);
		fclose(f);
	}
	if ((f = part_open(&p[n++], "diagnostics", 2))) {
		diagnostics(f, &c);
		fclose(f);
	}
	fit(p, n, &note);
	for (i = 0; i < n; i++) {
		if (p[i].text)
			fwrite(p[i].text, 1, p[i].len, out);
		fputs(p[i].close, out);
		free(p[i].text);
	}
	if (note.len)
		fprintf(out, "\n> Left out to stay under GitHub's comment limit (%d characters here): %s. "
			"The JSON report has everything.\n", MD_LIMIT, note.buf);
	free(p);
	bt_buf_release(&note);
	bt_startsum_release(&su);
	bt_report_ctx_release(&c);
	return BT_OK;
}

const struct bt_exporter bt_rep_md = { "md", ".md", BT_NEED_RESULT, write_md };
