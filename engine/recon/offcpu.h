/*
 * Off-CPU time by scheduler state: where a trace has thread states
 * (thread_states), each thread's time inside its top-level slices (the
 * wall the reports show) split into runnable, sleeping, I/O and other
 * uninterruptible time, stored in the threads table; and each method's
 * self time, in the methods table.
 */
#ifndef BT_OFFCPU_H
#define BT_OFFCPU_H

#include <stddef.h>
#include <stdint.h>

#include "engine/db/db.h"

/* Thread tid in frame from a to b. */
struct bt_time_span {
	int64_t tid, frame, a, b;
};

/* The top-level slices seen so far, in the order given; with the methods'
 * split, every slice's self time as segments. */
struct bt_offcpu {
	struct bt_time_span *top;   /* frame unused */
	size_t n, cap;
	struct bt_time_span *self;
	size_t nself, selfcap;
	/* bt_offcpu_closed's: the closed slices no parent has taken yet
	 * (frame: their depth) */
	struct bt_time_span *kids;
	size_t nkids, kcap;
};

void bt_offcpu_init(struct bt_offcpu *o);
void bt_offcpu_release(struct bt_offcpu *o);

/* A top-level slice of tid from ts to end. Each thread's come together, in time
 * order (as a feed closes them). */
void bt_offcpu_add(struct bt_offcpu *o, int64_t tid, int64_t ts, int64_t end);

/* Slice of tid running frame's own code from a to b (its self time between
 * its children). Each thread's come together, in time order. */
void bt_offcpu_self(struct bt_offcpu *o, int64_t tid, int64_t frame, int64_t a, int64_t b);

/* The same from slices given as they close, children first (a slicer's
 * order, thread by thread): each one's self time between its children,
 * and the top-level ones. bt_offcpu_sort then puts each thread's
 * together in time order, as bt_offcpu_store wants them; bt_offcpu_move
 * adds another's (a second part's threads). */
void bt_offcpu_closed(struct bt_offcpu *o, int64_t tid, int64_t depth, int64_t frame, int64_t ts, int64_t end,
		      int idle);
void bt_offcpu_thread_done(struct bt_offcpu *o);
void bt_offcpu_move(struct bt_offcpu *into, struct bt_offcpu *from);
void bt_offcpu_sort(struct bt_offcpu *o);

/*
 * Read thread_states and set threads.runnable_dur, sleeping_dur, io_dur
 * and uninterruptible_dur of every thread whose states cover some of its
 * top-level slices: their overlap with them (0 for a class it was never
 * in there); its row is made if the importer has not written it yet. A
 * thread without states, without slices (no wall to split) or whose
 * states cover none of them keeps NULL. With self segments, the same of
 * each method's self time in methods.self_runnable_ns ... (the methods
 * stored before). BT_ESQL on a database error.
 */
int bt_offcpu_store(const struct bt_offcpu *o, struct bt_db *db, struct bt_err *err);

#endif
