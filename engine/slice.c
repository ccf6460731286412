/*
 * Slice reconstruction driver: turns the captured records into upstream's
 * items (format spec §7: duration records give a begin and an end item,
 * v5 wakers become points at their wake-up, kFlush spans are synthesised,
 * frames are filtered and GC/monitor get synthetic leaves), links wakers
 * by begin time as upstream does, sorts stably by time and runs the
 * policy per thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hash.h"
#include "rows.h"
#include "rtype.h"
#include "slice_int.h"

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

/* The loop's wait for the next message: idle time, not part of a message. */
static const char idle_frame_part[] = " android.os.MessageQueue.next(";

int bt_slice_policy_parse(const char *name, enum bt_slice_policy *out, struct bt_err *err)
{
	*out = BT_SLICE_MIDPOINT;
	if (!name || !strcmp(name, "midpoint"))
		return BT_OK;
	*out = BT_SLICE_BTRACE;
	if (!strcmp(name, "btrace"))
		return BT_OK;
	return bt_err_set(err, BT_EUSAGE, "unknown slice policy '%s' (known: midpoint, btrace)", name);
}

size_t bt_item_frames(const struct bt_stacktab *t, const struct bt_item *it, uint32_t *out)
{
	uint32_t rev[BT_SLICE_MAX_FRAMES], node = it->node;
	size_t n = 0, k = 0;

	while (node && node <= t->nnodes && n < BT_SLICE_MAX_FRAMES - 1) {
		uint32_t f = t->frame[node];
		if (f > t->nframes || !t->dropped[f])
			rev[n++] = f;
		node = t->parent[node];
	}
	while (n)
		out[k++] = rev[--n];
	if (it->synth)
		out[k++] = it->synth;
	return k;
}

/* Grow a zero-filled array of size elements to hold index i. */
static void *grow_zero(void *p, size_t size, size_t *cap, size_t i)
{
	size_t nc = *cap ? *cap : 1024;

	if (i < *cap)
		return p;
	while (nc <= i)
		nc *= 2;
	p = bt_xrealloc(p, nc * size);
	memset((char *)p + *cap * size, 0, (nc - *cap) * size);
	*cap = nc;
	return p;
}

static int load_nodes(struct bt_db *db, struct bt_stacktab *t, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0, cap2 = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_NODES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		size_t id = (size_t)bt_rows_int(r, 0);
		t->parent = grow_zero(t->parent, sizeof *t->parent, &cap, id);
		t->frame = grow_zero(t->frame, sizeof *t->frame, &cap2, id);
		t->parent[id] = (uint32_t)bt_rows_int(r, 1);
		t->frame[id] = (uint32_t)bt_rows_int(r, 2);
		t->nnodes = id;
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* Which frames upstream drops: runtime frames and its blacklist (which,
 * lacking return types, never matches real symbols: spec I-6). */
static int load_frames(struct bt_db *db, struct bt_stacktab *t, size_t *cap, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t i;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_FRAMES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		size_t id = (size_t)bt_rows_int(r, 0);
		const char *name = bt_rows_text(r, 1, NULL);
		size_t lcap = *cap, icap = *cap;
		t->dropped = grow_zero(t->dropped, 1, cap, id);
		t->loop = grow_zero(t->loop, 1, &lcap, id);
		t->idle = grow_zero(t->idle, 1, &icap, id);
		t->idle[id] = name && strstr(name, idle_frame_part) != NULL;
		t->dropped[id] = name && !strncmp(name, "<runtime", 8);
		for (i = 0; name && i < sizeof blacklist / sizeof blacklist[0]; i++)
			t->dropped[id] |= !strcmp(name, blacklist[i]);
		for (i = 0; name && i < sizeof loop_frames / sizeof loop_frames[0]; i++)
			t->loop[id] |= !strcmp(name, loop_frames[i]);
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
		size_t lcap = *dcap, icap = *dcap;
		ids[k] = (uint32_t)++t->nframes;
		t->dropped = grow_zero(t->dropped, 1, dcap, ids[k]);
		t->loop = grow_zero(t->loop, 1, &lcap, ids[k]);
		t->idle = grow_zero(t->idle, 1, &icap, ids[k]);
		if (bt_db_exec(db, BT_SQL_INSERT_FRAME, err, "iittttt", (int64_t)ids[k],
			       (int64_t)synthetic[k].address, synthetic[k].name, "void", synthetic[k].cls,
			       synthetic[k].method, ""))
			return err->code;
	}
	return BT_OK;
}

struct items {
	struct bt_item *v;
	size_t n, cap;
};

static struct bt_item *append(struct items *it)
{
	struct bt_item *x;

	BT_GROW(it->v, it->n + 1, it->cap);
	x = &it->v[it->n];
	memset(x, 0, sizeof *x);
	x->seq = (uint32_t)it->n++;
	return x;
}

/* Append the end ("dup") item of the last item: same stack, type and
 * counters, at (ts, cpu). Copied by index, as append() may move the array. */
static void add_dup(struct items *it, int64_t ts, int64_t cpu, int64_t block)
{
	struct bt_item *d = append(it);

	*d = it->v[it->n - 2];
	d->seq = (uint32_t)(it->n - 1);
	d->ts = ts;
	d->cpu = cpu;
	d->dup = 1;
	d->exact = 0;
	d->block = block;
}

/* The begin item of a record, and its end item when it has a duration. */
static void add_record(struct items *it, const struct bt_csample *s, int64_t ts, int64_t cpu,
		       int64_t end, int64_t end_cpu, const uint32_t synth[2])
{
	struct bt_item *b = append(it);

	b->ts = ts;
	b->cpu = cpu;
	b->src = s;
	b->node = s->node_id;
	b->synth = s->type == 11 ? synth[0] : s->type == 8 ? synth[1] : 0;
	b->msg_id = s->msg_id;
	b->type = s->type;
	if (end <= ts)
		return;
	b->exact = 1;
	add_dup(it, end, end_cpu, bt_rtype_is_blocking(s->type) ? end - ts : 0);
}

/* kFlush (§7.3): a span from 2 ms after the thread's previous item to T,
 * with that item's CPU time, message and counters. */
static void add_flush(struct items *it, struct bt_map64 *last, const struct bt_csample *s)
{
	uint32_t p = bt_map64_get(last, (uint64_t)s->tid);
	struct bt_item *f;
	int64_t begin;

	if (!p)
		return;
	begin = it->v[p - 1].ts + 2000000;
	if (begin >= s->ts)
		return;
	f = append(it);
	*f = it->v[p - 1];
	f->seq = (uint32_t)(it->n - 1);
	f->ts = begin;
	f->node = s->node_id;
	f->synth = 0;
	f->type = 16;
	f->dup = 0;
	f->exact = 0;
	f->block = 0;
	f->wakeup_tid = 0;
	add_dup(it, s->ts, f->cpu, 0);
}

/* §7.1: records in file order become items; wakers are keyed by the
 * waiter's begin time, last one wins, as upstream's map does. */
static void build_items(const struct bt_capture *cap, int64_t version, int64_t start_ns,
			int64_t main_tid, const uint32_t synth[2], struct items *it)
{
	struct bt_map64 wakers, last;
	size_t i;

	bt_map64_init(&wakers, 256);
	bt_map64_init(&last, 64);
	for (i = 0; i < cap->n; i++) {
		const struct bt_csample *s = &cap->s[i];
		int64_t ts = s->ts;
		/* step 2, the startTime clamp, comes before a waker is keyed (step 4) */
		if (start_ns > 0 && ts < start_ns && s->end_ts > ts)
			ts = start_ns;
		if (version >= 5 && bt_rtype_is_waker(s->type)) {
			bt_map64_put(&wakers, (uint64_t)ts, (uint32_t)(s->tid + 1));
			add_record(it, s, s->end_ts, s->end_cpu, 0, 0, synth);
		} else if (s->type == 16) {
			add_flush(it, &last, s);
		} else {
			add_record(it, s, ts, s->cpu, s->end_ts, s->end_cpu, synth);
		}
		bt_map64_put(&last, (uint64_t)s->tid, (uint32_t)it->n);
	}
	for (i = 0; i < it->n; i++) {
		struct bt_item *x = &it->v[i];
		uint32_t w;
		if (x->dup || x->src->tid != main_tid || !bt_rtype_is_wait(x->type))
			continue;
		w = bt_map64_get(&wakers, (uint64_t)x->ts);
		x->wakeup_tid = w ? (int64_t)w - 1 : 0;
	}
	bt_map64_release(&wakers);
	bt_map64_release(&last);
}

/* Group by thread, then upstream's stable sort by time. */
static int item_cmp(const void *a, const void *b)
{
	const struct bt_item *x = a, *y = b;

	if (x->src->tid != y->src->tid)
		return x->src->tid < y->src->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int run_threads(const struct bt_stacktab *t, struct items *it, enum bt_slice_policy policy,
		       struct bt_db *db, struct bt_err *err)
{
	int64_t next_id = 1;
	size_t i = 0, j;

	if (it->n)
		qsort(it->v, it->n, sizeof *it->v, item_cmp);
	while (i < it->n) {
		for (j = i + 1; j < it->n && it->v[j].src->tid == it->v[i].src->tid; j++)
			;
		if (bt_slice_run_thread(t, it->v + i, j - i, policy, db, &next_id, err))
			return err->code;
		i = j;
	}
	return BT_OK;
}

int bt_slice_build(const struct bt_capture *cap, struct bt_db *db, enum bt_slice_policy policy,
		   struct bt_diag *diag, struct bt_err *err)
{
	struct bt_stacktab t;
	struct items it = { NULL, 0, 0 };
	char format[64];
	int64_t version, start_ns, main_tid;
	uint32_t synth[2];
	size_t dcap = 0;
	int rc;

	(void)diag;
	memset(&t, 0, sizeof t);
	rc = bt_db_meta_text(db, "format", format, sizeof format, err);
	if (rc || strcmp(format, "android-sampling") || !cap->n)
		return rc;
	if (bt_db_meta_int(db, "version", 0, &version, err) ||
	    bt_db_meta_int(db, "start_time_ns", 0, &start_ns, err) ||
	    bt_db_main_tid(db, &main_tid, err) || load_nodes(db, &t, err) ||
	    load_frames(db, &t, &dcap, err) || add_synthetic(cap, db, &t, &dcap, synth, err))
		rc = err->code;
	if (!rc) {
		build_items(cap, version, start_ns, main_tid, synth, &it);
		rc = run_threads(&t, &it, policy, db, err);
	}
	free(it.v);
	free(t.parent);
	free(t.frame);
	free(t.dropped);
	free(t.loop);
	free(t.idle);
	return rc;
}
