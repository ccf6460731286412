/*
 * A thread's scheduler events into states, running time and kernel
 * wakers (sched.h): the one state machine the systrace and Perfetto
 * importers both feed, so the same events give the same rows.
 */
#include <string.h>

#include "importers/sched.h"

const char *const bt_state_name[BT_STATE__COUNT] = {
	"unknown", "running", "runnable", "sleeping", "uninterruptible", "stopped", "traced", "dead",
	"zombie", "parked", "idle", "wakekill", "waking", "noload", "runnable (preempted)"
};

int bt_state_of_letter(const char *v, size_t n)
{
	if (!n)
		return -1;
	switch (v[0]) {
	case 'R': return BT_STATE_RUNNABLE;
	case 'S': return BT_STATE_SLEEPING;
	case 'D': return BT_STATE_UNINTERRUPTIBLE;
	case 'T': return BT_STATE_STOPPED;
	case 't': return BT_STATE_TRACED;
	case 'X': case 'x': return BT_STATE_DEAD;
	case 'Z': return BT_STATE_ZOMBIE;
	case 'P': return BT_STATE_PARKED;
	case 'I': return BT_STATE_IDLE;
	case 'K': return BT_STATE_WAKEKILL;
	case 'W': return BT_STATE_WAKING;
	case 'N': return BT_STATE_NOLOAD;
	default: return -1;
	}
}

/* The TASK_REPORT bits of kernels since 4.14 (what Android's from API 28
 * on have): 0x100, TASK_REPORT_MAX, marks a task preempted while it could
 * run. The lowest state bit set decides, as the kernel prints it. */
int bt_state_of_bits(int64_t bits)
{
	static const int by_bit[] = { BT_STATE_SLEEPING, BT_STATE_UNINTERRUPTIBLE, BT_STATE_STOPPED,
				      BT_STATE_TRACED, BT_STATE_DEAD, BT_STATE_ZOMBIE, BT_STATE_PARKED, BT_STATE_IDLE };
	int i;

	if (bits < 0)
		return -1;
	if (bits & 0x100)
		return BT_STATE_PREEMPTED;
	for (i = 0; i < 8; i++)
		if (bits & ((int64_t)1 << i))
			return by_bit[i];
	return BT_STATE_RUNNABLE;
}

void bt_sched_begin(struct bt_sched *r, int64_t tid, int64_t known_from, int running)
{
	r->tid = tid;
	r->state = BT_STATE_UNKNOWN;
	r->since = 0;
	r->cpu = r->waker = r->io = -1;
	r->blocked = 0;
	r->run = 0;
	r->last = INT64_MIN;
	r->known = known_from;
	r->running = running;
	r->wake_ts = 0;
	r->wake_tid = -1;
	r->pend = 0;
}

void bt_sched_advance(struct bt_sched *r, int64_t ts)
{
	if (r->last == INT64_MIN)
		r->last = ts;   /* the thread's first event */
	if (ts <= r->last)
		return;
	if (r->running)
		r->run += ts - r->last;
	r->last = ts;
}

/* The states and edges written so far, in the database (the bulk
 * writer's buffer handed over and written). */
int bt_sched_flush(struct bt_sched *r, struct bt_err *err)
{
	return r->db ? bt_db_flush(r->db, err) : BT_OK;
}

/* One state, into the bulk writer's buffer (written on its thread). */
static int state_row(struct bt_sched *r, int state, int64_t ts, int64_t dur, int64_t io, uint32_t caller,
		     int64_t waker, struct bt_err *err)
{
	int64_t v[7];

	if (!r->db)
		return BT_OK;
	if (!r->states++) {
		r->span_first = ts;
		r->span_end = ts + dur;
	} else {
		r->span_first = ts < r->span_first ? ts : r->span_first;
		r->span_end = ts + dur > r->span_end ? ts + dur : r->span_end;
	}
	v[0] = r->tid;
	v[1] = ts;
	v[2] = dur;
	v[3] = state;
	v[4] = state == BT_STATE_RUNNING ? r->cpu : -1;
	v[5] = (state == BT_STATE_RUNNABLE || state == BT_STATE_PREEMPTED) && waker > 0 ? waker : -1;
	v[6] = io >= 0 ? io : -1;
	return bt_db_insert_thread_state(r->db, v, caller && r->caller ? r->caller(r->ctx, caller) : NULL, err);
}

static int flush_pending(struct bt_sched *r, struct bt_err *err)
{
	if (!r->pend)
		return BT_OK;
	r->pend = 0;
	return state_row(r, BT_STATE_UNINTERRUPTIBLE, r->pend_ts, r->pend_dur, r->pend_io, r->pend_caller, -1, err);
}

/* End the current state at ts: its row, if it has a length. An
 * uninterruptible one waits for its blocked reason. */
static int end_state(struct bt_sched *r, int64_t ts, struct bt_err *err)
{
	if (r->state == BT_STATE_UNKNOWN || ts <= r->since)
		return BT_OK;
	if (r->state != BT_STATE_UNINTERRUPTIBLE)
		return state_row(r, r->state, r->since, ts - r->since, r->io, r->blocked, r->waker, err);
	if (flush_pending(r, err))
		return err->code;
	r->pend = 1;
	r->pend_ts = r->since;
	r->pend_dur = ts - r->since;
	r->pend_io = r->io;
	r->pend_caller = r->blocked;
	return BT_OK;
}

/* The main thread's sleep ending at ts: its edge, to waker (-1: no
 * wakeup seen; 0: the idle task, an interrupt on an idle CPU: a timer's
 * end, a device's), kind "sleep" or "io" (uninterruptible). */
static int sleep_edge(struct bt_sched *r, int64_t ts, int64_t waker, struct bt_err *err)
{
	int64_t v[BT_DB_EDGE_COLS];

	if (!r->db || r->tid != r->main_tid || ts <= r->since ||
	    (r->state != BT_STATE_SLEEPING && r->state != BT_STATE_UNINTERRUPTIBLE))
		return BT_OK;
	r->sleep_edges++;
	r->sleep_unwoken += waker < 0;
	v[0] = r->tid;
	v[1] = r->state != BT_STATE_SLEEPING;
	v[2] = r->since;
	v[3] = ts - r->since;
	v[4] = waker >= 0 ? waker : -1;
	v[5] = waker >= 0 ? ts : -1;
	return bt_db_insert_sleep_edge(r->db, v, err);
}

static int set_state(struct bt_sched *r, int state, int64_t ts, int64_t waker, struct bt_err *err)
{
	if (sleep_edge(r, ts, waker, err) || end_state(r, ts, err))
		return err->code;
	r->state = state;
	r->since = ts;
	r->waker = waker;
	r->io = -1;
	r->blocked = 0;
	return BT_OK;
}

int bt_sched_event(struct bt_sched *r, int kind, int64_t ts, uint32_t a, uint32_t b, struct bt_err *err)
{
	switch (kind) {
	case BT_SCHED_RUN:
		if (set_state(r, BT_STATE_RUNNING, ts, -1, err))
			return err->code;
		r->running = 1;
		r->cpu = a;
		return BT_OK;
	case BT_SCHED_STOP:
		r->running = 0;
		return set_state(r, b < BT_STATE__COUNT ? (int)b : BT_STATE_UNKNOWN, ts, -1, err);
	case BT_SCHED_WAKEUP:
	case BT_SCHED_WAKING:
		if ((kind == BT_SCHED_WAKING) != r->waking)
			return BT_OK;
		r->wake_ts = ts;
		r->wake_tid = a;
		if (r->state == BT_STATE_RUNNING || r->state == BT_STATE_RUNNABLE || r->state == BT_STATE_PREEMPTED)
			return BT_OK;   /* awake already */
		return set_state(r, BT_STATE_RUNNABLE, ts, a, err);
	case BT_SCHED_BLOCKED:   /* of the last uninterruptible sleep: it comes as it is woken */
		if (r->state == BT_STATE_UNINTERRUPTIBLE) {
			r->io = b;
			r->blocked = a;
		} else if (r->pend) {
			r->pend_io = b;
			r->pend_caller = a;
		}
		return BT_OK;
	case BT_SCHED_DEAD:
		r->running = 0;
		return r->state == BT_STATE_DEAD ? BT_OK : set_state(r, BT_STATE_DEAD, ts, -1, err);
	default:
		return BT_OK;
	}
}

int bt_sched_end(struct bt_sched *r, int64_t ts, struct bt_err *err)
{
	bt_sched_advance(r, ts);
	if (end_state(r, ts, err))
		return err->code;
	return flush_pending(r, err);
}
