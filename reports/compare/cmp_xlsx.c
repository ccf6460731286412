/*
 * Compare as an xlsx workbook: a Summary (the overall verdict, counts,
 * policy, runs and links), one sheet per metric family (the name up to
 * its first dot: process, thread, method, ...) with base and head columns,
 * the change coloured by direction and the verdict by kind, then every
 * run's value; a Diff sheet with the stack-level diff lists; and a Charts
 * sheet: every run's value of each regressed metric, base against head.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/compare/cmp_report.h"
#include "reports/xlsx/xlsx.h"

static const enum bt_xlsx_fmt verdict_fill[BT_VD__COUNT] = {
	[BT_VD_UNCHANGED] = BT_XF_TEXT, [BT_VD_IMPROVED] = BT_XF_GREEN,
	[BT_VD_INCONCLUSIVE] = BT_XF_AMBER, [BT_VD_REGRESSED] = BT_XF_RED,
};

/* The length of a metric's family: "thread" of "thread.main.wall_ns". */
static size_t family_len(const char *metric)
{
	const char *dot = strchr(metric, '.');

	return dot ? (size_t)(dot - metric) : strlen(metric);
}

/* 0 if two metrics are of one family. */
static int family_cmp(const struct bt_cmp_metric *p, const struct bt_cmp_metric *q)
{
	size_t lp = family_len(p->name), lq = family_len(q->name);
	int c = memcmp(p->name, q->name, lp < lq ? lp : lq);

	return c ? c : (lp > lq) - (lp < lq);
}

static int by_family(const void *a, const void *b)
{
	const struct bt_cmp_metric *p = *(const struct bt_cmp_metric *const *)a;
	const struct bt_cmp_metric *q = *(const struct bt_cmp_metric *const *)b;
	int c = family_cmp(p, q);

	return c ? c : (p > q) - (p < q);   /* within a family, compare's order */
}

static void num_or_blank(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, double v,
			 enum bt_unit u)
{
	if (!isnan(v))
		bt_xlsx_num(x, s, row, col, v, u);
}

/* A change beyond the threshold is red the wrong way, green the right way. */
static enum bt_xlsx_tone tone(double delta, double threshold, int higher_is_better)
{
	if (isnan(delta) || fabs(delta) <= threshold || delta == 0)
		return BT_XT_PLAIN;
	return (delta > 0) != (higher_is_better != 0) ? BT_XT_WORSE : BT_XT_BETTER;
}

static void change(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, double v, enum bt_unit u,
		   enum bt_xlsx_tone t)
{
	if (!isnan(v))
		bt_xlsx_num_fmt(x, s, row, col, bt_xlsx_scale(v, u), bt_xlsx_unit_format(x, u, 1, t), 12);
}

enum { M_METRIC, M_VERDICT, M_UNIT, M_GATED, M_BASE, M_HEAD, M_CHANGE, M_REL, M_P, M_THRESHOLD,
       M_BASE_MIN, M_BASE_MAX, M_HEAD_MIN, M_HEAD_MAX, M_REASON, M__COUNT };

/* Run columns, base runs then head runs, as many as a sheet has columns
 * for (a fleet of more traces shows its first ones: the JSON has all). */
#define XLSX_COLS 16384
static size_t run_cols(const struct bt_compare *c)
{
	return c->runs->nruns < XLSX_COLS - M__COUNT ? c->runs->nruns : XLSX_COLS - M__COUNT;
}

static const char *const metric_head[M__COUNT] = {
	"metric", "verdict", "unit", "gated", "base median", "head median", "change", "change %", "p",
	"threshold", "base min", "base max", "head min", "head max", "why",
};

static void metric_row(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_compare *c,
		       const struct bt_cmp_metric *m)
{
	enum bt_unit u = m->unit;
	enum bt_xlsx_tone t = tone(m->delta, m->threshold, m->gate.higher_is_better);
	size_t r;
	int col = M__COUNT;

	bt_xlsx_text(x, s, row, M_METRIC, m->name, BT_XF_TEXT);
	bt_xlsx_text(x, s, row, M_VERDICT, bt_verdict_name[m->verdict], verdict_fill[m->verdict]);
	bt_xlsx_text(x, s, row, M_UNIT, bt_xlsx_unit_name(u), BT_XF_TEXT);
	bt_xlsx_text(x, s, row, M_GATED, m->gate.gated ? "yes" : "no", BT_XF_TEXT);
	num_or_blank(x, s, row, M_BASE, m->base.median, u);
	num_or_blank(x, s, row, M_HEAD, m->head.median, u);
	change(x, s, row, M_CHANGE, m->delta, u, t);
	change(x, s, row, M_REL, isnan(m->rel) ? NAN : m->rel * 100, BT_UNIT_PCT, t);
	if (m->tested)
		bt_xlsx_num_fmt(x, s, row, M_P, bt_cmp_p(m), x->f[BT_XF_P], 8);
	num_or_blank(x, s, row, M_THRESHOLD, m->threshold, u);
	num_or_blank(x, s, row, M_BASE_MIN, m->base.min, u);
	num_or_blank(x, s, row, M_BASE_MAX, m->base.max, u);
	num_or_blank(x, s, row, M_HEAD_MIN, m->head.min, u);
	num_or_blank(x, s, row, M_HEAD_MAX, m->head.max, u);
	bt_xlsx_text(x, s, row, M_REASON, m->reason ? m->reason : "", BT_XF_TEXT);
	for (r = 0; r < run_cols(c); r++, col++)   /* base runs, then head runs */
		num_or_blank(x, s, row, col, bt_compare_value(c, r, m->id), u);
}

/* Run columns' headings: "base 1".."base N", "head 1".. in the runs' order. */
static char **run_heads(const struct bt_compare *c)
{
	char **h = bt_xcalloc(M__COUNT + run_cols(c) + 1, sizeof *h);
	size_t r, nb = 0, nh = 0;
	int k;

	for (k = 0; k < M__COUNT; k++)
		h[k] = bt_xstrdup(metric_head[k]);
	for (r = 0; r < run_cols(c); r++) {
		struct bt_buf b = BT_BUF_INIT;
		if (c->runs->run[r].side == BT_BASE)
			bt_buf_addf(&b, "base %zu", ++nb);
		else
			bt_buf_addf(&b, "head %zu", ++nh);
		h[M__COUNT + r] = bt_buf_detach(&b, NULL);
	}
	return h;
}

static void family_sheet(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_compare *c,
			 const struct bt_cmp_metric *const *m, size_t n, char **heads)
{
	int ncols = M__COUNT + (int)run_cols(c), last;
	size_t i;

	bt_xlsx_text(x, s, 0, 0, "Metrics, gated first (as compare lists them)", BT_XF_SECTION);
	bt_xlsx_header(x, s, 1, (const char *const *)heads, ncols);
	for (i = 0; i < n && i < BT_XLSX_MAX_ROWS - 2; i++)
		metric_row(x, s, (int)i + 2, c, m[i]);
	last = (int)i + 1;
	bt_xlsx_table_frame(s, 1, last, ncols);
	bt_xlsx_widths(s);
}

/* ---- the stack-level diff ---- */

static const char *const diff_head[] = {
	"list", "change", "what", "scope", "base", "head", "delta", "share %", "inclusive base",
	"inclusive head", "p", "significant",
};

#define DIFF_COLS (int)(sizeof diff_head / sizeof diff_head[0])

static int diff_list(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_cmp_list *l,
		     int measure)
{
	enum bt_unit u;
	const char *title = bt_cmprep_list_title(measure, &u);
	size_t i;

	for (i = 0; i < l->n && row < BT_XLSX_MAX_ROWS - 1; i++, row++) {
		const struct bt_cmp_change *r = &l->rows[i];
		enum bt_xlsx_tone t = r->significant ? tone(r->delta, 0, 0) : BT_XT_PLAIN;
		bt_xlsx_text(x, s, row, 0, title, BT_XF_TEXT);
		bt_xlsx_text(x, s, row, 1, bt_change_name[r->change],
			     !r->significant ? BT_XF_TEXT : t == BT_XT_WORSE ? BT_XF_RED : BT_XF_GREEN);
		bt_xlsx_text(x, s, row, 2, r->what, BT_XF_TEXT);
		bt_xlsx_text(x, s, row, 3, r->scope ? r->scope : "", BT_XF_TEXT);
		num_or_blank(x, s, row, 4, r->base.median, u);
		num_or_blank(x, s, row, 5, r->head.median, u);
		change(x, s, row, 6, r->delta, u, t);
		num_or_blank(x, s, row, 7, r->share, BT_UNIT_PCT);
		num_or_blank(x, s, row, 8, r->incl_base, u);
		num_or_blank(x, s, row, 9, r->incl_head, u);
		if (r->tested)
			bt_xlsx_num_fmt(x, s, row, 10, r->p, x->f[BT_XF_P], 8);
		bt_xlsx_text(x, s, row, 11, r->significant ? "yes" : "no", BT_XF_TEXT);
	}
	return row;
}

static void diff_sheet(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_compare *c)
{
	int row = 2, k;

	bt_xlsx_para(x, s, 0, 0, DIFF_COLS - 1, bt_cmprep_legend);   /* over the table, not widening its first column */
	bt_xlsx_header(x, s, 1, diff_head, DIFF_COLS);
	row = diff_list(x, s, row, &c->blocking, -1);
	for (k = 0; k < BT_MS__COUNT; k++)
		row = diff_list(x, s, row, &c->methods[k], k);
	bt_xlsx_table_frame(s, 1, row - 1, DIFF_COLS);
	bt_xlsx_widths(s);
}

/* ---- charts of the regressed metrics ---- */

/* Charts at most: a reviewer reads the first few; the metric sheets have
 * every run's value of the others. */
#define MAX_CHARTS 20
#define CHART_LAST_COL 12   /* a chart at column 4 covers about 8 (bt_xlsx_chart) */

static const char *axis_unit(enum bt_unit u)
{
	return u == BT_UNIT_NS ? "ms" : u == BT_UNIT_BYTES ? "MiB" : u == BT_UNIT_PCT ? "%" : "count";
}

/* One metric's block at row: its name (the chart's title), the runs' values
 * in columns of base and head (ms for times), and its column chart beside. */
static int chart(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_compare *c,
		 const struct bt_cmp_metric *m, double *v)
{
	static const char *const head[] = { "run", "base", "head" };
	size_t n[2], i, most;
	lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN);
	int side;

	bt_xlsx_text(x, s, row, 0, m->name, BT_XF_SECTION);
	bt_xlsx_text(x, s, row + 1, 0, axis_unit(m->unit), BT_XF_TEXT);
	bt_xlsx_header(x, s, row + 2, head, 3);
	n[0] = bt_compare_values(c, m->id, BT_BASE, v);
	for (i = 0; i < n[0]; i++)
		bt_xlsx_num_fmt(x, s, row + 3 + (int)i, 1, bt_xlsx_scale(v[i], m->unit == BT_UNIT_PCT ? BT_UNIT_NONE : m->unit), NULL, 10);
	n[1] = bt_compare_values(c, m->id, BT_HEAD, v);
	for (i = 0; i < n[1]; i++)
		bt_xlsx_num_fmt(x, s, row + 3 + (int)i, 2, bt_xlsx_scale(v[i], m->unit == BT_UNIT_PCT ? BT_UNIT_NONE : m->unit), NULL, 10);
	most = n[0] > n[1] ? n[0] : n[1];
	for (i = 0; i < most; i++)
		bt_xlsx_num(x, s, row + 3 + (int)i, 0, (double)(i + 1), BT_UNIT_COUNT);
	chart_title_set_name_range(ch, s->name, (lxw_row_t)row, 0);
	for (side = 0; side < 2; side++) {
		lxw_chart_series *ser = chart_add_series(ch, NULL, NULL);
		if (!n[side])
			n[side] = 1;   /* an empty range is no range; the blank cell draws nothing */
		chart_series_set_categories(ser, s->name, (lxw_row_t)row + 3, 0, (lxw_row_t)(row + 2 + (int)most), 0);
		chart_series_set_values(ser, s->name, (lxw_row_t)row + 3, (lxw_col_t)(1 + side),
					(lxw_row_t)(row + 2 + (int)n[side]), (lxw_col_t)(1 + side));
		chart_series_set_name_range(ser, s->name, (lxw_row_t)row + 2, (lxw_col_t)(1 + side));
	}
	chart_axis_set_name(ch->x_axis, "run");
	chart_axis_set_name_range(ch->y_axis, s->name, (lxw_row_t)row + 1, 0);
	bt_xlsx_chart(s, row, 4, ch, 1, 1);   /* the print area holds it */
	return row + (most + 4 > 17 ? (int)most + 4 : 17);   /* a chart is about 15 rows high */
}

static void charts_sheet(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_compare *c)
{
	double *v = bt_xcalloc(c->runs->nruns + 1, sizeof *v);
	size_t i, n = 0;
	int row = 2;
	struct bt_buf b = BT_BUF_INIT;

	for (i = 0; i < c->nm; i++) {
		if (!c->m[i].gate.gated || c->m[i].verdict != BT_VD_REGRESSED)
			continue;
		if (n++ < MAX_CHARTS && (size_t)row + c->runs->nruns + 20 < (size_t)BT_XLSX_MAX_ROWS)
			row = chart(x, s, row, c, &c->m[i], v);
	}
	if (!n)
		bt_buf_adds(&b, "No metric regressed: no charts.");
	else
		bt_buf_addf(&b, "Every run's value of each regressed metric, base against head (times in ms)%s",
			    n > MAX_CHARTS ? "" : ".");
	if (n > MAX_CHARTS)
		bt_buf_addf(&b, "; the first %d of %zu regressed metrics (the metric sheets have the others).",
			    MAX_CHARTS, n);
	bt_xlsx_para(x, s, 0, 0, CHART_LAST_COL, b.buf);   /* over the charts' width */
	bt_xlsx_column(s, 0, 0, 14);
	bt_buf_release(&b);
	free(v);
}

/* ---- Summary and the workbook ---- */

/* The Summary's columns: labels, values, and more as wide for the
 * headline, the policy and the runs' paths, wrapped over them all. */
#define SUMMARY_LAST_COL 5

static void runs(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int *row, const struct bt_compare *c,
		 enum bt_side side)
{
	size_t r;

	bt_xlsx_text(x, s, (*row)++, 0, side == BT_BASE ? "Base runs" : "Head runs", BT_XF_SECTION);
	for (r = 0; r < c->runs->nruns; r++)
		if (c->runs->run[r].side == side)   /* a long path wraps, not cut at the page's edge */
			bt_xlsx_para(x, s, (*row)++, 0, SUMMARY_LAST_COL, c->runs->run[r].path);
	(*row)++;
}

static void summary(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_cmprep_view *v,
		    struct bt_xlsx_sheet *const *fam, const char *const *fam_name, size_t nfam,
		    struct bt_xlsx_sheet *diff, struct bt_xlsx_sheet *charts)
{
	const struct bt_compare *c = v->c;
	struct bt_buf b = BT_BUF_INIT;
	int row = 2, k;
	size_t i;

	bt_xlsx_text(x, s, 0, 0, "btrace-analyze compare", BT_XF_TITLE);
	bt_xlsx_text(x, s, row, 0, "verdict", BT_XF_TEXT);
	bt_xlsx_text(x, s, row++, 1, bt_verdict_name[c->overall], verdict_fill[c->overall]);
	bt_cmprep_headline(c, &b);
	bt_xlsx_para(x, s, row++, 0, SUMMARY_LAST_COL, b.buf);
	bt_buf_reset(&b);
	bt_cmprep_policy(v, &b);
	bt_xlsx_para(x, s, row++, 0, SUMMARY_LAST_COL, b.buf);
	row++;
	bt_xlsx_text(x, s, row++, 0, "Gated metrics by verdict", BT_XF_SECTION);
	for (k = BT_VD__COUNT - 1; k >= 0; k--) {
		bt_xlsx_text(x, s, row, 0, bt_verdict_name[k], verdict_fill[k]);
		bt_xlsx_num(x, s, row++, 1, (double)c->count[k], BT_UNIT_COUNT);
	}
	row++;
	bt_xlsx_text(x, s, row++, 0, "Sheets", BT_XF_SECTION);
	for (i = 0; i < nfam; i++) {
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%s.* metrics", fam_name[i]);
		bt_xlsx_link(x, s, row++, 0, fam[i], b.buf);
	}
	bt_xlsx_link(x, s, row++, 0, diff, "Diff: methods and blocking kinds behind the change");
	bt_xlsx_link(x, s, row++, 0, charts, "Charts: every run's value of the regressed metrics");
	row++;
	runs(x, s, &row, c, BT_BASE);
	runs(x, s, &row, c, BT_HEAD);
	bt_buf_release(&b);
	bt_xlsx_column(s, 0, 0, 28);
	bt_xlsx_column(s, 1, SUMMARY_LAST_COL, 14);
}

static int write_xlsx(const struct bt_cmprep_view *v, FILE *out, struct bt_err *err)
{
	const struct bt_compare *c = v->c;
	const struct bt_cmp_metric **m = bt_xcalloc(c->nm + 1, sizeof *m);
	struct bt_xlsx_sheet *sum, *diff, *charts, **fam = bt_xcalloc(c->nm + 1, sizeof *fam);
	char **fam_name = bt_xcalloc(c->nm + 1, sizeof *fam_name), **heads = run_heads(c);
	struct bt_buf b = BT_BUF_INIT;
	struct bt_xlsx x;
	size_t i, j, nfam = 0;
	int rc = bt_xlsx_open(&x, "btrace-analyze compare", err);

	if (rc)
		goto done;
	for (i = 0; i < c->nm; i++)
		m[i] = &c->m[i];
	qsort(m, c->nm, sizeof *m, by_family);
	sum = bt_xlsx_sheet(&x, "Summary");
	for (i = 0; i < c->nm; i = j) {   /* a sheet per run of one family */
		bt_buf_reset(&b);
		bt_buf_add(&b, m[i]->name, family_len(m[i]->name));
		for (j = i + 1; j < c->nm && !family_cmp(m[i], m[j]); j++)
			;
		fam_name[nfam] = bt_xstrdup(b.buf);
		fam[nfam] = bt_xlsx_sheet(&x, b.buf);
		family_sheet(&x, fam[nfam++], c, m + i, j - i, heads);
	}
	diff = bt_xlsx_sheet(&x, "Diff");
	diff_sheet(&x, diff, c);
	charts = bt_xlsx_sheet(&x, "Charts");
	charts_sheet(&x, charts, c);
	summary(&x, sum, v, fam, (const char *const *)fam_name, nfam, diff, charts);
	rc = bt_xlsx_finish(&x, out, err);
done:
	for (i = 0; i < nfam; i++)
		free(fam_name[i]);
	for (i = 0; i < M__COUNT + run_cols(c); i++)
		free(heads[i]);
	free(heads);
	free(fam_name);
	free(fam);
	free(m);
	bt_buf_release(&b);
	return rc;
}

const struct bt_cmprep_reporter bt_cmprep_xlsx = { "xlsx", ".xlsx", write_xlsx };
