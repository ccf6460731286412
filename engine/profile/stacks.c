/*
 * Self values per thread, message and call path (see stacks.h), taken
 * from the run's profile: its entries are its paths' self values per
 * Looper message, made in preorder as the slices opened (a slice goes to
 * its path's last entry while the message is the same, else to a new one,
 * as a path's slices never nest), each thread's together, threads in tid
 * order. The paths are the profile's, each of one thread: a (thread,
 * path) pair is what a pair of a thread and its frames from the outermost
 * down would be, and the exports only write frames.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/profile/profile_int.h"
#include "engine/profile/stacks.h"

struct bt_stacks_run {
	int64_t *tids;               /* by an entry's ctx, until names are loaded */
};

struct bt_stacks *bt_stacks_new(void)
{
	struct bt_stacks *s = bt_xcalloc(1, sizeof *s);

	s->run = bt_xcalloc(1, sizeof *s->run);
	s->parent = bt_xcalloc(1, sizeof *s->parent);
	s->frame = bt_xcalloc(1, sizeof *s->frame);
	s->npaths = 1;   /* path 0: none */
	return s;
}

static void run_free(struct bt_stacks_run *r)
{
	if (!r)
		return;
	free(r->tids);
	free(r);
}

void bt_stacks_take(struct bt_stacks *s, struct bt_profile *p)
{
	struct bt_stacks_run *r = s->run;
	uint32_t t, i;
	size_t k;

	s->e = p->ent;
	s->n = p->nent;
	s->wide = p->ewide;
	p->ent = NULL;
	p->nent = p->ecap = 0;
	memset(&p->ewide, 0, sizeof p->ewide);
	s->npaths = p->npaths;
	s->parent = bt_xrealloc(s->parent, s->npaths * sizeof *s->parent);
	s->frame = bt_xrealloc(s->frame, s->npaths * sizeof *s->frame);
	for (i = 0; i < p->npaths; i++) {   /* a thread's root is no frame */
		const struct path *x = &p->paths[i];
		s->parent[i] = x->depth > 0 ? x->parent : 0;
		s->frame[i] = x->depth >= 0 ? x->frame : 0;
	}
	r->tids = bt_xcalloc((size_t)p->nthreads + 1, sizeof *r->tids);
	for (t = 0; t < p->nthreads; t++) {
		size_t end = t + 1 < p->nthreads ? p->efirst[t + 1] : s->n;
		r->tids[t] = p->tids[t];
		s->cpu_unknown |= p->paths[p->roots[t]].nocpu;
		for (k = p->efirst[t]; k < end; k++)
			s->e[k].ctx = t;
	}
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

/*
 * Idle time is in no wall value (profile.h); shown, it becomes an
 * "(idle)" frame called from where the thread waited (the idle path
 * itself where that is the "(idle)" frame), an entry of its own beside
 * the entry it came with. Without that frame (no trace's idle) there is
 * nothing to show.
 */
static void show_idle(struct bt_stacks *s)
{
	uint32_t *child, idle_frame = 0;
	size_t i, n = s->n, cap = s->n, pcap = s->npaths;

	for (i = 1; i < s->nframes && !idle_frame; i++)
		if (s->frames[i] && !strcmp(s->frames[i], "(idle)"))
			idle_frame = (uint32_t)i;
	if (!idle_frame)
		return;
	for (i = 0; i < n; i++)   /* the entries added, to grow the array once and exactly */
		if (bt_stacks_value(s, &s->e[i], BT_SV_IDLE) > 0 && s->frame[s->e[i].path] != idle_frame)
			cap++;
	s->e = bt_xrealloc(s->e, (cap + 1) * sizeof *s->e);
	child = bt_xcalloc(s->npaths + 1, sizeof *child);   /* a path's "(idle)" callee */
	for (i = 0; i < n; i++) {
		struct bt_stacks_entry e = s->e[i];
		uint32_t p = e.path;
		int64_t idle = bt_stacks_value(s, &e, BT_SV_IDLE);
		if (idle <= 0)
			continue;
		if (s->frame[p] == idle_frame) {
			bt_narrow_add(&s->wide, &s->e[i].v[BT_SV_WALL], idle);
			continue;
		}
		if (!child[p]) {
			BT_GROW(s->parent, s->npaths + 1, pcap);
			s->frame = bt_xrealloc(s->frame, pcap * sizeof *s->frame);
			s->parent[s->npaths] = p;
			s->frame[s->npaths] = idle_frame;
			child[p] = (uint32_t)s->npaths++;
		}
		memset(e.v, 0, sizeof e.v);
		e.path = child[p];
		bt_narrow_set(&s->wide, &e.v[BT_SV_WALL], idle);
		s->e[s->n++] = e;
	}
	free(child);
}

/* The process's name: the trace's, else its main thread's. */
static int process_name(struct bt_stacks *s, struct bt_db *db, struct bt_err *err)
{
	char name[256];
	size_t i;

	if (bt_db_meta_text(db, "process_name", name, sizeof name, err))
		return err->code;
	if (name[0])
		s->process = bt_xstrdup(name);
	for (i = 0; i < s->nthreads && !s->process; i++)
		if (s->threads[i].is_main && strncmp(s->threads[i].label, "tid ", 4))
			s->process = bt_xstrdup(s->threads[i].label);
	return BT_OK;
}

/* Where the trace tells the wall clock: an iOS database's trace start
 * (µs since the epoch; its timestamps are ns since then). */
static int wall_clock(struct bt_stacks *s, struct bt_db *db, struct bt_err *err)
{
	int64_t start = 0;

	if (bt_db_meta_int(db, "wall_start_ns", 0, &start, err))
		return err->code;
	s->wall_first_ns = start > 0 ? bt_sat_add(start, s->first_ts) : 0;
	return BT_OK;
}

int bt_stacks_load_names(struct bt_stacks *s, struct bt_db *db, struct bt_err *err)
{
	struct bt_stacks_run *r = s->run;
	struct namer l;
	uint32_t slot = 0, ctx = 0;
	int64_t msg = 0, v = 0;
	size_t i;
	int rc;

	memset(&l, 0, sizeof l);
	l.s = s;
	bt_map64_init(&l.tids, 64);
	bt_strmap_init(&l.ctxs);
	rc = load_threads(db, &l, err);
	if (!rc)
		rc = bt_frame_names_load(db, &s->frames, &s->nframes, err);
	if (!rc && s->show_idle)
		show_idle(s);
	for (i = 0; i < s->n && !rc; i++) {   /* runs of one thread and message are the rule */
		struct bt_stacks_entry *e = &s->e[i];
		if (i && e->ctx == slot && e->msg == msg) {
			e->ctx = ctx;
			continue;
		}
		slot = e->ctx;
		msg = e->msg;
		e->ctx = ctx = ctx_of(&l, thread_of(&l, r->tids[slot]), msg);
	}
	if (!rc)
		rc = bt_db_meta_int(db, "first_ts", 0, &s->first_ts, err);
	if (!rc)
		rc = bt_db_meta_int(db, "last_ts", s->first_ts, &s->last_ts, err);
	if (!rc)
		rc = wall_clock(s, db, err);
	if (!rc)
		rc = process_name(s, db, err);
	if (!rc)
		rc = bt_db_meta_int(db, "no_alloc", 0, &v, err);
	s->no_alloc = v != 0;
	if (!rc)
		rc = bt_db_meta_int(db, "no_faults", 0, &v, err);
	s->no_faults = v != 0;
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
	free(s->process);
	free(s->frames);
	free(s->parent);
	free(s->frame);
	free(s->ctx);
	free(s->e);
	bt_wide_release(&s->wide);
	free(s);
}

const char *bt_stacks_frame_name(const struct bt_stacks *s, uint32_t frame)
{
	return frame < s->nframes && s->frames[frame] ? s->frames[frame] : "?";
}
