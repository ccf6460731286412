/*
 * Signed integers as zigzag varints: the sign in the low bit, then 7 bits
 * a byte, the low ones first, the high bit set on all but the last; a
 * small magnitude (a duration, a time near the one before) takes a byte
 * or a few, any int64 at most BT_ZZ_MAX. For the program's own records
 * (no check of the bytes read).
 */
#ifndef BT_ZIGZAG_H
#define BT_ZIGZAG_H

#include <stddef.h>
#include <stdint.h>

#define BT_ZZ_MAX 10

/* v to b (BT_ZZ_MAX bytes of room): the bytes written. */
static inline size_t bt_zz_put(unsigned char *b, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;

	while (z >= 0x80) {
		b[n++] = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	b[n++] = (unsigned char)z;
	return n;
}

/* The value at *p, *p moved past it. */
static inline int64_t bt_zz_get(const unsigned char **p)
{
	const unsigned char *b = *p;
	uint64_t z = 0;
	int shift = 0;

	do
		z |= (uint64_t)(*b & 0x7F) << shift, shift += 7;
	while (*b++ & 0x80);
	*p = b;
	return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

#endif
