/*
 * Unit tests of the database layer: schema and statement registry, bulk
 * loading through the writer thread, id checking, publish-by-rename and
 * the scratch database, read-only cursors.
 */
#define _GNU_SOURCE   /* copy_file_range, loff_t, syscall */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/falloc.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/db_int.h"   /* bt_db_run_sql */
#include "engine/base/fileio.h"
#include "engine/db/rows.h"
#include "tests/tap.h"
#include "tests/tsql.h"

static int64_t one(struct bt_db *db, const char *sql)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_rows *r = NULL;
	int64_t v = -1;

	if (!bt_rows_open_sql(&r, db, sql, 0, &err) && bt_rows_next(r, &err) == 1)
		v = bt_rows_int(r, 0);
	bt_rows_close(r);
	return v;
}

/* Whether a query's rows (tsql_rows) hold something: rows, not NULL
 * alone, not an error. */
static int has_rows(const char *rows)
{
	return *rows && strcmp(rows, "-") && strncmp(rows, "ERROR: ", 7);
}

static void test_bulk(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_sample s;
	int i, rc = 0;

	is_int(bt_db_create(&db, ":memory:", &err), BT_OK, "create in memory");
	is_int(one(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('meta','threads','frames','nodes','samples','slices','messages','blocking_edges','diagnostics')"), 9, "schema has every table");
	is_int(one(db, "SELECT count(*) FROM record_types WHERE type <= 23"), 23, "record type names");
	is_int(one(db, "SELECT count(*) FROM record_types WHERE type > 100"), 10, "iOS record type names");
	is_int(one(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'dispatches'"), 1, "dispatches table");
	is_int(one(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('counters','track_slices','binder_transactions','thread_creates')"), 4, "tables of the iOS time series and Perfetto imports");
	bt_db_begin(db, &err);
	memset(&s, 0, sizeof s);
	for (i = 1; i <= 10000 && !rc; i++) {
		s.id = i;
		s.tid = i % 7;
		s.ts = 1000 + i;
		s.end_ts = i % 3 ? 0 : 2000 + i;
		s.node_id = 1 + i % 5;
		rc = bt_db_insert_sample(db, &s, &err);
		if (!rc && i <= 5000)
			rc = bt_db_insert_node(db, i, i > 1 ? i - 1 : 0, 1, i - 1, &err);
	}
	is_int(rc, BT_OK, "10000 samples and 5000 nodes buffered");
	is_int(one(db, "SELECT count(*) FROM samples"), 10000, "cursor flushes pending rows first");
	is_int(bt_db_commit(db, &err), BT_OK, "commit");
	is_int(one(db, "SELECT count(*) FROM nodes WHERE parent_id IS NULL"), 1, "parent 0 stored as NULL");
	is_int(one(db, "SELECT count(*) FROM samples WHERE end_ts IS NULL"), 6667, "end_ts 0 stored as NULL");
	is_int(one(db, "SELECT max(id) FROM samples"), 10000, "sample ids are the caller's");
	is_int(one(db, "SELECT sum(id != ts - 1000) FROM samples"), 0, "rows stay in order");
	s.id = 20000;   /* not dense: must be refused */
	bt_db_begin(db, &err);
	bt_db_insert_sample(db, &s, &err);
	is_int(bt_db_flush(db, &err), BT_ESQL, "non-dense id refused");
	ok(strstr(err.msg, "ids must be dense") != NULL, "non-dense id: message");
	bt_db_close(db);
}

static void test_publish(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	char dir[] = "/tmp/t_db-XXXXXX", path[128];

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof path, "%s/t.db", dir);
	is_int(bt_db_create(&db, path, &err), BT_OK, "create file database");
	ok(!bt_is_file(path), "nothing at the final path before publish");
	bt_db_close(db);
	ok(!bt_is_file(path), "unpublished database removed");
	bt_db_create(&db, path, &err);
	is_int(bt_db_publish(db, &err), BT_OK, "publish");
	bt_db_close(db);
	ok(bt_is_file(path), "published database kept");
	ok(bt_db_is_trace_db(path), "recognised as a trace database");
	ok(!bt_db_is_trace_db("tests/tap.h"), "a text file is not a trace database");
	is_int(bt_db_open(&db, path, 1, &err), BT_OK, "open read-only");
	is_int(one(db, "SELECT value FROM meta WHERE key = 'schema_version'"), BT_DB_SCHEMA_VERSION, "schema version recorded");
	{
		struct bt_rows *r = NULL;
		is_int(bt_rows_open_sql(&r, db, "INSERT INTO meta VALUES ('x', 1)", 0, &err), BT_EUSAGE, "writes refused");
		bt_rows_close(r);
	}
	bt_db_close(db);
	is_int(bt_db_create(&db, NULL, &err), BT_OK, "scratch database");
	ok(bt_db_path(db) == NULL, "scratch database has no path");
	bt_db_close(db);
	unlink(path);
	rmdir(dir);
}

/* A deferred fill: 10,000 slices, ids in reverse, as a replay would give
 * them out of order. */
static int fills;
static int released;

static int fill(void *ctx, struct bt_db *db, struct bt_err *err)
{
	struct bt_slice s;
	int i;

	(void)ctx;
	fills++;
	memset(&s, 0, sizeof s);
	for (i = 10000; i >= 1; i--) {
		s.id = i;
		s.tid = 1;
		s.depth = i > 1;
		s.parent_id = i > 1 ? 1 : 0;
		s.frame_id = 7;
		s.ts = i;
		s.dur = 10;
		s.type = i % 2 ? -1 : 3;
		if (bt_db_insert_slice(db, &s, err))
			return err->code;
	}
	return BT_OK;
}

static void release(void *ctx)
{
	(void)ctx;
	released++;
}

static void test_deferred(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;

	bt_db_create(&db, ":memory:", &err);
	bt_db_query_only(db, &err);
	bt_db_defer_slices(db, fill, release, NULL);
	is_int(one(db, "SELECT count(*) FROM samples"), 0, "a query not reading slices runs");
	is_int(fills, 0, "and does not fill them");
	ok(bt_db_slices_deferred(db), "still deferred");
	is_int(one(db, "SELECT count(*) FROM (SELECT id FROM slices WHERE dur > 0)"), 10000,
	       "a query reading slices (in a subquery) sees them all");
	is_int(fills, 1, "filled once");
	is_int(released, 1, "the source released after the fill");
	ok(!bt_db_slices_deferred(db), "no longer deferred");
	is_int(one(db, "SELECT count(*) FROM slices WHERE parent_id IS NULL"), 1, "parent 0 stored as NULL");
	is_int(one(db, "SELECT count(*) FROM slices WHERE type IS NULL"), 5000, "negative type stored as NULL");
	is_int(one(db, "SELECT max(id) - min(id) + 1 FROM slices"), 10000, "out-of-order ids kept");
	is_int(fills, 1, "later queries do not fill again");
	{
		struct bt_rows *r = NULL;
		is_int(bt_rows_open_sql(&r, db, "DELETE FROM slices", 0, &err), BT_EUSAGE,
		       "still query-only after the fill");
		bt_rows_close(r);
	}
	bt_db_close(db);
	bt_db_create(&db, ":memory:", &err);
	bt_db_defer_slices(db, fill, release, NULL);
	bt_db_close(db);
	is_int(released, 2, "an unused source is released at close");
	is_int(fills, 1, "without filling");
}

/* The samples a scratch analysis keeps in memory (db_samples.c), read
 * through their virtual table: a thread's, its duration records alone
 * (end_ts IS NOT NULL, taken in the scan), and both, against the rows. */
static void test_samples_in_memory(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_csample *v = bt_xcalloc(1000, sizeof *v);
	struct bt_cends ends = { NULL, NULL, 0, 0 };
	int i, main_blocks = 0, blocks = 0;
	int64_t ends_sum = 0;

	for (i = 0; i < 1000; i++) {
		v[i].tid = i % 4 ? 1 : 2;
		v[i].ts = 1000 + i;
		v[i].type = i % 7 ? 5 : 8;
		bt_cends_add(&ends, (size_t)i, i % 7 ? 0 : 1500 + i, i % 7 ? 0 : 3 * i);   /* a duration, else a point */
		blocks += i % 7 == 0;
		main_blocks += i % 7 == 0 && v[i].tid == 1;
		ends_sum += i % 7 ? 0 : 1500 + i;
	}
	bt_cends_add(&ends, 999, 0, 77);   /* an end CPU without an end time */
	if (bt_db_create(&db, ":memory:", &err) || bt_db_attach_samples(db, v, 1000, &ends, &err))
		printf("# %s\n", err.msg);
	ok(!ends.n && !ends.at, "the ends handed over");
	is_int(one(db, "SELECT sum(end_ts) FROM samples"), ends_sum, "in memory: the end times, each with its row");
	is_int(one(db, "SELECT sum(end_cpu_ns - 3 * (id - 1)) FROM samples WHERE end_ts IS NOT NULL"), 0,
	       "in memory: the end CPU with them");
	is_int(one(db, "SELECT end_ts FROM samples WHERE id = 701"), 2200, "in memory: a duration's end by id");
	is_int(one(db, "SELECT count(*) FROM samples WHERE id = 702 AND end_ts IS NULL"), 1,
	       "in memory: a point by id");
	is_int(one(db, "SELECT end_cpu_ns * (end_ts IS NULL) FROM samples WHERE id = 1000"), 77,
	       "in memory: an end CPU alone, its end time NULL");
	is_int(one(db, "SELECT count(*) FROM samples WHERE id = 701 AND end_ts IS NOT NULL"), 1,
	       "in memory: the durations' scan from an id");
	is_int(one(db, "SELECT count(*) FROM samples WHERE tid = 1"), 750, "in memory: a thread's rows");
	is_int(one(db, "SELECT count(*) FROM samples WHERE end_ts IS NOT NULL"), blocks, "in memory: the duration records");
	is_int(one(db, "SELECT count(*) FROM samples WHERE tid = 1 AND end_ts IS NOT NULL"), main_blocks,
	       "in memory: a thread's duration records");
	is_int(one(db, "SELECT count(*) FROM samples WHERE end_ts IS NULL"), 1000 - blocks, "in memory: the point samples");
	is_int(one(db, "SELECT min(id) FROM samples WHERE tid = 2 AND end_ts IS NOT NULL"), 1,
	       "in memory: ids kept through the filters");
	is_int(one(db, "SELECT sum(ts) FROM samples WHERE tid = 1 AND end_ts IS NOT NULL AND ts > 1500"),
	       one(db, "SELECT sum(ts) FROM samples WHERE tid + 0 = 1 AND coalesce(end_ts, 0) > 0 AND ts > 1500"),
	       "in memory: the filters in the scan and in SQL agree");
	/* ts 1000..1999, one a row: bounds taken in the scan, each kind */
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts >= 1100 AND ts < 1200"), 100, "in memory: ts in [a, b)");
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts > 1100 AND ts <= 1200"), 100, "in memory: ts in (a, b]");
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts >= 1990"), 10, "in memory: ts from below only");
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts < 1010"), 10, "in memory: ts from above only");
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts >= 1100.5 AND ts < 1200.5"), 100,
	       "in memory: bounds that are no integers: SQLite's check alone");
	is_int(one(db, "SELECT count(*) FROM samples WHERE tid = 1 AND ts >= 1100 AND ts < 1200 AND ts > 1150"), 37,
	       "in memory: a thread, and a second bound from below checked by SQLite");
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts >= 9223372036854775807"), 0, "in memory: the largest bound");
	is_int(one(db, "SELECT count(*) FROM samples WHERE ts > 9223372036854775807"), 0, "in memory: past the largest");
	bt_db_close(db);
}

/* The same messages into a stored table and into a scratch analysis's
 * memory (db_messages.c), out of key order, a message in parts (one part
 * without CPU time): every read gives what the stored upsert gives. */
static void test_messages_in_memory(void)
{
	static const char *const reads[] = {
		"SELECT group_concat(r, ';') FROM (SELECT tid || ',' || msg_id || ',' || ts || ',' || dur"
		" || ',' || ifnull(cpu_dur, 'n') || ',' || block_dur || ',' || idle_dur || ',' || alloc_bytes AS r FROM messages ORDER BY tid, msg_id)",
		"SELECT group_concat(msg_id) FROM (SELECT msg_id FROM messages WHERE tid = 3 ORDER BY msg_id)",
		"SELECT group_concat(msg_id) FROM (SELECT msg_id FROM messages ORDER BY tid DESC, msg_id DESC)",
		"SELECT ts || ',' || dur || ',' || ifnull(cpu_dur, 'n') || ',' || block_dur || ',' || alloc_bytes FROM messages"
		" WHERE tid = 1 AND msg_id = 5",
		"SELECT ifnull(cpu_dur, 'n') FROM messages WHERE tid = 1 AND msg_id = 5",
		"SELECT count(*) FROM messages WHERE tid = 4 AND msg_id = 1000",
		"SELECT group_concat(tid || ':' || n) FROM (SELECT tid, count(*) AS n FROM messages GROUP BY tid ORDER BY tid)",
		"SELECT group_concat(m.msg_id) FROM threads t JOIN messages m ON m.tid = t.tid AND m.msg_id = t.tid * 2",
		"SELECT count(*) FROM messages WHERE tid = '3'",
		"SELECT count(*) FROM messages WHERE tid = 3.5",
		"SELECT count(*) FROM messages WHERE tid = NULL",
		"SELECT group_concat(tid || ':' || msg_id) FROM messages WHERE tid IN (4, 2) AND msg_id IN (5, 9, 11)",
		"SELECT group_concat(tid) FROM (SELECT tid FROM messages WHERE msg_id = 11 ORDER BY tid)",
		"SELECT group_concat(msg_id) FROM (SELECT msg_id FROM messages WHERE tid >= 4 ORDER BY msg_id, tid)",
		"SELECT sum(dur) FROM (SELECT dur FROM messages WHERE tid = 2 ORDER BY msg_id DESC LIMIT 7)",
	};
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *kept = NULL, *mem = NULL;
	size_t i, q;
	uint64_t x = 12345;

	if (bt_db_create(&kept, ":memory:", &err) || bt_db_create(&mem, ":memory:", &err))
		printf("# %s\n", err.msg);
	bt_db_rows_in_memory(mem, 1);
	for (i = 0; i < 600 && !err.code; i++) {
		struct bt_message_row m;
		x = x * 6364136223846793005u + 1442695040888963407u;
		m.tid = 1 + (int64_t)(x >> 60) % 5;
		m.msg_id = (int64_t)(x >> 40) % 97;   /* 5 threads x 97 ids: parts met often */
		m.ts = (int64_t)(x >> 20) % 100000;
		m.dur = (int64_t)(x >> 8) % 5000;
		m.cpu = (x & 31) == 0 ? BT_MEMTAB_NULL : (int64_t)(x % 4000);
		m.block = (int64_t)(x % 300);
		m.idle = (int64_t)(x % 7);
		m.alloc = (int64_t)(x % 100000);
		if (i == 0) {   /* message (1, 5): two parts, the second without CPU */
			m.tid = 1, m.msg_id = 5, m.cpu = 10;
		} else if (i == 1) {
			m.tid = 1, m.msg_id = 5, m.cpu = BT_MEMTAB_NULL;
		}
		if (bt_db_insert_message(kept, &m, &err) || bt_db_insert_message(mem, &m, &err))
			break;
		if (i == 300)   /* a read between inserts: the rows after it merged too */
			free(tsql_rows(mem, reads[0]));
	}
	ok(!err.code, "600 message parts in, kept and in memory");
	for (i = 1; i <= 5; i++) {
		char sql[96];
		snprintf(sql, sizeof sql, "INSERT INTO threads(tid, name) VALUES (%zu, 't%zu')", i, i);
		if (bt_db_run_sql(kept, sql, &err) || bt_db_run_sql(mem, sql, &err))
			printf("# %s\n", err.msg);
	}
	is_int(one(mem, "SELECT count(*) FROM main.messages"), 0, "in memory: the stored table stays empty");
	ok(one(kept, "SELECT count(*) FROM messages") < 480, "parts of one message met (fewer rows than parts)");
	for (q = 0; q < sizeof reads / sizeof *reads; q++) {
		char *a = tsql_rows(kept, reads[q]), *b = tsql_rows(mem, reads[q]), what[96];
		snprintf(what, sizeof what, "in memory as stored: %.60s", reads[q] + 7);
		ok(has_rows(a) && !strcmp(a, b), what);
		if (strcmp(a, b))
			printf("# kept %.200s\n# mem  %.200s\n", a, b);
		free(a);
		free(b);
	}
	bt_db_close(kept);
	bt_db_close(mem);
}

/* Message ids that alternate part by part (A B C A B C ...), 30,000 parts
 * in all: in memory they are joined as they pile up (every 4,096 rows
 * past twice the last join), and read as the stored upserts give them. */
static void test_messages_alternating(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *kept = NULL, *mem = NULL;
	const char *all = "SELECT group_concat(tid || ',' || msg_id || ',' || ts || ',' || dur || ',' || ifnull(cpu_dur, 'n')"
			  " || ',' || block_dur || ',' || alloc_bytes, ';') FROM messages";
	char *a, *b;
	int64_t i;

	if (bt_db_create(&kept, ":memory:", &err) || bt_db_create(&mem, ":memory:", &err))
		printf("# %s\n", err.msg);
	bt_db_rows_in_memory(mem, 1);
	for (i = 0; i < 30000 && !err.code; i++) {
		const struct bt_message_row m = { 1 + (i % 7 == 6), 10 + i % 3, 1000 * i, 400, i % 1000 == 999 ? BT_MEMTAB_NULL : 7,
						  i % 5, 0, 3 };
		if (bt_db_insert_message(kept, &m, &err) || bt_db_insert_message(mem, &m, &err))
			break;
	}
	ok(!err.code, "30,000 alternating parts in");
	a = tsql_rows(kept, all);
	b = tsql_rows(mem, all);
	ok(has_rows(a) && !strcmp(a, b), "alternating parts: joined as the stored upserts join them");
	if (strcmp(a, b))
		printf("# kept %.200s\n# mem  %.200s\n", a, b);
	is_int(one(mem, "SELECT count(*) FROM messages"), 6, "alternating parts: three messages on each of two threads");
	free(a);
	free(b);
	bt_db_close(kept);
	bt_db_close(mem);
}

/* Slices whose ids come out of order, as a reconstruction gives them (a
 * parent after its children), spread wider than 32 bits: each is
 * stored whole, and the chunks go in by id (db_bulk.c): the table's pages
 * fill as an append fills them. */
static void test_slices_by_id(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_slice s;
	char path[] = "/tmp/t_db_slicesXXXXXX";
	int fd = mkstemp(path), i, rc = 0;
	const int n = 3 * 4096 + 100;

	close(fd);
	unlink(path);
	is_int(bt_db_create(&db, path, &err), BT_OK, "create a file");
	bt_db_begin(db, &err);
	memset(&s, 0, sizeof s);
	for (i = 0; i < n && !rc; i++) {
		/* within 4096 slices, the ids descending: parents after their children */
		int64_t k = i / 4096 * 4096 + (i / 4096 * 4096 + 4096 <= n ? 4095 - i % 4096 : n - 1 - i);
		s.id = k < n / 2 ? 1 + k * 1000003 : ((int64_t)1 << 40) + k * 16777259;
		s.tid = 1;
		s.frame_id = 1 + k % 11;
		s.ts = k * 3;
		s.dur = 1 + k % 97;
		s.type = -1;
		rc = bt_db_insert_slice(db, &s, &err);
	}
	is_int(rc, BT_OK, "slices buffered");
	is_int(bt_db_commit(db, &err), BT_OK, "and stored");
	is_int(one(db, "SELECT count(*) FROM slices"), n, "every slice");
	is_int(one(db, "SELECT count(DISTINCT id) FROM slices"), n, "each once");
	is_int(one(db, "SELECT count(*) FROM slices WHERE id != CASE WHEN ts / 3 < 6194 THEN 1 + ts / 3 * 1000003 "
		    "ELSE 1099511627776 + ts / 3 * 16777259 END OR frame_id != 1 + ts / 3 % 11 OR dur != 1 + ts / 3 % 97"),
	       0, "each with its own columns");
	/* a page split in the middle leaves both halves half empty: 40 % of
	 * the leaves unused when these go in as they come */
	ok(one(db, "SELECT 100 * sum(unused) / sum(pgsize) FROM dbstat WHERE name = 'slices' AND pagetype = 'leaf'") <= 12,
	   "its leaves filled as an append fills them");
	/* appended, each new leaf is the file's next page: in key order, the
	 * leaves lie in file order (one misplaced insert splits a leaf) */
	is_int(one(db, "SELECT count(*) FROM (SELECT pageno < lag(pageno) OVER (ORDER BY path) AS back FROM dbstat "
		    "WHERE name = 'slices' AND pagetype = 'leaf') WHERE back"), 0, "its leaves in the file in key order");
	bt_db_close(db);
	unlink(path);
}

/* copy_file_range, refused as a file system without it does when
 * no_copy_range is set (the executable's definition comes before libc's). */
static int no_copy_range, copy_range_refused;

ssize_t copy_file_range(int in, loff_t *off_in, int out, loff_t *off_out, size_t n, unsigned flags)
{
	if (no_copy_range) {
		copy_range_refused = 1;
		errno = EXDEV;
		return -1;
	}
	return syscall(SYS_copy_file_range, in, off_in, out, off_out, n, flags);
}

/* The range taken out of a file, refused as a file system without it
 * does when no_collapse is set; and the file system of any file tmpfs
 * when beside_fs is: the leaves then wait in files of their own. */
static int no_collapse, collapse_refused, collapsed, beside_fs;

int fallocate(int fd, int mode, off_t off, off_t len)
{
	if (no_collapse && mode & FALLOC_FL_COLLAPSE_RANGE) {
		collapse_refused = 1;
		errno = EOPNOTSUPP;
		return -1;
	}
	if (syscall(SYS_fallocate, fd, mode, off, len))
		return -1;
	collapsed += !!(mode & FALLOC_FL_COLLAPSE_RANGE);
	return 0;
}

int statfs(const char *path, struct statfs *buf)
{
	int rc = (int)syscall(SYS_statfs, path, buf);

	if (!rc && beside_fs)
		buf->f_type = TMPFS_MAGIC;
	return rc;
}

/* Whether the leaves can wait in the database file at path (db_pages.c's
 * in_place, by the real file system). */
static int leaves_in_place(const char *path)
{
	struct statfs fs;

	return !beside_fs && !syscall(SYS_statfs, path, &fs) &&
	       (fs.f_type == EXT4_SUPER_MAGIC || fs.f_type == XFS_SUPER_MAGIC);
}

/* A temporary folder for a file written as pages (a) and one written
 * through SQL (b) to compare it with; 0 if it cannot be made. */
struct two_files {
	char dir[64], a[128], b[128];
};

static int two_files(struct two_files *f, const char *stem)
{
	snprintf(f->dir, sizeof f->dir, "/tmp/%sXXXXXX", stem);
	if (!mkdtemp(f->dir))
		return 0;
	snprintf(f->a, sizeof f->a, "%s/pages.db", f->dir);
	snprintf(f->b, sizeof f->b, "%s/sql.db", f->dir);
	return 1;
}

static void two_files_remove(const struct two_files *f)
{
	unlink(f->a);
	unlink(f->b);
	rmdir(f->dir);
}

/* Table's rows in db and not in the attached q, and the other way
 * round: 0 when they are the same. */
static int64_t rows_apart(struct bt_db *db, const char *table)
{
	char sql[300];

	snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM (SELECT * FROM main.%s EXCEPT SELECT * FROM q.%s))"
		 " + (SELECT count(*) FROM (SELECT * FROM q.%s EXCEPT SELECT * FROM main.%s))", table, table, table,
		 table);
	return one(db, sql);
}

/* Attach the file other as q. */
static void attach_q(struct bt_db *db, const char *other)
{
	struct bt_err err = BT_ERR_INIT;
	char sql[200];

	snprintf(sql, sizeof sql, "ATTACH '%s' AS q", other);
	bt_db_run_sql(db, sql, &err);
}

/* What PRAGMA integrity_check finds wrong: 0 lines for a whole file. */
static int64_t broken(struct bt_db *db)
{
	return one(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'");
}

/* The end of a file's making: written as pages, table reads empty until
 * the commit; the commit. */
static struct bt_db *committed(struct bt_db *db, int rc, const char *table, int pages, struct bt_err *err)
{
	char sql[100];

	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
	if (!rc && pages)
		is_int(one(db, sql), 0, "written as pages: the table reads empty until the commit");
	if (!rc && pages) {
		snprintf(sql, sizeof sql, "%s-%s", db->tmp_path, table);
		is_int(access(sql, F_OK), leaves_in_place(db->tmp_path) ? -1 : 0,
		       leaves_in_place(db->tmp_path) ? "its leaves in the file itself" : "its leaves in a file beside");
	}
	if (!rc)
		rc = bt_db_commit(db, err);
	is_int(rc, BT_OK, pages ? "written as pages" : "through SQL");
	if (!rc && pages) {
		struct stat st;
		is_int(stat(db->tmp_path, &st) ? -1 : st.st_size,
		       one(db, "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size"),
		       "the file its pages, no more");
	}
	if (rc)
		printf("# %s: %s\n", table, err->msg);
	return db;
}

/* Slice k of test_slices_as_pages: ids mostly in chunks descending (a
 * parent after its children), every 5000th held to the end (a thread's
 * outermost slice, late by far), values of every width SQLite stores. */
static const int64_t widths[] = { 0, 1, 2, -1, 127, -128, 128, 32767, -32769, 8388607, 8388608, 2147483647,
				  -2147483649LL, 0x7fffffffffffLL, 0x800000000000LL, INT64_MAX, INT64_MIN };
#define NW (int64_t)(sizeof widths / sizeof *widths)

static void page_slice(struct bt_slice *s, int64_t id)
{
	memset(s, 0, sizeof *s);
	s->id = id;
	s->tid = 1 + id % 3;
	s->depth = id % 40;
	s->parent_id = id % 7 ? id - 1 : 0;   /* 0: NULL */
	s->frame_id = 1 + id % 11;
	s->ts = id * 1000;
	s->dur = widths[id % NW];
	s->cpu_dur = widths[(id + 1) % NW];
	s->self_dur = widths[(id + 2) % NW];
	s->alloc_bytes = widths[(id + 3) % NW];
	s->msg_id = id / 50;
	s->sample_count = id % 2;
	s->type = id % 5 ? id % 23 : -1;      /* -1: NULL */
	s->wakeup_tid = id % 13 ? 0 : 77;     /* 0: NULL */
	s->gap_dur = widths[(id + 5) % NW];
	s->idle = id % 3 == 0;
	s->cpu_unknown = id % 17 == 0;        /* cpu_dur, self_cpu_dur NULL */
}

/* The n slices into a new file at path, written as pages or not. */
static struct bt_db *slices_file(const char *path, int n, int pages)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_slice s;
	int i, rc;

	unlink(path);
	if (bt_db_create(&db, path, &err) || bt_db_begin(db, &err))
		return db;
	rc = pages ? bt_db_slices_as_pages(db, &err) : BT_OK;
	for (i = 0; i < n && !rc; i++) {
		int64_t k = i / 4096 * 4096 + (i / 4096 * 4096 + 4096 <= n ? 4095 - i % 4096 : n - 1 - i);
		if (k % 5000 == 1)   /* held back: these go last */
			continue;
		page_slice(&s, 1 + k);
		rc = bt_db_insert_slice(db, &s, &err);
	}
	for (i = 1; i < n && !rc; i += 5000) {
		page_slice(&s, 1 + i);
		rc = bt_db_insert_slice(db, &s, &err);
	}
	return committed(db, rc, "slices", pages, &err);
}

/* Slices written as the pages of their table (db_pages.c) are the rows
 * SQL would have stored, the file is whole, its leaves full; a slice late
 * by far is merged into its leaf; one leaf is the root; SQLite writes on. */
static void test_slices_as_pages(void)
{
	/* how: the file system takes no range out (the leaves copied within the
	 * file), has no copy_file_range (copied by hand), is not one to keep
	 * the leaves in the database file (they wait beside) */
	enum { COLLAPSE_NO = 1, COPY_RANGE_NO = 2, BESIDE = 4 };
	static const struct { int n, how; } cases[] = {
		{ 0, 0 }, { 1, 0 }, { 3, 0 }, { 300, 0 }, { 320000, 0 }, { 300, COLLAPSE_NO },
		{ 20000, COLLAPSE_NO | COPY_RANGE_NO }, { 20000, BESIDE }, { 3, BESIDE }, { 300, BESIDE | COPY_RANGE_NO },
	};
	struct two_files f;
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db;
	struct bt_slice s;
	size_t t;

	if (!two_files(&f, "t_db_pages"))
		return;
	for (t = 0; t < sizeof cases / sizeof *cases; t++) {
		int n = cases[t].n;
		no_collapse = !!(cases[t].how & COLLAPSE_NO);
		no_copy_range = !!(cases[t].how & COPY_RANGE_NO);
		beside_fs = !!(cases[t].how & BESIDE);
		db = slices_file(f.b, n, 0);
		bt_db_publish(db, &err);
		bt_db_close(db);
		db = slices_file(f.a, n, 1);
		is_int(one(db, "SELECT count(*) FROM slices"), n, "every slice");
		attach_q(db, f.b);
		is_int(rows_apart(db, "slices"), 0, "as SQL stores them: every column, NULLs and widths");
		is_int(one(db, "SELECT count(*) FROM slices s JOIN q.slices r USING (id) WHERE typeof(s.dur) != typeof(r.dur) "
			    "OR typeof(s.cpu_dur) != typeof(r.cpu_dur) OR typeof(s.parent_id) != typeof(r.parent_id)"), 0,
		       "of the same types");
		bt_db_run_sql(db, "DETACH q", &err);
		is_int(broken(db), 0, "the file whole (integrity_check)");
		if (n == 320000) {
			/* each of the 64 far-late slices splits its leaf: 5 % unused
			 * (SQL's inserts: 12 %; a reconstruction has a few such) */
			ok(one(db, "SELECT 1000 * sum(unused) / sum(pgsize) FROM dbstat WHERE name = 'slices' AND pagetype = 'leaf'")
			   <= 60, "its leaves full, the far-late slices merged in");
			is_int(one(db, "SELECT max(length(path)) > 8 FROM dbstat WHERE name = 'slices'"), 1,
			       "two interior levels");
		}
		if (n == 3)
			is_int(one(db, "SELECT count(*) FROM dbstat WHERE name = 'slices'"), 1, "one leaf: the root");
		/* SQLite writes on, after the pages */
		bt_db_begin(db, &err);
		page_slice(&s, n + 10);
		bt_db_insert_slice(db, &s, &err);
		is_int(bt_db_commit(db, &err), BT_OK, "a slice more, through SQL");
		is_int(one(db, "SELECT count(*) FROM slices"), n + 1, "and read back");
		is_int(broken(db), 0, "still whole");
		bt_db_close(db);
	}
	ok(copy_range_refused, "... copied by hand where the kernel cannot");
	no_copy_range = no_collapse = beside_fs = 0;
	if (leaves_in_place(f.dir)) {
		ok(collapsed >= 3, "the leaves moved down in the file, not copied");
		ok(collapse_refused, "... copied within the file where it cannot take the range out");
	}
	/* only where this run made the file and the table is empty */
	bt_db_create(&db, ":memory:", &err);
	is_int(bt_db_slices_as_pages(db, &err), BT_OK, "in memory: slices go through SQL");
	bt_db_close(db);
	two_files_remove(&f);
}

/* A call tree of n rows (every tenth from the third a hole, as a thread's
 * root is), its nullable columns NULL now and then, for
 * test_calltree_as_pages. */
static size_t ct_rows, ct_null_at;

static size_t ct_nrows(const void *data)
{
	(void)data;
	return ct_rows;
}

static int ct_exists(const void *data, size_t id)
{
	(void)data;
	return id % 10 != 3;
}

static int64_t ct_column(const void *data, size_t id, int col)
{
	(void)data;
	if (col == 0)
		return (int64_t)id;
	if (col == 2)   /* parent_id: 0 reads NULL (zero_null) */
		return id % 4 ? (int64_t)id - 1 : 0;
	if ((col == 7 || col == 8) && id % 6 == 0)   /* the CPU times: not in the trace */
		return BT_MEMTAB_NULL;
	if (col == 5 && id == ct_null_at)   /* self_ns NULL: NOT NULL refused */
		return BT_MEMTAB_NULL;
	return widths[(id + (size_t)col) % NW] == INT64_MIN ? INT64_MIN + 1 : widths[(id + (size_t)col) % NW];
}

static int ct_tid_rows(const void *data, int64_t tid, size_t *first, size_t *end)
{
	(void)data;
	(void)tid;
	(void)first;
	(void)end;
	return 0;
}

static const char ct_schema[] =
	"CREATE TABLE x(id, tid, parent_id, frame_id, depth, self_ns, incl_ns, self_cpu_ns, incl_cpu_ns,"
	" self_blocked_ns, incl_blocked_ns, self_alloc_bytes, incl_alloc_bytes, self_alloc_objects,"
	" incl_alloc_objects, self_majflt, incl_majflt, self_nvcsw, incl_nvcsw, self_nivcsw, incl_nivcsw,"
	" self_idle_ns, incl_idle_ns, idle)";

static struct bt_db *calltree_file(const char *path, int pages, int nslices)
{
	struct bt_memtab ct = { "calltree", ct_schema, ct_nrows, ct_exists, ct_column, ct_tid_rows, NULL, NULL,
				1u << 2, 0, NULL, 0 };
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	int i, rc;

	unlink(path);
	if (bt_db_create(&db, path, &err) || bt_db_begin(db, &err))
		return db;
	rc = pages ? bt_db_slices_as_pages(db, &err) : BT_OK;
	for (i = 1; i <= nslices && !rc; i++) {   /* the slices' pages, then the call tree's */
		struct bt_slice s;
		page_slice(&s, i);
		rc = bt_db_insert_slice(db, &s, &err);
	}
	if (!rc)
		rc = bt_db_attach_memtab(db, &ct, 1, &err);
	return committed(db, rc, "calltree", pages, &err);
}

/* A stored call tree (a memtab) written as its table's pages is the rows
 * SQL would have stored, holes left out, NULLs kept; the file whole; with
 * the slices' pages before it, theirs as whole. */
static void test_calltree_as_pages(void)
{
	static const size_t sizes[] = { 5, 70000, 30000 };
	static const int nslices[] = { 0, 0, 40000 };
	struct two_files f;
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db;
	size_t t;

	if (!two_files(&f, "t_db_ct"))
		return;
	for (t = 0; t < sizeof sizes / sizeof *sizes; t++) {
		ct_rows = sizes[t];
		db = calltree_file(f.b, 0, nslices[t]);
		bt_db_publish(db, &err);
		bt_db_close(db);
		db = calltree_file(f.a, 1, nslices[t]);
		is_int(one(db, "SELECT count(*) FROM calltree"), (int64_t)(ct_rows - (ct_rows + 6) / 10),
		       "every row but the holes");
		attach_q(db, f.b);
		is_int(rows_apart(db, "calltree"), 0, "as SQL stores them");
		is_int(one(db, "SELECT count(*) FROM calltree WHERE parent_id IS NULL OR self_cpu_ns IS NULL"),
		       one(db, "SELECT count(*) FROM q.calltree WHERE parent_id IS NULL OR self_cpu_ns IS NULL"),
		       "with their NULLs");
		is_int(rows_apart(db, "slices"), 0, "the slices as SQL stores them");
		bt_db_run_sql(db, "DETACH q", &err);
		is_int(broken(db), 0, "the file whole (integrity_check)");
		bt_db_close(db);
	}
	/* a NULL where the table says NOT NULL: refused, as SQL refuses it */
	ct_rows = 5;
	ct_null_at = 4;
	bt_db_create(&db, f.a, &err);
	bt_db_begin(db, &err);
	bt_db_slices_as_pages(db, &err);
	is_int(bt_db_attach_memtab(db, &(struct bt_memtab){ "calltree", ct_schema, ct_nrows, ct_exists,
			ct_column, ct_tid_rows, NULL, NULL, 1u << 2, 0, NULL, 0 }, 1, &err), BT_ESQL,
	       "a NULL in a NOT NULL column refused");
	ok(strstr(err.msg, "NOT NULL constraint failed: calltree column 5") != NULL, "... naming its table and column");
	bt_db_close(db);
	ct_null_at = 0;
	two_files_remove(&f);
}

/* Slices in random orders, as late as a reconstruction may give them
 * (a window shuffled, some held back to the end), with random widths and
 * NULLs: the pages hold what SQL stores, the file whole. Five seeds. */
static void random_slices(const char *path, uint64_t seed, int pages, int n)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_slice s;
	int64_t *ids = bt_xmalloc((size_t)n * sizeof *ids), *held = bt_xmalloc((size_t)n * sizeof *held);
	uint64_t r = seed;
	int i, nheld = 0, rc;
	int window = 1 + (int)(tap_rand(&r) % 3000);

	for (i = 0; i < n; i++)
		ids[i] = i + 1;
	for (i = 0; i < n; i++) {   /* each swapped with one at most a window ahead */
		int j = i + (int)(tap_rand(&r) % (uint64_t)window);
		int64_t t = ids[i];
		if (j >= n)
			j = n - 1;
		ids[i] = ids[j];
		ids[j] = t;
	}
	unlink(path);
	bt_db_create(&db, path, &err);
	bt_db_begin(db, &err);
	rc = pages ? bt_db_slices_as_pages(db, &err) : BT_OK;
	for (i = 0; i < n + nheld && !rc; i++) {
		int64_t id = i < n ? ids[i] : held[i - n];
		uint64_t x = tap_rand(&r);
		if (i < n && x % 1000 == 0) {   /* a thread's outermost slice: it ends last */
			held[nheld++] = id;
			continue;
		}
		memset(&s, 0, sizeof s);
		s.id = id;
		s.tid = 1 + (int64_t)(x % 5);
		s.depth = (int64_t)(x >> 8 & 63);
		s.parent_id = x >> 16 & 1 ? id / 2 : 0;
		s.frame_id = 1 + (int64_t)(x >> 20 & 1023);
		s.ts = (int64_t)(tap_rand(&r) >> 20);
		s.dur = widths[tap_rand(&r) % NW];
		s.cpu_dur = widths[tap_rand(&r) % NW];
		s.self_dur = widths[tap_rand(&r) % NW];
		s.alloc_bytes = widths[tap_rand(&r) % NW];
		s.nivcsw = widths[tap_rand(&r) % NW];
		s.type = x >> 24 & 1 ? (int64_t)(x >> 25 & 31) : -1;
		s.wakeup_tid = x >> 30 & 1 ? 9 : 0;
		s.idle = x >> 31 & 1;
		s.cpu_unknown = (x >> 32 & 7) == 0;
		rc = bt_db_insert_slice(db, &s, &err);
	}
	if (!rc)
		rc = bt_db_commit(db, &err);
	if (rc)
		printf("# %s\n", err.msg);
	bt_db_publish(db, &err);
	bt_db_close(db);
	free(ids);
	free(held);
}

static void test_random_slices_as_pages(void)
{
	struct two_files f;
	struct bt_err err = BT_ERR_INIT;
	uint64_t seed;

	if (!two_files(&f, "t_db_rand"))
		return;
	for (seed = 1; seed <= 5; seed++) {
		uint64_t r = seed * 7919;
		int n = 1 + (int)(tap_rand(&r) % 30000);
		struct bt_db *db = NULL;
		random_slices(f.b, seed, 0, n);
		random_slices(f.a, seed, 1, n);
		if (bt_db_open(&db, f.a, 1, &err)) {
			ok(0, "the pages' file opens");
			continue;
		}
		attach_q(db, f.b);
		is_int(one(db, "SELECT count(*) FROM slices") - one(db, "SELECT count(*) FROM q.slices"), 0,
		       "random orders: as many slices");
		is_int(rows_apart(db, "slices"), 0, "random orders: the rows SQL stores");
		is_int(broken(db), 0, "random orders: the file whole");
		bt_db_close(db);
	}
	two_files_remove(&f);
}

int main(void)
{
	test_bulk();
	test_samples_in_memory();
	test_messages_in_memory();
	test_messages_alternating();
	test_publish();
	test_deferred();
	test_slices_by_id();
	test_slices_as_pages();
	test_calltree_as_pages();
	test_random_slices_as_pages();
	return done_testing();
}
