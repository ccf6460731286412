/*
 * Folded-stack export (DESIGN §10): Brendan Gregg's "a;b;c VALUE" lines
 * that FlameGraph's flamegraph.pl and speedscope read.
 */
#ifndef BT_FOLDED_H
#define BT_FOLDED_H

#include <stdio.h>

#include "engine/base/err.h"
#include "engine/profile/stacks.h"

struct bt_namer;

/* What a line's value counts: self wall, CPU or off-CPU ns, or bytes. */
enum bt_folded_metric { BT_FOLDED_WALL, BT_FOLDED_CPU, BT_FOLDED_OFFCPU, BT_FOLDED_ALLOC };

/* The metric named name (NULL: wall), or -1. */
int bt_folded_metric_parse(const char *name);

/*
 * Write one line "THREAD;outer;...;leaf VALUE" per call path of a thread
 * whose value is positive (messages are summed), in order of first
 * appearance. THREAD is the thread's root name (stacks.h); the frames are
 * named as people read them by n (engine/base/names.h: one name per
 * method; NULL: full signatures). In names, ';' becomes ':' and line
 * breaks a space, so each name stays one frame. BT_EIO when fp fails; fp
 * stays the caller's.
 */
int bt_folded_write(const struct bt_stacks *s, enum bt_folded_metric metric, const struct bt_namer *n,
		    FILE *fp, struct bt_err *err);

#endif
