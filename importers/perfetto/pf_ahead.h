/*
 * Work done ahead on the other core: worker threads prepare items 0, 1,
 * 2 … (decode a batch of packets, read a copy back) into a ring of slots
 * while the importer uses the ones before, in order. Each item is claimed
 * in order, one worker at a time (claim: where the item is, cheap), then
 * prepared by the worker that claimed it (work: the decoding, several
 * items at once). What a slot holds is the caller's; the ring only hands
 * slots over. Without a thread (none could be made) each item is claimed
 * and prepared when it is taken.
 */
#ifndef BT_PF_AHEAD_H
#define BT_PF_AHEAD_H

#include <stddef.h>

#include "importers/perfetto/pf_int.h"

struct pf_ahead_slot {
	struct pf_arena arena;   /* given back (not freed) with the slot */
	unsigned char *buf;      /* bytes the worker read (kept across items) */
	size_t bcap;
	void *out;               /* what claim and work made of the item */
	void *keep;              /* the caller's, kept across items (freed at the stop) */
	size_t ready;            /* the item's number + 1 once prepared (the ring's) */
};

/* Claims item i into s: 0 when there is no item i (the end). Called in
 * item order, under the ring's lock. */
typedef int (*pf_ahead_claim)(void *ctx, size_t i, struct pf_ahead_slot *s);
/* Prepares the item claimed into s, beside other workers' items: it must
 * touch nothing but s and what the importer leaves alone meanwhile. */
typedef void (*pf_ahead_work)(void *ctx, struct pf_ahead_slot *s);

struct pf_ahead;

struct pf_ahead *pf_ahead_start(pf_ahead_claim claim, pf_ahead_work work, void *ctx, int workers);
/* Item i, the next after the last taken; NULL past the end. */
struct pf_ahead_slot *pf_ahead_take(struct pf_ahead *a, size_t i);
/* Done with the slot taken last. */
void pf_ahead_give(struct pf_ahead *a, struct pf_ahead_slot *s);
/* Stops the workers wherever they are and frees the ring. */
void pf_ahead_stop(struct pf_ahead *a);

#endif
