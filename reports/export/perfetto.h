/*
 * Perfetto export (DESIGN §10): the reconstructed slices as a Perfetto
 * trace for ui.perfetto.dev, with upstream's track layout and annotation
 * names so the numbers read as users know them.
 */
#ifndef BT_PERFETTO_H
#define BT_PERFETTO_H

#include <stdio.h>

#include "engine/base/err.h"
#include "engine/db/db.h"
#include "reports/export/slice_log.h"

struct bt_perfetto;
struct bt_namer;

/* The export's facts about the trace (the run's slices it reads from the
 * slice log the outputs keep, slice_log.h). */
struct bt_perfetto *bt_perfetto_new(void);
void bt_perfetto_free(struct bt_perfetto *x);

/* After the run: the threads, frame and record type names, process facts
 * and linked waits from db. */
int bt_perfetto_load(struct bt_perfetto *x, struct bt_db *db, struct bt_err *err);

/*
 * Write the trace to fp (db is not used): a process track, one track per
 * thread, a SLICE_BEGIN (with annotations) and SLICE_END per slice of log
 * (sealed; read with a reader of its own), an instant on each waker's
 * track with a flow to the wait it ended, and a process tree. Slices show
 * their frame's name as names (borrowed; NULL: full names) gives it, with
 * the full signature beside it. Packets are written one at a time as the
 * slices are read back.
 */
int bt_perfetto_write(struct bt_perfetto *x, const struct bt_slicelog *log, const struct bt_namer *names,
		      FILE *fp, struct bt_err *err);

#endif
