/*
 * Perfetto export (DESIGN §10): the reconstructed slices as a Perfetto
 * trace for ui.perfetto.dev, with upstream's track layout and annotation
 * names so the numbers read as users know them.
 */
#ifndef BT_PERFETTO_H
#define BT_PERFETTO_H

#include "engine/db/db.h"
#include "engine/base/err.h"

/*
 * Write path (atomically): a process track, one track per thread, a
 * SLICE_BEGIN (with annotations) and SLICE_END per slice, an instant on
 * each waker's track with a flow to the wait it ended, and a process tree.
 * Packets are streamed one at a time; memory does not grow with slices.
 */
int bt_perfetto_write(struct bt_db *db, const char *path, struct bt_err *err);

#endif
