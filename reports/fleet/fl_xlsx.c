/*
 * The fleet report as an xlsx workbook: a Summary (the headline, what the
 * figures mean, time to initial display per group), then one long table
 * per list with the group as its first column, frozen header and
 * autofilter: Distributions, Methods, Waits. Durations are ms cells.
 */
#include <string.h>

#include "engine/fleet/sketch.h"
#include "reports/fleet/fleet_cells.h"
#include "reports/xlsx/xlsx.h"

static const char *const vhead[] = { "group", "value", "name", "traces", "p50 ms", "p90 ms", "p99 ms",
				     "mean ms", "max ms" };
static const char *const mhead[] = { "group", "method", "traces", "share of startup main-thread CPU",
				     "self CPU ms, sum", "self CPU ms, mean", "self CPU ms, p90",
				     "inclusive wall ms, mean", "method signature" };
static const char *const whead[] = { "group", "kind", "holder", "traces", "share of traces", "waits",
				     "wait per trace ms, mean", "wait per trace ms, p90", "holder signature" };

#define NV (int)(sizeof vhead / sizeof vhead[0])
#define NM (int)(sizeof mhead / sizeof mhead[0])
#define NW (int)(sizeof whead / sizeof whead[0])

static int is_ns(const char *name)
{
	return bt_unit_of(name, BT_UNIT_NONE) == BT_UNIT_NS;
}

static void dist_cells(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, const struct bt_dist *d,
		       enum bt_unit u)
{
	if (!d->n)
		return;
	bt_xlsx_num(x, s, row, col, (double)bt_dist_quantile(d, 500), u);
	bt_xlsx_num(x, s, row, col + 1, (double)bt_dist_quantile(d, 900), u);
	bt_xlsx_num(x, s, row, col + 2, (double)bt_dist_quantile(d, 990), u);
	bt_xlsx_num(x, s, row, col + 3, (double)d->sum / (double)d->n, u);
	bt_xlsx_num(x, s, row, col + 4, (double)d->max, u);
}

static void values_sheet(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_fleetrep_view *v)
{
	struct bt_buf b = BT_BUF_INIT;
	int row = 1;
	size_t i, k;

	bt_xlsx_header(x, s, 0, vhead, NV);
	for (i = 0; i < v->ngroups; i++)
		for (k = 0; k < v->groups[i].nvalues && row < BT_XLSX_MAX_ROWS; k++, row++) {
			const struct bt_fl_item *it = v->groups[i].values[k];
			bt_buf_reset(&b);
			bt_fv_label(it->key, &b);
			bt_xlsx_text(x, s, row, 0, v->groups[i].title, BT_XF_TEXT);
			bt_xlsx_text(x, s, row, 1, b.buf, BT_XF_TEXT);
			bt_xlsx_text(x, s, row, 2, it->key, BT_XF_TEXT);
			bt_xlsx_num(x, s, row, 3, (double)it->d.n, BT_UNIT_COUNT);
			dist_cells(x, s, row, 4, &it->d, is_ns(it->key) ? BT_UNIT_NS : BT_UNIT_NONE);
		}
	bt_xlsx_table_frame(s, 0, row - 1, NV);
	bt_xlsx_widths(s);
	bt_buf_release(&b);
}

static void methods_sheet(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_fleetrep_view *v)
{
	int row = 1;
	size_t i, k;

	bt_xlsx_header(x, s, 0, mhead, NM);
	bt_xlsx_fold_columns(s, 8, 8);   /* the signatures; before their cells, which do not wrap */
	for (i = 0; i < v->ngroups; i++) {
		const struct bt_fv_group *g = &v->groups[i];
		for (k = 0; k < g->nmethods && row < BT_XLSX_MAX_ROWS; k++, row++) {
			const struct bt_fl_item *it = g->methods[k];
			bt_xlsx_text(x, s, row, 0, g->title, BT_XF_TEXT);
			bt_xlsx_text(x, s, row, 1, bt_fv_name(v, it->key), BT_XF_TEXT);
			bt_xlsx_num(x, s, row, 2, (double)it->traces, BT_UNIT_COUNT);
			if (g->cpu_total > 0)
				bt_xlsx_num(x, s, row, 3, 100.0 * (double)it->s[0] / (double)g->cpu_total, BT_UNIT_PCT);
			bt_xlsx_num(x, s, row, 4, (double)it->s[0], BT_UNIT_NS);
			if (it->traces > 0) {
				bt_xlsx_num(x, s, row, 5, (double)it->s[0] / (double)it->traces, BT_UNIT_NS);
				bt_xlsx_num(x, s, row, 7, (double)it->s[2] / (double)it->traces, BT_UNIT_NS);
			}
			if (it->d.n)
				bt_xlsx_num(x, s, row, 6, (double)bt_dist_quantile(&it->d, 900), BT_UNIT_NS);
			bt_xlsx_text(x, s, row, 8, it->key, BT_XF_TEXT);
		}
	}
	bt_xlsx_table_frame(s, 0, row - 1, NM);
	bt_xlsx_widths(s);
}

static void waits_sheet(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_fleetrep_view *v)
{
	struct bt_buf kind = BT_BUF_INIT;
	int row = 1;
	size_t i, k;

	bt_xlsx_header(x, s, 0, whead, NW);
	bt_xlsx_fold_columns(s, 8, 8);   /* the signatures; before their cells, which do not wrap */
	for (i = 0; i < v->ngroups; i++) {
		const struct bt_fv_group *g = &v->groups[i];
		for (k = 0; k < g->nwaits && row < BT_XLSX_MAX_ROWS; k++, row++) {
			const struct bt_fl_item *it = g->waits[k];
			const char *holder = bt_fv_wait(it, &kind);
			bt_xlsx_text(x, s, row, 0, g->title, BT_XF_TEXT);
			bt_xlsx_text(x, s, row, 1, kind.buf, BT_XF_TEXT);
			bt_xlsx_text(x, s, row, 2, bt_fv_name(v, holder), BT_XF_TEXT);
			bt_xlsx_num(x, s, row, 3, (double)it->traces, BT_UNIT_COUNT);
			if (g->g->traces > 0)
				bt_xlsx_num(x, s, row, 4, 100.0 * (double)it->traces / (double)g->g->traces, BT_UNIT_PCT);
			bt_xlsx_num(x, s, row, 5, (double)it->s[0], BT_UNIT_COUNT);
			if (it->traces > 0)
				bt_xlsx_num(x, s, row, 6, (double)it->s[1] / (double)it->traces, BT_UNIT_NS);
			if (it->d.n)
				bt_xlsx_num(x, s, row, 7, (double)bt_dist_quantile(&it->d, 900), BT_UNIT_NS);
			bt_xlsx_text(x, s, row, 8, holder, BT_XF_TEXT);
		}
	}
	bt_xlsx_table_frame(s, 0, row - 1, NW);
	bt_xlsx_widths(s);
	bt_buf_release(&kind);
}

static void summary(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_fleetrep_view *v,
		    struct bt_xlsx_sheet *const *sheets)
{
	static const char *const head[] = { "group", "traces", "with a startup", "TTID p50 ms",
					    "TTID p90 ms", "TTID p99 ms" };
	static const char *const links[] = { "Distributions: every value's p50/p90/p99 per group",
					     "Methods: what dominates the startup's main-thread CPU",
					     "Waits: what most often holds the startup's main thread" };
	struct bt_buf b = BT_BUF_INIT;
	int row = 0, k;
	size_t i;

	bt_fv_headline(v, &b);
	bt_xlsx_text(x, s, row++, 0, "Fleet", BT_XF_TITLE);
	bt_xlsx_para(x, s, row++, 0, 5, b.buf);   /* over the table's columns, wrapped */
	bt_xlsx_para(x, s, row++, 0, 5, bt_fv_note);
	row++;
	bt_xlsx_text(x, s, row++, 0, "Sheets", BT_XF_SECTION);
	for (k = 0; k < 3; k++)
		bt_xlsx_link(x, s, row++, 0, sheets[k], links[k]);
	row++;
	bt_xlsx_text(x, s, row++, 0, "Time to initial display (TTID) per group", BT_XF_SECTION);
	bt_xlsx_header(x, s, row++, head, 6);
	for (i = 0; i < v->ngroups; i++, row++) {
		const struct bt_fl_item *t = bt_fl_find(&v->groups[i].g->values, "startup.ttid_ns");
		bt_xlsx_text(x, s, row, 0, v->groups[i].title, BT_XF_TEXT);
		bt_xlsx_num(x, s, row, 1, (double)v->groups[i].g->traces, BT_UNIT_COUNT);
		bt_xlsx_num(x, s, row, 2, t ? (double)t->d.n : 0, BT_UNIT_COUNT);
		if (t && t->d.n)
			for (k = 0; k < 3; k++)
				bt_xlsx_num(x, s, row, 3 + k, (double)bt_dist_quantile(&t->d, k == 0 ? 500 :
					    k == 1 ? 900 : 990), BT_UNIT_NS);
	}
	bt_xlsx_column(s, 0, 0, 36);
	bt_xlsx_column(s, 1, 5, 14);
	bt_buf_release(&b);
}

static int write_xlsx(const struct bt_fleetrep_view *v, FILE *out, struct bt_err *err)
{
	struct bt_xlsx_sheet *sum, *sheets[3];
	struct bt_xlsx x;
	int rc = bt_xlsx_open(&x, "btrace-analyze fleet report", err);

	if (rc)
		return rc;
	sum = bt_xlsx_sheet(&x, "Summary");
	sheets[0] = bt_xlsx_sheet(&x, "Distributions");
	sheets[1] = bt_xlsx_sheet(&x, "Methods");
	sheets[2] = bt_xlsx_sheet(&x, "Waits");
	values_sheet(&x, sheets[0], v);
	methods_sheet(&x, sheets[1], v);
	waits_sheet(&x, sheets[2], v);
	summary(&x, sum, v, sheets);
	return bt_xlsx_finish(&x, out, err);
}

const struct bt_fleetrep_reporter bt_fleetrep_xlsx = { "xlsx", ".xlsx", write_xlsx };
