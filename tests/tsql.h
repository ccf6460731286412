/*
 * SQL helpers for the unit tests that read what a module stored: one
 * integer, or every row of a query as text ("a|b;c|d", NULL as "-"), so a
 * check compares a whole table with one is_str.
 */
#ifndef BT_TSQL_H
#define BT_TSQL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/rows.h"

/* The first column of the first row, or def when there is none (or the
 * query fails, its message on stdout as a TAP comment). */
static inline int64_t tsql_int(struct bt_db *db, const char *sql, int64_t def)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_rows *r = NULL;
	int64_t v = def;

	if (bt_rows_open_sql(&r, db, sql, 0, &err) || bt_rows_next(r, &err) < 0)
		printf("# %s: %s\n", sql, err.msg);
	else if (err.code == BT_OK && bt_rows_ncols(r) > 0 && bt_rows_type(r, 0) != 5 /* SQLITE_NULL */)
		v = bt_rows_int(r, 0);
	bt_rows_close(r);
	return v;
}

/* Every row of sql as text, columns joined by '|', rows by ';' (NULL:
 * "-"); "ERROR: msg" when it fails. The caller frees it. */
static inline char *tsql_rows(struct bt_db *db, const char *sql)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf b = BT_BUF_INIT;
	struct bt_rows *r = NULL;
	int rc, c, n = 0;

	if (bt_rows_open_sql(&r, db, sql, 0, &err)) {
		bt_buf_addf(&b, "ERROR: %s", err.msg);
		return bt_buf_detach(&b, NULL);
	}
	while ((rc = bt_rows_next(r, &err)) == 1) {
		if (n++)
			bt_buf_addc(&b, ';');
		for (c = 0; c < bt_rows_ncols(r); c++) {
			const char *t = bt_rows_text(r, c, NULL);
			if (c)
				bt_buf_addc(&b, '|');
			bt_buf_adds(&b, t ? t : "-");
		}
	}
	if (rc < 0)
		bt_buf_addf(&b, "ERROR: %s", err.msg);
	bt_rows_close(r);
	return bt_buf_detach(&b, NULL);
}

/* is_str over a query's rows. */
#define is_rows(db, sql, want, what) \
	do { \
		char *rows_ = tsql_rows((db), (sql)); \
		is_str(rows_, (want), (what)); \
		free(rows_); \
	} while (0)

#endif
