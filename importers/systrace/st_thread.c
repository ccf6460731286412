/*
 * Each thread's events, in time order, into what the database keeps: the
 * B/E markers pair into slices on the feed (nesting per thread; an E
 * closes the innermost open slice; slices still open at the end run to
 * the trace's end and are counted), the scheduler's events into the
 * thread's states (thread_states), and the two together give each slice
 * its CPU time (the time the thread ran inside it) where the trace has
 * scheduler data for it, and each wait marker its kernel waker (the
 * thread whose wakeup ended the wait's last sleep).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/rows.h"
#include "engine/recon/link.h"
#include "importers/systrace/st_int.h"

#define MAX_DEPTH 512   /* deeper begins are dropped (and counted), as for Perfetto */

/* Record types wait markers stand for (engine/db/rtype.h). */
enum { T_BINDER = 2, T_WAIT = 6, T_MONITOR = 8, T_LOCK = 12 };
/* Not a wait: the Object#notify that may end one (st_frame's type byte). */
#define T_NOTIFY 255

/* The decimal or 0x-hex number at s; 0 if none. */
static int number(const char *s, int64_t *out)
{
	int64_t v = 0;
	int base = 10, n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	for (;; s++, n++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' : base == 16 && *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: base == 16 && *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
		if (d < 0)
			break;
		if (v > (INT64_MAX - d) / base)
			return 0;
		v = v * base + d;
	}
	*out = v;
	return n > 0;
}

/* "... (owner tid: N)" or "monitor contention with owner NAME (N)": N. */
static int owner(const char *name, int64_t *tid)
{
	const char *p = strstr(name, "(owner tid: "), *open;

	if (p)
		return number(p + 12, tid);
	if (strncmp(name, "monitor contention with owner ", 30))
		return 0;
	for (open = strchr(name + 30, '('); open; open = strchr(open + 1, '('))
		if (number(open + 1, tid) && strchr(open, ')'))
			return 1;
	return 0;
}

int st_wait_type(const char *name, int64_t *obj)
{
	*obj = -1;
	switch (name[0]) {
	case 'O':
		if (!strncmp(name, "Object#wait(obj:", 16) && number(name + 16, obj))
			return T_WAIT;
		if ((!strncmp(name, "Object#notify(obj:", 18) && number(name + 18, obj)) ||
		    (!strncmp(name, "Object#notifyAll(obj:", 21) && number(name + 21, obj)))
			return T_NOTIFY;
		return ST_WAIT_NONE;
	case 'm':
		if (strncmp(name, "monitor contention with owner ", 30))
			return ST_WAIT_NONE;
		owner(name, obj);
		return T_MONITOR;
	case 'L':
		if (strncmp(name, "Lock contention on ", 19))
			return ST_WAIT_NONE;
		owner(name, obj);
		return strncmp(name + 19, "a monitor lock", 14) ? T_LOCK : T_MONITOR;
	case 'b':
		return !strncmp(name, "binder transaction", 18) || !strncmp(name, "binder transact[", 16) ? T_BINDER
												       : ST_WAIT_NONE;
	default:
		return ST_WAIT_NONE;
	}
}

static const char *edge_kind(int type)
{
	return type == T_MONITOR ? "monitor" : type == T_WAIT ? "wait" : type == T_BINDER ? "binder" : "lock";
}

struct st_open {
	uint32_t frame;
	int real;
	int64_t ts, run;   /* run: the thread's running time when it opened */
};

struct st_rep {
	struct st *s;
	struct bt_feed *feed;
	int64_t tid;
	struct bt_sched sc;       /* the thread's states, running time and wakers */
	struct bt_link_notes notes;   /* every thread's Object#notify markers, for the waits they ended */
	/* open slices */
	struct st_open *stack;
	size_t n, cap;
};

/* A blocked function: one of the trace's strings. */
static const char *caller_name(void *ctx, uint32_t id)
{
	const struct st *s = ctx;

	return id && id <= s->nstrs ? s->strs[id - 1] : NULL;
}

/* The record type of the wait frame stands for, or 0. */
static int wait_of(const struct st *s, uint32_t frame)
{
	return s->frame_type[frame] == T_NOTIFY ? 0 : s->frame_type[frame];
}

static int begin(struct st_rep *r, int64_t ts, uint32_t frame, struct bt_err *err)
{
	struct st *s = r->s;
	struct bt_slice sl;
	struct st_open *o;

	BT_GROW(r->stack, r->n + 1, r->cap);
	o = &r->stack[r->n++];
	o->frame = frame;
	o->ts = ts;
	o->run = bt_sched_ran(&r->sc);
	o->real = bt_feed_depth(r->feed) < MAX_DEPTH;
	if (!o->real) {
		s->deep++;
		return BT_OK;
	}
	if (s->frame_type[frame] == T_NOTIFY)
		bt_link_note(&r->notes, BT_LINK_NOTIFY, s->frame_obj[frame], r->tid, ts);
	memset(&sl, 0, sizeof sl);
	sl.tid = r->tid;
	sl.ts = ts;
	sl.frame_id = frame;
	sl.type = wait_of(s, frame) ? wait_of(s, frame) : -1;
	return bt_feed_open(r->feed, &sl, 0, wait_of(s, frame) != 0, err);
}

/* A wait marker's edge: its owner (a monitor's, by name) or the thread
 * whose wakeup ended it. */
static int wait_edge(struct st_rep *r, const struct bt_slice *sl, int type, int64_t obj, int64_t waker,
		     int64_t waker_ts, struct bt_err *err)
{
	struct st *s = r->s;

	s->edges++;
	return bt_db_exec(s->db, BT_SQL_INSERT_EDGE, err, "intmiimnmn", r->tid, edge_kind(type),
			  type == T_WAIT ? obj : INT64_MIN, sl->ts, sl->dur, waker >= 0 ? waker : INT64_MIN,
			  waker >= 0 ? waker_ts : INT64_MIN);
}

static int close_top(struct st_rep *r, int64_t ts, struct bt_err *err)
{
	struct st *s = r->s;
	struct st_open o = r->stack[--r->n];
	struct bt_slice *top, closed;
	int type;
	int64_t waker = -1, waker_ts = 0;

	if (!o.real)
		return BT_OK;
	top = bt_feed_top(r->feed);
	s->slices++;
	if (bt_sched_known(&r->sc, o.ts)) {
		top->cpu_dur = bt_sched_ran(&r->sc) - o.run;
		bt_feed_known(r->feed, BT_FEED_CPU);
	} else {
		s->cpu_unknown++;
		bt_feed_known(r->feed, BT_FEED_CPU_UNKNOWN);
	}
	type = wait_of(s, o.frame);
	if (type && r->sc.wake_tid > 0 && r->sc.wake_ts >= o.ts && r->sc.wake_ts <= ts) {
		waker = r->sc.wake_tid;
		waker_ts = r->sc.wake_ts;
		top->wakeup_tid = waker;
	} else if (type && (type == T_MONITOR || type == T_LOCK) && s->frame_obj[o.frame] > 0) {
		waker = s->frame_obj[o.frame];   /* the owner the marker names */
		waker_ts = ts;
	}
	if (bt_feed_close(r->feed, ts, &closed, err))
		return err->code;
	return type ? wait_edge(r, &closed, type, s->frame_obj[o.frame], waker, waker_ts, err) : BT_OK;
}

/* Before its first switch a thread's running time is unknown, with one
 * exception: a thread first seen being switched out ran on that CPU
 * since the CPU's first event (any other task there would have been
 * switched out before). A trace with no switch at all knows no thread's. */
static void initial(struct st_rep *r, const struct st_ev *first)
{
	const struct st *s = r->s;
	int64_t known = INT64_MAX;
	int running = first->kind == ST_EV_STOP;

	if (first->kind) {
		known = first->ts;
		if (running && first->a < s->ncpus && s->cpu_first[first->a] >= 0)
			known = s->cpu_first[first->a];
	}
	bt_sched_begin(&r->sc, r->tid, known, running);
}

static int event(struct st_rep *r, const struct st_ev *e, struct bt_err *err)
{
	struct st *s = r->s;

	bt_sched_advance(&r->sc, e->ts);
	if (e->kind != ST_EV_BEGIN && e->kind != ST_EV_END)
		return bt_sched_event(&r->sc, ST_SCHED_KIND(e->kind), e->ts, e->a, e->b, err);
	if (bt_sched_off_cpu(&r->sc, e->ts))
		s->not_running++;
	if (e->kind == ST_EV_BEGIN)
		return begin(r, e->ts, e->a, err);
	if (!r->n) {
		s->unmatched_end++;
		return BT_OK;
	}
	return close_top(r, e->ts, err);
}

static int replay(struct st_rep *r, struct st_reader *rd, struct bt_err *err)
{
	struct st *s = r->s;
	const struct st_ev *e;
	int rc;

	r->n = 0;
	initial(r, &rd->first_switch);
	while ((rc = st_store_next(rd, &e, err)) == 1)
		if (event(r, e, err))
			return err->code;
	if (rc)
		return rc;
	bt_sched_advance(&r->sc, s->last_ts);
	s->unfinished += r->n;
	while (r->n)
		if (close_top(r, s->last_ts, err))
			return err->code;
	return bt_sched_end(&r->sc, s->last_ts, err);
}

static int count_unlinked(struct st *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, s->db, BT_SQL_UNLINKED_WAITS, err))
		return err->code;
	if ((rc = bt_rows_next(r, err)) == 1)
		s->unlinked = (uint64_t)bt_rows_int(r, 0);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int by_tid(const void *a, const void *b)
{
	int64_t x = (*(struct st_thread *const *)a)->tid, y = (*(struct st_thread *const *)b)->tid;

	return x < y ? -1 : x > y;
}

int st_threads(struct st *s, struct bt_err *err)
{
	struct st_thread **order = bt_xmalloc((s->nthreads ? s->nthreads : 1) * sizeof *order);
	struct st_rep r;
	size_t i, k = 0;
	int rc = BT_OK;

	memset(&r, 0, sizeof r);
	r.s = s;
	bt_link_notes_init(&r.notes);
	r.sc.db = s->db;
	r.sc.waking = s->wakings > 0;
	r.sc.caller = caller_name;
	r.sc.ctx = s;
	r.feed = bt_feed_new(s->db, s->o->taps);
	if (s->switches + s->wakeups + s->wakings > 0)   /* each method's self time by state too */
		bt_feed_states(r.feed);
	for (i = 0; i < s->nframes; i++)
		bt_feed_frame(r.feed, (uint32_t)i + 1, s->frames[i]);
	for (i = 0; i < s->nthreads; i++)
		if (s->threads[i].begins)
			order[k++] = &s->threads[i];
		else
			s->unmatched_end += s->threads[i].ends;
	s->slices_begun = k > 0;
	for (i = 0; i < s->nthreads && !s->slices_begun; i++)   /* no slices: every thread's states */
		if (s->threads[i].tid > 0)
			order[k++] = &s->threads[i];
	qsort(order, k, sizeof *order, by_tid);   /* the store's order */
	rc = st_store_order(s, err);
	for (i = 0; i < k && !rc; i++) {
		struct st_reader rd;
		r.tid = order[i]->tid;
		rc = st_store_begin(s, order[i], &rd, err);
		if (!rc)
			rc = replay(&r, &rd, err);
		st_store_end(&rd);
	}
	free(order);
	free(r.stack);
	if (!rc)
		rc = bt_sched_flush(&r.sc, err);
	s->states += r.sc.states;
	if (!rc)   /* an Object#wait no wakeup of the scheduler's ended: the notify that did */
		rc = bt_link_waits(&r.notes, s->db, err);
	bt_link_notes_release(&r.notes);
	if (!rc)
		rc = count_unlinked(s, err);
	if (!rc) {
		rc = bt_feed_finish(r.feed, err);
		r.feed = NULL;
	}
	bt_feed_free(r.feed);
	return rc;
}
