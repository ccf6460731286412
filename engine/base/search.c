/*
 * The sort of arrays that mostly come in order, and one rank of an array
 * of values (search.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"

/* The late elements moved back by insertion, stably; 0 when v is then
 * sorted, 1 when that took more than n moves (v still a permutation,
 * what was moved keeping its order). */
static int insert_late(char *p, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *tmp;
	size_t i = 1, j, moved = 0;

	while (i < n && cmp(p + (i - 1) * size, p + i * size) <= 0)
		i++;
	if (i >= n)
		return 0;
	tmp = bt_xmalloc(size);
	for (; i < n; i++) {
		if (cmp(p + (i - 1) * size, p + i * size) <= 0)
			continue;
		memcpy(tmp, p + i * size, size);
		for (j = i; j > 0 && cmp(p + (j - 1) * size, tmp) > 0; j--)
			;   /* after the last one not greater: stable */
		moved += i - j;
		if (moved > n)   /* far out of order */
			break;
		memmove(p + (j + 1) * size, p + j * size, (i - j) * size);
		memcpy(p + j * size, tmp, size);
	}
	free(tmp);
	return i < n;
}

/* p[0..n) sorted stably through tmp (room for n): the halves, then merged
 * with ties from the left. */
static void merge_sort(char *p, char *tmp, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_sort(p, tmp, h, size, cmp);
	merge_sort(p + h * size, tmp, n - h, size, cmp);
	if (cmp(p + (h - 1) * size, p + h * size) <= 0)
		return;   /* the halves already in order */
	while (i < h && j < n) {
		const char *x = cmp(p + i * size, p + j * size) <= 0 ? p + i++ * size : p + j++ * size;
		memcpy(tmp + k++ * size, x, size);
	}
	memcpy(tmp + k * size, p + i * size, (h - i) * size);   /* what is left of the left half */
	memcpy(p, tmp, (k + h - i) * size);                     /* the right's rest is in place */
}

void bt_sort_unless_sorted(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *tmp;

	if (!insert_late(v, n, size, cmp))
		return;
	tmp = bt_xmalloc(n * size);
	merge_sort(v, tmp, n, size, cmp);
	free(tmp);
}

int64_t bt_nearest_rank(int64_t *v, size_t n, int64_t q)
{
	uint64_t k = ((uint64_t)n * (uint64_t)q + 99) / 100;   /* n <= 2^63 / 100: the values fit in memory */

	return bt_select_kth(v, n, (size_t)(k > 1 ? k - 1 : 0));
}

/* Hoare's selection: linear on average; the middle of three as the pivot
 * keeps sorted input linear too. */
int64_t bt_select_kth(int64_t *v, size_t n, size_t k)
{
	int64_t lo = 0, hi = (int64_t)n - 1, at = (int64_t)k;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2, i = lo, j = hi, t;
		int64_t a = v[lo], b = v[mid], c = v[hi];
		int64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j)
				t = v[i], v[i++] = v[j], v[j--] = t;
		}
		if (at <= j)
			hi = j;
		else if (at >= i)
			lo = i;
		else
			break;   /* v[j + 1 .. i - 1] all equal the pivot */
	}
	return v[k];
}
