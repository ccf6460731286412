/*
 * Names interned by an open-addressing table of their text, for the
 * scoring helpers (each a program of one file): the including file
 * defines xrealloc, which exits when memory runs out.
 */
#ifndef SCORING_SYMS_H
#define SCORING_SYMS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n);

struct syms { char **name; uint32_t *slot; size_t n, cap, mask; };

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* s's index; a name new to t keeps s itself (the caller's, alive as long
 * as t: *added, if asked, says it was new). */
static uint32_t intern(struct syms *t, char *s, int *added)
{
	size_t i;

	if (!t->slot || 2 * (t->n + 1) > t->mask + 1) {   /* grow: every name placed again */
		size_t m = t->slot ? 2 * (t->mask + 1) : 4096, k;
		free(t->slot);
		t->slot = xrealloc(NULL, m * sizeof *t->slot);
		memset(t->slot, 0xff, m * sizeof *t->slot);
		t->mask = m - 1;
		for (k = 0; k < t->n; k++) {
			for (i = fnv(t->name[k]) & t->mask; t->slot[i] != UINT32_MAX; i = (i + 1) & t->mask)
				;
			t->slot[i] = (uint32_t)k;
		}
	}
	if (added)
		*added = 0;
	for (i = fnv(s) & t->mask; t->slot[i] != UINT32_MAX; i = (i + 1) & t->mask)
		if (!strcmp(t->name[t->slot[i]], s))
			return t->slot[i];
	if (t->n == t->cap)
		t->name = xrealloc(t->name, (t->cap = t->cap ? 2 * t->cap : 4096) * sizeof *t->name);
	t->name[t->n] = s;
	t->slot[i] = (uint32_t)t->n;
	if (added)
		*added = 1;
	return (uint32_t)t->n++;
}

#endif
