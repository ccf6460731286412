/*
 * merge's inputs (engine/fleet/README.md, part 3): a JSON report (its
 * summary), a summary file, a fleet summary, or a directory of them, each
 * added to a fleet under the --group pairs in force for it.
 */
#ifndef BT_INPUTS_H
#define BT_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"
#include "engine/fleet/fleet.h"

struct bt_fleet_stats {
	int64_t reports, summaries, fleets;   /* files read, by kind */
	int64_t skipped;                      /* JSON files in a directory that are none */
};

/*
 * Add path to f: a file by its top-level "schema", a directory by every
 * *.json file under it (recursively, paths in byte order; names starting
 * with '.' are not read), skipping JSON files of other schemas there.
 * groups[0..n) (key, value) are set on every summary read, in order (a
 * fleet is regrouped, bt_fleet_regroup). BT_EFORMAT naming the file and
 * byte for a file that is no JSON, a report without a summary, a named
 * file of another schema; BT_EIO when a file cannot be read.
 */
int bt_fleet_load(struct bt_fleet *f, const char *path, const struct bt_sum_kv *groups, size_t n,
		  struct bt_fleet_stats *st, struct bt_err *err);

#endif
