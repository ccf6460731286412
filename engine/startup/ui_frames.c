/*
 * The ui_frames rows in memory (ui_frames_int.h): a scratch analysis
 * reads them where they are instead of inserting each (about 4,600
 * instructions a row in SQLite, most of the frames' stored cost); and
 * their summary in meta, which the rules and the fleet summary read
 * instead of three scans of every frame.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"
#include "engine/startup/ui_frames_int.h"

/* A row as kept: 40 bytes (a scroll has hundreds of thousands of
 * frames). The period is the table's; the vsyncs missed follow from the
 * end, the deadline and the period; what most tables do not have (a
 * frame's N, a deadline not one period after its vsync, a draw) in
 * columns of their own from the first row that does. */
struct kept_row {
	int64_t ts, dur, end_ts, expected;
	char *cause;
};

struct draw { int64_t ts, dur; int drawn; };

struct bt_ui_frames {
	int64_t tid;
	struct kept_row *r;       /* row id i + 1 */
	size_t n, cap;
	int64_t period;           /* every row's */
	int64_t *vsync;           /* by row, once a row had an N (else NULL: -1) */
	int64_t *deadline;        /* by row, once one was not expected + period (else NULL) */
	struct draw *draw;        /* by row, once a row was drawn (else NULL) */
};

/* Columns, in the order of the ui_frames table (queries/schema.sql). */
enum { UF_ID, UF_TID, UF_TS, UF_VSYNC, UF_DUR, UF_END_TS, UF_PERIOD, UF_EXPECTED, UF_DEADLINE, UF_JANKY,
       UF_MISSED, UF_DRAW_TS, UF_DRAW_DUR, UF_CAUSE };

static const char uf_schema[] =
	"CREATE TABLE x(id INTEGER, tid INTEGER, ts INTEGER, vsync INTEGER, dur INTEGER, end_ts INTEGER,"
	" period_ns INTEGER, expected_ts INTEGER, deadline_ts INTEGER, janky INTEGER, missed_vsyncs INTEGER,"
	" draw_ts INTEGER, draw_dur INTEGER, cause TEXT)";

struct bt_ui_frames *bt_ui_frames_new(int64_t tid, int64_t period, size_t n)
{
	struct bt_ui_frames *t = bt_xcalloc(1, sizeof *t);

	t->tid = tid;
	t->period = period;
	t->cap = n;
	t->r = n ? bt_xmalloc(n * sizeof *t->r) : NULL;
	return t;
}

void bt_ui_frames_free(struct bt_ui_frames *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->r[i].cause);
	free(t->r);
	free(t->vsync);
	free(t->deadline);
	free(t->draw);
	free(t);
}

/* Row i's deadline: one period after its vsync unless the table says. */
static int64_t deadline_of(const struct bt_ui_frames *t, size_t i)
{
	return t->deadline ? t->deadline[i] : bt_sat_add(t->r[i].expected, t->period);
}

/* The vsyncs row i missed: the periods it ended past its deadline, a
 * part of one a whole. */
static int64_t missed_of(const struct bt_ui_frames *t, size_t i)
{
	int64_t deadline = deadline_of(t, i);
	uint64_t late;

	if (t->r[i].end_ts <= deadline)
		return 0;
	late = (uint64_t)t->r[i].end_ts - (uint64_t)deadline;   /* fits: end > deadline */
	return (int64_t)(late / (uint64_t)t->period + (late % (uint64_t)t->period != 0));
}

void bt_ui_frames_add(struct bt_ui_frames *t, const struct bt_ui_frame_row *r)
{
	size_t cap = t->cap, i;

	BT_GROW(t->r, t->n + 1, t->cap);
	if (t->cap != cap && t->vsync)
		t->vsync = bt_xrealloc(t->vsync, t->cap * sizeof *t->vsync);
	if (t->cap != cap && t->deadline)
		t->deadline = bt_xrealloc(t->deadline, t->cap * sizeof *t->deadline);
	if (t->cap != cap && t->draw)
		t->draw = bt_xrealloc(t->draw, t->cap * sizeof *t->draw);
	if (r->vsync >= 0 && !t->vsync) {   /* the rows before had none */
		t->vsync = bt_xmalloc(t->cap * sizeof *t->vsync);
		for (i = 0; i < t->n; i++)
			t->vsync[i] = -1;
	}
	if (t->vsync)
		t->vsync[t->n] = r->vsync;
	if (r->deadline != bt_sat_add(r->expected, t->period) && !t->deadline) {   /* theirs: one period */
		t->deadline = bt_xmalloc(t->cap * sizeof *t->deadline);
		for (i = 0; i < t->n; i++)
			t->deadline[i] = bt_sat_add(t->r[i].expected, t->period);
	}
	if (t->deadline)
		t->deadline[t->n] = r->deadline;
	if (r->drawn && !t->draw)
		t->draw = bt_xcalloc(t->cap, sizeof *t->draw);
	if (t->draw)
		t->draw[t->n] = (struct draw){ r->draw_ts, r->draw_dur, r->drawn };
	t->r[t->n++] = (struct kept_row){ r->ts, r->dur, r->end_ts, r->expected, r->cause };
}

static size_t uf_nrows(const void *data)
{
	return ((const struct bt_ui_frames *)data)->n;
}

static int uf_exists(const void *data, size_t id)
{
	(void)data;
	(void)id;
	return 1;
}

static int64_t uf_column(const void *data, size_t id, int col)
{
	const struct bt_ui_frames *t = data;
	const struct kept_row *r = &t->r[id - 1];
	const struct draw *w = t->draw ? &t->draw[id - 1] : NULL;

	switch (col) {
	case UF_ID: return (int64_t)id;
	case UF_TID: return t->tid;
	case UF_TS: return r->ts;
	case UF_VSYNC: return t->vsync && t->vsync[id - 1] >= 0 ? t->vsync[id - 1] : BT_MEMTAB_NULL;
	case UF_DUR: return r->dur;
	case UF_END_TS: return r->end_ts;
	case UF_PERIOD: return t->period;
	case UF_EXPECTED: return r->expected;
	case UF_DEADLINE: return deadline_of(t, id - 1);
	case UF_JANKY: return missed_of(t, id - 1) > 0;
	case UF_MISSED: return missed_of(t, id - 1);
	case UF_DRAW_TS: return w && w->drawn ? w->ts : BT_MEMTAB_NULL;
	case UF_DRAW_DUR: return w && w->drawn ? w->dur : BT_MEMTAB_NULL;
	default: return BT_MEMTAB_NULL;
	}
}

static const char *uf_text(const void *data, size_t id, int col)
{
	const struct bt_ui_frames *t = data;

	return col == UF_CAUSE ? t->r[id - 1].cause : NULL;
}

static int uf_tid_rows(const void *data, int64_t tid, size_t *first, size_t *end)
{
	const struct bt_ui_frames *t = data;

	if (tid != t->tid || !t->n)
		return 0;
	*first = 1;
	*end = t->n + 1;
	return 1;
}

static void uf_release(void *data)
{
	bt_ui_frames_free(data);
}

/* meta ui_frames_*: the count, the janky ones, the vsyncs missed, the
 * period and the frame times' p50/p90/p99 (ui_frames_summary.sql says the
 * same of the frames a timeline gives). */
static int store_summary(const struct bt_ui_frames *t, struct bt_db *db, struct bt_err *err)
{
	int64_t *v = bt_xcalloc(t->n, sizeof *v), janky = 0, missed = 0;
	size_t i;
	int rc;

	for (i = 0; i < t->n; i++) {
		int64_t m = missed_of(t, i);
		v[i] = t->r[i].end_ts - t->r[i].ts;
		janky += m > 0;
		missed = bt_sat_add(missed, m);
	}
	rc = bt_db_set_meta_int(db, "ui_frames", (int64_t)t->n, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "ui_frames_janky", janky, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "ui_frames_missed", missed, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "ui_frames_period_ns", t->period, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "ui_frames_p50_ns", bt_nearest_rank(v, t->n, 50), err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "ui_frames_p90_ns", bt_nearest_rank(v, t->n, 90), err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "ui_frames_p99_ns", bt_nearest_rank(v, t->n, 99), err);
	free(v);
	return rc;
}

int bt_ui_frames_attach(struct bt_ui_frames *t, struct bt_db *db, struct bt_err *err)
{
	const struct bt_memtab mt = { "ui_frames", uf_schema, uf_nrows, uf_exists, uf_column, uf_tid_rows,
				      uf_release, t, 0, 1, uf_text, 1u << UF_CAUSE };

	if (t->n && store_summary(t, db, err)) {
		bt_ui_frames_free(t);
		return err->code;
	}
	return bt_db_attach_memtab(db, &mt, bt_db_rows_kept(db), err);
}
