/*
 * The metric half of compare (see compare.h): which metrics are reported
 * and gated, their per-side summaries and statistics, the verdicts, and
 * the overall verdict. The stack-level diff is in compare_diff.c.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/compare/compare.h"
#include "engine/compare/compare_int.h"

const char *const bt_verdict_name[BT_VD__COUNT] = { "unchanged", "improved", "inconclusive",
						     "regressed" };

int bt_verdict_parse(const char *name)
{
	int i;

	for (i = 0; i < BT_VD__COUNT; i++)
		if (!strcmp(name, bt_verdict_name[i]))
			return i;
	return -1;
}

void bt_gate_defaults(struct bt_gate *g)
{
	g->max_regress = 0.05;
	g->floor_ns = 1e6;          /* 1 ms: below a frame, above clock noise */
	g->floor_bytes = 65536;
	g->floor_count = 0;
	g->alpha = 0.01;            /* family-wise: a same-build comparison fails 1 time in 100 at most */
	g->gated = 0;   /* chosen per metric */
	g->higher_is_better = 0;
}

/* A number and what follows it (spaces skipped); 0 if there is none. */
static int lead_number(const char *s, double *v, const char **rest)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	*v = strtod(s, &end);
	if (end == s || !isfinite(*v))
		return 0;
	while (isspace((unsigned char)*end))
		end++;
	*rest = end;
	return 1;
}

int bt_gate_parse_pct(const char *s, double *out)
{
	const char *rest;
	double v;

	if (!lead_number(s, &v, &rest) || v < 0)
		return -1;
	if (!strcmp(rest, "%"))
		v /= 100;
	else if (*rest)
		return -1;
	*out = v;
	return 0;
}

int bt_gate_parse_floor(const char *s, struct bt_gate *g)
{
	static const struct { const char *suffix; double scale; int unit; } units[] = {
		{ "ns", 1, 0 }, { "us", 1e3, 0 }, { "ms", 1e6, 0 }, { "s", 1e9, 0 },
		{ "B", 1, 1 }, { "KB", 1024, 1 }, { "KiB", 1024, 1 }, { "MB", 1048576, 1 },
		{ "MiB", 1048576, 1 }, { "GB", 1073741824.0, 1 }, { "GiB", 1073741824.0, 1 },
		{ "", 1, 2 },
	};
	const char *rest;
	double v;
	size_t i;

	if (!lead_number(s, &v, &rest) || v < 0)
		return -1;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(rest, units[i].suffix))
			continue;
		v *= units[i].scale;
		*(units[i].unit == 0 ? &g->floor_ns : units[i].unit == 1 ? &g->floor_bytes :
		  &g->floor_count) = v;
		return 0;
	}
	return -1;
}

/* The noise floor of g for unit u. */
static double unit_floor(const struct bt_gate *g, enum bt_unit u)
{
	return u == BT_UNIT_NS ? g->floor_ns : u == BT_UNIT_BYTES ? g->floor_bytes : g->floor_count;
}

double bt_gate_threshold(const struct bt_gate *g, enum bt_unit u, double base)
{
	return fmax(unit_floor(g, u), g->max_regress * fabs(base));
}

int bt_cmp_per_messages(const char *name)
{
	return !strncmp(name, BT_CMP_MSGS, strlen(BT_CMP_MSGS)) && strcmp(name, BT_CMP_MSGS "count") &&
	       !bt_metric_in_window(name);
}

/* The measures a window of first messages holds too (lua/gate.lua). */
static int windowable(const char *name)
{
	static const char *const parts[] = { BT_CMP_MSGS, "thread.main.wait.", "thread.main.per_s." };
	size_t i;

	for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (!strncmp(name, parts[i], strlen(parts[i])))
			return 1;
	return 0;
}

/* A measure of CPU time: "...self_cpu_ns", "...incl_offcpu_ns". */
static int cpu_metric(const char *name)
{
	size_t n = strlen(name);

	return (n >= 6 && !strcmp(name + n - 6, "cpu_ns")) || strstr(name, "unexplained") != NULL;
}

/* What a metric's name says of its values, worked out once per metric
 * rather than once per run. */
struct reading {
	int per_method, cpu, per_messages;
	int window;        /* read from the runs' common window of messages (win_alt) */
	uint32_t alt;      /* that metric's id + 1, 0: none (not in the window) */
};

static struct reading reading_of(const struct bt_compare *c, size_t id)
{
	const char *name = c->runs->names[id];
	struct reading k;

	k.per_method = bt_metric_per_method(name);
	k.cpu = k.per_method && cpu_metric(name);
	k.per_messages = c->msg_scale && bt_cmp_per_messages(name);
	k.window = c->win_alt && windowable(name);
	k.alt = k.window ? c->win_alt[id] : 0;
	return k;
}

static double value_read(const struct bt_compare *c, const struct reading *k, size_t r, size_t id)
{
	double v = k->window ? (k->alt ? bt_runs_value(c->runs, r, k->alt - 1) : NAN) : bt_runs_value(c->runs, r, id);

	if (isnan(v) && k->per_method && !(c->runs->run[r].cpu_unknown && k->cpu))
		v = 0;   /* under the report's cut: ~0 (but CPU time a trace does not give is unknown) */
	if (k->per_messages && !k->window)
		v *= c->msg_scale[r];
	return v;
}

double bt_compare_value(const struct bt_compare *c, size_t r, size_t id)
{
	struct reading k = reading_of(c, id);

	return value_read(c, &k, r, id);
}

size_t bt_compare_values(const struct bt_compare *c, size_t id, enum bt_side side, double *x)
{
	struct reading k = reading_of(c, id);
	size_t r, n = 0;

	for (r = 0; r < c->runs->nruns; r++) {
		double v;
		if (c->runs->run[r].side != side)
			continue;
		if (!isnan(v = value_read(c, &k, r, id)))
			x[n++] = v;
	}
	return n;
}

/* The median over every run (both sides) of a metric that describes the
 * run, not the app (its positive values); 0 when no run has it. *at is
 * its id + 1, 0 when no report names it. */
static double run_median(const struct bt_runs *rs, const char *name, uint32_t *at, double *x)
{
	struct bt_stats_summary s;
	size_t r, n = 0;

	*at = bt_strmap_get(&rs->ids, name, strlen(name));
	for (r = 0; *at && r < rs->nruns; r++)
		if (bt_runs_value(rs, r, *at - 1) > 0)
			x[n++] = bt_runs_value(rs, r, *at - 1);
	if (!n)
		return 0;
	bt_stats_summarize(x, n, &s);
	return s.median;
}

/* The largest window of first messages (lua/gate.lua's BT_CMP_WINDOW
 * N.msgs.count) every run has; 0 none. */
static int64_t common_window(const struct bt_runs *rs)
{
	size_t i, r, plen = strlen(BT_CMP_WINDOW);
	int64_t best = 0;

	for (i = 0; i < rs->nnames; i++) {
		const char *name = rs->names[i];
		char *end;
		long long w;
		if (strncmp(name, BT_CMP_WINDOW, plen))
			continue;
		w = strtoll(name + plen, &end, 10);
		if (w <= best || strcmp(end, ".msgs.count"))
			continue;
		for (r = 0; r < rs->nruns && bt_runs_value(rs, r, i) == (double)w; r++)
			;
		if (r == rs->nruns)
			best = w;
	}
	return best;
}

/* Every windowable metric's counterpart in the window: "thread.main.X" is
 * read from "thread.main.first.N.X" (its id + 1, 0 none). */
static void window_ids(struct bt_compare *c)
{
	const struct bt_runs *rs = c->runs;
	struct bt_buf b = BT_BUF_INIT;
	size_t i, plen = strlen("thread.main.");

	c->win_alt = bt_xcalloc(rs->nnames + 1, sizeof *c->win_alt);
	for (i = 0; i < rs->nnames; i++) {
		const char *name = rs->names[i];
		if (!windowable(name))
			continue;
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%s%lld.%s", BT_CMP_WINDOW, (long long)c->msg_window, name + plen);
		c->win_alt[i] = bt_strmap_get(&rs->ids, b.buf, b.len);
	}
	bt_buf_release(&b);
}

/* Totals over a run's messages read as over the median run's number of
 * messages (lua/gate.lua): the same work whatever the capture's length.
 * Where every run has a common window of first messages, their metrics
 * are read there instead: later messages are not like the first (another
 * mix of kinds, warmer caches), so a longer capture's differ whatever the
 * scale. */
static void message_scale(struct bt_compare *c, double *x)
{
	const struct bt_runs *rs = c->runs;
	uint32_t at;
	size_t r;

	if ((c->msg_window = common_window(rs)) > 0)
		window_ids(c);
	c->msg_ref = run_median(rs, BT_CMP_MSGS "count", &at, x);
	if (!at)
		return;
	c->msg_scale = bt_xcalloc(rs->nruns + 1, sizeof *c->msg_scale);
	for (r = 0; r < rs->nruns; r++) {
		double k = bt_runs_value(rs, r, at - 1);
		c->msg_scale[r] = k > 0 ? c->msg_ref / k : NAN;
	}
}

/* A sampled method's bounds lie somewhere in the gaps between samples,
 * and a change anywhere earlier moves where the samples land: a gap's
 * worth of time moves between neighbouring methods in every run of the
 * head (issue 36: +1.4 ms on a method the head did not change, p = 0.004).
 * The runs' median resolution is the floor of the main thread's method
 * times. */
static void sampling_resolution(struct bt_compare *c, double *x)
{
	uint32_t at;

	c->resolution_ns = run_median(c->runs, BT_CMP_RESOLUTION, &at, x);
}

/* A time of one of the main thread's methods in the start, which the
 * samples the resolution was measured on place. */
static int sampled_method(const char *name, enum bt_unit u)
{
	static const char pre[] = "startup.main.method.";

	return u == BT_UNIT_NS && !strncmp(name, pre, strlen(pre));
}

/* The smallest two-sided exact p with n and m runs: 2 / C(n + m, n). */
static double smallest_p(size_t n, size_t m)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= n; i++)
		c = c * (double)(m + i) / (double)i;
	return fmin(1, 2 / c);
}

void bt_cmp_amount(enum bt_unit u, double v, struct bt_buf *b)
{
	static const char *const bytes[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double a = fabs(v);
	int k = 0;

	if (v == 0) {
		bt_buf_addc(b, '0');
	} else if (u == BT_UNIT_NS) {
		bt_buf_addf(b, a >= 1e9 ? "%.4g s" : a >= 1e5 ? "%.4g ms" : "%.3g us",
			    a >= 1e9 ? v / 1e9 : a >= 1e5 ? v / 1e6 : v / 1e3);
	} else if (u == BT_UNIT_BYTES) {
		while (a >= 1024 && k < 4)
			a /= 1024, v /= 1024, k++;
		bt_buf_addf(b, k ? "%.4g %s" : "%.0f %s", v, bytes[k]);
	} else if (u == BT_UNIT_PCT) {
		bt_buf_addf(b, "%.3g %%", v);
	} else {
		bt_buf_addf(b, v == floor(v) && a < 1e15 ? "%.0f" : a < 1e12 ? "%.1f" : "%.4g", v);
	}
}

double bt_cmp_p(const struct bt_cmp_metric *m)
{
	return m->in_family ? m->p_adj : m->tested ? m->mwu.p : NAN;
}

double bt_cmp_median(const struct bt_compare *c, size_t id, enum bt_side side, double *x)
{
	struct bt_stats_summary s;

	if (id == SIZE_MAX)
		return NAN;
	bt_stats_summarize(x, bt_compare_values(c, id, side, x), &s);
	return s.median;
}

/* Runs a side that let every relabeling test reach p < alpha. */
static size_t runs_needed(double alpha)
{
	size_t k = 2;

	while (k < 50 && bt_family_min_p(k) >= alpha)
		k++;
	return k;
}

static void judge(struct bt_cmp_metric *m)
{
	const struct bt_gate *g = &m->gate;
	struct bt_buf why = BT_BUF_INIT;
	double worse = g->higher_is_better ? -m->delta : m->delta;

	/* equivalence: the interval reaches its level (tiny samples' [min,
	 * max] may not) and lies inside the threshold on both sides */
	m->equivalent = m->tested && g->alpha < 0.5 && m->eq.level >= 1 - 2 * g->alpha - 1e-12 &&
			m->eq.lo > -m->threshold && m->eq.hi < m->threshold;

	if (!m->base.n || !m->head.n) {
		m->verdict = BT_VD_INCONCLUSIVE;
		bt_buf_addf(&why, "missing from the %s runs", m->base.n ? "head" : "base");
	} else if (!m->tested) {   /* one run's noise is not told from a change: no verdict from it */
		m->verdict = BT_VD_INCONCLUSIVE;
		bt_buf_addf(&why, "one run on a side is not a test: %s the threshold (",
			    worse > m->threshold ? "worse beyond" : worse < -m->threshold ? "better beyond" : "within");
		bt_cmp_amount(m->unit, m->threshold, &why);
		bt_buf_addf(&why, "); %zu + %zu runs can reach p < %g", runs_needed(g->alpha), runs_needed(g->alpha),
			    g->alpha);
	} else if (m->equivalent) {
		m->verdict = BT_VD_UNCHANGED;
		bt_buf_adds(&why, "shown within the threshold (");
		bt_cmp_amount(m->unit, m->threshold, &why);
		if (m->sampled_floor)
			bt_buf_adds(&why, ": the samples place a method's bounds no finer");
		bt_buf_addf(&why, "): the shift's %.3g %% interval, ", 100 * m->eq.level);
		bt_cmp_amount(m->unit, m->eq.lo, &why);
		bt_buf_adds(&why, " to ");
		bt_cmp_amount(m->unit, m->eq.hi, &why);
		bt_buf_adds(&why, ", lies inside it (equivalence)");
	} else if (fabs(m->delta) <= m->threshold) {
		m->verdict = BT_VD_UNCHANGED;
		bt_buf_adds(&why, "within the threshold (");
		bt_cmp_amount(m->unit, m->threshold, &why);
		if (m->sampled_floor)
			bt_buf_adds(&why, ": the samples place a method's bounds no finer");
		bt_buf_addf(&why, "), p = %.3g; its interval reaches beyond, so not shown equivalent", m->mwu.p);
	} else if (bt_cmp_p(m) < g->alpha) {
		m->verdict = worse > 0 ? BT_VD_REGRESSED : BT_VD_IMPROVED;
		bt_buf_adds(&why, "beyond the threshold (");
		bt_cmp_amount(m->unit, m->threshold, &why);
		bt_buf_addf(&why, "), p = %.3g < %g%s", bt_cmp_p(m), g->alpha,
			    m->in_family ? " (family-wise)" : "");
	} else if (m->min_p < g->alpha && bt_metric_per_method(m->name)) {
		/* one method among hundreds beyond its threshold by chance is the
		 * noise the family allows for, not a question for more runs */
		m->verdict = BT_VD_UNCHANGED;
		bt_buf_addf(&why, "beyond the threshold but p = %.3g >= %g: not told from noise",
			    bt_cmp_p(m), g->alpha);
	} else {
		m->verdict = BT_VD_INCONCLUSIVE;
		if (m->min_p >= g->alpha)
			bt_buf_addf(&why, "need more runs: %zu + %zu cannot reach p < %g "
				    "(smallest p %.3g; %zu + %zu can)", m->base.n, m->head.n, g->alpha,
				    m->min_p, runs_needed(g->alpha), runs_needed(g->alpha));
		else
			bt_buf_addf(&why, "beyond the threshold but p = %.3g >= %g: too noisy to tell",
				    bt_cmp_p(m), g->alpha);
	}
	m->reason = bt_buf_detach(&why, NULL);
}

static int fill_metric(struct bt_compare *c, struct bt_cmp_metric *m, double *x, double *y,
		       struct bt_err *err)
{
	size_t n = bt_compare_values(c, m->id, BT_BASE, x);
	size_t k = bt_compare_values(c, m->id, BT_HEAD, y);
	int rc;

	bt_stats_summarize(x, n, &m->base);
	bt_stats_summarize(y, k, &m->head);
	m->delta = n && k ? m->head.median - m->base.median : NAN;
	m->rel = n && k && m->base.median != 0 ? m->delta / fabs(m->base.median) : NAN;
	m->threshold = n ? bt_gate_threshold(&m->gate, m->unit, m->base.median) : NAN;
	m->tested = n >= 2 && k >= 2;
	m->min_p = n && k ? smallest_p(n, k) : 1;
	if (!m->tested)
		return BT_OK;
	rc = bt_stats_mwu(x, n, y, k, BT_STATS_AUTO, &m->mwu, err);
	if (!rc)
		rc = bt_stats_hl(x, n, y, k, 1 - m->gate.alpha, BT_STATS_AUTO, &m->hl, err);
	if (!rc && m->gate.alpha < 0.5)   /* judged against the final threshold (judge) */
		rc = bt_stats_hl(x, n, y, k, 1 - 2 * m->gate.alpha, BT_STATS_AUTO, &m->eq, err);
	return rc;
}

/* What regresses when the app gets slower, whatever the trace's length:
 * lua/gate.lua's measures. Whole-trace totals (process.*, thread.main.*
 * sums, method.*) move with how long the capture ran: reported, not gated. */
int bt_cmp_gated_by_default(const char *name)
{
	static const char *const globs[] = {
		"startup.ttid_ns", "startup.main.cpu_ns", "startup.main.blocked_ns.*",
		"startup.main.method.*.self_cpu_ns", "startup.main.method.*.self_ns",
		"startup.main.method.*.incl_ns",

		BT_CMP_MSGS "wall_ns", BT_CMP_MSGS "cpu_ns", BT_CMP_MSGS "alloc_bytes",
		BT_CMP_MSGS "method.*.self_cpu_ns", BT_CMP_MSGS "method.*.self_ns",
		"thread.main.wait.*.mean_ns", "thread.main.per_s.blocked_ns.*",

		"frames.janky_pct", "frames.p50_ns", "frames.p90_ns", "frames.p99_ns",
	};
	size_t i;

	if (strstr(name, ".by."))
		return 0;
	for (i = 0; i < sizeof globs / sizeof globs[0]; i++)
		if (!fnmatch(globs[i], name, 0))
			return 1;
	return 0;
}

/* The fewest display frames every run must have for compare to gate any
 * frames.* metric (by default or by --metric): a start's first frame or
 * two is no frame rate, and a p99 of fewer than 100 frames is their
 * largest. */
#define MIN_FRAMES 100

/* Whether every run has MIN_FRAMES frames: one function of the pooled
 * runs, not of their sides, so leaving the frames out of the family when
 * they do not keeps the others' family-wise error. */
static int enough_frames(const struct bt_runs *rs)
{
	uint32_t at = bt_strmap_get(&rs->ids, "frames.count", strlen("frames.count"));
	size_t r;

	for (r = 0; at && r < rs->nruns; r++)
		if (!(bt_runs_value(rs, r, at - 1) >= MIN_FRAMES))
			return 0;
	return at != 0;
}

static int chosen(const struct bt_cmp_opts *o, const char *name, int frames)
{
	int i;

	if (!frames && !strncmp(name, "frames.", 7))
		return 0;
	if (!o->nglobs)
		return bt_cmp_gated_by_default(name);
	for (i = 0; i < o->nglobs; i++)
		if (!fnmatch(o->globs[i], name, 0))
			return 1;
	return 0;
}

static int metric_order(const void *a, const void *b)
{
	static const int rank[BT_VD__COUNT] = { 3, 2, 1, 0 };   /* regressed first */
	const struct bt_cmp_metric *x = a, *y = b;
	if (x->gate.gated != y->gate.gated)
		return y->gate.gated - x->gate.gated;
	if (x->verdict != y->verdict)
		return rank[x->verdict] - rank[y->verdict];
	if (x->verdict != BT_VD_UNCHANGED) {   /* the largest move first */
		double rx = isnan(x->rel) ? -1 : fabs(x->rel), ry = isnan(y->rel) ? -1 : fabs(y->rel);
		if (rx != ry)
			return rx < ry ? 1 : -1;
	}
	return strcmp(x->name, y->name);
}

static void overall(struct bt_compare *c)
{
	size_t i;

	for (i = 0; i < c->nm; i++)
		if (c->m[i].gate.gated)
			c->count[c->m[i].verdict]++, c->ngated++;
	c->overall = c->count[BT_VD_REGRESSED] ? BT_VD_REGRESSED :
		     c->count[BT_VD_INCONCLUSIVE] ? BT_VD_INCONCLUSIVE :
		     c->count[BT_VD_IMPROVED] ? BT_VD_IMPROVED : BT_VD_UNCHANGED;
}

/* Whether m's medians could move in any relabeling of the runs: not when
 * no more than (k - 1) / 2 of the runs, k the smaller side's, hold other
 * than 0 (a method under most reports' cut), since every side then holds
 * a majority of zeros, so both medians are 0 however the runs are dealt,
 * and a move of 0 is within every threshold. Whether a test can move is
 * one function of the pooled values, not of the labels, so leaving the
 * unmovable out keeps the family-wise error of the others. */
static int movable(const struct bt_compare *c, size_t nonzero)
{
	size_t k = c->nbase < c->nhead ? c->nbase : c->nhead;

	return nonzero > (k - 1) / 2;
}

/* Test m's values other than 0 as compare reads them (per-message totals
 * scaled), from the runs' column; appended to out. */
static size_t sparse_values(const struct bt_compare *c, const struct bt_runs_cols *cols,
			    const struct bt_cmp_metric *m, uint32_t *run, double *val, size_t n)
{
	struct reading k = reading_of(c, m->id);
	size_t i;

	for (i = cols->at[m->id]; i < cols->at[m->id + 1]; i++) {
		double v = value_read(c, &k, cols->run[i], m->id);
		if (v != 0)
			run[n] = cols->run[i], val[n++] = v;
	}
	return n;
}

/* The gated metrics every run has, one family (family.h), their values
 * given sparse: a method in few runs of many costs its own values, in
 * time and memory, not the runs'. Each test's s0 is BT_CMP_S0 of its
 * threshold at the pooled median: a move of the threshold reads T ~ 4 at
 * most however still the runs were, so a metric whose runs agree to the
 * nanosecond cannot dominate the maximum; the label-free value keeps the
 * statistic one function of the data in every relabeling. 0.25 detected
 * most of the simulated slowdowns (0.02 to 1 tried: BENCHMARKS.md). */
static void test_family(struct bt_compare *c, double *x)
{
	const struct bt_runs *rs = c->runs;
	struct bt_runs_cols cols;
	struct bt_family_tests ft;
	size_t nr = rs->nruns, i, j = 0, r, n = 0, *at = bt_xcalloc(c->nm + 1, sizeof *at);
	size_t *start = bt_xcalloc(c->nm + 2, sizeof *start);
	uint32_t *run;
	double *val, *s0 = bt_xcalloc(c->nm + 1, sizeof *s0);
	double *t = bt_xcalloc(c->nm + 1, sizeof *t), *p = bt_xcalloc(c->nm + 1, sizeof *p);
	double *pb = bt_xcalloc(c->nm + 1, sizeof *pb), *dir = bt_xcalloc(c->nm + 1, sizeof *dir);
	unsigned char *head = bt_xcalloc(nr + 1, 1);
	struct bt_stats_summary pooled;

	bt_runs_columns(rs, &cols);
	run = bt_xcalloc(cols.at[rs->nnames] + 1, sizeof *run);
	val = bt_xcalloc(cols.at[rs->nnames] + 1, sizeof *val);
	for (r = 0; r < nr; r++)
		head[r] = rs->run[r].side == BT_HEAD;
	for (i = 0; i < c->nm; i++) {
		struct bt_cmp_metric *m = &c->m[i];
		size_t k;
		if (!m->gate.gated || !m->tested || m->base.n != c->nbase || m->head.n != c->nhead)
			continue;
		k = sparse_values(c, &cols, m, run, val, n);
		if (!movable(c, k - n))
			continue;
		memset(x, 0, nr * sizeof *x);   /* every run has it: the others hold 0 */
		for (r = n; r < k; r++)
			x[run[r]] = val[r];
		n = k;
		bt_stats_summarize(x, nr, &pooled);
		s0[j] = BT_CMP_S0 * bt_gate_threshold(&m->gate, m->unit, pooled.median);
		if (!(s0[j] > 0))
			s0[j] = 1e-9;
		dir[j] = m->gate.higher_is_better ? -1 : 1;   /* worse */
		at[j++] = i;
		start[j] = n;
	}
	c->nfamily = j;
	ft = (struct bt_family_tests){ j, nr, start, run, val };
	bt_family_maxt2_sparse(&ft, head, s0, dir, t, p, pb, &c->fam);   /* worse, better */
	for (i = 0; i < j; i++) {
		struct bt_cmp_metric *m = &c->m[at[i]];
		m->in_family = 1;
		m->t = t[i];
		m->p_adj = dir[i] * t[i] < 0 ? pb[i] : p[i];   /* the direction it moved */
		m->min_p = c->fam.min_p;
	}
	bt_runs_columns_release(&cols);
	free(at), free(start), free(run), free(val), free(s0), free(t), free(p), free(pb), free(dir);
	free(head);
}

/* The gated metrics tested on both sides, one family by Holm (family.h):
 * no relabeling needs the runs' joint values. */
static void holm_family(struct bt_compare *c)
{
	double *p = bt_xcalloc(c->nm + 1, sizeof *p);
	size_t i, j = 0, *at = bt_xcalloc(c->nm + 1, sizeof *at);

	for (i = 0; i < c->nm; i++)
		if (c->m[i].gate.gated && c->m[i].tested)
			p[j] = c->m[i].mwu.p, at[j++] = i;
	bt_family_holm(j, p, p);
	for (i = 0; i < j; i++) {
		struct bt_cmp_metric *m = &c->m[at[i]];
		m->in_family = 1;
		m->p_adj = p[i];
		m->t = m->mwu.z;
		m->min_p = 0;   /* normal p: as small as the data say */
	}
	c->nfamily = j;
	memset(&c->fam, 0, sizeof c->fam);
	free(p);
	free(at);
}

static int compare_metrics(struct bt_compare *c, const struct bt_cmp_opts *o, double *x, double *y,
			   struct bt_err *err)
{
	const struct bt_runs *rs = c->runs;
	const struct bt_cmp_hooks *h = o->hooks;
	size_t id, i;
	int rc = BT_OK, frames = enough_frames(rs);

	c->m = bt_xcalloc(rs->nnames ? rs->nnames : 1, sizeof *c->m);
	for (id = 0; id < rs->nnames && !rc; id++) {
		struct bt_cmp_metric *m = &c->m[c->nm];
		m->name = rs->names[id];
		m->id = id;
		m->unit = bt_unit_of(m->name, BT_UNIT_COUNT);
		m->gate = o->def;
		m->gate.gated = chosen(o, m->name, frames);
		if (h && h->thresholds && (rc = h->thresholds(h->ctx, m->name, &m->gate, err)))
			break;
		if (c->seq.on)   /* a look's share of the metric's alpha */
			m->gate.alpha = m->gate.alpha / BT_CMP_NLOOKS;
		if (!m->gate.gated && bt_metric_per_method(m->name))
			continue;   /* the diff and the causes show these */
		if (c->msg_window && bt_metric_in_window(m->name))
			continue;   /* read in the messages' metrics' place */
		c->nm++;
		rc = fill_metric(c, m, x, y, err);
		/* the verdict's threshold only: the family's test keeps its
		 * scale, so the other metrics' p do not move with it */
		if (c->resolution_ns > m->threshold && sampled_method(m->name, m->unit)) {
			m->threshold = c->resolution_ns;
			m->sampled_floor = 1;
		}
	}
	if (rc)
		return rc;
	if (o->holm)
		holm_family(c);
	else
		test_family(c, x);
	for (i = 0; i < c->nm && !rc; i++) {
		judge(&c->m[i]);
		if (h && h->verdict)
			rc = h->verdict(h->ctx, c, &c->m[i], err);
	}
	if (rc)
		return rc;
	qsort(c->m, c->nm, sizeof *c->m, metric_order);
	overall(c);
	return BT_OK;
}

const size_t bt_cmp_looks[BT_CMP_NLOOKS] = { 6, 8, 10, 13, 16, 20 };

/* Where n runs a side stand in the looks, before any metric is judged. */
static void seq_start(struct bt_compare *c)
{
	size_t i;

	c->seq.on = 1;
	c->seq.n = c->nbase < c->nhead ? c->nbase : c->nhead;
	c->seq.plain_alpha = c->def.alpha;
	c->seq.alpha = c->def.alpha / BT_CMP_NLOOKS;
	for (i = 0; i < BT_CMP_NLOOKS; i++) {
		if (c->seq.n == bt_cmp_looks[i])
			c->seq.look = i + 1;
		if (c->seq.n < bt_cmp_looks[i]) {
			c->seq.more = bt_cmp_looks[i] - c->seq.n;
			break;
		}
	}
	if (c->seq.n > bt_cmp_looks[BT_CMP_NLOOKS - 1])   /* past the last: read as the last */
		c->seq.look = BT_CMP_NLOOKS;
}

/* The totals a sequence must show within their thresholds to stop at
 * "unchanged": what the app's users wait for (the start, the main
 * thread's messages). Their parts (blocking by kind, waits, methods) are
 * tested for a move in the family like every gated metric, but a tail
 * (a rare long binder call) keeps a part's interval wide for many more
 * runs than its total's, and the total holds the part. */
static int seq_total(const char *name)
{
	static const char *const totals[] = {
		"startup.ttid_ns", "startup.main.cpu_ns",
		BT_CMP_MSGS "wall_ns", BT_CMP_MSGS "cpu_ns", BT_CMP_MSGS "alloc_bytes",
	};
	size_t i;

	for (i = 0; i < sizeof totals / sizeof totals[0]; i++)
		if (!strcmp(name, totals[i]))
			return 1;
	return 0;
}

/* The look's decision, once the metrics are judged at its alpha. */
static void seq_decide(struct bt_compare *c)
{
	double best = 1;
	size_t i;

	if (!c->seq.look) {
		c->overall = BT_VD_INCONCLUSIVE;
		return;
	}
	if (c->overall == BT_VD_UNCHANGED || c->overall == BT_VD_IMPROVED)
		for (i = 0; i < c->nm; i++) {   /* the suspect of the smallest p */
			const struct bt_cmp_metric *m = &c->m[i];
			double worse = m->gate.higher_is_better ? -m->delta : m->delta, p = bt_cmp_p(m);
			if (m->gate.gated && worse > m->threshold && p < c->seq.plain_alpha && (!c->seq.suspect || p < best))
				c->seq.undecided = m->name, c->seq.suspect = 1, best = p;
		}
	if (c->overall == BT_VD_UNCHANGED)
		for (i = 0; i < c->nm && !c->seq.undecided; i++) {
			const struct bt_cmp_metric *m = &c->m[i];
			if (m->gate.gated && seq_total(m->name) && !m->equivalent)
				c->seq.undecided = m->name;
		}
	c->seq.decided = c->overall != BT_VD_INCONCLUSIVE && !c->seq.undecided;
	if (!c->seq.decided)
		c->overall = BT_VD_INCONCLUSIVE;
	else
		c->seq.more = 0;
}

int bt_compare_run(struct bt_compare *c, const struct bt_runs *runs, const struct bt_cmp_opts *o,
		   struct bt_err *err)
{
	double *x = bt_xcalloc(runs->nruns + 1, sizeof *x), *y = bt_xcalloc(runs->nruns + 1, sizeof *y);
	size_t r;
	int rc;

	memset(c, 0, sizeof *c);
	c->runs = runs;
	c->def = o->def;
	c->rules = o->rules;
	c->holm = o->holm;
	for (r = 0; r < runs->nruns; r++)
		runs->run[r].side == BT_BASE ? c->nbase++ : c->nhead++;
	if (o->sequential) {
		seq_start(c);
		c->def.alpha = c->seq.alpha;
	}
	message_scale(c, x);
	sampling_resolution(c, x);
	rc = compare_metrics(c, o, x, y, err);
	if (!rc && c->seq.on)
		seq_decide(c);
	if (!rc) {
		bt_cmp_causes(c, x);
		bt_cmp_headline_build(c);
		rc = bt_cmp_diff(c, o, x, y, err);
	}
	free(x);
	free(y);
	return rc;
}

void bt_compare_release(struct bt_compare *c)
{
	size_t i;

	for (i = 0; i < c->nm; i++) {
		free(c->m[i].reason);
		bt_cmp_causes_release(&c->m[i]);
	}
	free(c->m);
	free(c->headline);
	free(c->msg_scale);
	free(c->win_alt);
	for (i = 0; i < BT_MS__COUNT; i++)
		bt_cmp_list_release(&c->methods[i]);
	bt_cmp_list_release(&c->blocking);
	memset(c, 0, sizeof *c);
}
