/*
 * The sort of arrays that mostly come in order, and one rank of an array
 * of values (search.h).
 */
#include "engine/base/alloc.h"
#include "engine/base/search.h"

void bt_sort_unless_sorted(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	char *p = v, *tmp;
	size_t i = 1, j, moved = 0;

	while (i < n && cmp(p + (i - 1) * size, p + i * size) <= 0)
		i++;
	if (i >= n)
		return;
	tmp = bt_xmalloc(size);
	for (; i < n; i++) {
		if (cmp(p + (i - 1) * size, p + i * size) <= 0)
			continue;
		memcpy(tmp, p + i * size, size);
		for (j = i; j > 0 && cmp(p + (j - 1) * size, tmp) > 0; j--)
			;   /* after the last one not greater: stable */
		moved += i - j;
		if (moved > n) {   /* far out of order (what is moved so far keeps its order) */
			qsort(v, n, size, cmp);
			break;
		}
		memmove(p + (j + 1) * size, p + j * size, (i - j) * size);
		memcpy(p + j * size, tmp, size);
	}
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
