/*
 * A pull reader for JSON text (RFC 8259) held in memory: the caller walks
 * the document, taking the values it wants and skipping the rest, so a
 * report's metrics are read without building a tree of its tables. Every
 * error names the file and the byte offset (DESIGN §11).
 */
#ifndef BT_JSONR_H
#define BT_JSONR_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"

enum bt_jtype { BT_J_END, BT_J_NULL, BT_J_BOOL, BT_J_NUMBER, BT_J_STRING, BT_J_ARRAY, BT_J_OBJECT };

#define BT_JR_MAX_DEPTH 256

struct bt_jr {
	const char *start, *p, *end;
	const char *file;    /* for messages */
	int depth;           /* open objects and arrays */
	int max_depth;       /* BT_JR_MAX_DEPTH unless the caller lowers it */
	unsigned char first[BT_JR_MAX_DEPTH];   /* no member read yet, per level */
	struct bt_err *err;
};

void bt_jr_init(struct bt_jr *r, const void *data, size_t len, const char *file, struct bt_err *err);
/* The type of the next value (after whitespace); BT_J_END at the end of
 * the text, and for a byte that starts no value (the next call then fails). */
enum bt_jtype bt_jr_peek(struct bt_jr *r);
/* Consume '{'; then bt_jr_key until it returns 0 (the '}' is consumed). */
int bt_jr_object(struct bt_jr *r);
/* 1 and the next key in key (reset first), positioned at its value; 0 at
 * the object's end; -1 on error. */
int bt_jr_key(struct bt_jr *r, struct bt_buf *key);
/* Consume '['; then bt_jr_more until it returns 0 (the ']' is consumed). */
int bt_jr_array(struct bt_jr *r);
/* 1 if another element follows (positioned at it), 0 at ']', -1 on error. */
int bt_jr_more(struct bt_jr *r);
int bt_jr_string(struct bt_jr *r, struct bt_buf *out);
int bt_jr_number(struct bt_jr *r, double *out);
/* An integer read exactly (no double in between): 1 and *out for an
 * integer literal that fits int64_t; 0 for a number that is not one (a
 * fraction, an exponent, out of range), consumed and *out untouched; -1
 * when the text there is no number (err is set). */
int bt_jr_int(struct bt_jr *r, int64_t *out);
/* Skip one value of any type, checking its syntax. */
int bt_jr_skip(struct bt_jr *r);
/* After the top-level value: only whitespace may follow. */
int bt_jr_finish(struct bt_jr *r);
/* Fail with "FILE: byte N: what" at the reader's position. */
int bt_jr_fail(struct bt_jr *r, const char *what);
/* The reader's byte offset; after a failure, the one its message names. */
size_t bt_jr_offset(const struct bt_jr *r);

#endif
