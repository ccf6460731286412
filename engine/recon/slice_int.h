/*
 * Internals of slice reconstruction shared by slice.c (items: the upstream
 * "stack samples" built from records) and slice_tree.c (the node-stack
 * algorithm that turns a thread's items into slices).
 */
#ifndef BT_SLICE_INT_H
#define BT_SLICE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/recon/capture.h"
#include "engine/recon/slice.h"

#define BT_SLICE_MAX_FRAMES 130   /* 128 recorded + a synthetic leaf, with room */

/* One point of a thread's timeline (upstream's StackList entry). */
struct bt_item {
	int64_t ts, cpu;
	int64_t block;              /* wall time of a blocking record (bt_block_kind_of) ending here */
	const struct bt_csample *src;   /* tid and counters (for kFlush: the previous record's) */
	uint32_t node;              /* leaf node of the recorded stack */
	uint32_t synth;             /* synthetic leaf frame id, or 0 */
	uint32_t msg_id;
	uint32_t seq;               /* the thread's append order, for the stable sort */
	int32_t wakeup_tid;         /* Android tids are 16 bits */
	int16_t type;
	uint8_t dup;                /* the end point of a duration record */
	uint8_t exact;              /* the begin point of a duration record */
};

/* The stack-tree, frames and filtering the algorithm needs. */
struct bt_stacktab {
	uint32_t *parent, *frame;   /* by node id */
	size_t nnodes;
	unsigned char *dropped;     /* by frame id: filtered out by upstream */
	unsigned char *loop;        /* by frame id: a message-loop frame */
	unsigned char *idle;        /* by frame id: waiting for the next message */
	unsigned char *task;        /* by frame id: a worker's task boundary (bt_frame_task) */
	uint32_t idle_frame;        /* the idle policy's synthetic "(idle)" frame, or 0 */
	unsigned char *idle_seen;   /* set to 1 by a run that made an idle slice (the frames
				     * table then gets "(idle)"); each worker has its own */
	uint32_t next, poll;        /* the loop's wait: MessageQueue.next and nativePollOnce's
				     * frame ids where the trace knows them, or 0 */
	size_t nframes;
	uint32_t *pos;              /* by node id: its index in the last list made (a hint,
				     * checked before use, so never stale in effect) */
};

/* Root-first frame ids of an item's stack after filtering, and the stack
 * node each comes from (0 for a synthetic leaf); returns the count. The
 * previous item's lists (pf, pn, np) let the walk up from the leaf stop
 * where they share the stack; pass np 0 when there are none. */
size_t bt_item_frames(const struct bt_stacktab *t, const struct bt_item *it, const uint32_t *pf,
		      const uint32_t *pn, size_t np, uint32_t *out, uint32_t *nodes);

/* Run the policy over one thread's sorted items, passing its slices (ids
 * from *next_id on) and messages to the sink. */
int bt_slice_run_thread(const struct bt_stacktab *t, const struct bt_item *items, size_t n,
			enum bt_slice_policy policy, const struct bt_slice_sink *sink, int64_t *next_id,
			struct bt_err *err);

#endif
