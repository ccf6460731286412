/*
 * The fleet report as Markdown: a headline, then per group (all traces
 * first) the values' distributions, the methods that dominate the
 * startup's main-thread CPU and the waits most often on its critical path.
 */
#include "reports/fleet/fleet_cells.h"
#include "reports/markdown.h"
#include "reports/report.h"

static void group(const struct bt_fleetrep_view *v, const struct bt_fv_group *g, struct bt_buf *c, FILE *out)
{
	size_t i;

	fputs("\n## ", out);
	bt_md_put(out, g->title);
	fprintf(out, " (%lld traces)\n\n", (long long)g->g->traces);
	if (g->nvalues) {
		bt_md_head(out, bt_fv_vhead, BT_FV_VCOLS, "lrrrrrr");
		for (i = 0; i < g->nvalues; i++) {
			bt_fv_value_cells(g->values[i], c);
			bt_md_row(out, c, BT_FV_VCOLS);
		}
	}
	if (g->nmethods) {
		fputs("\n### Methods that dominate the startup's main-thread CPU\n\n", out);
		bt_md_head(out, bt_fv_mhead, BT_FV_MCOLS, "lrrrrr");
		for (i = 0; i < g->nmethods; i++) {
			bt_fv_method_cells(v, g, g->methods[i], c);
			bt_md_row(out, c, BT_FV_MCOLS);
		}
	}
	if (g->nwaits) {
		fputs("\n### Waits most often on the startup's critical path\n\n", out);
		bt_md_head(out, bt_fv_whead, BT_FV_WCOLS, "llrrrr");
		for (i = 0; i < g->nwaits; i++) {
			bt_fv_wait_cells(v, g, g->waits[i], c);
			bt_md_row(out, c, BT_FV_WCOLS);
		}
	}
}

static int write_md(const struct bt_fleetrep_view *v, FILE *out, struct bt_err *err)
{
	struct bt_buf c[BT_FV_CELLS], b = BT_BUF_INIT;
	size_t i;

	(void)err;
	bt_fv_cells(c, 1);
	bt_fv_headline(v, &b);
	fputs("# Fleet: ", out);
	bt_md_put(out, b.buf);
	fputs("\n\n", out);
	fputs(bt_fv_note, out);
	fputs("\n\n", out);
	bt_md_head(out, bt_fv_ghead, BT_FV_GCOLS, "lrrrrr");
	for (i = 0; i < v->ngroups; i++) {
		bt_fv_group_cells(&v->groups[i], c);
		bt_md_row(out, c, BT_FV_GCOLS);
	}
	for (i = 0; i < v->ngroups; i++)
		group(v, &v->groups[i], c, out);
	bt_fv_cells(c, 0);
	bt_buf_release(&b);
	return BT_OK;
}

const struct bt_fleetrep_reporter bt_fleetrep_md = { "md", ".md", write_md };
