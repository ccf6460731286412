/*
 * The HTML report's flame graph data (see html_int.h): per thread, the
 * call paths of the calltree table worth drawing, as one flat array of
 * (parent index, name, inclusive wall, CPU, blocked ns, alloc bytes,
 * alloc objects, major faults); names are frame ids. Paths under
 * BT_HTML_FLAME_MIN per ten thousand of the thread's wall time and of its
 * allocated bytes are left out, so the page's self values (inclusive
 * minus the drawn callees') take them in: a 1M-record trace's half a
 * million paths become a few thousand, and the allocations weight still
 * finds a path that allocates much in little time.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/html/html_int.h"

struct fthread {
	int64_t tid, main, total, paths, bytes;
	char *name;
};

static int load_threads(struct bt_db *db, int show_idle, struct fthread **out, size_t *n, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (bt_rows_open(&r, db, BT_SQL_HTML_FLAME_THREADS, err))
		return err->code;
	bt_rows_bind_int(r, 1, show_idle);
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct fthread *t;
		const char *name = bt_rows_text(r, 1, NULL);
		BT_GROW(*out, *n + 1, cap);
		t = &(*out)[(*n)++];
		t->tid = bt_rows_int(r, 0);
		t->name = bt_xstrdup(name ? name : "?");
		t->main = bt_rows_int(r, 2);
		t->total = bt_rows_int(r, 3);
		t->paths = bt_rows_int(r, 4);
		t->bytes = bt_rows_int(r, 5);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* One row of html_calltree.sql: its parent's index, then the values (a
 * CPU time the trace does not give as 0, and *nocpu set). */
static void node(struct bt_rows *r, struct bt_map64 *idx, int64_t *kept, int *nocpu, struct bt_jsonw *w)
{
	uint32_t parent = 0;
	int c;

	if (bt_rows_type(r, 1) != BT_ROWS_NULL &&
	    !(parent = bt_map64_get(idx, (uint64_t)bt_rows_int(r, 1))))
		return;   /* its caller was left out: a callee outlasting it, which cannot be */
	bt_map64_put(idx, (uint64_t)bt_rows_int(r, 0), (uint32_t)++*kept);
	bt_jsonw_int(w, (int64_t)parent - 1);
	bt_jsonw_int(w, bt_rows_int(r, 2));
	*nocpu |= bt_rows_type(r, 4) == BT_ROWS_NULL;
	for (c = 3; c <= 8; c++)
		bt_jsonw_int(w, bt_rows_int(r, c));
}

static int nodes(struct bt_db *db, const struct fthread *t, int64_t min, int64_t min_bytes, int show_idle,
		 struct bt_jsonw *w, int64_t *kept, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	struct bt_map64 idx;
	int rc, nocpu = 0;

	*kept = 0;
	if (bt_rows_open(&r, db, BT_SQL_HTML_CALLTREE, err))
		return err->code;
	bt_rows_bind_int(r, 1, t->tid);
	bt_rows_bind_int(r, 2, min);
	bt_rows_bind_int(r, 3, show_idle);
	bt_rows_bind_int(r, 4, min_bytes);
	bt_map64_init(&idx, 1024);
	bt_jsonw_key(w, "nodes");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1)
		node(r, &idx, kept, &nocpu, w);
	bt_jsonw_end_array(w);
	if (nocpu) {   /* the page reads its CPU values as unknown */
		bt_jsonw_key(w, "nocpu");
		bt_jsonw_int(w, 1);
	}
	bt_map64_release(&idx);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int thread(struct bt_db *db, const struct fthread *t, int show_idle, struct bt_jsonw *w,
		  struct bt_err *err)
{
	int64_t min = t->total / 10000 * BT_HTML_FLAME_MIN, kept;
	int64_t min_bytes = t->bytes / 10000 * BT_HTML_FLAME_MIN;

	if (min < 1)
		min = 1;
	if (min_bytes < 1)
		min_bytes = 1;
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "tid");
	bt_jsonw_int(w, t->tid);
	bt_jsonw_key(w, "name");
	bt_jsonw_cstr(w, t->name);
	bt_jsonw_key(w, "main");
	bt_jsonw_int(w, t->main);
	bt_jsonw_key(w, "min_ns");
	bt_jsonw_int(w, min);
	if (nodes(db, t, min, min_bytes, show_idle, w, &kept, err))
		return err->code;
	bt_jsonw_key(w, "paths");
	bt_jsonw_int(w, t->paths);
	bt_jsonw_key(w, "merged");
	bt_jsonw_int(w, t->paths - kept);
	bt_jsonw_end_object(w);
	return BT_OK;
}

int bt_html_flame_write(struct bt_db *db, struct bt_jsonw *w, int show_idle, int64_t *first_tid,
			struct bt_err *err)
{
	struct fthread *t = NULL;
	size_t nt = 0, i;
	int64_t no_alloc = 0, no_faults = 0;
	int rc = load_threads(db, show_idle, &t, &nt, err);

	if (!rc && !(rc = bt_db_meta_int(db, "no_alloc", 0, &no_alloc, err)))
		rc = bt_db_meta_int(db, "no_faults", 0, &no_faults, err);
	*first_tid = nt ? t[0].tid : -1;
	bt_jsonw_key(w, "flame");
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "noalloc");   /* the trace records no allocations: the page says so, not "0 B" */
	bt_jsonw_int(w, no_alloc != 0);
	bt_jsonw_key(w, "nofaults");
	bt_jsonw_int(w, no_faults != 0);
	bt_jsonw_key(w, "min_pct");
	bt_jsonw_real(w, BT_HTML_FLAME_MIN / 100.0);
	bt_jsonw_key(w, "threads_left_out");
	bt_jsonw_int(w, nt > BT_HTML_FLAME_THREADS ? (int64_t)(nt - BT_HTML_FLAME_THREADS) : 0);
	bt_jsonw_key(w, "threads");
	bt_jsonw_begin_array(w);
	for (i = 0; !rc && i < nt && i < BT_HTML_FLAME_THREADS; i++)
		if (t[i].total > 0)
			rc = thread(db, &t[i], show_idle, w, err);
	bt_jsonw_end_array(w);
	bt_jsonw_end_object(w);
	for (i = 0; i < nt; i++)
		free(t[i].name);
	free(t);
	return rc;
}
