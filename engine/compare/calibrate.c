/*
 * The calibration (calibrate.h). A split is a view of the pool: its runs'
 * structs copied by value with their sides set (the values stay the
 * pool's), compared with bt_compare_run as any comparison is.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/progress.h"
#include "engine/compare/calibrate.h"
#include "engine/compare/compare_int.h"
#include "engine/compare/family.h"

const size_t bt_cal_n[BT_CAL_NS] = { 3, 5, 10, 20 };

static uint64_t next_rand(uint64_t *s)   /* splitmix64: the same splits every time */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* view: 2 k runs of pool drawn at random, the first k the base. */
static void draw(const struct bt_runs *pool, struct bt_runs *view, size_t k, size_t *deck, uint64_t *seed)
{
	size_t i;

	for (i = 0; i < 2 * k; i++) {
		size_t r = i + (size_t)(next_rand(seed) % (pool->nruns - i)), t = deck[i];
		deck[i] = deck[r], deck[r] = t;
		view->run[i] = pool->run[deck[i]];
		view->run[i].side = i < k ? BT_BASE : BT_HEAD;
	}
}

/* The one-sided 95 % upper bound of a rate of k in n (Clopper-Pearson), by bisection. */
static double upper_bound(size_t k, size_t n)
{
	double lo = (double)k / (double)n, hi = 1;
	int it;

	if (k >= n)
		return 1;
	for (it = 0; it < 60; it++) {
		double p = (lo + hi) / 2, cdf = 0, term = pow(1 - p, (double)n);
		size_t i;
		for (i = 0; i <= k; i++) {   /* P(X <= k) for X ~ Binomial(n, p) */
			cdf += term;
			term *= (double)(n - i) / (double)(i + 1) * p / (1 - p);
		}
		if (cdf > 0.05)
			lo = p;
		else
			hi = p;
	}
	return hi;
}

static int by_t(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The gated metrics' noise over the whole pool, from one comparison of it. */
static void noise(struct bt_calibration *cal, const struct bt_compare *c, const size_t *alarms)
{
	double *x = bt_xcalloc(c->runs->nruns + 1, sizeof *x);
	size_t i, r, j;

	cal->m = bt_xcalloc(c->nm + 1, sizeof *cal->m);
	for (i = 0; i < c->nm; i++) {
		const struct bt_cmp_metric *m = &c->m[i];
		struct bt_cal_metric *k = &cal->m[cal->nm];
		struct bt_stats_summary s;
		double mean = 0, ss = 0;
		size_t n = 0;
		if (!m->gate.gated)
			continue;
		for (r = 0; r < c->runs->nruns; r++)
			if (!isnan(x[n] = bt_compare_value(c, r, m->id)))
				mean += x[n++];
		if (n < 2)
			continue;
		mean /= (double)n;
		for (r = 0; r < n; r++)
			ss += (x[r] - mean) * (x[r] - mean);
		bt_stats_summarize(x, n, &s);
		k->name = m->name;
		k->label = bt_cmp_label(m->name);
		k->unit = m->unit;
		k->median = s.median;
		k->sd = sqrt(ss / (double)(n - 1));
		k->threshold = bt_gate_threshold(&m->gate, m->unit, s.median);
		k->s0 = BT_CMP_S0 * k->threshold;
		for (j = 0; j < BT_CAL_NS; j++)   /* none where the smallest p of N + N is alpha or more */
			k->mde[j] = bt_family_min_p(bt_cal_n[j]) >= cal->alpha ? NAN :
				    fmax(k->threshold, cal->crit * sqrt(2 * k->sd * k->sd / (double)bt_cal_n[j] +
									k->s0 * k->s0));
		k->alarms = alarms[m->id];
		cal->nm++;
	}
	free(x);
}

/* The startup's and the main thread's own measures first, then methods,
 * the noisiest (sd over median) first. */
static int noisiest(const void *a, const void *b)
{
	const struct bt_cal_metric *x = a, *y = b;
	int mx = bt_metric_per_method(x->name), my = bt_metric_per_method(y->name);
	double rx = x->median ? x->sd / fabs(x->median) : 0, ry = y->median ? y->sd / fabs(y->median) : 0;

	if (mx != my)
		return mx - my;
	if (mx && rx != ry)
		return rx < ry ? 1 : -1;
	return strcmp(x->name, y->name);
}

int bt_calibrate(struct bt_calibration *cal, const struct bt_runs *pool, const struct bt_cmp_opts *o,
		 size_t per_side, size_t splits, struct bt_err *err)
{
	struct bt_runs view = *pool;
	struct bt_compare c;
	size_t *deck = bt_xcalloc(pool->nruns + 1, sizeof *deck), *alarms, s, i;
	double *tmax = bt_xcalloc(splits + 1, sizeof *tmax);
	uint64_t seed = 20;
	int rc = BT_OK;

	memset(cal, 0, sizeof *cal);
	if (per_side < 2 || 2 * per_side > pool->nruns || !splits) {
		free(deck), free(tmax);
		return bt_err_set(err, BT_EUSAGE, "--calibrate needs 2 x %zu runs at least (%zu given)",
				  per_side < 2 ? 2 : per_side, pool->nruns);
	}
	cal->pool = pool->nruns, cal->per_side = per_side, cal->splits = splits;
	cal->alpha = o->def.alpha;
	alarms = bt_xcalloc(pool->nnames + 1, sizeof *alarms);
	view.run = bt_xcalloc(2 * per_side, sizeof *view.run);
	view.nruns = 2 * per_side;
	for (i = 0; i < pool->nruns; i++)
		deck[i] = i;
	bt_progress_phase("comparing A/A splits");
	for (s = 0; s < splits && !rc; s++) {
		char done[64];
		snprintf(done, sizeof done, "%zu of %zu splits", s, splits);
		bt_progress_detail(done);
		bt_progress_pct((int)(s * 100 / splits));
		draw(pool, &view, per_side, deck, &seed);
		if ((rc = bt_compare_run(&c, &view, o, err)))
			break;
		cal->alarms += c.count[BT_VD_REGRESSED] > 0;
		tmax[s] = -HUGE_VAL;
		for (i = 0; i < c.nm; i++) {
			const struct bt_cmp_metric *m = &c.m[i];
			if (m->in_family)
				tmax[s] = fmax(tmax[s], m->gate.higher_is_better ? -m->t : m->t);
			if (m->gate.gated && m->verdict == BT_VD_REGRESSED)
				alarms[m->id]++;
		}
		bt_compare_release(&c);
	}
	if (!rc) {
		qsort(tmax, splits, sizeof *tmax, by_t);
		cal->crit = fmax(0, tmax[(size_t)floor((1 - cal->alpha) * (double)(splits - 1) + 0.5)]);
		cal->rate = (double)cal->alarms / (double)splits;
		cal->upper = upper_bound(cal->alarms, splits);
		/* the whole pool in one comparison, for each metric's noise and gating */
		view.run = bt_xrealloc(view.run, pool->nruns * sizeof *view.run);
		view.nruns = pool->nruns;
		for (i = 0; i < pool->nruns; i++) {
			view.run[i] = pool->run[i];
			view.run[i].side = i < pool->nruns / 2 ? BT_BASE : BT_HEAD;
		}
		if (!(rc = bt_compare_run(&c, &view, o, err))) {
			noise(cal, &c, alarms);
			bt_compare_release(&c);
			qsort(cal->m, cal->nm, sizeof *cal->m, noisiest);
		}
	}
	free(view.run), free(deck), free(tmax), free(alarms);
	return rc;
}

void bt_calibration_release(struct bt_calibration *cal)
{
	size_t i;

	for (i = 0; i < cal->nm; i++)
		free(cal->m[i].label);
	free(cal->m);
	memset(cal, 0, sizeof *cal);
}
