/*
 * Slices filled on first use (see bt_db_defer_slices in db.h). The fill
 * runs in its own transaction, lifting query_only for its duration: the
 * rows it writes are the trace's own, not a query's.
 */
#include "engine/db/db_int.h"

void bt_db_defer_slices(struct bt_db *db, bt_slices_fn fn, void (*release)(void *), void *ctx)
{
	if (db->slices_release)
		db->slices_release(db->slices_ctx);
	db->slices_fn = fn;
	db->slices_release = release;
	db->slices_ctx = ctx;
}

int bt_db_slices_deferred(const struct bt_db *db)
{
	return db->slices_fn != NULL;
}

int bt_db_need_slices(struct bt_db *db, struct bt_err *err)
{
	bt_slices_fn fn = db->slices_fn;
	int own = sqlite3_get_autocommit(db->conn), rc = BT_OK;

	if (!fn)
		return BT_OK;
	db->slices_fn = NULL;   /* once, even if it fails */
	if (db->query_only)
		rc = bt_db_run_sql(db, "PRAGMA query_only=OFF", err);
	if (!rc && own)
		rc = bt_db_begin(db, err);
	if (!rc)
		rc = fn(db->slices_ctx, db, err);
	if (!rc)
		rc = bt_db_flush(db, err);
	if (own && !sqlite3_get_autocommit(db->conn)) {
		if (!rc)
			rc = bt_db_commit(db, err);
		else
			bt_db_rollback(db);
	}
	if (db->query_only) {
		int qrc = bt_db_run_sql(db, "PRAGMA query_only=ON", err);
		rc = rc ? rc : qrc;
	}
	bt_db_defer_slices(db, NULL, NULL, NULL);
	return rc;
}
