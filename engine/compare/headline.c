/*
 * The one line a reviewer reads first (compare.h): the verdict, the most
 * important metric that moved (startup, then the display frames, before
 * the main thread's per-message and per-wait measures, those before
 * single methods), its
 * change and family-wise p, and its top cause:
 *   regressed: startup main-thread CPU +12.6 ms (+3.1 %, p=0.0079); top
 *   cause ConfigLoader.parse self CPU +50 % (384 ms → 578 ms)
 */
#include <math.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/compare/compare_int.h"

#define MOVED_MAX 2   /* methods the headline names */

static int importance(const char *name)
{
	static const char *const order[] = {
		"startup.ttid_ns", "startup.main.cpu_ns", "startup.main.blocked_ns.",
		"frames.janky_pct", "frames.p99_ns", "frames.p90_ns", "frames.p50_ns",
		"thread.main.wait.", "thread.main.per_s.",
		BT_CMP_MSGS "wall_ns", BT_CMP_MSGS "cpu_ns", BT_CMP_MSGS "alloc", "startup.main.method.",
		BT_CMP_MSGS "method.",
	};
	size_t i;

	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (!strncmp(name, order[i], strlen(order[i])))
			return (int)i;
	return (int)i;
}

/* The method part of a scoped method metric ("X.method.SYM.field"). */
static int symbol_of(const char *name, const char **sym, size_t *len)
{
	const char *at = strstr(name, ".method."), *dot;

	if (!at)
		return 0;
	*sym = at + 8;
	dot = strrchr(*sym, '.');
	*len = dot ? (size_t)(dot - *sym) : strlen(*sym);
	return 1;
}

static int same_symbol(const char *a, const char *b)
{
	const char *s, *t;
	size_t n, k;

	return symbol_of(a, &s, &n) && symbol_of(b, &t, &k) && n == k && !memcmp(s, t, n);
}

double bt_cmp_method_moved(const struct bt_compare *c, const struct bt_cmp_metric *m)
{
	double total = 0;
	size_t j;

	if (!m->gate.gated || !strstr(m->name, ".method."))
		return fabs(m->delta);
	for (j = 0; j < c->nm; j++) {
		const struct bt_cmp_metric *o = &c->m[j];
		if (o->gate.gated && o->verdict == m->verdict && same_symbol(o->name, m->name))
			total += fabs(o->delta);
	}
	return total;
}

/*
 * The methods that moved, among the gated methods' metrics with verdict v:
 * the one whose metrics (self CPU, self wall and inclusive in the start,
 * self CPU and wall in the messages) moved by the most time in all, and a
 * second when it moved by half as much at least; each shown by its metric
 * of the largest |t|. A slowed method adds the most time; the methods
 * sampled next to it get part of it (samples come at capture points), and
 * when one got nearly as much the records cannot tell the two apart, so
 * both are named (on simulated slowdowns: BENCHMARKS.md). Returns how many.
 */
static size_t moved_methods(const struct bt_compare *c, enum bt_verdict v,
			    const struct bt_cmp_metric *out[MOVED_MAX])
{
	double sum[MOVED_MAX] = { 0 };
	size_t i, j, k, n = 0;

	for (i = 0; i < c->nm; i++) {
		const struct bt_cmp_metric *m = &c->m[i], *show = m;
		double total = 0;
		if (!m->gate.gated || m->verdict != v || !strstr(m->name, ".method."))
			continue;
		for (k = 0; k < n && !same_symbol(out[k]->name, m->name); k++)
			;
		if (k < n)
			continue;   /* counted */
		total = bt_cmp_method_moved(c, m);
		for (j = 0; j < c->nm; j++) {
			const struct bt_cmp_metric *o = &c->m[j];
			if (o->gate.gated && o->verdict == v && same_symbol(o->name, m->name) &&
			    fabs(o->t) > fabs(show->t))
				show = o;
		}
		for (k = n < MOVED_MAX ? n++ : MOVED_MAX; k > 0 && total > sum[k - 1]; k--)
			if (k < MOVED_MAX)
				out[k] = out[k - 1], sum[k] = sum[k - 1];
		if (k < MOVED_MAX)
			out[k] = show, sum[k] = total;
	}
	return n > 1 && sum[1] < 0.5 * sum[0] ? 1 : n;
}

/* The gated metric with verdict v that leads, or NULL. */
static const struct bt_cmp_metric *lead(const struct bt_compare *c, enum bt_verdict v)
{
	const struct bt_cmp_metric *best = NULL;
	size_t i;

	for (i = 0; i < c->nm; i++) {
		const struct bt_cmp_metric *m = &c->m[i];
		int a, b;
		if (!m->gate.gated || m->verdict != v)
			continue;
		if (!best) {
			best = m;
			continue;
		}
		a = importance(m->name), b = importance(best->name);
		if (a < b || (a == b && fabs(m->delta) * (isnan(m->rel) ? 0 : fabs(m->rel)) >
			      fabs(best->delta) * (isnan(best->rel) ? 0 : fabs(best->rel))))
			best = m;
	}
	if (best && strstr(best->name, ".method.")) {
		const struct bt_cmp_metric *k[MOVED_MAX];
		return moved_methods(c, v, k) ? k[0] : best;
	}
	return best;
}

static void signed_amount(enum bt_unit u, double v, struct bt_buf *b)
{
	if (v > 0)
		bt_buf_addc(b, '+');
	bt_cmp_amount(u, v, b);
}

static void rel_pct(double rel, struct bt_buf *b)
{
	if (isnan(rel))
		bt_buf_adds(b, "new");
	else
		bt_buf_addf(b, "%+.0f %%", 100 * rel);
}

void bt_cmp_cause_words(const struct bt_compare *c, const struct bt_cmp_cause *k, struct bt_buf *b)
{
	enum bt_unit u = bt_unit_of(c->runs->names[k->id], BT_UNIT_COUNT);

	bt_buf_addf(b, "%s ", k->label);
	rel_pct(k->rel, b);
	bt_buf_adds(b, " (");
	bt_cmp_amount(u, k->base, b);
	bt_buf_adds(b, " \xe2\x86\x92 ");
	bt_cmp_amount(u, k->head, b);
	bt_buf_adds(b, ")");
	if (k->holder)
		bt_buf_addf(b, ", held by %s", k->holder);
}

/* A lead that is no method's (startup blocking, per-message time) says
 * which method moved most too, when one did with it. */
static void method_words(const struct bt_cmp_metric *k, struct bt_buf *b)
{
	bt_buf_addf(b, "%s ", k->label);
	signed_amount(k->unit, k->delta, b);
	bt_buf_adds(b, " (");
	rel_pct(k->rel, b);
	bt_buf_adds(b, ")");
}

/* The methods that moved, besides the lead and its top cause: "; method X
 * +3 ms (+40 %)", "; methods X ..., Y ...", or after a method's lead "; also
 * Y ..." when another moved nearly as much. */
static void method_clause(const struct bt_compare *c, const struct bt_cmp_metric *m, struct bt_buf *b)
{
	const struct bt_cmp_metric *k[MOVED_MAX];
	const char *cause = m->ncauses ? c->runs->names[m->causes[0].id] : "";
	size_t n = moved_methods(c, m->verdict, k), i, shown = 0;
	int lead_is_method = strstr(m->name, ".method.") != NULL;

	for (i = 0; i < n; i++) {
		if (same_symbol(k[i]->name, lead_is_method ? m->name : cause))
			continue;   /* said already */
		bt_buf_adds(b, shown++ ? ", " : lead_is_method ? "; also " : n - i > 1 ? "; methods " : "; method ");
		method_words(k[i], b);
	}
}

/* The label of metric name, for people. */
static const char *label_of(const struct bt_compare *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nm; i++)
		if (c->m[i].name == name)
			return c->m[i].label;
	return name;
}

/* A sequence that has not decided: how many runs more, and why. */
static void undecided(const struct bt_compare *c, struct bt_buf *b)
{
	const struct bt_cmp_seq *q = &c->seq;
	size_t i;

	if (q->more)
		bt_buf_addf(b, "run %zu more a side: ", q->more);
	else
		bt_buf_adds(b, "inconclusive: no decision at the last look: ");
	if (!q->look) {
		bt_buf_adds(b, "the sequence looks at");
		for (i = 0; i < BT_CMP_NLOOKS; i++)
			bt_buf_addf(b, "%s %zu", i == 0 ? "" : i + 1 < BT_CMP_NLOOKS ? "," : " and", bt_cmp_looks[i]);
		bt_buf_addf(b, " runs a side (%zu + %zu so far)", c->nbase, c->nhead);
		return;
	}
	bt_buf_addf(b, "at look %zu of %d (%zu runs a side, alpha %.3g a look) ", q->look, BT_CMP_NLOOKS, q->n,
		    q->alpha);
	if (q->suspect)
		bt_buf_addf(b, "%s moved worse beyond its threshold with p < %.3g, not yet < %.3g",
			    label_of(c, q->undecided), q->plain_alpha, q->alpha);
	else if (q->undecided)
		bt_buf_addf(b, "nothing moved, but %s is not yet shown within its threshold", label_of(c, q->undecided));
	else
		bt_buf_addf(b, "%zu of %zu gated metrics moved beyond their thresholds without reaching p < %.3g",
			    c->count[BT_VD_INCONCLUSIVE], c->ngated, q->alpha);
}

void bt_cmp_headline_build(struct bt_compare *c)
{
	static const enum bt_verdict pick[] = { BT_VD_REGRESSED, BT_VD_IMPROVED };
	const struct bt_cmp_metric *m = NULL;
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	if (c->seq.on && !c->seq.decided) {
		undecided(c, &b);
		c->headline = bt_buf_detach(&b, NULL);
		return;
	}
	bt_buf_addf(&b, "%s: ", bt_verdict_name[c->overall]);
	for (i = 0; i < 2 && !m; i++)
		if (c->overall == pick[i] || (c->overall == BT_VD_INCONCLUSIVE && pick[i] == BT_VD_IMPROVED))
			m = lead(c, pick[i]);
	c->lead = m;
	if (m) {
		bt_buf_addf(&b, "%s ", m->label);
		signed_amount(m->unit, m->delta, &b);
		bt_buf_adds(&b, " (");
		rel_pct(m->rel, &b);
		if (!isnan(bt_cmp_p(m)))
			bt_buf_addf(&b, ", p=%.2g", bt_cmp_p(m));
		bt_buf_adds(&b, ")");
		if (m->ncauses) {
			bt_buf_adds(&b, "; top cause ");
			bt_cmp_cause_words(c, &m->causes[0], &b);
		}
		method_clause(c, m, &b);
		if (c->count[m->verdict] > 1)
			bt_buf_addf(&b, "; %zu of %zu gated metrics %s", c->count[m->verdict], c->ngated,
				    bt_verdict_name[m->verdict]);
	} else if (c->overall == BT_VD_INCONCLUSIVE && (c->nbase < 2 || c->nhead < 2)) {
		size_t beyond = 0;
		for (i = 0; i < c->nm; i++)
			beyond += c->m[i].gate.gated && c->m[i].base.n && c->m[i].head.n &&
				  fabs(c->m[i].delta) > c->m[i].threshold;
		bt_buf_addf(&b, "one run a side is not a test: nothing decided (%zu + %zu runs); the medians of %zu "
			    "of %zu gated metrics moved beyond their thresholds, which one run's noise does too",
			    c->nbase, c->nhead, beyond, c->ngated);
	} else if (c->overall == BT_VD_INCONCLUSIVE && c->nfamily && c->fam.min_p >= c->def.alpha) {
		bt_buf_addf(&b, "need more runs: %zu + %zu cannot reach p < %g (smallest p %.3g)",
			    c->nbase, c->nhead, c->def.alpha, c->fam.min_p);
	} else if (c->overall == BT_VD_INCONCLUSIVE) {
		bt_buf_addf(&b, "%zu of %zu gated metrics moved beyond their thresholds without reaching "
			    "p < %g", c->count[BT_VD_INCONCLUSIVE], c->ngated, c->def.alpha);
	} else {
		size_t eq = 0;
		for (i = 0; i < c->nm; i++)
			eq += c->m[i].gate.gated && c->m[i].equivalent;
		bt_buf_addf(&b, "none of %zu gated metrics moved beyond its threshold", c->ngated);
		if (c->resolution_ns > c->def.floor_ns)   /* what the runs could not see */
			bt_buf_addf(&b, " (a main-thread method's in the start: %.3g ms, the samples' resolution)",
				    c->resolution_ns / 1e6);
		bt_buf_addf(&b, "; %zu shown within it (equivalence at alpha %.3g)", eq, c->def.alpha);
	}
	if (c->seq.on)
		bt_buf_addf(&b, " (sequential: look %zu of %d, %zu runs a side, alpha %.3g a look)", c->seq.look,
			    BT_CMP_NLOOKS, c->seq.n, c->seq.alpha);
	c->headline = bt_buf_detach(&b, NULL);
}
