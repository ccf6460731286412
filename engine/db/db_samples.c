/*
 * The samples of a scratch analysis as an SQLite table read from memory:
 * the importer's capture already holds every sample, so inserting them
 * (most of the writer thread's work) is skipped, and a virtual table
 * temp.samples, which hides the empty main.samples, reads them instead.
 * Ids are dense from 1 in file order, so "id = ?" is an index and rows
 * come in id order; "tid = ?" filters while scanning.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"
#include "engine/db/db_int.h"
#include "engine/db/rtype.h"

struct sm_data {
	struct bt_csample *s;
	size_t n;
	struct bt_cends ends;
};

struct sm_cursor {
	sqlite3_vtab_cursor base;
	size_t i, end;    /* sample ids: s[i - 1] */
	size_t k;         /* in ends: the first at or past s[i - 1] */
	int64_t tid;      /* with has_tid: only this thread's rows */
	int has_tid;
	int durations;    /* only the records with an end time (end_ts IS NOT NULL) */
	int64_t lo, hi;   /* only the records with lo <= ts < hi (SQLite checks them again) */
};

/* Columns, in the order of the samples table (queries/schema.sql). */
enum { SM_ID, SM_TID, SM_TYPE, SM_TS, SM_END_TS, SM_CPU, SM_END_CPU, SM_MSG, SM_NODE,
       SM_OBJS, SM_BYTES, SM_MAJFLT, SM_NVCSW, SM_NIVCSW };

static const char sm_schema[] =
	"CREATE TABLE x(id INTEGER, tid INTEGER, type INTEGER, ts INTEGER, end_ts INTEGER,"
	" cpu_ns INTEGER, end_cpu_ns INTEGER, msg_id INTEGER, node_id INTEGER,"
	" alloc_objects INTEGER, alloc_bytes INTEGER, majflt INTEGER, nvcsw INTEGER,"
	" nivcsw INTEGER)";

static int sm_connect(sqlite3 *conn, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **errmsg)
{
	(void)argc;
	(void)argv;
	(void)errmsg;
	return bt_vtab_connect(conn, sm_schema, aux, out);
}

/* idxNum bits past bt_vtab_best_index's: "end_ts IS NOT NULL", and a
 * bound on ts from below (>=, >) and from above (<, <=), whose values
 * follow the tid's and the id's in argv. */
#define SM_DURATIONS 0x100
#define SM_TS_LO 0x200
#define SM_TS_HI 0x400

static int ts_bound(unsigned char op)
{
	return op == SQLITE_INDEX_CONSTRAINT_GE || op == SQLITE_INDEX_CONSTRAINT_GT ? SM_TS_LO
	       : op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE ? SM_TS_HI : 0;
}

/* A tid scan still visits every row, but yields few. With "end_ts IS
 * NOT NULL" (a thread's duration records: its blocking) or a range of
 * ts (a window) the scan skips the rows outside, most of a thread's,
 * which SQLite would otherwise read and drop row by row (it may check
 * what is yielded again; a bound's it always does). */
static int sm_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int i, n = 0, rc = bt_vtab_best_index(info, SM_ID, SM_TID, 1e6, 1e5, 5e5);

	(void)vt;
	for (i = 0; i < info->nConstraint; i++)
		if (info->aConstraintUsage[i].argvIndex > n)
			n = info->aConstraintUsage[i].argvIndex;
	for (i = 0; i < info->nConstraint && rc == SQLITE_OK; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		int bound = c->iColumn == SM_TS ? ts_bound(c->op) : 0;
		if (!c->usable)
			continue;
		if (c->iColumn == SM_END_TS && c->op == SQLITE_INDEX_CONSTRAINT_ISNOTNULL &&
		    !(info->idxNum & SM_DURATIONS)) {
			info->idxNum |= SM_DURATIONS;
			info->aConstraintUsage[i].omit = 1;
		} else if (bound && !(info->idxNum & bound)) {
			info->idxNum |= bound | (c->op == SQLITE_INDEX_CONSTRAINT_GT || c->op == SQLITE_INDEX_CONSTRAINT_LE
						 ? bound << 3 : 0);   /* strict from below, or inclusive above */
			info->aConstraintUsage[i].argvIndex = ++n;
		}
	}
	return rc;
}

static int sm_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return bt_vtab_cursor(sizeof(struct sm_cursor), out);
}

static const struct sm_data *data_of(const sqlite3_vtab_cursor *cur)
{
	return ((const struct bt_mem_vtab *)cur->pVtab)->data;
}

/* Row i's end time and CPU. */
static const int64_t *end_of(struct sm_cursor *c)
{
	return bt_cends_next(&data_of(&c->base)->ends, c->i - 1, &c->k);
}

/* Skip rows of other threads when filtering by tid; with durations, the
 * rows without an end time, from one with an end to the next. */
static void sm_settle(struct sm_cursor *c)
{
	const struct sm_data *d = data_of(&c->base);

	for (;;) {
		if (c->durations) {
			while (c->k < d->ends.n && (d->ends.at[c->k] < c->i - 1 || !d->ends.v[c->k][0]))
				c->k++;
			c->i = c->k < d->ends.n && d->ends.at[c->k] + 1 < c->end ? d->ends.at[c->k] + 1 : c->end;
		}
		if (c->i >= c->end || !((c->has_tid && d->s[c->i - 1].tid != c->tid) || d->s[c->i - 1].ts < c->lo ||
					d->s[c->i - 1].ts >= c->hi))
			return;
		c->i++;
	}
}

/* A bound's value as the first ts inside (from below) or past (above):
 * v, or v + 1 where add (> from below, <= above). A value that is no
 * integer bounds nothing here: SQLite's own check decides. */
static void bound_at(sqlite3_value *v, int add, int64_t *out)
{
	int64_t x;

	if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER)
		return;
	x = sqlite3_value_int64(v);
	*out = add && x < INT64_MAX ? x + 1 : x;
}

static int sm_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct sm_cursor *c = (struct sm_cursor *)cur;
	const struct sm_data *d = data_of(cur);
	int a = 0;

	(void)idxstr;
	(void)argc;
	c->i = 1;
	c->end = d->n + 1;
	c->has_tid = 0;
	c->durations = (idx & SM_DURATIONS) != 0;
	if (idx & BT_VTAB_BY_TID) {
		sqlite3_value *v = argv[a++];
		if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER)
			c->end = c->i;
		c->tid = sqlite3_value_int64(v);
		c->has_tid = 1;
	}
	if (idx & BT_VTAB_BY_ID)
		bt_vtab_only_id(argv[a++], &c->i, &c->end);
	c->lo = INT64_MIN;
	c->hi = INT64_MAX;
	if (idx & SM_TS_LO)
		bound_at(argv[a++], idx & SM_TS_LO << 3 ? 1 : 0, &c->lo);
	if (idx & SM_TS_HI)
		bound_at(argv[a++], idx & SM_TS_HI << 3 ? 1 : 0, &c->hi);
	c->k = bt_cends_from(&d->ends, c->i - 1);
	sm_settle(c);
	return SQLITE_OK;
}

static int sm_next(sqlite3_vtab_cursor *cur)
{
	struct sm_cursor *c = (struct sm_cursor *)cur;

	c->i++;
	sm_settle(c);
	return SQLITE_OK;
}

static int sm_eof(sqlite3_vtab_cursor *cur)
{
	const struct sm_cursor *c = (const struct sm_cursor *)cur;

	return c->i >= c->end;
}

static int sm_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct sm_cursor *c = (struct sm_cursor *)cur;
	const struct bt_csample *s = &data_of(cur)->s[c->i - 1];
	int64_t v;

	switch (col) {
	case SM_ID: v = (int64_t)c->i; break;
	case SM_TID: v = s->tid; break;
	case SM_TYPE: v = s->type; break;
	case SM_TS: v = s->ts; break;
	case SM_END_TS: v = end_of(c)[0]; break;
	case SM_CPU: v = s->cpu; break;
	case SM_END_CPU: v = end_of(c)[1]; break;
	case SM_MSG: v = s->msg_id; break;
	case SM_NODE: v = s->node_id; break;
	case SM_OBJS: v = s->alloc_objects; break;
	case SM_BYTES: v = s->alloc_bytes; break;
	case SM_MAJFLT: v = s->majflt; break;
	case SM_NVCSW: v = s->nvcsw; break;
	default: v = s->nivcsw; break;
	}
	/* as stored: a point sample has no end time and no end CPU, a waker
	 * record no begin CPU */
	if (((col == SM_END_TS || col == SM_END_CPU) && !v) ||
	    (col == SM_CPU && bt_rtype_begin_cpu_unknown(s->type, s->cpu, end_of(c)[0])))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
	return SQLITE_OK;
}

static int sm_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((const struct sm_cursor *)cur)->i;   /* ids are dense from 1 */
	return SQLITE_OK;
}

static const sqlite3_module sm_module = {
	.iVersion = 0,
	.xCreate = sm_connect,   /* temp.samples; a view would not be flattened into LEFT JOINs */
	.xConnect = sm_connect,
	.xBestIndex = sm_best_index,
	.xDisconnect = bt_vtab_disconnect,
	.xDestroy = bt_vtab_disconnect,
	.xOpen = sm_open,
	.xClose = bt_vtab_close,
	.xFilter = sm_filter,
	.xNext = sm_next,
	.xEof = sm_eof,
	.xColumn = sm_column,
	.xRowid = sm_rowid,
	.xUpdate = bt_vtab_update_readonly,
};

static void free_data(void *p)
{
	struct sm_data *d = p;

	free(d->s);
	bt_cends_release(&d->ends);
	free(d);
}

void bt_cends_add(struct bt_cends *e, size_t i, int64_t end_ts, int64_t end_cpu)
{
	if (!end_ts && !end_cpu)
		return;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 256;
		e->at = bt_xrealloc(e->at, e->cap * sizeof *e->at);
		e->v = bt_xrealloc(e->v, e->cap * sizeof *e->v);
	}
	e->at[e->n] = i;
	e->v[e->n][0] = end_ts;
	e->v[e->n++][1] = end_cpu;
}

void bt_cends_release(struct bt_cends *e)
{
	free(e->at);
	free(e->v);
	memset(e, 0, sizeof *e);
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

size_t bt_cends_from(const struct bt_cends *e, size_t i)
{
	return bt_first_not_before(e->at, e->n, sizeof *e->at, &i, by_index);
}

int bt_db_attach_samples(struct bt_db *db, struct bt_csample *s, size_t n, struct bt_cends *ends,
			 struct bt_err *err)
{
	struct sm_data *d = bt_xcalloc(1, sizeof *d);

	d->s = s;
	d->n = n;
	d->ends = *ends;
	memset(ends, 0, sizeof *ends);
	if (bt_db_bulk_idle(db, err)) {
		free_data(d);
		return err->code;
	}
	if (sqlite3_create_module_v2(db->conn, "bt_samples_mem", &sm_module, d, free_data) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot register the samples: %s", sqlite3_errmsg(db->conn));
	return bt_db_run_sql(db, "CREATE VIRTUAL TABLE temp.samples USING bt_samples_mem", err);
}
