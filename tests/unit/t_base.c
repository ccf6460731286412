/*
 * Unit tests of engine/base's arithmetic that has no program of its own:
 * bt_select_kth (search.c) against the sorted values for every rank, on
 * random sets with many ties, sorted, reversed and constant input; and
 * bt_sat_add's saturation at both ends.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"
#include "tests/tap.h"

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* 1 if every rank of v[0..n) selects the value the sort puts there. */
static int every_rank(const int64_t *v, size_t n)
{
	int64_t *sorted = malloc(n * sizeof *sorted), *work = malloc(n * sizeof *work);
	size_t k;
	int good = 1;

	memcpy(sorted, v, n * sizeof *v);
	qsort(sorted, n, sizeof *sorted, by_value);
	for (k = 0; k < n && good; k++) {
		memcpy(work, v, n * sizeof *v);
		good = bt_select_kth(work, n, k) == sorted[k];
	}
	free(sorted);
	free(work);
	return good;
}

static void test_select(void)
{
	uint64_t seed = 7;
	int64_t v[257];
	size_t n, i;
	int round, good = 1;

	for (round = 0; round < 40 && good; round++) {
		n = 1 + (size_t)(tap_rand(&seed) % 257);
		for (i = 0; i < n; i++)   /* few distinct values: ties everywhere */
			v[i] = (int64_t)(tap_rand(&seed) % (round % 2 ? 5 : 1000)) - 2;
		good = every_rank(v, n);
	}
	ok(good, "random sets, with ties: every rank as the sort has it");
	for (i = 0; i < 200; i++)
		v[i] = (int64_t)i;
	ok(every_rank(v, 200), "sorted input");
	for (i = 0; i < 200; i++)
		v[i] = 200 - (int64_t)i;
	ok(every_rank(v, 200), "reversed input");
	for (i = 0; i < 200; i++)
		v[i] = 9;
	ok(every_rank(v, 200), "one value throughout");
	v[0] = INT64_MIN, v[1] = INT64_MAX, v[2] = 0;
	ok(every_rank(v, 3), "the extremes");
	v[0] = 42;
	ok(bt_select_kth(v, 1, 0) == 42, "one value");
}

static void test_sat_add(void)
{
	ok(bt_sat_add(2, 3) == 5 && bt_sat_add(-2, -3) == -5, "in range: the sum");
	ok(bt_sat_add(INT64_MAX, 1) == INT64_MAX, "past the top: held there");
	ok(bt_sat_add(INT64_MAX - 1, INT64_MAX) == INT64_MAX, "far past the top: held there");
	ok(bt_sat_add(INT64_MIN, -1) == INT64_MIN, "past the bottom: held there");
	ok(bt_sat_add(INT64_MIN, INT64_MIN) == INT64_MIN, "far past the bottom: held there");
	ok(bt_sat_add(INT64_MAX, INT64_MIN) == -1, "opposite signs never saturate");
	ok(bt_sat_add(INT64_MAX, 0) == INT64_MAX && bt_sat_add(INT64_MIN, 0) == INT64_MIN, "adding 0");
}

int main(void)
{
	test_select();
	test_sat_add();
	return done_testing();
}
