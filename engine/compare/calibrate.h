/*
 * Calibration of the gate (compare --calibrate RUNS...): RUNS are runs of
 * one build, so every comparison among them is an A/A comparison. The pool
 * is split at random into many disjoint base and head sets of N runs each,
 * every split is compared as a pull request would be (compare.h), and the
 * share that would fail the gate is the false-alarm rate these runs show.
 * Each gated metric's run-to-run noise then gives the smallest change the
 * gate can catch with N runs a side:
 *   max(threshold, T* sqrt(2 sd^2 / N + s0^2))
 * where T* is the (1 - alpha) quantile of the largest one-sided T of the
 * A/A splits (what a real change must beat, family.h) and s0 the
 * statistic's own floor. T* is measured at the calibration's N; for other
 * N the same T* is a slight underestimate when N is smaller (fewer
 * relabelings, a coarser maximum) and an overestimate when larger.
 */
#ifndef BT_CALIBRATE_H
#define BT_CALIBRATE_H

#include <stddef.h>

#include "engine/compare/compare.h"

#define BT_CAL_NS 4   /* run counts the smallest detectable change is given for */
extern const size_t bt_cal_n[BT_CAL_NS];

struct bt_cal_metric {
	const char *name;           /* the runs' copy */
	char *label;                /* owned */
	enum bt_unit unit;
	double median, sd;          /* over the whole pool */
	double threshold, s0;
	double mde[BT_CAL_NS];      /* smallest detectable change, by bt_cal_n; NAN where
				     * N runs a side cannot reach p < alpha at all */
	size_t alarms;              /* splits where it regressed */
};

struct bt_calibration {
	size_t pool, per_side, splits;
	size_t alarms;              /* splits that would fail the gate */
	double rate, upper;         /* alarms / splits; its one-sided 95 % upper bound */
	double alpha, crit;         /* crit: T* above */
	struct bt_cal_metric *m;    /* gated metrics: the start's and main thread's, then methods,
				     * the noisiest first */
	size_t nm;
};

/* Every run of pool is taken as the same build (their sides are ignored).
 * per_side >= 2 and 2 per_side <= the pool's runs; splits >= 1. The
 * thresholds, gating and gate script are o's, as compare applies them. */
int bt_calibrate(struct bt_calibration *cal, const struct bt_runs *pool, const struct bt_cmp_opts *o,
		 size_t per_side, size_t splits, struct bt_err *err);
void bt_calibration_release(struct bt_calibration *cal);

#endif
