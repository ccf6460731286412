/*
 * The ring of pf_ahead.h: NSLOT slots, item i in slot i % NSLOT. A worker
 * claims the next item while the ring has room (the importer has given
 * back item i - NSLOT), prepares it unlocked and marks it ready; the
 * importer waits for its item's mark. One mutex orders a slot's contents
 * between the threads.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_ahead.h"

#define NSLOT 6         /* a few items per worker, to ride out a slow one */
#define MAX_WORKERS 2   /* the machines this runs on have two cores or more */
#define SLOT_KEEP ((size_t)8 << 20)   /* more than this is freed with the item (a 15 MB
					 * bundle decodes into 60: not to be kept in every slot) */

struct pf_ahead {
	pf_ahead_claim claim;
	pf_ahead_work work;
	void *ctx;
	struct pf_ahead_slot slots[NSLOT];
	pthread_t threads[MAX_WORKERS];
	int nthreads;
	pthread_mutex_t mu;
	pthread_cond_t room, ready;
	size_t claimed;   /* items claimed */
	size_t given;     /* items the importer is done with */
	size_t end;       /* the first item there is not; SIZE_MAX not known yet */
	int stop;
};

static void *worker(void *arg)
{
	struct pf_ahead *a = arg;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		struct pf_ahead_slot *s;
		size_t i;
		while (!a->stop && a->end == SIZE_MAX && a->claimed - a->given >= NSLOT)
			pthread_cond_wait(&a->room, &a->mu);
		if (a->stop || a->end != SIZE_MAX)
			break;
		i = a->claimed++;
		s = &a->slots[i % NSLOT];
		if (!a->claim(a->ctx, i, s)) {
			a->end = i;
			pthread_cond_broadcast(&a->ready);
			break;
		}
		pthread_mutex_unlock(&a->mu);
		a->work(a->ctx, s);
		pthread_mutex_lock(&a->mu);
		s->ready = i + 1;
		pthread_cond_broadcast(&a->ready);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

struct pf_ahead *pf_ahead_start(pf_ahead_claim claim, pf_ahead_work work, void *ctx, int workers)
{
	struct pf_ahead *a = bt_xcalloc(1, sizeof *a);

	a->claim = claim;
	a->work = work;
	a->ctx = ctx;
	a->end = SIZE_MAX;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->room, NULL);
	pthread_cond_init(&a->ready, NULL);
	if (workers > MAX_WORKERS)
		workers = MAX_WORKERS;
	while (a->nthreads < workers && pthread_create(&a->threads[a->nthreads], NULL, worker, a) == 0)
		a->nthreads++;
	return a;
}

struct pf_ahead_slot *pf_ahead_take(struct pf_ahead *a, size_t i)
{
	struct pf_ahead_slot *s = &a->slots[i % NSLOT];

	if (!a->nthreads) {
		if (!a->claim(a->ctx, i, s))
			return NULL;
		a->work(a->ctx, s);
		return s;
	}
	pthread_mutex_lock(&a->mu);
	while (s->ready != i + 1 && a->end > i)
		pthread_cond_wait(&a->ready, &a->mu);
	if (s->ready != i + 1)
		s = NULL;
	pthread_mutex_unlock(&a->mu);
	return s;
}

void pf_ahead_give(struct pf_ahead *a, struct pf_ahead_slot *s)
{
	if (s->arena.kept > SLOT_KEEP)
		pf_arena_release(&s->arena);
	else
		pf_arena_back(&s->arena, 0, 0);
	if (s->bcap > SLOT_KEEP) {
		free(s->buf);
		s->buf = NULL;
		s->bcap = 0;
	}
	if (!a->nthreads)
		return;
	pthread_mutex_lock(&a->mu);
	s->ready = 0;
	a->given++;
	pthread_cond_broadcast(&a->room);
	pthread_mutex_unlock(&a->mu);
}

void pf_ahead_stop(struct pf_ahead *a)
{
	int t;
	size_t i;

	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->room);
	pthread_mutex_unlock(&a->mu);
	for (t = 0; t < a->nthreads; t++)
		pthread_join(a->threads[t], NULL);
	for (i = 0; i < NSLOT; i++) {
		pf_arena_release(&a->slots[i].arena);
		free(a->slots[i].buf);
		free(a->slots[i].keep);
	}
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->room);
	pthread_cond_destroy(&a->ready);
	free(a);
}
