/*
 * The slices of a run, kept for the exports that write every slice in
 * preorder (the Perfetto trace, speedscope's timelines): a run gives them
 * as they end, so each part appends them, packed, to a temporary file in
 * $TMPDIR (unlinked at once) and remembers where each id's record starts.
 * Once sealed, any number of readers walk them back at once (each export
 * on its thread), the threads in tid order (or one thread) and each
 * thread's ids in order: one log for every export, no copies.
 */
#ifndef BT_SLICE_LOG_H
#define BT_SLICE_LOG_H

#include "engine/base/err.h"
#include "engine/db/db.h"
#include "engine/profile/tap.h"

struct bt_slicelog;

struct bt_slicelog *bt_slicelog_new(void);
void bt_slicelog_free(struct bt_slicelog *l);

/* Keep slice s of part (0 or 1; the parts may call at once). Its id
 * (counted per part, a thread's ids contiguous) says where it goes. The
 * tid, id and parent_id are not kept: they are known when read back. */
int bt_slicelog_add(struct bt_slicelog *l, int part, const struct bt_slice *s, struct bt_err *err);

/* The tap that keeps the run's slices in l (tap.h); l outlives the run. */
struct bt_slice_tap bt_slicelog_tap(struct bt_slicelog *l);

/* Done adding: ready the slices for reading (before the first reader). */
int bt_slicelog_seal(struct bt_slicelog *l, struct bt_err *err);
/* The threads with slices in sealed l, ascending: *n tids in a new array,
 * the caller's to free (NULL when there are none). */
int64_t *bt_slicelog_tids(const struct bt_slicelog *l, size_t *n);

struct bt_slicelog_reader;

/* A reader of sealed l, before its first slice. Readers share nothing but
 * l (read-only; each reads the files through windows of its own), so
 * several may read at once on threads of their own; l outlives them. */
struct bt_slicelog_reader *bt_slicelog_reader_new(const struct bt_slicelog *l);
void bt_slicelog_reader_free(struct bt_slicelog_reader *r);
/* From now on, only each slice's depth, frame_id, ts and dur (the rest
 * reads 0): what a timeline needs, a fifth of the decoding. */
void bt_slicelog_reader_brief(struct bt_slicelog_reader *r);
/* From now on, thread tid's slices alone: next gives them from the first,
 * then says the end. 1 if l has slices of tid, else 0. */
int bt_slicelog_reader_thread(struct bt_slicelog_reader *r, int64_t tid);
/* The next slice in order (ascending tid, then id): 1, 0 at the end, or
 * -1 with err set. s->id counts the slices r gave from 1. */
int bt_slicelog_reader_next(struct bt_slicelog_reader *r, struct bt_slice *s, struct bt_err *err);

#endif
