/*
 * Slice reconstruction driver: turns the captured records into upstream's
 * items (format spec §7: duration records give a begin and an end item,
 * v5 wakers become points at their wake-up, kFlush spans are synthesised,
 * frames are filtered and GC/monitor get synthetic leaves), links wakers
 * by begin time as upstream does, and keeps them per thread, sorted
 * stably by time, so the policy can be run over them whenever slices are
 * wanted (bt_slicer_run).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/search.h"
#include "engine/profile/profile.h"
#include "engine/db/rows.h"
#include "engine/db/rtype.h"
#include "engine/recon/slice_int.h"

static const char *const blacklist[] = {
	"com.android.internal.os.ZygoteInit.main(java.lang.String[])",
	"com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run()",
	"java.lang.reflect.Method.invoke(java.lang.Object, java.lang.Object[])",
	"android.app.ActivityThread.main(java.lang.String[])",
};

/* Upstream's synthetic leaf frames, with their pseudo-pointers and parts. */
static const struct {
	int type;
	uint64_t address;
	const char *name, *cls, *method;
} synthetic[] = {
	{ 11, 0x7FFFFFFFFFFFFFFFULL, "void Heap.WaitForGcToCompleteLocked()", "Heap",
	  "WaitForGcToCompleteLocked" },
	{ 8, 0x7FFFFFFFFFFFFFFEULL, "void Monitor:Lock()", NULL, "Monitor:Lock" },
};

/* Message-loop frames: deeper frames restart when the message id changes. */
static const char *const loop_frames[] = {
	"void android.os.Looper.loop()",
	"boolean android.os.Looper.loopOnce(android.os.Looper, long, int)",
};

/* The loop's wait for the next message: idle time, not part of a message;
 * it sleeps in nativePollOnce. */
static const char idle_frame_part[] = " android.os.MessageQueue.next(";

/* A draw's wait for the RenderThread (bt_stacktab.sync_call), as Android
 * 10 on names it, with the pseudo-pointers of its synthetic frames; older
 * ones call their own native directly. */
static const struct {
	const char *part;
	uint64_t address;
	const char *name, *method, *params;
} sync_calls[2] = {
	{ " android.graphics.HardwareRenderer.syncAndDrawFrame(", 0x7FFFFFFFFFFFFFFCULL,
	  "int android.graphics.HardwareRenderer.syncAndDrawFrame(android.graphics.FrameInfo)", "syncAndDrawFrame",
	  "android.graphics.FrameInfo" },
	{ " android.graphics.HardwareRenderer.nSyncAndDrawFrame(", 0x7FFFFFFFFFFFFFFBULL,
	  "int android.graphics.HardwareRenderer.nSyncAndDrawFrame(long, long[], int)", "nSyncAndDrawFrame",
	  "long, long[], int" },
};
static const char sync_class[] = "android.graphics.HardwareRenderer";
static const char old_sync_part[] = " android.view.ThreadedRenderer.nSyncAndDrawFrame(";
static const char poll_frame_part[] = " android.os.MessageQueue.nativePollOnce(";
/* A display frame's callbacks: doFrame runs them back to back (bt_stacktab.frame_call). */
static const char *const frame_call_parts[3] = {
	" android.view.Choreographer.doFrame(", " android.view.Choreographer.doCallbacks(",
	" android.view.Choreographer$CallbackRecord.run(",
};

int bt_frame_is_loop(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof loop_frames / sizeof loop_frames[0]; i++)
		if (!strcmp(name, loop_frames[i]))
			return 1;
	return 0;
}

int bt_frame_is_idle(const char *name)
{
	return name && strstr(name, idle_frame_part) != NULL;
}

/* Where a worker's task begins: a thread pool's loop calls each task from
 * runWorker (Java's and Kotlin coroutines' pools alike), a daemon's from
 * runInternal; a binder thread runs each call from execTransact, and
 * waits in the driver, below every Java frame, between calls. Work run
 * from inside a wait (an IdleHandler, input events the poll dispatches)
 * is no idle time. A frame's draw records its display list and then waits,
 * in a native call no hook sees (syncAndDrawFrame), for the RenderThread
 * to take it: an unhooked sleep at the end of a frame is that wait. */
static const struct {
	const char *part;
	int task;
} task_parts[] = {
	{ " java.util.concurrent.ThreadPoolExecutor.getTask(", BT_TASK_WAIT },
	{ " java.util.concurrent.ForkJoinPool.awaitWork(", BT_TASK_WAIT },
	{ " kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.tryPark(", BT_TASK_WAIT },
	{ " java.lang.ref.ReferenceQueue.remove(", BT_TASK_WAIT },
	{ " java.util.concurrent.ThreadPoolExecutor.runWorker(", BT_TASK_BELOW },
	{ " java.util.concurrent.ForkJoinPool.runWorker(", BT_TASK_BELOW },
	{ " kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.runWorker(", BT_TASK_BELOW },
	{ " java.lang.Daemons$FinalizerDaemon.runInternal(", BT_TASK_BELOW },
	{ " java.lang.Daemons$ReferenceQueueDaemon.runInternal(", BT_TASK_BELOW },
	{ " android.os.Binder.execTransact(", BT_TASK_ROOT },
	{ ".queueIdle(", BT_TASK_WORK },
	{ " android.os.MessageQueue.dispatchEvents(", BT_TASK_WORK },
	{ " android.view.ThreadedRenderer.draw(", BT_TASK_SYNC },
	{ " android.graphics.HardwareRenderer.syncAndDrawFrame(", BT_TASK_SYNC },
	{ ".nSyncAndDrawFrame(", BT_TASK_SYNC },
};

int bt_frame_task(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof task_parts / sizeof task_parts[0]; i++)
		if (strstr(name, task_parts[i].part))
			return task_parts[i].task;
	return 0;
}

static const char *const policy_names[] = { "btrace", "midpoint", "idle" };

int bt_slice_policy_parse(const char *name, enum bt_slice_policy *out, struct bt_err *err)
{
	size_t i;

	*out = BT_SLICE_IDLE;
	if (!name)
		return BT_OK;
	for (i = 0; i < sizeof policy_names / sizeof policy_names[0]; i++)
		if (!strcmp(name, policy_names[i])) {
			*out = (enum bt_slice_policy)i;
			return BT_OK;
		}
	return bt_err_set(err, BT_EUSAGE, "unknown slice policy '%s' (known: idle, midpoint, btrace)", name);
}

const char *bt_slice_policy_name(enum bt_slice_policy p)
{
	return policy_names[p];
}

size_t bt_item_frames(const struct bt_stacktab *t, const struct bt_item *it, const uint32_t *pf,
		      const uint32_t *pn, size_t np, uint32_t *out, uint32_t *nodes)
{
	uint32_t rev[BT_SLICE_MAX_FRAMES], revn[BT_SLICE_MAX_FRAMES], node = it->node, synth;
	size_t n = 0, k = 0;
	int cut;

	while (node && node <= t->nnodes && n < BT_SLICE_MAX_FRAMES - 1) {
		uint32_t f = t->frame[node], at = t->pos[node];
		if (at < np && pn[at] == node) {   /* the rest is the previous list's */
			k = (size_t)at + 1;
			break;
		}
		if (f > t->nframes || !t->dropped[f]) {
			revn[n] = node;
			rev[n++] = f;
		}
		node = t->parent[node];
	}
	if (k && k + n > BT_SLICE_MAX_FRAMES - 1)
		return bt_item_frames(t, it, NULL, NULL, 0, out, nodes);   /* too deep: cut below */
	if (k) {   /* without a previous list (pf NULL), nothing is kept */
		memcpy(out, pf, k * sizeof *out);
		memcpy(nodes, pn, k * sizeof *nodes);
	}
	cut = !k && node != 0;   /* then the nodes do not name the frames' positions */
	while (n) {
		n--;
		nodes[k] = cut ? 0 : revn[n];
		if (!cut)
			t->pos[revn[n]] = (uint32_t)k;
		out[k++] = rev[n];
	}
	if ((synth = bt_item_synth(t, it)) != 0) {
		nodes[k] = 0;
		out[k++] = synth;
	}
	return k;
}

/* Room for frame id in the per-frame arrays (zeroed); *cap is theirs. */
static void frame_slot(struct bt_stacktab *t, size_t *cap, size_t id)
{
	size_t lcap = *cap, icap = *cap, tcap = *cap, ncap = *cap;

	t->dropped = bt_grow_zero(t->dropped, 1, cap, id);
	t->loop = bt_grow_zero(t->loop, 1, &lcap, id);
	t->idle = bt_grow_zero(t->idle, 1, &icap, id);
	t->task = bt_grow_zero(t->task, 1, &tcap, id);
	t->native = bt_grow_zero(t->native, sizeof *t->native, &ncap, id);
}

/* Which frames upstream drops: runtime frames and its blacklist (which,
 * lacking return types, never matches real symbols: spec I-6). */
static int load_frames(struct bt_db *db, struct bt_stacktab *t, size_t *cap, int *old_sync, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t i;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_FRAMES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		size_t id = (size_t)bt_rows_int(r, 0);
		const char *name = bt_rows_text(r, 1, NULL);
		frame_slot(t, cap, id);
		t->idle[id] = bt_frame_is_idle(name);
		t->task[id] = (unsigned char)bt_frame_task(name);
		t->has_wait |= t->task[id] == BT_TASK_WAIT;
		if (!t->next && t->idle[id])
			t->next = (uint32_t)id;
		if (!t->poll && name && strstr(name, poll_frame_part))
			t->poll = (uint32_t)id;
		for (i = 0; name && i < 3; i++)
			if (!t->frame_call[i] && strstr(name, frame_call_parts[i]))
				t->frame_call[i] = (uint32_t)id;
		for (i = 0; name && i < 2; i++)
			if (!t->sync_call[i] && strstr(name, sync_calls[i].part))
				t->sync_call[i] = (uint32_t)id;
		if (!t->sync_call[1] && name && strstr(name, old_sync_part))
			t->sync_call[1] = (uint32_t)id, *old_sync = 1;
		t->dropped[id] = name && !strncmp(name, "<runtime", 8);
		for (i = 0; name && i < sizeof blacklist / sizeof blacklist[0]; i++)
			t->dropped[id] |= !strcmp(name, blacklist[i]);
		t->loop[id] = bt_frame_is_loop(name);
		t->nframes = id;
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* Add upstream's synthetic leaf frames the records need; ids[k] for synthetic[k]. */
static int add_synthetic(const struct bt_capture *cap, struct bt_db *db, struct bt_stacktab *t,
			 size_t *dcap, uint32_t ids[2], struct bt_err *err)
{
	size_t k, i;

	for (k = 0; k < 2; k++) {
		ids[k] = 0;
		for (i = 0; i < cap->n && cap->s[i].type != synthetic[k].type; i++)
			;
		if (i == cap->n)
			continue;
		ids[k] = (uint32_t)++t->nframes;
		frame_slot(t, dcap, ids[k]);
		if (bt_db_exec(db, BT_SQL_INSERT_FRAME, err, "iittttt", (int64_t)ids[k],
			       (int64_t)synthetic[k].address, synthetic[k].name, "void", synthetic[k].cls,
			       synthetic[k].method, ""))
			return err->code;
	}
	return BT_OK;
}

/* The idle policy's "(idle)" frame: a thread's wait for work where the
 * trace shows no frame of it (slice_tree.c), and the name of idle time
 * where the exports show it. Its row is added once some slice is idle
 * (bt_slicer_run), so a trace without idle time has no such frame. */
static void add_idle_frame(struct bt_stacktab *t, size_t *dcap)
{
	t->idle_frame = (uint32_t)++t->nframes;
	frame_slot(t, dcap, t->idle_frame);
	t->idle[t->idle_frame] = 1;   /* the loop's wait, where it stands for it */
}

/* The draw's wait frames the trace does not name, synthetic (the idle
 * policy's, slice_idle.c): Android 10's two, or none where the trace shows
 * an older Android's own native (it has no wrapper). Their rows are added
 * once some slice uses them (bt_slicer_store_frames). */
static void add_sync_frames(struct bt_stacktab *t, size_t *dcap, int old_sync)
{
	size_t k;

	for (k = 0; k < 2 && !old_sync; k++)
		if (!t->sync_call[k]) {
			t->sync_call[k] = (uint32_t)++t->nframes;
			frame_slot(t, dcap, t->sync_call[k]);
			t->task[t->sync_call[k]] = BT_TASK_SYNC;
			t->sync_synth |= (unsigned char)(1u << k);
		}
}

/* One thread's items, in file order until sorted. */
struct items {
	int64_t tid;
	struct bt_item *v;
	size_t n, cap;
};

/* Items by thread: Android tids are 16 bits, so an array finds a thread's
 * items; other tids go through a hash map. */
struct threads {
	struct items *t;
	size_t n, cap;
	uint32_t *small;            /* tid -> index + 1 */
	struct bt_map64 big;
};

#define TID_SMALL 65536

static struct items *thread_items(struct threads *th, int64_t tid)
{
	int small = tid >= 0 && tid < TID_SMALL;
	uint32_t k = small ? th->small[tid] : bt_map64_get(&th->big, (uint64_t)tid);

	if (k)
		return &th->t[k - 1];
	BT_GROW(th->t, th->n + 1, th->cap);
	memset(&th->t[th->n], 0, sizeof th->t[th->n]);
	th->t[th->n].tid = tid;
	if (small)
		th->small[tid] = (uint32_t)++th->n;
	else
		bt_map64_put(&th->big, (uint64_t)tid, (uint32_t)++th->n);
	return &th->t[th->n - 1];
}

static struct bt_item *append(struct items *it)
{
	struct bt_item *x;

	if (it->n == it->cap) {   /* from 4, not 16: a trace may hold 1M threads of a few items each */
		it->cap = it->cap ? 2 * it->cap : 4;
		it->v = bt_xrealloc(it->v, it->cap * sizeof *it->v);
	}
	x = &it->v[it->n++];
	memset(x, 0, sizeof *x);
	return x;
}

/* Append the end ("dup") item of the last item: same stack, type and
 * counters, at (ts, cpu). Copied by index, as append() may move the array. */
static void add_dup(struct items *it, int64_t ts, int64_t cpu)
{
	struct bt_item *d = append(it);

	*d = it->v[it->n - 2];
	d->ts = ts;
	d->cpu = cpu;
	d->dup = 1;
	d->exact = 0;
}

/* The begin item of a record, and its end item when it has a duration. */
static void add_record(struct items *it, const struct bt_csample *s, int64_t ts, int64_t cpu,
		       int64_t end, int64_t end_cpu)
{
	struct bt_item *b = append(it);

	b->ts = ts;
	b->cpu = cpu;
	b->src = s;
	b->node = s->node_id;
	b->msg_id = s->msg_id;
	b->type = (int16_t)s->type;
	if (end <= ts)
		return;
	b->exact = 1;
	add_dup(it, end, end_cpu);   /* its blocked time: bt_item_block */
}

/* kFlush (§7.3): a span from 2 ms after the thread's previous item to T,
 * with that item's CPU time, message and counters. */
static void add_flush(struct items *it, const struct bt_csample *s)
{
	struct bt_item *f;
	int64_t begin;

	if (!it->n)
		return;
	begin = it->v[it->n - 1].ts + 2000000;
	if (begin >= s->ts)
		return;
	f = append(it);
	*f = it->v[it->n - 2];
	f->ts = begin;
	f->node = s->node_id;
	f->type = 16;   /* no synthetic leaf, no blocked time */
	f->dup = 0;
	f->exact = 0;
	f->wakeup_tid = 0;
	add_dup(it, s->ts, f->cpu);
}

/* §7.1: records in file order become items; wakers are keyed by the
 * waiter's begin time, last one wins, as upstream's map does. */
static void build_items(const struct bt_capture *cap, int64_t version, int64_t start_ns,
			int64_t main_tid, struct threads *th)
{
	struct bt_map64 wakers;
	struct items *it;
	size_t i, e = 0;

	bt_map64_init(&wakers, 256);
	for (i = 0; i < cap->n; i++) {
		const struct bt_csample *s = &cap->s[i];
		const int64_t *end = bt_cends_next(&cap->ends, i, &e);   /* end time, end CPU */
		int64_t ts = s->ts;
		it = thread_items(th, s->tid);
		/* step 2, the startTime clamp, comes before a waker is keyed (step 4) */
		if (start_ns > 0 && ts < start_ns && end[0] > ts)
			ts = start_ns;
		if (version >= 5 && bt_rtype_is_waker(s->type)) {
			bt_map64_put(&wakers, (uint64_t)ts, (uint32_t)(s->tid + 1));
			add_record(it, s, end[0], end[1], 0, 0);
		} else if (s->type == 16) {
			add_flush(it, s);
		} else {
			add_record(it, s, ts, s->cpu, end[0], end[1]);
		}
	}
	it = thread_items(th, main_tid);
	for (i = 0; i < it->n; i++) {
		struct bt_item *x = &it->v[i];
		uint32_t w;
		if (x->dup || !bt_rtype_is_wait(x->type))
			continue;
		w = bt_map64_get(&wakers, (uint64_t)x->ts);
		x->wakeup_tid = w ? (int32_t)(w - 1) : 0;
	}
	bt_map64_release(&wakers);
}

/* Upstream's stable sort by time, within a thread (bt_sort_unless_sorted keeps
 * the ties in append order). */
static int item_cmp(const void *a, const void *b)
{
	const struct bt_item *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

static int thread_cmp(const void *a, const void *b)
{
	const struct items *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Threads in tid order; a thread's items sorted by time, which they
 * mostly are already (a thread writes its records as it goes). */
static void sort_items(struct threads *th)
{
	size_t i, j;

	qsort(th->t, th->n, sizeof *th->t, thread_cmp);
	for (i = 0; i < th->n; i++) {
		struct items *it = &th->t[i];
		if (it->n && it->n < it->cap) {   /* give back what doubling left over */
			it->v = bt_xrealloc(it->v, it->n * sizeof *it->v);
			it->cap = it->n;
		}
		for (j = 1; j < it->n && it->v[j].ts >= it->v[j - 1].ts; j++)
			;
		if (j < it->n)
			bt_sort_unless_sorted(it->v, it->n, sizeof *it->v, item_cmp);
	}
}

struct bt_slicer {
	struct bt_stacktab tab;
	struct threads th;
	struct bt_csample *records;   /* the items point into them */
	size_t nrecords;
	struct bt_cends ends;         /* theirs */
	int given, given_nodes;       /* records, the node arrays: someone else's now */
	enum bt_slice_policy policy;
	unsigned char made;           /* the synthetic frames the runs used (tab.made) */
	unsigned char stored;         /* those whose rows are in the database (BT_MADE_*) */
	/* what the items are built from besides the records (make_items) */
	int64_t version, start_ns, main_tid;
	int dropped;                  /* th is empty until a run builds it again */
};

static void sort_items(struct threads *th);

/* The items, per thread in time order, from the records. */
static void make_items(struct bt_slicer *s)
{
	struct bt_capture view;

	memset(&view, 0, sizeof view);
	view.s = s->records;
	view.n = s->nrecords;
	view.ends = s->ends;
	s->th.small = bt_xcalloc(TID_SMALL, sizeof *s->th.small);
	bt_map64_init(&s->th.big, 16);
	build_items(&view, s->version, s->start_ns, s->main_tid, &s->th);
	sort_items(&s->th);
}

/* The items again, if bt_slicer_drop_items freed them. */
static void items_again(struct bt_slicer *s)
{
	if (s->dropped) {
		make_items(s);
		s->dropped = 0;
	}
}

static void free_items(struct threads *th)
{
	size_t i;

	for (i = 0; i < th->n; i++)
		free(th->t[i].v);
	free(th->t);
	free(th->small);
	bt_map64_release(&th->big);
	memset(th, 0, sizeof *th);
}

void bt_slicer_drop_items(struct bt_slicer *s)
{
	if (s && !s->dropped) {
		free_items(&s->th);
		s->dropped = 1;
	}
}

int bt_slicer_store_frames(struct bt_slicer *s, struct bt_db *db, struct bt_err *err)
{
	unsigned char add = (unsigned char)(s->made & ~s->stored);
	size_t k;

	s->stored |= add;
	if ((add & BT_MADE_IDLE) &&
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, err, "iittttt", (int64_t)s->tab.idle_frame,
		       (int64_t)0x7FFFFFFFFFFFFFFDULL, "(idle)", "", NULL, "(idle)", ""))
		return err->code;
	for (k = 0; k < 2 && (add & BT_MADE_SYNC); k++)
		if ((s->tab.sync_synth >> k & 1) &&
		    bt_db_exec(db, BT_SQL_INSERT_FRAME, err, "iittttt", (int64_t)s->tab.sync_call[k],
			       (int64_t)sync_calls[k].address, sync_calls[k].name, "int", sync_class,
			       sync_calls[k].method, sync_calls[k].params))
			return err->code;
	return BT_OK;
}

struct bt_csample *bt_slicer_give_records(struct bt_slicer *s, size_t *n, struct bt_cends *ends)
{
	s->given = 1;
	*n = s->nrecords;
	*ends = s->ends;   /* the tab keeps pointing at the same arrays */
	return s->records;
}

void bt_slicer_give_nodes(struct bt_slicer *s, uint32_t **parent, uint32_t **frame, size_t *n)
{
	s->given_nodes = 1;
	*parent = s->tab.parent;
	*frame = s->tab.frame;
	*n = s->tab.nnodes;
}

int bt_slicer_run(struct bt_slicer *s, const struct bt_slice_sink *sink, struct bt_err *err)
{
	int64_t next_id = 1;
	size_t i;

	items_again(s);
	for (i = 0; i < s->th.n; i++) {
		const struct items *it = &s->th.t[i];
		if (it->n && bt_slice_run_thread(&s->tab, it->v, it->n, s->policy, sink, &next_id, err))
			return err->code;
	}
	return BT_OK;
}

/* One of the two workers of bt_slicer_run2: its threads (ascending), its
 * sink, and its own copy of the stack table (the position hints are
 * scratch memory each worker writes). */
struct worker {
	struct bt_slicer *s;
	const struct bt_slice_sink *sink;
	struct bt_stacktab tab;
	size_t *idx, n;
	struct bt_err err;
	int rc;
	unsigned char made;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	int64_t next_id = 1;
	size_t i;

	for (i = 0; i < w->n && !w->rc; i++) {
		struct items *it = &w->s->th.t[w->idx[i]];
		w->rc = bt_slice_run_thread(&w->tab, it->v, it->n, w->s->policy, w->sink, &next_id, &w->err);
		free(it->v);   /* its slices are made: the items go now, not with the trace's */
		it->v = NULL;
		it->n = it->cap = 0;
	}
	return NULL;
}

struct load { size_t n, i; };   /* a thread's items, and its index */

static int load_desc(const void *a, const void *b)
{
	const struct load *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : (x->i > y->i) - (x->i < y->i);
}

static int idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

int bt_slicer_run2(struct bt_slicer *s, const struct bt_slice_sink *sink,
		   const struct bt_slice_sink *sink2, struct bt_err *err)
{
	struct worker w[2];
	struct load *order;
	size_t load[2] = { 0, 0 }, i, k;
	pthread_t helper;
	int started;

	items_again(s);
	order = bt_xcalloc(s->th.n + 1, sizeof *order);
	/* the biggest threads first, each to the less loaded worker */
	for (i = 0; i < s->th.n; i++) {
		order[i].n = s->th.t[i].n;
		order[i].i = i;
	}
	qsort(order, s->th.n, sizeof *order, load_desc);
	memset(w, 0, sizeof w);
	for (k = 0; k < 2; k++) {
		w[k].s = s;
		w[k].sink = k ? sink2 : sink;
		w[k].tab = s->tab;
		w[k].tab.pos = bt_xcalloc(s->tab.nnodes + 1, sizeof *w[k].tab.pos);
		w[k].tab.made = &w[k].made;
		w[k].idx = bt_xcalloc(s->th.n + 1, sizeof *w[k].idx);
		w[k].err = (struct bt_err)BT_ERR_INIT;
	}
	for (i = 0; i < s->th.n && order[i].n; i++) {
		k = load[1] < load[0];
		w[k].idx[w[k].n++] = order[i].i;
		load[k] += order[i].n;
	}
	for (k = 0; k < 2; k++)
		qsort(w[k].idx, w[k].n, sizeof *w[k].idx, idx_cmp);
	started = pthread_create(&helper, NULL, work, &w[1]) == 0;
	work(&w[0]);
	if (started)
		pthread_join(helper, NULL);
	else
		work(&w[1]);
	for (k = 0; k < 2; k++) {
		s->made |= w[k].made;
		free(w[k].tab.pos);
		free(w[k].idx);
	}
	free(order);
	bt_slicer_drop_items(s);   /* what an error left */
	for (k = 0; k < 2; k++)
		if (w[k].rc)
			return bt_err_set(err, w[k].err.code, "%s", w[k].err.msg);
	return BT_OK;
}

static int span_cmp(const void *a, const void *b)
{
	const struct bt_slice_span *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

void bt_slicer_spans(struct bt_slicer *s, struct bt_slice_span *v, size_t n)
{
	if (!s) {
		free(v);
		return;
	}
	free((void *)s->tab.spans);
	qsort(v, n, sizeof *v, span_cmp);
	s->tab.spans = v;
	s->tab.nspans = n;
}

void bt_slicer_free(struct bt_slicer *s)
{
	if (!s)
		return;
	free((void *)s->tab.spans);
	free_items(&s->th);
	if (!s->given) {
		free(s->records);
		bt_cends_release(&s->ends);
	}
	if (!s->given_nodes) {
		free(s->tab.parent);
		free(s->tab.frame);
	}
	free(s->tab.pos);
	free(s->tab.dropped);
	free(s->tab.loop);
	free(s->tab.idle);
	free(s->tab.task);
	free(s->tab.native);
	free(s);
}

/* The capture throttle of an Android dump, as its threads' records show it
 * (the idle policy reads gaps with it). */
static void calibrate(struct bt_slicer *s)
{
	struct bt_item **v = bt_xcalloc(s->th.n + 1, sizeof *v);
	size_t *cnt = bt_xcalloc(s->th.n + 1, sizeof *cnt), i;

	for (i = 0; i < s->th.n; i++) {
		v[i] = s->th.t[i].v;
		cnt[i] = s->th.t[i].n;
	}
	bt_gap_calibrate(&s->tab, v, cnt, s->th.n);
	free(v);
	free(cnt);
}

int bt_slicer_new(struct bt_slicer **out, struct bt_capture *cap, struct bt_db *db,
		  enum bt_slice_policy policy, int throttled, struct bt_err *err)
{
	struct bt_slicer *s;
	int64_t version, start_ns, main_tid;
	uint32_t synth[2];
	size_t dcap = 0;
	int old_sync = 0;

	*out = NULL;
	if (!cap->n)
		return BT_OK;
	s = bt_xcalloc(1, sizeof *s);
	s->policy = policy;
	if (bt_db_meta_int(db, "version", 0, &version, err) ||
	    bt_db_meta_int(db, "start_time_ns", 0, &start_ns, err) ||
	    bt_db_main_tid(db, &main_tid, err) ||
	    load_frames(db, &s->tab, &dcap, &old_sync, err) || add_synthetic(cap, db, &s->tab, &dcap, synth, err)) {
		bt_slicer_free(s);
		return err->code;
	}
	if (policy == BT_SLICE_IDLE) {
		add_idle_frame(&s->tab, &dcap);
		add_sync_frames(&s->tab, &dcap, old_sync);
	}
	s->tab.made = &s->made;
	s->version = version, s->start_ns = start_ns, s->main_tid = main_tid;
	memcpy(s->tab.synth, synth, sizeof s->tab.synth);
	s->tab.start_ns = start_ns;
	s->records = cap->s;
	s->nrecords = cap->n;
	s->ends = cap->ends;
	s->tab.records = s->records;
	s->tab.ends = &s->ends;
	s->tab.parent = cap->parent;
	s->tab.frame = cap->frame;
	s->tab.nnodes = cap->nnodes;
	s->tab.pos = bt_xcalloc(cap->nnodes + 1, sizeof *s->tab.pos);
	cap->s = NULL;
	memset(&cap->ends, 0, sizeof cap->ends);
	cap->parent = cap->frame = NULL;
	cap->n = cap->cap = cap->nnodes = cap->ncap = 0;
	make_items(s);
	if (policy == BT_SLICE_IDLE && throttled)
		calibrate(s);
	*out = s;
	return BT_OK;
}
