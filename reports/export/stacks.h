/*
 * Self values per thread, Looper message and call path, summed from the
 * slices: what the pprof and folded-stack exports write. A thread's sums
 * equal its calltree totals (the slices are what the calltree adds up).
 */
#ifndef BT_STACKS_H
#define BT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/db/db.h"
#include "engine/base/err.h"

/* The values of an entry: self wall and CPU ns, and the self counters
 * (a slice's own net of its children's). Off-CPU is wall - CPU. */
enum { BT_SV_WALL, BT_SV_CPU, BT_SV_ABYTES, BT_SV_AOBJS, BT_SV_MAJFLT, BT_SV__COUNT };

struct bt_stacks_thread {
	int64_t tid;
	char *label;    /* the name, or "tid N" when the dump names none */
	char *root;     /* label, made unique with " (tid N)" if threads share it */
	int is_main;
};

/* A (thread, message, call path) with its values. msg 0: not in a
 * Looper message. A path met again after other messages of its thread
 * may have a second entry for the same (thread, message): add them up. */
struct bt_stacks_entry {
	uint32_t ctx;   /* index in ctx */
	uint32_t path;  /* >= 1 */
	int64_t v[BT_SV__COUNT];
};

struct bt_stacks_ctx {
	uint32_t thread;   /* index in threads */
	int64_t msg;
};

struct bt_stacks {
	struct bt_stacks_thread *threads;
	size_t nthreads;
	char **frames;          /* names by frame id; NULL for an unknown id */
	size_t nframes;
	uint32_t *parent;       /* by path: the caller's path, 0 for an outermost frame */
	uint32_t *frame;        /* by path: the frame id */
	size_t npaths;          /* paths are 1..npaths-1 */
	struct bt_stacks_ctx *ctx;
	size_t nctx;
	struct bt_stacks_entry *e;   /* in order of first appearance */
	size_t n;
	int64_t first_ts, last_ts;   /* the trace span (meta) */
};

/*
 * Read the slices (filling deferred ones) and sum them. The result is the
 * caller's to free with bt_stacks_free. BT_ESQL on a failed query,
 * BT_EFORMAT when a slice's parent is not the enclosing slice.
 */
int bt_stacks_load(struct bt_db *db, struct bt_stacks **out, struct bt_err *err);
void bt_stacks_free(struct bt_stacks *s);

/* Name of frame id; "?" when unknown. Valid until bt_stacks_free. */
const char *bt_stacks_frame_name(const struct bt_stacks *s, uint32_t frame);

#endif
