/*
 * A slice for the unit tests that feed slices to a module: its thread,
 * method, span, self time and depth; everything else 0 (the caller sets
 * what its test reads).
 */
#ifndef BT_TSLICE_H
#define BT_TSLICE_H

#include <string.h>

#include "engine/db/db.h"

static inline struct bt_slice tslice(int64_t tid, int64_t frame, int64_t ts, int64_t dur, int64_t self,
				     int64_t depth)
{
	struct bt_slice s;

	memset(&s, 0, sizeof s);
	s.tid = tid;
	s.frame_id = frame;
	s.ts = ts;
	s.dur = dur;
	s.self_dur = self;
	s.depth = depth;
	return s;
}

#endif
