/*
 * The quantile sketch (sketch.h): bucket bounds gamma^i computed once, a
 * value's bucket found by binary search over them, so a value always lands
 * in the same bucket and merged counts are exact integers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/fleet/sketch.h"

static double bound[BT_DIST_NBUCKETS];   /* gamma^i */
static int have_bounds;                  /* set once; merge is single-threaded */

double bt_dist_gamma(void)
{
	return (1 + BT_DIST_ALPHA) / (1 - BT_DIST_ALPHA);
}

static void bounds(void)
{
	double g = bt_dist_gamma();
	int i;

	for (i = 0; i < BT_DIST_NBUCKETS; i++)
		bound[i] = pow(g, i);
	have_bounds = 1;
}

int bt_dist_index(int64_t v)
{
	double x = (double)v;
	int lo = 0, hi = BT_DIST_NBUCKETS - 1;

	if (!have_bounds)
		bounds();
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (bound[mid] >= x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

double bt_dist_rep(int i)
{
	double g = bt_dist_gamma();

	if (!have_bounds)
		bounds();
	return i <= 0 ? 1.0 : 2 * bound[i] / (g + 1);
}

void bt_dist_init(struct bt_dist *d)
{
	memset(d, 0, sizeof *d);
}

void bt_dist_release(struct bt_dist *d)
{
	if (!d)
		return;
	free(d->b);
	bt_dist_init(d);
}

void bt_dist_put(struct bt_dist *d, int i, int64_t count)
{
	size_t lo = 0, hi = d->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->b[mid].i < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nb && d->b[lo].i == i) {
		d->b[lo].count = bt_sat_add(d->b[lo].count, count);
		return;
	}
	BT_GROW(d->b, d->nb + 1, d->cap);
	memmove(&d->b[lo + 1], &d->b[lo], (d->nb - lo) * sizeof *d->b);
	d->b[lo].i = i;
	d->b[lo].count = count;
	d->nb++;
}

static void extremes(struct bt_dist *d, int64_t min, int64_t max)
{
	if (!d->n || min < d->min)
		d->min = min;
	if (!d->n || max > d->max)
		d->max = max;
}

void bt_dist_add(struct bt_dist *d, int64_t v)
{
	if (v < 0)
		v = 0;
	extremes(d, v, v);
	d->n++;
	d->sum = bt_sat_add(d->sum, v);
	if (!v)
		d->zeros++;
	else
		bt_dist_put(d, bt_dist_index(v), 1);
}

void bt_dist_merge(struct bt_dist *d, const struct bt_dist *o)
{
	struct bt_dist_bucket *m;
	size_t i = 0, j = 0, k = 0;

	if (!o->n)
		return;
	extremes(d, o->min, o->max);
	d->n = bt_sat_add(d->n, o->n);
	d->sum = bt_sat_add(d->sum, o->sum);
	d->zeros = bt_sat_add(d->zeros, o->zeros);
	if (!o->nb)
		return;
	/* one pass over both sorted lists */
	m = bt_xmalloc((d->nb + o->nb) * sizeof *m);
	while (i < d->nb || j < o->nb) {
		if (j == o->nb || (i < d->nb && d->b[i].i < o->b[j].i))
			m[k++] = d->b[i++];
		else if (i == d->nb || o->b[j].i < d->b[i].i)
			m[k++] = o->b[j++];
		else {
			m[k] = d->b[i++];
			m[k].count = bt_sat_add(m[k].count, o->b[j++].count);
			k++;
		}
	}
	free(d->b);
	d->b = m;
	d->nb = d->cap = k;
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
	for (i = 0; i < d->nb; i++) {
		seen += d->b[i].count;
		if (seen >= r)
			break;
	}
	if (i == d->nb)
		return d->max;
	v = bt_dist_rep(d->b[i].i);
	if (v < (double)d->min)
		return d->min;
	if (v > (double)d->max)
		return d->max;
	return (int64_t)llround(v);
}
