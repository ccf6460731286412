/*
 * Rank statistics for compare: summaries, the Mann-Whitney U test (an exact
 * dynamic programme over tie groups, or the tie-corrected normal
 * approximation), Cliff's delta and the Hodges-Lehmann shift with its
 * interval, found by selection in the implicit matrix of differences.
 */
#include "engine/compare/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"

/* A total order on doubles: NaNs after every number. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

/*
 * Sort the n elements of size w at a by cmp, their key at key(e): as a
 * stable sort would (glibc's qsort is a merge sort), but the elements
 * whose key is 0 are set apart first and put back between the negative and
 * the positive ones, since compare's samples are mostly zeros (a method
 * under most reports' cut): a sample of many runs with few values then
 * sorts in about n steps, not n log n comparisons.
 */
static void sort_zeros_apart(void *a, size_t n, size_t w, int (*cmp)(const void *, const void *))
{
	unsigned char *b = a, *zeros, *at;
	size_t i, nz = 0, k = 0, neg;

	for (i = 0; i < n; i++)
		nz += *(const double *)(b + i * w) == 0;
	if (nz < 16 || nz == n) {
		if (nz < n)
			qsort(a, n, w, cmp);
		return;
	}
	zeros = bt_xmalloc(nz * w);
	for (i = 0; i < n; i++) {   /* stable: each part keeps its order */
		const unsigned char *e = b + i * w;
		if (*(const double *)e == 0)
			memcpy(zeros + (i - k) * w, e, w);
		else
			memmove(b + k++ * w, e, w);
	}
	qsort(a, k, w, cmp);
	for (neg = 0; neg < k && *(const double *)(b + neg * w) < 0; neg++)
		;
	at = b + neg * w;
	memmove(at + nz * w, at, (k - neg) * w);
	memcpy(at, zeros, nz * w);
	free(zeros);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *c = bt_xmalloc((n ? n : 1) * sizeof *c);

	if (n)
		memcpy(c, x, n * sizeof *c);
	sort_zeros_apart(c, n, sizeof *c, cmp_double);
	return c;
}

void bt_stats_summarize(const double *x, size_t n, struct bt_stats_summary *s)
{
	double *c;

	s->n = n;
	if (!n) {
		s->median = s->min = s->max = NAN;
		return;
	}
	c = sorted_copy(x, n);
	s->min = c[0];
	s->max = c[n - 1];
	s->median = n % 2 ? c[n / 2] : c[n / 2 - 1] / 2 + c[n / 2] / 2;
	free(c);
}

static int check_sample(const double *x, size_t n, const char *side, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return bt_err_set(err, BT_EFORMAT, "non-finite value in '%s' sample at index %zu",
					  side, i);
	return BT_OK;
}

static int check_args(const double *x, size_t n, const double *y, size_t m, struct bt_err *err)
{
	int rc;

	if (!n || !m)
		return bt_err_set(err, BT_EUSAGE,
				  "rank test needs values on both sides (base %zu, head %zu)", n, m);
	if ((rc = check_sample(x, n, "base", err)) || (rc = check_sample(y, m, "head", err)))
		return rc;
	return BT_OK;
}

static int use_exact(enum bt_stats_method method, size_t n, size_t m)
{
	if (method == BT_STATS_NORMAL)
		return 0;
	return n + m <= (method == BT_STATS_EXACT ? BT_STATS_EXACT_CAP : BT_STATS_EXACT_MAX);
}

/*
 * Counts of 2U / step for the side of size s (the other side holds l),
 * over the C(s + l, s) ways to choose it from the pooled values, whose tie
 * groups, in increasing value order, have sizes g[0..ng-1]: c[0..t], to
 * free; larger values are not counted. Doubled U keeps mid-ranks integer;
 * without ties 2U is even and step 2 halves the work.
 *
 * Row k of the table holds the ways to choose k among the first t0 values,
 * by partial 2U. Choosing c of the next group of size gs adds
 * c (2 (t0 - k) + gs - c) >= 0: each chosen value beats the t0 - k values of
 * the other side before the group (2 each) and ties with the gs - c left in
 * it (1 each); there are C(gs, c) ways. As nothing is subtracted, cutting
 * the rows at t loses no count at or below t. Rows are updated from k down,
 * so the rows read still hold the old values.
 */
static double *u_counts(const size_t *g, size_t ng, size_t s, size_t l, size_t step, size_t t)
{
	size_t w = t + 1, t0 = 0, gi, k, c, v;
	double *tab = bt_xcalloc((s + 1) * w, sizeof *tab), *out;
	long *hi = bt_xmalloc((s + 1) * sizeof *hi);   /* last nonzero v per row, -1: none */

	tab[0] = 1;
	hi[0] = 0;
	for (k = 1; k <= s; k++)
		hi[k] = -1;
	for (gi = 0; gi < ng; gi++) {
		size_t gs = g[gi], t1 = t0 + gs;
		size_t kmax = s < t1 ? s : t1;
		/* A row with more than l values of the other side cannot end
		 * at (s + l, s); it is never read again. */
		size_t kmin = t1 > l ? t1 - l : 0;

		for (k = kmax; k >= 1 && k >= kmin; k--) {
			double coef = 1;

			for (c = 1; c <= gs && c <= k; c++) {
				size_t ko = k - c, inc, top;
				const double *src;
				double *dst;

				coef = coef * (double)(gs - c + 1) / (double)c;
				if (ko > t0 || hi[ko] < 0)
					continue;
				inc = c * (2 * (t0 - ko) + gs - c) / step;
				if (inc > t)
					continue;
				top = (size_t)hi[ko] < t - inc ? (size_t)hi[ko] : t - inc;
				src = tab + ko * w;
				dst = tab + k * w + inc;
				for (v = 0; v <= top; v++)
					dst[v] += coef * src[v];
				if ((long)(top + inc) > hi[k])
					hi[k] = (long)(top + inc);
			}
		}
		t0 = t1;
	}
	out = bt_xmalloc(w * sizeof *out);
	memcpy(out, tab + s * w, w * sizeof *out);
	free(tab);
	free(hi);
	return out;
}

/* C(nn, k) as a double: a relative error of about k ulps. */
static double binom(size_t nn, size_t k)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= k; i++)
		c = c * (double)(nn - k + i) / (double)i;
	return c;
}

/* P(2U / step <= t) for the side of size s, summed from 0 up, so that a
 * small tail keeps its precision. */
static double lower_tail(const size_t *g, size_t ng, size_t s, size_t l, size_t step, size_t t)
{
	double *c = u_counts(g, ng, s, l, step, t), sum = 0;
	size_t v;

	for (v = 0; v <= t; v++)
		sum += c[v];
	free(c);
	return sum / binom(s + l, s);
}

struct pooled {
	double v;
	int head;
};

static int cmp_pooled(const void *a, const void *b)
{
	return cmp_double(&((const struct pooled *)a)->v, &((const struct pooled *)b)->v);
}

/*
 * Sort the pooled sample into tie groups: g[] gets their sizes (the caller
 * frees it), the return value is 2 U for the base side, *tie3 the sum of
 * t^3 - t and *ties the values in groups of two or more.
 */
static uint64_t rank_groups(const double *x, size_t n, const double *y, size_t m, size_t **gp,
			    size_t *ng, double *tie3, size_t *ties)
{
	size_t nn = n + m, i, j, k = 0;
	struct pooled *p = bt_xmalloc(nn * sizeof *p);
	size_t *g = bt_xmalloc(nn * sizeof *g);
	uint64_t r2 = 0;   /* sum of the doubled mid-ranks of the base values */

	for (i = 0; i < n; i++)
		p[i] = (struct pooled){ x[i], 0 };
	for (i = 0; i < m; i++)
		p[n + i] = (struct pooled){ y[i], 1 };
	sort_zeros_apart(p, nn, sizeof *p, cmp_pooled);   /* the value is first */
	*tie3 = 0;
	*ties = 0;
	for (i = 0; i < nn; i = j) {
		size_t nx = 0;

		for (j = i; j < nn && p[j].v == p[i].v; j++)
			nx += !p[j].head;
		g[k++] = j - i;
		r2 += (uint64_t)nx * (i + 1 + j);   /* positions i+1..j: doubled mid-rank i+1+j */
		if (j - i > 1) {
			*tie3 += ((double)(j - i) * (j - i) - 1) * (double)(j - i);
			*ties += j - i;
		}
	}
	free(p);
	*gp = g;
	*ng = k;
	return r2 - (uint64_t)n * (n + 1);
}

/*
 * Two-sided exact p for the observed 2U of the base side: the lower tail of
 * the smaller side's statistic, and its upper tail as the lower tail with
 * the value order reversed (which maps 2U to 2 n m - 2U). Without ties the
 * distribution is symmetric and one tail gives both.
 */
static double exact_p(size_t *g, size_t ng, size_t n, size_t m, uint64_t u2_base)
{
	size_t s = n <= m ? n : m, l = n + m - s, step = ng == n + m ? 2 : 1, i;
	size_t top = 2 * s * l / step;
	size_t v = (size_t)((n <= m ? u2_base : 2 * (uint64_t)n * m - u2_base) / step);
	double lo, up;

	if (step == 2) {
		lo = lower_tail(g, ng, s, l, step, v < top - v ? v : top - v);
		return fmin(1, 2 * lo);
	}
	lo = lower_tail(g, ng, s, l, step, v);
	for (i = 0; i < ng / 2; i++) {
		size_t tmp = g[i];

		g[i] = g[ng - 1 - i];
		g[ng - 1 - i] = tmp;
	}
	up = lower_tail(g, ng, s, l, step, top - v);
	return fmin(1, 2 * fmin(lo, up));
}

int bt_stats_mwu(const double *x, size_t n, const double *y, size_t m,
		 enum bt_stats_method method, struct bt_stats_mwu *r, struct bt_err *err)
{
	size_t *g = NULL, ng;
	double nm = (double)n * (double)m, nn = (double)(n + m), tie3, sigma2, d;
	uint64_t u2;
	int rc;

	memset(r, 0, sizeof *r);
	r->p = NAN;
	if ((rc = check_args(x, n, y, m, err)))
		return rc;
	r->n = n;
	r->m = m;
	u2 = rank_groups(x, n, y, m, &g, &ng, &tie3, &r->ties);
	r->u_base = (double)u2 / 2;
	r->u_head = nm - r->u_base;
	r->delta = (r->u_head - r->u_base) / nm;

	sigma2 = nm / 12 * ((nn + 1) - tie3 / (nn * (nn - 1)));
	d = r->u_head - nm / 2;
	r->z = sigma2 > 0 && d != 0 ? (d - copysign(0.5, d)) / sqrt(sigma2) : 0;
	r->exact = use_exact(method, n, m);
	if (r->exact)
		r->p = exact_p(g, ng, n, m, u2);
	else
		r->p = sigma2 > 0 ? fmin(1, erfc(fabs(r->z) / sqrt(2))) : 1;
	free(g);
	return BT_OK;
}

/*
 * The lower-tail standard normal quantile for 0 < p < 0.5: Abramowitz and
 * Stegun 26.2.23 (error < 4.5e-4) as a start, then Newton steps on erfc.
 */
static double norm_lower_quantile(double p)
{
	double t = sqrt(-2 * log(p)), z;
	int i;

	z = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
		  (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
	for (i = 0; i < 8; i++) {
		double f = erfc(-z / sqrt(2)) / 2 - p;
		double dz = f / (exp(-z * z / 2) / 2.5066282746310002);   /* sqrt(2 pi) */

		z -= dz;
		if (fabs(dz) <= 1e-15 * fabs(z))
			break;
	}
	return z;
}

/*
 * The 1-based rank k of the interval's lower end and the achieved level,
 * from the no-ties null distribution of U: k is the smallest q >= 1 with
 * P(U <= q) >= alpha / 2 (R's qwilcox, a relative 1e-12 of slack for
 * rounding), and the level is 1 - 2 P(U <= k - 1).
 */
static uint64_t ci_rank(size_t n, size_t m, double alpha, int exact, double *level)
{
	double nm = (double)n * (double)m, mu = nm / 2;
	uint64_t k;

	if (exact) {
		/* No ties: U in steps of 1; U <= n m / 2 holds half the mass,
		 * so the rank is below it. */
		size_t s = n <= m ? n : m, l = n + m - s, i, *g = bt_xmalloc((n + m) * sizeof *g);
		size_t t = s * l / 2;
		double *c, tot = binom(n + m, s), cum = 0, prev = 0;

		for (i = 0; i < n + m; i++)
			g[i] = 1;
		c = u_counts(g, n + m, s, l, 2, t);
		for (k = 0; k <= t; k++) {
			prev = cum;
			cum += c[k];
			if (cum / tot >= alpha / 2 * (1 - 1e-12))
				break;
		}
		if (k == 0)
			prev = cum, k = 1;
		*level = 1 - 2 * prev / tot;
		free(c);
		free(g);
	} else {
		double sigma = sqrt(nm * (double)(n + m + 1) / 12);
		double q = ceil(mu - 0.5 + norm_lower_quantile(alpha / 2) * sigma);

		k = q < 1 ? 1 : (uint64_t)q;
		*level = 1 - erfc(-(((double)k - 0.5 - mu) / sigma) / sqrt(2));
	}
	return k;
}

static uint64_t xorshift(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return *st;
}

/* Active columns of each row of the difference matrix y[j] - x[i]. */
struct diffsel {
	const double *x, *y;   /* both sorted ascending */
	size_t n, m;
	size_t *lo, *hi, *lt, *le;
	double *buf;           /* n + m */
};

/*
 * Narrow around pivot p: every row's columns below lo are at most some
 * earlier pivot below the answer, those from hi on at least one above it.
 * Returns 1 when p is the k-th smallest itself. Rows are sorted in j and
 * fl(y[j] - x[i]) does not increase with i, so the counts of differences
 * below p never decrease from one row to the next: two pointers, O(n + m).
 */
static int narrow(struct diffsel *d, double p, uint64_t k)
{
	uint64_t lt = 0, le = 0;
	size_t i, a = 0, b = 0;

	for (i = 0; i < d->n; i++) {
		while (a < d->m && d->y[a] - d->x[i] < p)
			a++;
		while (b < d->m && d->y[b] - d->x[i] <= p)
			b++;
		d->lt[i] = a;
		d->le[i] = b;
		lt += a;
		le += b;
	}
	if (k >= lt && k < le)
		return 1;
	for (i = 0; i < d->n; i++) {
		if (k < lt && d->lt[i] < d->hi[i])
			d->hi[i] = d->lt[i];
		else if (k >= le && d->le[i] > d->lo[i])
			d->lo[i] = d->le[i];
	}
	return 0;
}

/* The k-th smallest (0-based) of the n m differences y[j] - x[i]: random
 * pivots among the active ones until at most n + m remain, then a sort. */
static double kth_diff(struct diffsel *d, uint64_t k)
{
	uint64_t act = (uint64_t)d->n * d->m, below, r, st = 0x9e3779b97f4a7c15u;
	size_t i, j, na;

	for (i = 0; i < d->n; i++) {
		d->lo[i] = 0;
		d->hi[i] = d->m;
	}
	while (act > d->n + d->m) {
		double p;

		r = xorshift(&st) % act;
		for (i = 0; r >= d->hi[i] - d->lo[i]; i++)
			r -= d->hi[i] - d->lo[i];
		p = d->y[d->lo[i] + r] - d->x[i];
		if (narrow(d, p, k))
			return p;
		for (act = 0, i = 0; i < d->n; i++)
			act += d->hi[i] - d->lo[i];
	}
	for (below = 0, na = 0, i = 0; i < d->n; i++) {
		below += d->lo[i];
		for (j = d->lo[i]; j < d->hi[i]; j++)
			d->buf[na++] = d->y[j] - d->x[i];
	}
	qsort(d->buf, na, sizeof *d->buf, cmp_double);
	return d->buf[k - below];
}

int bt_stats_hl(const double *x, size_t n, const double *y, size_t m, double level,
		enum bt_stats_method method, struct bt_stats_shift *s, struct bt_err *err)
{
	struct diffsel d;
	uint64_t nm = (uint64_t)n * m, k;
	int rc;

	s->est = s->lo = s->hi = s->level = NAN;
	s->exact = 0;
	if ((rc = check_args(x, n, y, m, err)))
		return rc;
	if (!(level > 0 && level < 1))
		return bt_err_set(err, BT_EUSAGE, "confidence level '%g' is not between 0 and 1", level);
	d.x = sorted_copy(x, n);
	d.y = sorted_copy(y, m);
	d.n = n;
	d.m = m;
	d.lo = bt_xmalloc(4 * n * sizeof *d.lo);
	d.hi = d.lo + n;
	d.lt = d.hi + n;
	d.le = d.lt + n;
	d.buf = bt_xmalloc((n + m) * sizeof *d.buf);

	s->est = nm % 2 ? kth_diff(&d, nm / 2) : kth_diff(&d, nm / 2 - 1) / 2 + kth_diff(&d, nm / 2) / 2;
	s->exact = use_exact(method, n, m);
	k = ci_rank(n, m, 1 - level, s->exact, &s->level);
	s->lo = kth_diff(&d, k - 1);
	s->hi = kth_diff(&d, nm - k);

	free((void *)d.x);
	free((void *)d.y);
	free(d.lo);
	free(d.buf);
	return BT_OK;
}
