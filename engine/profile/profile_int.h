/*
 * Internals of the profile shared by profile.c (accumulation while the
 * slices stream by) and profile_store.c (roll-up and tables).
 */
#ifndef BT_PROFILE_INT_H
#define BT_PROFILE_INT_H

#include <stddef.h>

#include "engine/base/hash.h"
#include "engine/base/narrow.h"
#include "engine/profile/profile.h"
#include "engine/profile/stacks.h"

/* The values accumulated per path. */
enum { V_WALL, V_CPU, V_BLOCK, V_ABYTES, V_AOBJS, V_MAJFLT, V_NVCSW, V_NIVCSW, V_IDLE, NV };

/* A call path of one thread; a thread's root has frame 0. */
struct path {
	uint32_t parent, frame, thread;
	int16_t depth;        /* -1 for a root */
	uint8_t nested;       /* an ancestor has the same frame (recursion) */
	uint8_t idle;         /* its slices are idle ones: their self time is V_IDLE too */
	uint8_t nocpu;        /* a thread's root: a slice of the thread did not say its CPU
			       * time (bt_slice.cpu_unknown), so none of its CPU values is
			       * known (stored NULL); in the padding, no byte more per path */
	uint8_t mapped;       /* its children are in the thread's child_of map (profile.c) */
	uint32_t self[NV];    /* narrow slots (engine/base/narrow.h) of the profile's wide */
};   /* 56 bytes */

/* A path of the thread being made, for finding its children: its newest
 * child and its next older sibling (ids; 0: none). */
struct path_links {
	uint32_t child, sibling;
};

/* With entries kept, a path of the thread being made: its open entry
 * (the path's totals when it began are in oebase: this, read at every
 * slice, stays small). */
struct open_entry {
	uint32_t entry;       /* its index + 1, 0 for none */
	uint32_t msg;         /* its message, if below UINT32_MAX (all a dump's are), else
			       * UINT32_MAX: see the entry */
};

/* A path once the profile is stored (profile_store.c): what the calltree
 * table reads of it, written over the paths (4 bytes less a path). */
struct ct_row {
	uint32_t parent, frame, thread;
	int16_t depth;
	uint8_t idle, nocpu;
	uint32_t self[NV];    /* the path's slots */
};

struct block_event {
	uint32_t path;
	int32_t kind;
	int64_t dur;
};

#define MSG_TOP_METHODS 10   /* per kept message */
#define MSG_KEEP 100         /* longest messages kept per thread */

struct msg_method {
	uint32_t frame;
	int64_t self_ns, self_cpu, incl_ns, incl_cpu;
};

struct kept_msg {
	int64_t tid, msg_id, ts, dur;
	int n;
	struct msg_method m[MSG_TOP_METHODS];
};

/* A method's self time in a thread's messages number [2^(bucket-1), 2^bucket)
 * (bucket 0: the first), in the order they ended: the windows of the
 * thread's first 2^k messages add them up (profile_store.c). */
struct win_method {
	int64_t tid;
	uint32_t frame, bucket;
	int64_t self_ns, self_cpu;
};

/* The message being accumulated: per-frame sums over its slices. */
struct cur_msg {
	int64_t id, ts, end;
	int64_t *v;           /* by frame: self_ns, self_cpu, incl_ns, incl_cpu */
	uint32_t *open;       /* by frame: open slices of it in the message */
	unsigned char *listed;   /* by frame: in touched */
	uint32_t *touched;    /* frames with values, to reset */
	size_t ntouched, tcap, nframes, ocap, lcap;   /* nframes: v's capacity, ocap: open's,
						       * lcap: listed's */
};

struct bt_profile {
	struct path *paths;       /* [0] unused; NULL once stored */
	struct ct_row *rows;      /* the paths once stored, by path */
	uint32_t npaths;
	size_t cap;
	uint32_t *node_path;      /* stack node -> its path, if >= the thread's root */
	size_t nnodes;
	uint32_t *open;           /* by frame: open slices of it on the current stack */
	size_t nframes;
	uint32_t root;            /* the current thread's */
	struct path_links *links; /* by path of the current thread (id - root) */
	size_t lcap;
	struct bt_map64 child_of; /* the current thread's paths by (parent << 32 | frame), of
				   * the parents with too many children to walk (mapped: a trace's own
				   * slices: "Choreographer#doFrame N" a new one each frame) */
	int64_t *tids;            /* by thread index */
	int64_t (*span)[3];       /* by thread index: wall and CPU time from its first
				   * record to its last (bt_profile_thread_span), or -1;
				   * and how many slices it has (kept or not) */
	uint32_t *roots;          /* by thread index; a thread's paths follow its root */
	uint32_t nthreads;
	size_t tcap;
	struct block_event *blocks;
	size_t nblocks, bcap;
	struct cur_msg msg;
	struct kept_msg *kept;    /* of every thread, MSG_KEEP at most each */
	size_t nkept, kcap, kept_from;   /* this thread's start in kept */
	size_t kept_min;          /* once the thread has MSG_KEEP: the first of its kept messages
				   * with the least dur, the one a longer message replaces */
	struct win_method *win;   /* every thread's, thread by thread */
	size_t nwin, wcap;
	int64_t *nmsgs;           /* by thread index: its messages so far */
	/* the current bucket's sums, by frame (self, CPU), and the frames they
	 * hold: moved to win when the bucket ends (a thread's messages fill
	 * a few dozen buckets, one after the other) */
	int64_t *bsum;
	size_t bscap;
	uint32_t *btouched;
	size_t nbtouched, btcap;
	uint32_t bucket;
	uint32_t (*incl)[NV];     /* by path, once rolled up: narrow slots too */
	struct bt_wide wide;      /* the values of the slots too wide for theirs */
	/* Entries (bt_profile_keep_entries): a path's self values per Looper
	 * message, made in preorder, each thread's together; ctx unused. */
	int keep_entries;
	struct bt_stacks_entry *ent;
	size_t nent, ecap;
	struct bt_wide ewide;     /* the entries' wide values */
	struct open_entry *oe;    /* by path of the current thread (id - root) */
	size_t oecap, oeused;     /* [0, oeused) zeroed for the thread, the rest stale */
	int64_t (*oebase)[BT_SV__COUNT];   /* by path as oe: the totals its entry began with */
	size_t obcap;
	size_t *efirst;           /* by thread index: its first entry */
};

/* A path's value from its slot, and a sum into a slot. */
static inline int64_t pv(const struct bt_profile *p, uint32_t slot)
{
	return bt_narrow_get(&p->wide, slot);
}

static inline void pv_add(struct bt_profile *p, uint32_t *slot, int64_t d)
{
	bt_narrow_add(&p->wide, slot, d);
}

#endif
