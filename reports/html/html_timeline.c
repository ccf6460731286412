/*
 * The HTML report's timeline data (see html_int.h): one thread's Looper
 * messages, its slices long enough to see, and its waits with the waker
 * of each, all as times from t0. The main thread of a 1M-record trace has
 * some 765k slices, so only those of at least span / BT_HTML_SLICE_DIV
 * are kept (at most BT_HTML_SLICES, the longest), and the page says how
 * many were left out.
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

static int count(struct bt_db *db, enum bt_sql_id id, int64_t tid, int64_t *n, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	*n = 0;
	if (bt_rows_open(&r, db, id, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	if ((rc = bt_rows_next(r, err)) == 1)
		*n = bt_rows_int(r, 0);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* Columns of html_slices.sql. */
enum { S_TS, S_DUR, S_DEPTH, S_FRAME, S__COUNT = 10 };

static int slices(struct bt_db *db, int64_t tid, int64_t t0, int64_t span, struct bt_html_names *n,
		  struct bt_jsonw *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t total, min = span / BT_HTML_SLICE_DIV;
	int rc, c;

	if (count(db, BT_SQL_HTML_SLICE_COUNT, tid, &total, err) ||
	    bt_rows_open(&r, db, BT_SQL_HTML_SLICES, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	bt_rows_bind_int(r, 2, min);
	bt_rows_bind_int(r, 3, BT_HTML_SLICES);
	bt_jsonw_key(w, "slices");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1)
		for (c = 0; c < S__COUNT; c++)
			bt_jsonw_int(w, c == S_TS ? bt_rows_int(r, c) - t0 :
				     c == S_FRAME ? bt_html_names_ref(n, bt_rows_int(r, c)) : bt_rows_int(r, c));
	bt_jsonw_end_array(w);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	bt_jsonw_key(w, "slices_total");
	bt_jsonw_int(w, total);
	bt_jsonw_key(w, "slices_min_ns");
	bt_jsonw_int(w, min);
	return BT_OK;
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

int bt_html_timeline_write(struct bt_db *db, const struct bt_facts *f, int64_t tid,
			   struct bt_html_names *n, struct bt_jsonw *w, struct bt_err *err)
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
		rc = slices(db, tid, f->start_ns, f->end_ns - f->start_ns, n, w, err);
	if (!rc)
		rc = waits(db, tid, f->start_ns, &l, w, err);
	if (!rc)
		rc = threads(db, tid, &l, w, err);
	bt_jsonw_end_object(w);
	free(l.tid);
	bt_map64_release(&l.seen);
	return rc;
}
