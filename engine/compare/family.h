/*
 * One family of tests over every gated measure of a compare: the
 * step-down max-T permutation procedure of Westfall and Young (1993, "Resampling-Based Multiple Testing", algorithm 2.8), which
 * controls the family-wise error rate: under the null (the same build on
 * both sides, so run labels are exchangeable) the chance that any test of
 * the family reads significant at alpha is at most alpha, however many
 * tests there are and however they correlate (method times, their callers
 * and the totals that contain them move together).
 *
 * Each test's statistic is a regularised Welch t,
 *   T = (mean head - mean base) / sqrt(s_b^2 / n + s_h^2 / m + s0^2),
 * where s0 (the test's own, label-free: from its threshold) keeps a
 * measure whose runs happen to agree exactly from reading as infinitely
 * significant (Tusher, Tibshirani and Chu 2001, SAM's fudge factor).
 * Because T keeps the size of a move against the noise, a clear change
 * stands out of the permutation distribution of the maximum even with
 * 5 + 5 runs, where a rank statistic is saturated by chance orderings.
 * The gate asks one-sided questions (did anything get worse; did anything
 * get better), each its own family: exit 3 has the family-wise error
 * alpha.
 *
 * Relabelings: every split of the runs when there are at most
 * BT_FAMILY_EXACT_MAX of them (C(10, 5) = 252), else BT_FAMILY_RANDOM
 * random splits (a fixed seed: the same inputs give the same p) plus the
 * observed one, p = (1 + count) / (1 + B) (Phipson and Smyth 2010).
 */
#ifndef BT_FAMILY_H
#define BT_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#define BT_FAMILY_EXACT_MAX 20000
#define BT_FAMILY_RANDOM 9999

struct bt_family_info {
	size_t relabelings;   /* counted, the observed one included */
	int exact;            /* 1: every split; 0: random splits */
	double min_p;         /* the smallest adjusted p these runs can give (of the last call) */
};

/*
 * nt tests over nruns runs: v[j * nruns + r] is test j's value in run r
 * (finite), head[r] 1 for a head run. s0[j] > 0. dir NULL: two-sided,
 * the maximum of |T|; else one-sided, the maximum of dir[j] T (dir[j] = 1
 * when a higher head is the direction tested, -1 when a lower one is).
 * Fills t[j] (observed statistic, head minus base) and p[j] (adjusted p).
 * Needs at least one run a side; with nt = 0 only info is filled.
 */
void bt_family_maxt(size_t nt, size_t nruns, const unsigned char *head, const double *v,
		    const double *s0, const double *dir, double *t, double *p,
		    struct bt_family_info *info);

/* Both one-sided families at once, from one pass over the relabelings:
 * p_dir[j] in the direction dir[j], p_other[j] in the other; as two calls
 * of bt_family_maxt with dir and -dir, for half the work. */
void bt_family_maxt2(size_t nt, size_t nruns, const unsigned char *head, const double *v,
		     const double *s0, const double *dir, double *t, double *p_dir, double *p_other,
		     struct bt_family_info *info);

/* Tests given by their values other than 0: test j's are val[at[j]] up
 * to val[at[j + 1] - 1], in runs run[...] (each run once), every other run
 * of the test holds 0. A test's relabeling then costs its own values, so
 * a family of many tests each in a few runs of many takes time and memory
 * in proportion to the values, not to tests x runs. */
struct bt_family_tests {
	size_t nt, nruns;
	const size_t *at;      /* nt + 1 */
	const uint32_t *run;
	const double *val;
};

/* bt_family_maxt2 over tests given sparse: the same t and p as over the
 * dense matrix they stand for. */
void bt_family_maxt2_sparse(const struct bt_family_tests *x, const unsigned char *head,
			    const double *s0, const double *dir, double *t, double *p_dir,
			    double *p_other, struct bt_family_info *info);

/*
 * Holm's step-down adjustment (Holm 1979) of n p-values into adj (may be
 * p): the k-th smallest becomes max over j <= k of min(1, (n - j + 1)
 * p_(j)). It controls the family-wise error rate under any dependence
 * between the tests, so it needs no joint values of the runs: compare
 * uses it for fleet summaries, which hold each measure's distribution
 * alone (compare.h). Less powerful than max-T when the tests move
 * together. NaN p-values are left NaN and not counted in n.
 */
void bt_family_holm(size_t n, const double *p, double *adj);

/* C(n, k) as a double (exact below 2^53). */
double bt_family_choose(size_t n, size_t k);

/* The smallest one-sided p that n runs a side can give: one relabeling
 * of the C(2n, n), the observed one, as extreme. */
double bt_family_min_p(size_t n);

#endif
