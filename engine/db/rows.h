/*
 * Row cursors over the trace database: what reporters, commands and Lua
 * read through. A cursor owns a fresh prepared statement, so several may
 * be open at once.
 */
#ifndef BT_ROWS_H
#define BT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/db/db.h"

struct bt_rows;

enum { BT_ROWS_NULL, BT_ROWS_INT, BT_ROWS_REAL, BT_ROWS_TEXT, BT_ROWS_BLOB };

/* Open a cursor on a registered query. */
int bt_rows_open(struct bt_rows **out, struct bt_db *db, enum bt_sql_id id, struct bt_err *err);

/* The first column of registered query id's first row, arg bound to its
 * parameter if it has one: *v, or def without a row or for a NULL. */
int bt_rows_one_int(struct bt_db *db, enum bt_sql_id id, int64_t arg, int64_t def, int64_t *v,
		    struct bt_err *err);

/*
 * Open a cursor on ad hoc SQL (one statement; trailing whitespace and
 * semicolons allowed). Refused with BT_EUSAGE unless it is read-only;
 * strict (a rule's SQL) also refuses ATTACH, DETACH, transactions and
 * savepoints, and pragmas (as statements or pragma_NAME tables) other
 * than the schema-reading ones, so a rule cannot reach other files.
 */
int bt_rows_open_sql(struct bt_rows **out, struct bt_db *db, const char *sql, int strict,
		     struct bt_err *err);

/* Parameters are numbered from 1; text is copied. */
void bt_rows_bind_int(struct bt_rows *r, int idx, int64_t v);
void bt_rows_bind_real(struct bt_rows *r, int idx, double v);
void bt_rows_bind_text(struct bt_rows *r, int idx, const char *s, size_t len);
void bt_rows_bind_null(struct bt_rows *r, int idx);
int bt_rows_nparams(struct bt_rows *r);

/*
 * Limits on a cursor's steps (a rule's SQL, DESIGN §7): tick(ctx) runs
 * every BT_ROWS_TICK steps of SQLite's virtual machine and stops the
 * statement by returning nonzero (stopped is then set); while the cursor
 * steps, SQLite may hold at most heap_limit bytes in all (<= 0: no limit;
 * nomem is set when that stopped it). b is borrowed for the cursor's life.
 */
#define BT_ROWS_TICK 1000
struct bt_rows_budget {
	int (*tick)(void *ctx);
	void *ctx;
	int64_t heap_limit;
	int stopped, nomem;
};
void bt_rows_budget(struct bt_rows *r, struct bt_rows_budget *b);
/* Bytes SQLite holds now, in the whole process. */
int64_t bt_rows_heap_used(void);

/* Advance: 1 when a row is ready, 0 at the end, -1 on error (err set). */
int bt_rows_next(struct bt_rows *r, struct bt_err *err);

int bt_rows_ncols(struct bt_rows *r);
const char *bt_rows_name(struct bt_rows *r, int col);
int bt_rows_type(struct bt_rows *r, int col);
int64_t bt_rows_int(struct bt_rows *r, int col);
double bt_rows_real(struct bt_rows *r, int col);
/* Text of a column; valid until the next bt_rows_next or close. NULL for NULL. */
const char *bt_rows_text(struct bt_rows *r, int col, size_t *len);

void bt_rows_close(struct bt_rows *r);

/* Every frame's name by frame id, for exporters that meet ids by the
 * million: (*names)[id], NULL where no frame has the id, for id < *n.
 * Free with bt_frame_names_free. */
int bt_frame_names_load(struct bt_db *db, char ***names, size_t *n, struct bt_err *err);
void bt_frame_names_free(char **names, size_t n);

#endif
