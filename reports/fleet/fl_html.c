/*
 * The fleet report as one self-contained HTML page (the analysis report's
 * stylesheet, nothing fetched): a table of contents, then per group a
 * histogram of the time to initial display with its p50/p90/p99 (SVG,
 * from the sketch's buckets on a log scale) and the Markdown report's
 * three tables (fleet_cells.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "engine/fleet/sketch.h"
#include "reports/fleet/fleet_cells.h"
#include "reports/html/html_int.h"

#define SVG_W 720
#define SVG_H 140
#define PAD 30

static void table(FILE *out, const char *const *head, int n)
{
	int k;

	fputs("<table class=\"data\"><thead><tr>", out);
	for (k = 0; k < n; k++) {
		fputs("<th>", out);
		bt_html_esc(out, head[k]);
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
}

static void row(FILE *out, const struct bt_buf *c, int n, const char *align, const char *full)
{
	int k;

	fputs("<tr>", out);
	for (k = 0; k < n; k++) {
		fputs(align[k] == 'r' ? "<td class=\"n\">" : "<td", out);
		if (align[k] != 'r' && k == 0 && full) {
			fputs(" title=\"", out);
			bt_html_esc(out, full);
			fputc('"', out);
		}
		if (align[k] != 'r')
			fputc('>', out);
		bt_html_esc(out, c[k].buf);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static double xpos(double v, double lo, double hi)
{
	if (hi <= lo)
		return PAD + (SVG_W - 2 * PAD) / 2.0;
	return PAD + (SVG_W - 2 * PAD) * (log(v) - log(lo)) / (log(hi) - log(lo));
}

static void marker(FILE *out, const struct bt_dist *d, int pm, const char *name, double lo, double hi)
{
	struct bt_buf b = BT_BUF_INIT;
	int64_t q = bt_dist_quantile(d, pm);
	double x = xpos(q > 0 ? (double)q : 1, lo, hi);

	bt_fv_ns(q, 1, &b);
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"12\" y2=\"%d\" stroke=\"#c33\" stroke-dasharray=\"3 2\"/>"
		"<text x=\"%.1f\" y=\"10\" font-size=\"10\" text-anchor=\"middle\">%s %s</text>\n",
		x, x, SVG_H - PAD, x, name, b.buf);
	bt_buf_release(&b);
}

/* The time to initial display of a group's traces: one bar per bucket. */
static void histogram(FILE *out, const struct bt_fl_group *g)
{
	const struct bt_fl_item *it = bt_fl_find(&g->values, "startup.ttid_ns");
	struct bt_buf lo_s = BT_BUF_INIT, hi_s = BT_BUF_INIT;
	const struct bt_dist *d;
	double lo, hi, top = 1;
	size_t i;

	if (!it || !it->d.n || !it->d.nc)
		return;
	d = &it->d;
	lo = d->min > 0 ? (double)d->min : 1;
	hi = (double)d->max;
	for (i = 0; i < d->nc; i++)
		if ((double)d->c[i] > top)
			top = (double)d->c[i];
	fprintf(out, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"role=\"img\" aria-label=\"time to initial display\">\n", SVG_W, SVG_H);
	for (i = 0; i < d->nc; i++) {
		double r = bt_dist_rep(d->lo + (int)i);
		double x0 = xpos(fmax(lo, r / (1 + BT_DIST_ALPHA)), lo, hi);
		double x1 = xpos(fmin(hi, r * (1 + BT_DIST_ALPHA)), lo, hi);
		double h = (SVG_H - 2 * PAD - 14) * (double)d->c[i] / top;
		if (!d->c[i])
			continue;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4a7fb5\">"
			"<title>%lld traces</title></rect>\n", x0, SVG_H - PAD - h, fmax(1.0, x1 - x0), h,
			(long long)d->c[i]);
	}
	marker(out, d, 500, "p50", lo, hi);
	marker(out, d, 900, "p90", lo, hi);
	marker(out, d, 990, "p99", lo, hi);
	bt_fv_ns(d->min, 1, &lo_s);
	bt_fv_ns(d->max, 1, &hi_s);
	fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>"
		"<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>"
		"<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%s</text>\n</svg>\n"
		"<figcaption>Time to initial display of %lld traces (log scale)</figcaption></figure>\n",
		PAD, SVG_W - PAD, SVG_H - PAD, SVG_H - PAD, PAD, SVG_H - PAD + 14, lo_s.buf, SVG_W - PAD,
		SVG_H - PAD + 14, hi_s.buf, (long long)d->n);
	bt_buf_release(&lo_s);
	bt_buf_release(&hi_s);
}

static void group(const struct bt_fleetrep_view *v, size_t k, struct bt_buf *c, FILE *out)
{
	const struct bt_fv_group *g = &v->groups[k];
	size_t i;

	fprintf(out, "<section id=\"group-%zu\">\n<h2>", k + 1);
	bt_html_esc(out, g->title);
	fprintf(out, " (%lld traces)</h2>\n", (long long)g->g->traces);
	histogram(out, g->g);
	if (g->nvalues) {
		fputs("<h3>Distributions</h3>\n", out);
		table(out, bt_fv_vhead, BT_FV_VCOLS);
		for (i = 0; i < g->nvalues; i++) {
			bt_fv_value_cells(g->values[i], c);
			row(out, c, BT_FV_VCOLS, "lrrrrrr", g->values[i]->key);
		}
		fputs("</tbody></table>\n", out);
	}
	if (g->nmethods) {
		fputs("<h3>Methods that dominate the startup's main-thread CPU</h3>\n", out);
		table(out, bt_fv_mhead, BT_FV_MCOLS);
		for (i = 0; i < g->nmethods; i++) {
			bt_fv_method_cells(v, g, g->methods[i], c);
			row(out, c, BT_FV_MCOLS, "lrrrrr", g->methods[i]->key);
		}
		fputs("</tbody></table>\n", out);
	}
	if (g->nwaits) {
		fputs("<h3>Waits most often on the startup's critical path</h3>\n", out);
		table(out, bt_fv_whead, BT_FV_WCOLS);
		for (i = 0; i < g->nwaits; i++) {
			bt_fv_wait_cells(v, g, g->waits[i], c);
			row(out, c, BT_FV_WCOLS, "llrrrr", NULL);
		}
		fputs("</tbody></table>\n", out);
	}
	fputs("</section>\n", out);
}

static int write_html(const struct bt_fleetrep_view *v, FILE *out, struct bt_err *err)
{
	struct bt_buf c[BT_FV_CELLS], b = BT_BUF_INIT;
	size_t i;

	bt_fv_cells(c, 1);
	bt_fv_headline(v, &b);
	bt_html_head(out, "btrace-analyze fleet report");
	fputs("<header>\n<h1>Fleet: ", out);
	bt_html_esc(out, b.buf);
	fputs("</h1>\n<p class=\"facts\">", out);
	bt_html_esc(out, bt_fv_note);
	fputs("</p>\n</header>\n<nav id=\"toc\"><strong>Groups</strong> ", out);
	for (i = 0; i < v->ngroups; i++) {
		fprintf(out, "%s<a href=\"#group-%zu\">", i ? " &middot; " : "", i + 1);
		bt_html_esc(out, v->groups[i].title);
		fputs("</a>", out);
	}
	fputs("</nav>\n<main>\n<section id=\"glance\">\n<h2>Groups at a glance</h2>\n", out);
	table(out, bt_fv_ghead, BT_FV_GCOLS);
	for (i = 0; i < v->ngroups; i++) {
		bt_fv_group_cells(&v->groups[i], c);
		row(out, c, BT_FV_GCOLS, "lrrrrr", NULL);
	}
	fputs("</tbody></table>\n</section>\n", out);
	for (i = 0; i < v->ngroups; i++)
		group(v, i, c, out);
	fputs("</main>\n<script>document.documentElement.setAttribute('data-ready', '1');</script>\n"
	      "</body>\n</html>\n", out);
	bt_fv_cells(c, 0);
	bt_buf_release(&b);
	if (ferror(out))
		return bt_err_set(err, BT_EIO, "cannot write the fleet report: %s", strerror(errno));
	return BT_OK;
}

const struct bt_fleetrep_reporter bt_fleetrep_html = { "html", ".html", write_html };
