/*
 * Bounds-checked little-endian decoding over an in-memory byte range. All
 * byte decoding of importers goes through here: bt_rd_need() checks, and
 * the getters after it may not run past the checked range.
 */
#ifndef BT_READER_H
#define BT_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/base/err.h"

struct bt_reader {
	const unsigned char *p;
	size_t len;
	size_t off;
	const char *path;   /* for messages */
};

void bt_rd_init(struct bt_reader *r, const unsigned char *p, size_t len, const char *path);

static inline size_t bt_rd_left(const struct bt_reader *r)
{
	return r->len - r->off;
}

/*
 * Check that n more bytes are present; otherwise BT_EFORMAT "truncated
 * <what> in '<path>' at offset <off>: need n bytes, m left".
 */
int bt_rd_need(struct bt_reader *r, size_t n, const char *what, struct bt_err *err);

static inline uint16_t bt_rd_u16(struct bt_reader *r)
{
	const unsigned char *p = r->p + r->off;
	r->off += 2;
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t bt_rd_u32(struct bt_reader *r)
{
	const unsigned char *p = r->p + r->off;
	r->off += 4;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t bt_rd_u64(struct bt_reader *r)
{
	uint64_t lo = bt_rd_u32(r);
	uint64_t hi = bt_rd_u32(r);
	return lo | hi << 32;
}

static inline uint8_t bt_rd_u8(struct bt_reader *r)
{
	return r->p[r->off++];
}

/* Pointer to the next n bytes, then skip them. */
static inline const unsigned char *bt_rd_bytes(struct bt_reader *r, size_t n)
{
	const unsigned char *p = r->p + r->off;
	r->off += n;
	return p;
}

/* Decode a little-endian u64 at p (within an already checked range). */
static inline uint64_t bt_le64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

#endif
