/*
 * The ui_frames rows of a main thread as bt_frames_store makes them
 * (frame_table.c): kept in memory and read through the ui_frames table (a
 * memtab, engine/db/db.h), or copied into it where the database keeps its
 * rows (an import, --db).
 */
#ifndef BT_FRAMES_INT_H
#define BT_FRAMES_INT_H

#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"

/* A frame's columns but its id (its row's number) and tid (the table's);
 * vsync < 0 and, when not drawn, draw_ts and draw_dur read NULL; janky
 * is missed > 0. */
struct bt_frame_row {
	int64_t ts, vsync, dur, end_ts, period, expected, deadline, missed, draw_ts, draw_dur;
	int drawn;
	char *cause;              /* a janky frame's cause line (the table's), or NULL */
};

struct bt_frame_table;

struct bt_frame_table *bt_frame_table_new(int64_t tid);
void bt_frame_table_free(struct bt_frame_table *t);
/* The next frame's row (its cause taken). */
void bt_frame_table_add(struct bt_frame_table *t, const struct bt_frame_row *r);
/* Make t the ui_frames table; the database owns t from here on, also on
 * error. */
int bt_frame_table_attach(struct bt_frame_table *t, struct bt_db *db, struct bt_err *err);

#endif
