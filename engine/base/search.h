/*
 * Binary search over arrays of records sorted by one int64_t field: the
 * engine keeps such arrays (frames by start, messages by end, waits by
 * start) and asks where a time falls among them.
 */
#ifndef BT_SEARCH_H
#define BT_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The first of the n records of size bytes at v whose int64_t at byte
 * offset off is key or more (n when none): v sorted by that field. */
static inline size_t bt_first_ge(const void *v, size_t n, size_t size, size_t off, int64_t key)
{
	const unsigned char *p = v;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t x;
		memcpy(&x, p + mid * size + off, sizeof x);
		if (x < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
