/*
 * Pairing a thread's enter and exit records into slices, each with its
 * wall and thread-CPU time. Two passes over each thread's records (found
 * through art_scan.c's runs): the first finds the methods that were
 * already on the stack when tracing began (their exits come without
 * entries) and the trace's end; the second opens those as the outermost
 * slices at the start, then every call, on the pipeline's feed, threads
 * in ascending tid order. An exit closes its method's call and any calls
 * inside it still open (their own exits lost, counted); an unroll
 * (exception) exit ends its call the same way; calls open at the end
 * close at the trace's last record.
 */
#include <stdlib.h>
#include <string.h>

#include "importers/art/art_int.h"
#include "importers/reader.h"

#define SMALL_GAP_NS 100000      /* a method trace has steps this short; a sampled one none */
#define BATCH 256

static int has_wall(const struct art *a)
{
	return a->clock != ART_CLOCK_CPU;
}

static int has_cpu(const struct art *a)
{
	return a->clock != ART_CLOCK_WALL;
}

/* An open call: its method (index into art.methods), and where it began. */
struct art_call {
	uint64_t id;             /* the method, as the records name it */
	int real;                /* a slice of the feed (not past ART_MAX_DEPTH) */
	int64_t wall, cpu;
};

/* A small cache of frame lookups: most records name a recent method. */
#define CACHE 4096

struct art_pass {
	struct art *a;
	struct bt_feed *feed;    /* NULL in the first pass */
	struct art_call *stack;
	size_t sp, cap, synthetic;   /* synthetic: callers opened at the start, still open */
	struct bt_slice s;           /* the next slice opened: only tid, ts and frame change */
	struct { uint64_t id; uint32_t frame; } cache[CACHE];   /* frame 0: empty */
};

/* The frame id of method id (a placeholder made for an id no line names,
 * its frame given at first use). */
static inline uint32_t method(struct art_pass *p, uint64_t id)
{
	struct art *a = p->a;
	size_t k = (size_t)((id >> 2) ^ (id >> 15)) & (CACHE - 1);
	struct art_method *m;

	if (p->cache[k].frame && p->cache[k].id == id)
		return p->cache[k].frame;
	m = art_method_find(a, id);
	if (!m) {
		m = art_method_placeholder(a, id);
		a->unknown_methods++;
	}
	if (!m->frame)
		m->frame = ++a->nframes;
	p->cache[k].id = id;
	p->cache[k].frame = m->frame;
	return m->frame;
}

static inline int push(struct art_pass *p, uint64_t id, int64_t tid, int64_t wall, int64_t cpu, struct bt_err *err)
{
	uint32_t frame = method(p, id);
	struct art_call *c;

	BT_GROW(p->stack, p->sp + 1, p->cap);
	c = &p->stack[p->sp++];
	c->id = id;
	c->wall = wall;
	c->cpu = cpu;
	c->real = p->sp <= ART_MAX_DEPTH;
	if (!p->feed)
		return BT_OK;
	if (!c->real) {
		p->a->deep++;
		return BT_OK;
	}
	p->s.tid = tid;
	p->s.ts = wall;
	p->s.frame_id = frame;
	return bt_feed_open(p->feed, &p->s, has_cpu(p->a) ? BT_FEED_CPU : BT_FEED_CPU_UNKNOWN, 0, err);
}

static inline int pop(struct art_pass *p, int64_t wall, int64_t cpu, struct bt_err *err)
{
	struct art_call *c = &p->stack[--p->sp];

	if (!p->feed || !c->real)
		return BT_OK;
	bt_feed_top(p->feed)->cpu_dur = has_cpu(p->a) ? cpu - c->cpu : 0;
	return bt_feed_close(p->feed, wall, NULL, err);
}

/* The position (1-based) of the innermost open call of m above floor, or
 * 0: an exit's method is almost always the top, so the walk is short. */
static size_t depth_of(const struct art_pass *p, uint64_t id, size_t floor)
{
	size_t i = p->sp;

	while (i > floor && p->stack[i - 1].id != id)
		i--;
	return i > floor ? i : 0;
}

/* An exit of m at e: closes m's call and the calls still open inside it;
 * with no call of m open (past the callers of the start), every call is
 * closed and m is a caller that was on the stack when tracing began. */
static int leave(struct art_pass *p, struct art_thread *t, uint64_t id, const struct art_ev *e, struct bt_err *err)
{
	size_t at = depth_of(p, id, p->synthetic);

	if (at) {
		while (p->sp >= at) {
			if (p->sp > at)
				p->a->mismatched += !p->feed;
			if (pop(p, e->wall, e->cpu, err))
				return err->code;
		}
		return BT_OK;
	}
	while (p->sp > p->synthetic) {
		p->a->mismatched += !p->feed;
		if (pop(p, e->wall, e->cpu, err))
			return err->code;
	}
	if (p->feed) {   /* the second pass opened it at the start */
		p->synthetic--;
		return pop(p, e->wall, e->cpu, err);
	}
	method(p, id);   /* its frame */
	BT_GROW(t->callers, t->ncallers + 1, t->ccap);
	t->callers[t->ncallers++] = id;
	p->a->synthetic++;
	return BT_OK;
}

/* Steps between a thread's distinct wall times (second pass): a sampled
 * trace has none shorter than its interval. Kept in locals over a batch. */
struct gaps {
	int64_t prev, min;
	uint64_t n, small;
};

static inline void note_gap(struct gaps *g, int64_t wall)
{
	int64_t gap;

	if (g->prev >= 0 && wall != g->prev) {
		gap = wall - g->prev;
		g->n++;
		g->small += gap < SMALL_GAP_NS;
		if (g->min < 0 || gap < g->min)
			g->min = gap;
	}
	g->prev = wall;
}

/* Open the callers the first pass found, outermost first, at the trace's
 * start: both clocks' zero. */
static int open_callers(struct art_pass *p, struct art_thread *t, struct bt_err *err)
{
	size_t i;

	for (i = t->ncallers; i > 0; i--)
		if (push(p, t->callers[i - 1], t->tid, p->a->start_ns, 0, err))
			return err->code;
	p->synthetic = t->ncallers;
	return BT_OK;
}

/* The first pass's records of thread t: the usual entry and exit here
 * (only the methods on the stack matter, and each entry's frame). */
static int first_batch(struct art_pass *p, struct art_thread *t, const struct art_ev *e, int n,
		       struct bt_err *err)
{
	int i;

	for (i = 0; i < n; i++) {
		uint64_t id = e[i].method;
		if (e[i].action == ART_ENTER) {
			method(p, id);   /* its frame, in the order of first use */
			BT_GROW(p->stack, p->sp + 1, p->cap);
			p->stack[p->sp++].id = id;
			continue;
		}
		p->a->unroll += e[i].action == ART_UNROLL;
		if (p->sp > p->synthetic && p->stack[p->sp - 1].id == id)   /* the usual exit */
			p->sp--;
		else if (leave(p, t, id, &e[i], err))
			return err->code;
	}
	return BT_OK;
}

/* The second pass's records of thread t, to the feed. */
static int feed_batch(struct art_pass *p, struct art_thread *t, const struct art_ev *e, int n, struct gaps *g,
		      struct bt_err *err)
{
	const int wall = has_wall(p->a);
	int i, rc;

	for (i = 0; i < n; i++) {
		if (wall && !g->small)   /* one short step: not sampled, nothing more to learn */
			note_gap(g, e[i].wall);
		if (e[i].action == ART_ENTER)
			rc = push(p, e[i].method, t->tid, e[i].wall, e[i].cpu, err);
		else if (p->sp > p->synthetic && p->stack[p->sp - 1].id == e[i].method)   /* the usual exit */
			rc = pop(p, e[i].wall, e[i].cpu, err);
		else
			rc = leave(p, t, e[i].method, &e[i], err);
		if (rc)
			return rc;
	}
	return BT_OK;
}

/* One pass over thread t: the first (no feed) pairs methods only, and
 * reads times only when the trace's end must come from its records; the
 * second gives the slices to the feed. */
static int thread_pass(struct art_pass *p, struct art_thread *t, struct bt_err *err)
{
	struct art *a = p->a;
	struct art_cursor c;
	struct art_ev e[BATCH];
	struct gaps g = { -1, a->min_gap, a->gaps, a->small_gaps };
	int n;

	art_cursor_init(&c, a, t, p->feed || !a->has_elapsed);
	p->sp = p->synthetic = 0;
	if (p->feed && open_callers(p, t, err))
		return err->code;
	while ((n = (c.times ? art_cursor_read : art_cursor_methods)(&c, e, BATCH, err)) > 0)
		if (p->feed ? feed_batch(p, t, e, n, &g, err) : first_batch(p, t, e, n, err))
			return err->code;
	if (n < 0)
		return err->code;
	a->gaps = g.n;
	a->small_gaps = g.small;
	a->min_gap = g.min;
	if (a->touched > ART_DROP_EVERY || c.dropped)   /* the next thread's records start anywhere */
		art_drop(a, a->len);
	if (!p->feed) {
		a->open_at_end += p->sp;
		if (c.started && c.wall > a->last_ns)
			a->last_ns = c.wall;
		return BT_OK;
	}
	a->backwards += c.backwards;
	a->range += c.range;
	while (p->sp)   /* still running: ended when tracing stopped */
		if (pop(p, !has_wall(a) ? c.wall : c.wall > a->end_ns ? c.wall : a->end_ns, c.cpu, err))
			return err->code;
	return BT_OK;
}

static int by_tid(const void *x, const void *y)
{
	const struct art_thread *a = x, *b = y;

	return (a->tid > b->tid) - (a->tid < b->tid);
}

int art_pair_first(struct art *a, struct bt_err *err)
{
	struct art_pass *p = bt_xcalloc(1, sizeof *p);
	size_t i;
	int rc = BT_OK;

	if (a->nthreads)
		qsort(a->threads, a->nthreads, sizeof *a->threads, by_tid);
	bt_map64_release(&a->thread_of);
	bt_map64_init(&a->thread_of, a->nthreads);
	for (i = 0; i < a->nthreads; i++)
		bt_map64_put(&a->thread_of, (uint64_t)a->threads[i].tid, (uint32_t)i + 1);
	p->a = a;
	a->min_gap = -1;
	a->last_ns = a->start_ns;
	for (i = 0; i < a->nthreads && !rc; i++)
		rc = thread_pass(p, &a->threads[i], err);
	free(p->stack);
	free(p);
	/* when tracing stopped: the start plus the elapsed time the text says,
	 * else the last record */
	a->end_ns = a->has_elapsed && a->elapsed_ns < BT_MAX_TIME_NS - a->start_ns ? a->start_ns + a->elapsed_ns
										   : a->last_ns;
	return rc;
}

/* Every thread's slices to feed (which f->frees on error). */
static int feed_all(struct art *a, struct bt_feed *f, struct bt_err *err)
{
	struct art_pass *p = bt_xcalloc(1, sizeof *p);
	size_t i;
	int rc = BT_OK;

	p->a = a;
	p->feed = f;
	p->s.type = -1;
	for (i = 0; i < a->nmethods; i++)
		if (a->methods[i].frame)
			bt_feed_frame(f, a->methods[i].frame, art_str(a, a->methods[i].name));
	for (i = 0; i < a->nthreads && !rc; i++)
		if (a->threads[i].nruns)
			rc = thread_pass(p, &a->threads[i], err);
	free(p->stack);
	free(p);
	bt_feed_startup_exact(f, !art_sampled(a));   /* a sampled trace's calls: stack changes between samples */
	if (!rc)
		return bt_feed_finish(f, err);
	bt_feed_free(f);
	return rc;
}

/* The deferred slices (bt_feed_defer): the second pass again, stored. */
static int fill(void *ctx, struct bt_db *db, struct bt_err *err)
{
	return feed_all(ctx, bt_feed_new_refill(db), err);
}

static void release(void *ctx)
{
	art_free(ctx);
}

int art_pair_feed(struct art *a, int defer, struct bt_err *err)
{
	struct bt_db *db = a->db;
	struct bt_feed *f = bt_feed_new(db, a->o->taps);

	if (defer)   /* from here a is the feed's, then the database's */
		bt_feed_defer(f, fill, release, a);
	if (bt_feed_find_startup(f, a->diag, err)) {
		bt_feed_free(f);
		return err->code;
	}
	return feed_all(a, f, err);
}
