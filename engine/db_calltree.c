/*
 * The call tree of a profile in memory as an SQLite table: a scratch
 * analysis reads it through this eponymous virtual table instead of
 * storing its ~0.4 rows per record. "tid = ?" and "id = ?" scan only
 * what they need: a thread's paths are contiguous.
 */
#include <string.h>

#include "db_int.h"
#include "profile.h"

struct ct_vtab {
	sqlite3_vtab base;
	struct bt_profile *p;
};

struct ct_cursor {
	sqlite3_vtab_cursor base;
	uint32_t i, end;
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
	struct ct_vtab *v;
	int rc = sqlite3_declare_vtab(conn, ct_schema);

	(void)argc;
	(void)argv;
	(void)errmsg;
	if (rc != SQLITE_OK)
		return rc;
	if (!(v = sqlite3_malloc(sizeof *v)))
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->p = aux;
	*out = &v->base;
	return SQLITE_OK;
}

static int ct_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* idxNum bit 1: tid = argv[0]; bit 2: id = the next argv. */
static int ct_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int i, n = 0, tid = -1, id = -1;

	(void)vt;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (c->iColumn == 1 && tid < 0)
			tid = i;
		else if ((c->iColumn == 0 || c->iColumn == -1) && id < 0)
			id = i;
	}
	info->idxNum = 0;
	if (tid >= 0) {
		info->idxNum |= 1;
		info->aConstraintUsage[tid].argvIndex = ++n;
		info->aConstraintUsage[tid].omit = 1;
	}
	if (id >= 0) {
		info->idxNum |= 2;
		info->aConstraintUsage[id].argvIndex = ++n;
		info->aConstraintUsage[id].omit = 1;
	}
	info->estimatedCost = id >= 0 ? 1 : tid >= 0 ? 1e4 : 1e6;
	info->estimatedRows = id >= 0 ? 1 : tid >= 0 ? 10000 : 1000000;
	if (id >= 0)
		info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
	if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn <= 0 && !info->aOrderBy[0].desc)
		info->orderByConsumed = 1;   /* rows come in id order */
	return SQLITE_OK;
}

static int ct_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct ct_cursor *c = sqlite3_malloc(sizeof *c);

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*out = &c->base;
	return SQLITE_OK;
}

static int ct_close(sqlite3_vtab_cursor *cur)
{
	sqlite3_free(cur);
	return SQLITE_OK;
}

/* Move to the first row at or after i that is not a thread's root. */
static void ct_settle(struct ct_cursor *c)
{
	const struct bt_profile *p = ((struct ct_vtab *)c->base.pVtab)->p;

	while (c->i < c->end && !bt_profile_calltree_row(p, c->i, c->col))
		c->i++;
}

static int ct_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct ct_cursor *c = (struct ct_cursor *)cur;
	const struct bt_profile *p = ((struct ct_vtab *)cur->pVtab)->p;
	int a = 0;

	(void)idxstr;
	(void)argc;
	c->i = 1;
	c->end = bt_profile_npaths(p) + 1;
	if (idx & 1) {
		sqlite3_value *v = argv[a++];
		if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER ||
		    !bt_profile_thread_paths(p, sqlite3_value_int64(v), &c->i, &c->end))
			c->end = c->i;
	}
	if (idx & 2) {
		sqlite3_value *v = argv[a];
		sqlite3_int64 id = sqlite3_value_int64(v);
		if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || id < c->i || id >= c->end) {
			c->end = c->i;
		} else {
			c->i = (uint32_t)id;
			c->end = (uint32_t)id + 1;
		}
	}
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
	.xDisconnect = ct_disconnect,
	.xDestroy = ct_disconnect,
	.xOpen = ct_open,
	.xClose = ct_close,
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
