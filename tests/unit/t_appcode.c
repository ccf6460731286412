/*
 * Unit tests of whose code a frame is (engine/db/appcode.h): the app's
 * methods and its libraries', the platform's packages, synthetic and
 * native frames, a package's own; and bt_app_node's walk up a stack in a
 * real database, a cycle in a hostile one included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "engine/db/appcode.h"
#include "engine/db/db.h"
#include "engine/db/db_int.h"
#include "engine/db/rows.h"
#include "tests/tap.h"

/* The first column of sql's first row; -2 on an error, -3 with no row. */
static int64_t scalar(struct bt_db *db, const char *sql)
{
	struct bt_rows *r = NULL;
	struct bt_err err = BT_ERR_INIT;
	int64_t v = -3;
	int rc;

	if (bt_rows_open_sql(&r, db, sql, 0, &err))
		return -2;
	if ((rc = bt_rows_next(r, &err)) == 1)
		v = bt_rows_type(r, 0) == SQLITE_NULL ? -1 : bt_rows_int(r, 0);
	else if (rc < 0)
		v = -2;
	bt_rows_close(r);
	return v;
}

static int64_t app_node(struct bt_db *db, int64_t node)
{
	char sql[96];

	snprintf(sql, sizeof sql, "SELECT bt_app_node(%lld)", (long long)node);
	return scalar(db, sql);
}

int main(void)
{
	struct bt_db *db = NULL;
	struct bt_err err = BT_ERR_INIT;

	ok(bt_frame_is_app("void com.example.app.Feed.bind(int)"), "an app method");
	ok(bt_frame_is_app("okhttp3.Response okhttp3.RealCall.execute()"), "a library the app ships is the app's");
	ok(bt_frame_is_app("int Foo.bar()"), "a class in no package");
	ok(!bt_frame_is_app("void sun.misc.Unsafe.park(boolean, long)"), "sun.: the platform's");
	ok(!bt_frame_is_app("void jdk.internal.misc.Unsafe.park(boolean, long)"), "jdk.: the platform's (Android 11+ parks there)");
	ok(!bt_frame_is_app("void java.lang.Object.wait(long, int)"), "java.: the platform's");
	ok(!bt_frame_is_app("void android.os.Handler.dispatchMessage(android.os.Message)"), "android.");
	ok(!bt_frame_is_app("void androidx.core.Foo.x()"), "androidx.");
	ok(!bt_frame_is_app("void kotlinx.coroutines.Job.join()"), "kotlinx.");
	ok(!bt_frame_is_app("void com.google.android.gms.Foo.x()"), "com.google.android.");
	ok(bt_frame_is_app("void com.google.common.Foo.x()"), "com.google. outside android is a library");
	ok(!bt_frame_is_app("void Monitor:Lock()"), "a synthetic frame");
	ok(!bt_frame_is_app("art::Monitor::Lock(art::Thread*)"), "a native runtime frame");
	ok(!bt_frame_is_app("(idle)"), "the idle frame");
	ok(!bt_frame_is_app("-[UIView layoutSubviews]"), "no parameter list: not known to be the app's");
	ok(!bt_frame_is_app("inflate"), "an atrace label");
	ok(!bt_frame_is_app(""), "empty");
	ok(!bt_frame_is_app(NULL), "NULL");
	ok(!bt_frame_is_app("void ()"), "no qualified name");
	ok(bt_frame_in_package("void com.example.app.Feed.bind(int)", "com.example.app"), "in its package");
	ok(bt_frame_in_package("void com.example.app$1.run()", "com.example.app"), "a package's $ class");
	ok(!bt_frame_in_package("void com.example.apple.X.y()", "com.example.app"), "a longer package is another");
	ok(!bt_frame_in_package("okhttp3.Response okhttp3.RealCall.execute()", "com.example.app"),
	   "a library is not the package's");
	ok(bt_frame_in_package("okhttp3.Response okhttp3.RealCall.execute()", NULL), "no package: the app's code");
	ok(bt_frame_in_package("okhttp3.Response okhttp3.RealCall.execute()", ""), "an empty package: the same");

	/* a stack: 1 ZygoteInit.main <- 2 Feed.load <- 3 LockSupport.park <- 4 Unsafe.park;
	 * 5 Thread.run <- 6 Object.wait (all platform); 7 -> 8 -> 7 a cycle */
	if (bt_db_create(&db, ":memory:", &err) || bt_db_run_sql(db, "INSERT INTO frames(id, name) VALUES (1, 'void com.android.internal.os.ZygoteInit.main(java.lang.String[])'),"
				 " (2, 'void com.example.app.Feed.load()'),"
				 " (3, 'void java.util.concurrent.locks.LockSupport.park(java.lang.Object)'),"
				 " (4, 'void sun.misc.Unsafe.park(boolean, long)'),"
				 " (5, 'void java.lang.Thread.run()'), (6, 'void java.lang.Object.wait()');"
				 "INSERT INTO nodes(id, parent_id, frame_id, depth) VALUES (1, NULL, 1, 0), (2, 1, 2, 1),"
				 " (3, 2, 3, 2), (4, 3, 4, 3), (5, NULL, 5, 0), (6, 5, 6, 1), (7, 8, 3, 0), (8, 7, 4, 1);", &err)) {
		printf("# %s\n", err.msg);
		return 1;
	}
	is_int(app_node(db, 4), 2, "bt_app_node: up from Unsafe.park to the app's Feed.load");
	is_int(app_node(db, 2), 2, "an app node is its own");
	is_int(app_node(db, 6), 6, "a stack with no app frame: the node itself");
	is_int(app_node(db, 99), 99, "a node not in the table: itself");
	is_int(app_node(db, 8), 8, "a cycle of platform frames ends (a hostile database): the node itself");
	is_int(scalar(db, "SELECT bt_app_node(NULL) IS NULL"), 1, "NULL for NULL");
	/* the answers are remembered: asked again, the same; a node missing
	 * when asked is not, and once inserted it gets its own answer */
	is_int(app_node(db, 4) * 100 + app_node(db, 6) * 10 + app_node(db, 8), 268, "asked again: the same answers");
	if (bt_db_run_sql(db, "INSERT INTO nodes(id, parent_id, frame_id, depth) VALUES (99, 2, 4, 2);", &err))
		printf("# %s\n", err.msg);
	is_int(app_node(db, 99), 2, "a node inserted after it was asked for: its own walk, up to Feed.load");
	/* a walk keeps its answer for the nodes it passed: 10 and 11 stop at
	 * 3 and at 6, the second with no app frame above (itself) */
	if (bt_db_run_sql(db, "INSERT INTO nodes(id, parent_id, frame_id, depth) VALUES (10, 3, 4, 3), (11, 6, 4, 2);",
			  &err))
		printf("# %s\n", err.msg);
	is_int(app_node(db, 3), 2, "a node the first walk passed: its answer");
	is_int(app_node(db, 10) * 100 + app_node(db, 11), 211,
	       "a walk that meets a node walked before: that one's app node, or none (itself)");
	bt_db_close(db);

	/* the same stacks from memory, as a scratch analysis holds its nodes
	 * (no cycle: parents come first); node 9's frame is not in frames */
	if (bt_db_create(&db, ":memory:", &err) || bt_db_run_sql(db, "INSERT INTO frames(id, name) VALUES (1, 'void com.android.internal.os.ZygoteInit.main(java.lang.String[])'),"
				 " (2, 'void com.example.app.Feed.load()'),"
				 " (3, 'void java.util.concurrent.locks.LockSupport.park(java.lang.Object)'),"
				 " (4, 'void sun.misc.Unsafe.park(boolean, long)'),"
				 " (5, 'void java.lang.Thread.run()'), (6, 'void java.lang.Object.wait()');", &err)) {
		printf("# %s\n", err.msg);
		return 1;
	}
	bt_db_rows_in_memory(db, 1);
	{
		static const uint32_t up[] = { 0, 0, 1, 2, 3, 0, 5, 3, 7, 2 }, fr[] = { 0, 1, 2, 3, 4, 5, 6, 4, 3, 77 };
		uint32_t *parent = malloc(sizeof up), *frame = malloc(sizeof fr);
		memcpy(parent, up, sizeof up);
		memcpy(frame, fr, sizeof fr);
		if (bt_db_attach_nodes(db, parent, frame, 9, &err)) {
			printf("# %s\n", err.msg);
			return 1;
		}
	}
	is_int(app_node(db, 4) * 100 + app_node(db, 2) * 10 + app_node(db, 6), 226,
	       "nodes in memory: up to Feed.load, an app node its own, no app frame: itself");
	is_int(app_node(db, 8) * 100 + app_node(db, 7), 202, "... a walk that meets one walked before");
	is_int(app_node(db, 9) * 1000 + app_node(db, 99), 9099, "... a frame not in frames, a node not there: itself");
	is_int(scalar(db, "SELECT count(*) FROM nodes n JOIN nodes a ON a.id = bt_app_node(n.id) WHERE a.frame_id = 2"), 5,
	       "... in SQL: the five nodes at or under Feed.load (not 9, whose frame is missing)");
	bt_db_close(db);
	return done_testing();
}
