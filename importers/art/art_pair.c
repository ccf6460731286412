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

#define SMALL_GAP_NS 100000      /* a method trace has steps this short; a sampled one none */

/* A record as read: method (action bits clear), action, times in ns. */
struct ev {
	uint64_t method;
	int action;
	int64_t wall, cpu;
	size_t at;
};

/* Reading one thread's records in order (the same numbers both passes). */
struct cursor {
	struct art *a;
	const struct art_thread *t;
	size_t run, off, block_end;
	uint32_t left;
	int first_in_block, started;
	uint64_t acc_method, acc_wall, acc_cpu;     /* V2: the values so far */
	uint64_t wall_hi, cpu_hi;                   /* V1: 32-bit wraps so far */
	uint32_t wall_raw, cpu_raw;
	int64_t wall, cpu;                          /* the last record's, ns */
	uint64_t backwards, range;
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int has_wall(const struct art *a)
{
	return a->clock != ART_CLOCK_CPU;
}

static int has_cpu(const struct art *a)
{
	return a->clock != ART_CLOCK_WALL;
}

static void cursor_init(struct cursor *c, struct art *a, const struct art_thread *t)
{
	memset(c, 0, sizeof *c);
	c->a = a;
	c->t = t;
}

/* A 32-bit us counter as a 64-bit one: a drop by more than half its range
 * is a wrap (70 minutes of wall or CPU time). */
static uint64_t unwrap(uint32_t raw, uint32_t *last, uint64_t *hi, int started)
{
	if (started && raw < *last && *last - raw > 0x80000000u && *hi < (uint64_t)1 << 50)
		*hi += (uint64_t)1 << 32;   /* held at 2^50 us: a hostile trace's wraps stay in range */
	*last = raw;
	return *hi + raw;
}

/* Times of a record as ns from offsets since the start; a time beyond
 * the engine's range or before the thread's last is held at the last. */
static void set_times(struct cursor *c, struct ev *e, uint64_t wall_ns, uint64_t cpu_ns)
{
	struct art *a = c->a;
	int64_t wall, cpu = 0;
	uint64_t room = (uint64_t)(BT_MAX_TIME_NS - a->start_ns);

	if (!has_wall(a))
		wall_ns = cpu_ns;
	if (wall_ns >= room || (has_cpu(a) && cpu_ns >= (uint64_t)BT_MAX_TIME_NS)) {
		c->range++;
		wall = c->wall, cpu = c->cpu;
	} else {
		wall = a->start_ns + (int64_t)wall_ns;
		cpu = has_cpu(a) ? (int64_t)cpu_ns : 0;
	}
	if (c->started && (wall < c->wall || cpu < c->cpu)) {
		c->backwards++;
		wall = wall < c->wall ? c->wall : wall;
		cpu = cpu < c->cpu ? c->cpu : cpu;
	}
	e->wall = c->wall = wall;
	e->cpu = c->cpu = cpu;
	c->started = 1;
}

static void next_v1(struct cursor *c, struct ev *e)
{
	struct art *a = c->a;
	const unsigned char *p = a->data + c->off + (a->version == 1 ? 1 : 2);
	uint32_t word = le32(p), t1 = le32(p + 4), t2 = a->clock == ART_CLOCK_DUAL ? le32(p + 8) : 0;
	uint32_t cpu_raw = a->clock == ART_CLOCK_WALL ? 0 : t1;
	uint32_t wall_raw = a->clock == ART_CLOCK_DUAL ? t2 : a->clock == ART_CLOCK_WALL ? t1 : 0;
	uint64_t wall = unwrap(wall_raw, &c->wall_raw, &c->wall_hi, c->started);
	uint64_t cpu = unwrap(cpu_raw, &c->cpu_raw, &c->cpu_hi, c->started);

	e->at = c->off;
	e->method = word & ~3u;
	e->action = (int)(word & 3);
	set_times(c, e, wall * 1000, cpu * 1000);
	c->off += a->rec_size;
}

static int leb(struct cursor *c, uint64_t *v, int sign, struct bt_err *err)
{
	const unsigned char *p = c->a->data;
	size_t at = c->off;
	uint64_t x = 0;
	int shift = 0;
	unsigned char b;

	do {
		if (c->off >= c->block_end || shift > 63)
			return bt_err_set(err, BT_EFORMAT, "over-long LEB128 value in the entries of '%s' at offset %zu",
					  c->a->path, at);
		b = p[c->off++];
		if (shift == 63 && (b & 0x7e))
			return bt_err_set(err, BT_EFORMAT, "LEB128 value past 64 bits in the entries of '%s' at offset %zu",
					  c->a->path, at);
		x |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		x |= ~(uint64_t)0 << shift;
	*v = x;
	return BT_OK;
}

/*
 * An entries record: method|action as a signed delta, then the wall and
 * CPU ns as deltas. A packet's first record holds values since 0, unless
 * ART carried a flush's deltas on into its next packet: then the delta
 * read as a value would put the thread back in time.
 */
static int next_v2(struct cursor *c, struct ev *e, struct bt_err *err)
{
	struct art *a = c->a;
	uint64_t dm, dw = 0, dc = 0;

	e->at = c->off;
	if (leb(c, &dm, 1, err) || (has_wall(a) && leb(c, &dw, 0, err)) || (has_cpu(a) && leb(c, &dc, 0, err)))
		return err->code;
	if (c->first_in_block && !(c->started && (has_wall(a) ? dw < c->acc_wall : dc < c->acc_cpu)))
		c->acc_method = c->acc_wall = c->acc_cpu = 0;
	c->first_in_block = 0;
	c->acc_method += dm;
	if (c->acc_wall + dw < c->acc_wall || c->acc_cpu + dc < c->acc_cpu)
		c->range++;   /* past 2^64: held below as out of range */
	c->acc_wall += dw;
	c->acc_cpu += dc;
	e->method = c->acc_method & ~(uint64_t)3;
	e->action = (int)(c->acc_method & 3);
	set_times(c, e, has_wall(a) ? c->acc_wall : c->acc_cpu, c->acc_cpu);
	return BT_OK;
}

/* The next record into e: 1, or 0 at the thread's end, or an error. */
static int next(struct cursor *c, struct ev *e, struct bt_err *err)
{
	const struct art *a = c->a;

	while (!c->left) {
		uint64_t run;
		const unsigned char *p;
		if (c->run == c->t->nruns)
			return 0;
		run = c->t->runs[c->run++];
		c->off = (size_t)(run >> 24);
		c->left = (uint32_t)(run & ART_RUN_MAX);
		if (a->layout != ART_V2)
			continue;
		p = a->data + c->off;
		c->left = (uint32_t)p[5] | (uint32_t)p[6] << 8 | (uint32_t)p[7] << 16;
		c->block_end = c->off + 12 + le32(p + 8);
		c->off += 12;
		c->first_in_block = 1;
	}
	c->left--;
	if (a->layout != ART_V2) {
		next_v1(c, e);
		return 1;
	}
	return next_v2(c, e, err) ? -1 : 1;
}

/* An open call: its method, and where it began. */
struct call {
	struct art_method *m;
	int64_t wall, cpu;
	int real;                /* a slice of the feed (not past ART_MAX_DEPTH) */
};

struct pair {
	struct art *a;
	struct bt_feed *feed;    /* NULL in the first pass */
	struct call *stack;
	size_t sp, cap, synthetic;   /* synthetic: callers opened at the start, still open */
	uint64_t last_method;
	struct art_method *last;
};

static struct art_method *method(struct pair *p, uint64_t id)
{
	struct art *a = p->a;
	struct art_method *m;

	if (p->last && p->last_method == id)
		return p->last;
	m = art_method_find(a, id);
	if (!m) {
		m = art_method_placeholder(a, id);
		a->unknown_methods++;
	}
	if (!m->frame)
		m->frame = ++a->nframes;
	p->last_method = id;
	return p->last = m;
}

static int push(struct pair *p, struct art_method *m, int64_t tid, int64_t wall, int64_t cpu,
		struct bt_err *err)
{
	struct call *c;
	struct bt_slice s;

	BT_GROW(p->stack, p->sp + 1, p->cap);
	c = &p->stack[p->sp++];
	c->m = m;
	c->wall = wall;
	c->cpu = cpu;
	c->real = p->sp <= ART_MAX_DEPTH;
	if (!p->feed)
		return BT_OK;
	if (!c->real) {
		p->a->deep++;
		return BT_OK;
	}
	memset(&s, 0, sizeof s);
	s.tid = tid;
	s.ts = wall;
	s.frame_id = m->frame;
	s.type = -1;
	p->a->slices++;
	return bt_feed_open(p->feed, &s, has_cpu(p->a) ? BT_FEED_CPU : 0, 0, err);
}

static int pop(struct pair *p, int64_t wall, int64_t cpu, struct bt_err *err)
{
	struct call *c = &p->stack[--p->sp];
	struct bt_slice *top;

	if (!p->feed || !c->real)
		return BT_OK;
	top = bt_feed_top(p->feed);
	top->cpu_dur = has_cpu(p->a) ? cpu - c->cpu : 0;
	return bt_feed_close(p->feed, wall, NULL, err);
}

/* How many open calls of m (found by a walk down: an exit's method is
 * almost always the top, so the walk rarely goes past it). */
static size_t depth_of(const struct pair *p, const struct art_method *m, size_t floor)
{
	size_t i = p->sp;

	while (i > floor && p->stack[i - 1].m != m)
		i--;
	return i > floor ? i : 0;
}

/* An exit of m at e: closes m's call and the calls still open inside it;
 * with no call of m open (past the callers of the start), every call is
 * closed and m is a caller that was on the stack when tracing began. */
static int leave(struct pair *p, struct art_thread *t, struct art_method *m, const struct ev *e,
		 struct bt_err *err)
{
	size_t at = depth_of(p, m, p->synthetic);

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
	BT_GROW(t->callers, t->ncallers + 1, t->ccap);
	t->callers[t->ncallers++] = m->id;
	p->a->synthetic++;
	return BT_OK;
}

static void note_gap(struct art *a, int64_t *prev, int64_t wall)
{
	int64_t gap;

	if (*prev >= 0 && wall != *prev) {
		gap = wall - *prev;
		a->gaps++;
		a->small_gaps += gap < SMALL_GAP_NS;
		if (a->min_gap < 0 || gap < a->min_gap)
			a->min_gap = gap;
	}
	*prev = wall;
}

/* Open the callers the first pass found, outermost first, at the trace's
 * start: both clocks' zero. */
static int open_callers(struct pair *p, struct art_thread *t, struct bt_err *err)
{
	size_t i;

	for (i = t->ncallers; i > 0; i--)
		if (push(p, method(p, t->callers[i - 1]), t->tid, p->a->start_ns, 0, err))
			return err->code;
	p->synthetic = t->ncallers;
	return BT_OK;
}

/* One pass over thread t (the second with p->feed). */
static int thread_pass(struct pair *p, struct art_thread *t, struct bt_err *err)
{
	struct art *a = p->a;
	struct cursor c;
	struct ev e;
	int64_t prev = -1;
	int rc;

	cursor_init(&c, a, t);
	p->sp = p->synthetic = 0;
	if (p->feed && open_callers(p, t, err))
		return err->code;
	while ((rc = next(&c, &e, err)) == 1) {
		struct art_method *m = method(p, e.method);
		if (!p->feed && has_wall(a))
			note_gap(a, &prev, e.wall);
		if (e.action == ART_ENTER) {
			if (push(p, m, t->tid, e.wall, e.cpu, err))
				return err->code;
			continue;
		}
		a->unroll += !p->feed && e.action == ART_UNROLL;
		if (leave(p, t, m, &e, err))
			return err->code;
	}
	if (rc < 0)
		return err->code;
	if (!p->feed) {
		a->open_at_end += p->sp;
		a->backwards += c.backwards;
		if (c.started && c.wall > a->last_ns)
			a->last_ns = c.wall;
		a->range += c.range;
		return BT_OK;
	}
	while (p->sp)
		if (pop(p, has_wall(a) ? a->last_ns : c.wall, c.cpu, err))
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
	struct pair p;
	size_t i;
	int rc = BT_OK;

	qsort(a->threads, a->nthreads, sizeof *a->threads, by_tid);
	bt_map64_release(&a->thread_of);
	bt_map64_init(&a->thread_of, a->nthreads);
	for (i = 0; i < a->nthreads; i++)
		bt_map64_put(&a->thread_of, (uint64_t)a->threads[i].tid, (uint32_t)i + 1);
	memset(&p, 0, sizeof p);
	p.a = a;
	a->min_gap = -1;
	a->last_ns = a->start_ns;
	for (i = 0; i < a->nthreads && !rc; i++)
		rc = thread_pass(&p, &a->threads[i], err);
	free(p.stack);
	return rc;
}

int art_pair_feed(struct art *a, struct bt_err *err)
{
	struct pair p;
	size_t i;
	int rc = BT_OK;

	memset(&p, 0, sizeof p);
	p.a = a;
	p.feed = bt_feed_new(a->db, a->o->taps);
	for (i = 0; i < a->nmethods; i++)
		if (a->methods[i].frame)
			bt_feed_frame(p.feed, a->methods[i].frame, art_str(a, a->methods[i].name));
	for (i = 0; i < a->nthreads && !rc; i++)
		if (a->threads[i].nruns)
			rc = thread_pass(&p, &a->threads[i], err);
	if (!rc) {
		rc = bt_feed_finish(p.feed, err);
		p.feed = NULL;
	}
	bt_feed_free(p.feed);
	free(p.stack);
	return rc;
}
