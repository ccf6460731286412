/*
 * A stream over under that shows control characters as escapes (and, for
 * Markdown, mentions as plain text): what the text and Markdown writers
 * write for people (safe.c).
 */
#ifndef BT_SAFE_H
#define BT_SAFE_H

#include <stdio.h>

/* The stream to write through; under itself if none could be made. */
FILE *bt_safe_open(FILE *under, int markdown);
/* Flush and close it (under stays open); 0, or EOF on a write error. */
int bt_safe_close(FILE *f, FILE *under);
/* The width of the terminal fp writes to; 0 if it is none. */
int bt_tty_width(FILE *fp);

#endif
