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
 * stands (a rule asks it of every wait of the main thread). */
static void remember(struct bt_db *db, sqlite3_int64 start, sqlite3_int64 node)
{
	if (start < 0 || start >= UINT32_MAX || node < 0 || node >= UINT32_MAX)
		return;
	if (!db->app_memo.slots)
		bt_map64_init(&db->app_memo, 1024);
	bt_map64_put(&db->app_memo, (uint64_t)start + 1, (uint32_t)node + 1);
}

static void app_node(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct bt_db *db = sqlite3_user_data(ctx);
	sqlite3_int64 start, at;
	uint32_t memo;
	int steps;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER)
		return;   /* NULL */
	start = at = sqlite3_value_int64(argv[0]);
	memo = start >= 0 && start < UINT32_MAX && db->app_memo.slots ?
		bt_map64_get(&db->app_memo, (uint64_t)start + 1) : 0;
	if (memo) {
		sqlite3_result_int64(ctx, (sqlite3_int64)memo - 1);
		return;
	}
	if (!db->app_up && sqlite3_prepare_v3(db->conn,
			"SELECT n.parent_id, f.name FROM nodes n JOIN frames f ON f.id = n.frame_id WHERE n.id = ?",
			-1, SQLITE_PREPARE_PERSISTENT, &db->app_up, NULL) != SQLITE_OK) {
		sqlite3_result_error(ctx, sqlite3_errmsg(db->conn), -1);
		return;
	}
	for (steps = 0; steps < MAX_WALK; steps++) {
		int rc, app, up;

		sqlite3_bind_int64(db->app_up, 1, at);
		rc = sqlite3_step(db->app_up);
		if (rc != SQLITE_ROW) {
			sqlite3_reset(db->app_up);
			if (rc != SQLITE_DONE) {
				sqlite3_result_error(ctx, sqlite3_errmsg(db->conn), -1);
				return;
			}
			break;   /* no such node (not remembered: not one that stands) */
		}
		app = bt_frame_is_app((const char *)sqlite3_column_text(db->app_up, 1));
		up = sqlite3_column_type(db->app_up, 0) == SQLITE_INTEGER;
		if (!app && up)
			at = sqlite3_column_int64(db->app_up, 0);
		sqlite3_reset(db->app_up);
		if (app) {
			remember(db, start, at);
			sqlite3_result_int64(ctx, at);
			return;
		}
		if (!up) {
			remember(db, start, start);
			break;
		}
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
	db->app_up = NULL;
	if (db->app_memo.slots)
		bt_map64_release(&db->app_memo);
	memset(&db->app_memo, 0, sizeof db->app_memo);
}
