/*
 * The text report, for a terminal: trace facts, the startup summary
 * (when the model found one), findings (headlines, then most severe
 * first), metrics, then each table aligned, ns shown as ms and bytes
 * with binary units. Long tables are cut at BT_REPORT_ROWS rows.
 */
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "reports/text/grid.h"
#include "reports/report.h"
#include "reports/report_startup.h"

static void facts(FILE *out, const struct bt_facts *f)
{
	if (f->partial)   /* first: every figure below is of what was salvaged */
		fprintf(out, "PARTIAL   the input is cut short: %s\n", f->partial);
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
	if (f->imported)
		fprintf(out, "slices    %lld as the trace has them, %lld threads\n", (long long)f->slices,
			(long long)f->threads);
	else
		fprintf(out, "samples   %lld of %lld records, %lld threads\n", (long long)f->samples,
			(long long)f->records, (long long)f->threads);
	fprintf(out, "span      %.3f ms (%lld .. %lld ns)\n", (double)(f->end_ns - f->start_ns) / 1e6,
		(long long)f->start_ns, (long long)f->end_ns);
}

static void findings(FILE *out, const struct bt_result *res, int64_t t0, const struct bt_namer *names)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;
	int k;

	fprintf(out, "\nFindings (%zu)\n\n", res->nfindings);
	if (!res->nfindings)
		fputs("(none)\n", out);
	for (i = 0; i < res->nfindings; i++) {
		const struct bt_finding *f = &res->findings[i];
		fprintf(out, "%-7s [%s] %s\n", bt_severity_name[f->severity], f->rule, f->message);
		if (f->has_tid || f->has_ts) {
			fputs("        at", out);
			if (f->has_tid)
				fprintf(out, " tid %lld", (long long)f->tid);
			if (f->has_ts)
				fprintf(out, " +%.1f ms", (double)(f->ts - t0) / 1e6);
			if (f->has_dur)
				fprintf(out, " for %.1f ms", (double)f->dur / 1e6);
			fputc('\n', out);
		}
		for (k = 0; k < f->nev; k++) {
			const struct bt_value *v = &f->ev[k].v;
			enum bt_unit u = bt_unit_of(f->ev[k].key, BT_UNIT_NONE);
			int number = v->type == BT_V_INT || v->type == BT_V_REAL;

			bt_buf_reset(&b);
			bt_format_cell(names, v, u, &b);
			fprintf(out, "        %s: %s%s\n", f->ev[k].key, b.buf,
				u == BT_UNIT_NS && number ? " ms" : "");
		}
	}
	bt_buf_release(&b);
}

/* Metrics by name; the per-method ones are only counted here. */
static void metrics(FILE *out, const struct bt_result *res, const struct bt_metric *const *m)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i, shown = 0;

	fputs("\nMetrics\n\n", out);
	for (i = 0; i < res->nmetrics; i++) {
		enum bt_unit u = bt_unit_of(m[i]->name, BT_UNIT_COUNT);
		if (bt_metric_per_method(m[i]->name))
			continue;
		bt_buf_reset(&b);
		bt_format_value(&m[i]->v, u, &b);
		fprintf(out, "%-44s %14s%s\n", m[i]->name, b.buf, u == BT_UNIT_NS ? " ms" : "");
		shown++;
	}
	if (shown < res->nmetrics)
		fprintf(out, "(and %zu per-method metrics: see the JSON report)\n", res->nmetrics - shown);
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

static void table(FILE *out, const struct bt_rtable *t, size_t cols, const struct bt_namer *names)
{
	struct bt_grid g;
	struct bt_buf b = BT_BUF_INIT;
	size_t r, shown = t->nrows < BT_REPORT_ROWS ? t->nrows : BT_REPORT_ROWS;
	int c;

	fprintf(out, "\n%s\n\n", t->title);
	bt_grid_init(&g, t->ncols);
	for (c = 0; c < t->ncols; c++) {
		bt_buf_reset(&b);
		bt_format_heading(t->columns[c], t->units[c], &b);
		bt_grid_add(&g, b.buf, b.len);
	}
	for (r = 0; r < shown; r++) {
		for (c = 0; c < t->ncols; c++) {
			const struct bt_value *v = &t->cells[r * (size_t)t->ncols + c];
			if (v->type == BT_V_TEXT || v->type == BT_V_JSON)
				g.numeric[c] = 0;
			bt_buf_reset(&b);
			bt_format_cell(names, v, t->units[c], &b);
			bt_grid_add(&g, b.buf, b.len);
		}
	}
	bt_grid_print_fit(&g, out, cols);
	if (shown < t->nrows)
		fprintf(out, "(%zu more rows in the JSON report)\n", t->nrows - shown);
	bt_grid_release(&g);
	bt_buf_release(&b);
}

static int write_text(const struct bt_export *x, FILE *out, struct bt_err *err)
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
	bt_startup_sum_text(out, &su, x->names);   /* the review's headline, before the findings */
	bt_startup_sum_release(&su);
	findings(out, res, c.facts.start_ns, x->names);
	metrics(out, res, c.metrics);
	for (i = 0; i < res->ntables; i++)
		table(out, &res->tables[i], out_width(x, out), x->names);
	fputs("\nDiagnostics\n\n", out);
	if (!c.ndiag)
		fputs("(none)\n", out);
	for (i = 0; i < c.ndiag; i++)
		fprintf(out, "%s (%lld): %s\n", c.diag[i].code, (long long)c.diag[i].count, c.diag[i].detail);
	bt_report_ctx_release(&c);
	return BT_OK;
}

const struct bt_exporter bt_rep_text = { "text", ".txt", BT_NEED_RESULT, write_text };
