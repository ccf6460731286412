/*
 * Pieces the in-memory virtual tables share (db_bulk.c, db_memtab.c,
 * db_samples.c): allocation of tables and cursors, and the index choice
 * of a table whose rows come in id order and can be looked up by id and
 * filtered by tid.
 */
#include <string.h>

#include "engine/db/db_int.h"

int bt_vtab_connect(sqlite3 *conn, const char *schema, void *data, sqlite3_vtab **out)
{
	struct bt_mem_vtab *v;
	int rc = sqlite3_declare_vtab(conn, schema);

	if (rc != SQLITE_OK)
		return rc;
	if (!(v = sqlite3_malloc(sizeof *v)))
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->data = data;
	*out = &v->base;
	return SQLITE_OK;
}

int bt_vtab_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

int bt_vtab_cursor(size_t size, sqlite3_vtab_cursor **out)
{
	sqlite3_vtab_cursor *c = sqlite3_malloc((int)size);

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, size);
	*out = c;
	return SQLITE_OK;
}

int bt_vtab_close(sqlite3_vtab_cursor *cur)
{
	sqlite3_free(cur);
	return SQLITE_OK;
}

void bt_vtab_only_id(sqlite3_value *v, size_t *lo, size_t *hi)
{
	sqlite3_int64 id = sqlite3_value_int64(v);

	if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || id < 0 || (size_t)id < *lo ||
	    (size_t)id >= *hi) {
		*hi = *lo;
	} else {
		*lo = (size_t)id;
		*hi = (size_t)id + 1;
	}
}

int bt_vtab_update_readonly(sqlite3_vtab *vt, int argc, sqlite3_value **argv, sqlite3_int64 *rowid)
{
	(void)vt;
	(void)argc;
	(void)argv;
	(void)rowid;
	return SQLITE_READONLY;
}

int bt_vtab_best_index(sqlite3_index_info *info, int id_col, int tid_col, double rows, double tid_rows,
		       double tid_cost)
{
	int i, n = 0, tid = -1, id = -1;

	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (c->iColumn == tid_col && tid < 0)
			tid = i;
		else if ((c->iColumn == id_col || c->iColumn == -1) && id < 0)
			id = i;
	}
	info->idxNum = 0;
	if (tid >= 0) {
		info->idxNum |= BT_VTAB_BY_TID;
		info->aConstraintUsage[tid].argvIndex = ++n;
		info->aConstraintUsage[tid].omit = 1;
	}
	if (id >= 0) {
		info->idxNum |= BT_VTAB_BY_ID;
		info->aConstraintUsage[id].argvIndex = ++n;
		info->aConstraintUsage[id].omit = 1;
		info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
	}
	info->estimatedRows = id >= 0 ? 1 : tid >= 0 ? (sqlite3_int64)tid_rows : (sqlite3_int64)rows;
	info->estimatedCost = id >= 0 ? 1 : tid >= 0 ? tid_cost : rows;
	if (info->nOrderBy == 1 && (info->aOrderBy[0].iColumn == id_col || info->aOrderBy[0].iColumn == -1) &&
	    !info->aOrderBy[0].desc)
		info->orderByConsumed = 1;   /* rows come in id order */
	return SQLITE_OK;
}
