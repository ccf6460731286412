/*
 * Slice reconstruction: turning the sampled stacks of each thread into
 * frame executions (DESIGN §5). The "btrace" policy reproduces the upstream
 * converter exactly (format spec §7-§8), quirks included, so the numbers
 * reconcile with what users saw in Perfetto UI.
 */
#ifndef BT_SLICE_H
#define BT_SLICE_H

#include "engine/db/db.h"
#include "engine/db/diag.h"

struct bt_capture;

enum bt_slice_policy {
	BT_SLICE_BTRACE,   /* upstream's boundaries: a frame ends 10 ns after its last sample */
	BT_SLICE_MIDPOINT, /* frames change halfway between samples, exactly at duration
			    * records' ends; message changes split frames below the loop */
	BT_SLICE_IDLE      /* midpoint, and where the thread slept in a gap, the CPU it used
			    * places the boundaries and a long sleep ends its task; a native
			    * method begins at its entry sample, and a gap where frames end
			    * and others begin is split in thirds (slice_tree.c) */
};

/* A message-loop frame (deeper frames belong to a Looper message), and the
 * loop's wait for the next message (idle, in no message), by name. */
int bt_frame_is_loop(const char *name);
int bt_frame_is_idle(const char *name);

/* A worker's task boundary, by name: BT_TASK_BELOW for a frame whose
 * callees are one task (a pool worker's runWorker, a daemon's
 * runInternal), BT_TASK_ROOT for the first frame of one (a binder call's
 * execTransact), BT_TASK_WAIT for the worker's wait for its next task
 * (getTask), BT_TASK_WORK for work run from inside a wait (an IdleHandler,
 * input events dispatched from the loop's poll), BT_TASK_SYNC for a frame
 * whose last call sleeps until another thread is done with it (a frame's
 * draw, which waits for the RenderThread's sync), 0 for others. */
enum { BT_TASK_BELOW = 1, BT_TASK_ROOT = 2, BT_TASK_WAIT = 3, BT_TASK_WORK = 4, BT_TASK_SYNC = 5 };
int bt_frame_task(const char *name);

/* Parse a --slice-policy name (NULL: the default, idle). BT_EUSAGE
 * for an unknown one. */
int bt_slice_policy_parse(const char *name, enum bt_slice_policy *out, struct bt_err *err);
const char *bt_slice_policy_name(enum bt_slice_policy p);

/* Where reconstructed slices and messages go. A nonzero return stops the
 * run and is passed on (with err set). message and profile may be NULL;
 * a profile accumulates the slices' attribution (profile.h). Slices come
 * as they end. */
struct bt_profile;
/* A Looper message as the slices show it: its wall span, CPU, blocked
 * (blocking records inside it) and idle time (idle slices inside it). */
struct bt_message {
	int64_t tid, msg_id, ts, dur, cpu, block, idle, alloc;
};
struct bt_slice_sink {
	int (*slice)(void *ctx, const struct bt_slice *s, struct bt_err *err);
	int (*message)(void *ctx, const struct bt_message *m, struct bt_err *err);
	void *ctx;
	struct bt_profile *profile;
	/* A thread's slices are all given: n of them (may be NULL). */
	int (*thread)(void *ctx, int64_t tid, int64_t n, struct bt_err *err);
};

/*
 * The reconstruction of one freshly imported Android trace: its records,
 * turned into upstream's items (spec §7) and sorted per thread, kept so
 * the slices can be produced again whenever a consumer needs them, without
 * keeping the slices themselves (about 3.5 per record).
 */
struct bt_slicer;

/* Prepare from the captured records of a trace whose slices are
 * reconstructed from samples, which the slicer takes over (the capture
 * is left empty). *out is NULL when there are no records. throttled: the
 * samples were taken under a capture throttle, which the idle policy
 * calibrates its gaps with (BT_BRINGS_THROTTLE). Adds the synthetic
 * frames to db. */
int bt_slicer_new(struct bt_slicer **out, struct bt_capture *cap, struct bt_db *db,
		  enum bt_slice_policy policy, int throttled, struct bt_err *err);

/* Where a thread's work began and ended, as another record proves it:
 * a binder thread's transaction lies inside the call of the client it
 * served (engine/recon/binder.c), from lo to hi. */
struct bt_slice_span {
	int64_t tid, lo, hi;
	int exact;   /* the work began at lo and ended at hi (a system trace's receipt and
		      * reply), not only within them */
};

/* Give s the spans (n of them, v malloc'd, taken over): the idle policy
 * ends a task that ran in a span by its hi, when the thread's next sample
 * is after it, and begins one from lo. */
void bt_slicer_spans(struct bt_slicer *s, struct bt_slice_span *v, size_t n);

/* Add the frames the runs so far needed beyond the trace's own (the
 * idle policy's "(idle)"), once. After a run, before names are read. */
int bt_slicer_store_frames(struct bt_slicer *s, struct bt_db *db, struct bt_err *err);
/* Produce every slice, thread by thread in tid order, and the messages. */
int bt_slicer_run(struct bt_slicer *s, const struct bt_slice_sink *sink, struct bt_err *err);
/* The same on two cores: the trace's threads are shared out between sink
 * (run here) and sink2 (run by a helper thread), each getting its threads
 * in tid order, with slice ids counted per sink. The sinks must not share
 * state; with profiles, bt_profile_merge() joins them afterwards. Each
 * thread's items are freed as soon as its slices are made (a scratch
 * analysis's one run: it never holds every thread's items and its profile
 * at once), as bt_slicer_drop_items would: a later run builds them again. */
int bt_slicer_run2(struct bt_slicer *s, const struct bt_slice_sink *sink,
		   const struct bt_slice_sink *sink2, struct bt_err *err);

/* Hand the captured records (n of them) and their ends to a new owner,
 * who must keep them alive as long as s: s still reads them but no longer
 * frees them. */
struct bt_csample *bt_slicer_give_records(struct bt_slicer *s, size_t *n, struct bt_cends *ends);
/* The same for the stack tree's parent and frame arrays (ids 1..n). */
void bt_slicer_give_nodes(struct bt_slicer *s, uint32_t **parent, uint32_t **frame, size_t *n);
/* Free the items a run reads (a record's point, per thread, in time
 * order: 40 bytes a record, 80 a duration); the next run builds them again from the
 * records (bt_slicer_run2 drops them as it goes). */
void bt_slicer_drop_items(struct bt_slicer *s);
void bt_slicer_free(struct bt_slicer *s);

#endif
