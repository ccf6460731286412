/*
 * Whose code a frame is (appcode.h), by its name alone, so the answer is
 * the same from a dump, a database read back, a rule and an export.
 */
#include <string.h>

#include "engine/db/appcode.h"
#include "engine/db/db_int.h"

/* The platform's packages: code the app calls but does not own. */
static const char *const platform[] = {
	"android.", "androidx.", "java.", "javax.", "kotlin.", "kotlinx.", "dalvik.",
	"com.android.", "libcore.", "sun.", "jdk.", "org.apache.", "org.json.", "com.google.android."
};

/* The qualified part of "void a.B.c(int)": [*q, paren); 0 if name has no
 * parameter list. */
static int qualified(const char *name, const char **q, const char **paren)
{
	const char *sp;

	*paren = strchr(name, '(');
	if (!*paren)
		return 0;
	*q = name;
	for (sp = name; sp < *paren; sp++)
		if (*sp == ' ')
			*q = sp + 1;
	return 1;
}

int bt_frame_is_app(const char *name)
{
	const char *q, *paren;
	size_t i;

	if (!name || !qualified(name, &q, &paren) || q == paren || memchr(q, ':', (size_t)(paren - q)))
		return 0;
	for (i = 0; i < sizeof platform / sizeof platform[0]; i++)
		if (!strncmp(q, platform[i], strlen(platform[i])))
			return 0;
	return 1;
}

int bt_frame_in_package(const char *name, const char *package)
{
	const char *q, *paren;
	size_t n;

	if (!package || !*package)
		return bt_frame_is_app(name);
	if (!name || !qualified(name, &q, &paren))
		return 0;
	n = strlen(package);
	return (size_t)(paren - q) > n && !strncmp(q, package, n) && (q[n] == '.' || q[n] == '$');
}

/* A stack is at most a few hundred frames; a hostile database's cycle ends here. */
#define MAX_WALK 4096

/* A node's answer once its walk began at a node that exists: its
 * ancestors exist then too, and a node never changes, so the answer
 * stands (a rule asks it of every wait of the main thread, and waits
 * share their stacks' upper parts). Kept as the app node + 1, or NONE:
 * no app frame at or above it (its answer is itself). */
#define NONE UINT32_MAX

static void remember(struct bt_db *db, sqlite3_int64 node, uint32_t answer)
{
	if (node < 0 || node >= UINT32_MAX - 1)
		return;
	if (!db->app_memo.slots)
		bt_map64_init(&db->app_memo, 1024);
	bt_map64_put(&db->app_memo, (uint64_t)node + 1, answer);
}

/* Node's answer kept (as remember has it), or 0. */
static uint32_t recall(const struct bt_db *db, sqlite3_int64 node)
{
	return node >= 0 && node < UINT32_MAX - 1 && db->app_memo.slots ?
		bt_map64_get(&db->app_memo, (uint64_t)node + 1) : 0;
}

#define PATH_KEEP 64   /* the nodes of a walk that keep its answer */

/* The walk's nodes (start, then the ones it passed, path[0..n), none an
 * app frame): each one's answer is the walk's. */
static void remember_walk(struct bt_db *db, sqlite3_int64 start, const sqlite3_int64 *path, int n,
			  uint32_t answer)
{
	int i;

	remember(db, start, answer);
	for (i = 0; i < n; i++)
		remember(db, path[i], answer);
}

/* Whether frame id is the app's: 1, 0, or -1 when the frames table has
 * no such frame (the SQL walk's join then finds no row); -2 and *why
 * on an SQL error. Kept by id: a walk passes the same frames again. */
static int frame_app(struct bt_db *db, uint32_t frame, const char **why)
{
	uint32_t kept = db->app_frame.slots && frame < UINT32_MAX ?
		bt_map64_get(&db->app_frame, (uint64_t)frame + 1) : 0;
	int rc, app;

	if (kept)
		return kept == 3 ? -1 : (int)kept - 1;
	if (!db->app_name && sqlite3_prepare_v3(db->conn, "SELECT name FROM frames WHERE id = ?", -1,
						SQLITE_PREPARE_PERSISTENT, &db->app_name, NULL) != SQLITE_OK) {
		*why = sqlite3_errmsg(db->conn);
		return -2;
	}
	sqlite3_bind_int64(db->app_name, 1, frame);
	rc = sqlite3_step(db->app_name);
	app = rc == SQLITE_ROW ? bt_frame_is_app((const char *)sqlite3_column_text(db->app_name, 0)) : -1;
	sqlite3_reset(db->app_name);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		*why = sqlite3_errmsg(db->conn);
		return -2;
	}
	if (frame < UINT32_MAX) {
		if (!db->app_frame.slots)
			bt_map64_init(&db->app_frame, 1024);
		bt_map64_put(&db->app_frame, (uint64_t)frame + 1, app < 0 ? 3 : (uint32_t)app + 1);
	}
	return app;
}

/* One step of the walk at node at: 1 with whether its frame is the app's
 * and its parent (*up 0: none), 0 when there is no such node (or its
 * frame is missing), -1 and *why on an SQL error. A scratch analysis's
 * nodes are read from memory, a database's through SQL. */
static int step_at(struct bt_db *db, sqlite3_int64 at, int *app, sqlite3_int64 *parent, int *up,
		   const char **why)
{
	int rc;

	if (db->node_parent) {
		if (at < 1 || (uint64_t)at > db->node_n)
			return 0;
		if ((rc = frame_app(db, db->node_frame[at], why)) < 0)
			return rc == -1 ? 0 : -1;
		*app = rc;
		*up = db->node_parent[at] != 0;
		*parent = db->node_parent[at];
		return 1;
	}
	if (!db->app_up && sqlite3_prepare_v3(db->conn,
			"SELECT n.parent_id, f.name FROM nodes n JOIN frames f ON f.id = n.frame_id WHERE n.id = ?",
			-1, SQLITE_PREPARE_PERSISTENT, &db->app_up, NULL) != SQLITE_OK) {
		*why = sqlite3_errmsg(db->conn);
		return -1;
	}
	sqlite3_bind_int64(db->app_up, 1, at);
	rc = sqlite3_step(db->app_up);
	if (rc == SQLITE_ROW) {
		*app = bt_frame_is_app((const char *)sqlite3_column_text(db->app_up, 1));
		*up = sqlite3_column_type(db->app_up, 0) == SQLITE_INTEGER;
		*parent = *up ? sqlite3_column_int64(db->app_up, 0) : 0;
	}
	sqlite3_reset(db->app_up);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		*why = sqlite3_errmsg(db->conn);
		return -1;
	}
	return rc == SQLITE_ROW;
}

static void app_node(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct bt_db *db = sqlite3_user_data(ctx);
	sqlite3_int64 start, at, parent, path[PATH_KEEP];
	const char *why = NULL;
	uint32_t memo;
	int steps, npath = 0;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER)
		return;   /* NULL */
	start = at = sqlite3_value_int64(argv[0]);
	if ((memo = recall(db, start))) {
		sqlite3_result_int64(ctx, memo == NONE ? start : (sqlite3_int64)memo - 1);
		return;
	}
	for (steps = 0; steps < MAX_WALK; steps++) {
		int rc, app, up;

		if (at != start && (memo = recall(db, at))) {   /* an ancestor walked before: its answer */
			remember_walk(db, start, path, npath, memo);
			sqlite3_result_int64(ctx, memo == NONE ? start : (sqlite3_int64)memo - 1);
			return;
		}
		if ((rc = step_at(db, at, &app, &parent, &up, &why)) < 0) {
			sqlite3_result_error(ctx, why, -1);
			return;
		}
		if (rc == 0)
			break;   /* no such node (not remembered: not one that stands) */
		if (app) {
			if (at < UINT32_MAX - 1)
				remember_walk(db, start, path, npath, (uint32_t)at + 1);
			sqlite3_result_int64(ctx, at);
			return;
		}
		if (!up) {
			remember_walk(db, start, path, npath, NONE);
			break;
		}
		if (at != start && npath < PATH_KEEP)
			path[npath++] = at;   /* not the app's: its answer is the walk's */
		at = parent;
	}
	sqlite3_result_int64(ctx, start);
}

int bt_db_register_appcode(struct bt_db *db)
{
	return sqlite3_create_function_v2(db->conn, "bt_app_node", 1, SQLITE_UTF8, db, app_node,
					  NULL, NULL, NULL);
}

void bt_db_appcode_release(struct bt_db *db)
{
	sqlite3_finalize(db->app_up);
	sqlite3_finalize(db->app_name);
	db->app_up = db->app_name = NULL;
	if (db->app_memo.slots)
		bt_map64_release(&db->app_memo);
	if (db->app_frame.slots)
		bt_map64_release(&db->app_frame);
	memset(&db->app_memo, 0, sizeof db->app_memo);
	memset(&db->app_frame, 0, sizeof db->app_frame);
}
