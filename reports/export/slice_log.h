/*
 * The slices of a run, kept for an export that writes every slice in
 * preorder (the Perfetto trace): a run gives them as they end, so each
 * part appends them, packed, to a temporary file in $TMPDIR (unlinked at
 * once) and remembers where each id's record starts; reading them back
 * walks the threads in tid order and each thread's ids in order.
 */
#ifndef BT_SLICE_LOG_H
#define BT_SLICE_LOG_H

#include "engine/base/err.h"
#include "engine/db/db.h"

struct bt_slice_log;

struct bt_slice_log *bt_slice_log_new(void);
void bt_slice_log_free(struct bt_slice_log *l);

/* Keep slice s of part (0 or 1; the parts may call at once). Its id
 * (counted per part, a thread's ids contiguous) says where it goes. The
 * tid, id and parent_id are not kept: they are known when read back. */
int bt_slice_log_add(struct bt_slice_log *l, int part, const struct bt_slice *s, struct bt_err *err);

/* Done adding: ready the slices for reading. */
int bt_slice_log_seal(struct bt_slice_log *l, struct bt_err *err);
/* The next slice in order (ascending tid, then id): 1, 0 at the end, or
 * -1 with err set. s->id counts slices from 1 in that order. */
int bt_slice_log_next(struct bt_slice_log *l, struct bt_slice *s, struct bt_err *err);

#endif
