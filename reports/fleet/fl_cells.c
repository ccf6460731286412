/*
 * The fleet report's rows as text cells, shared by Markdown and HTML: a
 * value's distribution, a method's share of the startup's main-thread
 * CPU, a wait's place on the critical path.
 */
#include <string.h>

#include "engine/fleet/sketch.h"
#include "reports/fleet/fleet_cells.h"
#include "reports/report.h"

const char *const bt_fv_vhead[BT_FV_VCOLS] = { "value", "traces", "p50", "p90", "p99", "mean", "max" };
const char *const bt_fv_mhead[BT_FV_MCOLS] = {
	"method", "traces", "share of startup main-thread CPU", "self CPU, mean", "self CPU, p90",
	"inclusive wall, mean"
};
const char *const bt_fv_whead[BT_FV_WCOLS] = {
	"kind", "holder", "traces", "waits", "wait per trace, mean", "wait per trace, p90"
};

const char *const bt_fv_ghead[BT_FV_GCOLS] = {
	"group", "traces", "with a startup", "time to initial display, p50", "p90", "p99"
};

static void reset(struct bt_buf *c, int n)
{
	int k;

	for (k = 0; k < n; k++)
		bt_buf_reset(&c[k]);
}

void bt_fv_value_cells(const struct bt_fl_item *it, struct bt_buf c[BT_FV_VCOLS])
{
	const struct bt_dist *d = &it->d;
	int ns = bt_unit_of(it->key, BT_UNIT_NONE) == BT_UNIT_NS;

	reset(c, BT_FV_VCOLS);
	bt_fv_label(it->key, &c[0]);
	bt_buf_addf(&c[1], "%lld", (long long)d->n);
	if (!d->n)
		return;
	if (!ns) {
		bt_buf_addf(&c[2], "%lld", (long long)bt_dist_quantile(d, 500));
		bt_buf_addf(&c[3], "%lld", (long long)bt_dist_quantile(d, 900));
		bt_buf_addf(&c[4], "%lld", (long long)bt_dist_quantile(d, 990));
		bt_buf_addf(&c[5], "%.1f", (double)d->sum / (double)d->n);
		bt_buf_addf(&c[6], "%lld", (long long)d->max);
		return;
	}
	bt_fv_ns(bt_dist_quantile(d, 500), 1, &c[2]);
	bt_fv_ns(bt_dist_quantile(d, 900), 1, &c[3]);
	bt_fv_ns(bt_dist_quantile(d, 990), 1, &c[4]);
	bt_fv_ns(d->sum / d->n, 1, &c[5]);
	bt_fv_ns(d->max, 1, &c[6]);
}

void bt_fv_method_cells(const struct bt_fleetrep_view *v, const struct bt_fv_group *g,
			const struct bt_fl_item *it, struct bt_buf c[BT_FV_MCOLS])
{
	reset(c, BT_FV_MCOLS);
	bt_buf_adds(&c[0], bt_fv_name(v, it->key));
	bt_buf_addf(&c[1], "%lld", (long long)it->traces);
	if (g->cpu_total > 0)
		bt_buf_addf(&c[2], "%.1f %%", 100.0 * (double)it->s[0] / (double)g->cpu_total);
	if (it->traces > 0) {
		bt_fv_ns(it->s[0] / it->traces, 1, &c[3]);
		bt_fv_ns(bt_dist_quantile(&it->d, 900), it->d.n > 0, &c[4]);
		bt_fv_ns(it->s[2] / it->traces, 1, &c[5]);
	}
}

void bt_fv_wait_cells(const struct bt_fleetrep_view *v, const struct bt_fv_group *g,
		      const struct bt_fl_item *it, struct bt_buf c[BT_FV_WCOLS])
{
	struct bt_buf kind = BT_BUF_INIT;
	const char *holder = bt_fv_wait(it, &kind);

	reset(c, BT_FV_WCOLS);
	bt_buf_adds(&c[0], kind.buf);
	bt_buf_adds(&c[1], bt_fv_name(v, holder));
	bt_buf_addf(&c[2], "%lld", (long long)it->traces);
	if (g->g->traces > 0)
		bt_buf_addf(&c[2], " (%.1f %%)", 100.0 * (double)it->traces / (double)g->g->traces);
	bt_buf_addf(&c[3], "%lld", (long long)it->s[0]);
	if (it->traces > 0) {
		bt_fv_ns(it->s[1] / it->traces, 1, &c[4]);
		bt_fv_ns(bt_dist_quantile(&it->d, 900), it->d.n > 0, &c[5]);
	}
	bt_buf_release(&kind);
}

void bt_fv_cells(struct bt_buf *c, int init)
{
	int k;

	for (k = 0; k < BT_FV_CELLS; k++)
		if (init)
			bt_buf_init(&c[k]);
		else
			bt_buf_release(&c[k]);
}

/* The fleet's display frames, every frame of every trace: how many, the
 * share janky (the traces' janky frames over their frames, exact), and
 * the frame time's p50/p90/p99 from the merged sketch. */
static void frames_words(const struct bt_fleet *f, struct bt_buf *b)
{
	const struct bt_fl_item *n = bt_fl_find(&f->all.values, "frames.count");
	const struct bt_fl_item *j = bt_fl_find(&f->all.values, "frames.janky");
	const struct bt_dist *d = &f->all.frames;

	if (!d->n)
		return;
	bt_buf_addf(b, "; %lld display frames", (long long)d->n);
	if (n && j && n->d.sum > 0)
		bt_buf_addf(b, ", %.2f %% janky", 100.0 * (double)j->d.sum / (double)n->d.sum);
	bt_buf_adds(b, ", frame time p50 ");
	bt_fv_ns(bt_dist_quantile(d, 500), 1, b);
	bt_buf_adds(b, ", p90 ");
	bt_fv_ns(bt_dist_quantile(d, 900), 1, b);
	bt_buf_adds(b, ", p99 ");
	bt_fv_ns(bt_dist_quantile(d, 990), 1, b);
}

void bt_fv_headline(const struct bt_fleetrep_view *v, struct bt_buf *b)
{
	const struct bt_fl_item *ttid = bt_fl_find(&v->f->all.values, "startup.ttid_ns");

	bt_buf_addf(b, "%lld traces", (long long)v->f->all.traces);
	if (ttid && ttid->d.n) {
		bt_buf_addf(b, "; time to initial display (%lld with a startup): p50 ", (long long)ttid->d.n);
		bt_fv_ns(bt_dist_quantile(&ttid->d, 500), 1, b);
		bt_buf_adds(b, ", p90 ");
		bt_fv_ns(bt_dist_quantile(&ttid->d, 900), 1, b);
		bt_buf_adds(b, ", p99 ");
		bt_fv_ns(bt_dist_quantile(&ttid->d, 990), 1, b);
	}
	frames_words(v->f, b);
}

const char bt_fv_note[] =
	"Quantiles are within 1 % (relative) of the exact ones, whatever was merged in which order "
	"(a log-bucketed sketch, engine/fleet/README.md). A method's traces are those where it was "
	"among the trace's top 32 app methods by startup main-thread self CPU; its share is of the "
	"group's whole startup main-thread self CPU. A wait's holder is the method the last thread "
	"of its chain ran (the one that held the main thread up).";

void bt_fv_group_cells(const struct bt_fv_group *g, struct bt_buf c[BT_FV_GCOLS])
{
	const struct bt_fl_item *t = bt_fl_find(&g->g->values, "startup.ttid_ns");

	reset(c, BT_FV_GCOLS);
	bt_buf_adds(&c[0], g->title);
	bt_buf_addf(&c[1], "%lld", (long long)g->g->traces);
	bt_buf_addf(&c[2], "%lld", t ? (long long)t->d.n : 0LL);
	if (!t || !t->d.n)
		return;
	bt_fv_ns(bt_dist_quantile(&t->d, 500), 1, &c[3]);
	bt_fv_ns(bt_dist_quantile(&t->d, 900), 1, &c[4]);
	bt_fv_ns(bt_dist_quantile(&t->d, 990), 1, &c[5]);
}
