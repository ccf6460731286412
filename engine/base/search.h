/*
 * Binary search over arrays of records sorted by one int64_t field: the
 * engine keeps such arrays (frames by start, messages by end, waits by
 * start) and asks where a time falls among them; their sort, skipped
 * where they came in order; a counting sort by a small key; and one rank
 * of values not sorted.
 */
#ifndef BT_SEARCH_H
#define BT_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"

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

/* The same by a comparator: the first of the n records whose cmp against
 * *key is not below 0 (n when none), v sorted by cmp (two-key orders:
 * a thread's waits by start, a frame number's draws by time). */
static inline size_t bt_first_not_before(const void *v, size_t n, size_t size, const void *key,
					 int (*cmp)(const void *, const void *))
{
	const unsigned char *p = v;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp(p + mid * size, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Sort v stably, as such arrays mostly come: in order (one pass), or with
 * a few records a little late, which are moved back (insertion, as long
 * as the moves stay within n); else a merge sort (n elements more of
 * memory for the while). Stable whatever the C library's qsort is: ties
 * keep their order. */
void bt_sort_unless_sorted(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* in[0..n) (records of size bytes) into out[0..n), stably, by their keys
 * key(record, ctx) < nkeys: a counting sort, linear, for small key ranges
 * (a thread's hops) and a radix sort's passes (a byte of the key each).
 * Inline, so that each caller's key and record size are compiled in. */
static inline void bt_sort_by_key(void *out, const void *in, size_t n, size_t size, size_t nkeys,
				  size_t (*key)(const void *rec, const void *ctx), const void *ctx)
{
	size_t *at = bt_xcalloc(nkeys + 1, sizeof *at), i;
	const char *p = in;
	char *q = out;

	for (i = 0; i < n; i++)
		at[key(p + i * size, ctx) + 1]++;
	for (i = 0; i < nkeys; i++)
		at[i + 1] += at[i];   /* at[k]: where key k's records begin */
	for (i = 0; i < n; i++)
		memcpy(q + at[key(p + i * size, ctx)]++ * size, p + i * size, size);
	free(at);
}

/* v[k] as if v[0..n) were sorted, k < n (v is reordered): a median or a
 * percentile without the sort. */
int64_t bt_select_kth(int64_t *v, size_t n, size_t k);

/* The nearest-rank q-th percentile (0..100) of v[0..n), n > 0: the value
 * of rank max(1, ceil(n * q / 100)) in ascending order (v is reordered). */
int64_t bt_nearest_rank(int64_t *v, size_t n, int64_t q);

#endif
