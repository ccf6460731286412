/*
 * The xlsx writers' shared part, privately (xlsx.c, xlsx_print.c): the
 * cell helpers xlsx.c keeps, and what xlsx_print.c lays out as cells are
 * written and when the workbook is finished.
 */
#ifndef BT_XLSX_INT_H
#define BT_XLSX_INT_H

#include <stddef.h>

#include "engine/base/alloc.h"
#include "reports/xlsx/xlsx.h"

/* ---- xlsx.c ---- */

/* text as a cell may hold it: valid UTF-8 (rules may emit any bytes; XML
 * may not), at most Excel's 32767 characters. Points into b if changed,
 * else is text. */
const char *bt_xlsx_cell_text(const char *text, struct bt_buf *b);
/* The characters of UTF-8 text. */
size_t bt_xlsx_chars(const char *s);
/* Grow the used range (the print area) to hold (row, col). */
void bt_xlsx_used(struct bt_xlsx_sheet *s, int row, int col);
/* And col's width to at least chars. */
void bt_xlsx_widen(struct bt_xlsx_sheet *s, int row, int col, double chars);

/* ---- xlsx_print.c ---- */

/* Count the cell (row, col) as a number or text under the header above it
 * (the last, if no empty row comes between). */
void bt_xlsx_print_count(struct bt_xlsx_sheet *s, int row, int col, int is_num);
/* The text of n characters at (row, col) wraps in its column: its row is
 * to be as tall as its lines. */
void bt_xlsx_print_wrap(struct bt_xlsx_sheet *s, int row, int col, const char *text, size_t n);
/* When every cell is written: headings over numbers right-aligned, the
 * paragraphs merged and the rows of wrapped text made tall enough, at the
 * columns' widths then. */
void bt_xlsx_print_lay_out(struct bt_xlsx *x, struct bt_xlsx_sheet *s);
/* Free what the sheet's layout holds. */
void bt_xlsx_print_release(struct bt_xlsx_sheet *s);

#endif
