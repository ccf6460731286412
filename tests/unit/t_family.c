/*
 * Unit tests of compare's family of tests (engine/compare/family.h): the
 * step-down max-T adjusted p-values against a brute-force enumeration
 * written here from the definition (Westfall and Young 1993, algorithm
 * 2.8), the smallest p of each run count, the random-relabeling branch
 * against the exact one, and the family-wise error rate of null data by
 * simulation, with correlated tests as compare's metrics are.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/compare/family.h"
#include "tests/tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static double unit(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static double gauss(void)
{
	double u = 1 - unit(), v = unit();

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* The statistic from its definition, for runs in head h (0/1 per run). */
static double stat(const double *x, size_t nr, const unsigned char *h, double s0)
{
	double sh = 0, sb = 0, vh = 0, vb = 0, mh, mb;
	size_t r, nh = 0, nb = 0;

	for (r = 0; r < nr; r++)
		h[r] ? (sh += x[r], nh++) : (sb += x[r], nb++);
	mh = sh / (double)nh, mb = sb / (double)nb;
	for (r = 0; r < nr; r++)
		h[r] ? (vh += (x[r] - mh) * (x[r] - mh)) : (vb += (x[r] - mb) * (x[r] - mb));
	vh = nh > 1 ? vh / (double)(nh - 1) : 0;
	vb = nb > 1 ? vb / (double)(nb - 1) : 0;
	return (mh - mb) / sqrt(vh / (double)nh + vb / (double)nb + s0 * s0);
}

/* Brute force over every split: p[j] = max over tests ranked at or above
 * j (by observed dir*T) of the share of splits whose maximum over the tests
 * ranked at or below reaches it. */
static void brute(size_t nt, size_t nr, const unsigned char *head, const double *v, const double *s0,
		  const double *dir, double *p)
{
	unsigned char h[32];
	double obs[16], t;
	size_t order[16], i, j, k, nh = 0, total = 0, count[16] = { 0 };
	uint32_t mask;

	for (i = 0; i < nr; i++)
		nh += head[i];
	for (j = 0; j < nt; j++) {
		obs[j] = stat(v + j * nr, nr, head, s0[j]);
		obs[j] = dir ? dir[j] * obs[j] : fabs(obs[j]);
		order[j] = j;
	}
	for (i = 0; i < nt; i++)   /* by obs, largest first */
		for (j = i + 1; j < nt; j++)
			if (obs[order[j]] > obs[order[i]])
				k = order[i], order[i] = order[j], order[j] = k;
	for (mask = 0; mask < (1u << nr); mask++) {
		size_t bits = 0;
		for (i = 0; i < nr; i++)
			bits += h[i] = (unsigned char)((mask >> i) & 1);
		if (bits != nh)
			continue;
		total++;
		for (k = 0; k < nt; k++) {
			double q = -HUGE_VAL;
			for (i = k; i < nt; i++) {
				t = stat(v + order[i] * nr, nr, h, s0[order[i]]);
				q = fmax(q, dir ? dir[order[i]] * t : fabs(t));
			}
			count[k] += q >= obs[order[k]] - 1e-9 * fabs(obs[order[k]]);
		}
	}
	for (k = 0; k < nt; k++) {
		double pk = (double)count[k] / (double)total;
		p[order[k]] = k ? fmax(pk, p[order[k - 1]]) : pk;
	}
}

static void test_brute(void)
{
	static const size_t sizes[][2] = { { 3, 3 }, { 4, 4 }, { 5, 5 }, { 3, 6 }, { 2, 5 } };
	unsigned char head[16];
	double v[6 * 16], s0[6], dir[6], t[6], p[6], q[6];
	struct bt_family_info info;
	size_t c, j, r, nt = 6;
	int sided, bad = 0, cases = 0;

	for (c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
		size_t nb = sizes[c][0], nh = sizes[c][1], nr = nb + nh;
		for (sided = 0; sided < 2; sided++) {
			for (r = 0; r < nr; r++)
				head[r] = r >= nb;
			for (j = 0; j < nt; j++) {
				double shift = j == 0 ? 3 : j == 1 ? -2 : 0;
				for (r = 0; r < nr; r++)
					v[j * nr + r] = gauss() + (head[r] ? shift : 0) + (j == 4 ? v[3 * nr + r] : 0);
				s0[j] = 0.1 + 0.1 * (double)j;
				dir[j] = j % 2 ? -1 : 1;
			}
			bt_family_maxt(nt, nr, head, v, s0, sided ? dir : NULL, t, p, &info);
			brute(nt, nr, head, v, s0, sided ? dir : NULL, q);
			for (j = 0; j < nt; j++)
				bad += fabs(p[j] - q[j]) > 1e-12;
			cases++;
		}
	}
	is_int(bad, 0, "adjusted p equals brute force: 5 run counts x one- and two-sided x 6 tests");
	(void)cases;
}

static void test_min_p(void)
{
	unsigned char head[10] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	double v[10], s0 = 0.01, dir = 1, t, p;
	struct bt_family_info info;
	size_t r;

	for (r = 0; r < 10; r++)
		v[r] = (double)r;   /* the head's values above every base value */
	bt_family_maxt(1, 10, head, v, &s0, &dir, &t, &p, &info);
	ok(info.exact && info.relabelings == 252, "5 + 5: every one of the 252 splits");
	is_int((long long)llround(p * 252), 1, "one-sided, head above base everywhere: p = 1/252");
	ok(fabs(info.min_p - 1.0 / 252) < 1e-15, "one-sided min_p = 1/252");
	bt_family_maxt(1, 10, head, v, &s0, NULL, &t, &p, &info);
	is_int((long long)llround(p * 252), 2, "two-sided: p = 2/252 (the mirror split too)");
	ok(fabs(info.min_p - 2.0 / 252) < 1e-15, "two-sided min_p = 2/252");
	bt_family_maxt(1, 10, head, v, &s0, &dir, &t, &p, &info);
	dir = -1;
	bt_family_maxt(1, 10, head, v, &s0, &dir, &t, &p, &info);
	ok(p > 0.99, "one-sided the other way: p = 1");
	is_int((long long)bt_family_choose(20, 10), 184756, "C(20, 10)");
}

/* Both directions in one pass equal one call each, with dir and -dir. */
static void test_both(void)
{
	unsigned char head[10] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	double v[8 * 10], s0[8], dir[8], neg[8], t[8], t2[8], p[8], q[8], pd[8], po[8];
	struct bt_family_info info;
	size_t j, r;
	int bad = 0;

	for (j = 0; j < 8; j++) {
		for (r = 0; r < 10; r++)
			v[j * 10 + r] = gauss() + (head[r] ? (j == 0 ? 2.0 : j == 1 ? -2.0 : 0) : 0);
		s0[j] = 0.2, dir[j] = j % 3 ? 1 : -1, neg[j] = -dir[j];
	}
	bt_family_maxt2(8, 10, head, v, s0, dir, t2, pd, po, &info);
	bt_family_maxt(8, 10, head, v, s0, dir, t, p, &info);
	bt_family_maxt(8, 10, head, v, s0, neg, t, q, &info);
	for (j = 0; j < 8; j++)
		bad += pd[j] != p[j] || po[j] != q[j] || t2[j] != t[j];
	is_int(bad, 0, "bt_family_maxt2: the two directions of one pass equal two calls");
}

/* 10 + 10 runs take random splits; their p is near the exact one. */
static void test_random(void)
{
	unsigned char head[20];
	double v[40], s0[2] = { 0.2, 0.2 }, t[2], p[2], p2[2], q[2];
	struct bt_family_info info;
	size_t r;

	for (r = 0; r < 20; r++) {
		head[r] = r >= 10;
		v[r] = gauss() + (head[r] ? 0.9 : 0);
		v[20 + r] = gauss();
	}
	bt_family_maxt(2, 20, head, v, s0, NULL, t, p, &info);
	ok(!info.exact && info.relabelings == BT_FAMILY_RANDOM + 1, "10 + 10: random splits");
	bt_family_maxt(2, 20, head, v, s0, NULL, t, p2, &info);
	ok(p[0] == p2[0] && p[1] == p2[1], "random splits: the same inputs give the same p");
	brute(2, 20, head, v, s0, NULL, q);
	/* Monte Carlo: p within 4 sigma of the exact value */
	ok(fabs(p[0] - q[0]) <= 4 * sqrt(q[0] * (1 - q[0]) / BT_FAMILY_RANDOM) + 1e-3 &&
	   fabs(p[1] - q[1]) <= 4 * sqrt(q[1] * (1 - q[1]) / BT_FAMILY_RANDOM) + 1e-3,
	   "random splits: p near the exact p of all 184756");
	printf("# random %.4f %.4f, exact %.4f %.4f\n", p[0], p[1], q[0], q[1]);
}

/* Null data, 20 tests sharing a factor (as a method and its callers do):
 * at most alpha of the datasets have any p <= alpha. */
static void test_fwer(void)
{
	enum { SETS = 2000, NT = 20, NR = 10 };
	unsigned char head[NR];
	double v[NT * NR], s0[NT], dir[NT], t[NT], p[NT], common[NR];
	struct bt_family_info info;
	int s, any05 = 0, any01 = 0;
	size_t j, r;

	for (r = 0; r < NR; r++)
		head[r] = r >= NR / 2;
	for (j = 0; j < NT; j++)
		s0[j] = 0.05, dir[j] = 1;
	for (s = 0; s < SETS; s++) {
		double pmin = 1;
		for (r = 0; r < NR; r++)
			common[r] = gauss();
		for (j = 0; j < NT; j++)
			for (r = 0; r < NR; r++)   /* skewed too: compare's values are */
				v[j * NR + r] = exp(0.5 * gauss()) + (j < 10 ? common[r] : 0);
		bt_family_maxt(NT, NR, head, v, s0, dir, t, p, &info);
		for (j = 0; j < NT; j++)
			pmin = fmin(pmin, p[j]);
		any05 += pmin <= 0.05;
		any01 += pmin <= 0.01;
	}
	printf("# null datasets with a p <= 0.05: %d of %d; <= 0.01: %d\n", any05, SETS, any01);
	/* binomial: 3 sigma above alpha */
	ok(any05 <= SETS * 0.05 + 3 * sqrt(SETS * 0.05 * 0.95), "family-wise error at 0.05 held (one-sided)");
	ok(any01 <= SETS * 0.01 + 3 * sqrt(SETS * 0.01 * 0.99), "family-wise error at 0.01 held");
	ok(any05 > SETS * 0.01, "... and not by never rejecting");
}

/* Holm against its definition on a worked example, NaN left out, and
 * its family-wise error on independent uniform p-values. */
static void test_holm(void)
{
	const double p[6] = { 0.01, 0.04, NAN, 0.03, 0.005, 0.2 };
	double adj[6], q[20], a[20];
	int s, i, any = 0;

	bt_family_holm(6, p, adj);
	/* sorted 0.005 0.01 0.03 0.04 0.2 over 5 tests: 0.025 0.04 0.09 0.09 0.2 */
	ok(fabs(adj[4] - 0.025) < 1e-12 && fabs(adj[0] - 0.04) < 1e-12 && fabs(adj[3] - 0.09) < 1e-12 &&
	   fabs(adj[1] - 0.09) < 1e-12 && fabs(adj[5] - 0.2) < 1e-12 && isnan(adj[2]),
	   "holm: the worked example (monotone, NaN left out)");
	for (s = 0; s < 2000; s++) {
		double m = 1;
		for (i = 0; i < 20; i++)
			q[i] = unit();
		bt_family_holm(20, q, a);
		for (i = 0; i < 20; i++)
			m = fmin(m, a[i]);
		any += m <= 0.05;
	}
	printf("# holm: null families with an adjusted p <= 0.05: %d of 2000\n", any);
	ok(any <= 2000 * 0.05 + 3 * sqrt(2000 * 0.05 * 0.95) && any > 2000 * 0.02,
	   "holm: family-wise error at 0.05 held, and not by never rejecting");
}

/* Tests given by their values other than 0 equal the dense matrix: some
 * in few runs (sparse), some in most (a dense row inside), exact and
 * random splits. */
static void test_sparse(void)
{
	enum { NT = 12, NR = 24 };
	unsigned char head[NR];
	double v[NT * NR], val[NT * NR], s0[NT], dir[NT], t[NT], t2[NT], pd[NT], po[NT], qd[NT], qo[NT];
	size_t at[NT + 1], j, r, n = 0, nr;
	uint32_t run[NT * NR];
	struct bt_family_info info;
	int bad = 0, tbad = 0;

	for (nr = 10; nr <= NR; nr += NR - 10) {
		for (r = 0; r < nr; r++)
			head[r] = r % 2;
		for (j = 0, n = 0; j < NT; j++) {
			at[j] = n;
			for (r = 0; r < nr; r++) {
				int has = j < 4 ? r == j % 3 : j < 8 ? r % 3 != 0 : 1;
				v[j * nr + r] = has ? gauss() + (head[r] && j == 9 ? 3 : 0) : 0;
				if (v[j * nr + r] != 0)
					run[n] = (uint32_t)r, val[n++] = v[j * nr + r];
			}
			s0[j] = 0.2, dir[j] = j % 2 ? -1 : 1;
		}
		at[NT] = n;
		bt_family_maxt2(NT, nr, head, v, s0, dir, t, pd, po, &info);
		bt_family_maxt2_sparse(&(struct bt_family_tests){ NT, nr, at, run, val }, head, s0, dir, t2,
				       qd, qo, &info);
		for (j = 0; j < NT; j++) {
			tbad += fabs(t[j] - t2[j]) > 1e-12 * (1 + fabs(t[j]));
			bad += fabs(pd[j] - qd[j]) > 1e-12 || fabs(po[j] - qo[j]) > 1e-12;
		}
	}
	is_int(tbad, 0, "sparse tests: the observed t of the dense matrix");
	is_int(bad, 0, "sparse tests: the adjusted p of the dense matrix (exact and random splits)");
}

int main(void)
{
	test_holm();
	test_brute();
	test_min_p();
	test_both();
	test_random();
	test_fwer();
	test_sparse();
	return done_testing();
}
