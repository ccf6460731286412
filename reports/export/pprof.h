/*
 * pprof export (DESIGN §10): the self values of each call path, per thread
 * and Looper message, as a gzip'd profile.proto that `go tool pprof` reads.
 */
#ifndef BT_PPROF_H
#define BT_PPROF_H

#include <stdio.h>

#include "engine/base/err.h"
#include "engine/profile/stacks.h"

struct bt_namer;

/*
 * Write s to fp as a gzip'd perftools.profiles.Profile: sample types
 * wall, cpu, offcpu (nanoseconds), alloc_space (bytes), alloc_objects,
 * majflt (count); one Location and Function per frame, its name as
 * people read it (names, engine/base/names.h; NULL: in full) and its
 * system_name the full signature; one Sample per (thread, message, call
 * path), leaf first, labelled thread ("main" for the main thread, so
 * -tagfocus=thread=main finds it, else the name), thread_name (every
 * thread's name, or "tid N"), tid and msg_id (numbers; no msg_id outside
 * messages). time_nanos is wall-clock (epoch) ns where the trace tells it,
 * else left out. Samples are packed and compressed one at a time. BT_EIO
 * when fp fails; fp stays the caller's.
 */
int bt_pprof_write(const struct bt_stacks *s, const struct bt_namer *names, FILE *fp, struct bt_err *err);

#endif
