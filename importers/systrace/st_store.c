/*
 * Each thread's events, kept until the whole trace is read: a thread's
 * slices must reach the feed together, and a systrace interleaves all
 * threads. They wait in the importers' store (importers/spill.h) keyed by
 * tid, which spills sorted runs to a file so memory stays flat however
 * long the trace, and are read back thread by thread in tid order, each
 * thread's in time order (of equal times, in the order they came).
 */
#include <assert.h>
#include <string.h>

#include "importers/systrace/st_int.h"

#ifndef ST_SPILL_CHUNK
#define ST_SPILL_CHUNK 0   /* the store's chunk (tests/unit/t_st_store.c: less) */
#endif

int st_store_add(struct st *s, struct st_thread *t, const struct st_ev *e, struct bt_err *err)
{
	struct bt_spill_rec r;

	if ((e->kind == ST_EV_RUN || e->kind == ST_EV_STOP) && (!t->first_switch.kind || e->ts < t->first_switch.ts))
		t->first_switch = *e;   /* the first in time; of equal times, the first that came */
	if (!s->store)
		s->store = bt_spill_new(s->path, "btrace-analyze-st", ST_SPILL_CHUNK, NULL, NULL);
	assert(e->b < BT_SPILL_PENDING && e->kind <= UINT8_MAX);
	r.k = t->tid;
	r.ts = e->ts;
	r.seq = (int64_t)++s->stored;
	r.a = e->a;
	r.c = (uint8_t)e->kind;
	r.flags = (uint8_t)e->b;   /* a state or iowait: a few bits */
	r.len = 0;
	return bt_spill_add(s->store, &r, NULL, err);
}

/* The next record of the store into s->peek: 1, 0 at its end, -1 an error. */
static int peek(struct st *s, struct bt_err *err)
{
	int rc;

	if (s->peek)
		return 1;
	if (s->drained || !s->store)
		return 0;
	if (!s->ordered) {
		if (bt_spill_order(s->store, err))
			return -1;
		s->ordered = 1;
	}
	rc = bt_spill_next(s->store, &s->peek, err);
	s->drained = rc == 0;
	return rc;
}

int st_store_begin(struct st *s, struct st_thread *t, struct st_reader *rd, struct bt_err *err)
{
	int rc;

	memset(rd, 0, sizeof *rd);
	rd->s = s;
	rd->tid = t->tid;
	rd->first_switch = t->first_switch;
	while ((rc = peek(s, err)) == 1 && s->peek->k < t->tid)
		s->peek = NULL;   /* a thread not replayed */
	return rc < 0 ? err->code : BT_OK;
}

int st_store_next(struct st_reader *rd, const struct st_ev **e, struct bt_err *err)
{
	struct st *s = rd->s;
	int rc = peek(s, err);

	if (rc < 0)
		return err->code;
	if (!rc || s->peek->k != rd->tid)
		return 0;
	rd->ev.ts = s->peek->ts;
	rd->ev.a = s->peek->a;
	rd->ev.kind = s->peek->c;
	rd->ev.b = s->peek->flags;
	s->peek = NULL;
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
	s->peek = NULL;
}
