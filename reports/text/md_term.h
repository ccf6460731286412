/*
 * Markdown on a terminal: paragraphs and headings wrapped within width
 * columns (0: no limit), escapes and emphasis markers read, tables as the
 * text reports print them (fitted: reports/text/grid.h).
 */
#ifndef BT_MD_TERM_H
#define BT_MD_TERM_H

#include <stdio.h>

#define BT_MD_TERM_COLS 32   /* cells of a table row past this are left out */

void bt_md_term(const char *md, size_t len, FILE *out, size_t width);

#endif
