/*
 * The quantile sketch (sketch.h): bucket i holds the values up to its
 * bound gamma^i (pow(gamma, i), the same double every time), a value's
 * bucket the first whose bound is not below it, so a value always lands
 * in the same bucket and merged counts are exact integers. No table: the
 * logarithm's guess is settled against the bounds themselves.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/fleet/sketch.h"

double bt_dist_gamma(void)
{
	return (1 + BT_DIST_ALPHA) / (1 - BT_DIST_ALPHA);
}

int bt_dist_index(int64_t v)
{
	double x = (double)v, g = bt_dist_gamma(), t;
	int i;

	if (x <= 1)
		return 0;
	t = log(x) / log(g);
	i = (int)ceil(t);   /* off by one at most: rounding */
	if (i > BT_DIST_NBUCKETS - 1)
		i = BT_DIST_NBUCKETS - 1;
	else if (i - t > 1e-6 && i - t < 1 - 1e-6)
		return i;   /* t is some 1e-13 off, pow(g, i) 1e-14: x is no bound's neighbour,
			     * and the bounds would say the same (most values) */
	while (i < BT_DIST_NBUCKETS - 1 && pow(g, i) < x)
		i++;
	while (i > 0 && pow(g, i - 1) >= x)
		i--;
	return i;
}

double bt_dist_rep(int i)
{
	double g = bt_dist_gamma();

	return i <= 0 ? 1.0 : 2 * pow(g, i) / (g + 1);
}

void bt_dist_init(struct bt_dist *d)
{
	memset(d, 0, sizeof *d);
}

void bt_dist_release(struct bt_dist *d)
{
	if (!d)
		return;
	free(d->c);
	bt_dist_init(d);
}

/* Make room for buckets first..last (first <= last). */
static void span(struct bt_dist *d, int first, int last)
{
	int lo = d->nc ? (d->lo < first ? d->lo : first) : first;
	int hi = d->nc ? (d->lo + (int)d->nc - 1 > last ? d->lo + (int)d->nc - 1 : last) : last;
	size_t n = (size_t)(hi - lo + 1);
	int64_t *c;

	if (d->nc && lo == d->lo && n == d->nc)
		return;
	c = bt_xcalloc(n, sizeof *c);
	if (d->nc)
		memcpy(c + (d->lo - lo), d->c, d->nc * sizeof *c);
	free(d->c);
	d->c = c;
	d->lo = lo;
	d->nc = n;
}

void bt_dist_put(struct bt_dist *d, int i, int64_t count)
{
	span(d, i, i);
	d->c[i - d->lo] = bt_sat_add(d->c[i - d->lo], count);
}

static void extremes(struct bt_dist *d, int64_t min, int64_t max)
{
	if (!d->n || min < d->min)
		d->min = min;
	if (!d->n || max > d->max)
		d->max = max;
}

void bt_dist_add_at(struct bt_dist *d, int64_t v, int i)
{
	if (v < 0)
		v = 0;
	extremes(d, v, v);
	d->n++;
	d->sum = bt_sat_add(d->sum, v);
	if (!v)
		d->zeros++;
	else
		bt_dist_put(d, i, 1);
}

void bt_dist_add(struct bt_dist *d, int64_t v)
{
	bt_dist_add_at(d, v, v > 0 ? bt_dist_index(v) : 0);
}

void bt_dist_merge(struct bt_dist *d, const struct bt_dist *o)
{
	size_t k;

	if (!o->n)
		return;
	extremes(d, o->min, o->max);
	d->n = bt_sat_add(d->n, o->n);
	d->sum = bt_sat_add(d->sum, o->sum);
	d->zeros = bt_sat_add(d->zeros, o->zeros);
	if (!o->nc)
		return;
	span(d, o->lo, o->lo + (int)o->nc - 1);
	for (k = 0; k < o->nc; k++)
		d->c[o->lo - d->lo + (int)k] = bt_sat_add(d->c[o->lo - d->lo + (int)k], o->c[k]);
}

int64_t bt_dist_quantile(const struct bt_dist *d, int permille)
{
	int64_t r, seen;
	double v;
	size_t i;

	if (d->n <= 0)
		return 0;
	/* ceil(permille * n / 1000) without a double in between */
	r = d->n / 1000 * permille + (d->n % 1000 * permille + 999) / 1000;
	if (r < 1)
		r = 1;
	if (r <= d->zeros)
		return 0;
	seen = d->zeros;
	for (i = 0; i < d->nc; i++) {
		seen = bt_sat_add(seen, d->c[i]);   /* buckets read from a summary: their sum may pass n */
		if (seen >= r)
			break;
	}
	if (i == d->nc)
		return d->max;
	v = bt_dist_rep(d->lo + (int)i);
	if (v < (double)d->min)
		return d->min;
	if (v > (double)d->max)
		return d->max;
	return (int64_t)llround(v);
}
