/*
 * UTF-8 checking for names read from hostile inputs: invalid sequences are
 * replaced by U+FFFD so every string stored or printed is valid UTF-8.
 */
#ifndef BT_UTF8_H
#define BT_UTF8_H

#include <stddef.h>

#include "engine/base/alloc.h"

/* 1 if s[0..len) is valid UTF-8 (no overlongs, surrogates or NULs). */
int bt_utf8_valid(const char *s, size_t len);

/* Append s to b with each invalid sequence replaced by U+FFFD. */
void bt_utf8_sanitize(struct bt_buf *b, const char *s, size_t len);

#endif
