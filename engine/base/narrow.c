/*
 * Wide values of 32-bit slots (see narrow.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/narrow.h"

uint32_t bt_wide_add(struct bt_wide *w, int64_t v)
{
	if (w->n >= BT_NARROW_WIDE)   /* 2^31 wide values: 16 GiB, not reached */
		bt_alloc_fail(((size_t)w->n + 1) * sizeof *w->v);
	BT_GROW(w->v, w->n + 1, w->cap);
	w->v[w->n] = v;
	return (uint32_t)(BT_NARROW_WIDE + w->n++);
}

size_t bt_wide_append(struct bt_wide *to, const struct bt_wide *from)
{
	size_t off = to->n;

	if (to->n + from->n > BT_NARROW_WIDE)
		bt_alloc_fail((to->n + from->n) * sizeof *to->v);
	if (from->n) {
		BT_GROW(to->v, to->n + from->n, to->cap);
		memcpy(to->v + to->n, from->v, from->n * sizeof *from->v);
		to->n += from->n;
	}
	return off;
}

void bt_wide_release(struct bt_wide *w)
{
	free(w->v);
	memset(w, 0, sizeof *w);
}
