/*
 * A table of integer (and some text) columns whose rows stay in memory,
 * owned by someone above the database (the profile's call tree, the
 * display frames): an eponymous virtual table read through a temp view,
 * or copied into a stored table. Rows are ids 1..n, some of which may be
 * holes; "tid = ?" scans only the range the owner gives for it, "id = ?"
 * is a lookup.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/db_int.h"

struct mt_cursor {
	sqlite3_vtab_cursor base;
	size_t i, end;   /* row ids */
	int ge_col;      /* with a lower bound: only rows where that column >= ge; else -1 */
	int64_t ge;
};

/* idxNum bit: "column >= ?" is checked while scanning (the column in the
 * bits above 8), so rows below a threshold never reach SQLite. */
#define MT_BY_GE 4

static const struct bt_memtab *table_of(const sqlite3_vtab_cursor *cur)
{
	return ((const struct bt_mem_vtab *)cur->pVtab)->data;
}

static int mt_connect(sqlite3 *conn, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **errmsg)
{
	const struct bt_memtab *t = aux;

	(void)argc;
	(void)argv;
	(void)errmsg;
	return bt_vtab_connect(conn, t->schema, aux, out);
}

/* Any scan reads the rows by id (column 0), so ORDER BY id needs no
 * sort. A thread's rows are contiguous: a tid scan reads only them, and
 * with threads in tid order rows come ordered by tid too. One lower bound
 * on another column is checked here too (SQLite checks it again: a bound
 * that is no integer filters nothing here). */
static int mt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct bt_memtab *t = ((const struct bt_mem_vtab *)vt)->data;
	int i, n = 0, rc = bt_vtab_best_index(info, 0, 1, 1e6, 1e4, 1e4);

	if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
	    (info->aOrderBy[0].iColumn == 0 || (t->tid_sorted && info->aOrderBy[0].iColumn == 1)))
		info->orderByConsumed = 1;   /* by id; a GROUP BY tid where threads come in order */
	for (i = 0; i < info->nConstraint; i++)
		n += info->aConstraintUsage[i].argvIndex > 0;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (c->usable && c->op == SQLITE_INDEX_CONSTRAINT_GE && c->iColumn > 1 &&
		    c->iColumn < BT_MEMTAB_MAX_COLS && !(t->text_cols >> c->iColumn & 1)) {
			info->idxNum |= MT_BY_GE | c->iColumn << 8;
			info->aConstraintUsage[i].argvIndex = ++n;
			break;
		}
	}
	return rc;
}

static int mt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return bt_vtab_cursor(sizeof(struct mt_cursor), out);
}

/* Move to the first row at or after i that is not a hole. */
static void mt_settle(struct mt_cursor *c)
{
	const struct bt_memtab *t = table_of(&c->base);

	while (c->i < c->end && (!t->exists(t->data, c->i) ||
				 (c->ge_col >= 0 && t->column(t->data, c->i, c->ge_col) < c->ge)))
		c->i++;
}

static int mt_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct mt_cursor *c = (struct mt_cursor *)cur;
	const struct bt_memtab *t = table_of(cur);
	size_t first, end;
	int a = 0;

	(void)idxstr;
	(void)argc;
	c->i = 1;
	c->end = t->nrows(t->data) + 1;
	if (idx & BT_VTAB_BY_TID) {
		sqlite3_value *v = argv[a++];
		if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER &&
		    t->tid_rows(t->data, sqlite3_value_int64(v), &first, &end)) {
			c->i = first;
			c->end = end;
		} else {
			c->end = c->i;
		}
	}
	if (idx & BT_VTAB_BY_ID)
		bt_vtab_only_id(argv[a++], &c->i, &c->end);
	c->ge_col = -1;
	if ((idx & MT_BY_GE) && sqlite3_value_numeric_type(argv[a]) == SQLITE_INTEGER) {
		c->ge_col = idx >> 8;
		c->ge = sqlite3_value_int64(argv[a]);
	}
	mt_settle(c);
	return SQLITE_OK;
}

static int mt_next(sqlite3_vtab_cursor *cur)
{
	struct mt_cursor *c = (struct mt_cursor *)cur;

	c->i++;
	mt_settle(c);
	return SQLITE_OK;
}

static int mt_eof(sqlite3_vtab_cursor *cur)
{
	const struct mt_cursor *c = (const struct mt_cursor *)cur;

	return c->i >= c->end;
}

static int mt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct mt_cursor *c = (const struct mt_cursor *)cur;
	const struct bt_memtab *t = table_of(cur);
	int64_t v;

	if (col < 0 || col >= BT_MEMTAB_MAX_COLS) {
		sqlite3_result_null(ctx);
		return SQLITE_OK;
	}
	if (t->text_cols >> col & 1) {
		const char *s = t->text(t->data, c->i, col);
		if (s)
			sqlite3_result_text(ctx, s, -1, SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
		return SQLITE_OK;
	}
	v = t->column(t->data, c->i, col);
	if (v == BT_MEMTAB_NULL || (!v && (t->zero_null & (1u << col))))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
	return SQLITE_OK;
}

static int mt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((const struct mt_cursor *)cur)->i;
	return SQLITE_OK;
}

static const sqlite3_module mt_module = {
	.iVersion = 0,
	.xCreate = NULL,   /* eponymous only */
	.xConnect = mt_connect,
	.xBestIndex = mt_best_index,
	.xDisconnect = bt_vtab_disconnect,
	.xDestroy = bt_vtab_disconnect,
	.xOpen = mt_open,
	.xClose = bt_vtab_close,
	.xFilter = mt_filter,
	.xNext = mt_next,
	.xEof = mt_eof,
	.xColumn = mt_column,
	.xRowid = mt_rowid,
};

static void free_table(void *p)
{
	struct bt_memtab *t = p;

	if (t->release)
		t->release(t->data);
	free(t);
}

int bt_db_attach_memtab(struct bt_db *db, const struct bt_memtab *t, int keep, struct bt_err *err)
{
	struct bt_memtab *own = bt_xmalloc(sizeof *own);
	struct bt_buf sql = BT_BUF_INIT;
	int rc, paged = 0;

	*own = *t;
	if (bt_db_bulk_idle(db, err)) {
		free_table(own);
		return err->code;
	}
	bt_buf_addf(&sql, "bt_%s_mem", t->name);
	rc = sqlite3_create_module_v2(db->conn, sql.buf, &mt_module, own, free_table);
	if (rc != SQLITE_OK) {
		bt_buf_release(&sql);
		return bt_err_set(err, BT_ESQL, "cannot register the %s table: %s", t->name,
				  sqlite3_errmsg(db->conn));
	}
	bt_buf_reset(&sql);
	if (keep && (rc = bt_pages_memtab(db, own, &paged, err)) != BT_OK) {
		bt_buf_release(&sql);
		return rc;
	}
	if (keep && !paged)
		bt_buf_addf(&sql, "INSERT INTO main.%s SELECT * FROM bt_%s_mem", t->name, t->name);
	else if (!keep)
		bt_buf_addf(&sql, "CREATE TEMP VIEW %s AS SELECT * FROM bt_%s_mem", t->name, t->name);
	rc = sql.len ? bt_db_run_sql(db, sql.buf, err) : BT_OK;
	bt_buf_release(&sql);
	return rc;
}
