/*
 * Self values per thread, message and call path (see stacks.h), from a
 * tap on the run. Each part of the run keeps its entries as its slices
 * end: a slice's self values go to the entry of its (thread, path) while
 * the path's last entry has the same message, else to a new entry. No hash
 * map of entries: the message of a path's slices rarely changes (messages
 * are runs of slices), so memory stays at the entries themselves.
 *
 * Entries are kept in order of first appearance in preorder (threads by
 * tid, then the id of the slice that made them), as the exports write
 * them; a path's slices never nest, so the entries come out as they would
 * from the slices read in id order. The call paths are the profile's,
 * turned at the end into paths shared by all threads (the same frames
 * from the outermost down), numbered in order of first appearance.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/profile/stacks.h"

/* What one part of the run collected. */
struct part {
	struct bt_stacks_entry *e;   /* ctx: the thread's index in tids; path: from its root */
	int64_t *msg;                /* by entry */
	uint32_t *first;             /* by entry: the id of the slice that made it */
	size_t n, cap;
	int64_t *tids;               /* the part's threads, in order */
	size_t nt, tcap;
	uint32_t *last;              /* by path from the root: its last entry + 1, this thread */
	size_t lcap, lused;          /* last[0, lused) may be set */
	uint32_t ids;                /* 1 + the largest first */
};

struct bt_stacks_run {
	struct part part[2];
	int64_t *tids;               /* by an entry's ctx, until names are loaded */
	int64_t *msg;                /* by entry, until names are loaded */
	size_t nt;
	int done;
};

/* Where a path is in the shared tree: its first callee, the next callee
 * of its caller. */
struct pnode {
	uint32_t child, sibling;
};

struct bt_stacks *bt_stacks_new(void)
{
	struct bt_stacks *s = bt_xcalloc(1, sizeof *s);

	s->run = bt_xcalloc(1, sizeof *s->run);
	return s;
}

static void part_release(struct part *p)
{
	free(p->e);
	free(p->msg);
	free(p->first);
	free(p->tids);
	free(p->last);
	memset(p, 0, sizeof *p);
}

static void run_free(struct bt_stacks_run *r)
{
	if (!r)
		return;
	part_release(&r->part[0]);
	part_release(&r->part[1]);
	free(r->tids);
	free(r->msg);
	free(r);
}

static void new_thread(struct part *p, int64_t tid)
{
	if (p->lused)
		memset(p->last, 0, p->lused * sizeof *p->last);
	p->lused = 0;
	BT_GROW(p->tids, p->nt + 1, p->tcap);
	p->tids[p->nt++] = tid;
}

/* A new entry of path for slice s: its index + 1. */
static uint32_t new_entry(struct part *p, uint32_t path, const struct bt_slice *s)
{
	size_t cap = p->cap;

	BT_GROW(p->e, p->n + 1, p->cap);
	if (p->cap != cap) {
		p->msg = bt_xrealloc(p->msg, p->cap * sizeof *p->msg);
		p->first = bt_xrealloc(p->first, p->cap * sizeof *p->first);
	}
	memset(&p->e[p->n], 0, sizeof p->e[0]);
	p->e[p->n].ctx = (uint32_t)(p->nt - 1);
	p->e[p->n].path = path;
	p->msg[p->n] = s->msg_id;
	p->first[p->n] = (uint32_t)s->id;
	if ((uint32_t)s->id >= p->ids)
		p->ids = (uint32_t)s->id + 1;
	return (uint32_t)++p->n;
}

static int tap_slice(void *ctx, int part, const struct bt_slice *s, uint32_t path,
		     const int64_t self[BT_PROFILE_NCTR], struct bt_err *err)
{
	struct bt_stacks *st = ctx;
	struct part *p = &st->run->part[part];
	struct bt_stacks_entry *e;
	uint32_t k;

	if (s->id <= 0 || s->id >= UINT32_MAX)
		return bt_err_set(err, BT_EFORMAT, "slice id %" PRId64 " out of the stacks' range", s->id);
	if (!p->nt || p->tids[p->nt - 1] != s->tid)
		new_thread(p, s->tid);
	if (path >= p->lcap)
		p->last = bt_grow_zero(p->last, sizeof *p->last, &p->lcap, path);
	if (path >= p->lused)
		p->lused = (size_t)path + 1;
	k = p->last[path];
	if (!k || p->msg[k - 1] != s->msg_id)
		k = p->last[path] = new_entry(p, path, s);
	e = &p->e[k - 1];
	e->v[BT_SV_WALL] += s->self_dur;
	e->v[BT_SV_CPU] += s->self_cpu_dur;
	e->v[BT_SV_ABYTES] += self[0];   /* the profile's order: bytes, objects, faults */
	e->v[BT_SV_AOBJS] += self[1];
	e->v[BT_SV_MAJFLT] += self[2];
	return BT_OK;
}

/* A part's entries in order of first appearance: placed by the id of the
 * slice that made them (ids are unique within a part). */
static uint32_t *part_order(const struct part *p)
{
	uint32_t *at = bt_xcalloc((size_t)p->ids + 1, sizeof *at), *ord = bt_xcalloc(p->n + 1, sizeof *ord);
	size_t i, k = 0;

	for (i = 0; i < p->n; i++)
		at[p->first[i]] = (uint32_t)i + 1;
	for (i = 0; i < (size_t)p->ids; i++)
		if (at[i])
			ord[k++] = at[i] - 1;
	free(at);
	return ord;
}

/* The shared path of frame under parent: a walk of parent's callees,
 * which are few. */
static uint32_t path_of(struct bt_stacks *s, struct pnode **pn, size_t *pcap, uint32_t parent,
			uint32_t frame)
{
	uint32_t p;

	for (p = (*pn)[parent].child; p && s->frame[p] != frame; p = (*pn)[p].sibling)
		;
	if (p)
		return p;
	if (s->npaths == *pcap) {
		*pcap *= 2;
		s->parent = bt_xrealloc(s->parent, *pcap * sizeof *s->parent);
		s->frame = bt_xrealloc(s->frame, *pcap * sizeof *s->frame);
		*pn = bt_xrealloc(*pn, *pcap * sizeof **pn);
	}
	p = (uint32_t)s->npaths++;
	s->parent[p] = parent;
	s->frame[p] = frame;
	(*pn)[p].child = 0;
	(*pn)[p].sibling = (*pn)[parent].child;
	(*pn)[parent].child = p;
	return p;
}

/* Turning the profile's paths (by thread) into shared ones. */
struct mapper {
	struct bt_stacks *s;
	const struct bt_profile *prof;
	uint32_t *map;          /* by profile path: its shared path, 0 until known */
	struct pnode *pn;       /* by shared path */
	size_t pcap;
	uint32_t *chain;
	size_t ccap;
};

/* The shared path of profile path pp of the thread rooted at root; its
 * callers first, which an earlier entry has usually mapped already. */
static uint32_t map_path(struct mapper *m, uint32_t pp, uint32_t root)
{
	uint32_t q = pp, sp, parent;
	size_t n = 0;

	while (q != root && !m->map[q]) {
		BT_GROW(m->chain, n + 1, m->ccap);
		m->chain[n++] = q;
		bt_profile_path_frame(m->prof, q, &parent);
		q = parent;
	}
	sp = q == root ? 0 : m->map[q];
	while (n--) {
		q = m->chain[n];
		sp = m->map[q] = path_of(m->s, &m->pn, &m->pcap, sp, bt_profile_path_frame(m->prof, q, &parent));
	}
	return sp;
}

/* The next entry in order among the parts' (each in order of first
 * appearance; their threads are disjoint): the part, or -1 at the end. */
static int next_part(const struct part *p, uint32_t *const ord[2], const size_t at[2])
{
	int have0 = at[0] < p[0].n, have1 = at[1] < p[1].n;

	if (have0 && have1)
		return p[0].tids[p[0].e[ord[0][at[0]]].ctx] < p[1].tids[p[1].e[ord[1][at[1]]].ctx] ? 0 : 1;
	return have0 ? 0 : have1 ? 1 : -1;
}

/* Move entry k of part p to the end of the final list. */
static int take(struct mapper *m, struct bt_stacks_run *r, const struct part *p, uint32_t k,
		size_t *ti, uint32_t *root, struct bt_err *err)
{
	struct bt_stacks *s = m->s;
	const struct bt_stacks_entry *e = &p->e[k];
	int64_t tid = p->tids[e->ctx], ptid = 0;
	uint32_t first = 0, end = 0;

	if (!r->nt || r->tids[r->nt - 1] != tid) {   /* a thread's entries come together */
		while (bt_profile_thread_at(m->prof, *ti, &ptid, &first, &end) && ptid != tid)
			++*ti;
		if (ptid != tid || !first)
			return bt_err_set(err, BT_EFORMAT, "slices of thread %" PRId64 " are not in the profile", tid);
		*root = first;
		r->tids[r->nt++] = tid;
	}
	s->e[s->n] = *e;
	s->e[s->n].ctx = (uint32_t)(r->nt - 1);
	s->e[s->n].path = map_path(m, *root + e->path, *root);
	r->msg[s->n++] = p->msg[k];
	return BT_OK;
}

/* The run is over: the parts' entries in one list, in order, with
 * shared paths. */
static int tap_done(void *ctx, const struct bt_profile *prof, struct bt_err *err)
{
	struct bt_stacks *s = ctx;
	struct bt_stacks_run *r = s->run;
	struct part *p = r->part;
	struct mapper m = { s, prof, NULL, NULL, 1 << 12, NULL, 0 };
	uint32_t *ord[2] = { part_order(&p[0]), part_order(&p[1]) }, root = 0;
	size_t at[2] = { 0, 0 }, ti = 0, total = p[0].n + p[1].n;
	int w, rc = BT_OK;

	m.map = bt_xcalloc((prof ? (size_t)bt_profile_npaths(prof) : 0) + 2, sizeof *m.map);
	m.pn = bt_xcalloc(m.pcap, sizeof *m.pn);
	s->parent = bt_xcalloc(m.pcap, sizeof *s->parent);
	s->frame = bt_xcalloc(m.pcap, sizeof *s->frame);
	s->npaths = 1;   /* path 0: none */
	s->e = bt_xcalloc(total + 1, sizeof *s->e);
	r->msg = bt_xcalloc(total + 1, sizeof *r->msg);
	r->tids = bt_xcalloc(p[0].nt + p[1].nt + 1, sizeof *r->tids);
	while (!rc && (w = next_part(p, ord, at)) >= 0)
		rc = take(&m, r, &p[w], ord[w][at[w]++], &ti, &root, err);
	part_release(&p[0]);
	part_release(&p[1]);
	free(ord[0]);
	free(ord[1]);
	free(m.map);
	free(m.pn);
	free(m.chain);
	r->done = 1;
	return rc;
}

struct bt_slice_tap bt_stacks_tap(struct bt_stacks *s)
{
	struct bt_slice_tap t = { NULL, tap_slice, tap_done, s };

	return t;
}

/* Threads and Looper messages of the entries, numbered as they appear. */
struct namer {
	struct bt_stacks *s;
	struct bt_map64 tids;    /* tid -> thread index + 1 */
	struct bt_strmap ctxs;   /* (thread, msg) -> ctx index + 1 */
	size_t tcap, ccap;
};

static uint32_t add_thread(struct namer *l, int64_t tid, const char *name, int is_main)
{
	struct bt_stacks *s = l->s;
	struct bt_stacks_thread *t;
	struct bt_buf b = BT_BUF_INIT;

	BT_GROW(s->threads, s->nthreads + 1, l->tcap);
	t = &s->threads[s->nthreads];
	if (name)
		bt_buf_adds(&b, name);
	else
		bt_buf_addf(&b, "tid %" PRId64, tid);
	t->tid = tid;
	t->label = bt_buf_detach(&b, NULL);
	t->root = NULL;
	t->is_main = is_main;
	bt_map64_put(&l->tids, (uint64_t)tid, (uint32_t)++s->nthreads);
	return (uint32_t)(s->nthreads - 1);
}

static uint32_t thread_of(struct namer *l, int64_t tid)
{
	uint32_t k = bt_map64_get(&l->tids, (uint64_t)tid);

	return k ? k - 1 : add_thread(l, tid, NULL, 0);
}

static uint32_t ctx_of(struct namer *l, uint32_t thread, int64_t msg)
{
	struct bt_stacks *s = l->s;
	unsigned char key[12];
	uint32_t c;

	memcpy(key, &thread, 4);
	memcpy(key + 4, &msg, 8);
	if ((c = bt_strmap_get(&l->ctxs, (const char *)key, sizeof key)) != 0)
		return c - 1;
	BT_GROW(s->ctx, s->nctx + 1, l->ccap);
	s->ctx[s->nctx].thread = thread;
	s->ctx[s->nctx].msg = msg;
	bt_strmap_put(&l->ctxs, (const char *)key, sizeof key, (uint32_t)++s->nctx);
	return (uint32_t)(s->nctx - 1);
}

/* Threads that share a label get their tid in their root frame. */
static void name_roots(struct bt_stacks *s)
{
	size_t i, j;

	for (i = 0; i < s->nthreads; i++) {
		struct bt_stacks_thread *t = &s->threads[i];
		struct bt_buf b = BT_BUF_INIT;
		int shared = 0;
		for (j = 0; j < s->nthreads && !shared; j++)
			shared = j != i && !strcmp(s->threads[j].label, t->label);
		bt_buf_adds(&b, t->label);
		if (shared)
			bt_buf_addf(&b, " (tid %" PRId64 ")", t->tid);
		t->root = bt_buf_detach(&b, NULL);
	}
}

static int load_threads(struct bt_db *db, struct namer *l, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_STACKS_THREADS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1)
		if (!bt_map64_get(&l->tids, (uint64_t)bt_rows_int(r, 0)))
			add_thread(l, bt_rows_int(r, 0), bt_rows_text(r, 1, NULL), bt_rows_int(r, 2) != 0);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_stacks_load_names(struct bt_stacks *s, struct bt_db *db, struct bt_err *err)
{
	struct bt_stacks_run *r = s->run;
	struct namer l;
	size_t i;
	int rc;

	if (!r->done)   /* the run made no slices: nothing was tapped */
		tap_done(s, NULL, err);
	memset(&l, 0, sizeof l);
	l.s = s;
	bt_map64_init(&l.tids, 64);
	bt_strmap_init(&l.ctxs);
	rc = load_threads(db, &l, err);
	if (!rc)
		rc = bt_frame_names_load(db, &s->frames, &s->nframes, err);
	for (i = 0; i < s->n && !rc; i++)
		s->e[i].ctx = ctx_of(&l, thread_of(&l, r->tids[s->e[i].ctx]), r->msg[i]);
	if (!rc)
		rc = bt_db_meta_int(db, "first_ts", 0, &s->first_ts, err);
	if (!rc)
		rc = bt_db_meta_int(db, "last_ts", s->first_ts, &s->last_ts, err);
	name_roots(s);
	bt_map64_release(&l.tids);
	bt_strmap_release(&l.ctxs);
	run_free(s->run);
	s->run = NULL;
	return rc;
}

void bt_stacks_free(struct bt_stacks *s)
{
	size_t i;

	if (!s)
		return;
	run_free(s->run);
	for (i = 0; i < s->nthreads; i++) {
		free(s->threads[i].label);
		free(s->threads[i].root);
	}
	for (i = 0; i < s->nframes; i++)
		free(s->frames[i]);
	free(s->threads);
	free(s->frames);
	free(s->parent);
	free(s->frame);
	free(s->ctx);
	free(s->e);
	free(s);
}

const char *bt_stacks_frame_name(const struct bt_stacks *s, uint32_t frame)
{
	return frame < s->nframes && s->frames[frame] ? s->frames[frame] : "?";
}
