/*
 * The sample tables of an iOS database (format spec §10): which tables and
 * layouts each version has, read through SQL on the read-only connection
 * to the INPUT database. The "importers never query" rule is about our
 * trace database; the input here is itself SQLite, so reading it with
 * sqlite3 statements is how it is decoded (its table names depend on the
 * version, hence statements built here rather than in queries/).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "ios_int.h"

/* One table's layout for a version range: a batch table's node fields,
 * or a per-row table's columns with their field codes. */
struct layout {
	const char *table;
	int vmin, vmax, type;
	const char *fields;   /* blob node, or one code per column */
	const char *cols;     /* per-row columns; NULL for batch tables */
};

#define AN ",alloc_size,alloc_count"
static const struct layout layouts[] = {
	{ "CPUSampleModel", 1, 1, BT_IOS_CPU, "itcs", "tid,start_time,start_cpu_time,stack_id" },
	{ "CPUSampleModel", 2, 3, BT_IOS_CPU, "itcsan", "tid,start_time,start_cpu_time,stack_id" AN },
	{ "CPUIntervalSampleModel", 1, 1, BT_IOS_CPU_RANGE, "itecEs",
	  "tid,start_time,end_time,start_cpu_time,end_cpu_time,stack_id" },
	{ "CPUIntervalSampleModel", 2, 3, BT_IOS_CPU_RANGE, "itecEsan",
	  "tid,start_time,end_time,start_cpu_time,end_cpu_time,stack_id" AN },
	{ "MemSampleModel", 1, 1, BT_IOS_MEM, "iAztcs", "tid,addr,size,time,cpu_time,stack_id" },
	{ "MemSampleModel", 2, 3, BT_IOS_MEM, "iAztcsan", "tid,addr,size,time,cpu_time,stack_id" AN },
	{ "DateSampleModel", 1, 1, BT_IOS_DATE, "itcs", "tid,time,cpu_time,stack_id" },
	{ "DateSampleModel", 2, 3, BT_IOS_DATE, "itcsan", "tid,time,cpu_time,stack_id" AN },
	{ "DispatchSampleModel", 1, 1, BT_IOS_DISPATCH, "itcTgs",
	  "source_tid,source_time,source_cpu_time,target_tid,target_time,stack_id" },
	{ "DispatchSampleModel", 2, 3, BT_IOS_DISPATCH, "itcTgsan",
	  "source_tid,source_time,source_cpu_time,target_tid,target_time,stack_id" AN },
	{ "DispatchSampleModel", 4, 4, BT_IOS_DISPATCH, "itcTgsan",
	  "tid,time,cpu_time,target_tid,target_time,stack_id" AN },
	{ "AsyncSampleModel", 1, 1, BT_IOS_ASYNC, "itcTgs",
	  "source_tid,source_time,source_cpu_time,target_tid,target_time,stack_id" },
	{ "AsyncSampleModel", 2, 3, BT_IOS_ASYNC, "itcTgsan",
	  "source_tid,source_time,source_cpu_time,target_tid,target_time,stack_id" AN },
	{ "ProfileSampleModel", 4, 4, BT_IOS_PROFILE, "itcans",
	  "tid,time,cpu_time,alloc_size,alloc_count,stack_id" },
	{ "TimeRangeSampleModel", 4, 4, BT_IOS_RANGE, "itcaneEs",
	  "tid,time,cpu_time,alloc_size,alloc_count,end_time,end_cpu_time,stack_id" },
	{ "LockSampleModel", 1, 1, BT_IOS_LOCK, "Ltcsi", "sample" },
	{ "LockSampleModel", 2, 3, BT_IOS_LOCK, "Ltcsian", "sample" },
	{ "LockSampleModel", 4, 4, BT_IOS_LOCK, "tcansiL", "sample" },
	{ "CPUBatchSampleModel", 1, 1, BT_IOS_CPU, "tcs", NULL },
	{ "CPUBatchSampleModel", 2, 3, BT_IOS_CPU, "tcsan", NULL },
	{ "CPUBatchIntervalSampleModel", 1, 1, BT_IOS_CPU_RANGE, "tcseE", NULL },
	{ "CPUBatchIntervalSampleModel", 2, 3, BT_IOS_CPU_RANGE, "tcseEan", NULL },
	{ "MemBatchSampleModel", 1, 1, BT_IOS_MEM, "Aztcs", NULL },
	{ "MemBatchSampleModel", 2, 3, BT_IOS_MEM, "Aztcsan", NULL },
	{ "DateBatchSampleModel", 1, 1, BT_IOS_DATE, "tcs", NULL },
	{ "DateBatchSampleModel", 2, 3, BT_IOS_DATE, "tcsan", NULL },
	{ "DispatchBatchSampleModel", 1, 1, BT_IOS_DISPATCH, "tcTgs", NULL },
	{ "DispatchBatchSampleModel", 2, 3, BT_IOS_DISPATCH, "tcTgsan", NULL },
	{ "DispatchBatchSampleModel", 4, 4, BT_IOS_DISPATCH, "tcansTg", NULL },
	{ "AsyncBatchSampleModel", 1, 1, BT_IOS_ASYNC, "tcTgs", NULL },
	{ "AsyncBatchSampleModel", 2, 3, BT_IOS_ASYNC, "tcTgsan", NULL },
	{ "LockBatchSampleModel", 1, 1, BT_IOS_LOCK, "Ltcs", NULL },
	{ "LockBatchSampleModel", 2, 3, BT_IOS_LOCK, "Ltcsan", NULL },
	{ "LockBatchSampleModel", 4, 4, BT_IOS_LOCK, "tcansL", NULL },
	{ "ProfileBatchSampleModel", 4, 4, BT_IOS_PROFILE, "tcans", NULL },
	{ "TimeRangeBatchSampleModel", 4, 4, BT_IOS_RANGE, "tcanseE", NULL },
};
#define N_LAYOUTS (sizeof layouts / sizeof layouts[0])

int bt_ios_sql_error(struct bt_ios_ctx *c, const char *table, struct bt_err *err)
{
	return bt_err_set(err, BT_EFORMAT, "cannot read table '%s' of '%s': %s", table, c->path,
			  sqlite3_errmsg(c->conn));
}

int bt_ios_prepare(struct bt_ios_ctx *c, const char *table, const char *sql, struct sqlite3_stmt **st,
		   struct bt_err *err)
{
	if (sqlite3_prepare_v2(c->conn, sql, -1, st, NULL) != SQLITE_OK)
		return bt_ios_sql_error(c, table, err);
	if (sqlite3_bind_parameter_count(*st) >= 1)
		sqlite3_bind_int64(*st, 1, c->trace_id);
	return BT_OK;
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
		rc = bt_ios_sql_error(c, table, err);
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

/* Read a per-row table: one record per row (LockSampleModel: a blob). */
static int read_rows(struct bt_ios_ctx *c, const struct layout *l, struct bt_ios_recs *out,
		     struct bt_err *err)
{
	const char *cols[] = { l->cols, "trace_id", NULL };
	struct bt_ios_clock k = BT_IOS_CLOCK_INIT;
	struct bt_buf q = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = bt_ios_check_columns(c, l->table, cols, err), step;
	int64_t row = 0;

	bt_buf_addf(&q, "SELECT %s FROM \"%s\" WHERE trace_id=?1 ORDER BY rowid", l->cols, l->table);
	if (!rc)
		rc = bt_ios_prepare(c, l->table, q.buf, &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		if (!strcmp(l->cols, "sample")) {
			const unsigned char *p = sqlite3_column_blob(st, 0);
			size_t len = (size_t)sqlite3_column_bytes(st, 0), want = bt_ios_node_size(l->fields);
			if (len != want)
				rc = bt_err_set(err, BT_EFORMAT,
						"bad blob in '%s' table '%s' row %lld at byte offset %zu: %zu bytes, a version %lld sample has %zu",
						c->path, l->table, (long long)row, len < want ? len : want, len,
						(long long)c->version, want);
			else
				rc = bt_ios_blob(c, &k, l->table, row, l->fields, l->type, 0, p, len, out, err);
		} else {
			struct bt_ios_rec *x = bt_ios_recs_add(out);
			int i;
			x->type = (int16_t)l->type;
			for (i = 0; l->fields[i]; i++)
				bt_ios_field(x, l->fields[i], (uint64_t)sqlite3_column_int64(st, i));
			bt_ios_times(c, &k, x);
		}
		row++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, l->table, err);
	sqlite3_finalize(st);
	bt_buf_release(&q);
	return rc;
}

/* Read a batch table: (trace_id, tid, nodes) rows. */
static int read_batch(struct bt_ios_ctx *c, const struct layout *l, struct bt_ios_recs *out,
		      struct bt_err *err)
{
	static const char *const cols[] = { "trace_id,tid,nodes", NULL };
	struct bt_buf q = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = bt_ios_check_columns(c, l->table, cols, err), step;
	int64_t row = 0;

	bt_buf_addf(&q, "SELECT tid, nodes FROM \"%s\" WHERE trace_id=?1 ORDER BY rowid", l->table);
	if (!rc)
		rc = bt_ios_prepare(c, l->table, q.buf, &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct bt_ios_clock k = BT_IOS_CLOCK_INIT;   /* a row holds one thread's records */
		const unsigned char *p = sqlite3_column_blob(st, 1);
		size_t len = (size_t)sqlite3_column_bytes(st, 1);
		rc = bt_ios_blob(c, &k, l->table, row++, l->fields, l->type, sqlite3_column_int64(st, 0), p,
				 len, out, err);
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, l->table, err);
	sqlite3_finalize(st);
	bt_buf_release(&q);
	return rc;
}

/* The layout of table for this version; NULL (with err) if the table may
 * not appear in it (spec I-5). */
static const struct layout *layout_for(struct bt_ios_ctx *c, size_t first, struct bt_err *err)
{
	const char *table = layouts[first].table;
	size_t i;

	for (i = first; i < N_LAYOUTS && !strcmp(layouts[i].table, table); i++)
		if (c->version >= layouts[i].vmin && c->version <= layouts[i].vmax)
			return &layouts[i];
	bt_err_set(err, BT_EFORMAT, "table '%s' in '%s' is not part of a version %lld database (spec I-5)",
		   table, c->path, (long long)c->version);
	return NULL;
}

int bt_ios_read_samples(struct bt_ios_ctx *c, struct bt_ios_recs *out, struct bt_err *err)
{
	size_t i;
	int pass;

	/* check every table against the version before reading any */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < N_LAYOUTS; i++) {
			const struct layout *l;
			int rc;
			if (i && !strcmp(layouts[i - 1].table, layouts[i].table))
				continue;
			if (!bt_ios_has_table(c, layouts[i].table))
				continue;
			l = layout_for(c, i, err);
			if (!l)
				return err->code;
			if (!pass)
				continue;
			rc = l->cols ? read_rows(c, l, out, err) : read_batch(c, l, out, err);
			if (rc)
				return rc;
		}
	}
	return BT_OK;
}
