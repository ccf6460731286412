/*
 * pprof export (DESIGN §10): the self values of each call path, per thread
 * and Looper message, as a gzip'd profile.proto that `go tool pprof` reads.
 */
#ifndef BT_PPROF_H
#define BT_PPROF_H

#include <stdio.h>

#include "engine/base/err.h"
#include "engine/profile/stacks.h"

/*
 * Write s to fp as a gzip'd perftools.profiles.Profile: sample types
 * wall, cpu, offcpu (nanoseconds), alloc_space (bytes), alloc_objects,
 * majflt (count); one Location and Function per frame; one Sample per
 * (thread, message, call path), leaf first, labelled thread (string),
 * tid and msg_id (numbers; no msg_id outside messages). Samples are packed
 * and compressed one at a time. BT_EIO when fp fails; fp stays the
 * caller's.
 */
int bt_pprof_write(const struct bt_stacks *s, FILE *fp, struct bt_err *err);

#endif
