/*
 * Row cursors (see rows.h). Ad hoc SQL is checked with
 * sqlite3_stmt_readonly so a query can never change a trace.
 */
#include <ctype.h>
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/db/db_int.h"
#include "engine/db/rows.h"

struct bt_rows {
	struct bt_db *db;
	sqlite3_stmt *st;
	const char *name;   /* for messages */
};

static struct bt_rows *rows_new(struct bt_db *db, sqlite3_stmt *st, const char *name)
{
	struct bt_rows *r = bt_xmalloc(sizeof *r);

	r->db = db;
	r->st = st;
	r->name = name;
	return r;
}

/* What the authorizer watches while a statement is prepared. */
struct watch {
	int reads_slices;
	int strict;        /* a rule's SQL: no ATTACH, DETACH or PRAGMA */
	int refused;
};

/* Read-only pragmas a rule may use as table-valued functions. */
static int harmless_pragma(const char *name)
{
	static const char *const ok[] = { "table_info", "table_xinfo", "index_list", "index_info",
					  "index_xinfo", "foreign_key_list", NULL };
	int i;

	for (i = 0; name && ok[i]; i++)
		if (!sqlite3_stricmp(name, ok[i]))
			return 1;
	return 0;
}

static int watch(void *ctx, int action, const char *a, const char *b, const char *c, const char *d)
{
	struct watch *w = ctx;

	(void)b;
	(void)c;
	(void)d;
	if (action == SQLITE_READ && a && !sqlite3_stricmp(a, "slices"))
		w->reads_slices = 1;
	if (w->strict && (action == SQLITE_ATTACH || action == SQLITE_DETACH ||
			  (action == SQLITE_PRAGMA && !harmless_pragma(a)) ||
			  (action == SQLITE_FUNCTION && b && !sqlite3_stricmp(b, "load_extension")))) {
		w->refused = 1;
		return SQLITE_DENY;
	}
	return SQLITE_OK;
}

/* Prepare sql; if it reads slices that are still deferred, fill them
 * first (bt_db_need_slices) and prepare again. */
static int prepare(struct bt_db *db, const char *sql, int strict, sqlite3_stmt **st, const char **tail,
		   struct bt_err *err)
{
	struct watch w = { 0, strict, 0 };
	int rc;

	*st = NULL;
	if (bt_db_flush(db, err))
		return -1;
	if (!bt_db_slices_deferred(db) && !strict)
		return sqlite3_prepare_v2(db->conn, sql, -1, st, tail);
	sqlite3_set_authorizer(db->conn, watch, &w);
	rc = sqlite3_prepare_v2(db->conn, sql, -1, st, tail);
	sqlite3_set_authorizer(db->conn, NULL, NULL);
	if (rc != SQLITE_OK || !w.reads_slices || !bt_db_slices_deferred(db))
		return rc;
	sqlite3_finalize(*st);
	*st = NULL;
	if (bt_db_need_slices(db, err))
		return -1;
	return sqlite3_prepare_v2(db->conn, sql, -1, st, tail);
}

int bt_rows_open(struct bt_rows **out, struct bt_db *db, enum bt_sql_id id, struct bt_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	rc = prepare(db, bt_sql_text[id], 0, &st, NULL, err);
	if (rc < 0)
		return err->code;
	if (rc != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot prepare query '%s': %s", bt_sql_name[id],
				  sqlite3_errmsg(db->conn));
	*out = rows_new(db, st, bt_sql_name[id]);
	return BT_OK;
}

static int only_space(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s) && *s != ';')
			return 0;
	return 1;
}

int bt_rows_open_sql(struct bt_rows **out, struct bt_db *db, const char *sql, int strict,
		     struct bt_err *err)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int rc;

	*out = NULL;
	rc = prepare(db, sql, strict, &st, &tail, err);
	if (rc < 0)
		return err->code;
	if (rc == SQLITE_AUTH)
		return bt_err_set(err, BT_EUSAGE, "query refused: rules may not ATTACH, DETACH or use pragmas");
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return bt_err_set(err, BT_EUSAGE, "bad query: %s", sqlite3_errmsg(db->conn));
	}
	if (!st)
		return bt_err_set(err, BT_EUSAGE, "empty query");
	if (tail && !only_space(tail)) {
		sqlite3_finalize(st);
		return bt_err_set(err, BT_EUSAGE, "query holds more than one statement near '%.40s'", tail);
	}
	if (!sqlite3_stmt_readonly(st)) {
		sqlite3_finalize(st);
		return bt_err_set(err, BT_EUSAGE, "query would modify the trace; only read-only SQL is allowed");
	}
	*out = rows_new(db, st, "<command line>");
	return BT_OK;
}

void bt_rows_bind_int(struct bt_rows *r, int idx, int64_t v)
{
	sqlite3_bind_int64(r->st, idx, v);
}

void bt_rows_bind_real(struct bt_rows *r, int idx, double v)
{
	sqlite3_bind_double(r->st, idx, v);
}

void bt_rows_bind_text(struct bt_rows *r, int idx, const char *s, size_t len)
{
	sqlite3_bind_text64(r->st, idx, s, len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

void bt_rows_bind_null(struct bt_rows *r, int idx)
{
	sqlite3_bind_null(r->st, idx);
}

int bt_rows_nparams(struct bt_rows *r)
{
	return sqlite3_bind_parameter_count(r->st);
}

int bt_rows_next(struct bt_rows *r, struct bt_err *err)
{
	int rc = sqlite3_step(r->st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	bt_err_set(err, BT_ESQL, "query '%s' failed: %s", r->name, sqlite3_errmsg(r->db->conn));
	return -1;
}

int bt_rows_ncols(struct bt_rows *r)
{
	return sqlite3_column_count(r->st);
}

const char *bt_rows_name(struct bt_rows *r, int col)
{
	return sqlite3_column_name(r->st, col);
}

int bt_rows_type(struct bt_rows *r, int col)
{
	switch (sqlite3_column_type(r->st, col)) {
	case SQLITE_INTEGER: return BT_ROWS_INT;
	case SQLITE_FLOAT: return BT_ROWS_REAL;
	case SQLITE_TEXT: return BT_ROWS_TEXT;
	case SQLITE_BLOB: return BT_ROWS_BLOB;
	default: return BT_ROWS_NULL;
	}
}

int64_t bt_rows_int(struct bt_rows *r, int col)
{
	return sqlite3_column_int64(r->st, col);
}

double bt_rows_real(struct bt_rows *r, int col)
{
	return sqlite3_column_double(r->st, col);
}

const char *bt_rows_text(struct bt_rows *r, int col, size_t *len)
{
	const char *s = (const char *)sqlite3_column_text(r->st, col);

	if (len)
		*len = s ? (size_t)sqlite3_column_bytes(r->st, col) : 0;
	return s;
}

void bt_rows_close(struct bt_rows *r)
{
	if (!r)
		return;
	sqlite3_finalize(r->st);
	free(r);
}

int bt_frame_names_load(struct bt_db *db, char ***names, size_t *n, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	*names = NULL;
	*n = 0;
	if (bt_rows_open(&r, db, BT_SQL_FRAMES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t id = bt_rows_int(r, 0);
		const char *name = bt_rows_text(r, 1, NULL);
		if (id <= 0 || id >= INT32_MAX || !name)   /* ids are positive rowids */
			continue;
		*names = bt_grow_zero(*names, sizeof **names, &cap, (size_t)id);
		free((*names)[id]);
		(*names)[id] = bt_xstrdup(name);
		if ((size_t)id >= *n)
			*n = (size_t)id + 1;
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

void bt_frame_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
