/*
 * speedscope export: speedscope's own JSON file format
 * (https://www.speedscope.app/file-format-schema.json), which carries
 * units and threads where folded stacks carry neither: each thread's
 * slices as a timeline, and its CPU time and allocated bytes as profiles.
 */
#ifndef BT_SPEEDSCOPE_H
#define BT_SPEEDSCOPE_H

#include <stdio.h>

#include "engine/base/err.h"
#include "engine/profile/stacks.h"
#include "reports/export/slice_log.h"

struct bt_namer;

/*
 * Write a speedscope file to fp: shared.frames holds every frame of s by
 * id (named as names gives them, NULL: in full, with the full signature as
 * its "file" where the two differ; frame 0 is "?"), then these profiles,
 * the main thread's first in each group and the others by tid:
 *  - "THREAD: wall time", evented, in nanoseconds since the trace's start:
 *    each slice of log (sealed; read with a reader of its own) opened and
 *    closed in time order, idle ones too, as Perfetto UI shows them;
 *  - "THREAD: CPU time", sampled, nanoseconds: each call path's self CPU
 *    time (left out when the trace does not give CPU time);
 *  - "THREAD: allocated bytes", sampled, bytes: each call path's self
 *    allocated bytes (left out when the trace records no allocations).
 * A sampled profile with nothing in it is left out. THREAD is the thread's
 * root name (stacks.h). The events are written as the slices are read back
 * and everything goes out in blocks, so memory does not grow with the
 * trace; gz: the bytes go through a gzip stream (speedscope reads either).
 * BT_EIO when fp fails; fp stays the caller's.
 */
int bt_speedscope_write(const struct bt_stacks *s, const struct bt_slicelog *log, const struct bt_namer *names,
			int gz, FILE *fp, struct bt_err *err);

#endif
