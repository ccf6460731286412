/*
 * Self values per thread, message and call path (see stacks.h). The slices
 * come in preorder, so the enclosing slice of each is the open one a level
 * up: a slice adds its counters to its own entry and takes them off its
 * parent's, which leaves every entry with self counts, as the calltree has.
 * No hash map of entries: a path remembers its last entry, which the
 * next slice of the path almost always shares (messages are runs of
 * slices), so memory stays at the entries themselves.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "reports/report.h"
#include "engine/db/rows.h"
#include "reports/export/stacks.h"

#define MAX_DEPTH (1 << 20)

/* The open slices of the current thread, by depth. */
struct level {
	int64_t id;
	uint32_t path, entry;
};

/* A path's place in the tree, and its last entry. */
struct pnode {
	uint32_t child, sibling;   /* first callee; next callee of the caller */
	uint32_t ctx, entry;       /* the last entry, and its ctx + 1 (0: none yet) */
};

struct loader {
	struct bt_stacks *s;
	struct bt_map64 tids;    /* tid -> thread index + 1 */
	struct bt_strmap ctxs;   /* (thread, msg) -> ctx index + 1 */
	struct pnode *pn;        /* by path */
	size_t tcap, pcap, ccap, ecap;
	struct level *stack;
	size_t nstack, scap;
};

static uint32_t add_thread(struct loader *l, int64_t tid, const char *name, int is_main)
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

static uint32_t thread_of(struct loader *l, int64_t tid)
{
	uint32_t k = bt_map64_get(&l->tids, (uint64_t)tid);

	return k ? k - 1 : add_thread(l, tid, NULL, 0);
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

static int load_threads(struct bt_db *db, struct loader *l, struct bt_err *err)
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

/* The path of frame called from parent: a walk of parent's callees,
 * which are few. */
static uint32_t path_of(struct loader *l, uint32_t parent, uint32_t frame)
{
	struct bt_stacks *s = l->s;
	uint32_t p;

	for (p = l->pn[parent].child; p && s->frame[p] != frame; p = l->pn[p].sibling)
		;
	if (p)
		return p;
	if (s->npaths == l->pcap) {
		l->pcap *= 2;
		s->parent = bt_xrealloc(s->parent, l->pcap * sizeof *s->parent);
		s->frame = bt_xrealloc(s->frame, l->pcap * sizeof *s->frame);
		l->pn = bt_xrealloc(l->pn, l->pcap * sizeof *l->pn);
	}
	p = (uint32_t)s->npaths++;
	s->parent[p] = parent;
	s->frame[p] = frame;
	memset(&l->pn[p], 0, sizeof l->pn[p]);
	l->pn[p].sibling = l->pn[parent].child;
	l->pn[parent].child = p;
	return p;
}

static uint32_t ctx_of(struct loader *l, uint32_t thread, int64_t msg)
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

/* The entry of (ctx, path): the path's last one if it has the same ctx,
 * else a new one (a path seen again in an earlier message gets a second
 * entry for it; the exports add them up). */
static uint32_t entry_of(struct loader *l, uint32_t ctx, uint32_t path)
{
	struct bt_stacks *s = l->s;
	struct pnode *pn = &l->pn[path];

	if (pn->ctx == ctx + 1)
		return pn->entry;
	BT_GROW(s->e, s->n + 1, l->ecap);
	memset(&s->e[s->n], 0, sizeof s->e[0]);
	s->e[s->n].ctx = ctx;
	s->e[s->n].path = path;
	pn->ctx = ctx + 1;
	pn->entry = (uint32_t)s->n;
	return (uint32_t)s->n++;
}

/* Columns of stacks_slices.sql. */
enum { C_ID, C_TID, C_DEPTH, C_PARENT, C_FRAME, C_MSG, C_SELF, C_SELF_CPU, C_ABYTES, C_AOBJS,
       C_MAJFLT };

/* One slice: its self times and counters to its entry, its counters off
 * its parent's entry. tid, msg and ctx are the previous slice's. */
static int add_slice(struct loader *l, struct bt_rows *r, int64_t *tid, uint32_t *ctx,
		     int64_t *msg, struct bt_err *err)
{
	int64_t id = bt_rows_int(r, C_ID), depth = bt_rows_int(r, C_DEPTH), f = bt_rows_int(r, C_FRAME);
	int64_t parent = bt_rows_type(r, C_PARENT) == BT_ROWS_NULL ? 0 : bt_rows_int(r, C_PARENT);
	int64_t t = bt_rows_int(r, C_TID), m = bt_rows_int(r, C_MSG);
	struct bt_stacks_entry *e;
	uint32_t ppath = 0, k;
	int c;

	if (*ctx == UINT32_MAX || t != *tid)
		l->nstack = 0;   /* another thread's slices */
	if (*ctx == UINT32_MAX || t != *tid || m != *msg) {
		*tid = t;
		*msg = m;
		*ctx = ctx_of(l, thread_of(l, t), m);
	}
	if (depth < 0 || depth >= MAX_DEPTH || f <= 0 || f >= UINT32_MAX)
		return bt_err_set(err, BT_EFORMAT, "slice %" PRId64 ": depth %" PRId64 " or frame %" PRId64
				  " out of range", id, depth, f);
	if (parent) {
		if (depth == 0 || (size_t)depth > l->nstack || l->stack[depth - 1].id != parent)
			return bt_err_set(err, BT_EFORMAT, "slice %" PRId64 ": parent %" PRId64
					  " is not the enclosing slice", id, parent);
		ppath = l->stack[depth - 1].path;
	}
	l->nstack = (size_t)depth;
	BT_GROW(l->stack, l->nstack + 1, l->scap);
	l->stack[l->nstack].id = id;
	l->stack[l->nstack].path = path_of(l, ppath, (uint32_t)f);
	k = l->stack[l->nstack].entry = entry_of(l, *ctx, l->stack[l->nstack].path);
	e = &l->s->e[k];
	e->v[BT_SV_WALL] += bt_rows_int(r, C_SELF);
	e->v[BT_SV_CPU] += bt_rows_int(r, C_SELF_CPU);
	for (c = BT_SV_ABYTES; c < BT_SV__COUNT; c++) {
		int64_t v = bt_rows_int(r, C_ABYTES + c - BT_SV_ABYTES);
		e->v[c] += v;
		if (parent)
			l->s->e[l->stack[depth - 1].entry].v[c] -= v;
	}
	l->nstack++;
	return BT_OK;
}

static int load_slices(struct bt_db *db, struct loader *l, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t tid = 0, msg = 0;
	uint32_t ctx = UINT32_MAX;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_STACKS_SLICES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1)
		if (add_slice(l, r, &tid, &ctx, &msg, err)) {
			rc = -1;
			break;
		}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_stacks_load(struct bt_db *db, struct bt_stacks **out, struct bt_err *err)
{
	struct loader l;
	int rc;

	memset(&l, 0, sizeof l);
	l.s = *out = bt_xcalloc(1, sizeof *l.s);
	bt_map64_init(&l.tids, 64);
	bt_strmap_init(&l.ctxs);
	l.pcap = 1 << 12;   /* path 0: none */
	l.s->parent = bt_xcalloc(l.pcap, sizeof *l.s->parent);
	l.s->frame = bt_xcalloc(l.pcap, sizeof *l.s->frame);
	l.pn = bt_xcalloc(l.pcap, sizeof *l.pn);
	l.s->npaths = 1;
	rc = load_threads(db, &l, err);
	if (!rc)
		rc = bt_frame_names_load(db, &l.s->frames, &l.s->nframes, err);
	if (!rc)
		rc = load_slices(db, &l, err);
	if (!rc)
		rc = bt_db_meta_int(db, "first_ts", 0, &l.s->first_ts, err);
	if (!rc)
		rc = bt_db_meta_int(db, "last_ts", l.s->first_ts, &l.s->last_ts, err);
	name_roots(l.s);
	bt_map64_release(&l.tids);
	bt_strmap_release(&l.ctxs);
	free(l.stack);
	free(l.pn);
	if (rc) {
		bt_stacks_free(l.s);
		*out = NULL;
	}
	return rc;
}

void bt_stacks_free(struct bt_stacks *s)
{
	size_t i;

	if (!s)
		return;
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
