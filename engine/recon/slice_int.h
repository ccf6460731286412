/*
 * Internals of slice reconstruction shared by slice.c (items: the upstream
 * "stack samples" built from records) and slice_tree.c (the node-stack
 * algorithm that turns a thread's items into slices).
 */
#ifndef BT_SLICE_INT_H
#define BT_SLICE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/profile/profile.h"
#include "engine/recon/capture.h"
#include "engine/recon/slice.h"

#define BT_SLICE_MAX_FRAMES 130   /* 128 recorded + a synthetic leaf, with room */

/* The idle policy's synthetic frames a run used (bt_stacktab.made). */
enum { BT_MADE_IDLE = 1, BT_MADE_SYNC = 2 };
#define BT_NATIVE_MANY UINT32_MAX

/* One point of a thread's timeline (upstream's StackList entry). */
struct bt_item {
	int64_t ts, cpu;
	const struct bt_csample *src;   /* tid and counters (for kFlush: the previous record's) */
	uint32_t node;              /* leaf node of the recorded stack */
	uint32_t msg_id;
	int32_t wakeup_tid;         /* Android tids are 16 bits */
	int16_t type;
	uint8_t dup;                /* the end point of a duration record */
	uint8_t exact;              /* the begin point of a duration record */
};   /* 40 bytes, one per record and one more per duration: what a record
      * also tells (its synthetic leaf, its blocked time) is read off it */

/* The stack-tree, frames and filtering the algorithm needs. */
struct bt_stacktab {
	uint32_t *parent, *frame;   /* by node id */
	size_t nnodes;
	unsigned char *dropped;     /* by frame id: filtered out by upstream */
	unsigned char *loop;        /* by frame id: a message-loop frame */
	unsigned char *idle;        /* by frame id: waiting for the next message */
	unsigned char *task;        /* by frame id: a worker's task boundary (bt_frame_task) */
	uint32_t *native;           /* by frame id: the app's native method the trace shows it
				     * calling (a kJNITrampoline record's leaf, this frame its
				     * caller), BT_NATIVE_MANY for several, 0 for none */
	uint32_t idle_frame;        /* the idle policy's synthetic "(idle)" frame, or 0 */
	int has_wait;               /* some frame is a worker's wait for work (BT_TASK_WAIT) */
	unsigned char *made;        /* the synthetic frames a run used (BT_MADE_*: the frames
				     * table then gets their rows); each worker has its own */
	/* A frame's draw waits for the RenderThread in HardwareRenderer.
	 * syncAndDrawFrame and its native nSyncAndDrawFrame (Android 10 on;
	 * before, ThreadedRenderer.nSyncAndDrawFrame alone): their frame ids,
	 * the trace's where it knows them, else the idle policy's synthetic
	 * ones (0: none, the older Android's missing wrapper). */
	uint32_t sync_call[2];
	unsigned char sync_synth;   /* bit k: sync_call[k] is synthetic */
	uint32_t next, poll;        /* the loop's wait: MessageQueue.next and nativePollOnce's
				     * frame ids where the trace knows them, or 0 */
	uint32_t frame_call[3];     /* Choreographer.doFrame, doCallbacks and CallbackRecord.run's
				     * frame ids where the trace knows them, or 0 */
	size_t nframes;
	uint32_t *pos;              /* by node id: its index in the last list made (a hint,
				     * checked before use, so never stale in effect) */
	/* The capture throttle as the trace shows it (bt_gap_calibrate; 0 where
	 * the format has none): its interval, and how long running Java code
	 * goes on before its next capture point once the throttle lets one by. */
	int64_t interval, first_capture;
	int dense;                  /* running code reaches a capture point soon after the throttle
				     * opens (first_capture at most an eighth of the interval) */
	const struct bt_slice_span *spans;   /* bt_slicer_spans's, by tid then lo; mostly none */
	size_t nspans;
	uint32_t synth[2];          /* the synthetic leaf frames of kGC and monitor records, or 0 */
	const struct bt_csample *records;   /* the items' (src) */
	const struct bt_cends *ends;        /* and their ends */
	int64_t start_ns;           /* the trace's startTime (spec §7.1 step 2), or 0 */
};

/* An item's synthetic leaf frame id (a kGC or monitor record's), or 0. */
static inline uint32_t bt_item_synth(const struct bt_stacktab *t, const struct bt_item *it)
{
	return it->type == 11 ? t->synth[0] : it->type == 8 ? t->synth[1] : 0;
}

/* The wall time of the blocking record (bt_block_kind_of) whose end item
 * it is, from its begin (clamped to the start time as the items were
 * made); 0 for any other item. */
static inline int64_t bt_item_block(const struct bt_stacktab *t, const struct bt_item *it)
{
	const struct bt_csample *s = it->src;
	int64_t begin;

	if (!it->dup || bt_block_kind_of(it->type) < 0)
		return 0;
	/* the clamp's test on the record's end, which the end item's time is */
	begin = t->start_ns > 0 && s->ts < t->start_ns && it->ts > s->ts ? t->start_ns : s->ts;
	return it->ts - begin;
}

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

/* An open slice. The root (stack[0]) is never emitted. */
struct snode {
	struct bt_slice s;                   /* filled as far as known */
	int64_t begin_idx;
	int64_t child_dur, child_cpu;
	int64_t child_idle;                  /* the children's idle time (idle_in) */
	int64_t child_wait;                  /* the children's time blocked (bt_run.blk) */
	int64_t child_ctr[BT_PROFILE_NCTR];  /* the children's counters, for self values */
	const struct bt_csample *base;       /* counters are deltas from this record */
	uint32_t path;                       /* in the sink's profile */
	unsigned char msg_root, in_msg;      /* a message's outermost slice, or inside one */
	unsigned char idle;                  /* an idle slice (is_idle_slice) */
};

/* The message being accumulated from consecutive message slices. */
struct bt_msg_acc {
	int64_t id, ts, end, cpu, block, idle, alloc;
};

/* One thread's run of the algorithm (slice_tree.c), which the idle
 * policy's step (slice_idle.c) drives too. */
struct bt_slice_run {
	const struct bt_stacktab *tab;
	enum bt_slice_policy policy;
	const struct bt_item *items;
	const struct bt_slice_sink *sink;
	struct snode stack[BT_SLICE_MAX_FRAMES + 2];
	size_t sp;
	int64_t next_id;
	struct bt_msg_acc msg;
	const struct bt_item *wait;          /* the idle policy: the thread's last sample in its
					      * wait for work (through getTask), or NULL */
	int64_t work_sleep;                  /* the idle policy: how long one unhooked sleep inside
					      * the thread's work lasts (bt_slice_idle_begin) */
	int zero_poll;
	size_t pre_k;                        /* ... and how many frames the last sample shared
					      * with the one before it */                       /* ... and whether its Looper polls once without a
					      * timeout before it sleeps (AOSP's MessageQueue.next) */
	const struct bt_item *blk;           /* while the thread is in blocking records (between
					      * their begin and end items): the first's begin */
	uint32_t nblk;                       /* how many of them have begun and not ended */
	int rc;                              /* the sink's first error */
	struct bt_err *err;
};

/* Open frame (node, or 0) at (t, c) for the item at index idx; its gap
 * runs from (last_t, last_c), begin gives its record fields and base the
 * record its counters are deltas from. */
void bt_slice_push(struct bt_slice_run *r, uint32_t frame, uint32_t node, int64_t t, int64_t c, int64_t idx,
		   int64_t last_t, int64_t last_c, const struct bt_item *begin, const struct bt_item *base);
/* Close the top frame at (t, c); its counters run up to item end. */
void bt_slice_pop(struct bt_slice_run *r, int64_t t, int64_t c, int64_t idx, const struct bt_item *end);
/* Frames f (nodes, or none) open through the gap before item i, from
 * (et, ec) to (st, sc), with no counters; begin gives their record fields.
 * 0 (none made) where the stack has no room for them. */
int bt_slice_stretch(struct bt_slice_run *r, size_t i, const uint32_t *f, const uint32_t *nodes, size_t n,
		     const struct bt_item *begin, int64_t et, int64_t ec, int64_t st, int64_t sc);
/* A Looper message no sample shows, known from the message ids alone: its
 * row, from ts to end with cpu of CPU time. */
void bt_slice_unseen_message(struct bt_slice_run *r, int64_t id, int64_t ts, int64_t end, int64_t cpu);
/* Whether the gap before item i enters a recorded wait's inside with k of
 * pre's np frames kept (its deeper frames run from the wait's begin), or
 * leaves it with k of cur's nc (the earlier ones run to its end). */
int bt_slice_into_wait(const struct bt_slice_run *r, size_t i, size_t k, size_t np);
int bt_slice_out_of_wait(const struct bt_slice_run *r, size_t i, size_t k, size_t nc);
/* Length of the common prefix of two frame lists. */
static inline size_t bt_slice_common(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t k = 0;

	while (k < na && k < nb && a[k] == b[k])
		k++;
	return k;
}
/* Keep the common prefix k of f only down to its deepest message-loop frame. */
size_t bt_slice_loop_cut(const struct bt_stacktab *t, const uint32_t *f, size_t k);
static inline int bt_slice_is_loop(const struct bt_stacktab *t, int64_t frame)
{
	return frame >= 0 && (size_t)frame <= t->nframes && t->loop[frame];
}

/* A frame's task boundary (bt_frame_task), 0 when it has none. */
static inline int bt_slice_task_of(const struct bt_stacktab *t, uint32_t frame)
{
	return t->task && (size_t)frame <= t->nframes ? t->task[frame] : 0;
}

/* What the idle policy learns of a thread before its steps (slice_idle.c). */
void bt_slice_idle_begin(struct bt_slice_run *r, size_t n);
/* The idle policy's step over the gap before item i (slice_idle.c). */
void bt_slice_step_idle(struct bt_slice_run *r, size_t i, const uint32_t *pf, size_t np, const uint32_t *cf,
			const uint32_t *cn, size_t nc);

/* When the work at the thread's last sample (tid, at ts) ended: the end
 * of the span (bt_slicer_spans) holding it, whose call it served to its
 * reply, else ts. */
int64_t bt_slice_last_end(const struct bt_stacktab *t, int64_t tid, int64_t ts);

/* Remember item i as the thread's last sample in its wait for work
 * when its frames cf show one (the idle policy). */
void bt_slice_note_wait(struct bt_slice_run *r, size_t i, const uint32_t *cf, size_t nc);

/* The throttle's interval and first capture delay, from every thread's
 * sorted items (threads n of them, item arrays v with counts cnt). */
void bt_gap_calibrate(struct bt_stacktab *t, struct bt_item *const *v, const size_t *cnt, size_t n);

#endif
