/*
 * Unit tests of the start-up model (engine/startup/startup.c) on a small
 * constructed trace with its own slices (atrace names): a cold start that
 * begins at the main thread's first slice, its phases (onStart where
 * atrace marks none: between the launch and the resume), the first frame
 * after the launch (not an earlier activity's) ended by its RenderThread
 * draw (TTID), the full display at the draw of the first frame to end
 * after reportFullyDrawn (TTFD); fed slice by slice and from the stored
 * slices alike; a warm start; no start; a start with no frame; the
 * collectors of the candidates for the main thread.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/db/diag.h"
#include "engine/startup/startup.h"
#include "tests/tap.h"
#include "tests/tslice.h"
#include "tests/tsql.h"

static const char *const names[] = {
	NULL, "bindApplication", "activityStart", "activityResume", "Choreographer#doFrame 101", "DrawFrame 101",
	"reportFullyDrawn", "Choreographer#doFrame 102", "DrawFrame 102", "void com.example.App.work()",
	"Choreographer#doFrame 50",
};

/* tid, frame, ts, dur, depth, self (each thread's in preorder) */
static const int64_t cold[][6] = {
	{ 1, 9, 500, 100, 0, 100 },        /* the main thread's first slice: the process's start */
	{ 1, 1, 1000, 2000, 0, 1000 },
	{ 1, 9, 1500, 1000, 1, 1000 },
	{ 1, 10, 3900, 1200, 0, 200 },     /* a frame that began before the launch inside it: */
	{ 1, 2, 4000, 1000, 1, 1000 },     /* not the first frame */
	{ 1, 3, 6000, 500, 0, 500 },
	{ 1, 4, 7000, 1000, 0, 1000 },
	{ 1, 6, 10000, 100, 0, 100 },
	{ 1, 7, 11000, 1000, 0, 1000 },
	{ 2, 5, 8000, 1000, 0, 1000 },     /* the RenderThread's draws */
	{ 2, 8, 12000, 500, 0, 500 },
};

#define N(a) (sizeof(a) / sizeof(a)[0])

static struct bt_slice slice_of(const int64_t *v)
{
	struct bt_slice s = tslice(v[0], v[1], v[2], v[3], v[5], v[4]);

	s.cpu_dur = v[3] / 2;
	s.self_cpu_dur = v[5] / 2;
	return s;
}

/* A database with the frames and threads (main: tid 1), and, if stored,
 * the slices. */
static struct bt_db *new_db(const int64_t (*v)[6], size_t n, int stored)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	size_t i;
	int rc;

	rc = bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)1, "main", (int64_t)1) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)2, "RenderThread", (int64_t)0);
	for (i = 1; !rc && i < N(names); i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)i, (int64_t)0, names[i], NULL, NULL,
				NULL, NULL);
	for (i = 0; stored && !rc && i < n; i++) {
		struct bt_slice s = slice_of(v[i]);
		s.id = (int64_t)i + 1;
		rc = bt_db_insert_slice(db, &s, &err);
	}
	if (rc)
		printf("# %s\n", err.msg);
	return db;
}

/* Slices v as a run gives them: as they end, children first. */
static const int64_t (*ends_v)[6];
static int by_end(const void *a, const void *b)
{
	const int64_t *x = ends_v[*(const size_t *)a], *y = ends_v[*(const size_t *)b];

	if (x[2] + x[3] != y[2] + y[3])
		return x[2] + x[3] < y[2] + y[3] ? -1 : 1;
	return (x[4] < y[4]) - (x[4] > y[4]);
}

/* The slices v in the order they end (order: n of them). */
static void end_order(const int64_t (*v)[6], size_t n, size_t *order)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	ends_v = v;
	qsort(order, n, sizeof *order, by_end);
}

/* The slices v as they end, to one collector (st) or to the candidates' (c). */
static void feed_to(struct bt_startup *st, struct bt_startups *c, const int64_t (*v)[6], size_t n)
{
	size_t order[32], i;

	end_order(v, n, order);
	for (i = 0; i < n; i++) {
		struct bt_slice s = slice_of(v[order[i]]);
		if (st)
			bt_startup_add(st, &s);
		else
			bt_startups_add(c, &s);
	}
}

static void feed(struct bt_startup *st, const int64_t (*v)[6], size_t n)
{
	feed_to(st, NULL, v, n);
}

static void feed_all(struct bt_startups *c, const int64_t (*v)[6], size_t n)
{
	feed_to(NULL, c, v, n);
}

/* The start found in slices v, fed as they end. */
static struct bt_db *fed(const int64_t (*v)[6], size_t n, struct bt_diag *diag, int *rc)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = new_db(v, n, 0);
	struct bt_startup *st = NULL;

	bt_diag_init(diag);
	*rc = bt_startup_new(&st, db, &err);
	ok(!*rc && st, "a collector for the main thread");
	if (!st)
		return db;
	is_int(bt_startup_tid(st), 1, "... of tid 1");
	bt_startup_exact(st, 1);
	feed(st, v, n);
	*rc = bt_startup_store(st, db, diag, &err);
	if (*rc)
		printf("# %s\n", err.msg);
	bt_startup_free(st);
	return db;
}

#define START "SELECT kind, tid, ts, end_ts, ttid_ns, ttfd_ns, source, end_source FROM startup"
#define PHASES "SELECT phase, ts, dur, source, exact FROM startup_phases ORDER BY ts, phase"
#define WANT_START "cold|1|500|9000|8500|12000|first main-thread record|DrawFrame 101"
#define WANT_PHASES \
	"startup|500|8500|first main-thread record|1;bind_application|1000|2000|bindApplication|1;" \
	"activity_launch|4000|1000|activityStart|1;activity_start|5000|1000|between the launch and the resume|1;" \
	"activity_resume|6000|500|activityResume|1;first_frame|7000|2000|Choreographer#doFrame 101|1;" \
	"fully_drawn|9000|3500|reportFullyDrawn|1"

static void test_cold(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db;
	char *a, *b;
	int rc;

	db = fed(cold, N(cold), &diag, &rc);
	is_int(rc, BT_OK, "cold: stored");
	is_rows(db, START, WANT_START, "cold: window, TTID to the first frame's draw, TTFD to the full display's draw");
	is_rows(db, PHASES, WANT_PHASES, "cold: the phases");
	is_int(tsql_int(db, "SELECT sum(self_ns) FROM startup_methods WHERE phase = 'bind_application'", -1), 2000,
	       "cold: the methods' self time in a phase adds up to it");
	is_int(tsql_int(db, "SELECT self_ns FROM startup_methods WHERE phase = 'bind_application' AND frame_id = 9", -1),
	       1000, "cold: App.work's self time inside bindApplication");
	is_int(diag.n, 0, "cold: no diagnostic");
	a = tsql_rows(db, START " UNION ALL " PHASES);
	bt_db_close(db);

	/* the same from the stored slices (a trace that brought its own) */
	db = new_db(cold, N(cold), 1);
	bt_diag_init(&diag);
	is_int(bt_startup_from_slices(db, &diag, &err), BT_OK, "from the stored slices");
	b = tsql_rows(db, START " UNION ALL " PHASES);
	is_str(b, a, "from the stored slices: the same start");
	free(a);
	free(b);
	bt_db_close(db);
}

static void test_warm_and_none(void)
{
	/* no bindApplication: a warm start, at the launch */
	static const int64_t warm[][6] = {
		{ 1, 9, 500, 100, 0, 100 }, { 1, 2, 4000, 1000, 0, 1000 }, { 1, 3, 6000, 500, 0, 500 },
		{ 1, 4, 7000, 1000, 0, 1000 },
	};
	static const int64_t noframe[][6] = { { 1, 1, 1000, 2000, 0, 2000 }, { 1, 2, 4000, 1000, 0, 1000 } };
	struct bt_err err = BT_ERR_INIT;
	static char sentinel;
	struct bt_startup *st = (struct bt_startup *)&sentinel;   /* must be set to NULL */
	struct bt_diag diag;
	struct bt_db *db;
	int rc;

	db = fed(warm, N(warm), &diag, &rc);
	is_rows(db, START, "warm|1|4000|8000|4000|-|activityStart|Choreographer#doFrame 101",
		"warm: from the launch to the first frame's end (no draw)");
	bt_db_close(db);

	db = fed(noframe, N(noframe), &diag, &rc);
	is_int(rc, BT_OK, "no frame: stored");
	is_rows(db, "SELECT kind, ts, end_ts, ttid_ns FROM startup", "cold|1000|-|-", "no frame: no end");
	ok(diag.n == 1 && !strcmp(diag.items[0].code, "startup_no_first_frame"), "no frame: a diagnostic says so");
	bt_db_close(db);

	/* frames with no start's mark: nothing to find */
	db = NULL;
	if (bt_db_create(&db, ":memory:", &err) ||
	    bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)1, "main", (int64_t)1) ||
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)1, (int64_t)0, "void A.a()", NULL, NULL,
		       NULL, NULL))
		printf("# %s\n", err.msg);
	is_int(bt_startup_new(&st, db, &err), BT_OK, "no start's frame: fine");
	ok(st == NULL, "... and no collector");
	bt_db_close(db);
}

static const char *name_of(const void *ctx, size_t id)
{
	(void)ctx;
	return id < N(names) ? names[id] : NULL;
}

/* A collector made from an importer's frames, before the database knows them. */
static void test_frames(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_startup *st = bt_startup_new_frames(1, N(names) - 1, name_of, NULL);
	struct bt_db *db = new_db(cold, 0, 0);
	struct bt_diag diag;

	ok(st != NULL, "new_frames: a collector from names");
	bt_startup_exact(st, 1);
	feed(st, cold, N(cold));
	bt_diag_init(&diag);
	is_int(bt_startup_store(st, db, &diag, &err), BT_OK, "new_frames: stored");
	is_rows(db, START, WANT_START, "new_frames: the same start");
	bt_startup_free(st);
	bt_db_close(db);
	st = bt_startup_new_frames(1, 1, name_of, NULL);
	ok(st != NULL, "bindApplication alone marks a start");
	bt_startup_free(st);
	ok(bt_startup_new_frames(1, 0, name_of, NULL) == NULL, "no frames: no collector");
}

/* The collectors of the candidates for the main thread (startups.c):
 * each slice goes to all; main_tid's is stored, with the other thread's
 * draws it took; nothing for a tid no candidate has, or past the most
 * candidates kept. */
static void test_candidates(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_startups *c = bt_startups_new();
	struct bt_db *db = new_db(cold, 0, 0);
	struct bt_diag diag;
	int64_t tid, k;

	bt_diag_init(&diag);
	bt_startups_candidate(c, 7, N(names) - 1, name_of, NULL);   /* a thread named main that is not */
	bt_startups_candidate(c, 1, N(names) - 1, name_of, NULL);
	bt_startups_candidate(c, 1, N(names) - 1, name_of, NULL);   /* once */
	bt_startups_exact(c, 1);
	feed_all(c, cold, N(cold));
	is_int(bt_startups_store(c, 99, db, &diag, &err), BT_OK, "a main thread no candidate has: fine");
	is_int(tsql_int(db, "SELECT count(*) FROM startup", -1) + tsql_int(db, "SELECT count(*) FROM meta WHERE "
	       "key = 'startup_modeled'", -1), 0, "... storing nothing (the slices are read back)");
	is_int(bt_startups_store(c, 1, db, &diag, &err), BT_OK, "the chosen candidate's: stored");
	is_rows(db, START, WANT_START, "the same start, its RenderThread's draw taken");
	is_rows(db, PHASES, WANT_PHASES, "the same phases, exact");
	is_int(tsql_int(db, "SELECT value FROM meta WHERE key = 'startup_modeled'", 0), 1, "startup_modeled");
	bt_startups_free(c);
	bt_db_close(db);

	c = bt_startups_new();
	db = new_db(cold, 0, 0);
	for (k = 0; k <= BT_STARTUPS_MAX; k++)
		bt_startups_candidate(c, 100 + k, N(names) - 1, name_of, NULL);
	feed_all(c, cold, N(cold));
	is_int(bt_startups_store(c, 100, db, &diag, &err), BT_OK, "too many candidates: fine");
	is_int(tsql_int(db, "SELECT count(*) FROM meta WHERE key = 'startup_modeled'", -1), 0, "... none stored");
	bt_startups_free(c);

	c = bt_startups_new();
	is_int(bt_startups_from_db(c, db, &tid, &err), BT_OK, "the main thread the database names");
	is_int(tid, 1, "... tid 1");
	feed_all(c, cold, N(cold));
	is_int(bt_startups_store(c, tid, db, &diag, &err), BT_OK, "stored");
	is_rows(db, START, WANT_START, "its start, the other thread's draws taken too");
	bt_startups_free(c);
	bt_db_close(db);
}

int main(void)
{
	test_cold();
	test_warm_and_none();
	test_frames();
	test_candidates();
	return done_testing();
}
