/*
 * The Looper messages of a scratch analysis as an SQLite table read from
 * memory. Stored, each message was an upsert into a B-tree (a message
 * that comes back after another's is widened, its sums added): 0.2 s of
 * a device dump's 250k messages, more than the rules that read them.
 * Here they are appended as they come, and sorted and merged by
 * (tid, msg_id) at the first read after: a virtual table temp.messages,
 * which hides the empty main.messages, reads them in the stored table's
 * key order; "tid = ?" and "tid = ? AND msg_id = ?" are binary searches,
 * and ORDER BY tid, msg_id (or msg_id within a tid) comes free.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/db_int.h"
#include "gen/bt_sql.h"

struct bt_msgtab {
	struct bt_message_row *v;
	size_t n, cap;
	size_t at_merge;   /* n after the last merge */
	int merged;        /* v is in key order, each key once */
};

#define MERGE_EVERY 4096   /* rows appended past twice the last merge's before another */

struct ms_cursor {
	sqlite3_vtab_cursor base;
	size_t i, end;   /* rows v[i..end) */
};

/* Columns, in the order of the messages table (queries/schema.sql). */
enum { MS_TID, MS_MSG, MS_TS, MS_DUR, MS_CPU, MS_BLOCK, MS_IDLE, MS_ALLOC };

static const char ms_schema[] =
	"CREATE TABLE x(tid INTEGER, msg_id INTEGER, ts INTEGER, dur INTEGER, cpu_dur INTEGER,"
	" block_dur INTEGER, idle_dur INTEGER, alloc_bytes INTEGER)";

static int key_order(const void *a, const void *b)
{
	const struct bt_message_row *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->msg_id > y->msg_id) - (x->msg_id < y->msg_id);
}

/* y's part joined to x, as insert_message.sql's upsert does: the span of
 * both, their sums (no CPU time if either has none). */
static void join(struct bt_message_row *x, const struct bt_message_row *y)
{
	int64_t end = bt_sat_add(x->ts, x->dur), yend = bt_sat_add(y->ts, y->dur);

	if (yend > end)
		end = yend;
	if (y->ts < x->ts)
		x->ts = y->ts;
	x->dur = bt_sat_add(end, x->ts == INT64_MIN ? INT64_MAX : -x->ts);
	x->cpu = x->cpu == BT_MEMTAB_NULL || y->cpu == BT_MEMTAB_NULL ? BT_MEMTAB_NULL : bt_sat_add(x->cpu, y->cpu);
	x->block = bt_sat_add(x->block, y->block);
	x->idle = bt_sat_add(x->idle, y->idle);
	x->alloc = bt_sat_add(x->alloc, y->alloc);
}

/* Sorted by key, the parts of one message joined (the join is the same
 * in any order, so the sort need not keep the order they came in). */
static void merge(struct bt_msgtab *t)
{
	size_t i, k = 0;

	if (t->merged)
		return;
	qsort(t->v, t->n, sizeof *t->v, key_order);
	for (i = 0; i < t->n; i++) {
		if (k && !key_order(&t->v[k - 1], &t->v[i]))
			join(&t->v[k - 1], &t->v[i]);
		else
			t->v[k++] = t->v[i];
	}
	t->n = k;
	t->at_merge = k;
	t->merged = 1;
}

static int ms_connect(sqlite3 *conn, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **errmsg)
{
	(void)argc;
	(void)argv;
	(void)errmsg;
	return bt_vtab_connect(conn, ms_schema, aux, out);
}

/* idxNum bits: "tid = ?", then "msg_id = ?" (argv in that order). */
#define MS_BY_TID 1
#define MS_BY_MSG 2

static int ms_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int i, tid = -1, msg = -1, n = 0;

	(void)vt;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (c->iColumn == MS_TID && tid < 0)
			tid = i;
		else if (c->iColumn == MS_MSG && msg < 0)
			msg = i;
	}
	info->idxNum = 0;
	if (tid >= 0) {
		info->idxNum |= MS_BY_TID;
		info->aConstraintUsage[tid].argvIndex = ++n;
		info->aConstraintUsage[tid].omit = 1;
		if (msg >= 0) {   /* a message's row: only with its thread */
			info->idxNum |= MS_BY_MSG;
			info->aConstraintUsage[msg].argvIndex = ++n;
			info->aConstraintUsage[msg].omit = 1;
			info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
		}
	}
	info->estimatedRows = msg >= 0 && tid >= 0 ? 1 : tid >= 0 ? 1e4 : 1e5;
	info->estimatedCost = msg >= 0 && tid >= 0 ? 1 : tid >= 0 ? 1e4 : 1e5;
	/* rows come by (tid, msg_id): ORDER BY tid[, msg_id], or msg_id within one tid */
	if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
	    (info->aOrderBy[0].iColumn == MS_TID || (info->aOrderBy[0].iColumn == MS_MSG && tid >= 0)))
		info->orderByConsumed = 1;
	if (info->nOrderBy == 2 && !info->aOrderBy[0].desc && !info->aOrderBy[1].desc &&
	    info->aOrderBy[0].iColumn == MS_TID && info->aOrderBy[1].iColumn == MS_MSG)
		info->orderByConsumed = 1;
	return SQLITE_OK;
}

static int ms_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return bt_vtab_cursor(sizeof(struct ms_cursor), out);
}

static struct bt_msgtab *table_of(const sqlite3_vtab_cursor *cur)
{
	return ((const struct bt_mem_vtab *)cur->pVtab)->data;
}

/* The first row at or after key (n when none). */
static size_t first_at(const struct bt_msgtab *t, int64_t tid, int64_t msg_id)
{
	struct bt_message_row key;
	size_t lo = 0, hi = t->n;

	key.tid = tid;
	key.msg_id = msg_id;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_order(&t->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int ms_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct ms_cursor *c = (struct ms_cursor *)cur;
	struct bt_msgtab *t = table_of(cur);

	(void)idxstr;
	(void)argc;
	merge(t);
	c->i = 0;
	c->end = t->n;
	if (idx & MS_BY_TID) {
		int64_t tid = sqlite3_value_int64(argv[0]);
		if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER) {
			c->end = 0;
		} else if (idx & MS_BY_MSG) {
			c->i = sqlite3_value_numeric_type(argv[1]) == SQLITE_INTEGER
				       ? first_at(t, tid, sqlite3_value_int64(argv[1])) : t->n;
			c->end = c->i < t->n && t->v[c->i].tid == tid && t->v[c->i].msg_id == sqlite3_value_int64(argv[1])
					 ? c->i + 1 : c->i;
		} else {
			c->i = first_at(t, tid, INT64_MIN);
			c->end = tid == INT64_MAX ? t->n : first_at(t, tid + 1, INT64_MIN);
		}
	}
	return SQLITE_OK;
}

static int ms_next(sqlite3_vtab_cursor *cur)
{
	((struct ms_cursor *)cur)->i++;
	return SQLITE_OK;
}

static int ms_eof(sqlite3_vtab_cursor *cur)
{
	const struct ms_cursor *c = (const struct ms_cursor *)cur;

	return c->i >= c->end;
}

static int ms_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct ms_cursor *c = (const struct ms_cursor *)cur;
	const struct bt_message_row *m = &table_of(cur)->v[c->i];
	const int64_t v[] = { m->tid, m->msg_id, m->ts, m->dur, m->cpu, m->block, m->idle, m->alloc };

	if (col < 0 || col > MS_ALLOC || v[col] == BT_MEMTAB_NULL)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v[col]);
	return SQLITE_OK;
}

static int ms_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((const struct ms_cursor *)cur)->i + 1;
	return SQLITE_OK;
}

static const sqlite3_module ms_module = {
	.iVersion = 0,
	.xCreate = ms_connect,   /* temp.messages, as temp.samples */
	.xConnect = ms_connect,
	.xBestIndex = ms_best_index,
	.xDisconnect = bt_vtab_disconnect,
	.xDestroy = bt_vtab_disconnect,
	.xOpen = ms_open,
	.xClose = bt_vtab_close,
	.xFilter = ms_filter,
	.xNext = ms_next,
	.xEof = ms_eof,
	.xColumn = ms_column,
	.xRowid = ms_rowid,
	.xUpdate = bt_vtab_update_readonly,
};

static void free_table(void *p)
{
	struct bt_msgtab *t = p;

	free(t->v);
	free(t);
}

/* The table in memory, made at the first message: the connection owns it. */
static int messages_in_memory(struct bt_db *db, struct bt_err *err)
{
	struct bt_msgtab *t;

	if (db->msgs)
		return BT_OK;
	if (bt_db_bulk_idle(db, err))
		return err->code;
	t = bt_xcalloc(1, sizeof *t);
	t->merged = 1;
	if (sqlite3_create_module_v2(db->conn, "bt_messages_mem", &ms_module, t, free_table) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot register the messages: %s", sqlite3_errmsg(db->conn));
	db->msgs = t;
	return bt_db_run_sql(db, "CREATE VIRTUAL TABLE temp.messages USING bt_messages_mem", err);
}

int bt_db_insert_message(struct bt_db *db, const struct bt_message_row *m, struct bt_err *err)
{
	struct bt_msgtab *t;

	if (!db->rows_mem && !db->msgs) {
		if (m->cpu == BT_MEMTAB_NULL)
			return bt_db_exec(db, BT_SQL_INSERT_MESSAGE, err, "iiiiniii", m->tid, m->msg_id, m->ts, m->dur,
					  m->block, m->idle, m->alloc);
		return bt_db_exec(db, BT_SQL_INSERT_MESSAGE, err, "iiiiiiii", m->tid, m->msg_id, m->ts, m->dur,
				  m->cpu, m->block, m->idle, m->alloc);
	}
	if (messages_in_memory(db, err))
		return err->code;
	t = db->msgs;
	if (t->n && key_order(&t->v[t->n - 1], m) >= 0)
		t->merged = 0;   /* out of key order, or a message's second part */
	BT_GROW(t->v, t->n + 1, t->cap);
	t->v[t->n++] = *m;
	if (!t->merged && t->n >= 2 * t->at_merge + MERGE_EVERY)
		merge(t);   /* ids that alternate (A B A B ...) come in as many parts as slices:
			     * joined as they pile up, the rows stay within twice the messages */
	return BT_OK;
}
