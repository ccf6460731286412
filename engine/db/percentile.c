/*
 * bt_percentile(x, q) (percentile.h): the values kept in SQLite's own
 * heap (its limits hold for them), the rank selected at the end.
 */
#include <stdint.h>

#include "engine/base/search.h"
#include "engine/db/db_int.h"
#include "engine/db/percentile.h"

struct values {
	int64_t *v;
	sqlite3_int64 n, cap;
	sqlite3_int64 q;
};

static void step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct values *s = sqlite3_aggregate_context(ctx, (int)sizeof *s);
	sqlite3_int64 q = sqlite3_value_int64(argv[1]);

	(void)argc;
	if (!s) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER || q < 0 || q > 100) {
		sqlite3_result_error(ctx, "bt_percentile(x, q): q is an integer from 0 to 100", -1);
		return;
	}
	s->q = q;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	if (s->n == s->cap) {
		sqlite3_int64 cap = s->cap ? 2 * s->cap : 64;
		int64_t *v = sqlite3_realloc64(s->v, (sqlite3_uint64)cap * sizeof *v);
		if (!v) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		s->v = v, s->cap = cap;
	}
	s->v[s->n++] = sqlite3_value_int64(argv[0]);
}

static void final(sqlite3_context *ctx)
{
	struct values *s = sqlite3_aggregate_context(ctx, 0);

	if (!s || !s->n) {
		sqlite3_result_null(ctx);
	} else {
		sqlite3_result_int64(ctx, bt_nearest_rank(s->v, (size_t)s->n, s->q));
	}
	if (s)
		sqlite3_free(s->v);
}

int bt_db_register_percentile(struct bt_db *db)
{
	return sqlite3_create_function_v2(db->conn, "bt_percentile", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
					  NULL, step, final, NULL);
}
