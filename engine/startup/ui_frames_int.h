/*
 * The ui_frames rows of a main thread as bt_frames_store makes them
 * (ui_frames.c): kept in memory and read through the ui_frames table (a
 * memtab, engine/db/db.h), or copied into it where the database keeps its
 * rows (an import, --db).
 */
#ifndef BT_UI_FRAMES_INT_H
#define BT_UI_FRAMES_INT_H

#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"

/* A frame's columns but its id (its row's number), tid and period_ns
 * (the table's), missed_vsyncs (the periods, a part of one a whole, it
 * ended past its deadline) and janky (missed_vsyncs > 0); vsync < 0 and,
 * when not drawn, draw_ts and draw_dur read NULL. */
struct bt_ui_frame_row {
	int64_t ts, vsync, dur, end_ts, expected, deadline, draw_ts, draw_dur;
	int drawn;
	char *cause;              /* a janky frame's cause line (the table's), or NULL */
};

struct bt_ui_frames;

/* The main thread tid's frames on a display of that period; room for n
 * rows (more grow it). */
struct bt_ui_frames *bt_ui_frames_new(int64_t tid, int64_t period, size_t n);
void bt_ui_frames_free(struct bt_ui_frames *t);
/* The next frame's row (its cause taken). */
void bt_ui_frames_add(struct bt_ui_frames *t, const struct bt_ui_frame_row *r);
/* Make t the ui_frames table, its summary meta ui_frames_* (the count,
 * janky, missed, period_ns and the frame times' p50_ns, p90_ns, p99_ns);
 * the database owns t from here on, also on error. */
int bt_ui_frames_attach(struct bt_ui_frames *t, struct bt_db *db, struct bt_err *err);

#endif
