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

#include "importers/ios/ios_int.h"
#include "engine/base/utf8.h"

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

/* One row of a per-row table into out (a row with a value that is not a
 * u32 is skipped and counted). */
static int one_row(struct bt_ios_ctx *c, const struct layout *l, sqlite3_stmt *st, int64_t row,
		   struct bt_ios_clock *k, struct bt_ios_recs *out, struct bt_err *err)
{
	uint32_t v[16];
	struct bt_ios_rec *x;
	int i;

	if (!strcmp(l->cols, "sample")) {   /* LockSampleModel: a blob */
		const unsigned char *p = sqlite3_column_blob(st, 0);
		size_t len = (size_t)sqlite3_column_bytes(st, 0), want = bt_ios_node_size(l->fields);
		if (len != want)
			return bt_err_set(err, BT_EFORMAT,
					  "bad blob in '%s' table '%s' row %lld at byte offset %zu: %zu bytes, a version %lld sample has %zu",
					  c->path, l->table, (long long)row, len < want ? len : want, len,
					  (long long)c->version, want);
		return bt_ios_blob(c, k, l->table, row, l->fields, l->type, 0, p, len, out, err);
	}
	for (i = 0; l->fields[i]; i++)
		if (!bt_ios_column_u32(c, st, i, l->table, row, &v[i]))
			return BT_OK;
	x = bt_ios_recs_add(out);
	x->type = (int16_t)l->type;
	for (i = 0; l->fields[i]; i++)
		bt_ios_field(x, l->fields[i], v[i]);
	bt_ios_times(c, k, x);
	return BT_OK;
}

/* Read a per-row table: one record per row, its times one stream. */
static int read_rows(struct bt_ios_ctx *c, const struct layout *l, struct bt_ios_recs *out,
		     struct bt_err *err)
{
	const char *cols[] = { l->cols, "trace_id", NULL };
	struct bt_ios_clock k = BT_IOS_CLOCK_INIT;
	struct bt_buf q = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc = bt_ios_check_columns(c, l->table, cols, err), step = SQLITE_DONE;
	int64_t row = 0;

	bt_buf_addf(&q, "SELECT %s FROM \"%s\" WHERE trace_id=?1 ORDER BY rowid", l->cols, l->table);
	if (!rc)
		rc = bt_ios_prepare(c, l->table, q.buf, &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = one_row(c, l, st, row++, &k, out, err);
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, l->table, row, err);
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
	int rc = bt_ios_check_columns(c, l->table, cols, err), step = SQLITE_DONE;
	int64_t row = 0;

	bt_buf_addf(&q, "SELECT tid, nodes FROM \"%s\" WHERE trace_id=?1 ORDER BY rowid", l->table);
	if (!rc)
		rc = bt_ios_prepare(c, l->table, q.buf, &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct bt_ios_clock k = BT_IOS_CLOCK_INIT;   /* a row holds one thread's records */
		const unsigned char *p = sqlite3_column_blob(st, 1);
		size_t len = (size_t)sqlite3_column_bytes(st, 1);
		uint32_t tid;
		if (bt_ios_column_u32(c, st, 0, l->table, row, &tid))
			rc = bt_ios_blob(c, &k, l->table, row, l->fields, l->type, tid, p, len, out, err);
		row++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, l->table, row, err);
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
			bt_ios_count_other_traces(c, l->table);
		}
	}
	return BT_OK;
}

const char *bt_ios_layout(const char *table, int64_t version, const char **cols)
{
	size_t i;

	for (i = 0; i < N_LAYOUTS; i++)
		if (!strcmp(layouts[i].table, table) && version >= layouts[i].vmin && version <= layouts[i].vmax) {
			if (cols)
				*cols = layouts[i].cols;
			return layouts[i].fields;
		}
	return NULL;
}

/* Tables of the spec that hold no samples (§4-§9). */
static const char *const other_tables[] = {
	"BTraceModel", "ImageInfoModel", "ThreadInfoModel", "CallStackTableModel", "TimeSeriesModel",
	"MemRegionInfoModel", NULL
};

static int known(const char *table)
{
	const char *const *t;
	size_t i;

	for (t = other_tables; *t; t++)
		if (!strcmp(*t, table))
			return 1;
	for (i = 0; i < N_LAYOUTS; i++)
		if (!strcmp(layouts[i].table, table))
			return 1;
	return !strncmp(table, "sqlite_", 7);
}

void bt_ios_note_unknown_tables(struct bt_ios_ctx *c)
{
	struct bt_buf shown = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(c->conn, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		size_t len = (size_t)sqlite3_column_bytes(st, 0);
		if (!name || known(name))
			continue;
		bt_buf_reset(&shown);
		bt_utf8_sanitize(&shown, name, len < 100 ? len : 100);
		bt_diag_warn(c->diag, "unknown_table", "table '%s' in '%s' is not one of the spec's; ignored",
			     shown.buf, c->path);
	}
	sqlite3_finalize(st);
	bt_buf_release(&shown);
}
