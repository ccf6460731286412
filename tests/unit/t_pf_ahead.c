/*
 * Unit tests of the Perfetto importer's work-ahead ring
 * (importers/perfetto/pf_ahead.c): items are claimed in order, prepared by
 * no worker (inline), one or two (finishing out of order: uneven work),
 * and taken by the importer in order, each once, with what its own claim
 * and work made of it; the end is seen once; a ring stopped midway (the
 * importer's error) neither hangs nor leaks, nor do items that took a big
 * arena (freed as they are given back).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/perfetto/pf_ahead.h"
#include "tests/tap.h"

struct item {
	size_t i;
	uint64_t value;
};

struct ctx {
	size_t n;          /* items there are */
	size_t next;       /* the claim expected next */
	int out_of_order;  /* a claim came out of order */
	size_t big;        /* every big-th item takes a 20 MB arena (0: none) */
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static int claim(void *vctx, size_t i, struct pf_ahead_slot *s)
{
	struct ctx *c = vctx;
	struct item *it;

	if (i != c->next++)
		c->out_of_order = 1;
	if (i >= c->n)
		return 0;
	s->out = it = pf_arena_alloc(&s->arena, sizeof *it);
	it->i = i;
	it->value = 0;
	return 1;
}

/* Uneven work, so two workers finish their items in either order. */
static void work(void *vctx, struct pf_ahead_slot *s)
{
	struct ctx *c = vctx;
	struct item *it = s->out;
	uint64_t v = it->i, k, spin = mix(it->i) % 4000;

	for (k = 0; k < spin; k++)
		v = mix(v);
	if (c->big && it->i % c->big == 0)
		memset(pf_arena_alloc(&s->arena, (size_t)20 << 20), 1, 4096);
	it->value = mix(it->i) + (v == 1);   /* the spin's result kept alive; 1 never comes */
}

static void run(int workers, size_t n, size_t big)
{
	struct ctx c = { n, 0, 0, big };
	struct pf_ahead *a = pf_ahead_start(claim, work, &c, workers);
	struct pf_ahead_slot *s;
	size_t i, taken = 0, wrong = 0;
	char what[128];

	for (i = 0; (s = pf_ahead_take(a, i)) != NULL; i++) {
		const struct item *it = s->out;
		taken++;
		wrong += it->i != i || it->value != mix(i);
		pf_ahead_give(a, s);
	}
	snprintf(what, sizeof what, "%d worker(s): %zu items taken in order, each as prepared", workers, n);
	ok(taken == n && !wrong, what);
	snprintf(what, sizeof what, "%d worker(s): claims in order, the end claimed once", workers);
	ok(!c.out_of_order && c.next == n + 1, what);
	ok(!pf_ahead_take(a, n), "past the end: still nothing");
	pf_ahead_stop(a);   /* with big items, ASan sees their arenas freed */
}

/* The importer stops at item stop_at (an error): the workers may be
 * waiting for room, or preparing. */
static void stop_early(int workers, size_t stop_at)
{
	struct ctx c = { 100000, 0, 0, 0 };
	struct pf_ahead *a = pf_ahead_start(claim, work, &c, workers);
	struct pf_ahead_slot *s;
	size_t i;
	char what[128];

	for (i = 0; i < stop_at && (s = pf_ahead_take(a, i)) != NULL; i++)
		if (i + 1 < stop_at)
			pf_ahead_give(a, s);   /* the last one is still held when it stops */
	pf_ahead_stop(a);
	snprintf(what, sizeof what, "%d worker(s): stopped at item %zu of 100000, claims went no further than the ring",
		 workers, stop_at);
	ok(c.next < stop_at + 16 && !c.out_of_order, what);
}

int main(void)
{
	int w;

	for (w = 0; w <= 2; w++) {
		run(w, 0, 0);
		run(w, 1, 0);
		run(w, 20000, 0);
		run(w, 40, 7);
		stop_early(w, 1);
		stop_early(w, 50);
	}
	return done_testing();
}
