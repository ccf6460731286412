/*
 * The HTML report's timeline data (see html_int.h): one thread's Looper
 * messages, its slices long enough to see, and its waits with the waker
 * of each, all as times from t0. The main thread of a 1M-record trace has
 * some 765k slices, so only those of at least span / BT_HTML_SLICE_DIV
 * are shown (at most BT_HTML_SLICES, the longest), and the page says how
 * many were left out. The slices come from a tap on the run (html.h),
 * which keeps each thread's BT_HTML_SLICES longest in a heap.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/html/html_int.h"

struct lanes {
	int64_t *tid;            /* the wakers' threads, in order of first wait */
	size_t n, cap;
	struct bt_map64 seen;
};

/* [ts, dur, cpu, msg id] per message, the first BT_HTML_MESSAGES of them. */
static int messages(struct bt_db *db, int64_t tid, int64_t t0, struct bt_jsonw *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t n = 0;
	int rc, c;

	if (bt_rows_open(&r, db, BT_SQL_HTML_MESSAGES, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	bt_jsonw_key(w, "messages");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1)
		if (n++ < BT_HTML_MESSAGES)
			for (c = 0; c < 4; c++)
				bt_jsonw_int(w, bt_rows_int(r, c) - (c == 0 ? t0 : 0));
	bt_jsonw_end_array(w);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	bt_jsonw_key(w, "messages_total");
	bt_jsonw_int(w, (int64_t)n);
	return BT_OK;
}

/* A slice the timeline may show: the columns it writes, and the order
 * it keeps them in (longest first, then earlier, then shallower, then the
 * earlier id). */
enum { S_TS, S_DUR, S_DEPTH, S_FRAME, S_CPU, S_SELF, S_BLOCK, S_BYTES, S_OBJS, S_MAJFLT, S__COUNT };

struct kept {
	int64_t v[S__COUNT];
	int64_t id;
};

/* A thread's slice count and its BT_HTML_SLICES longest, as a heap with
 * the one to drop next on top. */
struct tl_thread {
	int64_t tid, count;
	struct kept *k;
	size_t n, cap;
};

struct tl_part {
	struct tl_thread *t;
	size_t n, cap;
};

struct bt_html_timeline {
	struct tl_part part[2];
};

/* 1 if a goes before b in the timeline's order. */
static int before(const struct kept *a, const struct kept *b)
{
	if (a->v[S_DUR] != b->v[S_DUR])
		return a->v[S_DUR] > b->v[S_DUR];
	if (a->v[S_TS] != b->v[S_TS])
		return a->v[S_TS] < b->v[S_TS];
	if (a->v[S_DEPTH] != b->v[S_DEPTH])
		return a->v[S_DEPTH] < b->v[S_DEPTH];
	return a->id < b->id;
}

static void sift_down(struct kept *h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1, worst = i;
		struct kept tmp;
		if (c < n && before(&h[worst], &h[c]))
			worst = c;
		if (c + 1 < n && before(&h[worst], &h[c + 1]))
			worst = c + 1;
		if (worst == i)
			return;
		tmp = h[i];
		h[i] = h[worst];
		h[worst] = tmp;
		i = worst;
	}
}

static void sift_up(struct kept *h, size_t i)
{
	while (i > 0 && before(&h[(i - 1) / 2], &h[i])) {
		struct kept tmp = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static void keep(struct tl_thread *t, const struct kept *k)
{
	if (t->n < BT_HTML_SLICES) {
		BT_GROW(t->k, t->n + 1, t->cap);
		t->k[t->n] = *k;
		sift_up(t->k, t->n++);
	} else if (before(k, &t->k[0])) {
		t->k[0] = *k;
		sift_down(t->k, t->n, 0);
	}
}

/* Only the main thread's slices, and only those of at least span /
 * BT_HTML_SLICE_DIV, when the trace says them before its slices (a dump
 * does; a Perfetto trace only after): the report shows no others, the
 * span as the report's facts take it (bt_facts_load). */
static int tl_begin(void *ctx, struct bt_db *db, struct bt_tap_filter *want, struct bt_err *err)
{
	int64_t threads, first, last;

	(void)ctx;
	if (bt_db_meta_int(db, "main_tid", -1, &want->tid, err) ||
	    bt_db_meta_int(db, "sampled_threads", -1, &threads, err) ||
	    bt_db_meta_int(db, "first_ts", 0, &first, err) || bt_db_meta_int(db, "last_ts", 0, &last, err))
		return err->code;
	if (threads >= 0 && last > first)
		want->min_dur = (last - first) / BT_HTML_SLICE_DIV;
	return BT_OK;
}

/* The part's record of thread tid: its threads come one by one. */
static struct tl_thread *thread_of(struct tl_part *p, int64_t tid)
{
	if (!p->n || p->t[p->n - 1].tid != tid) {
		BT_GROW(p->t, p->n + 1, p->cap);
		memset(&p->t[p->n], 0, sizeof p->t[0]);
		p->t[p->n++].tid = tid;
	}
	return &p->t[p->n - 1];
}

static int tl_thread(void *ctx, int part, int64_t tid, int64_t n, struct bt_err *err)
{
	struct bt_html_timeline *tl = ctx;

	(void)err;
	thread_of(&tl->part[part], tid)->count = n;
	return BT_OK;
}

static int tl_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	struct bt_html_timeline *tl = ctx;
	struct tl_thread *t = thread_of(&tl->part[part], s->tid);
	struct kept k;

	(void)err;
	k.v[S_TS] = s->ts;
	k.v[S_DUR] = s->dur;
	k.v[S_DEPTH] = s->depth;
	k.v[S_FRAME] = s->frame_id;
	k.v[S_CPU] = s->cpu_dur;
	k.v[S_SELF] = s->self_dur;
	k.v[S_BLOCK] = s->block_dur;
	k.v[S_BYTES] = s->alloc_bytes;
	k.v[S_OBJS] = s->alloc_objects;
	k.v[S_MAJFLT] = s->majflt;
	k.id = s->id;
	keep(t, &k);
	return BT_OK;
}

struct bt_html_timeline *bt_html_timeline_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_html_timeline));
}

struct bt_slice_tap bt_html_timeline_tap(struct bt_html_timeline *tl)
{
	struct bt_slice_tap t = { tl_begin, tl_slice, tl_thread, tl };

	return t;
}

void bt_html_timeline_free(struct bt_html_timeline *tl)
{
	size_t i;
	int k;

	if (!tl)
		return;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < tl->part[k].n; i++)
			free(tl->part[k].t[i].k);
		free(tl->part[k].t);
	}
	free(tl);
}

static const struct tl_thread *find_thread(const struct bt_html_timeline *tl, int64_t tid)
{
	size_t i;
	int k;

	for (k = 0; tl && k < 2; k++)
		for (i = 0; i < tl->part[k].n; i++)
			if (tl->part[k].t[i].tid == tid)
				return &tl->part[k].t[i];
	return NULL;
}

static int kept_cmp(const void *a, const void *b)
{
	return before(a, b) ? -1 : before(b, a);
}

static void slices(const struct bt_html_timeline *tl, int64_t tid, int64_t t0, int64_t span,
		   struct bt_html_names *n, struct bt_jsonw *w)
{
	const struct tl_thread *t = find_thread(tl, tid);
	struct kept *k = NULL;
	int64_t min = span / BT_HTML_SLICE_DIV;
	size_t i, nk = 0;
	int c;

	if (t && t->n) {
		k = bt_xmalloc(t->n * sizeof *k);
		memcpy(k, t->k, t->n * sizeof *k);
		nk = t->n;
		qsort(k, nk, sizeof *k, kept_cmp);
	}
	bt_jsonw_key(w, "slices");
	bt_jsonw_begin_array(w);
	for (i = 0; i < nk && k[i].v[S_DUR] >= min; i++)
		for (c = 0; c < S__COUNT; c++)
			bt_jsonw_int(w, c == S_TS ? k[i].v[c] - t0 :
				     c == S_FRAME ? bt_html_names_ref(n, k[i].v[c]) : k[i].v[c]);
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "slices_total");
	bt_jsonw_int(w, t ? t->count : 0);
	bt_jsonw_key(w, "slices_min_ns");
	bt_jsonw_int(w, min);
	free(k);
}

static void lane(struct lanes *l, int64_t tid)
{
	if (bt_map64_get(&l->seen, (uint64_t)tid))
		return;
	BT_GROW(l->tid, l->n + 1, l->cap);
	l->tid[l->n++] = tid;
	bt_map64_put(&l->seen, (uint64_t)tid, 1);
}

/* [ts, dur, kind, waker tid, waker ts] per wait, the waker's null if unknown. */
static int waits(struct bt_db *db, int64_t tid, int64_t t0, struct lanes *l, struct bt_jsonw *w,
		 struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t n = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_HTML_EDGES, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	bt_jsonw_key(w, "waits");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1) {
		int known = bt_rows_type(r, 3) != BT_ROWS_NULL && bt_rows_type(r, 4) != BT_ROWS_NULL;
		if (n++ >= BT_HTML_WAITS)
			continue;
		bt_jsonw_begin_array(w);
		bt_jsonw_int(w, bt_rows_int(r, 0) - t0);
		bt_jsonw_int(w, bt_rows_int(r, 1));
		bt_jsonw_cstr(w, bt_rows_text(r, 2, NULL));
		if (known) {
			lane(l, bt_rows_int(r, 3));
			bt_jsonw_int(w, bt_rows_int(r, 3));
			bt_jsonw_int(w, bt_rows_int(r, 4) - t0);
		} else {
			bt_jsonw_null(w);
			bt_jsonw_null(w);
		}
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_array(w);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	bt_jsonw_key(w, "waits_total");
	bt_jsonw_int(w, (int64_t)n);
	return BT_OK;
}

/* [tid, name] of the thread itself, then of each waker. */
static int threads(struct bt_db *db, int64_t tid, struct lanes *l, struct bt_jsonw *w,
		   struct bt_err *err)
{
	struct bt_rows *r = NULL;
	char **names = bt_xcalloc(l->n + 1, sizeof *names);
	size_t i;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_THREADS, err)) {
		free(names);
		return err->code;
	}
	while ((rc = bt_rows_next(r, err)) == 1)
		for (i = 0; i <= l->n; i++)
			if (bt_rows_int(r, 0) == (i ? l->tid[i - 1] : tid) && !names[i])
				names[i] = bt_xstrdup(bt_rows_text(r, 1, NULL));
	bt_rows_close(r);
	bt_jsonw_key(w, "threads");
	bt_jsonw_begin_array(w);
	for (i = 0; i <= l->n; i++) {
		char fallback[32];
		int64_t t = i ? l->tid[i - 1] : tid;
		snprintf(fallback, sizeof fallback, "Thread-%lld", (long long)t);
		bt_jsonw_begin_array(w);
		bt_jsonw_int(w, t);
		bt_jsonw_cstr(w, names[i] ? names[i] : fallback);
		bt_jsonw_end_array(w);
		free(names[i]);
	}
	bt_jsonw_end_array(w);
	free(names);
	return rc < 0 ? err->code : BT_OK;
}

int bt_html_timeline_write(struct bt_db *db, const struct bt_html_timeline *tl,
			   const struct bt_facts *f, int64_t tid, struct bt_html_names *n,
			   struct bt_jsonw *w, struct bt_err *err)
{
	struct lanes l;
	char t0[32];
	int rc;

	bt_jsonw_key(w, "timeline");
	if (tid < 0) {
		bt_jsonw_null(w);
		return BT_OK;
	}
	memset(&l, 0, sizeof l);
	bt_map64_init(&l.seen, 64);
	bt_jsonw_begin_object(w);
	snprintf(t0, sizeof t0, "%lld", (long long)f->start_ns);
	bt_jsonw_key(w, "t0");   /* a string: epoch-based ns need more than a double's 53 bits */
	bt_jsonw_cstr(w, t0);
	bt_jsonw_key(w, "span_ns");
	bt_jsonw_int(w, f->end_ns - f->start_ns);
	rc = messages(db, tid, f->start_ns, w, err);
	if (!rc)
		slices(tl, tid, f->start_ns, f->end_ns - f->start_ns, n, w);
	if (!rc)
		rc = waits(db, tid, f->start_ns, &l, w, err);
	if (!rc)
		rc = threads(db, tid, &l, w, err);
	bt_jsonw_end_object(w);
	free(l.tid);
	bt_map64_release(&l.seen);
	return rc;
}
