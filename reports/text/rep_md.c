/*
 * The Markdown report, for pull-request comments: the text report's
 * content as GitHub-flavoured Markdown tables, metrics folded away in a
 * <details> block. Cell text is escaped so method names like <init> or
 * a|b cannot break the table.
 */
#include <string.h>

#include "reports/report.h"
#include "reports/report_startup.h"

void bt_md_put(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else if (strchr("\\`*_|<>[]#", *s))
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

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
	if (f->imported)
		fprintf(out, " · %lld slices as the trace has them", (long long)f->slices);
	else
		fprintf(out, " · %lld samples of %lld records", (long long)f->samples, (long long)f->records);
	fprintf(out, " · %lld threads · %.1f ms\n", (long long)f->threads, (double)(f->end_ns - f->start_ns) / 1e6);
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
			fprintf(out, "%.1f", (double)(f->ts - t0) / 1e6);
		fputs(" | ", out);
		if (f->has_dur)
			fprintf(out, "%.1f", (double)f->dur / 1e6);
		fputs(" |\n", out);
	}
}

static void metrics(FILE *out, const struct bt_result *res, const struct bt_metric *const *m)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;
	fprintf(out, "\n<details><summary>Metrics (%zu)</summary>\n\n| metric | value |\n|---|---:|\n",
		res->nmetrics);
	for (i = 0; i < res->nmetrics; i++) {
		enum bt_unit u = bt_unit_of(m[i]->name, BT_UNIT_COUNT);
		bt_buf_reset(&b);
		bt_format_value(&m[i]->v, u, &b);
		fputs("| ", out);
		bt_md_put(out, m[i]->name);
		fprintf(out, " | %s%s |\n", b.buf, u == BT_UNIT_NS ? " ms" : "");
	}
	fputs("\n</details>\n", out);
	bt_buf_release(&b);
}

static void table(FILE *out, const struct bt_rtable *t)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t r, shown = t->nrows < BT_REPORT_ROWS ? t->nrows : BT_REPORT_ROWS;
	int c;

	fputs("\n## ", out);
	bt_md_put(out, t->title);
	fputs("\n\n", out);
	if (!t->nrows) {
		fputs("No rows.\n", out);
		return;
	}
	fputs("|", out);
	for (c = 0; c < t->ncols; c++) {
		bt_buf_reset(&b);
		bt_format_heading(t->columns[c], t->units[c], &b);
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
	for (r = 0; r < shown; r++) {
		fputs("|", out);
		for (c = 0; c < t->ncols; c++) {
			bt_buf_reset(&b);
			bt_format_value(&t->cells[r * (size_t)t->ncols + c], t->units[c], &b);
			fputc(' ', out);
			bt_md_put(out, b.buf);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	if (shown < t->nrows)
		fprintf(out, "\n%zu more rows in the JSON report.\n", t->nrows - shown);
	bt_buf_release(&b);
}

static int write_md(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	struct bt_db *db = x->db;
	const struct bt_result *res = x->res;
	struct bt_report_ctx c;
	struct bt_startup_sum su;
	size_t i;

	if (bt_report_ctx_load(db, res, &c, err))
		return err->code;
	if (bt_startup_sum_load(db, &su, err)) {
		bt_report_ctx_release(&c);
		return err->code;
	}
	facts(out, &c.facts);
	bt_startup_sum_md(out, &su);   /* the review's headline, before the findings */
	bt_startup_sum_release(&su);
	findings(out, res, c.facts.start_ns);
	metrics(out, res, c.metrics);
	for (i = 0; i < res->ntables; i++)
		table(out, &res->tables[i]);
	fputs("\n## Diagnostics\n\n", out);
	if (!c.ndiag)
		fputs("None.\n", out);
	for (i = 0; i < c.ndiag; i++) {
		fputs("- ", out);
		bt_md_put(out, c.diag[i].code);
		fprintf(out, " (%lld): ", (long long)c.diag[i].count);
		bt_md_put(out, c.diag[i].detail);
		fputc('\n', out);
	}
	bt_report_ctx_release(&c);
	return BT_OK;
}

const struct bt_exporter bt_rep_md = { "md", ".md", BT_NEED_RESULT, write_md };
