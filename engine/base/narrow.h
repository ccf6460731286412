/*
 * Int64 values kept in 32-bit slots where they fit. A profile holds
 * eighteen sums per call path, and nearly all are small and non-negative
 * (a path's self time is micro- to milliseconds, its counters a few):
 * a slot below 2^31 is its value; a slot at or above it is the index
 * (plus 2^31) of the value in a side array of wide ones, which a thread's
 * root inclusive time or a negative delta needs. Lossless: a slot reads
 * back the int64 that was set.
 */
#ifndef BT_NARROW_H
#define BT_NARROW_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"

#define BT_NARROW_WIDE 0x80000000u

struct bt_wide {
	int64_t *v;
	size_t n, cap;
};

/* A new wide value: its slot. */
uint32_t bt_wide_add(struct bt_wide *w, int64_t v);
void bt_wide_release(struct bt_wide *w);
/* Append from's wide values to to's; the slots that pointed into from
 * must then be moved by bt_narrow_rebase with the returned offset. */
size_t bt_wide_append(struct bt_wide *to, const struct bt_wide *from);

static inline int64_t bt_narrow_get(const struct bt_wide *w, uint32_t slot)
{
	return slot < BT_NARROW_WIDE ? (int64_t)slot : w->v[slot - BT_NARROW_WIDE];
}

static inline void bt_narrow_set(struct bt_wide *w, uint32_t *slot, int64_t v)
{
	if (*slot >= BT_NARROW_WIDE)
		w->v[*slot - BT_NARROW_WIDE] = v;   /* wide once: stays wide */
	else if (v >= 0 && v < (int64_t)BT_NARROW_WIDE)
		*slot = (uint32_t)v;
	else
		*slot = bt_wide_add(w, v);
}

/* d added to a slot's value (held at the int64 bounds, bt_sat_add). */
static inline void bt_narrow_add(struct bt_wide *w, uint32_t *slot, int64_t d)
{
	bt_narrow_set(w, slot, bt_sat_add(bt_narrow_get(w, *slot), d));
}

/* The n slots of a profile merged into another, moved by
 * bt_wide_append's offset. */
static inline void bt_narrow_rebase(uint32_t *slot, size_t n, size_t off)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (slot[k] >= BT_NARROW_WIDE)
			slot[k] = (uint32_t)(slot[k] + off);
}

#endif
