/*
 * The Perfetto importer's events in the importers' store (importers/spill.h):
 * every track event and atrace print waits there until the whole trace is
 * read, because a track's events need not come in time order and a
 * multi-GB trace's events cannot stay in memory. An event is a record
 * keyed by its thread or track: a its frame, c its kind, flags its source,
 * its payload the counter value (when not 0) then the packed annotations.
 * An event of a track not yet described is pending, named by the track's
 * index until the track's key is known (pf_spill_resolve).
 */
#include <string.h>

#include "importers/perfetto/pf_int.h"

#define HAS_V 0x40   /* in flags: the payload begins with v (a value other than 0, of any kind) */

_Static_assert(sizeof(struct bt_spill_rec) + 8 + 4 + 8 * PF__NARGS + 8 <= BT_SPILL_MAX_REC, "a record fits");

/* A pending event's key: its track's, once described. */
static int track_key(void *ctx, int64_t track, int64_t *k)
{
	const struct pf_track *t = &((const struct pf *)ctx)->tracks[track];

	*k = t->rkey;
	return t->resolved;
}

void pf_spill_open(struct pf *p, size_t chunk)
{
	p->spill = bt_spill_new(p->path, "btrace-analyze-pf", chunk, track_key, p);
}

int pf_spill_event(struct pf *p, const struct pf_event *e, struct bt_err *err)
{
	struct bt_spill_rec r;
	unsigned char pay[8 + 4 + 8 * PF__NARGS + 8];
	size_t n = 0;

	if (e->ts > p->end_ts && e->kind < PF_EV_SCHED)   /* the scheduler's keep their own (sched_end) */
		p->end_ts = e->ts;
	r.k = e->k;
	r.ts = e->ts;
	r.seq = e->seq;
	r.a = e->frame;
	r.c = (uint8_t)e->kind;
	r.flags = (uint8_t)(e->src | (e->pending ? BT_SPILL_PENDING : 0) | (e->v != 0 ? HAS_V : 0));
	if (e->v != 0) {
		memcpy(pay, &e->v, 8);
		n = 8;
	}
	if (e->nargs)
		memcpy(pay + n, e->args, e->nargs);
	r.len = (uint16_t)(n + e->nargs);
	return bt_spill_add(p->spill, &r, pay, err);
}

void pf_spill_resolve(struct pf *p, struct pf_track *t, int64_t k)
{
	(void)p;
	t->rkey = k;
	t->resolved = 1;
}

int pf_spill_next(struct pf *p, struct pf_event *e, struct bt_err *err)
{
	const struct bt_spill_rec *r;
	const unsigned char *b;
	int rc = bt_spill_next(p->spill, &r, err);

	if (rc != 1)
		return rc;
	b = (const unsigned char *)(r + 1);
	e->k = r->k;
	e->ts = r->ts;
	e->seq = r->seq;
	e->kind = r->c;
	e->src = r->flags & ~(BT_SPILL_PENDING | HAS_V);
	e->pending = 0;
	e->frame = r->a;
	e->v = 0;
	if (r->flags & HAS_V) {
		memcpy(&e->v, b, 8);
		b += 8;
	}
	e->nargs = r->len - (r->flags & HAS_V ? 8u : 0u);
	e->args = e->nargs ? b : NULL;
	return 1;
}
