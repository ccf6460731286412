/*
 * The HTML timeline's tap (html.h): every slice of every thread, packed
 * as it ends into its thread's lane (html_int.h: four varints, times in
 * microseconds, some 4.6 bytes a slice), and the lanes a page shows, the
 * shortest slices left out past BT_HTML_SLICES.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/html/html_int.h"

/* The lanes of one part of the run: its threads come one by one. */
struct tl_part {
	struct bt_html_lane *l;
	size_t n, cap;
};

struct bt_html_timeline {
	struct tl_part part[2];
};

static int64_t floor_us(int64_t ns)
{
	return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
}

static uint64_t zigzag(int64_t v)
{
	return v >= 0 ? (uint64_t)v << 1 : (((uint64_t)-(v + 1)) << 1) | 1;
}

static int64_t unzigzag(uint64_t v)
{
	return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

static unsigned char *put(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static const unsigned char *get(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (p < end && shift < 64) {
		*v |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80))
			return p;
		shift += 7;
	}
	return end;   /* cannot be: the tap wrote whole varints */
}

static int bits(uint64_t v)
{
	int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static void grow_depth(struct bt_html_lane *l, int64_t depth)
{
	size_t n = (size_t)depth + 2;

	if (n <= l->ndepth)
		return;
	l->depth = bt_xrealloc(l->depth, n * sizeof *l->depth);
	l->first = bt_xrealloc(l->first, n * sizeof *l->first);
	l->has = bt_xrealloc(l->has, n);
	memset(l->depth + l->ndepth, 0, (n - l->ndepth) * sizeof *l->depth);
	memset(l->has + l->ndepth, 0, n - l->ndepth);
	l->ndepth = n;
}

/* Whether depth's slice has a child (then *first is the first child's
 * start), and the firsts after it: its children are done, and it is its
 * parent's first child unless a sibling came before. */
static int child(int64_t *first, unsigned char *has, size_t *top, size_t depth, int64_t start, int64_t *first_child)
{
	int r = depth + 1 < *top && has[depth + 1];
	size_t k;

	if (r)
		*first_child = first[depth + 1];
	for (k = depth + 1; k < *top; k++)
		has[k] = 0;
	if (!has[depth]) {
		first[depth] = start;
		has[depth] = 1;
	}
	*top = depth + 1;
	return r;
}

/* One slice onto lane l (html_int.h); times in us, cpu in tenths. */
static void pack(struct bt_html_lane *l, int64_t end, int64_t dur, int64_t depth, int64_t frame, int64_t tenths)
{
	int64_t start = end - dur, fc = 0;
	unsigned char *p;
	int kids;

	if (l->cap - l->len < 4 * 10) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->buf = bt_xrealloc(l->buf, l->cap);
	}
	grow_depth(l, depth);
	if (!l->kept)
		l->prev_end = l->base_us = end;
	kids = child(l->first, l->has, &l->top, (size_t)depth, start, &fc);
	p = put(l->buf + l->len, zigzag(end - l->prev_end));
	p = put(p, zigzag(depth - l->prev_depth) * 11 + (uint64_t)tenths);
	p = kids ? put(p, zigzag(fc - start)) : put(p, (uint64_t)dur);
	p = put(p, (uint64_t)frame);
	l->len = (size_t)(p - l->buf);
	l->prev_end = end;
	l->prev_depth = depth;
	l->depth[depth]++;
	l->hist[bits((uint64_t)dur)]++;
	l->kept++;
}

static struct bt_html_lane *lane_of(struct tl_part *p, int64_t tid)
{
	if (!p->n || p->l[p->n - 1].tid != tid) {
		BT_GROW(p->l, p->n + 1, p->cap);
		memset(&p->l[p->n], 0, sizeof p->l[0]);
		p->l[p->n++].tid = tid;
	}
	return &p->l[p->n - 1];
}

static int tl_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	struct bt_html_timeline *tl = ctx;
	int64_t dur = s->dur > 0 ? s->dur : 0, start = floor_us(s->ts), end = floor_us(s->ts + dur);
	int64_t cpu = s->cpu_dur < 0 ? 0 : s->cpu_dur > dur ? dur : s->cpu_dur;
	int64_t tenths = dur ? (cpu * 10 + dur / 2) / dur : 0;

	(void)err;
	if (s->depth < 0 || s->depth > 100000)
		return BT_OK;   /* no stack is that deep; the lane's rows would be */
	pack(lane_of(&tl->part[part], s->tid), end, end - start, s->depth, s->frame_id < 0 ? 0 : s->frame_id,
	     tenths);
	return BT_OK;
}

static int tl_thread(void *ctx, int part, int64_t tid, int64_t n, struct bt_err *err)
{
	struct bt_html_timeline *tl = ctx;

	(void)err;
	lane_of(&tl->part[part], tid)->count = n;
	return BT_OK;
}

struct bt_html_timeline *bt_html_timeline_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_html_timeline));
}

struct bt_slice_tap bt_html_timeline_tap(struct bt_html_timeline *tl)
{
	struct bt_slice_tap t = { NULL, tl_slice, tl_thread, tl };

	return t;
}

static void lane_release(struct bt_html_lane *l)
{
	free(l->buf);
	free(l->depth);
	free(l->first);
	free(l->has);
}

void bt_html_timeline_free(struct bt_html_timeline *tl)
{
	size_t i;
	int k;

	if (!tl)
		return;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < tl->part[k].n; i++)
			lane_release(&tl->part[k].l[i]);
		free(tl->part[k].l);
	}
	free(tl);
}

void bt_html_unpack_init(struct bt_html_unpack *u, const struct bt_html_lane *l)
{
	memset(u, 0, sizeof *u);
	u->l = l;
	u->p = l->buf;
	u->e = l->base_us;
	u->first = bt_xcalloc(l->ndepth + 1, sizeof *u->first);
	u->has = bt_xcalloc(l->ndepth + 1, 1);
}

int bt_html_unpack_next(struct bt_html_unpack *u, struct bt_html_slice *s)
{
	const unsigned char *end = u->l->buf + u->l->len;
	uint64_t v[4];
	int64_t fc = 0;
	int k;

	if (u->p >= end)
		return 0;
	for (k = 0; k < 4; k++)
		u->p = get(u->p, end, &v[k]);
	u->e += unzigzag(v[0]);
	u->d += unzigzag(v[1] / 11);
	if (u->d < 0 || (size_t)u->d + 1 >= u->l->ndepth)
		return 0;   /* cannot be: pack grew ndepth past every depth */
	s->end = u->e;
	s->depth = u->d;
	s->tenths = (int64_t)(v[1] % 11);
	s->frame = (int64_t)v[3];
	/* a parent's start from its first child's, which came before it */
	if (u->d + 1 < (int64_t)u->top && u->has[u->d + 1])
		s->start = u->first[u->d + 1] - unzigzag(v[2]);
	else
		s->start = u->e - (int64_t)v[2];
	child(u->first, u->has, &u->top, (size_t)u->d, s->start, &fc);
	return 1;
}

void bt_html_unpack_release(struct bt_html_unpack *u)
{
	free(u->first);
	free(u->has);
}

/* A copy of l with its slices of at least min_us only. A kept slice's
 * parent lasts as long or longer, so it is kept too. */
static void trim(const struct bt_html_lane *l, int64_t min_us, struct bt_html_lane *out)
{
	struct bt_html_unpack u;
	struct bt_html_slice s;

	memset(out, 0, sizeof *out);
	out->tid = l->tid;
	out->count = l->count;
	bt_html_unpack_init(&u, l);
	while (bt_html_unpack_next(&u, &s))
		if (s.end - s.start >= min_us)
			pack(out, s.end, s.end - s.start, s.depth, s.frame, s.tenths);
	bt_html_unpack_release(&u);
}

/* More slices first, then the lower tid. */
static int lane_cmp(const void *a, const void *b)
{
	const struct bt_html_lane *x = *(const struct bt_html_lane *const *)a;
	const struct bt_html_lane *y = *(const struct bt_html_lane *const *)b;

	if (x->kept != y->kept)
		return x->kept > y->kept ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The shortest duration kept so that at most max are: whole powers of
 * two of us left out, the shortest first. */
static int64_t min_kept(const struct bt_html_lanes *ls, int64_t max)
{
	int64_t hist[64] = { 0 }, n = ls->total;
	size_t i;
	int b;

	for (i = 0; i < ls->n; i++)
		for (b = 0; b < 64; b++)
			hist[b] += ls->v[i]->hist[b];
	for (b = 0; b < 63 && n > max; b++)
		n -= hist[b];
	return b ? (int64_t)1 << (b - 1) : 0;   /* bit length b starts at 2^(b-1) us */
}

void bt_html_lanes_pick(struct bt_html_lanes *ls, const struct bt_html_timeline *t, int64_t main_tid,
			int64_t max, struct bt_html_progress *p)
{
	size_t i, k, cap = 0;

	memset(ls, 0, sizeof *ls);
	for (k = 0; t && k < 2; k++)
		for (i = 0; i < t->part[k].n; i++) {
			BT_GROW(ls->v, ls->n + 1, cap);
			ls->v[ls->n++] = &t->part[k].l[i];
			ls->total += t->part[k].l[i].kept;
		}
	ls->kept = ls->total;
	if (ls->total > max) {
		ls->min_us = min_kept(ls, max);
		ls->trimmed = bt_xcalloc(ls->n, sizeof *ls->trimmed);
		ls->kept = 0;
		if (p)
			p->total += (uint64_t)ls->total;
		for (i = 0; i < ls->n; i++) {
			trim(ls->v[i], ls->min_us, &ls->trimmed[i]);
			if (p)
				bt_html_progress(p, (uint64_t)ls->v[i]->kept);
			ls->v[i] = &ls->trimmed[i];
			ls->kept += ls->trimmed[i].kept;
		}
	}
	if (p)
		p->total += (uint64_t)ls->kept;
	if (ls->n)
		qsort(ls->v, ls->n, sizeof *ls->v, lane_cmp);
	for (i = 0; i < ls->n && ls->v[i]->tid != main_tid; i++)
		;
	for (; i > 0 && i < ls->n; i--) {   /* the main thread first */
		const struct bt_html_lane *m = ls->v[i];
		ls->v[i] = ls->v[i - 1];
		ls->v[i - 1] = m;
	}
}

void bt_html_lanes_release(struct bt_html_lanes *ls)
{
	size_t i;

	for (i = 0; ls->trimmed && i < ls->n; i++)
		lane_release(&ls->trimmed[i]);
	free(ls->trimmed);
	free(ls->v);
	memset(ls, 0, sizeof *ls);
}
