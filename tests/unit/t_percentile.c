/*
 * Unit tests of bt_percentile(x, q) (engine/db/percentile.c): against the
 * nearest rank of the sorted values on random sets with many ties, sorted
 * and reversed input, each q; NULLs left out, no value NULL, per group,
 * and a q out of range refused.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "tests/tap.h"
#include "tests/tsql.h"

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* v[0..n) as the rows of t(x) ahead of a query on it; the caller frees. */
static char *with_values(const int64_t *v, int n, const char *query)
{
	struct bt_buf b = BT_BUF_INIT;
	int k;

	bt_buf_adds(&b, "WITH t(x) AS (VALUES ");
	for (k = 0; k < n; k++)
		bt_buf_addf(&b, "%s(%lld)", k ? ", " : "", (long long)v[k]);
	bt_buf_addf(&b, ") %s", query);
	return bt_buf_detach(&b, NULL);
}

/* 1 if bt_percentile(x, q) over v[0..n) is, for every q, the sorted
 * values' nearest rank. */
static int agrees(struct bt_db *db, int64_t *v, int n, const char *what)
{
	int64_t got[101];
	char query[64];
	int q, k, bad = 0;

	for (q = 0; q <= 100; q++) {
		char *sql;
		snprintf(query, sizeof query, "SELECT bt_percentile(x, %d) FROM t", q);
		sql = with_values(v, n, query);
		got[q] = tsql_int(db, sql, -1);
		free(sql);
	}
	qsort(v, (size_t)n, sizeof *v, by_value);
	for (q = 0; q <= 100; q++) {
		k = (n * q + 99) / 100;
		if (got[q] != v[k > 1 ? k - 1 : 0] && bad++ < 3)
			printf("# %s (n %d) q %d: got %lld, want %lld\n", what, n, q, (long long)got[q],
			       (long long)v[k > 1 ? k - 1 : 0]);
	}
	return !bad;
}

int main(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	int64_t v[600];
	char *s;
	int i, g, all = 1;

	if (bt_db_create(&db, ":memory:", &err))
		printf("# %s\n", err.msg);
	srand(7);
	for (g = 0; g < 40; g++) {
		int n = 1 + rand() % 600, spread = g % 2 ? 5 : 1000000;   /* odd sets: five values, many ties */
		for (i = 0; i < n; i++)
			v[i] = rand() % spread - spread / 3;
		all &= agrees(db, v, n, "random");
	}
	ok(all, "40 random sets (half of them five values over and over): every q the sorted values' nearest rank");
	for (i = 0; i < 500; i++)
		v[i] = i;
	ok(agrees(db, v, 500, "sorted"), "sorted input");
	for (i = 0; i < 500; i++)
		v[i] = 500 - i;
	ok(agrees(db, v, 500, "reversed"), "reversed input");
	for (i = 0; i < 300; i++)
		v[i] = 7;
	ok(agrees(db, v, 300, "one value"), "one value throughout");
	is_int(tsql_int(db, "WITH t(x) AS (VALUES (NULL), (3), (NULL), (9)) SELECT bt_percentile(x, 50) FROM t", -1), 3,
	       "NULLs left out (rank 1 of 2)");
	is_int(tsql_int(db, "WITH t(x) AS (VALUES (NULL), (3), (NULL), (9)) SELECT bt_percentile(x, 51) FROM t", -1), 9,
	       "... rank 2 of 2");
	is_int(tsql_int(db, "WITH t(x) AS (VALUES (NULL)) SELECT bt_percentile(x, 50) IS NULL FROM t", -1), 1,
	       "no value: NULL");
	s = tsql_rows(db, "WITH t(g, x) AS (VALUES (1, 5), (2, 8), (1, 4), (2, 9), (2, 7)) "
		      "SELECT g, bt_percentile(x, 100), bt_percentile(x, 0) FROM t GROUP BY g ORDER BY g");
	is_str(s, "1|5|4;2|9|7", "one answer per group");
	free(s);
	s = tsql_rows(db, "WITH t(x) AS (VALUES (1)) SELECT bt_percentile(x, 101) FROM t");
	ok(s && strstr(s, "q is an integer from 0 to 100"), "q over 100 refused");
	free(s);
	s = tsql_rows(db, "WITH t(x) AS (VALUES (1)) SELECT bt_percentile(x, 'half') FROM t");
	ok(s && strstr(s, "q is an integer from 0 to 100"), "q not a number refused");
	free(s);
	bt_db_close(db);
	return done_testing();
}
