/*
 * Markdown table primitives: escaped cells, headers, rows, and where a
 * text cut under a size limit stays whole lines. Formatting for people,
 * below every writer of Markdown (reports/text, reports/compare,
 * reports/fleet, the startup section).
 */
#ifndef BT_REP_MARKDOWN_H
#define BT_REP_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

#include "engine/base/alloc.h"

/* Text as Markdown table-cell content: escaped, on one line. */
void bt_md_put(FILE *out, const char *s);
/* A Markdown table's header of n columns, each aligned as align[k] says
 * ('r' right, else left), and a row of n cells. */
void bt_md_head(FILE *out, const char *const *h, int n, const char *align);
void bt_md_row(FILE *out, const struct bt_buf *cell, int n);
/* How many bytes of text[0..len) are whole lines within room bytes: where
 * Markdown cut under a comment's limit stays valid (a table's rows). */
size_t bt_md_lines_within(const char *text, size_t len, size_t room);

#endif
