/*
 * Self values per thread, Looper message and call path: what the pprof and
 * folded-stack exports write. The run's profile keeps them while it adds
 * up the slices (its paths' values split by message), so the exports need
 * no slices of their own; a thread's sums equal its calltree totals.
 */
#ifndef BT_STACKS_H
#define BT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"
#include "engine/base/narrow.h"
#include "engine/db/db.h"
#include "engine/profile/profile.h"

/* The values of an entry: self wall and CPU ns, and the self counters
 * (a slice's own net of its children's), and idle ns, which wall leaves
 * out (profile.h). Off-CPU is wall - CPU. */
enum { BT_SV_WALL, BT_SV_CPU, BT_SV_ABYTES, BT_SV_AOBJS, BT_SV_MAJFLT, BT_SV_IDLE, BT_SV__COUNT };

struct bt_stacks_thread {
	int64_t tid;
	char *label;    /* the name, or "tid N" when the dump names none */
	char *root;     /* label, made unique with " (tid N)" if threads share it */
	int is_main;
};

/* A (thread, message, call path) with its values. msg 0: not in a
 * Looper message. A path met again after other messages of its thread
 * has a second entry for the same (thread, message): add them up. */
struct bt_stacks_entry {
	uint32_t ctx;   /* index in ctx */
	uint32_t path;  /* >= 1 */
	int64_t msg;    /* ctx's, kept beside the values the run adds to */
	uint32_t v[BT_SV__COUNT];   /* narrow slots of the stacks' wide: bt_stacks_value */
};

struct bt_stacks_ctx {
	uint32_t thread;   /* index in threads */
	int64_t msg;
};

struct bt_stacks_run;

struct bt_stacks {
	struct bt_stacks_thread *threads;   /* the threads table's, main first, then others by first use */
	size_t nthreads;
	char **frames;          /* names by frame id; NULL for an unknown id */
	size_t nframes;
	uint32_t *parent;       /* by path: the caller's path, 0 for an outermost frame */
	uint32_t *frame;        /* by path: the frame id (0 for a thread's root, which no entry has) */
	int show_idle;          /* set before bt_stacks_load_names: idle time (BT_SV_IDLE) becomes
				 * wall time of an "(idle)" frame (else only wall time is shown) */
	size_t npaths;          /* paths are 1..npaths-1, each of one thread */
	struct bt_stacks_ctx *ctx;
	size_t nctx;
	struct bt_stacks_entry *e;   /* in order of first appearance (threads by tid, then preorder) */
	size_t n;
	struct bt_wide wide;         /* the entries' values too wide for their slots */
	int64_t first_ts, last_ts;   /* the trace span (meta) */
	char *process;               /* the process's name (meta process_name), else the main
				      * thread's; NULL when neither is known */
	int64_t wall_first_ns;       /* first_ts as wall-clock ns since the epoch: an iOS trace's
				      * wall_start_ns (its timestamps count from it) + first_ts;
				      * 0 when the trace has no wall clock (a dump: boot time only) */
	struct bt_stacks_run *run;   /* what the profile gave, until bt_stacks_load_names */
	int cpu_unknown;             /* a thread's CPU time is not in the trace: its BT_SV_CPU
				      * values read 0 and the exports leave CPU out */
	int no_alloc, no_faults;     /* the format records no allocations, no page faults (meta):
				      * their values read 0 and the exports leave them out */
};

/* Value k (BT_SV_*) of entry e. */
static inline int64_t bt_stacks_value(const struct bt_stacks *s, const struct bt_stacks_entry *e, int k)
{
	return bt_narrow_get(&s->wide, e->v[k]);
}

/* An empty collection, filled from a run's profile (tap.h's stacks). */
struct bt_stacks *bt_stacks_new(void);
/* Take the entries of p (kept, profile.h's bt_profile_keep_entries) once
 * its run is over, parts merged; p keeps its totals. */
void bt_stacks_take(struct bt_stacks *s, struct bt_profile *p);

/* After the run: the threads, frame names and trace span from db; the
 * stacks are then complete. */
int bt_stacks_load_names(struct bt_stacks *s, struct bt_db *db, struct bt_err *err);
void bt_stacks_free(struct bt_stacks *s);

/* Name of frame id; "?" when unknown. Valid until bt_stacks_free. */
const char *bt_stacks_frame_name(const struct bt_stacks *s, uint32_t frame);

#endif
