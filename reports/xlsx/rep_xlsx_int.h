/*
 * The report's workbook (rep_xlsx.c), privately: the sheets it writes from
 * the database in files of their own (rep_xlsx_frames.c).
 */
#ifndef BT_REP_XLSX_INT_H
#define BT_REP_XLSX_INT_H

#include "engine/db/rows.h"
#include "reports/xlsx/xlsx.h"

/* The Frames sheet, when ui_frames has rows: every display frame of the
 * main thread in time order (the report's frames table has only the
 * worst), times in ms, from t0 where they are instants. *out is the sheet,
 * owned by x, or NULL when there are no frames. Returns BT_OK or the
 * query's BT_ESQL. */
int bt_rep_xlsx_frames_write(struct bt_xlsx *x, struct bt_db *db, int64_t t0, struct bt_xlsx_sheet **out,
			     struct bt_err *err);

#endif
