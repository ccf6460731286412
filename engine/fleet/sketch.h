/*
 * A distribution of non-negative integers that merges exactly: count, sum,
 * min, max and a log-bucketed histogram (DDSketch-style) whose quantiles
 * are within a relative error of BT_DIST_ALPHA of the exact ones, however
 * the values were split and merged (engine/fleet/README.md, "The sketch").
 */
#ifndef BT_SKETCH_H
#define BT_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/jsonr.h"
#include "engine/base/jsonw.h"

#define BT_DIST_ALPHA 0.01
#define BT_DIST_NBUCKETS 2200   /* gamma^2199 > 2^63: every int64_t has one */

/* Bucket lo + k holds c[k] values, for k < nc (dense between the lowest
 * and highest non-empty bucket: adding is an index, merging a loop). */
struct bt_dist {
	int64_t n, sum, zeros, min, max;   /* min and max only when n > 0 */
	int32_t lo;
	size_t nc;
	int64_t *c;
};

/* gamma = (1 + alpha) / (1 - alpha). */
double bt_dist_gamma(void);

void bt_dist_init(struct bt_dist *d);
void bt_dist_release(struct bt_dist *d);

/* The bucket of v >= 1: the smallest i with gamma^i >= v. */
int bt_dist_index(int64_t v);
/* What bucket i stands for: 2 gamma^i / (gamma + 1) (1 for bucket 0). */
double bt_dist_rep(int i);

/* Count v (< 0 is taken as 0: no duration is negative). */
void bt_dist_add(struct bt_dist *d, int64_t v);
/* The same with v's bucket known (bt_dist_index(v), or any for v <= 0):
 * a value added to many distributions is looked up once. */
void bt_dist_add_at(struct bt_dist *d, int64_t v, int i);
/* Add o's counts to d: exact, in any order. */
void bt_dist_merge(struct bt_dist *d, const struct bt_dist *o);
/* Add count to bucket i (a reader's; 0 <= i < BT_DIST_NBUCKETS). The
 * caller keeps n, sum, zeros, min and max. */
void bt_dist_put(struct bt_dist *d, int i, int64_t count);

/* The value of rank max(1, ceil(permille * n / 1000)) in ascending order,
 * estimated: within BT_DIST_ALPHA of it (plus 0.5 of rounding), clamped to
 * [min, max]. 0 when n is 0. */
int64_t bt_dist_quantile(const struct bt_dist *d, int permille);

/* d as a DIST object at w's position (sketch_json.c): n, sum, min, max,
 * zeros, p50/p90/p99, buckets. */
void bt_dist_write_json(struct bt_jsonw *w, const struct bt_dist *d);
/* The DIST object at r's position into d (its counts replaced; key a
 * scratch buffer): BT_EFORMAT naming the file and byte when a count is
 * negative, a bucket out of range or the counts do not add up to n. */
int bt_dist_read_json(struct bt_jr *r, struct bt_dist *d, struct bt_buf *key);

#endif
