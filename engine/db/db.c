/*
 * The trace database connection (see db.h): pragmas, schema, the registry
 * of prepared statements from queries/, transactions and publishing.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/db/appcode.h"
#include "engine/db/db_int.h"
#include "engine/db/percentile.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"

#define BT_TOOL_NAME "btrace-analyze"

/* A full disk or an I/O error is about a file: say which, and the errno
 * (the scratch database of a run without --db lives in $TMPDIR). */
static int sql_fail(struct bt_db *db, const char *what, struct bt_err *err)
{
	int code = sqlite3_errcode(db->conn) & 0xff, sys = sqlite3_system_errno(db->conn);
	const char *dir = getenv("TMPDIR");

	if (!sys && code == SQLITE_FULL)
		sys = ENOSPC;   /* SQLite keeps no errno for a short write */
	if (code != SQLITE_FULL && code != SQLITE_IOERR)
		return bt_err_set(err, BT_ESQL, "%s failed: %s", what, sqlite3_errmsg(db->conn));
	if (db->tmp_path)
		return bt_err_set(err, BT_ESQL, "%s failed: %s: writing '%s': %s", what, sqlite3_errmsg(db->conn),
				  db->tmp_path, sys ? strerror(sys) : "no system error");
	return bt_err_set(err, BT_ESQL, "%s failed: %s: writing the scratch database in '%s': %s", what,
			  sqlite3_errmsg(db->conn), dir && *dir ? dir : "/tmp",
			  sys ? strerror(sys) : "no system error");
}

static int query_fail(struct bt_db *db, enum bt_sql_id id, struct bt_err *err)
{
	struct bt_buf what = BT_BUF_INIT;
	int rc;

	bt_buf_addf(&what, "query '%s'", bt_sql_name[id]);
	rc = sql_fail(db, what.buf, err);
	bt_buf_release(&what);
	return rc;
}

/* Registered statement id, prepared on first use; NULL with err set when
 * it cannot be. A database that lacks a column (a damaged or hand-made
 * file, or an older version's) is named as such. */
static sqlite3_stmt *stmt_of(struct bt_db *db, enum bt_sql_id id, struct bt_err *err)
{
	const char *msg;

	if (db->stmt[id] || sqlite3_prepare_v3(db->conn, bt_sql_text[id], -1, SQLITE_PREPARE_PERSISTENT,
					       &db->stmt[id], NULL) == SQLITE_OK)
		return db->stmt[id];
	msg = sqlite3_errmsg(db->conn);
	if (db->opened && !strncmp(msg, "no such column: ", 16))
		bt_err_set(err, BT_EFORMAT, "'%s' is not a btrace-analyze trace database of this version: "
			   "a table lacks column '%s' (cannot prepare query '%s')", db->path, msg + 16, bt_sql_name[id]);
	else
		bt_err_set(err, BT_ESQL, "cannot prepare query '%s': %s", bt_sql_name[id], msg);
	return NULL;
}

int bt_db_run_sql(struct bt_db *db, const char *sql, struct bt_err *err)
{
	if (sqlite3_exec(db->conn, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_fail(db, sql, err);
	return BT_OK;
}

/*
 * Each connection is used by one thread at a time, so SQLite's per-call
 * mutexes and its allocation statistics are pure overhead on bulk loads.
 */
static void configure_library(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	bt_rows_heap_install();
}

static int db_connect(struct bt_db *db, const char *file, int flags, struct bt_err *err)
{
	configure_library();
	if (sqlite3_open_v2(file, &db->conn, flags, NULL) != SQLITE_OK) {
		int sys = db->conn ? sqlite3_system_errno(db->conn) : 0;
		bt_err_set(err, db->conn ? BT_ESQL : BT_EIO, "cannot open database '%s': %s%s%s", file,
			   db->conn ? sqlite3_errmsg(db->conn) : "out of memory", sys ? ": " : "",
			   sys ? strerror(sys) : "");
		return err->code;
	}
	sqlite3_extended_result_codes(db->conn, 1);
	if (bt_db_register_appcode(db) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot register bt_app_node: %s", sqlite3_errmsg(db->conn));
	if (bt_db_register_percentile(db) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot register bt_percentile: %s", sqlite3_errmsg(db->conn));
	return BT_OK;
}

/*
 * Bulk-load settings: the file is private until published and is thrown
 * away on failure, so neither a journal nor fsync buys anything.
 */
#define CACHE_KIB 8192   /* the page cache for one input's tables */
static const char load_pragmas[] =
	"PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	"PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-8192;";

int bt_db_cache_inputs(struct bt_db *db, int n, struct bt_err *err)
{
	char sql[64];

	snprintf(sql, sizeof sql, "PRAGMA cache_size=-%lld", (long long)CACHE_KIB * (n > 1 ? n : 1));
	return bt_db_run_sql(db, sql, err);
}

/* A new empty file in $TMPDIR for a database that is not kept. */
static int scratch_file(struct bt_buf *name, struct bt_err *err)
{
	int fd = bt_temp_file("btrace-analyze", "a scratch database", name, err);

	if (fd < 0)
		return err->code;
	close(fd);
	return BT_OK;
}

/* The temporary beside path that is renamed over it (or over the file
 * its symbolic links end at, so a link stays a link) when published. */
static int temp_beside(struct bt_db *db, const char *path, struct bt_err *err)
{
	struct bt_buf real = BT_BUF_INIT;
	int stream, fd;

	if (!strcmp(path, "-"))
		return bt_err_set(err, BT_EUSAGE, "a trace database cannot be written to stdout: give a file");
	if (bt_out_target(path, "a trace database", &real, &stream, err)) {
		bt_buf_release(&real);
		return err->code;
	}
	db->path = bt_buf_detach(&real, NULL);
	bt_buf_addf(&real, "%s.tmp-%ld", db->path, (long)getpid());
	db->tmp_path = bt_buf_detach(&real, NULL);
	bt_temps_add(db->tmp_path);
	/* made empty here (an empty file is a new database) so a failure has
	 * its errno: SQLite's would be "unable to open database file" */
	fd = bt_out_create_temp(db->tmp_path, O_RDWR | O_TRUNC);
	if (fd < 0)
		return bt_err_set(err, BT_EIO, "cannot create '%s': %s", db->tmp_path, strerror(errno));
	close(fd);
	return BT_OK;
}

int bt_db_create(struct bt_db **out, const char *path, struct bt_err *err)
{
	struct bt_db *db = bt_xcalloc(1, sizeof *db);
	struct bt_buf tmp = BT_BUF_INIT;
	const char *file = ":memory:";
	int rc;

	*out = NULL;
	bt_db_bulk_init(db);
	if (!path) {
		rc = scratch_file(&tmp, err);
		if (rc) {
			free(db);
			return rc;
		}
		file = tmp.buf;
	} else if (strcmp(path, ":memory:")) {
		if ((rc = temp_beside(db, path, err))) {
			bt_db_close(db);
			return rc;
		}
		file = db->tmp_path;
	}
	rc = db_connect(db, file, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err);
	if (!path) {
		bt_temps_remove(tmp.buf);   /* SQLite keeps the descriptor; nothing is left behind */
		bt_buf_release(&tmp);
	}
	if (!rc)
		rc = bt_db_run_sql(db, load_pragmas, err);
	if (!rc && sqlite3_exec(db->conn, bt_sql_text[BT_SQL_SCHEMA], NULL, NULL, NULL) != SQLITE_OK)
		rc = sql_fail(db, "creating the schema", err);
	if (!rc)   /* its statements are prepared on first use: a small trace uses few */
		rc = bt_db_bulk_register(db, err);
	if (!rc)
		rc = bt_db_set_meta_text(db, "tool", BT_TOOL_NAME, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "schema_version", BT_DB_SCHEMA_VERSION, err);
	if (rc) {
		bt_db_close(db);
		return rc;
	}
	*out = db;
	return BT_OK;
}

/* Past a "--" comment or a quoted string at p (the schema's text), else p. */
static const char *skip_text(const char *p)
{
	if (p[0] == '-' && p[1] == '-')
		return p + strcspn(p, "\n");
	if (*p == '\'' || *p == '"') {
		const char *q = strchr(p + 1, *p);
		return q ? q + 1 : p + strlen(p);
	}
	return p;
}

/* The next CREATE TABLE statement of the schema's text after *at: its
 * table's name into name and its text (as sqlite_schema keeps it: up to
 * the ';', trailing space left out) as [*sql, *end); 0 when none is left. */
static int next_table(const char **at, char *name, size_t n, const char **sql, const char **end)
{
	static const char key[] = "CREATE TABLE ";
	const char *p = strstr(*at, key), *q;
	size_t k = 0;

	if (!p)
		return 0;
	*sql = p;
	p += sizeof key - 1;
	while (*p && (isalnum((unsigned char)*p) || *p == '_') && k + 1 < n)
		name[k++] = *p++;
	name[k] = '\0';
	while (*p && *p != ';')
		p = (q = skip_text(p)) != p ? q : p + 1;
	for (q = p; q > *sql && isspace((unsigned char)q[-1]); q--)
		;
	*end = q;
	*at = p;
	return k > 0;
}

/* The first column the schema gives table (its statement [sql, end)) that
 * the database's table lacks, into col; 0 when it has them all. A column
 * is a line of the statement that begins with a name, not a constraint. */
static int missing_column(struct bt_db *db, const char *table, const char *sql, const char *end, char *col,
			  size_t n)
{
	static const char *const not_columns[] = { "PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "CONSTRAINT" };
	sqlite3_stmt *st = NULL;
	const char *p = strchr(sql, '(');
	int found = 0;
	size_t i, k;

	if (!p || p >= end ||
	    sqlite3_prepare_v2(db->conn, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st, NULL))
		return 0;
	while (!found && (p = strchr(p, '\n')) != NULL && p < end) {
		while (isspace((unsigned char)*p))
			p++;
		for (k = 0; (isalnum((unsigned char)p[k]) || p[k] == '_') && k + 1 < n; k++)
			col[k] = p[k];
		col[k] = '\0';
		for (i = 0; k && i < sizeof not_columns / sizeof not_columns[0]; i++)
			if (!strcmp(col, not_columns[i]))
				k = 0;
		if (!k)
			continue;
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
		found = sqlite3_step(st) != SQLITE_ROW;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return found;
}

/* A database that says it is ours but lacks a table or a column (a
 * damaged or hand-made file, an older version's) is named as such, not
 * by the first query it breaks: each table's statement in sqlite_schema
 * is the schema's own, else its columns are looked for one by one. Its
 * statements are prepared on first use (a query uses few). */
static int check_schema(struct bt_db *db, const char *path, struct bt_err *err)
{
	const char *at = bt_sql_text[BT_SQL_SCHEMA], *sql, *end;
	sqlite3_stmt *st = NULL;
	char name[128], col[128];
	int rc = BT_OK;

	if (sqlite3_prepare_v2(db->conn, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1", -1,
			       &st, NULL) != SQLITE_OK)
		return sql_fail(db, "reading the schema", err);
	while (!rc && next_table(&at, name, sizeof name, &sql, &end)) {
		const char *have;
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW)
			rc = bt_err_set(err, BT_EFORMAT, "'%s' is not a btrace-analyze trace database: it has no "
					"table '%s'", path, name);
		else if (!(have = (const char *)sqlite3_column_text(st, 0)) || strlen(have) != (size_t)(end - sql) ||
			 memcmp(have, sql, (size_t)(end - sql))) {
			if (missing_column(db, name, sql, end, col, sizeof col))
				rc = bt_err_set(err, BT_EFORMAT, "'%s' is not a btrace-analyze trace database of this "
						"version: table '%s' lacks column '%s'", path, name, col);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int bt_db_open(struct bt_db **out, const char *path, int readonly, struct bt_err *err)
{
	struct bt_db *db = bt_xcalloc(1, sizeof *db);
	int flags = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	int rc;

	*out = NULL;
	bt_db_bulk_init(db);
	db->path = bt_xstrdup(path);
	db->published = 1;
	db->opened = 1;
	rc = db_connect(db, path, flags, err);
	if (!rc && !bt_db_is_trace_db(path))
		rc = bt_err_set(err, BT_EFORMAT, "'%s' is not a btrace-analyze trace database", path);
	if (!rc)
		rc = bt_db_bulk_register(db, err);
	if (!rc)
		rc = check_schema(db, path, err);
	if (!rc && readonly)
		rc = bt_db_query_only(db, err);
	if (rc) {
		bt_db_close(db);
		return rc;
	}
	*out = db;
	return BT_OK;
}

int bt_db_is_trace_db(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	sqlite3 *conn = NULL;
	sqlite3_stmt *st = NULL;
	FILE *f = fopen(path, "rb");
	int yes = 0;

	if (!f)
		return 0;
	yes = fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, magic, sizeof head);
	/* ours are never in WAL mode (journal_mode=OFF), and opening a WAL
	 * file (an iOS btrace database) would make SQLite create -wal and
	 * -shm files beside it: header bytes 18-19 are 2 in WAL mode */
	if (yes && fseek(f, 18, SEEK_SET) == 0 && fread(head, 1, 2, f) == 2 && head[0] == 2 && head[1] == 2)
		yes = 0;
	fclose(f);
	if (!yes)
		return 0;
	yes = 0;
	configure_library();   /* before SQLite initialises, or the settings are refused */
	if (sqlite3_open_v2(path, &conn, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(conn, "SELECT value FROM meta WHERE key='tool'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);
		yes = v && !strcmp((const char *)v, BT_TOOL_NAME);
	}
	sqlite3_finalize(st);
	sqlite3_close(conn);
	return yes;
}

int bt_db_publish(struct bt_db *db, struct bt_err *err)
{
	if (!db->tmp_path || db->published)
		return BT_OK;
	if (rename(db->tmp_path, db->path) != 0)
		return bt_err_set(err, BT_EIO, "cannot rename '%s' to '%s': %s", db->tmp_path,
				  db->path, strerror(errno));
	db->published = 1;
	bt_temps_forget(db->tmp_path);
	return BT_OK;
}

void bt_db_close(struct bt_db *db)
{
	int i;

	if (!db)
		return;
	bt_db_bulk_stop(db);
	bt_pages_release(&db->pages);
	/* The deferred slices' maker (the slicer) reads the records and nodes
	 * the connection's in-memory tables own: it goes first, they go with
	 * the connection (engine/recon/pipeline.c says who hands what on). */
	bt_db_defer_slices(db, NULL, NULL, NULL);
	for (i = 0; i < BT_SQL__COUNT; i++)
		sqlite3_finalize(db->stmt[i]);
	bt_db_appcode_release(db);
	sqlite3_close(db->conn);
	if (db->tmp_path && !db->published)
		bt_temps_remove(db->tmp_path);
	free(db->tmp_path);
	free(db->path);
	free(db);
}

const char *bt_db_path(const struct bt_db *db)
{
	return db->path;
}

int bt_db_begin(struct bt_db *db, struct bt_err *err)
{
	return bt_db_run_sql(db, "BEGIN", err);
}

int bt_db_commit(struct bt_db *db, struct bt_err *err)
{
	if (bt_db_flush(db, err))
		return err->code;
	if (db->pages.on)
		return bt_pages_commit(db, err);
	return bt_db_run_sql(db, "COMMIT", err);
}

void bt_db_rollback(struct bt_db *db)
{
	bt_db_bulk_stop(db);
	db->pages.on = 0;
	if (!sqlite3_get_autocommit(db->conn))
		sqlite3_exec(db->conn, "ROLLBACK", NULL, NULL, NULL);
}

int bt_db_query_only(struct bt_db *db, struct bt_err *err)
{
	db->query_only = 1;
	return bt_db_run_sql(db, "PRAGMA query_only=ON", err);
}

int bt_db_step_done(struct bt_db *db, enum bt_sql_id id, struct bt_err *err)
{
	sqlite3_stmt *st = stmt_of(db, id, err);   /* the bulk writer's first row: the connection is its alone */
	int rc;

	if (!st)
		return err->code;
	rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return query_fail(db, id, err);
	return BT_OK;
}

int bt_db_exec(struct bt_db *db, enum bt_sql_id id, struct bt_err *err, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int i, rc;

	if (bt_db_bulk_idle(db, err) || !(st = stmt_of(db, id, err)))
		return err->code;
	va_start(ap, types);
	for (i = 0; types[i]; i++) {
		int n = i + 1;
		if (types[i] == 'i') {
			sqlite3_bind_int64(st, n, va_arg(ap, int64_t));
		} else if (types[i] == 'm') {
			int64_t v = va_arg(ap, int64_t);
			if (v == INT64_MIN)
				sqlite3_bind_null(st, n);
			else
				sqlite3_bind_int64(st, n, v);
		} else if (types[i] == 'd') {
			sqlite3_bind_double(st, n, va_arg(ap, double));
		} else if (types[i] == 't') {
			const char *s = va_arg(ap, const char *);
			if (s)
				sqlite3_bind_text(st, n, s, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, n);
		} else if (types[i] == 's') {
			const char *s = va_arg(ap, const char *);
			size_t len = va_arg(ap, size_t);
			if (s)
				sqlite3_bind_text(st, n, s, (int)len, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, n);
		} else if (types[i] == 'b') {
			const void *b = va_arg(ap, const void *);
			size_t len = va_arg(ap, size_t);
			if (b)
				sqlite3_bind_blob(st, n, b, (int)len, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, n);
		} else {
			sqlite3_bind_null(st, n);
		}
	}
	va_end(ap);
	rc = bt_db_step_done(db, id, err);
	sqlite3_clear_bindings(st);
	return rc;
}

int bt_db_script(struct bt_db *db, enum bt_sql_id id, struct bt_err *err)
{
	if (bt_db_bulk_idle(db, err))
		return err->code;
	if (sqlite3_exec(db->conn, bt_sql_text[id], NULL, NULL, NULL) != SQLITE_OK)
		return query_fail(db, id, err);
	return BT_OK;
}

int bt_db_exec_ints(struct bt_db *db, enum bt_sql_id id, const int64_t *v, int n, struct bt_err *err)
{
	return bt_db_exec_ints_nulls(db, id, v, n, 0, err);
}

int bt_db_exec_ints_nulls(struct bt_db *db, enum bt_sql_id id, const int64_t *v, int n, uint64_t nulls,
			  struct bt_err *err)
{
	sqlite3_stmt *st;
	int i;

	if (bt_db_bulk_idle(db, err) || !(st = stmt_of(db, id, err)))
		return err->code;
	for (i = 0; i < n; i++)
		if (i < 64 && (nulls >> i & 1))
			sqlite3_bind_null(st, i + 1);
		else
			sqlite3_bind_int64(st, i + 1, v[i]);
	return bt_db_step_done(db, id, err);
}

int bt_db_set_meta_text(struct bt_db *db, const char *key, const char *value, struct bt_err *err)
{
	return bt_db_exec(db, BT_SQL_SET_META, err, "tt", key, value);
}

int bt_db_set_meta_int(struct bt_db *db, const char *key, int64_t value, struct bt_err *err)
{
	return bt_db_exec(db, BT_SQL_SET_META, err, "ti", key, value);
}

/* Step registered query id with text parameter arg; *row tells if a row came. */
static int lookup(struct bt_db *db, enum bt_sql_id id, const char *arg, int *row, struct bt_err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (bt_db_flush(db, err) || !(st = stmt_of(db, id, err)))
		return err->code;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*row = rc == SQLITE_ROW;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_reset(st);
		return query_fail(db, id, err);
	}
	return BT_OK;
}

static void lookup_done(struct bt_db *db, enum bt_sql_id id)
{
	sqlite3_reset(db->stmt[id]);
	sqlite3_clear_bindings(db->stmt[id]);
}

int bt_db_meta_text(struct bt_db *db, const char *key, char *buf, size_t len, struct bt_err *err)
{
	int row;

	buf[0] = '\0';
	if (lookup(db, BT_SQL_GET_META, key, &row, err))
		return err->code;
	if (row && sqlite3_column_text(db->stmt[BT_SQL_GET_META], 0))
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(db->stmt[BT_SQL_GET_META], 0));
	lookup_done(db, BT_SQL_GET_META);
	return BT_OK;
}

int bt_db_meta_int(struct bt_db *db, const char *key, int64_t def, int64_t *out, struct bt_err *err)
{
	int row;

	*out = def;
	if (lookup(db, BT_SQL_GET_META, key, &row, err))
		return err->code;
	if (row && sqlite3_column_type(db->stmt[BT_SQL_GET_META], 0) == SQLITE_INTEGER)
		*out = sqlite3_column_int64(db->stmt[BT_SQL_GET_META], 0);
	lookup_done(db, BT_SQL_GET_META);
	return BT_OK;
}

int bt_db_main_tid(struct bt_db *db, int64_t *out, struct bt_err *err)
{
	int row;

	*out = -1;
	if (lookup(db, BT_SQL_MAIN_THREADS, NULL, &row, err))
		return err->code;
	if (row)
		*out = sqlite3_column_int64(db->stmt[BT_SQL_MAIN_THREADS], 0);
	lookup_done(db, BT_SQL_MAIN_THREADS);
	return BT_OK;
}
