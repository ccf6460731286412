/*
 * A thread's scheduler events, in time order, into what the database
 * keeps of them: its states (thread_states: Running on a CPU, Runnable,
 * Sleeping, Uninterruptible with the blocked function, Dead...), its
 * running time (the CPU time of the slices open around it) and who woke
 * it (kernel wakers). One place for every importer of scheduler data
 * (systrace's text, Perfetto's full and compact sched).
 */
#ifndef BT_IMP_SCHED_H
#define BT_IMP_SCHED_H

#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"

/* Events, as a thread sees them. */
enum bt_sched_kind {
	BT_SCHED_RUN = 1,     /* switched in; a: cpu */
	BT_SCHED_STOP,        /* switched out; a: cpu, b: the state it left in (BT_STATE_*) */
	BT_SCHED_WAKEUP,      /* sched_wakeup(_new); a: the waker's tid */
	BT_SCHED_WAKING,      /* sched_waking; a: the waker's tid */
	BT_SCHED_BLOCKED,     /* sched_blocked_reason; a: the caller's string id (0 none), b: iowait */
	BT_SCHED_DEAD         /* sched_process_free: the task is gone */
};

/* A thread's states (thread_states.state by index). */
enum bt_state {
	BT_STATE_UNKNOWN, BT_STATE_RUNNING, BT_STATE_RUNNABLE, BT_STATE_SLEEPING, BT_STATE_UNINTERRUPTIBLE,
	BT_STATE_STOPPED, BT_STATE_TRACED, BT_STATE_DEAD, BT_STATE_ZOMBIE, BT_STATE_PARKED, BT_STATE_IDLE,
	BT_STATE_WAKEKILL, BT_STATE_WAKING, BT_STATE_NOLOAD, BT_STATE_PREEMPTED, BT_STATE__COUNT
};
extern const char *const bt_state_name[BT_STATE__COUNT];

/* The state of a task switched out, from prev_state's letter as ftrace
 * prints it ('R', 'S', 'D', ...; "R+" is preempted); -1 if none. */
int bt_state_of_letter(const char *v, size_t n);
/* The same from the kernel's prev_state bits (Perfetto's sched_switch
 * and compact sched); preempted: the TASK_REPORT_MAX bit, a runnable
 * task switched out while it could run. */
int bt_state_of_bits(int64_t bits);


/* One thread's replay. Fill the first block, then bt_sched_begin for
 * each thread; the rest is the replay's own. */
struct bt_sched {
	struct bt_db *db;         /* NULL: nothing is written (a replay for CPU times only) */
	int waking;               /* the trace has sched_waking: its wakers, not sched_wakeup's */
	int64_t main_tid;         /* its sleeps each get a blocking edge to their waker (0: none) */
	/* the blocked function of a BLOCKED event's a; NULL: none */
	const char *(*caller)(void *ctx, uint32_t id);
	void *ctx;
	uint64_t states, sleep_edges, sleep_unwoken;   /* rows and edges written */
	int64_t span_first, span_end;                 /* of the states written (with states > 0) */
	/* the thread */
	int64_t tid;
	int state;                /* BT_STATE_*; UNKNOWN before its first scheduler event */
	int64_t since, cpu, waker, io;
	uint32_t blocked;         /* the current state's caller */
	int running;
	int64_t run, last;        /* running time up to last */
	int64_t known;            /* from here on its running time is known; INT64_MAX: never */
	int64_t wake_ts, wake_tid;   /* the last wakeup */
	/* the last uninterruptible state, written when the next one ends or
	 * the thread does: its blocked reason comes as it is woken */
	int pend;
	int64_t pend_ts, pend_dur, pend_io, pend_waker;
	uint32_t pend_caller;
};

/* Start thread tid's replay. Its running time is known from known_from
 * on (INT64_MAX: never, a trace with no switch of it); running: it was
 * on a CPU then (its first switch switched it out). */
void bt_sched_begin(struct bt_sched *r, int64_t tid, int64_t known_from, int running);
/* Time moves to ts (every event of the thread, slices' too, in order). */
void bt_sched_advance(struct bt_sched *r, int64_t ts);
/* One scheduler event at ts (after bt_sched_advance(ts)). Error codes of
 * the database's (err set). */
int bt_sched_event(struct bt_sched *r, int kind, int64_t ts, uint32_t a, uint32_t b, struct bt_err *err);
/* The thread's running time so far, and whether it is known at ts. */
static inline int64_t bt_sched_ran(const struct bt_sched *r) { return r->run; }
static inline int bt_sched_known(const struct bt_sched *r, int64_t ts) { return ts >= r->known; }
/* The thread is known to be off its CPU at ts (a slice event there is odd). */
static inline int bt_sched_off_cpu(const struct bt_sched *r, int64_t ts)
{
	return r->state != BT_STATE_UNKNOWN && !r->running && ts >= r->known;
}
/* End the thread at ts (the trace's end): its last state written. */
int bt_sched_end(struct bt_sched *r, int64_t ts, struct bt_err *err);
/* After the last thread: the rows and edges still waiting. */
int bt_sched_flush(struct bt_sched *r, struct bt_err *err);

#endif
