/*
 * A mapped trace's packets decoded ahead (pf_ahead.c): batches of packets
 * are claimed by walking the top-level Trace as pf_stream.c does, and each
 * decoded by the hand decoder into its slot's arena, compact sched's names
 * found (pf_comms_find), by one of two workers
 * (the importer's own thread mostly waits for them in this first pass);
 * pf_stream asks for each packet by its offset and decodes it itself if no
 * worker did (protobuf-c's packets, or past anything odd, where the claims
 * stop and pf_stream reads and reports as before).
 */
#include <stdint.h>
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_ahead.h"
#include "importers/perfetto/pf_int.h"

#define BATCH_PACKETS 256
#define BATCH_BYTES ((size_t)256 << 10)

struct pre {
	uint64_t at;   /* its key's offset */
	const uint8_t *data;
	size_t len;
	struct pf_decoded d;
};

struct batch {
	struct pre v[BATCH_PACKETS];
	size_t n;
};

struct pf_predecode {
	const uint8_t *map;
	size_t len, pos;   /* the claims' cursor */
	int done;          /* the claims met the end or something odd */
	uint32_t max_packet;
	struct pf_ahead *a;
	struct pf_ahead_slot *s;   /* the batch being used, and its next packet */
	size_t item, next;
	int over;          /* no more batches */
};

/* The next packet's bytes from the cursor, other fields skipped; 0 at the
 * end or at anything pf_stream would report. */
static int next_packet(struct pf_predecode *r, uint64_t *at, const uint8_t **data, size_t *len)
{
	while (r->pos < r->len) {
		uint64_t key, v;
		size_t i = r->pos;
		if (!pf_mem_varint(r->map, r->len, &i, &key) || !(key >> 3))
			return 0;
		switch (key & 7) {
		case 0:
			if (!pf_mem_varint(r->map, r->len, &i, &v))
				return 0;
			break;
		case 1:
		case 5:
			if (r->len - i < ((key & 7) == 1 ? 8u : 4u))
				return 0;
			i += (key & 7) == 1 ? 8 : 4;
			break;
		case 2:
			if (!pf_mem_varint(r->map, r->len, &i, &v) || v > r->len - i)
				return 0;
			if ((key >> 3) == 1) {
				if (v > r->max_packet)
					return 0;
				*at = r->pos;
				*data = r->map + i;
				*len = (size_t)v;
				r->pos = i + (size_t)v;
				return 1;
			}
			i += (size_t)v;
			break;
		default:
			return 0;
		}
		r->pos = i;
	}
	return 0;
}

/* The next batch's packets (pf_ahead_claim): where they are. */
static int claim(void *ctx, size_t i, struct pf_ahead_slot *s)
{
	struct pf_predecode *r = ctx;
	struct batch *b;
	size_t bytes = 0;

	(void)i;
	if (r->done)
		return 0;
	s->out = b = pf_arena_alloc(&s->arena, sizeof *b);
	b->n = 0;
	while (b->n < BATCH_PACKETS && bytes < BATCH_BYTES) {
		struct pre *e = &b->v[b->n];
		if (!next_packet(r, &e->at, &e->data, &e->len)) {
			r->done = 1;
			break;
		}
		bytes += e->len;
		b->n++;
	}
	return b->n > 0;
}

/* Their decoding (pf_ahead_work). */
static void work(void *ctx, struct pf_ahead_slot *s)
{
	struct batch *b = s->out;
	size_t j;

	(void)ctx;
	for (j = 0; j < b->n; j++) {
		struct pre *e = &b->v[j];
		size_t cur = s->arena.cur, used = s->arena.used;
		if (e->len > BATCH_BYTES || !pf_wire_packet(&s->arena, e->data, e->len, &e->d.pk)) {
			pf_arena_back(&s->arena, cur, used);   /* big ones gain nothing here, and cost their arena twice */
			e->d.pk = NULL;
		} else if (e->d.pk->ftrace_events && e->d.pk->ftrace_events->compact_sched) {
			if (!s->keep)
				s->keep = pf_comms_seen();
			e->d.comms.arena = &s->arena;
			pf_comms_find(&e->d.comms, s->keep, e->d.pk->ftrace_events->compact_sched);
		}
	}
}

struct pf_predecode *pf_predecode_start(const uint8_t *map, size_t len, uint32_t max_packet)
{
	struct pf_predecode *r = bt_xcalloc(1, sizeof *r);

	r->map = map;
	r->len = len;
	r->max_packet = max_packet;
	r->a = pf_ahead_start(claim, work, r, 2);
	return r;
}

const struct pf_decoded *pf_predecode_packet(struct pf_predecode *r, uint64_t at)
{
	const struct batch *b;

	while (!r->over) {
		if (!r->s && !(r->s = pf_ahead_take(r->a, r->item))) {
			r->over = 1;
			break;
		}
		b = r->s->out;
		if (r->next < b->n) {
			if (b->v[r->next].at != at)
				return NULL;   /* not where the worker is: pf_stream skipped ahead or back */
			return &b->v[r->next++].d;
		}
		pf_ahead_give(r->a, r->s);
		r->s = NULL;
		r->item++;
		r->next = 0;
	}
	return NULL;
}

void pf_predecode_stop(struct pf_predecode *r)
{
	if (!r)
		return;
	pf_ahead_stop(r->a);
	free(r);
}
