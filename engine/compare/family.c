/*
 * The family's max-T permutation test (family.h). Per relabeling, each
 * test's T comes from the head runs' sum and sum of squares (the base
 * side's are the totals minus those), so a relabeling costs O(tests x
 * head runs); the step-down maximum is a running maximum over the tests
 * in order of their observed statistic, smallest first. Both directions
 * of a one-sided pair (bt_family_maxt2) share each relabeling's T.
 * Holm's adjustment, for tests without joint values, is at the end.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/compare/family.h"

double bt_family_choose(size_t n, size_t k)
{
	double c = 1;
	size_t i;

	if (k > n)
		return 0;
	for (i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return floor(c + 0.5);
}

double bt_family_min_p(size_t n)
{
	return 1 / bt_family_choose(2 * n, n);
}

/* One direction's tally: what its statistic of a test is (|T|, or
 * sign dir[j] T), the tests in order of the observed one, the counts. */
struct side {
	double sign;           /* 0: two-sided */
	double *obs;
	size_t *order;         /* tests by observed statistic, largest first */
	size_t *count;         /* per position in order */
};

/* Each test's values: a row of every run's (dense), or its runs with a
 * value other than 0 (sparse: at[j]..at[j + 1] into run[] and val[]). */
struct fam {
	size_t nt, nruns, nh;
	const double **row;    /* per test: its dense row, or NULL when sparse */
	const size_t *at;
	const uint32_t *run;
	const double *val;
	unsigned char *in;     /* this relabeling's head runs, for the sparse tests */
	const double *s0, *dir;
	double *sum, *sq;      /* per test, over every run */
	double *t;             /* this relabeling's T per test, head minus base */
	/* The dense rows again, run by run (col[r * nd + k] is run r's value
	 * of test dj[k]): a relabeling then adds the head runs' contiguous
	 * columns, which the compiler vectorizes, in the same order as the
	 * rows would (the same sums, bit for bit); as large as the rows. */
	double *col, *hs, *hq, *dsum, *dsq, *ds0, *dt;   /* per column: sums, s0^2, T */
	size_t *dj, nd;
	struct side side[2];
	size_t nsides;
};

static double statistic(const struct fam *f, const struct side *d, size_t j)
{
	return d->sign ? d->sign * f->dir[j] * f->t[j] : fabs(f->t[j]);
}

/* The head runs' sum and sum of squares of sparse test j: over its own
 * values (the dense ones are summed by columns, stats). */
static void head_sums(const struct fam *f, size_t j, double *hs, double *hq)
{
	size_t i;

	*hs = *hq = 0;
	for (i = f->at[j]; i < f->at[j + 1]; i++)
		if (f->in[f->run[i]])
			*hs += f->val[i], *hq += f->val[i] * f->val[i];
}

#define BLOCK 8                     /* columns summed at once: 8 registers */

/* A relabeling's constants: m head runs and n base runs, as doubles, less
 * one, and whether each side has a variance (a side of one run has not). */
struct split_sizes { double dm, dn, dm1, dn1, km, kn; };

static struct split_sizes split_sizes_of(size_t m, size_t n)
{
	struct split_sizes c = { (double)m, (double)n, m > 1 ? (double)m - 1 : 1, n > 1 ? (double)n - 1 : 1,
			   m > 1, n > 1 };
	return c;
}

/* T from a test's head sums and totals; s0 squared. Inline and without
 * branches, so that column_stats' loop vectorizes. */
static inline double tstat(double hs, double hq, double sum, double sq, double s0sq, const struct split_sizes *c)
{
	double bs = sum - hs, bq = sq - hq, mh = hs / c->dm, mb = bs / c->dn;
	double vh = (hq - hs * mh) / c->dm1, vb = (bq - bs * mb) / c->dn1;

	vh = (vh > 0 ? vh : 0) * c->km;
	vb = (vb > 0 ? vb : 0) * c->kn;
	return (mh - mb) / sqrt(vh / c->dm + vb / c->dn + s0sq);
}

/* The columns, once every test's totals are known. */
static void columns(struct fam *f)
{
	size_t j, r, k = 0;

	for (j = 0; j < f->nt; j++)
		f->nd += f->row[j] != NULL;
	if (!f->nd)
		return;
	f->col = bt_xcalloc(f->nruns * f->nd, sizeof *f->col);
	f->hs = bt_xcalloc(f->nd, sizeof *f->hs);
	f->hq = bt_xcalloc(f->nd, sizeof *f->hq);
	f->dsum = bt_xcalloc(f->nd, sizeof *f->dsum);
	f->dsq = bt_xcalloc(f->nd, sizeof *f->dsq);
	f->ds0 = bt_xcalloc(f->nd, sizeof *f->ds0);
	f->dt = bt_xcalloc(f->nd, sizeof *f->dt);
	f->dj = bt_xcalloc(f->nd, sizeof *f->dj);
	for (j = 0; j < f->nt; j++) {
		if (!f->row[j])
			continue;
		for (r = 0; r < f->nruns; r++)
			f->col[r * f->nd + k] = f->row[j][r];
		f->dsum[k] = f->sum[j], f->dsq[k] = f->sq[j], f->ds0[k] = f->s0[j] * f->s0[j];
		f->dj[k++] = j;
	}
}

/* T of every column, in one loop the compiler vectorizes. */
static void column_stats(struct fam *f)
{
	size_t k, nd = f->nd, n = f->nruns - f->nh, m = f->nh;
	const double *restrict hs = f->hs, *restrict hq = f->hq, *restrict sum = f->dsum;
	const double *restrict sq = f->dsq, *restrict s0 = f->ds0;
	double *restrict t = f->dt;
	const struct split_sizes c = split_sizes_of(m, n);

	for (k = 0; k < nd; k++)
		t[k] = tstat(hs[k], hq[k], sum[k], sq[k], s0[k], &c);
	for (k = 0; k < nd; k++)
		f->t[f->dj[k]] = t[k];
}

/* T of every test with the head runs at idx[0..nh-1]. */
static void stats(struct fam *f, const size_t *idx)
{
	size_t j, i, k, m = f->nh, nd = f->nd;
	double *restrict hs = f->hs, *restrict hq = f->hq;
	const struct split_sizes c = split_sizes_of(m, f->nruns - m);

	for (i = 0; i < m; i++)
		f->in[idx[i]] = 1;
	if (f->col) {
		/* BLOCK columns at a time, their sums in registers over the runs */
		for (k = 0; k < nd; k += BLOCK) {
			double bs[BLOCK] = { 0 }, bq[BLOCK] = { 0 };
			size_t b, w = nd - k < BLOCK ? nd - k : BLOCK;
			if (w == BLOCK) {
				for (i = 0; i < m; i++) {
					const double *x = f->col + idx[i] * nd + k;
#pragma GCC unroll 8
					for (b = 0; b < BLOCK; b++)
						bs[b] += x[b], bq[b] += x[b] * x[b];
				}
			} else {
				for (i = 0; i < m; i++) {
					const double *x = f->col + idx[i] * nd + k;
					for (b = 0; b < w; b++)
						bs[b] += x[b], bq[b] += x[b] * x[b];
				}
			}
			memcpy(hs + k, bs, w * sizeof *bs);
			memcpy(hq + k, bq, w * sizeof *bq);
		}
		column_stats(f);
	}
	for (j = 0; j < f->nt; j++) {
		double s, q;
		if (f->row[j])
			continue;
		head_sums(f, j, &s, &q);
		f->t[j] = tstat(s, q, f->sum[j], f->sq[j], f->s0[j] * f->s0[j], &c);
	}
	for (i = 0; i < m; i++)
		f->in[idx[i]] = 0;
}

/* Count, for each position k of order, whether the maximum over the tests
 * at k and after (those with smaller observed |T|) reaches the observed |T|
 * at k. The tolerance keeps a relabeling that only rounds differently
 * (the mirror split of n = m) counted. */
static void tally(struct fam *f)
{
	size_t s, k, j;

	for (s = 0; s < f->nsides; s++) {
		struct side *d = &f->side[s];
		double q = -HUGE_VAL;
		for (k = f->nt; k--;) {
			j = d->order[k];
			double v = statistic(f, d, j);
			q = v > q ? v : q;   /* fmax, inline: NaN never wins either */
			if (q >= d->obs[j] - 1e-9 * fabs(d->obs[j]))
				d->count[k]++;
		}
	}
}

struct keyed {
	double key;
	size_t j;
};

static int by_key_desc(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return (x->j > y->j) - (x->j < y->j);
}

/* Every k-subset of nruns, in lexicographic order. */
static size_t enumerate(struct fam *f, size_t *idx)
{
	size_t k = f->nh, i, done = 0;

	for (i = 0; i < k; i++)
		idx[i] = i;
	for (;;) {
		stats(f, idx);
		tally(f);
		done++;
		for (i = k; i-- > 0;)
			if (idx[i] != f->nruns - k + i)
				break;
		if (i == (size_t)-1 || (k == 0))
			return done;
		idx[i]++;
		for (i++; i < k; i++)
			idx[i] = idx[i - 1] + 1;
	}
}

static uint64_t next_rand(uint64_t *s)   /* splitmix64 */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The observed split plus BT_FAMILY_RANDOM random ones. */
static size_t sample(struct fam *f, const size_t *obs_idx, size_t *idx)
{
	size_t *deck = bt_xcalloc(f->nruns, sizeof *deck), b, i;
	uint64_t seed = 20;

	memcpy(idx, obs_idx, f->nh * sizeof *idx);
	stats(f, idx);
	tally(f);
	for (i = 0; i < f->nruns; i++)
		deck[i] = i;
	for (b = 0; b < BT_FAMILY_RANDOM; b++) {
		for (i = 0; i < f->nh; i++) {   /* a partial Fisher-Yates shuffle */
			size_t r = i + (size_t)(next_rand(&seed) % (f->nruns - i)), tmp = deck[i];
			deck[i] = deck[r];
			deck[r] = tmp;
		}
		stats(f, deck);
		tally(f);
	}
	free(deck);
	return BT_FAMILY_RANDOM + 1;
}

/* The side's observed statistics, and the tests in their order. */
static void side_init(struct fam *f, struct side *d, double sign)
{
	struct keyed *keyed = bt_xcalloc(f->nt, sizeof *keyed);
	size_t j;

	d->sign = sign;
	d->obs = bt_xcalloc(f->nt, sizeof *d->obs);
	d->order = bt_xcalloc(f->nt, sizeof *d->order);
	d->count = bt_xcalloc(f->nt, sizeof *d->count);
	for (j = 0; j < f->nt; j++)
		keyed[j].key = d->obs[j] = statistic(f, d, j), keyed[j].j = j;
	qsort(keyed, f->nt, sizeof *keyed, by_key_desc);
	for (j = 0; j < f->nt; j++)
		d->order[j] = keyed[j].j;
	free(keyed);
}

/* Step-down: a p never below that of a larger statistic. */
static void side_p(const struct fam *f, const struct side *d, size_t total, double *p)
{
	size_t j;

	for (j = 0; j < f->nt; j++) {
		double pj = (double)d->count[j] / (double)total;
		if (j)
			pj = fmax(pj, p[d->order[j - 1]]);
		p[d->order[j]] = fmin(1, pj);
	}
}

/* Every bt_family_maxt*: f's tests (nt, nruns, row, at, run, val, s0 and
 * dir) set by the caller; signs[s] 0 for two-sided, else the direction of
 * side s; p[s] its adjusted p-values. */
static void run(struct fam *f, const unsigned char *head, const double *signs, size_t nsides,
		double *t, double **p, struct bt_family_info *info)
{
	size_t *idx, *obs_idx, j, r, i, nh = 0, total, nruns = f->nruns, nt = f->nt;
	double splits;

	for (r = 0; r < nruns; r++)
		nh += head[r] != 0;
	splits = bt_family_choose(nruns, nh);
	info->exact = splits <= BT_FAMILY_EXACT_MAX;
	info->relabelings = info->exact ? (size_t)splits : BT_FAMILY_RANDOM + 1;
	/* the observed split, and its mirror when both sides have as many runs */
	info->min_p = (!signs[0] && info->exact && 2 * nh == nruns ? 2.0 : 1.0) / (double)info->relabelings;
	if (!nt)
		return;
	f->nh = nh, f->nsides = nsides;
	f->sum = bt_xcalloc(nt, sizeof *f->sum);
	f->sq = bt_xcalloc(nt, sizeof *f->sq);
	f->t = bt_xcalloc(nt, sizeof *f->t);
	f->in = bt_xcalloc(nruns, 1);
	idx = bt_xcalloc(nh + 1, sizeof *idx);
	obs_idx = bt_xcalloc(nh + 1, sizeof *obs_idx);
	for (j = 0; j < nt; j++) {
		const double *x = f->row[j] ? f->row[j] : f->val + f->at[j];
		size_t n = f->row[j] ? nruns : f->at[j + 1] - f->at[j];
		for (i = 0; i < n; i++)
			f->sum[j] += x[i], f->sq[j] += x[i] * x[i];
	}
	for (r = 0, j = 0; r < nruns; r++)
		if (head[r])
			obs_idx[j++] = r;
	columns(f);
	stats(f, obs_idx);
	memcpy(t, f->t, nt * sizeof *t);
	for (j = 0; j < nsides; j++)
		side_init(f, &f->side[j], signs[j]);
	total = info->exact ? enumerate(f, idx) : sample(f, obs_idx, idx);
	for (j = 0; j < nsides; j++) {
		side_p(f, &f->side[j], total, p[j]);
		free(f->side[j].obs), free(f->side[j].order), free(f->side[j].count);
	}
	free(f->sum), free(f->sq), free(f->t), free(f->in), free(idx), free(obs_idx);
	free(f->col), free(f->hs), free(f->hq), free(f->dj);
	free(f->dsum), free(f->dsq), free(f->ds0), free(f->dt);
}

/* f over the dense matrix v: every test a row of it. */
static void dense(struct fam *f, size_t nt, size_t nruns, const double *v, const double *s0,
		  const double *dir)
{
	size_t j;

	memset(f, 0, sizeof *f);
	f->nt = nt, f->nruns = nruns, f->s0 = s0, f->dir = dir;
	f->row = bt_xcalloc(nt + 1, sizeof *f->row);
	for (j = 0; j < nt; j++)
		f->row[j] = v + j * nruns;
}

void bt_family_maxt(size_t nt, size_t nruns, const unsigned char *head, const double *v,
		    const double *s0, const double *dir, double *t, double *p,
		    struct bt_family_info *info)
{
	const double sign = dir ? 1 : 0;
	struct fam f;

	dense(&f, nt, nruns, v, s0, dir);
	run(&f, head, &sign, 1, t, &p, info);
	free(f.row);
}

void bt_family_maxt2(size_t nt, size_t nruns, const unsigned char *head, const double *v,
		     const double *s0, const double *dir, double *t, double *p_dir, double *p_other,
		     struct bt_family_info *info)
{
	static const double signs[2] = { 1, -1 };
	double *p[2] = { p_dir, p_other };
	struct fam f;

	dense(&f, nt, nruns, v, s0, dir);
	run(&f, head, signs, 2, t, p, info);
	free(f.row);
}

void bt_family_maxt2_sparse(const struct bt_family_tests *x, const unsigned char *head,
			    const double *s0, const double *dir, double *t, double *p_dir,
			    double *p_other, struct bt_family_info *info)
{
	static const double signs[2] = { 1, -1 };
	double *p[2] = { p_dir, p_other }, *pool, *row;
	size_t j, i, ndense = 0;
	struct fam f;

	memset(&f, 0, sizeof f);
	f.nt = x->nt, f.nruns = x->nruns, f.s0 = s0, f.dir = dir;
	f.at = x->at, f.run = x->run, f.val = x->val;
	f.row = bt_xcalloc(x->nt + 1, sizeof *f.row);
	for (j = 0; j < x->nt; j++)
		ndense += 2 * (x->at[j + 1] - x->at[j]) >= x->nruns;
	/* a row where it is no larger than twice the test's values: a relabeling
	 * then costs the head's runs, not every value */
	row = pool = bt_xcalloc(ndense * x->nruns + 1, sizeof *pool);
	for (j = 0; j < x->nt; j++) {
		if (2 * (x->at[j + 1] - x->at[j]) < x->nruns)
			continue;
		for (i = x->at[j]; i < x->at[j + 1]; i++)
			row[x->run[i]] = x->val[i];
		f.row[j] = row;
		row += x->nruns;
	}
	run(&f, head, signs, 2, t, p, info);
	free(f.row);
	free(pool);
}

struct ranked {
	double p;
	size_t at;
};

static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->p < y->p ? -1 : x->p > y->p ? 1 : x->at < y->at ? -1 : x->at > y->at;
}

void bt_family_holm(size_t n, const double *p, double *adj)
{
	struct ranked *r = bt_xcalloc(n + 1, sizeof *r);
	size_t i, k = 0;
	double run = 0;

	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[k].p = p[i], r[k++].at = i;
	if (k)
		qsort(r, k, sizeof *r, by_p);
	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	for (i = 0; i < k; i++) {
		run = fmax(run, fmin(1, (double)(k - i) * r[i].p));
		adj[r[i].at] = run;
	}
	free(r);
}
