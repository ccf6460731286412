/*
 * Unit tests of the compare statistics: textbook and reference values,
 * exact p-values against brute-force enumeration for every n, m in 1..10,
 * the normal approximation against its formulas, effect sizes against brute
 * force, interval coverage by simulation, edge cases; timings are printed,
 * not asserted (a busy machine must not fail a test).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "engine/compare/stats.h"
#include "tests/tap.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static int near(double got, double want, double rel)
{
	if (isnan(got) || isnan(want))
		return isnan(got) && isnan(want);
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-300);
}

#define is_num(got, want, rel, what) \
	do { \
		double g_ = (got), w_ = (want); \
		if (!ok(near(g_, w_, (rel)), (what))) \
			printf("#   got %.17g, want %.17g\n", g_, w_); \
	} while (0)

static uint64_t rng = 88172645463325252u;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double unif(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

/* CPU seconds of this process, for the timings printed as comments. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* 2 U for x by its definition: 2 per pair x > y, 1 per tie. */
static long u2_pairs(const double *x, size_t n, const double *y, size_t m)
{
	long u = 0;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			u += x[i] > y[j] ? 2 : x[i] == y[j];
	return u;
}

static struct bt_stats_mwu mwu(const double *x, size_t n, const double *y, size_t m,
			       enum bt_stats_method how)
{
	struct bt_stats_mwu r;
	struct bt_err err = BT_ERR_INIT;

	if (bt_stats_mwu(x, n, y, m, how, &r, &err))
		printf("# unexpected error: %s\n", err.msg);
	return r;
}

static struct bt_stats_shift hl(const double *x, size_t n, const double *y, size_t m, double level,
				enum bt_stats_method how)
{
	struct bt_stats_shift s;
	struct bt_err err = BT_ERR_INIT;

	if (bt_stats_hl(x, n, y, m, level, how, &s, &err))
		printf("# unexpected error: %s\n", err.msg);
	return s;
}

static void test_summary(void)
{
	double odd[] = { 5, 1, 4, 2, 3 }, even[] = { 10, -2, 7, 1 }, one[] = { 42 };
	double keep[LEN(odd)];
	struct bt_stats_summary s;

	memcpy(keep, odd, sizeof odd);
	bt_stats_summarize(odd, LEN(odd), &s);
	ok(s.n == 5 && s.median == 3 && s.min == 1 && s.max == 5, "summary: odd n");
	ok(!memcmp(keep, odd, sizeof odd), "summary: the caller's array is untouched");
	bt_stats_summarize(even, LEN(even), &s);
	ok(s.median == 4 && s.min == -2 && s.max == 10, "summary: even n averages the middle two");
	bt_stats_summarize(one, 1, &s);
	ok(s.median == 42 && s.min == 42 && s.max == 42, "summary: n = 1");
	bt_stats_summarize(NULL, 0, &s);
	ok(s.n == 0 && isnan(s.median) && isnan(s.min) && isnan(s.max), "summary: n = 0 gives NaN");
}

/* Published examples; the reference values say where they come from. */
static void test_textbook(void)
{
	/* Hollander & Wolfe (1973) p. 69f, the example of R's ?wilcox.test:
	 * W = 35, one-sided p = 0.1272; R 4.2.2 gives two-sided
	 * 0.2544122544122544, and for wilcox.test(y, x, conf.int = TRUE)
	 * estimate -0.305, interval [-0.76, 0.15]; qwilcox(0.025, 10, 5) = 9
	 * with 1 - 2 pwilcox(8, 10, 5) = 0.96003996003996006. */
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	/* Wikipedia, "Mann-Whitney U test", tortoise and hare: finishing order
	 * THHHHHTTTTTH, U_T = 11 wins; as finishing times the tortoises' U
	 * counts the slower, 36 - 11 = 25. R: p = 0.30952380952380953. */
	double tort[] = { 1, 7, 8, 9, 10, 11 }, hare[] = { 2, 3, 4, 5, 6, 12 };
	/* scipy.stats.mannwhitneyu docs (males vs females): U1 = 17, exact
	 * p = 0.1111111111111111, asymptotic 0.11134688653314041 (scipy 1.10.1;
	 * R 4.2.2 0.11134688653314045). */
	double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	struct bt_stats_mwu r;
	struct bt_stats_shift s;

	r = mwu(x, LEN(x), y, LEN(y), BT_STATS_AUTO);
	ok(r.u_base == 35 && r.u_head == 15, "H&W: W = 35, U for y = 15");
	ok(r.exact, "H&W: 10 + 5 is exact");
	is_num(r.p, 0.2544122544122544, 1e-12, "H&W: two-sided p = 2 x 0.1272");
	is_num(r.delta, (15.0 - 35) / 50, 1e-15, "H&W: Cliff's delta (head minus base)");
	s = hl(x, LEN(x), y, LEN(y), 0.95, BT_STATS_AUTO);
	is_num(s.est, -0.305, 1e-12, "H&W: Hodges-Lehmann shift as R's wilcox.test(y, x)");
	is_num(s.lo, -0.76, 1e-12, "H&W: interval's lower end as R");
	is_num(s.hi, 0.15, 1e-12, "H&W: interval's upper end as R");
	is_num(s.level, 0.96003996003996006, 1e-12, "H&W: achieved level as R's pwilcox");
	s = hl(y, LEN(y), x, LEN(x), 0.95, BT_STATS_AUTO);
	ok(near(s.est, 0.305, 1e-12) && near(s.lo, -0.15, 1e-12) && near(s.hi, 0.76, 1e-12),
	   "H&W: swapping the sides negates the shift");

	r = mwu(tort, 6, hare, 6, BT_STATS_AUTO);
	ok(r.u_base == 25 && r.u_head == 11, "tortoise and hare: U = 25 and 11");
	is_num(r.p, 0.30952380952380953, 1e-12, "tortoise and hare: exact p as R");

	r = mwu(males, 5, females, 4, BT_STATS_AUTO);
	ok(r.u_base == 17, "scipy docs: U1 = 17");
	is_num(r.p, 0.1111111111111111, 1e-12, "scipy docs: exact p");
	r = mwu(males, 5, females, 4, BT_STATS_NORMAL);
	ok(!r.exact, "scipy docs: normal on request");
	is_num(r.p, 0.11134688653314041, 1e-12, "scipy docs: asymptotic p");
}

/* P(U <= 1) = 4/45 exactly for 2 + 8: at level 1 - 8/45 the rank is that
 * q, not the next (R 4.2.2: qwilcox(4/45, 2, 8) = 2, interval of
 * wilcox.test(y, x) [-7.5, 7.5], 1 - 2 pwilcox(1, 2, 8) = 0.9111...). */
static void test_rank_boundary(void)
{
	double bx[] = { 0, 10 }, by[] = { 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5 };
	struct bt_stats_shift s = hl(bx, 2, by, 8, 1 - 8.0 / 45, BT_STATS_AUTO);

	ok(s.lo == -7.5 && s.hi == 7.5 && s.est == 0, "2 + 8: a tail equal to alpha / 2 sets the rank");
	is_num(s.level, 0.91111111111111109, 1e-12, "2 + 8: achieved level as R");
}

/* R 4.2.2: 2 * pwilcox(3, 7, 9) = 0.0012237762237762239 and
 * 2 * pwilcox(20, 12, 13) = 0.00096879026210026345. */
static void test_exact_r(void)
{
	double a[7], b[9], c[12], d[13];
	size_t i;
	struct bt_stats_mwu r;

	for (i = 0; i < 9; i++)
		b[i] = 100 + (double)i;
	for (i = 0; i < 6; i++)
		a[i] = (double)i;
	a[6] = 102.5;   /* above 100, 101, 102: U = 3 */
	r = mwu(a, 7, b, 9, BT_STATS_AUTO);
	ok(r.u_base == 3, "7 + 9: U = 3");
	is_num(r.p, 0.0012237762237762239, 1e-12, "7 + 9: exact p as R");
	r = mwu(b, 9, a, 7, BT_STATS_AUTO);
	ok(r.u_base == 60, "9 + 7: U = 60");
	is_num(r.p, 0.0012237762237762239, 1e-12, "9 + 7: swapping the sides keeps p");
	for (i = 0; i < 13; i++)
		d[i] = 100 + (double)i;
	for (i = 0; i < 10; i++)
		c[i] = (double)i;
	c[10] = 106.5;   /* above 7 of d */
	c[11] = 112.5;   /* above all 13 */
	r = mwu(c, 12, d, 13, BT_STATS_AUTO);
	ok(r.u_base == 20 && r.exact, "12 + 13: U = 20, exact");
	is_num(r.p, 0.00096879026210026345, 1e-12, "12 + 13: exact p as R");
}

/* Doubled mid-ranks by counting, independent of any sort. */
static void midranks2(const double *v, size_t nn, long *d)
{
	size_t i, j;

	for (i = 0; i < nn; i++) {
		long lt = 0, eq = 0;

		for (j = 0; j < nn; j++) {
			lt += v[j] < v[i];
			eq += v[j] == v[i];
		}
		d[i] = 2 * lt + eq + 1;
	}
}

static unsigned long next_comb(unsigned long c)
{
	unsigned long lo = c & -c, r = c + lo;

	return (((r ^ c) >> 2) / lo) | r;
}

/*
 * Brute force: enumerate all C(n + m, n) ways to give n of the pooled
 * values v to x, histogram 2U, and compare the two-sided p of a few
 * observed splits with the library's. Returns the number of mismatches.
 */
static int brute_check(const double *v, size_t n, size_t m, int checks)
{
	size_t nn = n + m, i, w = 2 * n * m + 1;
	long d[20];
	double *hist = calloc(w, sizeof *hist), tot = 0;
	unsigned long c, end = 1ul << nn;
	int bad = 0;

	midranks2(v, nn, d);
	for (c = (1ul << n) - 1; c < end; c = next_comb(c)) {
		long r2 = 0;

		for (i = 0; i < nn; i++)
			if (c >> i & 1)
				r2 += d[i];
		hist[r2 - (long)(n * (n + 1))]++;
		tot++;
		if (!c)
			break;
	}
	while (checks--) {
		double x[10], y[10], lo = 0, up = 0, p;
		size_t nx = 0, ny = 0, k;
		unsigned long pick = 0;
		long u2;
		struct bt_stats_mwu r;

		while (nx < n) {   /* a random split with n values on the x side */
			k = rnd() % nn;
			if (!(pick >> k & 1))
				pick |= 1ul << k, nx++;
		}
		for (nx = 0, i = 0; i < nn; i++) {
			if (pick >> i & 1)
				x[nx++] = v[i];
			else
				y[ny++] = v[i];
		}
		u2 = u2_pairs(x, n, y, m);
		for (k = 0; k < w; k++) {
			if ((long)k <= u2)
				lo += hist[k];
			if ((long)k >= u2)
				up += hist[k];
		}
		p = fmin(1, 2 * fmin(lo, up) / tot);
		r = mwu(x, n, y, m, BT_STATS_AUTO);
		if (!r.exact || 2 * r.u_base != u2 || !near(r.p, p, 1e-11)) {
			if (!bad)
				printf("#   n %zu m %zu: 2U %g want %ld, p %.17g want %.17g\n", n, m,
				       2 * r.u_base, u2, r.p, p);
			bad++;
		}
	}
	free(hist);
	return bad;
}

static void test_exact_brute(void)
{
	double v[20];
	size_t n, m, i;
	char what[80];

	for (n = 1; n <= 10; n++) {
		int bad = 0, badt = 0;

		for (m = 1; m <= 10; m++) {
			for (i = 0; i < n + m; i++)
				v[i] = (double)(rnd() % 1000000) / 7;
			bad += brute_check(v, n, m, 6);
			/* Ties: values from a few levels, how few varying with m. */
			for (i = 0; i < n + m; i++)
				v[i] = (double)(rnd() % (1 + m % 4 + n % 3));
			badt += brute_check(v, n, m, 6);
		}
		snprintf(what, sizeof what, "exact p = brute force, n = %zu, m = 1..10, no ties", n);
		ok(!bad, what);
		snprintf(what, sizeof what, "exact p = brute force, n = %zu, m = 1..10, with ties", n);
		ok(!badt, what);
	}
}

/* The normal approximation from its formulas, computed here by counting. */
static double normal_p(const double *x, size_t n, const double *y, size_t m, double *z)
{
	size_t nn = n + m, i, j;
	double v[240], t3 = 0, nm = (double)n * m, sigma, d;

	for (i = 0; i < n; i++)
		v[i] = x[i];
	for (i = 0; i < m; i++)
		v[n + i] = y[i];
	for (i = 0; i < nn; i++) {   /* a group of size t adds t (t^2 - 1) */
		double t = 0;

		for (j = 0; j < nn; j++)
			t += v[j] == v[i];
		t3 += t * t - 1;
	}
	sigma = sqrt(nm / 12 * (nn + 1 - t3 / ((double)nn * (nn - 1))));
	d = (double)u2_pairs(y, m, x, n) / 2 - nm / 2;
	*z = d > 0 ? (d - 0.5) / sigma : d < 0 ? (d + 0.5) / sigma : 0;
	return fmin(1, erfc(fabs(*z) / sqrt(2)));
}

static void test_normal(void)
{
	/* Reference values from scipy 1.10.1 (Debian bookworm python3-scipy),
	 * mannwhitneyu(a, b, method="asymptotic", use_continuity=True), and
	 * R 4.2.2 wilcox.test(a, b, exact=FALSE, correct=TRUE), which agree. */
	double a[] = { 1, 2, 2, 3, 3, 3, 4, 5, 7, 7 }, b[] = { 2, 3, 4, 4, 4, 6, 6, 8, 9, 9, 9, 10 };
	double e[] = { 1, 1, 2, 2, 3, 3 }, f[] = { 1, 2, 3, 1, 2, 3, 4 };
	double c0[] = { 0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 5, 5, 5, 5, 8 };
	double d0[] = { 0, 1, 1, 1, 2, 3, 3, 3, 4, 5, 5, 6, 6, 6, 9, 9, 9 };
	double c[45], d[36];
	struct bt_stats_mwu r;
	size_t i;

	r = mwu(a, LEN(a), b, LEN(b), BT_STATS_NORMAL);
	ok(r.u_base == 28 && !r.exact, "ties, normal: U = 28");
	is_num(r.p, 0.03618278479017026, 1e-12, "ties, normal: p as scipy and R");
	r = mwu(e, LEN(e), f, LEN(f), BT_STATS_NORMAL);
	ok(r.u_base == 18, "ties, normal: U = 18");
	is_num(r.p, 0.7092694932930665, 1e-12, "ties near the mean, normal: p as scipy and R");
	for (i = 0; i < 45; i++)
		c[i] = c0[i % 15];
	for (i = 0; i < 34; i++)
		d[i] = d0[i % 17];
	d[34] = 1;
	d[35] = 2;
	r = mwu(c, 45, d, 36, BT_STATS_AUTO);
	ok(r.u_base == 567 && !r.exact, "45 + 36 with ties: auto is normal, U = 567");
	is_num(r.p, 0.01972408036954626, 1e-12, "45 + 36 with ties: p as scipy and R");
	ok(r.z > 0, "45 + 36: head larger, z > 0");
}

/* Random tied and untied samples against the formulas. */
static void test_normal_formula(void)
{
	double x[120], y[120], z;
	struct bt_stats_mwu r;
	size_t i, k;
	int bad = 0;

	for (k = 0; k < 200; k++) {
		size_t n = 1 + rnd() % 120, m = 1 + rnd() % 120, lv = 1 + rnd() % 12;
		double p;

		for (i = 0; i < n; i++)
			x[i] = k % 3 ? (double)(rnd() % lv) : unif();
		for (i = 0; i < m; i++)
			y[i] = k % 3 ? (double)(rnd() % lv) + (k % 5 == 1) : unif();
		p = normal_p(x, n, y, m, &z);
		r = mwu(x, n, y, m, BT_STATS_NORMAL);
		if (!near(r.p, p, 1e-11) || !near(r.z, z, 1e-11) || r.exact) {
			if (!bad)
				printf("#   n %zu m %zu: p %.17g want %.17g, z %.17g want %.17g\n", n, m,
				       r.p, p, r.z, z);
			bad++;
		}
	}
	ok(!bad, "normal p and z = formulas, 200 random samples with and without ties");
}

static void test_exact_large(void)
{
	double x[50], y[50];
	struct bt_stats_mwu r;
	size_t i;

	/* Exact past the brute force, no ties, against R 4.2.2:
	 * 2 * pwilcox(300, 30, 30) = 0.026331960302579442,
	 * 2 * pwilcox(624, 25, 35, lower.tail = FALSE) = 0.0044749872850209709,
	 * 2 * pwilcox(49, 50, 50) = 2.1641995255736967e-23.
	 * y holds 0, 1, ...; an x just above y = a - 1 beats a of them. */
	for (i = 0; i < 50; i++)
		y[i] = (double)i;
	for (i = 0; i < 30; i++)
		x[i] = 9.5 + 0.01 * i;   /* each beats 10: U = 300 */
	r = mwu(x, 30, y, 30, BT_STATS_EXACT);
	ok(r.exact && r.u_base == 300, "30 + 30: exact on request, U = 300");
	is_num(r.p, 0.026331960302579442, 1e-12, "30 + 30: exact p as R");
	for (i = 0; i < 25; i++)
		x[i] = 24.5 + 0.01 * i;  /* each beats 25: U = 625 */
	r = mwu(x, 25, y, 35, BT_STATS_EXACT);
	ok(r.exact && r.u_base == 625, "25 + 35: U = 625 above the mean");
	is_num(r.p, 0.0044749872850209709, 1e-12, "25 + 35: exact upper tail as R");
	r = mwu(y, 35, x, 25, BT_STATS_EXACT);
	is_num(r.p, 0.0044749872850209709, 1e-12, "35 + 25: the same p from the other side");
	for (i = 0; i < 49; i++)
		x[i] = -1.0 - i;
	x[49] = 48.5;                    /* beats 49 */
	r = mwu(x, 50, y, 50, BT_STATS_EXACT);
	ok(r.exact && r.u_base == 49, "50 + 50: exact at the cap, U = 49");
	is_num(r.p, 2.1641995255736967e-23, 1e-10, "50 + 50: tiny exact p as R");
	for (i = 0; i < 30; i++) {
		x[i] = gauss();
		y[i] = gauss() + 0.6;
	}
	r = mwu(x, 30, y, 30, BT_STATS_AUTO);
	ok(!r.exact, "30 + 30: auto is normal past BT_STATS_EXACT_MAX");
	r = mwu(x, 20, y, 20, BT_STATS_AUTO);
	ok(r.exact, "20 + 20: auto is exact");
}

/* The n m differences y_j - x_i, sorted. */
static double *diffs(const double *x, size_t n, const double *y, size_t m)
{
	double *dd = malloc(n * m * sizeof *dd);
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			dd[i * m + j] = y[j] - x[i];
	qsort(dd, n * m, sizeof *dd, cmp);
	return dd;
}

/* The exact interval rank by enumeration: the smallest q >= 1 with
 * P(U <= q) >= alpha / 2, U over all splits of n + m distinct values. */
static size_t brute_rank(size_t n, size_t m, double alpha, double *level)
{
	size_t nn = n + m, i, q;
	double *hist = calloc(n * m + 1, sizeof *hist), tot = 0, cum = 0, prev = 0;
	unsigned long c, end = 1ul << nn;

	for (c = (1ul << n) - 1; c < end; c = next_comb(c)) {
		size_t r = 0;

		for (i = 0; i < nn; i++)
			if (c >> i & 1)
				r += i + 1;
		hist[r - n * (n + 1) / 2]++;
		tot++;
	}
	for (q = 0; q <= n * m; q++) {
		prev = cum;
		cum += hist[q];
		if (cum / tot >= alpha / 2 * (1 - 1e-12))
			break;
	}
	if (q == 0)
		prev = cum, q = 1;
	*level = 1 - 2 * prev / tot;
	free(hist);
	return q;
}

static const double lv[] = { 0.90, 0.95, 0.99 };

/* Cliff's delta and HL, small samples with the exact interval ranks. */
static void test_effects_small(void)
{
	double x[10], y[10];
	size_t n, m, i, j, k;
	int bad = 0, badci = 0;

	for (k = 0; k < 300; k++) {
		size_t gt = 0, lt = 0, q;
		double *dd, est, lvl;
		struct bt_stats_mwu r;
		struct bt_stats_shift s;

		n = 1 + rnd() % 10;
		m = 1 + rnd() % 10;
		for (i = 0; i < n; i++)
			x[i] = k % 2 ? (double)(rnd() % 5) : gauss();
		for (i = 0; i < m; i++)
			y[i] = k % 2 ? (double)(rnd() % 5) : gauss() + 0.5;
		for (i = 0; i < n; i++)
			for (j = 0; j < m; j++) {
				gt += y[j] > x[i];
				lt += y[j] < x[i];
			}
		r = mwu(x, n, y, m, BT_STATS_AUTO);
		if (!near(r.delta, ((double)gt - lt) / (n * m), 1e-14) && !(r.delta == 0 && gt == lt))
			bad++;
		dd = diffs(x, n, y, m);
		est = (n * m) % 2 ? dd[n * m / 2] : dd[n * m / 2 - 1] / 2 + dd[n * m / 2] / 2;
		s = hl(x, n, y, m, lv[k % 3], BT_STATS_AUTO);
		q = brute_rank(n, m, 1 - lv[k % 3], &lvl);
		if (s.est != est)
			bad++;
		if (!s.exact || s.lo != dd[q - 1] || s.hi != dd[n * m - q] || !near(s.level, lvl, 1e-12)) {
			if (!badci)
				printf("#   n %zu m %zu level %g: [%g, %g] (%g) want [%g, %g] (%g)\n", n, m,
				       lv[k % 3], s.lo, s.hi, s.level, dd[q - 1], dd[n * m - q], lvl);
			badci++;
		}
		free(dd);
	}
	ok(!bad, "Cliff's delta and HL estimate = brute force, 300 small samples");
	ok(!badci, "HL interval = order statistics at the enumerated rank, 300 small samples");
}

/* Large samples: the selection against a full sort, normal ranks. */
static void test_effects_large(void)
{
	double x[300], y[300];
	size_t n, m, i, k;
	int badn = 0;
	/* R 4.2.2: -qnorm(0.05), -qnorm(0.025), -qnorm(0.005) */
	const double zq[] = { 1.6448536269514726, 1.9599639845400538, 2.5758293035488999 };

	for (k = 0; k < 24; k++) {
		double *dd, est, sigma, nm;
		size_t q;
		struct bt_stats_shift s;

		n = k < 3 ? 41 : 1 + rnd() % 300;   /* first m = 1, 2, 3: normal anyway */
		m = k < 3 ? 1 + k : 1 + rnd() % 300;
		for (i = 0; i < n; i++)
			x[i] = k % 2 ? (double)(rnd() % 7) : gauss() * 3;
		for (i = 0; i < m; i++)
			y[i] = k % 2 ? (double)(rnd() % 9) : gauss();
		dd = diffs(x, n, y, m);
		nm = (double)n * m;
		est = (n * m) % 2 ? dd[n * m / 2] : dd[n * m / 2 - 1] / 2 + dd[n * m / 2] / 2;
		s = hl(x, n, y, m, lv[k % 3], BT_STATS_NORMAL);
		sigma = sqrt(nm * (n + m + 1) / 12);
		q = (size_t)fmax(1, ceil(nm / 2 - 0.5 - zq[k % 3] * sigma));
		if (s.exact || s.est != est || s.lo != dd[q - 1] || s.hi != dd[n * m - q]) {
			if (!badn)
				printf("#   n %zu m %zu: %g [%g, %g] want %g [%g, %g]\n", n, m, s.est, s.lo,
				       s.hi, est, dd[q - 1], dd[n * m - q]);
			badn++;
		}
		free(dd);
	}
	ok(!badn, "HL by selection = full sort, normal interval ranks, 24 samples up to 300 + 300");
}

/* Coverage of the interval and the size of the test in simulation. */
static void test_simulation(void)
{
	double x[40], y[40], shift = 0.7;
	size_t rep, i, cover = 0, coverl = 0, reject = 0, reps = 2000;
	struct bt_stats_shift s;
	double lvl = 0;

	for (rep = 0; rep < reps; rep++) {
		for (i = 0; i < 8; i++) {
			x[i] = gauss();
			y[i] = gauss() + shift;
		}
		s = hl(x, 8, y, 8, 0.95, BT_STATS_AUTO);
		cover += s.lo <= shift && shift <= s.hi;
		lvl = s.level;
		for (i = 0; i < 8; i++)
			y[i] -= shift;
		reject += mwu(x, 8, y, 8, BT_STATS_AUTO).p <= 0.05;
	}
	/* 8 + 8: achieved level 0.95011655011655016 (R: 1 - 2 pwilcox(13, 8, 8)),
	 * so the count is binomial(2000, 0.9501): sd 9.7. */
	is_num(lvl, 0.95011655011655016, 1e-12, "8 + 8: achieved level as R");
	if (!ok(fabs((double)cover - reps * lvl) < 4 * sqrt(reps * lvl * (1 - lvl)),
		"8 + 8: exact interval covers the shift at its level (2000 runs)"))
		printf("#   covered %zu of %zu\n", cover, reps);
	/* P(p <= 0.05) under the null is 2 P(U <= 13) = 0.0499 at most. */
	if (!ok(reject <= reps * 0.0499 + 4 * sqrt(reps * 0.05 * 0.95) && reject > 0.02 * reps,
		"8 + 8: the exact test rejects a true null at most at its level"))
		printf("#   rejected %zu of %zu\n", reject, reps);

	for (rep = 0; rep < 1000; rep++) {
		for (i = 0; i < 40; i++) {
			x[i] = gauss();
			y[i] = gauss() + shift;
		}
		s = hl(x, 40, y, 40, 0.90, BT_STATS_AUTO);
		coverl += s.lo <= shift && shift <= s.hi;
	}
	if (!ok(s.exact == 0 && fabs((double)coverl - 1000 * s.level) < 4 * sqrt(1000 * 0.1 * 0.9),
		"40 + 40: normal interval covers the shift at its level (1000 runs)"))
		printf("#   covered %zu of 1000, level %g\n", coverl, s.level);
	ok(s.level >= 0.9 && s.level < 0.91, "40 + 40: normal achieved level just above 0.90");
}

static void test_edges(void)
{
	double one[] = { 1 }, two[] = { 2 }, same[] = { 5, 5, 5, 5 }, id[] = { 1, 2, 3, 4, 5 };
	struct bt_stats_mwu r;
	struct bt_stats_shift s;

	r = mwu(one, 1, two, 1, BT_STATS_AUTO);
	ok(r.u_base == 0 && r.u_head == 1 && r.p == 1 && r.exact && r.delta == 1, "1 + 1: p = 1");
	s = hl(one, 1, two, 1, 0.95, BT_STATS_AUTO);
	ok(s.est == 1 && s.lo == 1 && s.hi == 1 && s.level == 0, "1 + 1: shift 1, level 0");
	r = mwu(one, 1, one, 1, BT_STATS_AUTO);
	ok(r.u_base == 0.5 && r.p == 1 && r.delta == 0 && r.ties == 2, "1 + 1 tied");
	r = mwu(same, 3, same, 4, BT_STATS_AUTO);
	ok(r.p == 1 && r.z == 0 && r.u_base == 6 && r.ties == 7, "all tied, exact: p = 1");
	r = mwu(same, 3, same, 4, BT_STATS_NORMAL);
	ok(r.p == 1 && r.z == 0 && !r.exact, "all tied, normal: p = 1, z = 0");
	s = hl(same, 3, same, 4, 0.95, BT_STATS_AUTO);
	ok(s.est == 0 && s.lo == 0 && s.hi == 0, "all tied: shift 0");
	r = mwu(id, 5, id, 5, BT_STATS_AUTO);
	ok(r.u_base == 12.5 && r.p == 1 && r.delta == 0, "identical samples: p = 1, delta 0");
	s = hl(id, 5, id, 5, 0.95, BT_STATS_AUTO);
	ok(s.est == 0 && s.lo < 0 && s.hi > 0, "identical samples: interval around 0");
}

static void test_large(void)
{
	double far[50], near50[50], big1[200], big2[200], t0;
	struct bt_stats_mwu r;
	struct bt_stats_shift s;
	size_t i;

	/* Fully separated 50 + 50: p = 2 / C(100, 50) (R: 1.9823306042836899e-29). */
	for (i = 0; i < 50; i++) {
		far[i] = 100 + i;
		near50[i] = i;
	}
	r = mwu(near50, 50, far, 50, BT_STATS_EXACT);
	ok(r.exact && r.u_base == 0 && r.delta == 1, "50 + 50 separated: exact on request");
	is_num(r.p, 1.9823306042836899e-29, 1e-10, "50 + 50 separated: tiny exact p keeps precision");
	r = mwu(near50, 50, far, 50, BT_STATS_AUTO);
	ok(!r.exact && r.p < 1e-15 && r.p > 0, "50 + 50 separated: normal p tiny but positive");

	for (i = 0; i < 200; i++) {
		big1[i] = gauss();
		big2[i] = gauss();
	}
	t0 = cpu_now();
	r = mwu(big1, 200, big2, 200, BT_STATS_EXACT);
	s = hl(big1, 200, big2, 200, 0.95, BT_STATS_EXACT);
	ok(!r.exact && !s.exact, "200 + 200: exact on request falls back past the cap");
	if (!ok(r.p > 0.01 && s.lo < 0 && s.hi > 0, "200 + 200, same distribution: no rejection"))
		printf("#   p %g, [%g, %g]\n", r.p, s.lo, s.hi);
	for (i = 0; i < 200; i++)
		big2[i] += 0.5;
	r = mwu(big1, 200, big2, 200, BT_STATS_AUTO);
	s = hl(big1, 200, big2, 200, 0.95, BT_STATS_AUTO);
	if (!ok(r.p < 1e-4 && r.z > 0 && s.lo > 0.2 && s.hi < 0.8 && r.delta > 0,
		"200 + 200 shifted by 0.5: p < 1e-4, z > 0, interval around 0.5"))
		printf("#   p %g z %g delta %g, [%g, %g]\n", r.p, r.z, r.delta, s.lo, s.hi);
	printf("# 200 + 200: %.3f s CPU\n", cpu_now() - t0);   /* speed is measured, not asserted */
}

static void test_errors(void)
{
	double one[] = { 1 }, two[] = { 2 }, bad[] = { 1, NAN }, inf[] = { INFINITY, 1 };
	struct bt_stats_mwu r;
	struct bt_stats_shift s;
	struct bt_err err = BT_ERR_INIT;

	ok(bt_stats_mwu(one, 0, two, 1, BT_STATS_AUTO, &r, &err) == BT_EUSAGE && isnan(r.p) &&
	   err.msg[0], "n = 0: usage error");
	bt_err_clear(&err);
	ok(bt_stats_hl(one, 1, two, 0, 0.95, BT_STATS_AUTO, &s, &err) == BT_EUSAGE && isnan(s.est),
	   "m = 0: usage error for the shift too");
	bt_err_clear(&err);
	ok(bt_stats_mwu(bad, 2, two, 1, BT_STATS_AUTO, &r, &err) == BT_EFORMAT &&
	   strstr(err.msg, "'base'") && strstr(err.msg, "index 1"), "a NaN is refused with its place");
	bt_err_clear(&err);
	ok(bt_stats_hl(two, 1, inf, 2, 0.95, BT_STATS_AUTO, &s, &err) == BT_EFORMAT &&
	   strstr(err.msg, "'head'"), "an infinity is refused");
	bt_err_clear(&err);
	ok(bt_stats_hl(one, 1, two, 1, 1.0, BT_STATS_AUTO, &s, &err) == BT_EUSAGE,
	   "level 1 is refused");
}

/* compare's load: 5000 metrics of 10 base and 10 head runs each. */
static void test_speed(void)
{
	double x[10], y[10], t0, t;
	size_t k, i;
	struct bt_stats_summary sx, sy;
	struct bt_stats_mwu r;
	struct bt_stats_shift s;
	double sink = 0;

	t0 = cpu_now();
	for (k = 0; k < 5000; k++) {
		for (i = 0; i < 10; i++) {
			/* a third of the metrics are counts, with ties */
			x[i] = k % 3 ? 100 + gauss() : (double)(rnd() % 6);
			y[i] = k % 3 ? 100.5 + gauss() : (double)(rnd() % 6);
		}
		bt_stats_summarize(x, 10, &sx);
		bt_stats_summarize(y, 10, &sy);
		r = mwu(x, 10, y, 10, BT_STATS_AUTO);
		s = hl(x, 10, y, 10, 0.95, BT_STATS_AUTO);
		sink += sx.median + sy.median + r.p + s.lo;
	}
	t = cpu_now() - t0;
	printf("# 5000 metrics x (10 + 10): %.3f s CPU\n", t);   /* figures belong in BENCHMARKS.md */
	ok(isfinite(sink), "5000 metrics x (10 + 10): every result finite");
}

int main(void)
{
	test_summary();
	test_textbook();
	test_rank_boundary();
	test_exact_r();
	test_exact_brute();
	test_normal();
	test_normal_formula();
	test_exact_large();
	test_effects_small();
	test_effects_large();
	test_simulation();
	test_edges();
	test_large();
	test_errors();
	test_speed();
	return done_testing();
}
