/*
 * Each thread's events, kept until the whole trace is read: a thread's
 * slices must reach the feed together, and a systrace interleaves all
 * threads. They wait in the importers' store (importers/spill.h), keyed
 * by the thread, so memory stays flat however long the trace, and come
 * back a thread at a time in time order, ties in the order they came.
 * An event is a record: a its a, c its kind, flags its b (a state, or
 * whether a blocked reason was I/O), no payload.
 */
#include <string.h>

#include "importers/sched.h"
#include "importers/systrace/st_int.h"

#ifndef ST_CHUNK
#define ST_CHUNK ((size_t)8 << 20)   /* bytes of events sorted at a time: 256k events, whose sort
				      * stays in the caches (the store's 32 MiB took 10 % longer on
				      * a 126 MB trace; tests/unit/t_st_store.c: less) */
#endif

_Static_assert(BT_STATE__COUNT < BT_SPILL_PENDING, "an event's b fits in a record's flags");

int st_store_add(struct st *s, struct st_thread *t, const struct st_ev *e, struct bt_err *err)
{
	struct bt_spill_rec r;

	if ((e->kind == ST_EV_RUN || e->kind == ST_EV_STOP) && (!t->first_switch.kind || e->ts < t->first_switch.ts))
		t->first_switch = *e;   /* the first in time, the first that came on a tie */
	if (!s->store)
		s->store = bt_spill_new(s->path, "btrace-analyze-st", ST_CHUNK, NULL, NULL);
	memset(&r, 0, sizeof r);
	r.k = t->tid;
	r.ts = e->ts;
	r.seq = s->seq++;
	r.a = e->a;
	r.c = (uint8_t)e->kind;
	r.flags = (uint8_t)e->b;
	return bt_spill_add(s->store, &r, NULL, err);
}

int st_store_order(struct st *s, struct bt_err *err)
{
	s->peeked = 0;
	return s->store ? bt_spill_order(s->store, err) : BT_OK;
}

/* The next record into s->peek: 1, 0 at the end, -1 an error. */
static int peek(struct st *s, struct bt_err *err)
{
	const struct bt_spill_rec *r;
	int rc;

	if (s->peeked)
		return 1;
	if (!s->store || (rc = bt_spill_next(s->store, &r, err)) == 0)
		return 0;
	if (rc < 0)
		return -1;
	s->peek_k = r->k;
	s->peek.ts = r->ts;
	s->peek.a = r->a;
	s->peek.kind = r->c;
	s->peek.b = r->flags;
	s->peeked = 1;
	return 1;
}

int st_store_begin(struct st *s, struct st_thread *t, struct st_reader *rd, struct bt_err *err)
{
	int rc;

	memset(rd, 0, sizeof *rd);
	rd->s = s;
	rd->t = t;
	rd->first_switch = t->first_switch;
	/* the threads come in the store's order: those passed over are not read */
	while ((rc = peek(s, err)) == 1 && s->peek_k < t->tid)
		s->peeked = 0;
	return rc < 0 ? err->code : BT_OK;
}

int st_store_next(struct st_reader *rd, const struct st_ev **e, struct bt_err *err)
{
	struct st *s = rd->s;
	int rc = peek(s, err);

	if (rc < 0)
		return err->code;
	if (!rc || s->peek_k != rd->t->tid)
		return 0;
	rd->ev = s->peek;
	s->peeked = 0;
	*e = &rd->ev;
	return 1;
}

void st_store_end(struct st_reader *rd)
{
	memset(rd, 0, sizeof *rd);
}

void st_store_close(struct st *s)
{
	bt_spill_free(s->store);
	s->store = NULL;
}
