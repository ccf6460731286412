/*
 * One rank of an array of values (search.h).
 */
#include "engine/base/search.h"

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
