/*
 * Reading the input database through SQLite (format spec §2): which tables
 * and columns it has, statements bound to the trace id, errors naming the
 * table and row, and column values checked as the writer's types (u32
 * integers, UTF-8 text) with what does not fit counted in diagnostics. A
 * database cut short is read table by table, as far as its pages go.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "importers/ios/ios_int.h"
#include "engine/base/utf8.h"

int bt_ios_check_size(const char *path, struct bt_ios_cut *cut)
{
	unsigned char h[100];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(h, 1, sizeof h, f) : 0;
	long size = f && !fseek(f, 0, SEEK_END) ? ftell(f) : -1;
	uint64_t page, pages;

	if (f)
		fclose(f);
	if (size < 0)
		return 0;
	cut->size = (uint64_t)size;
	if (n < sizeof h) {   /* not even the header: the want is unknown */
		cut->db = 1;
		return 1;
	}
	page = (uint64_t)(h[16] << 8 | h[17]);
	page = page == 1 ? 65536 : page;
	pages = (uint64_t)h[28] << 24 | (uint64_t)h[29] << 16 | (uint64_t)h[30] << 8 | h[31];
	/* the in-header size counts only when its change counter is current */
	if (!pages || memcmp(h + 24, h + 92, 4))
		return 0;
	cut->want = pages * page;
	cut->page = page;
	cut->db = cut->size < cut->want;
	return cut->db;
}

/* The cut VFS: the default one, but a file's size is the whole pages of
 * it, so pages past them are missing (SQLITE_CORRUPT when a read needs
 * them). Files are opened one at a time, so one limit serves. */
static sqlite3_vfs cut_vfs;
static sqlite3_io_methods cut_methods;
static int (*real_size)(sqlite3_file *, sqlite3_int64 *);
static sqlite3_int64 cut_limit;

static int cut_size(sqlite3_file *f, sqlite3_int64 *size)
{
	int rc = real_size(f, size);

	if (rc == SQLITE_OK && *size > cut_limit)
		*size = cut_limit;
	return rc;
}

static int cut_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
	sqlite3_vfs *real = vfs->pAppData;
	int rc = real->xOpen(real, name, f, flags, out);

	if (rc != SQLITE_OK || !f->pMethods)
		return rc;
	if (!real_size) {   /* the default VFS's methods, but for the size */
		cut_methods = *f->pMethods;
		real_size = cut_methods.xFileSize;
		cut_methods.xFileSize = cut_size;
	}
	if (f->pMethods->xFileSize == real_size)
		f->pMethods = &cut_methods;
	return rc;
}

const char *bt_ios_cut_vfs(const struct bt_ios_cut *cut)
{
	sqlite3_vfs *real = sqlite3_vfs_find(NULL);

	cut_limit = (sqlite3_int64)(cut->page ? cut->size / cut->page * cut->page : 0);
	if (!cut_vfs.zName && real) {
		cut_vfs = *real;
		cut_vfs.zName = "btrace-cut";
		cut_vfs.pAppData = real;
		cut_vfs.xOpen = cut_open;
		cut_vfs.pNext = NULL;
		sqlite3_vfs_register(&cut_vfs, 0);
	}
	return cut_vfs.zName;
}

/* The read of table stopped at row: are these the missing pages? */
static int cut_short(struct bt_ios_ctx *c, const char *table, int64_t row)
{
	int code = sqlite3_extended_errcode(c->conn) & 0xff;

	if (!c->cut.db || c->cut.strict || row < 0 || (code != SQLITE_CORRUPT && code != SQLITE_IOERR))
		return 0;
	bt_buf_addf(&c->cut.tables, "%s'%s' ", c->cut.tables.len ? ", " : "", table);
	if (row)
		bt_buf_addf(&c->cut.tables, "after %lld rows", (long long)row);
	else
		bt_buf_adds(&c->cut.tables, "lost");
	return 1;
}

int bt_ios_sql_error(struct bt_ios_ctx *c, const char *table, int64_t row, struct bt_err *err)
{
	if (cut_short(c, table, row))
		return BT_OK;
	if (row < 0)
		return bt_err_set(err, BT_EFORMAT, "cannot read table '%s' of '%s': %s", table, c->path,
				  sqlite3_errmsg(c->conn));
	return bt_err_set(err, BT_EFORMAT, "cannot read table '%s' of '%s' at row %lld: %s", table, c->path,
			  (long long)row, sqlite3_errmsg(c->conn));
}

int bt_ios_prepare(struct bt_ios_ctx *c, const char *table, const char *sql, struct sqlite3_stmt **st,
		   struct bt_err *err)
{
	if (sqlite3_prepare_v2(c->conn, sql, -1, st, NULL) != SQLITE_OK)
		return bt_ios_sql_error(c, table, -1, err);
	if (sqlite3_bind_parameter_count(*st) >= 1)
		sqlite3_bind_int64(*st, 1, c->trace_id);
	return BT_OK;
}

int bt_ios_check_schema(struct bt_ios_ctx *c, struct bt_err *err)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(c->conn, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
		 sqlite3_step(st) == SQLITE_ROW;

	if (!ok)   /* the message before finalize, which would reset it */
		bt_err_set(err, BT_EFORMAT, "damaged SQLite file '%s': its schema (table sqlite_master, "
			   "from page 1 at byte offset 100) cannot be read: %s", c->path, sqlite3_errmsg(c->conn));
	sqlite3_finalize(st);
	return ok ? BT_OK : err->code;
}

int bt_ios_has_table(struct bt_ios_ctx *c, const char *table)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;

	if (sqlite3_prepare_v2(c->conn, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
}

/* 1 if table has column name (from a comma-separated list item). */
static int has_column(sqlite3_stmt *info, const char *name, size_t len)
{
	sqlite3_reset(info);
	while (sqlite3_step(info) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(info, 1);
		if (col && strlen(col) == len && !strncmp(col, name, len))
			return 1;
	}
	return 0;
}

int bt_ios_check_columns(struct bt_ios_ctx *c, const char *table, const char *const *cols,
			 struct bt_err *err)
{
	struct bt_buf q = BT_BUF_INIT;
	sqlite3_stmt *info = NULL;
	int rc = BT_OK;

	bt_buf_addf(&q, "PRAGMA table_info(\"%s\")", table);
	if (sqlite3_prepare_v2(c->conn, q.buf, -1, &info, NULL) != SQLITE_OK)
		rc = bt_ios_sql_error(c, table, -1, err);
	for (; !rc && *cols; cols++) {
		const char *p = *cols;
		while (*p && !rc) {
			size_t len = strcspn(p, ",");
			if (!has_column(info, p, len))
				rc = bt_err_set(err, BT_EFORMAT,
						"table '%s' in '%s' lacks column '%.*s' (version %lld layout)",
						table, c->path, (int)len, p, (long long)c->version);
			p += len + (p[len] == ',');
		}
	}
	sqlite3_finalize(info);
	bt_buf_release(&q);
	return rc;
}

int bt_ios_column_u32(struct bt_ios_ctx *c, struct sqlite3_stmt *st, int i, const char *table,
		      int64_t row, uint32_t *out)
{
	int64_t v = sqlite3_column_int64(st, i);

	/* a u32 bound as a signed int32 reads back negative: the same bits */
	if (sqlite3_column_type(st, i) == SQLITE_INTEGER && v >= INT32_MIN && v <= (int64_t)UINT32_MAX) {
		*out = (uint32_t)v;
		return 1;
	}
	bt_diag_warn(c->diag, "bad_row_value", "'%s' table '%s' row %lld column '%s' is not a 32-bit integer; row skipped",
		     c->path, table, (long long)row, sqlite3_column_name(st, i));
	return 0;
}

int bt_ios_column_text(struct bt_ios_ctx *c, struct sqlite3_stmt *st, int i, const char *table,
		       int64_t row, struct bt_buf *out)
{
	const char *t = (const char *)sqlite3_column_text(st, i);
	size_t len = (size_t)sqlite3_column_bytes(st, i);

	bt_buf_reset(out);
	if (!t)
		return 0;
	if (!bt_utf8_valid(t, len))
		bt_diag_warn(c->diag, "invalid_utf8", "'%s' table '%s' row %lld column '%s' is not UTF-8; bad bytes shown as U+FFFD",
			     c->path, table, (long long)row, sqlite3_column_name(st, i));
	bt_utf8_sanitize(out, t, len);
	return 1;
}

void bt_ios_count_other_traces(struct bt_ios_ctx *c, const char *table)
{
	struct bt_buf q = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t n = 0;

	bt_buf_addf(&q, "SELECT count(*) FROM \"%s\" WHERE trace_id IS NOT ?1", table);
	if (sqlite3_prepare_v2(c->conn, q.buf, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, c->trace_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	bt_buf_release(&q);
	if (n > 0)
		bt_diag_count(c->diag, "other_trace_rows", (uint64_t)n,
			      "%lld rows of table '%s' in '%s' belong to another trace than BTraceModel's %lld; ignored",
			      (long long)n, table, c->path, (long long)c->trace_id);
}
