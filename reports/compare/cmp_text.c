/*
 * Compare for terminals, in the order a reviewer reads: the headline, the
 * compact table (benchstat's: base, head, delta or "~", p, n), the causes
 * of each moved metric, then the details: the policy, every metric (gated
 * first, regressions on top) and the diff lists, as aligned tables.
 */
#include <stdlib.h>
#include <string.h>

#include "reports/compare/cmp_report.h"
#include "reports/text/grid.h"

/* align: 'r' for a right-aligned (numeric) column, per column. */
static void header(struct bt_grid *g, const char *const *head, int ncols, const char *align)
{
	int k;

	bt_grid_init(g, ncols);
	for (k = 0; k < ncols; k++) {
		g->numeric[k] = align[k] == 'r';
		bt_grid_add(g, head[k], strlen(head[k]));
	}
}

static void add_cells(struct bt_grid *g, const struct bt_buf *cell, int ncols)
{
	int k;

	for (k = 0; k < ncols; k++)
		bt_grid_add(g, cell[k].buf, cell[k].len);
}

#define SUMMARY_ROWS 40

static void summary(const struct bt_compare *c, struct bt_buf *cell, size_t width, FILE *out)
{
	size_t *at = bt_xcalloc(c->nm + 1, sizeof *at), n, i, more;
	struct bt_grid g;

	n = bt_cmprep_summary_rows(c, at, SUMMARY_ROWS, &more);
	header(&g, bt_cmprep_shead, BT_CMP_SCOLS, "lrrrrrl");
	g.name_lines = 1;   /* "Foo.bar self wall in startup" says what moved: whole */
	for (i = 0; i < n; i++) {
		bt_cmprep_summary_cells(c, &c->m[at[i]], cell);
		add_cells(&g, cell, BT_CMP_SCOLS);
	}
	fputc('\n', out);
	bt_grid_print_fit(&g, out, width);
	if (more)
		fprintf(out, "(%zu more moved; see Metrics below)\n", more);
	bt_grid_release(&g);
	free(at);
}

static void causes(const struct bt_compare *c, struct bt_buf *cell, size_t width, FILE *out)
{
	struct bt_buf title = BT_BUF_INIT;
	struct bt_grid g;
	size_t i, k;

	for (i = 0; i < c->nm; i++) {
		const struct bt_cmp_metric *m = &c->m[i];
		if (!m->gate.gated || !m->ncauses)
			continue;
		bt_buf_reset(&title);
		bt_cmprep_causes_title(m, &title);
		fputc('\n', out);
		bt_text_put(out, "", "  ", title.buf, width);
		header(&g, bt_cmprep_khead, BT_CMP_KCOLS, "lrrrr");
		for (k = 0; k < m->ncauses; k++) {
			bt_cmprep_cause_cells(c, &m->causes[k], cell);
			add_cells(&g, cell, BT_CMP_KCOLS);
		}
		bt_grid_print_fit(&g, out, width);
		bt_grid_release(&g);
	}
	bt_buf_release(&title);
}

static void metrics(const struct bt_compare *c, struct bt_buf *cell, size_t width, FILE *out)
{
	struct bt_grid g;
	size_t i;

	header(&g, bt_cmprep_mhead, BT_CMP_MCOLS, "llrrrrrl");
	for (i = 0; i < c->nm; i++) {
		bt_cmprep_metric_cells(&c->m[i], cell);
		add_cells(&g, cell, BT_CMP_MCOLS);
	}
	fprintf(out, "\nMetrics (%zu: gated first; in parentheses, not gated)\n", c->nm);
	bt_grid_print_fit(&g, out, width);
	bt_grid_release(&g);
}

static void list(const struct bt_cmprep_view *v, const struct bt_cmp_list *l, int measure,
		 struct bt_buf *cell, FILE *out)
{
	enum bt_unit u;
	const char *title = bt_cmprep_list_title(measure, &u);
	size_t i, n = l->n < (size_t)v->top ? l->n : (size_t)v->top;
	struct bt_grid g;

	if (!l->n)
		return;
	fprintf(out, "\n%s (%zu of %zu that moved)\n", title, n, l->n);   /* titles are short */
	header(&g, bt_cmprep_dhead, BT_CMP_DCOLS, "llrrrrrr");
	for (i = 0; i < n; i++) {
		bt_cmprep_change_cells(&l->rows[i], u, cell);
		add_cells(&g, cell, BT_CMP_DCOLS);
	}
	bt_grid_print_fit(&g, out, v->width);
	bt_grid_release(&g);
}

static int write_text(const struct bt_cmprep_view *v, FILE *out, struct bt_err *err)
{
	const struct bt_compare *c = v->c;
	struct bt_buf cell[BT_CMP_CELLS], b = BT_BUF_INIT;
	size_t k;

	(void)err;
	bt_cmprep_cells(cell, 1);
	bt_cmprep_headline(c, &b);
	bt_text_put(out, "btrace-analyze compare: ", "  ", b.buf, v->width);
	summary(c, cell, v->width, out);
	causes(c, cell, v->width, out);
	if (v->brief) {   /* a terminal: what a reviewer reads; the rest on demand */
		fputc('\n', out);
		bt_text_put(out, "", "", "Details (the policy, every metric with its test, the methods and waits "
			     "that moved): -v, or -o FILE.txt, .md, .json, .html or .xlsx.", v->width);
		bt_cmprep_cells(cell, 0);
		bt_buf_release(&b);
		return BT_OK;
	}
	bt_buf_reset(&b);
	bt_cmprep_policy(v, &b);
	fputc('\n', out);
	bt_text_put(out, "Details. ", "", b.buf, v->width);
	metrics(c, cell, v->width, out);
	list(v, &c->blocking, -1, cell, out);
	for (k = 0; k < BT_MS__COUNT; k++)
		list(v, &c->methods[k], (int)k, cell, out);
	fputc('\n', out);
	bt_text_put(out, "", "", bt_cmprep_legend, v->width);
	bt_cmprep_cells(cell, 0);
	bt_buf_release(&b);
	return BT_OK;
}

const struct bt_cmprep_reporter bt_cmprep_text = { "text", ".txt", write_text };
