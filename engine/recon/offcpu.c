/*
 * Off-CPU time by scheduler state (offcpu.h): each state against its
 * thread's top-level slices, which never overlap one another and come in
 * time order, so a binary search finds the first it meets and its share
 * is its overlap with each from there. The states are read as stored: no
 * sort of a million rows (the first version's ORDER BY tid, ts cost a
 * fifth of a dense trace's import).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/recon/offcpu.h"

enum { NCLASS = 5 };   /* offcpu_states.sql's classes: 0 other, 1 runnable, 2 sleeping, 3 io, 4 D */

/* A thread's top-level slices, top[first .. first + n), and its sums. */
struct state_thread {
	int64_t tid, sum[NCLASS];
	size_t first, n;
	int64_t covered;   /* of its slices' time, what its states cover */
};

void bt_offcpu_init(struct bt_offcpu *o)
{
	memset(o, 0, sizeof *o);
}

void bt_offcpu_release(struct bt_offcpu *o)
{
	if (!o)
		return;
	free(o->top);
	free(o->self);
	free(o->kids);
	bt_offcpu_init(o);
}

void bt_offcpu_self(struct bt_offcpu *o, int64_t tid, int64_t frame, int64_t a, int64_t b)
{
	if (b <= a)
		return;
	BT_GROW(o->self, o->nself + 1, o->selfcap);
	o->self[o->nself++] = (struct bt_time_span){ tid, frame, a, b };
}

void bt_offcpu_add(struct bt_offcpu *o, int64_t tid, int64_t ts, int64_t end)
{
	if (end <= ts)
		return;   /* covers nothing */
	BT_GROW(o->top, o->n + 1, o->cap);
	o->top[o->n++] = (struct bt_time_span){ .tid = tid, .a = ts, .b = end };
}

/* The threads of v[0 .. nv), each with its run of spans, indexed by tid
 * in index (value: position + 1). */
static struct state_thread *threads_of(const struct bt_time_span *v, size_t nv, struct bt_map64 *index,
				       size_t *n)
{
	struct state_thread *t = NULL;
	size_t i, cap = 0;

	*n = 0;
	for (i = 0; i < nv; i++) {
		uint32_t at = bt_map64_get(index, (uint64_t)v[i].tid);
		if (!at) {
			BT_GROW(t, *n + 1, cap);
			t[*n] = (struct state_thread){ .tid = v[i].tid, .first = i };
			bt_map64_put(index, (uint64_t)v[i].tid, (uint32_t)(at = (uint32_t)++*n));
		}
		t[at - 1].n++;
	}
	return t;
}

/* The first of v[lo, hi) that ends after a: they are a thread's, in time
 * order, apart. */
static size_t first_ending_after(const struct bt_time_span *v, size_t lo, size_t hi, int64_t a)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].b <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How much of [a, b) v spans. */
static int64_t overlap(const struct bt_time_span *v, int64_t a, int64_t b)
{
	int64_t from = a > v->a ? a : v->a, to = b < v->b ? b : v->b;

	return to > from ? to - from : 0;
}

/* State [a, b) of class c against thread t's slices. */
static void add_state(const struct bt_offcpu *o, struct state_thread *t, int64_t a, int64_t b, int c)
{
	size_t end = t->first + t->n, k;

	for (k = first_ending_after(o->top, t->first, end, a); k < end && o->top[k].a < b; k++) {
		int64_t ov = overlap(&o->top[k], a, b);
		t->sum[c] = bt_sat_add(t->sum[c], ov);
		t->covered = bt_sat_add(t->covered, ov);
	}
}

/* The methods' split: per thread its run of self segments, per segment
 * its method (thread, frame) and per method its sums. */
struct method_split {
	struct bt_map64 thread;     /* tid -> run + 1 */
	struct state_thread *run;   /* its sums unused */
	uint32_t *of;               /* by segment: its method */
	struct { int64_t tid, frame, sum[NCLASS], covered; } *m;
	size_t nm;
};

static void split_init(struct method_split *x, const struct bt_offcpu *o)
{
	struct bt_map64 index;
	size_t i, nrun, mcap = 0;

	memset(x, 0, sizeof *x);
	bt_map64_init(&x->thread, 64);
	bt_map64_init(&index, 256);
	x->run = threads_of(o->self, o->nself, &x->thread, &nrun);
	x->of = bt_xcalloc(o->nself + 1, sizeof *x->of);
	for (i = 0; i < o->nself; i++) {
		uint64_t key = (uint64_t)o->self[i].tid << 32 ^ (uint64_t)o->self[i].frame;
		uint32_t at;
		/* a key is a thread's frame: the tid's bits above, a frame id's below */
		if (!(at = bt_map64_get(&index, key)) || x->m[at - 1].tid != o->self[i].tid ||
		    x->m[at - 1].frame != o->self[i].frame) {
			BT_GROW(x->m, x->nm + 1, mcap);
			memset(&x->m[x->nm], 0, sizeof x->m[x->nm]);
			x->m[x->nm].tid = o->self[i].tid;
			x->m[x->nm].frame = o->self[i].frame;
			bt_map64_put(&index, key, at = (uint32_t)++x->nm);
		}
		x->of[i] = at - 1;
	}
	bt_map64_release(&index);
}

static void split_free(struct method_split *x)
{
	bt_map64_release(&x->thread);
	free(x->run);
	free(x->of);
	free(x->m);
}

/* State [a, b) of class c of thread tid against its self segments. */
static void split_state(const struct bt_offcpu *o, struct method_split *x, int64_t tid, int64_t a, int64_t b, int c)
{
	uint32_t r = bt_map64_get(&x->thread, (uint64_t)tid);
	size_t end, k;

	if (!r)
		return;
	end = x->run[r - 1].first + x->run[r - 1].n;
	for (k = first_ending_after(o->self, x->run[r - 1].first, end, a); k < end && o->self[k].a < b; k++) {
		int64_t ov = overlap(&o->self[k], a, b);
		x->m[x->of[k]].sum[c] = bt_sat_add(x->m[x->of[k]].sum[c], ov);
		x->m[x->of[k]].covered = bt_sat_add(x->m[x->of[k]].covered, ov);
	}
}

void bt_offcpu_closed(struct bt_offcpu *o, int64_t tid, int64_t depth, int64_t frame, int64_t ts, int64_t end,
		      int idle)
{
	size_t k = o->nkids;
	int64_t at = ts;

	while (k > 0 && o->kids[k - 1].frame == depth + 1)   /* its children, closed before it */
		k--;
	for (; k < o->nkids; k++) {
		if (!idle)   /* an idle slice's self time is no method's (the profile's rule) */
			bt_offcpu_self(o, tid, frame, at, o->kids[k].a);
		at = o->kids[k].b;
	}
	if (!idle)
		bt_offcpu_self(o, tid, frame, at, end);
	while (o->nkids > 0 && o->kids[o->nkids - 1].frame == depth + 1)
		o->nkids--;
	if (depth == 0) {
		bt_offcpu_add(o, tid, ts, end);
		return;
	}
	BT_GROW(o->kids, o->nkids + 1, o->kcap);
	o->kids[o->nkids++] = (struct bt_time_span){ tid, depth, ts, end };
}

void bt_offcpu_thread_done(struct bt_offcpu *o)
{
	o->nkids = 0;
}

static void append(struct bt_time_span **v, size_t *n, size_t *cap, const struct bt_time_span *w, size_t m)
{
	if (!m)
		return;
	BT_GROW(*v, *n + m, *cap);
	memcpy(*v + *n, w, m * sizeof *w);
	*n += m;
}

void bt_offcpu_move(struct bt_offcpu *into, struct bt_offcpu *from)
{
	append(&into->top, &into->n, &into->cap, from->top, from->n);
	append(&into->self, &into->nself, &into->selfcap, from->self, from->nself);
	bt_offcpu_release(from);
}

static int span_cmp(const void *a, const void *b)
{
	const struct bt_time_span *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->a > y->a) - (x->a < y->a);
}

void bt_offcpu_sort(struct bt_offcpu *o)
{
	if (o->n)
		qsort(o->top, o->n, sizeof *o->top, span_cmp);
	if (o->nself)
		qsort(o->self, o->nself, sizeof *o->self, span_cmp);
}

int bt_offcpu_store(const struct bt_offcpu *o, struct bt_db *db, struct bt_err *err)
{
	struct bt_map64 index;
	struct bt_rows *r = NULL;
	struct state_thread *t;
	struct method_split x;
	size_t n, i;
	int rc;

	if (!o->n)
		return BT_OK;   /* no slices: no wall to split */
	bt_map64_init(&index, 64);
	t = threads_of(o->top, o->n, &index, &n);
	split_init(&x, o);
	if ((rc = bt_rows_open(&r, db, BT_SQL_OFFCPU_STATES, err)))
		goto out;
	while ((rc = bt_rows_next(r, err)) == 1) {
		uint32_t at = bt_map64_get(&index, (uint64_t)bt_rows_int(r, 0));
		int64_t a = bt_rows_int(r, 1), c = bt_rows_int(r, 3);
		if (!at)
			continue;   /* a thread without slices */
		if (c >= 0 && c < NCLASS) {
			add_state(o, &t[at - 1], a, bt_sat_add(a, bt_rows_int(r, 2)), (int)c);
			if (o->nself)
				split_state(o, &x, bt_rows_int(r, 0), a, bt_sat_add(a, bt_rows_int(r, 2)), (int)c);
		}
	}
	bt_rows_close(r);
	rc = rc < 0 ? err->code : BT_OK;
	for (i = 0; i < n && !rc; i++)
		if (t[i].covered > 0)   /* states outside its slices say nothing of them */
			rc = bt_db_exec(db, BT_SQL_UPDATE_THREAD_OFFCPU, err, "iiiii", t[i].tid, t[i].sum[1], t[i].sum[2],
					t[i].sum[3], t[i].sum[4]);
	for (i = 0; i < x.nm && !rc; i++)
		if (x.m[i].covered > 0)
			rc = bt_db_exec(db, BT_SQL_UPDATE_METHOD_OFFCPU, err, "iiiiii", x.m[i].tid, x.m[i].frame,
					x.m[i].sum[1], x.m[i].sum[2], x.m[i].sum[3], x.m[i].sum[4]);
out:
	split_free(&x);
	free(t);
	bt_map64_release(&index);
	return rc;
}
