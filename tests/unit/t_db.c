/*
 * Unit tests of the database layer: schema and statement registry, bulk
 * loading through the writer thread, id checking, publish-by-rename and
 * the scratch database, read-only cursors.
 */
#include <stdlib.h>
#include <unistd.h>

#include "db.h"
#include "fileio.h"
#include "rows.h"
#include "tap.h"

static int64_t one(struct bt_db *db, const char *sql)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_rows *r = NULL;
	int64_t v = -1;

	if (!bt_rows_open_sql(&r, db, sql, &err) && bt_rows_next(r, &err) == 1)
		v = bt_rows_int(r, 0);
	bt_rows_close(r);
	return v;
}

static void test_bulk(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_sample s;
	int i, rc = 0;

	is_int(bt_db_create(&db, ":memory:", &err), BT_OK, "create in memory");
	is_int(one(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('meta','threads','frames','nodes','samples','slices','messages','blocking_edges','diagnostics')"), 9, "schema has every table");
	is_int(one(db, "SELECT count(*) FROM record_types"), 23, "record type names");
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
		is_int(bt_rows_open_sql(&r, db, "INSERT INTO meta VALUES ('x', 1)", &err), BT_EUSAGE, "writes refused");
		bt_rows_close(r);
	}
	bt_db_close(db);
	is_int(bt_db_create(&db, NULL, &err), BT_OK, "scratch database");
	ok(bt_db_path(db) == NULL, "scratch database has no path");
	bt_db_close(db);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_bulk();
	test_publish();
	return done_testing();
}
