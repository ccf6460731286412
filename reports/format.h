/*
 * Values as people read them, one convention for every output: bytes,
 * durations, timestamps since the trace's start, method names in scope,
 * a column's headings and cells (format.c).
 */
#ifndef BT_FORMAT_H
#define BT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/base/result.h"

struct bt_namer;

/* Bytes as people read them, one convention for every output: binary
 * units, one decimal ("131.7 MiB", "512 B"). */
void bt_format_bytes(double v, struct bt_buf *b);
/* A value as people read it: ns as ms, bytes with binary units, percent. */
void bt_format_value(const struct bt_value *v, enum bt_unit u, struct bt_buf *b);
/* Text as people read it: a frame name in scope of names (the trace's
 * frames; NULL under --full-names) short, "FeedAdapter.bind", its leading
 * spaces (a call tree's depth) kept; any other text as it is, so every
 * text cell may go through it. Appended to b. */
void bt_format_name(const struct bt_namer *names, const char *s, struct bt_buf *b);
/* bt_format_value with its text through bt_format_name. */
void bt_format_cell(const struct bt_namer *names, const struct bt_value *v, enum bt_unit u,
		    struct bt_buf *b);
/* A column heading for people: "wall_ns" reads "wall ms". */
void bt_format_heading(const char *column, enum bt_unit u, struct bt_buf *b);

/* A duration on its own (not in a column): "387.5 ms", "12.35 s",
 * "5 min 31.6 s", "2 h 05 min". */
void bt_format_duration(double ns, struct bt_buf *b);
/* A timestamp as people read it: since the trace's start, "+306.0 ms";
 * raw boot-clock ns stay in JSON and SQL. */
int bt_rep_is_ts(const char *name);             /* "ts", "waker_ts": a timestamp's name */
void bt_format_at(int64_t ts, int64_t t0, struct bt_buf *b);

/* One unit for a column of ns, chosen by its largest value, so a column
 * reads "12.3 s" rather than "12345.6 ms": divide by div, head with unit. */
struct bt_ns_scale {
	double div;
	const char *unit;    /* "ms", "s", "min" */
};
struct bt_ns_scale bt_ns_scale_of(double max_abs_ns);

/* How a table's column reads in text and Markdown: timestamps since the
 * trace's start t0, durations in one scale for the column (by its first
 * rows' largest value). */
struct bt_col_fmt {
	int ts, ns;
	int64_t t0;
	struct bt_ns_scale scale;
};
void bt_col_fmt_of(const struct bt_rtable *t, int c, size_t rows, int64_t t0, struct bt_col_fmt *k);
/* "ts" -> "at ms", "waker_ts" -> "waker_at ms", "wall_ns" -> "wall s". */
void bt_col_heading(const struct bt_rtable *t, int c, const struct bt_col_fmt *k, struct bt_buf *b);
void bt_col_cell(const struct bt_namer *names, const struct bt_value *v, const struct bt_col_fmt *k,
		 enum bt_unit u, struct bt_buf *b);
/* A finding's value as people read it: durations in ms, s or min,
 * timestamps ("ts", "waker_ts") since the trace's start t0, method names
 * short by names. */
void bt_format_evidence(const char *key, const struct bt_value *v, int64_t t0, const struct bt_namer *names,
			struct bt_buf *b);
/* How a measure the trace does not give (NULL: its CPU time) reads in
 * text, Markdown, HTML and xlsx cells; JSON has null. */
#define BT_UNKNOWN "\xe2\x80\x94"   /* an em dash */

/* 0, or no value. */
int bt_rep_value_zero(const struct bt_value *v);
/* Row r's every measure (a cell whose column has a unit) is 0: it says
 * nothing, and text and Markdown leave it out. */
int bt_row_zero(const struct bt_rtable *t, size_t r);

/* Rows a text or Markdown table shows; JSON has them all. */
#define BT_REPORT_ROWS 30

#endif
