/*
 * Compare as Markdown for a pull-request comment: the verdict as a
 * heading, what moved in tables, the unchanged metrics folded away in a
 * <details> block. Cells are escaped as in the Markdown report (bt_md_put).
 */
#include <string.h>

#include "reports/compare/cmp_report.h"
#include "reports/report.h"

static void head(FILE *out, const char *const *h, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		fputs("| ", out);
		bt_md_put(out, h[k]);
		fputc(' ', out);
	}
	fputs("|\n", out);
	for (k = 0; k < n; k++)
		fputs(k == 0 || k == 1 || k == n - 1 ? "|---" : "|---:", out);
	fputs("|\n", out);
}

static void row(FILE *out, const struct bt_buf *cell, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		fputs("| ", out);
		bt_md_put(out, cell[k].buf);
		fputc(' ', out);
	}
	fputs("|\n", out);
}

/* The metrics whose verdict is (unchanged != 0) or is not unchanged. */
static size_t metrics(const struct bt_compare *c, struct bt_buf *cell, int unchanged, FILE *out)
{
	size_t i, n = 0;

	for (i = 0; i < c->nm; i++) {
		if ((c->m[i].verdict == BT_VD_UNCHANGED) != unchanged)
			continue;
		if (!n++)
			head(out, bt_cmp_mhead, BT_CMP_MCOLS);
		bt_cmp_metric_cells(&c->m[i], cell);
		row(out, cell, BT_CMP_MCOLS);
	}
	return n;
}

static void list(const struct bt_cmp_view *v, const struct bt_cmp_list *l, int measure,
		 struct bt_buf *cell, FILE *out)
{
	enum bt_unit u;
	const char *title = bt_cmp_list_title(measure, &u);
	size_t i, n = l->n < (size_t)v->top ? l->n : (size_t)v->top;

	if (!l->n)
		return;
	fprintf(out, "\n### %s (%zu of %zu that moved)\n\n", title, n, l->n);
	head(out, bt_cmp_dhead, BT_CMP_DCOLS);
	for (i = 0; i < n; i++) {
		bt_cmp_change_cells(&l->rows[i], u, cell);
		row(out, cell, BT_CMP_DCOLS);
	}
}

static int write_md(const struct bt_cmp_view *v, FILE *out, struct bt_err *err)
{
	const struct bt_compare *c = v->c;
	struct bt_buf cell[BT_CMP_CELLS], b = BT_BUF_INIT;
	size_t k, unchanged = c->nm;

	(void)err;
	bt_cmp_cells(cell, 1);
	bt_cmp_headline(c, &b);
	fputs("## btrace-analyze compare: ", out);
	bt_md_put(out, b.buf);
	fputs("\n\n", out);
	bt_buf_reset(&b);
	bt_cmp_policy(v, &b);
	bt_md_put(out, b.buf);
	fputs("\n\n", out);
	unchanged -= metrics(c, cell, 0, out);
	if (unchanged) {
		fprintf(out, "\n<details><summary>%zu unchanged metrics</summary>\n\n", unchanged);
		metrics(c, cell, 1, out);
		fputs("\n</details>\n", out);
	}
	list(v, &c->blocking, -1, cell, out);
	for (k = 0; k < BT_MS__COUNT; k++)
		list(v, &c->methods[k], (int)k, cell, out);
	fprintf(out, "\n%s\n", bt_cmp_legend);
	bt_cmp_cells(cell, 0);
	bt_buf_release(&b);
	return BT_OK;
}

const struct bt_cmp_reporter bt_cmp_md = { "md", ".md", write_md };
