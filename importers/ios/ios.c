/*
 * Importer for btrace iOS trace databases (format spec ios-database.md),
 * plain or gzip'd: recognised by content (an SQLite file with a
 * BTraceModel table), read through a read-only immutable connection, and
 * written as samples in ns since the trace start with their stacks. A
 * database cut short (or a gzip stream that ends early) is imported table
 * by table as far as its pages go, marked partial, unless --strict.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/temps.h"
#include "importers/importer.h"
#include "importers/inflate.h"
#include "importers/ios/ios_int.h"


static const char sqlite_magic[16] = "SQLite format 3";

/* Open path read-only without -wal/-shm files (the writer leaves WAL mode
 * in the header, spec §1). A file cut short (cut->db) is read as far as
 * its whole pages go: writable_schema makes SQLite take the file's size
 * over its header's instead of refusing the whole file (no write is
 * made). */
static int open_input(const char *path, const struct bt_ios_cut *cut, sqlite3 **out)
{
	struct bt_buf uri = BT_BUF_INIT;
	const char *p;
	int rc;

	bt_buf_adds(&uri, "file:");
	for (p = path; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		    strchr("/-_.~", ch))
			bt_buf_addc(&uri, (char)ch);
		else
			bt_buf_addf(&uri, "%%%02X", ch);
	}
	bt_buf_adds(&uri, "?immutable=1");
	rc = sqlite3_open_v2(uri.buf, out, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			     cut->db ? bt_ios_cut_vfs(cut) : NULL);
	bt_buf_release(&uri);
	if (rc == SQLITE_OK && cut->db)
		rc = sqlite3_exec(*out, "PRAGMA writable_schema=ON", NULL, NULL, NULL);
	return rc;
}

static int probe(const char *path, const unsigned char *head, size_t n)
{
	struct bt_ios_ctx c;
	struct bt_err e = BT_ERR_INIT;
	int yes, cut;

	if (!head)
		return 0;
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return bt_ios_gz_is_sqlite(path);
	if (n < 16 || memcmp(head, sqlite_magic, 16))
		return 0;
	memset(&c, 0, sizeof c);
	cut = bt_ios_check_size(path, &c.cut);
	if (open_input(path, &c.cut, &c.conn) != SQLITE_OK) {
		sqlite3_close(c.conn);
		return cut;
	}
	/* a cut file is claimed whatever it holds, so the error says what is
	 * lost; a file whose schema cannot be read too, so the error says so */
	yes = cut || bt_ios_has_table(&c, "BTraceModel") || bt_ios_check_schema(&c, &e);
	sqlite3_close(c.conn);
	return yes;
}

struct trace_row {
	int64_t start_us, end_us;
	char *os_version, *bundle_id;
};

/* Column i of BTraceModel row as UTF-8, or NULL. */
static char *dup_col(struct bt_ios_ctx *c, sqlite3_stmt *st, int i, int64_t row)
{
	struct bt_buf b = BT_BUF_INIT;

	if (!bt_ios_column_text(c, st, i, "BTraceModel", row, &b)) {
		bt_buf_release(&b);
		return NULL;
	}
	return bt_buf_detach(&b, NULL);
}

/* 1 if BTraceModel has column name. */
static int trace_has(struct bt_ios_ctx *c, const char *name)
{
	const char *cols[] = { name, NULL };
	struct bt_err ignored;

	return bt_ios_check_columns(c, "BTraceModel", cols, &ignored) == BT_OK;
}

/* A BTraceModel wall time: µs since 1970, and in ns within int64 (2262). */
static int check_wall(struct bt_ios_ctx *c, const char *col, int64_t us, struct bt_err *err)
{
	if (us >= 0 && us <= INT64_MAX / 1000)
		return BT_OK;
	return bt_err_set(err, BT_EFORMAT, "bad %s %lld in '%s' table 'BTraceModel': not wall µs since 1970",
			  col, (long long)us, c->path);
}

/* BTraceModel (§4): the last row wins, as in the reference reader. */
static int read_trace(struct bt_ios_ctx *c, struct trace_row *t, struct bt_err *err)
{
	static const char *const cols[] = { "trace_id,start_time", NULL };
	struct bt_buf q = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, rows = 0, step = SQLITE_DONE;

	if (!bt_ios_has_table(c, "BTraceModel"))
		return bt_err_set(err, BT_EFORMAT, "'%s' has no table 'BTraceModel': not a btrace iOS database", c->path);
	rc = bt_ios_check_columns(c, "BTraceModel", cols, err);
	bt_buf_addf(&q, "SELECT trace_id, start_time, %s, %s, %s, %s, %s FROM BTraceModel ORDER BY rowid",
		    trace_has(c, "end_time") ? "end_time" : "0",
		    trace_has(c, "os_version") ? "os_version" : "NULL",
		    trace_has(c, "bundle_id") ? "bundle_id" : "NULL",
		    trace_has(c, "version") ? "version" : "1",
		    trace_has(c, "main_tid") ? "main_tid" : "NULL");
	if (!rc)
		rc = bt_ios_prepare(c, "BTraceModel", q.buf, &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		rows++;
		c->trace_id = sqlite3_column_int64(st, 0);
		t->start_us = sqlite3_column_int64(st, 1);
		t->end_us = sqlite3_column_int64(st, 2);
		free(t->os_version);
		free(t->bundle_id);
		t->os_version = dup_col(c, st, 3, rows - 1);
		t->bundle_id = dup_col(c, st, 4, rows - 1);
		c->version = sqlite3_column_int64(st, 5);
		c->has_main_tid = sqlite3_column_type(st, 6) != SQLITE_NULL && sqlite3_column_int64(st, 6) != 0;
		c->main_tid = sqlite3_column_int64(st, 6);
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, "BTraceModel", rows, err);
	sqlite3_finalize(st);
	bt_buf_release(&q);
	if (!rc && !rows && c->cut.db)
		rc = bt_err_set(err, BT_EFORMAT, "table 'BTraceModel' of '%s' is lost: the file is cut at byte offset %llu, nothing can be imported",
				c->path, (unsigned long long)c->cut.size);
	if (!rc && !rows)
		rc = bt_err_set(err, BT_EFORMAT, "table 'BTraceModel' of '%s' has no row", c->path);
	if (!rc)
		rc = check_wall(c, "start_time", t->start_us, err);
	if (!rc)
		rc = check_wall(c, "end_time", t->end_us, err);
	if (!rc && (c->version < 1 || c->version > 4))
		rc = bt_err_set(err, BT_EFORMAT, "unknown database version %lld in '%s' table 'BTraceModel' (known: 1 to 4)",
				(long long)c->version, c->path);
	return rc;
}

/* Main thread: BTraceModel.main_tid, else the smallest sampled tid (I-1). */
static void pick_main(struct bt_ios_ctx *c, const struct bt_ios_recs *r)
{
	size_t i;

	if (c->has_main_tid)
		return;
	for (i = 0; i < r->n; i++)
		if (r->v[i].type && (!c->has_main_tid || r->v[i].tid < c->main_tid)) {
			c->main_tid = r->v[i].tid;
			c->has_main_tid = 1;
		}
	if (c->has_main_tid)
		bt_diag_warn(c->diag, "main_tid_guessed", "'%s' records no main_tid; the smallest sampled tid %lld is taken as the main thread",
			     c->path, (long long)c->main_tid);
}

/* Samples in (tid, time) order, ids 1..n; counters as recorded (MiB -> bytes);
 * memory samples' sizes in sample_args. */
static int write_samples(struct bt_ios_ctx *c, struct bt_ios_stacks *st, struct bt_ios_recs *r,
			 struct bt_db *db, int64_t *count, struct bt_err *err)
{
	size_t i;

	bt_ios_recs_sort(r);
	*count = 0;
	for (i = 0; i < r->n; i++) {
		struct bt_ios_rec *x = &r->v[i];
		struct bt_sample s;
		if (!x->type)
			continue;
		if (bt_ios_stack_node(st, x->stack_id, &x->node_id, err))
			return err->code;
		memset(&s, 0, sizeof s);
		s.id = x->sample_id = ++*count;
		s.tid = x->tid;
		s.type = x->type;
		s.ts = x->ts;
		s.cpu_ns = x->cpu;
		if ((x->has & BT_IOS_HAS_END) && x->end_ts > x->ts) {
			s.end_ts = x->end_ts;
			s.end_cpu_ns = x->end_cpu;
		} else if ((x->has & BT_IOS_HAS_END) && x->end_ts < x->ts) {
			bt_diag_warn(c->diag, "end_before_begin", "an interval sample of tid %lld in '%s' ends before it begins; treated as a point",
				     (long long)x->tid, c->path);
		}
		s.node_id = x->node_id;
		s.alloc_objects = x->alloc_count;
		s.alloc_bytes = (int64_t)x->alloc_mib << 20;
		if (bt_db_insert_sample(db, &s, err))
			return err->code;
	}
	/* a memory sample's own size (0: a free) is finer than the MiB
	 * counter; its addr (pointer >> 4, truncated) has no column. Written
	 * after the samples, so the bulk writer is not waited for each time. */
	for (i = 0; i < r->n; i++)
		if (r->v[i].type && (r->v[i].has & BT_IOS_HAS_SIZE) &&
		    bt_db_exec(db, BT_SQL_INSERT_SAMPLE_ARG, err, "ii", r->v[i].sample_id, (int64_t)r->v[i].mem_size))
			return err->code;
	return BT_OK;
}

/* ThreadInfoModel (§6): thread names. */
static int write_thread_names(struct bt_ios_ctx *c, struct bt_db *db, struct bt_err *err)
{
	struct bt_buf name = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t row = 0;
	int rc, step = SQLITE_DONE;
	uint32_t tid;

	if (!bt_ios_has_table(c, "ThreadInfoModel"))
		return BT_OK;
	rc = bt_ios_prepare(c, "ThreadInfoModel", "SELECT tid, name FROM ThreadInfoModel WHERE trace_id=?1 "
			    "ORDER BY rowid", &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		if (bt_ios_column_u32(c, st, 0, "ThreadInfoModel", row, &tid) &&
		    bt_ios_column_text(c, st, 1, "ThreadInfoModel", row, &name))
			rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", (int64_t)tid, name.buf,
					(int64_t)(tid == c->main_tid));
		row++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, "ThreadInfoModel", row, err);
	sqlite3_finalize(st);
	bt_buf_release(&name);
	if (!rc)
		bt_ios_count_other_traces(c, "ThreadInfoModel");
	return rc;
}

/* Every sampled thread, dispatch target and the main thread, then names. */
static int write_threads(struct bt_ios_ctx *c, const struct bt_ios_recs *r, struct bt_db *db,
			 struct bt_err *err)
{
	size_t i;
	int rc = BT_OK;

	for (i = 0; i < r->n && !rc; i++) {
		const struct bt_ios_rec *x = &r->v[i];
		if (!x->type)
			continue;
		if (!i || x->tid != r->v[i - 1].tid || !r->v[i - 1].type)
			rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", x->tid, NULL,
					(int64_t)(x->tid == c->main_tid));
		if (!rc && x->target_tid)
			rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", x->target_tid, NULL,
					(int64_t)(x->target_tid == c->main_tid));
	}
	if (!rc && c->has_main_tid)
		rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", c->main_tid, NULL, (int64_t)1);
	return rc ? rc : write_thread_names(c, db, err);
}

static int write_meta(struct bt_ios_ctx *c, const struct trace_row *t, const struct bt_ios_stacks *st,
		      const struct bt_import_opts *o, int64_t samples, int gz, struct bt_db *db,
		      struct bt_err *err)
{
	int rc = bt_db_set_meta_text(db, "format", "ios-database", err);

	rc = rc ? rc : bt_db_set_meta_int(db, "version", c->version, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "source", c->path, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "compression", gz ? "gzip" : "none", err);
	rc = rc ? rc : bt_db_set_meta_text(db, "clock", "mach, ns since trace start", err);
	rc = rc ? rc : bt_db_set_meta_int(db, "trace_id", c->trace_id, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "wall_start_ns", t->start_us * 1000, err);
	if (t->end_us)
		rc = rc ? rc : bt_db_set_meta_int(db, "wall_end_ns", t->end_us * 1000, err);
	if (t->os_version)
		rc = rc ? rc : bt_db_set_meta_text(db, "os_version", t->os_version, err);
	if (t->bundle_id)
		rc = rc ? rc : bt_db_set_meta_text(db, "process_name", t->bundle_id, err);
	if (c->has_main_tid)
		rc = rc ? rc : bt_db_set_meta_int(db, "main_tid", c->main_tid, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "samples", samples, err);
	if (o->symbols) {
		rc = rc ? rc : bt_db_set_meta_text(db, "symbols", o->symbols, err);
		rc = rc ? rc : bt_db_set_meta_int(db, "symbolized_frames", (int64_t)st->symbolized, err);
	}
	return rc;
}

int bt_ios_import(struct bt_ios_ctx *c, struct bt_db *db, const struct bt_import_opts *o, int gz,
		  struct bt_err *err)
{
	struct trace_row t = { 0, 0, NULL, NULL };
	struct bt_ios_recs recs = { NULL, 0, 0 };
	struct bt_ios_stacks st;
	int64_t samples = 0;
	int rc = read_trace(c, &t, err);

	bt_ios_stacks_init(&st, db, c->diag, c->path);
	if (!rc)
		bt_ios_note_unknown_tables(c);
	if (!rc && o->symbols)
		rc = bt_ios_symbols_load(&st, o->symbols, err);
	if (!rc)
		rc = bt_ios_stacks_load(&st, c, err);
	if (!rc)
		rc = bt_ios_read_samples(c, &recs, err);
	if (!rc) {
		bt_ios_pair_locks(&recs, c->diag);
		pick_main(c, &recs);
		rc = write_samples(c, &st, &recs, db, &samples, err);
	}
	if (!rc)
		rc = bt_ios_link(&recs, db, c->diag, err);
	if (!rc)
		rc = write_threads(c, &recs, db, err);
	if (!rc)
		rc = bt_ios_read_series(c, t.start_us, db, err);
	if (!rc)
		rc = write_meta(c, &t, &st, o, samples, gz, db, err);
	if (!rc)   /* as read: each lock-contention pair is one sample */
		rc = bt_db_set_meta_int(db, "records", (int64_t)recs.n, err);
	bt_ios_stacks_release(&st);
	free(recs.v);
	free(t.os_version);
	free(t.bundle_id);
	return rc;
}

/* A database cut short: refused with --strict or when its schema is lost. */
static int check_cut(struct bt_ios_ctx *c, struct bt_err *err)
{
	sqlite3_stmt *st = NULL;
	int whole;

	if (!c->cut.db)
		return BT_OK;
	if (c->cut.strict)
		return bt_err_set(err, BT_EFORMAT, "truncated database '%s': %llu bytes, its header says %llu%s",
				  c->path, (unsigned long long)c->cut.size, (unsigned long long)c->cut.want,
				  c->cut.gz ? " (the gzip stream ends early)" : "");
	whole = sqlite3_prepare_v2(c->conn, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
		sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (!whole || c->cut.size < c->cut.page || !c->cut.want)
		return bt_err_set(err, BT_EFORMAT, "'%s' is cut at byte offset %llu%s: its schema is lost, nothing can be imported",
				  c->path, (unsigned long long)c->cut.size, c->cut.gz ? " (inflated; the gzip stream ends early)" : "");
	return BT_OK;
}

/* Mark a trace read from a cut input partial, saying what was lost. */
static int note_cut(struct bt_ios_ctx *c, struct bt_db *db, struct bt_err *err)
{
	struct bt_buf gz = BT_BUF_INIT;
	int rc;

	if (!c->cut.db && !c->cut.gz)
		return BT_OK;
	if (c->cut.gz)
		bt_buf_addf(&gz, "the gzip stream of '%s' ends early at byte offset %llu, ", c->path,
			    (unsigned long long)c->cut.gz_at);
	if (!c->cut.db)
		rc = bt_diag_partial(c->diag, db, "truncated_database", err,
				     "%sbut the %llu bytes of the database it holds are all there",
				     gz.buf, (unsigned long long)c->cut.size);
	else
		rc = bt_diag_partial(c->diag, db, "truncated_database", err,
				     "%s%s%s%s is cut at byte offset %llu of the %llu its header says (%llu bytes lost); %s%s",
				     gz.buf, c->cut.gz ? "the database it holds" : "'", c->cut.gz ? "" : c->path,
				     c->cut.gz ? "" : "'", (unsigned long long)c->cut.size, (unsigned long long)c->cut.want,
				     (unsigned long long)(c->cut.want - c->cut.size),
				     c->cut.tables.len ? "tables read up to the cut: " : "every table read is whole",
				     c->cut.tables.buf);
	bt_buf_release(&gz);
	return rc;
}

static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o,
	       struct bt_diag *diag, struct bt_err *err)
{
	struct bt_ios_ctx c;
	unsigned char head[16];
	char *tmp = NULL;
	size_t n = 0;
	int rc = BT_OK, gz;
	FILE *f = fopen(path, "rb");

	if (f) {
		n = fread(head, 1, sizeof head, f);
		fclose(f);
	}
	gz = n >= 2 && head[0] == 0x1f && head[1] == 0x8b;
	memset(&c, 0, sizeof c);
	c.path = path;
	c.diag = diag;
	c.cut.strict = o->strict;
	c.cut.tables = (struct bt_buf)BT_BUF_INIT;
	if (gz)
		rc = bt_ios_gunzip(path, BT_INFLATE_CAP, &c.cut, &tmp, err);
	if (!rc)
		bt_ios_check_size(tmp ? tmp : path, &c.cut);
	if (!rc && open_input(tmp ? tmp : path, &c.cut, &c.conn) != SQLITE_OK)
		rc = bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, sqlite3_errmsg(c.conn));
	if (!rc)
		rc = check_cut(&c, err);
	if (!rc && !c.cut.db)   /* a cut file's schema: check_cut said */
		rc = bt_ios_check_schema(&c, err);
	if (!rc && gz && !bt_ios_has_table(&c, "BTraceModel"))
		rc = bt_err_set(err, BT_EFORMAT, "gzip'd '%s' holds no btrace iOS database (no table 'BTraceModel')", path);
	if (!rc)
		rc = bt_ios_import(&c, db, o, gz, err);
	if (!rc)
		rc = note_cut(&c, db, err);
	bt_buf_release(&c.cut.tables);
	sqlite3_close(c.conn);
	if (tmp) {
		bt_temps_remove(tmp);
		free(tmp);
	}
	return rc;
}

const struct bt_importer bt_imp_ios = {
	.name = "ios-database", .noun = "an iOS database",
	.brings = BT_BRINGS_CPU | BT_BRINGS_ADDRESSES,
	.probe = probe, .run = run
};
