/*
 * Rolling the profile up (see profile.h): inclusive values by summing
 * each path into its parent, newest first (a child is always newer);
 * per-method values with nested activations of a method counted once (a
 * path adds its inclusive values to its frame's unless an ancestor has
 * the same frame); blocking per method and kind; callers; messages; each
 * thread's breakdown into running, blocked, idle and unexplained time.
 * Idle time (profile.h) is in no wall value: it is a value of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/profile/profile_int.h"

/* A row of methods (or callers): self and inclusive values. */
struct mrow {
	uint32_t thread, frame, caller;
	int64_t self[NV], incl[NV];
};

struct blockrow {
	uint32_t thread, frame;
	int kind;
	int64_t self_count, self, incl_count, incl;
};

struct rows {
	struct bt_map64 index;
	struct mrow *m;
	size_t n, cap;
};

static struct mrow *row(struct rows *r, uint64_t key, uint32_t thread, uint32_t frame, uint32_t caller)
{
	uint32_t i = bt_map64_get(&r->index, key);

	if (i)
		return &r->m[i - 1];
	BT_GROW(r->m, r->n + 1, r->cap);
	memset(&r->m[r->n], 0, sizeof r->m[r->n]);
	r->m[r->n].thread = thread;
	r->m[r->n].frame = frame;
	r->m[r->n].caller = caller;
	bt_map64_put(&r->index, key, (uint32_t)++r->n);
	return &r->m[r->n - 1];
}

static void rollup(struct bt_profile *p)
{
	uint32_t i;
	int k;

	p->incl = bt_xmalloc((size_t)p->npaths * sizeof *p->incl);
	for (i = 0; i < p->npaths; i++) {
		memcpy(p->incl[i], p->paths[i].self, sizeof p->incl[i]);
		for (k = 0; k < NV; k++)   /* a wide self value gets a wide slot of its own */
			if (p->incl[i][k] >= BT_NARROW_WIDE)
				p->incl[i][k] = bt_wide_add(&p->wide, pv(p, p->paths[i].self[k]));
	}
	for (i = p->npaths - 1; i > 1; i--)
		if (p->paths[i].parent)
			for (k = 0; k < NV; k++)
				if (p->incl[i][k])   /* slot 0: the value 0, most counters' */
					pv_add(p, &p->incl[p->paths[i].parent][k], pv(p, p->incl[i][k]));
}

static int store_rows(struct bt_db *db, const struct bt_profile *p, const struct rows *r, int callers,
		      struct bt_err *err);

/* A thread's paths are contiguous (threads are reconstructed one after
 * another), so the row indexes are keyed within a thread, and its rows
 * are stored when the next thread begins: the rows in memory are one
 * thread's (some 280 bytes per method the thread ran), not the trace's. */
static int new_thread(struct bt_db *db, const struct bt_profile *p, struct rows *meth, struct rows *call,
		      struct bt_err *err)
{
	int rc = store_rows(db, p, meth, 0, err);

	if (!rc)
		rc = store_rows(db, p, call, 1, err);
	meth->n = call->n = 0;
	bt_map64_release(&meth->index);
	bt_map64_release(&call->index);
	bt_map64_init(&meth->index, 256);
	bt_map64_init(&call->index, 256);
	return rc;
}

static int methods_and_callers(struct bt_db *db, const struct bt_profile *p, struct rows *meth,
			       struct rows *call, struct bt_err *err)
{
	uint32_t i;
	int k;

	for (i = 1; i < p->npaths; i++) {
		const struct path *x = &p->paths[i];
		uint32_t caller = x->depth > 0 ? p->paths[x->parent].frame : 0;
		struct mrow *m, *c;
		if (x->depth < 0) {
			if (new_thread(db, p, meth, call, err))
				return err->code;
			continue;
		}
		m = row(meth, x->frame, x->thread, x->frame, 0);
		c = row(call, (uint64_t)caller << 32 | x->frame, x->thread, x->frame, caller);
		for (k = 0; k < NV; k++) {
			int64_t v = pv(p, x->self[k]);
			m->self[k] = bt_sat_add(m->self[k], v);
			c->self[k] = bt_sat_add(c->self[k], v);
		}
		if (!x->nested)
			for (k = 0; k < NV; k++)
				m->incl[k] = bt_sat_add(m->incl[k], pv(p, p->incl[i][k]));
	}
	return new_thread(db, p, meth, call, err);
}

/* The thread (by index) did not say its CPU time: its CPU values are NULL. */
static int nocpu(const struct bt_profile *p, uint32_t thread)
{
	return p->paths[p->roots[thread]].nocpu;
}

static int store_rows(struct bt_db *db, const struct bt_profile *p, const struct rows *r, int callers,
		      struct bt_err *err)
{
	int64_t v[3 + 2 * NV];
	size_t i;
	int k, n;
	/* self_cpu_ns (and incl_cpu_ns) by parameter: after tid, frame_id and caller */
	const uint64_t cpu_cols = callers ? 1u << (3 + V_CPU) : 3u << (2 + 2 * V_CPU);

	for (i = 0; i < r->n; i++) {
		const struct mrow *m = &r->m[i];
		n = 0;
		v[n++] = p->tids[m->thread];
		v[n++] = m->frame;
		if (callers)
			v[n++] = m->caller;
		for (k = 0; k < NV; k++) {
			v[n++] = m->self[k];
			if (!callers)
				v[n++] = m->incl[k];
		}
		if (bt_db_exec_ints_nulls(db, callers ? BT_SQL_INSERT_CALLER : BT_SQL_INSERT_METHOD, v, n,
					  nocpu(p, m->thread) ? cpu_cols : 0, err))
			return err->code;
	}
	return BT_OK;
}

/* Blocked time per thread, method and kind: self to the path's frame,
 * inclusive once to every distinct frame up the path. */
static int store_blocking(struct bt_db *db, const struct bt_profile *p, struct bt_err *err)
{
	struct bt_map64 index;
	struct blockrow *b = NULL;
	size_t nb = 0, bcap = 0, i, nframes = 1;
	uint32_t *stamp, a;
	int rc = BT_OK;

	for (i = 1; i < p->npaths; i++)
		if (p->paths[i].frame >= nframes)
			nframes = (size_t)p->paths[i].frame + 1;
	stamp = bt_xcalloc(nframes, sizeof *stamp);
	bt_map64_init(&index, 64);
	for (i = 0; i < p->nblocks; i++) {
		const struct block_event *e = &p->blocks[i];
		if (i && p->paths[e->path].thread != p->paths[e[-1].path].thread) {
			bt_map64_release(&index);   /* keys are per thread, like methods' */
			bt_map64_init(&index, 64);
		}
		for (a = e->path; p->paths[a].depth >= 0; a = p->paths[a].parent) {
			const struct path *x = &p->paths[a];
			uint64_t key = (uint64_t)e->kind << 32 | x->frame;
			uint32_t j;
			if (stamp[x->frame] == i + 1)
				continue;
			stamp[x->frame] = (uint32_t)i + 1;
			if (!(j = bt_map64_get(&index, key))) {
				BT_GROW(b, nb + 1, bcap);
				memset(&b[nb], 0, sizeof b[nb]);
				b[nb].thread = x->thread;
				b[nb].frame = x->frame;
				b[nb].kind = e->kind;
				bt_map64_put(&index, key, j = (uint32_t)++nb);
			}
			b[j - 1].incl_count++;
			b[j - 1].incl += e->dur;
			if (a == e->path) {
				b[j - 1].self_count++;
				b[j - 1].self += e->dur;
			}
		}
	}
	for (i = 0; i < nb && !rc; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_METHOD_BLOCKING, err, "iitiiii", p->tids[b[i].thread],
				(int64_t)b[i].frame, bt_block_kind_name[b[i].kind], b[i].self_count, b[i].self,
				b[i].incl_count, b[i].incl);
	free(stamp);
	free(b);
	bt_map64_release(&index);
	return rc;
}

/*
 * Each thread's span (from its first record to its last) split into
 * running, blocked, idle and the unexplained rest, in that order of
 * precedence so that the parts add up: blocking records and idle slices
 * can hold running time (a lock spun on, a poll that handled an event).
 * Blocked time by kind is the records' own.
 */
static int store_threads(struct bt_db *db, const struct bt_profile *p, struct bt_err *err)
{
	int64_t (*kinds)[BT_BLOCK__COUNT][2] = bt_xcalloc((size_t)p->nthreads + 1, sizeof *kinds);
	uint32_t t;
	size_t b;
	int k, rc = BT_OK;

	for (b = 0; b < p->nblocks; b++) {
		int64_t *c = kinds[p->paths[p->blocks[b].path].thread][p->blocks[b].kind];
		c[0]++;
		c[1] = bt_sat_add(c[1], p->blocks[b].dur);
	}
	for (t = 0; t < p->nthreads && !rc; t++) {
		int64_t wall = p->span[t][0], cpu = p->span[t][1], blocked = 0, idle = 0, rest;
		for (k = 0; k < BT_BLOCK__COUNT && !rc; k++)
			if (kinds[t][k][0])
				rc = bt_db_exec(db, BT_SQL_INSERT_THREAD_BLOCKING, err, "itii", p->tids[t],
						bt_block_kind_name[k], kinds[t][k][0], kinds[t][k][1]);
		if (!rc && p->span[t][2])
			rc = bt_db_exec(db, BT_SQL_UPDATE_THREAD_SLICES, err, "ii", p->tids[t], p->span[t][2]);
		if (wall < 0 || rc)
			continue;   /* no span: slices that came with the trace */
		blocked = pv(p, p->incl[p->roots[t]][V_BLOCK]);   /* the root's roll-up: all its paths' */
		idle = pv(p, p->incl[p->roots[t]][V_IDLE]);
		cpu = cpu < 0 ? 0 : cpu > wall ? wall : cpu;
		rest = wall - cpu;
		blocked = blocked < 0 ? 0 : blocked > rest ? rest : blocked;
		rest -= blocked;
		idle = idle < 0 ? 0 : idle > rest ? rest : idle;
		rc = bt_db_exec(db, BT_SQL_UPDATE_THREAD_TIMES, err, "iiiiii", p->tids[t], wall, cpu, blocked, idle,
				rest - idle);
	}
	free(kinds);
	return rc;
}

static int store_messages(struct bt_db *db, const struct bt_profile *p, struct bt_err *err)
{
	uint32_t t = 0;
	size_t i;
	int j;

	for (i = 0; i < p->nkept; i++) {
		const struct kept_msg *k = &p->kept[i];
		if (t >= p->nthreads || p->tids[t] != k->tid)   /* kept thread by thread, in order */
			for (t = 0; t < p->nthreads && p->tids[t] != k->tid; t++)
				;
		for (j = 0; j < k->n; j++) {
			const struct msg_method *m = &k->m[j];
			int64_t v[8] = { k->tid, k->msg_id, j + 1, m->frame, m->self_ns, m->self_cpu,
					 m->incl_ns, m->incl_cpu };
			if (bt_db_exec_ints_nulls(db, BT_SQL_INSERT_MESSAGE_METHOD, v, 8,
						  t < p->nthreads && nocpu(p, t) ? 1u << 5 | 1u << 7 : 0, err))
				return err->code;
		}
	}
	return BT_OK;
}

#define WINDOW_FIRST 5   /* the smallest window: 2^5 messages */
#define WINDOWS 3        /* the largest ones kept: each half the one before */

static int by_tid_frame_bucket(const void *a, const void *b)
{
	const struct win_method *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return (x->bucket > y->bucket) - (x->bucket < y->bucket);
}

/* Each method's self time in its thread's first 2^k messages, for the
 * WINDOWS largest k the thread has (from WINDOW_FIRST): the sums of its
 * buckets up to k. */
static int store_windows(struct bt_db *db, struct bt_profile *p, struct bt_err *err)
{
	struct bt_map64 thread;   /* tid -> index + 1 */
	size_t i = 0, j;
	uint32_t t;
	int rc = BT_OK;

	bt_map64_init(&thread, p->nthreads + 1);
	for (t = 0; t < p->nthreads; t++)
		bt_map64_put(&thread, (uint64_t)p->tids[t], t + 1);
	if (p->nwin)   /* none: win may be NULL, which qsort may not be given */
		qsort(p->win, p->nwin, sizeof *p->win, by_tid_frame_bucket);
	for (; i < p->nwin && !rc; i = j) {
		const struct win_method *w = &p->win[i];
		uint32_t ti = bt_map64_get(&thread, (uint64_t)w->tid), top = 0, k;
		int64_t n = ti ? p->nmsgs[ti - 1] : 0, ns = 0, cpu = 0;
		size_t b = i;
		for (j = i; j < p->nwin && p->win[j].tid == w->tid && p->win[j].frame == w->frame; j++)
			;
		while (top < 62 && n >> (top + 1))
			top++;   /* 2^top <= n: the largest window */
		for (k = 0; k <= top && !rc; k++) {
			for (; b < j && p->win[b].bucket <= k; b++) {
				ns = bt_sat_add(ns, p->win[b].self_ns);
				cpu = bt_sat_add(cpu, p->win[b].self_cpu);
			}
			if (k >= WINDOW_FIRST && k + WINDOWS > top && (ns || cpu)) {
				int64_t v[5] = { w->tid, (int64_t)1 << k, w->frame, ns, cpu };
				rc = bt_db_exec_ints_nulls(db, BT_SQL_INSERT_WINDOW_METHOD, v, 5, nocpu(p, ti - 1) ? 1u << 4 : 0,
							   err);
			}
		}
	}
	bt_map64_release(&thread);
	return rc;
}

/* meta cpu_unknown: "all" when no thread with slices said its CPU time,
 * "some" when some did not; absent when every one did. */
static int store_cpu_time(struct bt_db *db, const struct bt_profile *p, struct bt_err *err)
{
	uint32_t t, with = 0, without = 0;

	for (t = 0; t < p->nthreads; t++) {
		uint32_t end = t + 1 < p->nthreads ? p->roots[t + 1] : p->npaths;
		if (end - p->roots[t] < 2)
			continue;   /* no slices */
		with++;
		without += nocpu(p, t) != 0;
	}
	if (!without)
		return BT_OK;
	return bt_db_set_meta_text(db, "cpu_unknown", without == with ? "all" : "some", err);
}

/* meta no_waits, no_idle (queries/set_unknowns.sql) when no thread's span
 * is the engine's: every slice came with the trace, which may hold nothing
 * of waits or idle time (a dump always does: its blocking records and
 * messages). */
static int store_unknowns(struct bt_db *db, const struct bt_profile *p, struct bt_err *err)
{
	uint32_t t;

	for (t = 0; t < p->nthreads; t++)
		if (p->span[t][0] >= 0)
			return BT_OK;
	return bt_db_script(db, BT_SQL_SET_UNKNOWNS, err);
}

/* The call tree as a table in memory (queries/schema.sql's calltree). */
static const char calltree_schema[] =
	"CREATE TABLE x(id INTEGER, tid INTEGER, parent_id INTEGER, frame_id INTEGER, depth INTEGER,"
	" self_ns INTEGER, incl_ns INTEGER, self_cpu_ns INTEGER, incl_cpu_ns INTEGER,"
	" self_blocked_ns INTEGER, incl_blocked_ns INTEGER, self_alloc_bytes INTEGER,"
	" incl_alloc_bytes INTEGER, self_alloc_objects INTEGER, incl_alloc_objects INTEGER,"
	" self_majflt INTEGER, incl_majflt INTEGER, self_nvcsw INTEGER, incl_nvcsw INTEGER,"
	" self_nivcsw INTEGER, incl_nivcsw INTEGER, self_idle_ns INTEGER, incl_idle_ns INTEGER,"
	" idle INTEGER)";

/* The paths as the calltree's rows, in place: a row is shorter than a
 * path, so row i overwrites only paths up to i, which are read by then. */
static void compact(struct bt_profile *p)
{
	_Static_assert(sizeof(struct ct_row) <= sizeof(struct path), "a row is written over its path");
	char *buf = (char *)p->paths;
	struct path x;
	struct ct_row r;
	uint32_t i;

	memset(&r, 0, sizeof r);
	for (i = 0; i < p->npaths; i++) {
		memcpy(&x, buf + (size_t)i * sizeof x, sizeof x);
		r.parent = x.parent;
		r.frame = x.frame;
		r.thread = x.thread;
		r.depth = x.depth;
		r.idle = x.idle;
		r.nocpu = x.nocpu;
		memcpy(r.self, x.self, sizeof r.self);
		memcpy(buf + (size_t)i * sizeof r, &r, sizeof r);
	}
	p->paths = NULL;
	p->cap = 0;
	p->rows = bt_xrealloc(buf, ((size_t)p->npaths + 1) * sizeof r);
}

/* A thread's root is no row: it is a hole in the ids. */
static int calltree_exists(const void *data, size_t id)
{
	const struct bt_profile *p = data;

	return p->rows[id].depth >= 0;
}

static int64_t calltree_column(const void *data, size_t id, int col)
{
	const struct bt_profile *p = data;
	const struct ct_row *x = &p->rows[id];

	switch (col) {
	case BT_CT_ID: return (int64_t)id;
	case BT_CT_TID: return p->tids[x->thread];
	case BT_CT_PARENT: return p->rows[x->parent].depth >= 0 ? (int64_t)x->parent : 0;
	case BT_CT_FRAME: return x->frame;
	case BT_CT_DEPTH: return x->depth;
	case BT_CT_IDLE: return x->idle;
	default:
		if (col >= BT_CT__COUNT)
			return 0;
		if ((col == BT_CT_SELF_CPU || col == BT_CT_INCL_CPU) && p->rows[p->roots[x->thread]].nocpu)
			return BT_MEMTAB_NULL;
		/* self and inclusive alternate from BT_CT_SELF_NS, value by value */
		return pv(p, (col - BT_CT_SELF_NS) % 2 ? p->incl[id][(col - BT_CT_SELF_NS) / 2]
						       : x->self[(col - BT_CT_SELF_NS) / 2]);
	}
}

static size_t calltree_nrows(const void *data)
{
	return bt_profile_npaths(data);
}

static int calltree_tid_rows(const void *data, int64_t tid, size_t *first, size_t *end)
{
	uint32_t f, e;

	if (!bt_profile_thread_paths(data, tid, &f, &e))
		return 0;
	*first = f;
	*end = e;
	return 1;
}

/* Threads in ascending tid order (a reconstruction's and a feed's are),
 * so their contiguous rows are in tid order too. */
static int tids_ascending(const struct bt_profile *p)
{
	uint32_t t;

	for (t = 1; t < p->nthreads; t++)
		if (p->tids[t] <= p->tids[t - 1])
			return 0;
	return 1;
}

static void calltree_release(void *data)
{
	bt_profile_free(data);
}

int bt_profile_store(struct bt_profile *p, struct bt_db *db, int keep, struct bt_err *err)
{
	struct bt_memtab ct = { "calltree", calltree_schema, calltree_nrows, calltree_exists,
				calltree_column, calltree_tid_rows, calltree_release, NULL, 1u << BT_CT_PARENT, 0,
				NULL, 0 };
	struct rows meth, call;
	int rc;

	rollup(p);
	memset(&meth, 0, sizeof meth);
	memset(&call, 0, sizeof call);
	bt_map64_init(&meth.index, 256);
	bt_map64_init(&call.index, 256);
	rc = methods_and_callers(db, p, &meth, &call, err);
	if (!rc)
		rc = store_threads(db, p, err);
	if (!rc)
		rc = store_blocking(db, p, err);
	if (!rc)
		rc = store_messages(db, p, err);
	if (!rc)
		rc = store_windows(db, p, err);
	if (!rc)
		rc = store_cpu_time(db, p, err);
	if (!rc)
		rc = store_unknowns(db, p, err);
	free(meth.m);
	free(call.m);
	bt_map64_release(&meth.index);
	bt_map64_release(&call.index);
	free(p->blocks);
	p->blocks = NULL;
	if (rc) {
		bt_profile_free(p);
		return rc;
	}
	compact(p);
	ct.data = p;
	ct.tid_sorted = tids_ascending(p);
	return bt_db_attach_memtab(db, &ct, keep, err);
}
