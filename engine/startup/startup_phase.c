/*
 * A phase of the app start (startup_int.h), broken down and stored: what
 * the main thread did in it (running and idle from the slices, those that
 * straddle an edge by their share; blocked from its blocking records),
 * its blocking by kind and its top methods.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/profile/profile.h"
#include "engine/startup/startup_int.h"

#define MAX_NEST 512                 /* deeper slices are not checked for recursion */
#define TOP_METHODS 10               /* per phase; the whole window keeps every method (the gate's) */

/* The share of [a, b) that slice m covers, in [0, 1]. */
static double share(const struct mslice *m, int64_t a, int64_t b)
{
	int64_t lo = m->ts > a ? m->ts : a, hi = m->ts + m->dur < b ? m->ts + m->dur : b;

	if (hi <= lo)
		return m->dur == 0 && m->ts >= a && m->ts < b;
	return m->dur > 0 ? (double)(hi - lo) / (double)m->dur : 1.0;
}

/* What the main thread did in [a, b): running and idle from the slices,
 * those that straddle an edge by their share, blocked as its blocking
 * records overlap it (store_blocking); running, then blocked, then idle
 * take precedence, so the four add up to b - a. */
struct parts {
	int64_t cpu, blocked, idle, rest;
};

static struct parts split(const struct bt_startup *st, int64_t a, int64_t b, int64_t blocked, int64_t running)
{
	double cpu = 0, idle = 0;
	struct parts p;
	int64_t wall = b - a, left;
	size_t i;

	for (i = 0; i < st->n; i++) {
		double f = share(&st->v[i], a, b);
		if (f <= 0)
			continue;
		cpu += f * (double)st->v[i].self_cpu;
		idle += f * (double)st->v[i].idle_own;
	}
	if (running >= 0)   /* the scheduler's, exact */
		cpu = (double)running;
	p.cpu = (int64_t)cpu < wall ? (int64_t)cpu : wall;
	p.cpu = p.cpu < 0 ? 0 : p.cpu;
	left = wall - p.cpu;
	p.blocked = blocked < left ? blocked : left;
	p.blocked = p.blocked < 0 ? 0 : p.blocked;
	left -= p.blocked;
	p.idle = (int64_t)idle < left ? (int64_t)idle : left;
	p.idle = p.idle < 0 ? 0 : p.idle;
	p.rest = left - p.idle;
	return p;
}

struct mtotal {
	uint32_t frame;
	double self_cpu, self, incl;
};

static int by_cpu(const void *x, const void *y)
{
	const struct mtotal *a = x, *b = y;

	if (a->self_cpu != b->self_cpu)
		return a->self_cpu < b->self_cpu ? 1 : -1;
	return (a->frame > b->frame) - (a->frame < b->frame);
}

/* CPU time unknown: by self wall time. */
static int by_self(const void *x, const void *y)
{
	const struct mtotal *a = x, *b = y;

	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	return (a->frame > b->frame) - (a->frame < b->frame);
}

/* The entry of frame in t (index: frame -> position + 1), made if new. */
static struct mtotal *total_of(struct bt_map64 *index, struct mtotal **t, size_t *n, size_t *cap,
			       uint32_t frame)
{
	uint32_t k = bt_map64_get(index, frame);

	if (!k) {
		BT_GROW(*t, *n + 1, *cap);
		memset(&(*t)[*n], 0, sizeof (*t)[*n]);
		(*t)[*n].frame = frame;
		bt_map64_put(index, frame, k = (uint32_t)++*n);
	}
	return &(*t)[k - 1];
}

static int by_ts_depth(const void *x, const void *y)
{
	const struct mslice *a = *(const struct mslice *const *)x, *b = *(const struct mslice *const *)y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (a->depth > b->depth) - (a->depth < b->depth);
}

/* Each frame's inclusive wall time in [a, b): its slices' overlap with it,
 * a recursive call's counted once (inside an open slice of its frame). */
static void add_inclusive(const struct bt_startup *st, int64_t a, int64_t b, struct bt_map64 *index,
			  struct mtotal **t, size_t *n, size_t *cap)
{
	const struct mslice *open[MAX_NEST];
	const struct mslice **idx = bt_xcalloc(st->n + 1, sizeof *idx);
	size_t i, m = 0, d;

	for (i = 0; i < st->n; i++)
		if (share(&st->v[i], a, b) > 0)
			idx[m++] = &st->v[i];
	qsort(idx, m, sizeof *idx, by_ts_depth);
	memset(open, 0, sizeof open);
	for (i = 0; i < m; i++) {
		const struct mslice *s = idx[i];
		int nested = 0;
		for (d = 0; d < s->depth && d < MAX_NEST && !nested; d++)
			nested = open[d] && open[d]->frame == s->frame && open[d]->ts + open[d]->dur > s->ts;
		if (s->depth < MAX_NEST)
			open[s->depth] = s;
		if (!nested)
			total_of(index, t, n, cap, s->frame)->incl += share(s, a, b) * (double)s->dur;
	}
	free(idx);
}

/* The top methods by self CPU time in [a, b) (by self wall time, their
 * CPU NULL, when the trace does not give it): all of them (those with
 * any own time, running or not, or only callees' time) for the whole
 * window, with their inclusive time, which compare gates method by
 * method. */
static int store_methods(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t a,
			 int64_t b, struct bt_err *err)
{
	struct bt_map64 index;
	struct mtotal *t = NULL;
	size_t n = 0, cap = 0, i;
	int rc = BT_OK, all = !strcmp(phase, bt_startup_phase_name[PH_STARTUP]);

	bt_map64_init(&index, 256);
	for (i = 0; i < st->n; i++) {
		double f = share(&st->v[i], a, b);
		struct mtotal *e;
		if (f <= 0 || ((st->cpu_unknown || st->v[i].self_cpu <= 0) &&
				(!(all || st->cpu_unknown) || st->v[i].self <= st->v[i].idle_own)))
			continue;
		e = total_of(&index, &t, &n, &cap, st->v[i].frame);
		e->self_cpu += f * (double)st->v[i].self_cpu;
		e->self += f * (double)(st->v[i].self - st->v[i].idle_own);
	}
	if (all)
		add_inclusive(st, a, b, &index, &t, &n, &cap);
	if (n)
		qsort(t, n, sizeof *t, st->cpu_unknown ? by_self : by_cpu);
	for (i = 0; i < n && (all || i < TOP_METHODS) && !rc; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_STARTUP_METHOD, err, "tiimim", phase, (int64_t)i + 1,
				(int64_t)t[i].frame, st->cpu_unknown ? INT64_MIN : (int64_t)t[i].self_cpu,
				(int64_t)t[i].self, all ? (int64_t)t[i].incl : INT64_MIN);
	free(t);
	bt_map64_release(&index);
	return rc;
}

static int by_ts(const void *x, const void *y)
{
	const struct block *a = x, *b = y;

	return (a->ts > b->ts) - (a->ts < b->ts);
}

static int by_len(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* How finely the samples place a method's bounds: the gap from one sample
 * (a duration record: its end) to the next that holds half of the time
 * between samples in gaps no longer than it (the median gap seen from a
 * random instant, where a bound falls). A bound is somewhere in its gap,
 * and a slowdown elsewhere moves where the samples land: a method's time
 * moves by a gap's worth with them (issue 36). -1 under MIN_GAPS gaps. */
#define MIN_GAPS 8
static int64_t bound_gap(struct block *s, size_t n)
{
	int64_t *gap, m = -1, total = 0, acc = 0;
	size_t i, k = 0;

	if (n <= MIN_GAPS)
		return -1;
	qsort(s, n, sizeof *s, by_ts);
	gap = bt_xmalloc(n * sizeof *gap);
	for (i = 1; i < n; i++)
		if (s[i].ts > s[i - 1].end) {
			gap[k] = s[i].ts - s[i - 1].end;
			total = bt_sat_add(total, gap[k++]);
		}
	if (k >= MIN_GAPS) {
		qsort(gap, k, sizeof *gap, by_len);
		for (i = 0; i < k && m < 0; i++) {
			acc = bt_sat_add(acc, gap[i]);
			if (acc >= total - acc)
				m = gap[i];
		}
	}
	free(gap);
	return m;
}

/* The main thread's blocking records (its duration records where the
 * trace has samples, else its waits), read once for every phase, and the
 * spacing of its samples in the window [a, b). */
int bt_startup_load_blocks(struct bt_startup *st, struct bt_db *db, int64_t a, int64_t b, struct bt_err *err)
{
	struct block *smp = NULL;
	size_t ns = 0, scap = 0;
	int from_samples;

	st->interval = -1;
	for (from_samples = 1; from_samples >= 0 && !st->nblk; from_samples--) {
		struct bt_rows *r = NULL;
		int rc;
		if (bt_rows_open(&r, db, from_samples ? BT_SQL_STARTUP_BLOCKS_SAMPLES : BT_SQL_STARTUP_BLOCKS_EDGES,
				 err)) {
			free(smp);
			return err->code;
		}
		bt_rows_bind_int(r, 1, st->tid);
		if (from_samples) {
			bt_rows_bind_int(r, 2, a);
			bt_rows_bind_int(r, 3, b);
		}
		while ((rc = bt_rows_next(r, err)) == 1) {
			int k = from_samples ? bt_block_kind_of(bt_rows_int(r, 0)) : bt_block_kind_named(bt_rows_text(r, 0, NULL));
			if (from_samples && !st->exact && bt_rows_int(r, 1) >= a && bt_rows_int(r, 1) < b) {
				BT_GROW(smp, ns + 1, scap);
				smp[ns].ts = bt_rows_int(r, 1);
				smp[ns].end = bt_rows_type(r, 2) == BT_ROWS_NULL ? smp[ns].ts : bt_rows_int(r, 2);
				ns++;
			}
			if (k < 0)
				continue;
			BT_GROW(st->blk, st->nblk + 1, st->bcap);
			st->blk[st->nblk].kind = k;
			st->blk[st->nblk].ts = bt_rows_int(r, 1);
			st->blk[st->nblk++].end = bt_rows_int(r, 2);
		}
		bt_rows_close(r);
		if (rc < 0) {
			free(smp);
			return err->code;
		}
	}
	st->interval = bound_gap(smp, ns);
	free(smp);
	return BT_OK;
}

/* Blocked time by kind in [a, b): the records' overlap with it. */
static int store_blocking(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t a,
			  int64_t b, int64_t *total, struct bt_err *err)
{
	int64_t count[BT_BLOCK__COUNT] = { 0 }, dur[BT_BLOCK__COUNT] = { 0 };
	size_t i;
	int k;

	for (i = 0; i < st->nblk; i++) {
		const struct block *x = &st->blk[i];
		int64_t lo = x->ts > a ? x->ts : a, hi = x->end < b ? x->end : b;
		if (hi <= lo)
			continue;
		count[x->kind]++;
		dur[x->kind] = bt_sat_add(dur[x->kind], hi - lo);
	}
	*total = 0;
	for (k = 0; k < BT_BLOCK__COUNT; k++) {
		*total = bt_sat_add(*total, dur[k]);
		if (count[k] && bt_db_exec(db, BT_SQL_INSERT_STARTUP_BLOCKING, err, "ttii", phase,
					   bt_block_kind_name[k], count[k], dur[k]))
			return err->code;
	}
	return BT_OK;
}

/* The main thread's running time in [a, b) as the scheduler's states give
 * it, where they cover the interval; else -1 (slices' CPU time share it). */
static int sched_running(const struct bt_startup *st, struct bt_db *db, int64_t a, int64_t b, int64_t *out,
			 struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	*out = -1;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_RUNNING, err))
		return err->code;
	bt_rows_bind_int(r, 1, st->tid);
	bt_rows_bind_int(r, 2, a);
	bt_rows_bind_int(r, 3, b);
	if ((rc = bt_rows_next(r, err)) == 1 && bt_rows_type(r, 0) != BT_ROWS_NULL)
		*out = bt_rows_int(r, 0);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_startup_store_phase(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t ts,
			   int64_t dur, const char *source, struct bt_err *err)
{
	struct parts p;
	int64_t blocked = 0, running;

	if (store_blocking(st, db, phase, ts, ts + dur, &blocked, err) ||
	    sched_running(st, db, ts, ts + dur, &running, err))
		return err->code;
	p = split(st, ts, ts + dur, blocked, running);
	if (st->cpu_unknown && running < 0)   /* a trace without CPU time: running and the rest are unknown */
		p.cpu = p.rest = INT64_MIN;
	if (bt_db_exec(db, BT_SQL_INSERT_STARTUP_PHASE, err, "tiitimmmm", phase, ts, dur, source,
		       (int64_t)st->exact, p.cpu, p.blocked, p.idle, p.rest) ||
	    store_methods(st, db, phase, ts, ts + dur, err))
		return err->code;
	return BT_OK;
}
