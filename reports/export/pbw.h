/*
 * Protocol buffer wire writer: fields appended to a growing buffer, nested
 * messages closed in place. The Perfetto export writes its millions of
 * packets with it; protobuf-c's descriptor-driven size-then-pack passes
 * cost more than the rest of the export together. Field numbers are the
 * caller's (the .proto files in engine/proto), and tests decode the bytes with protoc.
 */
#ifndef BT_PBW_H
#define BT_PBW_H

#include <stdint.h>
#include <string.h>

#include "engine/base/alloc.h"

#define BT_PBW_DEPTH 8

struct bt_pbw {
	uint8_t *b;
	size_t n, cap;
	size_t open[BT_PBW_DEPTH];   /* where each open message's length byte is */
	int depth;
};

#define BT_PBW_INIT { NULL, 0, 0, { 0 }, 0 }

static inline void bt_pbw_release(struct bt_pbw *w)
{
	free(w->b);
	memset(w, 0, sizeof *w);
}

/* Room for k more bytes. */
static inline uint8_t *bt_pbw_room(struct bt_pbw *w, size_t k)
{
	if (w->n + k > w->cap)
		BT_GROW(w->b, w->n + k, w->cap);
	return w->b + w->n;
}

static inline size_t bt_pbw_put_varint(uint8_t *p, uint64_t v)
{
	size_t k = 0;

	while (v >= 0x80) {
		p[k++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[k++] = (uint8_t)v;
	return k;
}

static inline void bt_pbw_tag(struct bt_pbw *w, uint32_t field, int wire)
{
	uint8_t *p = bt_pbw_room(w, 5);

	w->n += bt_pbw_put_varint(p, (uint64_t)field << 3 | (uint64_t)wire);
}

/* A varint field: uint32/64, int32/64 (negatives take 10 bytes), bool, enum. */
static inline void bt_pbw_varint(struct bt_pbw *w, uint32_t field, uint64_t v)
{
	uint8_t *p = bt_pbw_room(w, 15);
	size_t k = bt_pbw_put_varint(p, (uint64_t)field << 3);

	w->n += k + bt_pbw_put_varint(p + k, v);
}

static inline void bt_pbw_fixed64(struct bt_pbw *w, uint32_t field, uint64_t v)
{
	uint8_t *p;
	int i;

	bt_pbw_tag(w, field, 1);
	p = bt_pbw_room(w, 8);
	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	w->n += 8;
}

static inline void bt_pbw_double(struct bt_pbw *w, uint32_t field, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof v);
	bt_pbw_fixed64(w, field, v);
}

/* A bytes or string field. */
static inline void bt_pbw_bytes(struct bt_pbw *w, uint32_t field, const void *s, size_t len)
{
	uint8_t *p = bt_pbw_room(w, 15 + len);
	size_t k = bt_pbw_put_varint(p, (uint64_t)field << 3 | 2);

	k += bt_pbw_put_varint(p + k, len);
	memcpy(p + k, s, len);
	w->n += k + len;
}

static inline void bt_pbw_str(struct bt_pbw *w, uint32_t field, const char *s)
{
	bt_pbw_bytes(w, field, s, strlen(s));
}

/* A nested message: its fields follow, up to bt_pbw_close. Its length
 * takes one byte until it is known to need more. */
static inline void bt_pbw_open(struct bt_pbw *w, uint32_t field)
{
	bt_pbw_tag(w, field, 2);
	bt_pbw_room(w, 1);
	w->open[w->depth++] = w->n++;
}

static inline void bt_pbw_close(struct bt_pbw *w)
{
	size_t at = w->open[--w->depth], len = w->n - at - 1, k;
	uint8_t v[10];

	if (len < 0x80) {
		w->b[at] = (uint8_t)len;
		return;
	}
	k = bt_pbw_put_varint(v, len);
	bt_pbw_room(w, k - 1);
	memmove(w->b + at + k, w->b + at + 1, len);
	memcpy(w->b + at, v, k);
	w->n += k - 1;
}

#endif
