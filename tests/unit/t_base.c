/*
 * Unit tests of engine/base's arithmetic that has no program of its own:
 * bt_select_kth (search.c) against the sorted values for every rank, on
 * random sets with many ties, sorted, reversed and constant input, and
 * the nearest-rank percentile it gives;
 * bt_sort_unless_sorted's order, stable, on arrays nearly in order (a few
 * records late), far from it and in order, and with ties in any order at
 * small sizes (its merge sort); bt_sat_add's saturation at both ends; and
 * narrow slots (narrow.c): every int64 reads back as set,
 * across the 2^31 boundary and negative, added to, and after a merge's
 * rebase; and the big arrays' huge pages (alloc.c): the capacity
 * bt_grow_fit gives, and in /proc/self/smaps the mapping of a big
 * bt_xmalloc and bt_xrealloc, advised for huge pages and whole huge
 * pages long, a small one neither.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/narrow.h"
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
	for (i = 0; i < 10; i++)
		v[i] = 10 - (int64_t)i;   /* 10 .. 1 */
	ok(bt_nearest_rank(v, 10, 50) == 5 && bt_nearest_rank(v, 10, 0) == 1 && bt_nearest_rank(v, 10, 91) == 10 &&
	   bt_nearest_rank(v, 10, 90) == 9, "nearest rank: ceil(n q / 100), at least the first");
}

struct rec { int64_t key, at; };   /* at: its place before the sort */

static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* 1 if v[0..n) is by key and, among equal keys, by at (stable). */
static int stably_sorted(const struct rec *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i - 1].key > v[i].key || (v[i - 1].key == v[i].key && v[i - 1].at > v[i].at))
			return 0;
	return 1;
}

static void test_sort(void)
{
	static struct rec v[2000];
	uint64_t seed = 11;
	size_t i, n = 2000;
	int round, good = 1;

	for (round = 0; round < 30 && good; round++) {   /* in order but a few records late */
		for (i = 0; i < n; i++)
			v[i] = (struct rec){ (int64_t)(i / 3), 0 };
		for (i = 0; i < (size_t)round; i++) {
			size_t at = 8 + (size_t)(tap_rand(&seed) % (n - 8)), back = 1 + (size_t)(tap_rand(&seed) % 8);
			struct rec x = v[at - back];
			memmove(&v[at - back], &v[at - back + 1], back * sizeof *v);
			v[at] = x;
		}
		for (i = 0; i < n; i++)
			v[i].at = (int64_t)i;
		bt_sort_unless_sorted(v, n, sizeof *v, by_key);
		good = stably_sorted(v, n);
	}
	ok(good, "a few records late: moved back, stably");
	for (i = 0; i < n; i++)
		v[i] = (struct rec){ (int64_t)(tap_rand(&seed) % 50), (int64_t)i };
	bt_sort_unless_sorted(v, n, sizeof *v, by_key);
	ok(stably_sorted(v, n), "far from in order, with ties: sorted, stably");
	for (i = 0; i < n; i++)
		v[i] = (struct rec){ (int64_t)(n - i) / 7, (int64_t)i };
	bt_sort_unless_sorted(v, n, sizeof *v, by_key);
	ok(stably_sorted(v, n), "reversed: sorted, stably");
	bt_sort_unless_sorted(v, n, sizeof *v, by_key);
	ok(stably_sorted(v, n), "in order: left so");
	bt_sort_unless_sorted(v, 0, sizeof *v, by_key);
	ok(1, "nothing to sort");
}

/* bt_sort_unless_sorted: stable whatever the order, by a comparator with ties
 * (the slicer's items by time alone), at every size up to a few. */
static void test_sort_stable(void)
{
	static struct rec v[3000];
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 17, 64, 3000 };
	uint64_t seed = 23;
	size_t i, k, n;
	int good = 1, rev = 1, late = 1;

	for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		n = sizes[k];
		for (i = 0; i < n; i++)
			v[i] = (struct rec){ (int64_t)(tap_rand(&seed) % 7), (int64_t)i };
		bt_sort_unless_sorted(v, n, sizeof *v, by_key);
		good &= stably_sorted(v, n);
		for (i = 0; i < n; i++)
			v[i] = (struct rec){ (int64_t)((n - i) / 4), (int64_t)i };
		bt_sort_unless_sorted(v, n, sizeof *v, by_key);
		rev &= stably_sorted(v, n);
		for (i = 0; i < n; i++)   /* in order but every fifth record far late */
			v[i] = (struct rec){ (int64_t)(i % 5 ? i : i / 5), (int64_t)i };
		bt_sort_unless_sorted(v, n, sizeof *v, by_key);
		late &= stably_sorted(v, n);
	}
	ok(good, "stable sort: random keys with many ties");
	ok(rev, "stable sort: reversed runs of ties");
	ok(late, "stable sort: many records far late (past insertion's bound)");
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

static void test_narrow(void)
{
	static const int64_t v[] = { 0, 1, 0x7FFFFFFE, 0x7FFFFFFF, 0x80000000LL, 0xFFFFFFFFLL, 1LL << 40,
				     -1, INT64_MIN, INT64_MAX };
	enum { N = sizeof v / sizeof *v };
	struct bt_wide a = { NULL, 0, 0 }, b = { NULL, 0, 0 };
	uint32_t sa[N], sb[N];
	size_t i, off;
	int same = 1, narrow = 1;

	for (i = 0; i < N; i++) {
		sa[i] = sb[i] = 0;
		bt_narrow_set(&a, &sa[i], v[i]);
		bt_narrow_set(&b, &sb[i], v[N - 1 - i]);
		same &= bt_narrow_get(&a, sa[i]) == v[i] && bt_narrow_get(&b, sb[i]) == v[N - 1 - i];
		narrow &= (sa[i] < BT_NARROW_WIDE) == (v[i] >= 0 && v[i] <= 0x7FFFFFFF);
	}
	ok(same, "every value reads back as set");
	ok(narrow, "those below 2^31 in the slot, the rest wide");
	is_int((int64_t)a.n, 6, "six wide values");
	bt_narrow_set(&a, &sa[4], 7);   /* wide once, stays wide: its slot does not move */
	ok(sa[4] >= BT_NARROW_WIDE && bt_narrow_get(&a, sa[4]) == 7 && a.n == 6, "a wide slot set small stays wide");
	bt_narrow_set(&a, &sa[1], -5);
	ok(bt_narrow_get(&a, sa[1]) == -5 && a.n == 7, "a narrow slot set negative goes wide");
	bt_narrow_add(&a, &sa[3], 1);   /* 2^31 - 1 + 1: past the narrow range */
	bt_narrow_add(&a, &sa[6], INT64_MAX);
	ok(bt_narrow_get(&a, sa[3]) == 0x80000000LL && sa[3] >= BT_NARROW_WIDE &&
	   bt_narrow_get(&a, sa[6]) == INT64_MAX, "an add past 2^31 goes wide, one past INT64_MAX is held there");
	off = bt_wide_append(&a, &b);
	bt_narrow_rebase(sb, N, off);
	for (i = 0, same = 1; i < N; i++)
		same &= bt_narrow_get(&a, sb[i]) == v[N - 1 - i];
	ok(same && off == 8 && a.n == 14, "a merged profile's slots rebased read back");
	bt_wide_release(&a);
	bt_wide_release(&b);
}

/* bt_buf_addi writes what "%lld" does, the extremes too. */
static void test_addi(void)
{
	static const int64_t v[] = { 0, 1, -1, 9, 10, -10, 1234567890123LL, INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	struct bt_buf a = BT_BUF_INIT, b = BT_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		bt_buf_addi(&a, v[i]);
		bt_buf_addc(&a, ',');
		bt_buf_addf(&b, "%lld,", (long long)v[i]);
	}
	ok(a.len == b.len && !memcmp(a.buf, b.buf, a.len), "bt_buf_addi: as %lld writes, 0, signs and the extremes");
	bt_buf_release(&a);
	bt_buf_release(&b);
}

/* An array of whole huge pages, 16 MiB or more, gets the elements that
 * keep it and malloc's header in them; other sizes what they asked. */
static void test_grow_fit(void)
{
	size_t mib = (size_t)1 << 20;

	is_int(bt_grow_fit(mib, 64, mib / 2 + 1), mib - 1, "grow fit: 64 MiB of 64-byte elements, one fewer");
	is_int(bt_grow_fit(2 * mib, 8, mib), 2 * mib - 3, "grow fit: 16 MiB of 8-byte elements, 24 bytes fewer");
	is_int(bt_grow_fit(mib, 64, mib), mib, "grow fit: not below what is needed");
	is_int(bt_grow_fit(mib / 2, 16, 1), mib / 2, "grow fit: 8 MiB, below the rounding, as asked");
	is_int(bt_grow_fit(3 * mib, 8, 1), 3 * mib - 3, "grow fit: 24 MiB, twelve huge pages, trimmed too");
	is_int(bt_grow_fit(mib + 1, 64, 1), mib + 1, "grow fit: not a multiple of 2 MiB, as asked");
}

/* ASan's allocator maps its own way: the mappings are not the arrays'. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#ifndef UNDER_ASAN
/* The smaps entry of the mapping that holds p: its length in bytes and
 * whether its VmFlags has "hg" (MADV_HUGEPAGE); 0 if none holds it. */
static size_t mapping_of(const void *p, int *advised)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long a, b;
	size_t len = 0;
	int in = 0;

	*advised = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)p >= a && (uintptr_t)p < b;
			if (in)
				len = b - a;
		} else if (in && !strncmp(line, "VmFlags:", 8)) {
			*advised = strstr(line, " hg") != NULL;
		}
	}
	fclose(f);
	return len;
}
#endif

/* glibc's malloc maps the big blocks itself: the mapping is the array's. */
static void test_huge_pages(void)
{
#ifdef UNDER_ASAN
	printf("# huge pages: not under ASan, whose allocator maps its own way\n");
#else
	size_t mib = (size_t)1 << 20, len;
	char *big, *small;
	int hg, thp = access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;

	small = bt_xmalloc(mib);
	mapping_of(small, &hg);
	ok(!hg, "huge pages: a 1 MiB array is not advised");
	free(small);
	big = bt_xmalloc(20 * mib);
	memset(big, 1, 20 * mib);
	len = mapping_of(big, &hg);
	ok(len >= 20 * mib && len % (2 * mib) == 0, "huge pages: a 20 MiB array's mapping is whole huge pages");
	ok(hg == thp, "huge pages: a 20 MiB array is advised for huge pages where the kernel has them");
	big = bt_xrealloc(big, 40 * mib);
	len = mapping_of(big, &hg);
	ok(len >= 40 * mib && len % (2 * mib) == 0 && hg == thp, "huge pages: grown to 40 MiB, the same");
	ok(big[20 * mib - 1] == 1, "huge pages: grown, the contents kept");
	small = bt_xmalloc(4 * mib);
	mapping_of(small, &hg);
	ok(hg == thp, "huge pages: a 4 MiB array is advised too");
	free(small);
	free(big);
#endif
}

int main(int argc, char **argv)
{
	/* glibc.malloc.hugetlb (tests/run.sh sets it) has glibc advise its
	 * heap itself, where the small arrays come from: the huge pages seen
	 * are to be ours alone */
	if (argc > 0 && getenv("GLIBC_TUNABLES")) {
		unsetenv("GLIBC_TUNABLES");
		execv("/proc/self/exe", argv);
	}
	test_select();
	test_sort();
	test_sort_stable();
	test_sat_add();
	test_narrow();
	test_addi();
	test_grow_fit();
	test_huge_pages();
	return done_testing();
}
