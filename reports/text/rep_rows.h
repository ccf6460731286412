/*
 * The query command's rows: its output formats, and every row of a
 * cursor written in one (rep_rows.c).
 */
#ifndef BT_REP_ROWS_H
#define BT_REP_ROWS_H

#include <stdio.h>
#include <stddef.h>

#include "engine/base/err.h"
#include "engine/db/rows.h"

/* Output formats of the query command. */
enum bt_rowfmt { BT_FMT_TABLE, BT_FMT_CSV, BT_FMT_TSV, BT_FMT_JSON };

int bt_rowfmt_parse(const char *name, enum bt_rowfmt *out, struct bt_err *err);
/* By --format name, else by path's extension (.txt table, .csv, .tsv,
 * .json), else (stdout, "-") a table; BT_EUSAGE for another extension. */
int bt_rowfmt_pick(const char *name, const char *path, enum bt_rowfmt *out, struct bt_err *err);

/* Print every row of r to out in format f. */
/* A table within width columns (0: no limit; as the report's tables fit). */
int bt_rep_rows_write(struct bt_rows *r, enum bt_rowfmt f, FILE *out, size_t width, struct bt_err *err);

#endif
