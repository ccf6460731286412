/*
 * Bulk loading of samples, nodes, slices, scheduler states and sleep
 * edges. Rows are collected in chunks; a
 * writer thread inserts a full chunk (INSERT ... SELECT from a virtual
 * table over the chunk) while the importer decodes the next, so decoding
 * and SQLite overlap on two cores. The handoff mutex is also what keeps
 * the connection used by one thread at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"
#include "engine/db/db_int.h"
#include "engine/db/rtype.h"

void bt_db_bulk_init(struct bt_db *db)
{
	struct bt_bulk *b = &db->bulk;

	memset(b, 0, sizeof *b);
	b->queued = -1;
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
}

/*
 * Ids are left to SQLite, which appends at max(rowid) + 1 without the
 * b-tree search an explicit rowid costs; check_ids() verifies, once per
 * chunk, that the ids it chose are the caller's (dense, increasing from 1).
 */
static int check_ids(struct bt_db *db, const char *table, int64_t want, struct bt_err *err)
{
	if (sqlite3_last_insert_rowid(db->conn) == want)
		return BT_OK;
	return bt_err_set(err, BT_ESQL, "%s id %lld stored as %lld: ids must be dense and increasing",
			  table, (long long)want, (long long)sqlite3_last_insert_rowid(db->conn));
}

/*
 * The bt_bulk virtual table module: a read-only scan of the chunk the
 * writer is inserting, so a whole chunk goes in with one INSERT ... SELECT
 * and no per-value bind calls (about a fifth fewer instructions per row).
 */
enum { BULK_SAMPLES, BULK_NODES, BULK_SLICES, BULK_STATES, BULK_EDGES };

struct bulk_vtab {
	sqlite3_vtab base;
	struct bt_db *db;
	int kind;
};

struct bulk_cursor {
	sqlite3_vtab_cursor base;
	size_t i;
};

static const char *const bulk_decl[] = {
	"CREATE TABLE x(id, tid, type, ts, end_ts, cpu_ns, end_cpu_ns, msg_id, node_id,"
	" alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw)",
	"CREATE TABLE x(id, parent_id, frame_id, depth)",
	"CREATE TABLE x(id, tid, depth, parent_id, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur,"
	" block_dur, msg_id, sample_count, alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw, type,"
	" wakeup_tid, gap_dur, gap_cpu_dur, idle)",
	"CREATE TABLE x(tid, ts, dur, state, cpu, waker_tid, io_wait, blocked_function)",
	"CREATE TABLE x(waiter_tid, kind, ts, dur, waker_tid, waker_ts)",
};

static const char *const bulk_kinds[] = { "samples", "nodes", "slices", "states", "edges" };

static int bulk_connect(sqlite3 *conn, void *aux, int argc, const char *const *argv,
			sqlite3_vtab **out, char **errmsg)
{
	struct bulk_vtab *v;
	int kind = BULK_SAMPLES, rc;

	while (argc > 3 && kind < BULK_EDGES && strcmp(argv[3], bulk_kinds[kind]))
		kind++;
	if (argc <= 3 || strcmp(argv[3], bulk_kinds[kind]))
		kind = BULK_SAMPLES;
	rc = sqlite3_declare_vtab(conn, bulk_decl[kind]);

	(void)errmsg;
	if (rc != SQLITE_OK)
		return rc;
	v = sqlite3_malloc(sizeof *v);
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->db = aux;
	v->kind = kind;
	*out = &v->base;
	return SQLITE_OK;
}

static int bulk_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	info->estimatedCost = BT_DB_CHUNK;
	return SQLITE_OK;
}

static int bulk_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return bt_vtab_cursor(sizeof(struct bulk_cursor), out);
}

static int bulk_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		       sqlite3_value **argv)
{
	(void)idx;
	(void)idxstr;
	(void)argc;
	(void)argv;
	((struct bulk_cursor *)cur)->i = 0;
	return SQLITE_OK;
}

static int bulk_next(sqlite3_vtab_cursor *cur)
{
	struct bulk_vtab *v = (struct bulk_vtab *)cur->pVtab;
	size_t i = ++((struct bulk_cursor *)cur)->i;
	const struct bt_chunk *c = v->db->bulk.writing;

	if (v->kind == BULK_SLICES && c)
		bt_slice_fetch_ahead(c->slice, v->db->bulk.by_id, i, c->nslice);
	return SQLITE_OK;
}

static int bulk_eof(sqlite3_vtab_cursor *cur)
{
	struct bulk_vtab *v = (struct bulk_vtab *)cur->pVtab;
	const struct bt_chunk *c = v->db->bulk.writing;
	size_t n = !c ? 0 : v->kind == BULK_NODES ? c->nnode : v->kind == BULK_SLICES ? c->nslice
		   : v->kind == BULK_STATES ? c->nstate : v->kind == BULK_EDGES ? c->nedge : c->nsample;

	return ((struct bulk_cursor *)cur)->i >= n;
}

/* Column col of a row laid out as int64 values with a NULL bitmap. */
static void result(sqlite3_context *ctx, const int64_t *v, uint32_t nulls, int col)
{
	if (nulls >> col & 1)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v[col]);
}

/* A text of the chunk by its offset + 1 (chunk_text), 0: NULL. */
static void text_result(sqlite3_context *ctx, const struct bt_chunk *c, size_t at)
{
	if (at)
		sqlite3_result_text(ctx, c->text + at - 1, -1, SQLITE_STATIC);
	else
		sqlite3_result_null(ctx);
}

static int bulk_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct bulk_vtab *v = (struct bulk_vtab *)cur->pVtab;
	size_t i = ((struct bulk_cursor *)cur)->i;
	const struct bt_chunk *c = v->db->bulk.writing;

	if (v->kind == BULK_SAMPLES) {
		result(ctx, c->sample[i].col, c->sample[i].nulls, col);
	} else if (v->kind == BULK_STATES && col == 7) {   /* the blocked function */
		text_result(ctx, c, (size_t)c->state[i][7]);
	} else if (v->kind == BULK_STATES || v->kind == BULK_EDGES) {
		int64_t x = v->kind == BULK_STATES ? c->state[i][col] : c->edge[i][col];
		if (x == -1 && col >= 4)   /* cpu, waker, io_wait; an edge's waker and its time */
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, x);
	} else if (v->kind == BULK_SLICES) {
		const struct bt_slice_row *r = &c->slice[v->db->bulk.by_id[i].at];
		result(ctx, r->col, r->nulls, col);
	} else if (col == 0 || (col == 1 && !c->node[i][1])) {
		sqlite3_result_null(ctx);
	} else {
		sqlite3_result_int64(ctx, c->node[i][col]);
	}
	return SQLITE_OK;
}

static int bulk_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((struct bulk_cursor *)cur)->i;
	return SQLITE_OK;
}

static const sqlite3_module bulk_module = {
	.iVersion = 0,
	.xCreate = bulk_connect,
	.xConnect = bulk_connect,
	.xBestIndex = bulk_best_index,
	.xDisconnect = bt_vtab_disconnect,
	.xDestroy = bt_vtab_disconnect,
	.xOpen = bulk_open,
	.xClose = bt_vtab_close,
	.xFilter = bulk_filter,
	.xNext = bulk_next,
	.xEof = bulk_eof,
	.xColumn = bulk_column,
	.xRowid = bulk_rowid,
};

int bt_db_bulk_register(struct bt_db *db, struct bt_err *err)
{
	if (sqlite3_create_module(db->conn, "bt_bulk", &bulk_module, db) != SQLITE_OK ||
	    sqlite3_exec(db->conn, bt_sql_text[BT_SQL_BULK_TABLES], NULL, NULL, NULL) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot set up bulk loading: %s", sqlite3_errmsg(db->conn));
	return BT_OK;
}

/* A radix pass's key: a byte of an id's distance from the chunk's least. */
struct id_byte { int64_t lo; int shift; };

static size_t id_byte(const void *rec, const void *ctx)
{
	const struct id_byte *k = ctx;

	return ((uint64_t)((const struct bt_id_at *)rec)->id - (uint64_t)k->lo) >> k->shift & 255;
}

/* The chunk's slices by id. They come as they end, their ids given as
 * they began (a parent's after its children's): inserted in id order they
 * mostly append to the table instead of each seeking into it, and fill
 * its pages (a 1M-record import: 5 % less CPU, 5 % smaller). A radix sort
 * of their ids, a byte a pass, as many as their spread needs (ids are
 * unique: the order is the ids'). */
static void slices_by_id(struct bt_bulk *b, const struct bt_chunk *c)
{
	struct bt_id_at *v, *tmp, *t;
	struct id_byte k = { INT64_MAX, 0 };
	uint64_t spread = 0;   /* the keys: id - lo, exact in unsigned arithmetic */
	size_t i, n = c->nslice;

	if (!b->by_id)
		b->by_id = bt_xmalloc(2 * BT_DB_CHUNK * sizeof *b->by_id);
	v = b->by_id;
	tmp = b->by_id + BT_DB_CHUNK;
	for (i = 0; i < n; i++) {
		v[i] = (struct bt_id_at){ c->slice[i].col[0], (uint32_t)i };
		if (v[i].id < k.lo)
			k.lo = v[i].id;
	}
	for (i = 0; i < n; i++)
		spread |= (uint64_t)v[i].id - (uint64_t)k.lo;
	for (k.shift = 0; k.shift < 64 && spread >> k.shift; k.shift += 8) {
		bt_sort_by_key(tmp, v, n, sizeof *v, 256, id_byte, &k);
		t = v, v = tmp, tmp = t;
	}
	if (v != b->by_id)
		memcpy(b->by_id, v, n * sizeof *v);
}

/* Insert one chunk; runs on the writer thread. */
static int write_chunk(struct bt_db *db, struct bt_chunk *c, struct bt_err *err)
{
	int rc = BT_OK;

	db->bulk.writing = c;
	if (c->nnode) {
		rc = bt_db_step_done(db, BT_SQL_INSERT_NODES_BULK, err);
		if (!rc)
			rc = check_ids(db, "node", c->node[c->nnode - 1][0], err);
	}
	if (!rc && c->nsample) {
		rc = bt_db_step_done(db, BT_SQL_INSERT_SAMPLES_BULK, err);
		if (!rc)
			rc = check_ids(db, "sample", c->sample_id, err);
	}
	if (!rc && c->nslice) {
		slices_by_id(&db->bulk, c);
		rc = db->pages.on ? bt_pages_chunk(&db->pages, c->slice, db->bulk.by_id, c->nslice, err)
				  : bt_db_step_done(db, BT_SQL_INSERT_SLICES_BULK, err);
	}
	if (!rc && c->nstate)
		rc = bt_db_step_done(db, BT_SQL_INSERT_THREAD_STATES_BULK, err);
	if (!rc && c->nedge)
		rc = bt_db_step_done(db, BT_SQL_INSERT_SLEEP_EDGES_BULK, err);
	db->bulk.writing = NULL;
	return rc;
}

/* The writer: insert the queued chunk, until told to quit. */
static void *writer(void *arg)
{
	struct bt_db *db = arg;
	struct bt_bulk *b = &db->bulk;
	struct bt_err err = BT_ERR_INIT;

	pthread_mutex_lock(&b->mu);
	for (;;) {
		struct bt_chunk *c;
		while (b->queued < 0 && !b->quit)
			pthread_cond_wait(&b->cv, &b->mu);
		if (b->queued < 0)
			break;
		b->inhand = b->queued;
		b->queued = -1;
		b->busy = 1;
		pthread_cond_broadcast(&b->cv);   /* the queue has room again */
		c = &b->chunk[b->inhand];
		pthread_mutex_unlock(&b->mu);
		if (!err.code)
			write_chunk(db, c, &err);
		c->nsample = c->nnode = c->nslice = c->nstate = c->nedge = c->ntext = 0;
		pthread_mutex_lock(&b->mu);
		if (err.code && !b->err.code)
			b->err = err;
		b->busy = 0;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

/* With the mutex held: wait until nothing is queued (and, if all, nothing
 * is in hand); pass on the writer's error. */
static int wait_writer(struct bt_bulk *b, int all, struct bt_err *err)
{
	while (b->queued >= 0 || (all && b->busy))
		pthread_cond_wait(&b->cv, &b->mu);
	if (b->err.code)
		return bt_err_set(err, b->err.code, "%s", b->err.msg);
	return BT_OK;
}

int bt_db_bulk_idle(struct bt_db *db, struct bt_err *err)
{
	struct bt_bulk *b = &db->bulk;
	int rc;

	if (!b->started)
		return BT_OK;
	pthread_mutex_lock(&b->mu);
	rc = wait_writer(b, 1, err);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

/* Queue the filled chunk for the writer and start filling a free one. */
static int hand_off(struct bt_db *db, struct bt_err *err)
{
	struct bt_bulk *b = &db->bulk;
	int rc, i;

	if (!b->started) {
		if (pthread_create(&b->thread, NULL, writer, db) != 0)
			return bt_err_set(err, BT_EIO, "cannot start the database writer thread");
		b->started = 1;
	}
	pthread_mutex_lock(&b->mu);
	rc = wait_writer(b, 0, err);
	if (!rc) {
		b->queued = b->filling;
		for (i = 0; i < 3; i++)
			if (i != b->queued && !(b->busy && i == b->inhand))
				break;
		b->filling = i;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return rc;
}

static struct bt_chunk *filling(struct bt_db *db)
{
	struct bt_bulk *b = &db->bulk;
	struct bt_chunk *c = &b->chunk[b->filling];

	if (!c->sample) {
		c->sample = bt_xmalloc(BT_DB_CHUNK * sizeof *c->sample);
		c->node = bt_xmalloc(BT_DB_CHUNK * sizeof *c->node);
		c->slice = bt_xmalloc(BT_DB_CHUNK * sizeof *c->slice);
		c->state = bt_xmalloc(BT_DB_CHUNK * sizeof *c->state);
		c->edge = bt_xmalloc(BT_DB_CHUNK * sizeof *c->edge);
	}
	return c;
}

/* NULL columns: the id (left to SQLite), a waker record's begin CPU, and
 * end time and end CPU of point samples. */
#define NULL_ID (1u << 0)
#define NULL_END_TS (1u << 4)
#define NULL_CPU (1u << 5)
#define NULL_END_CPU (1u << 6)

void bt_db_observe(struct bt_db *db, const struct bt_observer *o)
{
	static const struct bt_observer none;

	db->observe = o ? *o : none;
}

void bt_db_rows_in_memory(struct bt_db *db, int on)
{
	db->rows_mem = on;
}

int bt_db_rows_kept(const struct bt_db *db)
{
	return !db->rows_mem;
}

int bt_db_insert_sample(struct bt_db *db, const struct bt_sample *s, struct bt_err *err)
{
	struct bt_chunk *c;
	struct bt_sample_row *r;
	int64_t *v;

	if (db->observe.sample)
		db->observe.sample(db->observe.ctx, s);
	if (db->rows_mem)
		return BT_OK;
	c = filling(db);
	r = &c->sample[c->nsample++];
	v = r->col;
	v[1] = s->tid;
	v[2] = s->type;
	v[3] = s->ts;
	v[4] = s->end_ts;
	v[5] = s->cpu_ns;
	v[6] = s->end_cpu_ns;
	v[7] = s->msg_id;
	v[8] = s->node_id;
	v[9] = s->alloc_objects;
	v[10] = s->alloc_bytes;
	v[11] = s->majflt;
	v[12] = s->nvcsw;
	v[13] = s->nivcsw;
	r->nulls = NULL_ID | (s->end_ts ? 0 : NULL_END_TS) | (s->end_cpu_ns ? 0 : NULL_END_CPU) |
		   (bt_rtype_begin_cpu_unknown(s->type, s->cpu_ns, s->end_ts) ? NULL_CPU : 0);
	c->sample_id = s->id;
	return c->nsample == BT_DB_CHUNK ? hand_off(db, err) : BT_OK;
}

int bt_db_insert_node(struct bt_db *db, int64_t id, int64_t parent_id, int64_t frame_id,
		      int64_t depth, struct bt_err *err)
{
	struct bt_chunk *c;
	int64_t *v;

	if (db->observe.node)
		db->observe.node(db->observe.ctx, id, parent_id, frame_id);
	if (db->rows_mem)
		return BT_OK;
	c = filling(db);
	v = c->node[c->nnode++];
	v[0] = id;
	v[1] = parent_id;
	v[2] = frame_id;
	v[3] = depth;
	return c->nnode == BT_DB_CHUNK ? hand_off(db, err) : BT_OK;
}

/* NULL columns of a slice: an outermost slice's parent, an unknown type,
 * a wait nobody woke and CPU time the trace does not give. */
int bt_db_insert_slice(struct bt_db *db, const struct bt_slice *s, struct bt_err *err)
{
	struct bt_chunk *c = filling(db);
	struct bt_slice_row *r = &c->slice[c->nslice++];
	int64_t *v = r->col;

	v[0] = s->id;
	v[1] = s->tid;
	v[2] = s->depth;
	v[3] = s->parent_id;
	v[4] = s->frame_id;
	v[5] = s->ts;
	v[6] = s->dur;
	v[7] = s->cpu_dur;
	v[8] = s->self_dur;
	v[9] = s->self_cpu_dur;
	v[10] = s->block_dur;
	v[11] = s->msg_id;
	v[12] = s->sample_count;
	v[13] = s->alloc_objects;
	v[14] = s->alloc_bytes;
	v[15] = s->majflt;
	v[16] = s->nvcsw;
	v[17] = s->nivcsw;
	v[18] = s->type;
	v[19] = s->wakeup_tid;
	v[20] = s->gap_dur;
	v[21] = s->gap_cpu_dur;
	v[22] = s->idle;
	r->nulls = (s->parent_id ? 0 : 1u << 3) | (s->type >= 0 ? 0 : 1u << 18) |
		   (s->wakeup_tid ? 0 : 1u << 19) | (s->cpu_unknown ? 1u << 7 | 1u << 9 : 0);
	return c->nslice == BT_DB_CHUNK ? hand_off(db, err) : BT_OK;
}

/* A NUL-terminated copy of s in the chunk's text: its offset + 1. */
static size_t chunk_text(struct bt_chunk *c, const char *s)
{
	size_t n = strlen(s) + 1, at = c->ntext + 1;

	BT_GROW(c->text, c->ntext + n, c->textcap);
	memcpy(c->text + c->ntext, s, n);
	c->ntext += n;
	return at;
}

int bt_db_insert_thread_state(struct bt_db *db, const int64_t v[7], const char *fn, struct bt_err *err)
{
	struct bt_chunk *c = filling(db);
	int64_t *r = c->state[c->nstate++];

	memcpy(r, v, 7 * sizeof *v);
	r[7] = fn ? (int64_t)chunk_text(c, fn) : 0;
	return c->nstate == BT_DB_CHUNK ? hand_off(db, err) : BT_OK;
}

int bt_db_insert_sleep_edge(struct bt_db *db, const int64_t v[BT_DB_EDGE_COLS], struct bt_err *err)
{
	struct bt_chunk *c = filling(db);

	memcpy(c->edge[c->nedge++], v, BT_DB_EDGE_COLS * sizeof *v);
	return c->nedge == BT_DB_CHUNK ? hand_off(db, err) : BT_OK;
}

int bt_db_flush(struct bt_db *db, struct bt_err *err)
{
	struct bt_chunk *c = &db->bulk.chunk[db->bulk.filling];

	if ((c->nsample || c->nnode || c->nslice || c->nstate || c->nedge) && hand_off(db, err))
		return err->code;
	return bt_db_bulk_idle(db, err);
}

void bt_db_bulk_stop(struct bt_db *db)
{
	struct bt_bulk *b = &db->bulk;
	int i;

	if (b->started) {
		pthread_mutex_lock(&b->mu);
		b->quit = 1;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		pthread_join(b->thread, NULL);
		b->started = b->quit = 0;
	}
	b->queued = -1;
	b->filling = 0;
	free(b->by_id);
	b->by_id = NULL;
	for (i = 0; i < 3; i++) {
		free(b->chunk[i].sample);
		free(b->chunk[i].node);
		free(b->chunk[i].slice);
		free(b->chunk[i].state);
		free(b->chunk[i].edge);
		free(b->chunk[i].text);
		memset(&b->chunk[i], 0, sizeof b->chunk[i]);
	}
}
