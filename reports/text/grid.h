/*
 * An aligned text table for terminals: cells are collected row by row
 * (the first row is the header), then printed with each column as wide
 * as its widest cell and numeric columns right-aligned. Used by query's
 * table format and the text report.
 */
#ifndef BT_GRID_H
#define BT_GRID_H

#include <stdio.h>

#include "engine/base/alloc.h"

struct bt_grid {
	int ncols;
	struct bt_buf text;     /* all cells, NUL-separated */
	size_t *off;            /* cell start offsets, row-major */
	size_t ncells, cap;
	unsigned char *numeric; /* per column: right-align (all set at init) */
	unsigned char *spare;   /* per column: left out first to fit (none set at init) */
	int name_lines;         /* a first cell too wide for its column on a line of its own,
				 * whole, its row's numbers under it (0 at init: cut it) */
};

void bt_grid_init(struct bt_grid *g, int ncols);
void bt_grid_add(struct bt_grid *g, const char *s, size_t len);
/* Header, rule, rows; "(no rows)" when only the header was added. */
void bt_grid_print(const struct bt_grid *g, FILE *out);
/* The same within width columns (0: no limit): the widest text columns
 * are narrowed (not under MIN_TEXT_COLS) and their cells shortened in the
 * middle ("com.exa…Adapter.bind"), where the ends tell names apart;
 * numbers are never cut. */
void bt_grid_print_fit(const struct bt_grid *g, FILE *out, size_t width);
void bt_grid_release(struct bt_grid *g);

/* first, then text broken at spaces so no line passes cols columns (0: one
 * line), each further line after indent. A word longer than a line is
 * left whole. Ends with a line break. */
void bt_text_wrap(FILE *out, const char *first, const char *indent, const char *text, size_t cols);
/* The same within cols columns; with cols 0 (a file, a pipe) first and
 * text as they are, on one line. */
void bt_text_put(FILE *out, const char *first, const char *indent, const char *text, size_t cols);

#endif
