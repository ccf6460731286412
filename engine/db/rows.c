/*
 * Row cursors (see rows.h). Ad hoc SQL is checked with
 * sqlite3_stmt_readonly so a query can never change a trace.
 */
#include <ctype.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/db/db_int.h"
#include "engine/db/rows.h"

struct bt_rows {
	struct bt_db *db;
	sqlite3_stmt *st;
	const char *name;   /* for messages */
	struct bt_rows_budget *budget;
};

static struct bt_rows *rows_new(struct bt_db *db, sqlite3_stmt *st, const char *name)
{
	struct bt_rows *r = bt_xmalloc(sizeof *r);

	r->db = db;
	r->st = st;
	r->name = name;
	r->budget = NULL;
	return r;
}

/* What the authorizer watches while a statement is prepared. */
struct watch {
	int reads_slices;
	int strict;        /* a rule's SQL: no ATTACH, DETACH, PRAGMA or transactions */
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
			  action == SQLITE_TRANSACTION || action == SQLITE_SAVEPOINT ||
			  (action == SQLITE_PRAGMA && !harmless_pragma(a)) ||
			  /* a pragma as a table-valued function: pragma_NAME */
			  (action == SQLITE_READ && a && !sqlite3_strnicmp(a, "pragma_", 7) &&
			   !harmless_pragma(a + 7)) ||
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

int bt_rows_one_int(struct bt_db *db, enum bt_sql_id id, int64_t arg, int64_t def, int64_t *v,
		    struct bt_err *err)
{
	struct bt_rows *r;
	int rc;

	*v = def;
	if (bt_rows_open(&r, db, id, err))
		return err->code;
	if (bt_rows_nparams(r))
		bt_rows_bind_int(r, 1, arg);
	rc = bt_rows_next(r, err);
	if (rc == 1 && bt_rows_type(r, 0) != BT_ROWS_NULL)
		*v = bt_rows_int(r, 0);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
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
		return bt_err_set(err, BT_EUSAGE, "query refused: rules may not ATTACH, DETACH, use pragmas or "
				  "transactions");
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return bt_err_set(err, BT_ESQL, "bad query: %s", sqlite3_errmsg(db->conn));   /* no usage error */
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

void bt_rows_budget(struct bt_rows *r, struct bt_rows_budget *b)
{
	r->budget = b;
}

/*
 * SQLite's allocator, counted: SQLite's own statistics take a mutex per
 * allocation (db.c turns them off), a relaxed counter costs next to
 * nothing. The limit is set only while a budgeted step runs, when no
 * other thread uses SQLite.
 */
static sqlite3_mem_methods heap_base;
static atomic_llong heap_used, heap_limit;

static int heap_refuses(long long more)
{
	long long limit = atomic_load_explicit(&heap_limit, memory_order_relaxed);

	return limit > 0 && atomic_load_explicit(&heap_used, memory_order_relaxed) + more > limit;
}

static void heap_count(long long n)
{
	atomic_fetch_add_explicit(&heap_used, n, memory_order_relaxed);
}

static void *heap_malloc(int n)
{
	void *p;

	if (heap_refuses(n))
		return NULL;
	if ((p = heap_base.xMalloc(n)))
		heap_count(heap_base.xSize(p));
	return p;
}

static void heap_free(void *p)
{
	if (p)
		heap_count(-(long long)heap_base.xSize(p));
	heap_base.xFree(p);
}

static void *heap_realloc(void *p, int n)
{
	int old = heap_base.xSize(p);
	void *q;

	if (n > old && heap_refuses(n - old))
		return NULL;
	if ((q = heap_base.xRealloc(p, n)))
		heap_count((long long)heap_base.xSize(q) - old);
	return q;
}

void bt_rows_heap_install(void)
{
	sqlite3_mem_methods m;

	sqlite3_config(SQLITE_CONFIG_GETMALLOC, &heap_base);
	m = heap_base;
	m.xMalloc = heap_malloc;
	m.xFree = heap_free;
	m.xRealloc = heap_realloc;
	sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
}

int64_t bt_rows_heap_used(void)
{
	return atomic_load_explicit(&heap_used, memory_order_relaxed);
}

static int tick(void *ctx)
{
	struct bt_rows_budget *b = ctx;

	return (b->stopped = b->tick(b->ctx));
}

/* A step under r's budget: the progress handler and the heap limit are
 * the connection's and the process's, so they hold for this step only. */
static int step_budgeted(struct bt_rows *r)
{
	struct bt_rows_budget *b = r->budget;
	int rc;

	b->stopped = b->nomem = 0;
	sqlite3_progress_handler(r->db->conn, BT_ROWS_TICK, tick, b);
	atomic_store_explicit(&heap_limit, b->heap_limit, memory_order_relaxed);
	rc = sqlite3_step(r->st);
	atomic_store_explicit(&heap_limit, 0, memory_order_relaxed);
	sqlite3_progress_handler(r->db->conn, 0, NULL, NULL);
	b->nomem = rc == SQLITE_NOMEM;
	return rc;
}

int bt_rows_next(struct bt_rows *r, struct bt_err *err)
{
	int rc = r->budget ? step_budgeted(r) : sqlite3_step(r->st);

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
