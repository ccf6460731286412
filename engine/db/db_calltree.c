/*
 * The call tree of a profile in memory as an SQLite table: a scratch
 * analysis reads it through this eponymous virtual table instead of
 * storing its ~0.4 rows per record. "tid = ?" and "id = ?" scan only
 * what they need: a thread's paths are contiguous.
 */
#include <string.h>

#include "engine/db/db_int.h"
#include "engine/profile/profile.h"

struct ct_cursor {
	sqlite3_vtab_cursor base;
	size_t i, end;   /* path ids */
	int64_t col[BT_CT__COUNT];
};

static const char ct_schema[] =
	"CREATE TABLE x(id INTEGER, tid INTEGER, parent_id INTEGER, frame_id INTEGER, depth INTEGER,"
	" self_ns INTEGER, incl_ns INTEGER, self_cpu_ns INTEGER, incl_cpu_ns INTEGER,"
	" self_blocked_ns INTEGER, incl_blocked_ns INTEGER, self_alloc_bytes INTEGER,"
	" incl_alloc_bytes INTEGER, self_alloc_objects INTEGER, incl_alloc_objects INTEGER,"
	" self_majflt INTEGER, incl_majflt INTEGER, self_nvcsw INTEGER, incl_nvcsw INTEGER,"
	" self_nivcsw INTEGER, incl_nivcsw INTEGER)";

static int ct_connect(sqlite3 *conn, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **errmsg)
{
	(void)argc;
	(void)argv;
	(void)errmsg;
	return bt_vtab_connect(conn, ct_schema, aux, out);
}

/* A thread's paths are contiguous: a tid scan reads only them. */
static int ct_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	return bt_vtab_best_index(info, 0, 1, 1e6, 1e4, 1e4);
}

static int ct_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return bt_vtab_cursor(sizeof(struct ct_cursor), out);
}

static const struct bt_profile *profile_of(const sqlite3_vtab_cursor *cur)
{
	return ((const struct bt_mem_vtab *)cur->pVtab)->data;
}

/* Move to the first row at or after i that is not a thread's root. */
static void ct_settle(struct ct_cursor *c)
{
	const struct bt_profile *p = profile_of(&c->base);

	while (c->i < c->end && !bt_profile_calltree_row(p, (uint32_t)c->i, c->col))
		c->i++;
}

static int ct_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct ct_cursor *c = (struct ct_cursor *)cur;
	const struct bt_profile *p = profile_of(cur);
	uint32_t first, end;
	int a = 0;

	(void)idxstr;
	(void)argc;
	c->i = 1;
	c->end = (size_t)bt_profile_npaths(p) + 1;
	if (idx & BT_VTAB_BY_TID) {
		sqlite3_value *v = argv[a++];
		if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER &&
		    bt_profile_thread_paths(p, sqlite3_value_int64(v), &first, &end)) {
			c->i = first;
			c->end = end;
		} else {
			c->end = c->i;
		}
	}
	if (idx & BT_VTAB_BY_ID)
		bt_vtab_only_id(argv[a], &c->i, &c->end);
	ct_settle(c);
	return SQLITE_OK;
}

static int ct_next(sqlite3_vtab_cursor *cur)
{
	struct ct_cursor *c = (struct ct_cursor *)cur;

	c->i++;
	ct_settle(c);
	return SQLITE_OK;
}

static int ct_eof(sqlite3_vtab_cursor *cur)
{
	const struct ct_cursor *c = (const struct ct_cursor *)cur;

	return c->i >= c->end;
}

static int ct_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct ct_cursor *c = (const struct ct_cursor *)cur;

	if (col == BT_CT_PARENT && !c->col[col])
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, c->col[col]);
	return SQLITE_OK;
}

static int ct_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = ((const struct ct_cursor *)cur)->i;
	return SQLITE_OK;
}

static const sqlite3_module ct_module = {
	.iVersion = 0,
	.xCreate = NULL,   /* eponymous only */
	.xConnect = ct_connect,
	.xBestIndex = ct_best_index,
	.xDisconnect = bt_vtab_disconnect,
	.xDestroy = bt_vtab_disconnect,
	.xOpen = ct_open,
	.xClose = bt_vtab_close,
	.xFilter = ct_filter,
	.xNext = ct_next,
	.xEof = ct_eof,
	.xColumn = ct_column,
	.xRowid = ct_rowid,
};

static void free_profile(void *p)
{
	bt_profile_free(p);
}

int bt_db_attach_calltree(struct bt_db *db, struct bt_profile *p, int keep, struct bt_err *err)
{
	if (bt_db_bulk_idle(db, err)) {
		bt_profile_free(p);
		return err->code;
	}
	if (sqlite3_create_module_v2(db->conn, "bt_calltree_mem", &ct_module, p, free_profile) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot register the call tree: %s", sqlite3_errmsg(db->conn));
	return bt_db_run_sql(db, keep ? "INSERT INTO main.calltree SELECT * FROM bt_calltree_mem"
			     : "CREATE TEMP VIEW calltree AS SELECT * FROM bt_calltree_mem", err);
}
