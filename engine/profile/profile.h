/*
 * Attribution: what the reconstruction's slices add up to, per call path
 * and per method of each thread (DESIGN §5). Built while the slices stream
 * by, so an analysis never needs the 3.5 slices per record stored:
 *
 *   calltree         one row per call path of a thread (top-down), self
 *                    and inclusive wall, CPU, blocked, counters
 *   methods          per thread and method: self, and inclusive with
 *                    nested activations of the method counted once
 *   method_blocking  blocked time per thread, method and blocking kind
 *   callers          self values per method split by calling method (the
 *                    first level of the bottom-up tree)
 *   message_methods  the longest Looper messages' top methods
 *
 * Self values of a thread's paths sum exactly to its totals (the root).
 * Idle time (the off-CPU own time of idle slices, bt_slice_idle_part) is
 * in no wall value: it is a value of its own (self_idle_ns, incl_idle_ns),
 * so no method's time includes a thread's wait for work.
 */
#ifndef BT_PROFILE_H
#define BT_PROFILE_H

#include <stdint.h>

#include "engine/db/db.h"

struct bt_profile;

/* Blocking kinds of duration records, in report order. */
enum bt_block_kind {
	BT_BLOCK_MONITOR, BT_BLOCK_WAIT, BT_BLOCK_PARK, BT_BLOCK_GC, BT_BLOCK_BINDER,
	BT_BLOCK_LOADLIBRARY, BT_BLOCK_LOCK, BT_BLOCK__COUNT
};

extern const char *const bt_block_kind_name[BT_BLOCK__COUNT];

/* The kind of an Android record type, or -1 when it does not block. */
int bt_block_kind_of(int64_t type);
/* The kind named name (bt_block_kind_name: a blocking edge's kind), or -1. */
int bt_block_kind_named(const char *name);

struct bt_profile *bt_profile_new(void);
void bt_profile_free(struct bt_profile *p);

/* The root path of a thread, where its outermost frames hang. */
uint32_t bt_profile_thread(struct bt_profile *p, int64_t tid);

/* The path of frame called from path parent, for a slice opening in
 * Looper message msg (0: none). node, if not 0, is the stack node the
 * frame comes from (a cache key); in_msg marks a slice in a Looper
 * message (at or under the slice right below the loop frame); idle an
 * idle slice (the same for every slice of a path: its frame and its
 * caller's decide, slice_tree.c). */
uint32_t bt_profile_enter(struct bt_profile *p, uint32_t parent, uint32_t frame, uint32_t node,
			  int in_msg, int64_t msg, int idle);

/* Keep, besides the paths' totals, their self values per Looper message:
 * what the stacks take (stacks.h) for --pprof and --folded. Before the
 * first thread. */
void bt_profile_keep_entries(struct bt_profile *p);

/* Counters a slice has, in this order: alloc bytes, alloc objects,
 * major faults, voluntary and involuntary context switches. */
#define BT_PROFILE_NCTR 5

/* A slice of path ended, with its counters net of its children's (the
 * caller keeps those, so the parent path is not touched per slice);
 * msg_root: it is a message's outermost slice. */
void bt_profile_leave(struct bt_profile *p, uint32_t path, const struct bt_slice *s,
		      const int64_t self[BT_PROFILE_NCTR], int in_msg, int msg_root);

/* A blocking record of the given type ended on path after dur ns (a
 * type of no blocking kind counts in the path's blocked total only):
 * bt_profile_block_record and bt_profile_blocked of dur on path. */
void bt_profile_block(struct bt_profile *p, uint32_t path, int64_t type, int64_t dur);

/* The record alone: counted with its dur on path (method_blocking's self
 * is the innermost frame of the record's stack, thread_blocking), its
 * wall time not, when it went to several paths (bt_profile_blocked). */
void bt_profile_block_record(struct bt_profile *p, uint32_t path, int64_t type, int64_t dur);

/* dur ns of a blocking record's wait spent with path innermost: part of
 * its self time, now blocked (self_blocked_ns); none if dur <= 0. */
void bt_profile_blocked(struct bt_profile *p, uint32_t path, int64_t dur);

/* The current thread's span: wall and CPU time from its first record to
 * its last, which its breakdown (threads table) splits up. */
void bt_profile_thread_span(struct bt_profile *p, int64_t wall, int64_t cpu);

/* The thread is done: flush its last message. */
void bt_profile_thread_end(struct bt_profile *p);

/* Move b's threads into a, b's and a's threads each made in ascending tid
 * order: a then holds what one profile fed all of them in tid order would,
 * path ids included. Frees b. */
void bt_profile_merge(struct bt_profile *a, struct bt_profile *b);

/*
 * Roll up and write the small tables; the call tree becomes readable as
 * table calltree: stored rows if keep, else a view on the profile in
 * memory, which the database then owns (it frees p at close). On error p
 * is freed too.
 */
int bt_profile_store(struct bt_profile *p, struct bt_db *db, int keep, struct bt_err *err);

/* Columns of a calltree row, as in queries/schema.sql. */
enum {
	BT_CT_ID, BT_CT_TID, BT_CT_PARENT, BT_CT_FRAME, BT_CT_DEPTH,
	BT_CT_SELF_NS, BT_CT_INCL_NS, BT_CT_SELF_CPU, BT_CT_INCL_CPU,
	BT_CT_SELF_BLOCK, BT_CT_INCL_BLOCK, BT_CT_SELF_ABYTES, BT_CT_INCL_ABYTES,
	BT_CT_SELF_AOBJS, BT_CT_INCL_AOBJS, BT_CT_SELF_MAJFLT, BT_CT_INCL_MAJFLT,
	BT_CT_SELF_NVCSW, BT_CT_INCL_NVCSW, BT_CT_SELF_NIVCSW, BT_CT_INCL_NIVCSW,
	BT_CT_SELF_IDLE, BT_CT_INCL_IDLE, BT_CT_IDLE,
	BT_CT__COUNT
};

/* Paths are 1..n; roots (threads) are skipped by the table. */
uint32_t bt_profile_npaths(const struct bt_profile *p);
/* The paths [*first, *end) of thread tid; 0 if it has none. */
int bt_profile_thread_paths(const struct bt_profile *p, int64_t tid, uint32_t *first, uint32_t *end);

#endif
