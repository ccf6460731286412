/*
 * Wait chains (chain.h). Hop 1 is the waker over the whole wait; a hop's
 * blocking is its thread's blocking records inside the hop's interval
 * (the longest one gives the kind and the stack); the next hop is the
 * thread that ended that blocking, over the part of the interval it covers.
 *
 * What the records cannot tell. btrace 3.0 writes waker records (unpark,
 * notify, unlock) only for the main thread's waits (spec §4.6), so a
 * worker's own monitor, wait, park, binder or GC wait says nothing of who
 * ended it. A later hop is found only where a record names the releaser:
 * an unlock record of the main thread's wait (same key) made by another
 * thread while the waker was blocked entering a monitor (the waker queued
 * on that monitor behind it, then took it before the main thread), or a
 * blocking edge of the waker itself (formats with lock ids). Elsewhere the
 * chain ends at the hop that blocked, with the kind, the time and the stack
 * ("blocked in monitor at ... for N ms of the wait"), the releaser unknown.
 * A blocking record the rate limiter dropped (spec Q-8) hides the hop's
 * blocking; a hop's methods come from its slices, so from its samples.
 * The chain is built from the captured records and the slices as they
 * stream by, never from the slices table (deferred on a scratch run).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/search.h"
#include "engine/db/rows.h"
#include "engine/db/rtype.h"
#include "engine/recon/capture.h"
#include "engine/recon/chain.h"

/* A blocking interval of a non-main thread: a duration record, or a wait
 * whose edge names its waker (releaser). */
struct blk {
	int64_t tid, ts, end, node, releaser;
	const char *kind;
	int32_t type;
};

struct wake {
	int64_t key, at, tid;
	int32_t type;
};

struct hop {
	int64_t edge, tid, ts, end, blocked, node, last_ts, last_node;
	const char *kind;
	int n;
};

/* A slice that overlaps a hop's interval (by how much: the hop says). */
struct contrib {
	uint32_t hop, depth, frame;
	uint32_t at;              /* the hop's position among its thread's (from the part's lo) */
	int64_t ts, end;
};

/* A frame's overlap with a hop, its activations' summed. */
struct total {
	uint32_t depth, frame;
	int64_t ov;
};

/* One of a hop's top methods, as stored. */
struct top {
	uint32_t hop, rank, frame;
	int64_t ov;
};

/* What one part of the run collects; its threads come one after the
 * other, so the last thread's run of hops is kept. A hop's slices are
 * its thread's: when the part's next thread begins, the last one's
 * contributions are all in, and are folded into its hops' tops. */
struct part {
	struct contrib *v;        /* the current thread's */
	size_t n, cap;
	struct top *top;          /* the threads' before */
	size_t ntop, tcap;
	int64_t tid;
	size_t lo, hi;   /* tid's positions in order */
	size_t cur;      /* the first of them ending after the last slice's end */
};

struct bt_chain {
	struct hop *h;
	size_t nh, hcap;
	uint32_t *order;          /* hop indices by (tid, ts) */
	uint32_t *group_end;      /* by position in order: end of its thread's run */
	int64_t *end;             /* by position in order: the hop's end */
	struct bt_map64 by_tid;   /* tid -> 1 + its first position in order */
	struct part part[2];
};

/* What the build reads, freed when the hops are made. */
struct src {
	struct blk *b;
	size_t nb, bcap;
	struct wake *w;
	size_t nw;
	int64_t main_tid;
};

static const char *kind_of(int32_t type)
{
	switch (type) {
	case 2: return "binder";
	case 6: return "wait";
	case 7: return "park";
	case 8: return "monitor";
	case 11: return "gc";
	case 12: return "mutex";
	default: return "lock";
	}
}

static int blk_cmp(const void *a, const void *b)
{
	const struct blk *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int wake_cmp(const void *a, const void *b)
{
	const struct wake *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The other threads' blocking records and every waker record. */
static void collect(struct src *s, const struct bt_capture *cap)
{
	size_t k, wcap = 0;

	for (k = 0; k < cap->ends.n; k++) {   /* point records, most of them, have no end */
		const struct bt_csample *r = &cap->s[cap->ends.at[k]];
		int64_t end_ts = cap->ends.v[k][0];
		if (r->type < 2 || (r->type > 12 && r->type < 17) || end_ts <= 0)
			continue;
		if (bt_rtype_is_blocking(r->type) && r->tid != s->main_tid && end_ts > r->ts) {
			BT_GROW(s->b, s->nb + 1, s->bcap);
			s->b[s->nb++] = (struct blk){ r->tid, r->ts, end_ts, r->node_id, 0,
						      kind_of(r->type), r->type };
		} else if (bt_rtype_is_waker(r->type)) {
			BT_GROW(s->w, s->nw + 1, wcap);
			s->w[s->nw++] = (struct wake){ r->ts, end_ts, r->tid, r->type };
		}
	}
}

/* The first block of tid that ends after lo (blocks of a thread do not
 * overlap, so their ends are sorted too). */
static size_t first_block(const struct src *s, int64_t tid, int64_t lo)
{
	size_t a = 0, b = s->nb;

	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (s->b[m].tid < tid || (s->b[m].tid == tid && s->b[m].end <= lo))
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The releaser of monitor block k: the latest unlock of the main wait
 * (key) by another thread inside the block, not already on the chain. */
static int64_t unlocker(const struct src *s, const struct blk *k, int64_t key,
			const int64_t *seen, int nseen)
{
	size_t a = 0, b = s->nw;
	int i;

	while (a < b) {   /* first wake after (key, k->end) */
		size_t m = a + (b - a) / 2;
		if (s->w[m].key < key || (s->w[m].key == key && s->w[m].at <= k->end))
			a = m + 1;
		else
			b = m;
	}
	while (a-- > 0 && s->w[a].key == key && s->w[a].at >= k->ts) {
		if (s->w[a].type != 23)
			continue;
		for (i = 0; i < nseen && seen[i] != s->w[a].tid; i++)
			;
		if (i == nseen)
			return s->w[a].tid;
	}
	return 0;
}

/* Hop h's own blocking in its interval: its time, and the longest
 * block for the kind and the stack; NULL if none. */
static const struct blk *blocking(const struct src *s, struct hop *h)
{
	const struct blk *best = NULL;
	int64_t most = 0;
	size_t i;

	for (i = first_block(s, h->tid, h->ts); i < s->nb && s->b[i].tid == h->tid; i++) {
		const struct blk *k = &s->b[i];
		int64_t lo = k->ts > h->ts ? k->ts : h->ts, hi = k->end < h->end ? k->end : h->end;
		if (k->ts >= h->end)
			break;
		if (hi <= lo)
			continue;
		h->blocked += hi - lo;
		if (hi - lo > most) {
			most = hi - lo;
			best = k;
		}
	}
	if (best) {
		h->kind = best->kind;
		h->node = best->node;
	}
	return best;
}

/* The thread that ended a block of hop h inside its interval, the latest
 * such block first (*which); 0 if no record names one. */
static int64_t releaser(const struct src *s, struct hop *h, int64_t key, const int64_t *seen,
			int nseen, const struct blk **which)
{
	size_t i, first = first_block(s, h->tid, h->ts), last = first;
	int64_t tid;
	int j;

	while (last < s->nb && s->b[last].tid == h->tid && s->b[last].ts < h->end)
		last++;
	for (i = last; i-- > first;) {
		const struct blk *k = &s->b[i];
		tid = k->releaser;
		for (j = 0; tid && j < nseen && seen[j] != tid; j++)
			;
		if (tid && j < nseen)
			tid = 0;   /* a cycle: not a next hop */
		if (!tid && k->type == 8)
			tid = unlocker(s, k, key, seen, nseen);
		if (tid) {
			*which = k;
			h->kind = k->kind;   /* the blocking the next hop explains */
			h->node = k->node;
			return tid;
		}
	}
	return 0;
}

static struct hop *add_hop(struct bt_chain *c, int64_t edge, int n, int64_t tid, int64_t ts,
			   int64_t end)
{
	struct hop *h;

	BT_GROW(c->h, c->nh + 1, c->hcap);
	h = &c->h[c->nh++];
	memset(h, 0, sizeof *h);
	h->edge = edge;
	h->n = n;
	h->tid = tid;
	h->ts = ts;
	h->end = end;
	h->last_ts = INT64_MIN;
	return h;
}

/* The chain of main-thread wait [ts, end] woken by waker; key is its
 * begin, as the waker records name it. */
static void walk(struct bt_chain *c, const struct src *s, int64_t edge, int64_t ts, int64_t end,
		 int64_t waker)
{
	int64_t seen[BT_CHAIN_DEPTH + 1], tid = waker, key = ts;
	int n;

	seen[0] = s->main_tid;
	for (n = 1; n <= BT_CHAIN_DEPTH; n++) {
		struct hop *h = add_hop(c, edge, n, tid, ts, end);
		const struct blk *k = NULL;
		seen[n] = tid;
		if (!blocking(s, h))
			break;
		tid = releaser(s, h, key, seen, n + 1, &k);
		if (!tid)
			break;
		ts = k->ts > ts ? k->ts : ts;
		end = k->end < end ? k->end : end;
	}
}

/* Columns of wait_chain_edges.sql. */
enum { E_ID, E_WAITER, E_SAMPLE, E_TS, E_DUR, E_WAKER };

struct root {
	int64_t id, waiter, ts, end, waker;
};

/* The waits with a waker: the main thread's into *roots, the others'
 * (lock-id formats) become blocks that name their releaser. */
static int read_edges(struct src *s, struct bt_db *db, struct root **roots, size_t *nroots,
		      struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_WAIT_CHAIN_EDGES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct root e = { bt_rows_int(r, E_ID), bt_rows_int(r, E_WAITER), bt_rows_int(r, E_TS),
				  0, bt_rows_int(r, E_WAKER) };
		e.end = e.ts + bt_rows_int(r, E_DUR);
		if (e.waiter == s->main_tid) {
			BT_GROW(*roots, *nroots + 1, cap);
			(*roots)[(*nroots)++] = e;
		} else if (e.end > e.ts && e.waker != e.waiter) {
			BT_GROW(s->b, s->nb + 1, s->bcap);
			s->b[s->nb++] = (struct blk){ e.waiter, e.ts, e.end, 0, e.waker, "lock", 0 };
		}
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static const struct bt_chain *sort_ctx;

static int hop_cmp(const void *a, const void *b)
{
	const struct hop *x = &sort_ctx->h[*(const uint32_t *)a], *y = &sort_ctx->h[*(const uint32_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* order and by_tid: a thread's hops by start, for the slices and samples. */
static void index_hops(struct bt_chain *c)
{
	size_t i;

	c->order = bt_xmalloc(c->nh * sizeof *c->order);
	for (i = 0; i < c->nh; i++)
		c->order[i] = (uint32_t)i;
	sort_ctx = c;
	qsort(c->order, c->nh, sizeof *c->order, hop_cmp);
	sort_ctx = NULL;
	bt_map64_init(&c->by_tid, 64);
	c->group_end = bt_xmalloc(c->nh * sizeof *c->group_end);
	c->end = bt_xmalloc(c->nh * sizeof *c->end);
	for (i = 0; i < c->nh; i++)
		c->end[i] = c->h[c->order[i]].end;
	c->part[0].tid = c->part[1].tid = -1;
	for (i = c->nh; i-- > 0;) {
		int64_t tid = c->h[c->order[i]].tid;
		int last = i + 1 == c->nh || c->h[c->order[i + 1]].tid != tid;
		c->group_end[i] = last ? (uint32_t)i + 1 : c->group_end[i + 1];
		bt_map64_put(&c->by_tid, (uint64_t)tid, (uint32_t)i + 1);
	}
}

/* Positions in order of tid's hops: [*lo, *hi), empty if none. */
static void hops_of(const struct bt_chain *c, int64_t tid, size_t *lo, size_t *hi)
{
	uint32_t at = bt_map64_get(&c->by_tid, (uint64_t)tid);

	*lo = at ? at - 1 : 0;
	*hi = at ? c->group_end[at - 1] : 0;
}

/* Position of the first hop in [a, b) that ends after t, or b. */
static size_t first_hop(const struct bt_chain *c, size_t a, size_t b, int64_t t)
{
	while (a < b) {   /* a thread's hops do not overlap: ends sorted too */
		size_t m = a + (b - a) / 2;
		if (c->end[m] <= t)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

#define RECENT 8   /* threads whose place in their hops is kept (most traces have fewer) */

/* A hop that did not block gets the stack of its last sample inside. A
 * thread's samples come in time order, so its place in its hops only
 * moves on: kept for the threads seen last, searched again when a sample
 * goes back in time or its thread is not among them. */
static void last_samples(struct bt_chain *c, const struct bt_capture *cap)
{
	struct { int64_t tid, ts; size_t lo, hi, k; } recent[RECENT];
	size_t i, k, n = 0, next = 0;

	for (i = 0; i < cap->n; i++) {
		const struct bt_csample *r = &cap->s[i];
		size_t j, hi;
		for (j = 0; j < n && recent[j].tid != r->tid; j++)
			;
		if (j == n) {   /* not among them: in the place of the oldest */
			j = n < RECENT ? n++ : next++ % RECENT;
			recent[j].tid = r->tid;
			hops_of(c, r->tid, &recent[j].lo, &recent[j].hi);
			recent[j].k = first_hop(c, recent[j].lo, recent[j].hi, r->ts - 1);
		} else if (r->ts < recent[j].ts) {
			recent[j].k = first_hop(c, recent[j].lo, recent[j].hi, r->ts - 1);
		} else {
			while (recent[j].k < recent[j].hi && c->end[recent[j].k] <= r->ts - 1)
				recent[j].k++;
		}
		recent[j].ts = r->ts;
		k = recent[j].k;
		hi = recent[j].hi;
		if (k < hi) {
			struct hop *h = &c->h[c->order[k]];
			if (h->ts <= r->ts && r->ts >= h->last_ts) {
				h->last_ts = r->ts;
				h->last_node = r->node_id;
			}
		}
	}
	for (i = 0; i < c->nh; i++)
		if (!c->h[i].kind)
			c->h[i].node = c->h[i].last_node;
}

int bt_chain_new(struct bt_chain **out, const struct bt_capture *cap, struct bt_db *db,
		 struct bt_err *err)
{
	struct src s = { NULL, 0, 0, NULL, 0, 0 };
	struct root *roots = NULL;
	struct bt_chain *c;
	size_t nroots = 0, i;

	*out = NULL;
	if (bt_db_main_tid(db, &s.main_tid, err))
		return err->code;
	collect(&s, cap);
	if (read_edges(&s, db, &roots, &nroots, err) || !nroots) {
		free(s.b);
		free(s.w);
		free(roots);
		return err->code;
	}
	if (s.nb)   /* qsort wants a non-NULL array even when empty */
		qsort(s.b, s.nb, sizeof *s.b, blk_cmp);
	if (s.nw)
		qsort(s.w, s.nw, sizeof *s.w, wake_cmp);
	c = bt_xcalloc(1, sizeof *c);
	for (i = 0; i < nroots; i++)
		walk(c, &s, roots[i].id, roots[i].ts, roots[i].end, roots[i].waker);
	free(s.b);
	free(s.w);
	free(roots);
	index_hops(c);
	last_samples(c, cap);
	*out = c;
	return BT_OK;
}

/* How much of [ts, end) is inside the hop's interval (<= 0: none). */
static int64_t overlap(const struct hop *h, int64_t ts, int64_t end)
{
	return (h->end < end ? h->end : end) - (h->ts > ts ? h->ts : ts);
}

/* Slice s (ending at end) against the hop at position k. */
static void add(struct bt_chain *c, struct part *p, size_t k, const struct bt_slice *s, int64_t end)
{
	if (overlap(&c->h[c->order[k]], s->ts, end) <= 0)
		return;
	BT_GROW(p->v, p->n + 1, p->cap);
	p->v[p->n++] = (struct contrib){ c->order[k], (uint32_t)s->depth, (uint32_t)s->frame_id, (uint32_t)(k - p->lo),
					 s->ts, end };
}

static void fold_part(struct bt_chain *c, struct part *p);

void bt_chain_slice(struct bt_chain *c, int part, const struct bt_slice *s)
{
	int64_t end = s->ts + s->dur;
	struct part *p;
	size_t k;

	if (!c || s->dur <= 0)
		return;
	p = &c->part[part ? 1 : 0];
	if (p->tid != s->tid) {
		fold_part(c, p);
		p->tid = s->tid;
		hops_of(c, s->tid, &p->lo, &p->hi);
		p->cur = p->lo;
	}
	/* a thread's slices come as they end: the cursor only moves on */
	while (p->cur < p->hi && c->end[p->cur] <= end)
		p->cur++;
	if (p->cur < p->hi)
		add(c, p, p->cur, s, end);
	for (k = p->cur; k-- > p->lo && c->end[k] > s->ts;)
		add(c, p, k, s, end);
}

/* Within a hop's: by frame, start, and the longest first: an activation
 * nested in one of the same frame (recursion) follows it and is skipped. */
static int contrib_cmp(const void *a, const void *b)
{
	const struct contrib *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end;
}

/* Most overlap first; ties: leaf-most, then the lower frame id. */
static int total_cmp(const void *a, const void *b)
{
	const struct total *x = a, *y = b;

	if (x->ov != y->ov)
		return x->ov > y->ov ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Fold v[0..n) (hop h's, sorted) into per-frame totals t, outermost
 * activations only; returns their number. */
static size_t fold(const struct contrib *v, size_t n, const struct hop *h, struct total *t)
{
	size_t i, m = 0;
	int64_t cover = INT64_MIN;

	for (i = 0; i < n; i++) {
		int64_t ov = overlap(h, v[i].ts, v[i].end);
		if (m && t[m - 1].frame == v[i].frame) {
			if (v[i].ts < cover)
				continue;
			t[m - 1].ov += ov;
			if (v[i].depth > t[m - 1].depth)
				t[m - 1].depth = v[i].depth;
		} else {
			t[m++] = (struct total){ v[i].depth, v[i].frame, ov };
		}
		cover = v[i].end;
	}
	return m;
}

/* By hop, then rank: the order the tops are stored in. */
static int top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	if (x->hop != y->hop)
		return x->hop < y->hop ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

static size_t hop_at(const void *rec, const void *ctx)
{
	(void)ctx;
	return ((const struct contrib *)rec)->at;
}

/* The part's contributions grouped by hop, in the order of its thread's
 * hops (a counting sort: linear where one sort of them all was most of
 * the chains' time), each hop's then sorted (a few). */
static void group_by_hop(struct part *p)
{
	struct contrib *v = bt_xmalloc(p->n * sizeof *v);
	size_t i, j;

	bt_sort_by_key(v, p->v, p->n, sizeof *v, p->hi - p->lo, hop_at, NULL);
	for (i = 0; i < p->n; i = j) {
		for (j = i + 1; j < p->n && v[j].at == v[i].at; j++)
			;
		bt_sort_unless_sorted(v + i, j - i, sizeof *v, contrib_cmp);
	}
	free(p->v);
	p->v = v;
	p->cap = p->n;
}

/* The part's contributions so far into its hops' tops (bt_chain_store
 * orders them); none left. */
static void fold_part(struct bt_chain *c, struct part *p)
{
	struct total *t = NULL;
	size_t i, j, k, m, tcap = 0;

	if (p->n)
		group_by_hop(p);
	for (i = 0; i < p->n; i = j) {
		for (j = i; j < p->n && p->v[j].hop == p->v[i].hop; j++)
			;
		BT_GROW(t, j - i, tcap);
		m = fold(p->v + i, j - i, &c->h[p->v[i].hop], t);
		qsort(t, m, sizeof *t, total_cmp);
		for (k = 0; k < m && k < BT_CHAIN_METHODS; k++) {
			BT_GROW(p->top, p->ntop + 1, p->tcap);
			p->top[p->ntop++] = (struct top){ p->v[i].hop, (uint32_t)k + 1, t[k].frame, t[k].ov };
		}
	}
	free(t);
	p->n = 0;
}

static int store_hop(struct bt_db *db, const struct hop *h, struct bt_err *err)
{
	if (h->node)
		return bt_db_exec(db, BT_SQL_INSERT_WAIT_CHAIN, err, "iiiiitii", h->edge, (int64_t)h->n,
				  h->tid, h->ts, h->end - h->ts, h->kind, h->blocked, h->node);
	return bt_db_exec(db, BT_SQL_INSERT_WAIT_CHAIN, err, "iiiiitin", h->edge, (int64_t)h->n,
			  h->tid, h->ts, h->end - h->ts, h->kind, h->blocked);
}

int bt_chain_store(struct bt_chain *c, struct bt_db *db, struct bt_err *err)
{
	struct part *a, *b;
	size_t i;
	int rc = BT_OK;

	if (!c)
		return BT_OK;
	for (i = 0; i < c->nh && !rc; i++)
		rc = store_hop(db, &c->h[i], err);
	a = &c->part[0];
	b = &c->part[1];
	fold_part(c, a);   /* each part's last thread */
	fold_part(c, b);
	BT_GROW(a->top, a->ntop + b->ntop + 1, a->tcap);
	if (b->ntop)
		memcpy(a->top + a->ntop, b->top, b->ntop * sizeof *b->top);
	a->ntop += b->ntop;
	b->ntop = 0;
	qsort(a->top, a->ntop, sizeof *a->top, top_cmp);
	for (i = 0; i < a->ntop && !rc; i++) {
		const struct hop *h = &c->h[a->top[i].hop];
		rc = bt_db_exec(db, BT_SQL_INSERT_WAIT_CHAIN_METHOD, err, "iiiii", h->edge, (int64_t)h->n,
				(int64_t)a->top[i].rank, (int64_t)a->top[i].frame, a->top[i].ov);
	}
	return rc;
}

void bt_chain_free(struct bt_chain *c)
{
	if (!c)
		return;
	free(c->h);
	free(c->order);
	free(c->group_end);
	free(c->end);
	if (c->by_tid.slots)
		bt_map64_release(&c->by_tid);
	free(c->part[0].v);
	free(c->part[1].v);
	free(c->part[0].top);
	free(c->part[1].top);
	free(c);
}
