/*
 * The statistics of compare (DESIGN §9): per-side summaries, the two-sided
 * Mann-Whitney U test (exact conditional p-values for small samples, ties
 * included; normal approximation beyond) and two effect sizes, Cliff's delta
 * and the Hodges-Lehmann shift with a distribution-free confidence interval.
 *
 * Direction: every function takes the base sample x (n values) first and the
 * head sample y (m values) second; signed results read "head minus base", so
 * for a duration a positive delta, z or shift means head got slower.
 */
#ifndef BT_STATS_H
#define BT_STATS_H

#include <stddef.h>

#include "engine/base/err.h"

/* Auto: exact p-values and interval ranks when n + m <= this, normal beyond. */
#define BT_STATS_EXACT_MAX 40
/* Exact on request only up to this n + m (memory and time grow as n^2 m);
 * beyond it the normal approximation is used and exact reads 0. */
#define BT_STATS_EXACT_CAP 100

enum bt_stats_method {
	BT_STATS_AUTO,    /* exact when n + m <= BT_STATS_EXACT_MAX */
	BT_STATS_EXACT,   /* exact when n + m <= BT_STATS_EXACT_CAP */
	BT_STATS_NORMAL   /* always the normal approximation */
};

struct bt_stats_summary {
	size_t n;
	double median, min, max;   /* NaN when n is 0 */
};

/*
 * Median (the mean of the two middle values when n is even), min and max of
 * x[0..n-1]. x is not modified; a copy is sorted. With n = 0 the three values
 * are NaN. NaNs in x sort after every number, so they are counted, not
 * skipped; callers pass finite values.
 */
void bt_stats_summarize(const double *x, size_t n, struct bt_stats_summary *s);

struct bt_stats_mwu {
	size_t n, m;
	double u_base;   /* #(x_i > y_j) + #(x_i == y_j) / 2: R's W for wilcox.test(x, y) */
	double u_head;   /* #(y_j > x_i) + ties / 2 = n m - u_base: scipy's U1 for (y, x) */
	/*
	 * Two-sided p = min(1, 2 min(P(U <= u), P(U >= u))) with U the statistic
	 * under the null, u the observed u_base (the same for u_head). Exact: U
	 * has the permutation distribution of the pooled mid-ranks, conditional
	 * on the ties (as coin's wilcox_test(distribution = "exact")); without
	 * ties this equals R's wilcox.test(exact = TRUE) and scipy's
	 * mannwhitneyu(method = "exact"), both of which fall back to the normal
	 * approximation when there are ties. Normal: p = 2 (1 - Phi(|z|)).
	 */
	double p;
	int exact;       /* 1 when p comes from the exact distribution */
	/*
	 * Normal z for head, always filled: z = (u_head - n m / 2 - sign * 0.5) / sigma,
	 * with the continuity correction sign = sign(u_head - n m / 2) (0 when
	 * u_head = n m / 2) and the tie-corrected
	 * sigma^2 = n m / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))), N = n + m, t
	 * the size of each group of equal values. This is R's
	 * wilcox.test(correct = TRUE, exact = FALSE) and scipy's
	 * mannwhitneyu(method = "asymptotic", use_continuity = True). With
	 * sigma = 0 (all values equal) z is 0 and p is 1.
	 */
	double z;
	size_t ties;     /* values that equal another value in the pooled sample */
	/* Cliff's delta, P(y > x) - P(y < x) over all n m pairs, in [-1, 1]. */
	double delta;
};

/*
 * Mann-Whitney U test and Cliff's delta of base x[0..n-1] against head
 * y[0..m-1]; x and y are not modified. Time O((n + m) log(n + m)) plus,
 * when exact, at most O(min(n,m)^2 max(n,m) (n + m)) for the distribution
 * (about 10 us for 10 + 10, 100 us for 20 + 20, 3 ms for 50 + 50); memory
 * O(n + m) plus at most (min(n,m) + 1) (2 n m + 1) doubles when exact.
 * Errors: BT_EUSAGE when n or m is 0, BT_EFORMAT when a value is not
 * finite; r is then zeroed with p = NaN.
 */
int bt_stats_mwu(const double *x, size_t n, const double *y, size_t m,
		 enum bt_stats_method method, struct bt_stats_mwu *r, struct bt_err *err);

struct bt_stats_shift {
	double est;        /* Hodges-Lehmann: median of the n m differences y_j - x_i */
	double lo, hi;     /* confidence interval for the shift, lo <= est <= hi */
	double level;      /* the interval's coverage for continuous data: exact, or
			    * its normal value; at least the level asked unless the
			    * samples are too small to reach it */
	int exact;         /* 1 when the ranks came from the exact distribution */
};

/*
 * Hodges-Lehmann shift of head y over base x with a confidence interval at
 * level (e.g. 0.95): the k-th smallest and the k-th largest of the n m
 * differences y_j - x_i. Exact: k is the smallest q >= 1 with
 * P(U <= q) >= (1 - level) / 2 under the no-ties null distribution of U,
 * and level = 1 - 2 P(U <= k - 1); this is R's wilcox.test(y, x,
 * conf.int = TRUE, exact = TRUE), and tiny samples give [min, max] with the
 * smaller level. Normal: k = max(1, ceil(n m / 2 - 1/2 - z sqrt(n m (N + 1)
 * / 12))) with z = Phi^-1(1 - (1 - level) / 2), the continuity-corrected
 * analogue (Hollander and Wolfe's large-sample rank; R instead solves for
 * the interval with uniroot). Ties in the data do not change k. Exact or
 * normal is chosen by method as in bt_stats_mwu, at the same cost when
 * exact. The differences are never materialised: selection in the sorted
 * n x m matrix, O((n + m) log(n m)) expected time and O(n + m) memory. x
 * and y are not modified. Errors as bt_stats_mwu, and BT_EUSAGE when level
 * is not in (0, 1); s then holds NaNs.
 */
int bt_stats_hl(const double *x, size_t n, const double *y, size_t m, double level,
		enum bt_stats_method method, struct bt_stats_shift *s, struct bt_err *err);

#endif
