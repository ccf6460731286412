/*
 * Unit tests of the display frames (engine/startup/frames.c) on a
 * constructed 60 Hz main thread: the period from the frames' cadence, each
 * frame's vsync tick on the grid and its deadline one period later, jank
 * where the frame (its draw's end where drawn) ends past it and by how
 * many vsyncs, a janky frame's cause line naming the app method that held
 * it, and what filled the frames (ui_frame_methods) in all and in the
 * janky ones.
 */
#include <stdio.h>
#include <string.h>

#include "engine/startup/display.h"
#include "engine/startup/frames.h"
#include "engine/startup/ui_frames_int.h"
#include "tests/tap.h"
#include "tests/tslice.h"
#include "tests/tsql.h"

#define P 16666667LL   /* 60 Hz */
#define MS 1000000LL

/* The frames: at tick k + 1 ms, lasting ui ms, drawn for draw ms after;
 * with a child slice of the app's Adapter.bind lasting bind ms. */
static const int64_t frames[][4] = {
	/* k, ui, draw, bind */
	{ 0, 5, 2, 0 }, { 1, 5, 2, 0 },
	{ 2, 5, 13, 0 },    /* its draw ends 19 ms in: janky */
	{ 3, 5, 2, 0 },
	{ 4, 20, 2, 15 },   /* 20 ms on the main thread, 15 of them in bind: janky, 1 vsync */
	{ 6, 5, 2, 0 },
	{ 7, 40, 2, 0 },    /* 2 vsyncs missed */
	{ 10, 5, 2, 0 }, { 11, 5, 2, 0 },
	{ 13, 20, 2, 15 },  /* bind again, 10 of its 15 ms in the platform's setText */
};

#define NF (sizeof frames / sizeof frames[0])

static struct bt_db *new_db(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;

	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) ||
	    bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)1, "main", (int64_t)1) ||
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)1, (int64_t)0, "Choreographer#doFrame",
		       NULL, NULL, NULL, NULL) ||
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)2, (int64_t)0,
		       "void com.example.Adapter.bind(int)", "void", "com.example.Adapter", "bind", "int") ||
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)3, (int64_t)0, "DrawFrame", NULL, NULL,
		       NULL, NULL) ||
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)4, (int64_t)0,
		       "void android.widget.TextView.setText(java.lang.CharSequence)", "void", "android.widget.TextView",
		       "setText", "java.lang.CharSequence"))
		printf("# %s\n", err.msg);
	return db;
}

static struct bt_slice sl(int64_t frame, int64_t ts, int64_t dur, int64_t self, int64_t depth)
{
	struct bt_slice s = tslice(1, frame, ts, dur, self, depth);

	s.cpu_dur = dur;
	s.self_cpu_dur = self;   /* on the CPU throughout: no unexplained sleep */
	return s;
}

/* UI frame k of a 60 Hz run: at its tick + 1 ms, ui long with self of
 * its own, its N vsync, drawn for 2 ms after it. */
static void ui_frame(struct bt_frames *f, struct bt_display *d, int64_t k, int64_t ui, int64_t self, int64_t vsync)
{
	int64_t ts = k * P + MS;
	struct bt_dframe u = { ts, ui, vsync, 1 }, dr = { ts + ui, 2 * MS, vsync, 3 };
	struct bt_slice s = sl(1, ts, ui, self, 0);

	bt_frames_slice(f, &s, BT_FRAMES_UI, 0);
	bt_display_add_ui(d, &u);
	bt_display_add_draw(d, &dr);
}

/*
 * A sampled dump's frames (idle slices: the idle policy ran), 60 Hz, the
 * on-time ones beginning 0.2 ms after their tick, where the vsync a frame
 * was for is read from what the main thread did:
 *   - frame 10's message began with a 20 ms wait for a GC: it was posted
 *     on tick 10, not on the tick before its doFrame (11);
 *   - frames 12 and 15 each run long with no wait for work before the
 *     next: 12's first callback (a fling's step) asks by 12 ms (before
 *     tick 13), 15's first callback runs past tick 16, so the frames after
 *     them were pending from ticks 13 and 17;
 *   - frame 20's successor has its start placed 0.3 ms before tick 21
 *     (in the gap before its first sample): one frame a vsync, so 21.
 * wrap: the callbacks' slices are a message's, and the first callback's
 * first child is a wrapper with no time of its own around the slice that
 * has it (the common slice's short path, frames.c's plain_slice, must
 * note it as the first child all the same): the same ticks.
 */
static void test_sampled(int wrap)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_frames *f = bt_frames_new();
	struct bt_display d;
	struct bt_db *db = new_db();
	int64_t k, idle_from = 0;
	struct bt_slice s;
	struct bt_dframe u;

#define FRAME(ts, dur, msg) do { \
	if (idle_from) {   /* the wait for work before it */ \
		s = sl(4, idle_from, (ts) - idle_from, (ts) - idle_from, 0); \
		s.idle = 1; \
		bt_frames_slice(f, &s, 0, 0); \
	} \
	s = sl(1, ts, dur, 0, 0); \
	s.msg_id = msg; \
	bt_frames_slice(f, &s, BT_FRAMES_UI, 0); \
	u = (struct bt_dframe){ ts, dur, -1, 1 }; \
	bt_display_add_ui(&d, &u); \
	idle_from = (ts) + (dur); \
} while (0)
/* a frame at ts: callbacks each ending at the next of ends[] (ms after
 * ts; the last one the traversal), then the next frame right after */
#define CALLBACKS(ts, e1, e2, e3) do { \
	s = sl(2, (ts) + MS / 10, (e1) * MS - MS / 10, (e1) * MS - MS / 10, 2 + wrap); \
	s.msg_id = wrap * (ts); \
	bt_frames_slice(f, &s, 0, 0); \
	if (wrap) {   /* its wrapper, none of its own */ \
		s.depth = 2, s.self_dur = s.self_cpu_dur = 0; \
		bt_frames_slice(f, &s, 0, 0); \
	} \
	s = sl(2, (ts) + (e1) * MS, ((e2) - (e1)) * MS, ((e2) - (e1)) * MS, 2); \
	s.msg_id = wrap * (ts); \
	bt_frames_slice(f, &s, 0, 0); \
	s = sl(2, (ts) + (e2) * MS, ((e3) - (e2)) * MS, ((e3) - (e2)) * MS, 2); \
	s.msg_id = wrap * (ts); \
	bt_frames_slice(f, &s, BT_FRAMES_TRAVERSAL, 0); \
	s = sl(4, (ts) + MS / 10, (e3) * MS - MS / 10, 0, 1); \
	s.msg_id = wrap * (ts); \
	bt_frames_slice(f, &s, BT_FRAMES_CALLBACK, 0); \
	s = sl(1, ts, (e3) * MS, MS / 10, 0); \
	bt_frames_slice(f, &s, BT_FRAMES_UI, 0); \
	u = (struct bt_dframe){ ts, (e3) * MS, -1, 1 }; \
	bt_display_add_ui(&d, &u); \
	idle_from = 0; \
	FRAME((ts) + (e3) * MS + MS / 20, 3 * MS, 0); \
} while (0)

	bt_display_init(&d);
	for (k = 0; k < 10; k++)
		FRAME(k * P + MS / 5, 4 * MS, 0);
	s = sl(4, idle_from, 10 * P + MS / 5 - idle_from, 10 * P + MS / 5 - idle_from, 0);
	s.idle = 1;
	bt_frames_slice(f, &s, 0, 0);
	s = sl(2, 10 * P + MS / 5, 20 * MS, 20 * MS, 0);   /* the GC wait, in frame 10's message */
	s.msg_id = 50;
	bt_frames_slice(f, &s, 0, 0);
	idle_from = 0;
	FRAME(10 * P + 20 * MS + MS / 4, 3 * MS, 50);
	FRAME(12 * P - 2 * MS, MS, 0);   /* a wait for work before 12 */
	idle_from = 0;
	s = sl(4, 12 * P - MS, P / 2, P / 2, 0);
	s.idle = 1;
	bt_frames_slice(f, &s, 0, 0);
	CALLBACKS(12 * P + MS / 5, 12, 30, 36);   /* next: 12P + 36.05 ms, tick 14; pending since 13 */
	s = sl(4, 12 * P + 39 * MS + MS / 20, 15 * P + MS / 5 - (12 * P + 39 * MS + MS / 20), 1, 0);
	s.idle = 1;
	bt_frames_slice(f, &s, 0, 0);
	CALLBACKS(15 * P + MS / 5, 20, 30, 36);   /* first callback past tick 16: pending since 17 */
	idle_from = 15 * P + 39 * MS + MS / 20;
	for (k = 18; k < 21; k++)
		FRAME(k * P + MS / 5, 4 * MS, 0);
	FRAME(21 * P - 3 * MS / 10, 4 * MS, 0);   /* placed 0.3 ms before tick 21 */
	FRAME(22 * P + MS / 5, 4 * MS, 0);
#undef FRAME
#undef CALLBACKS

	is_int(bt_frames_store(f, &d, 1, db, &err), BT_OK, wrap ? "sampled, wrapped: stored" : "sampled: stored");
	if (err.code)
		printf("# %s\n", err.msg);
	/* the ticks are at kP + 0.05 ms (the on-time starts less PHASE_LEAD) */
	is_rows(db, "SELECT (expected_ts + 1000000) / 16666667, janky FROM ui_frames WHERE ts >= 10 * 16666667 "
		"ORDER BY ts",
		"10|1;11|0;12|1;13|1;15|1;17|0;18|0;19|0;20|0;21|0;22|0",
		wrap ? "sampled, a wrapper as the first callback's first child: the same ticks"
		     : "sampled: each frame's tick from its message, the frame before's first callback and one frame a vsync");
	bt_frames_free(f);
	bt_display_release(&d);
	bt_db_close(db);
}

/*
 * A cause line's owner where a parent was not kept: Adapter.bind (app)
 * calls a platform wrapper with no time of its own (not kept), which
 * calls setText (10 ms), then the app's Other.draw (3 ms). setText's time
 * is bind's, its nearest ancestor, not Other.draw's, the sibling read
 * just before it.
 */
static void test_owner_not_kept(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_frames *f = bt_frames_new();
	struct bt_display d;
	struct bt_db *db = new_db();
	char *cause;
	int64_t k;

	if (bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)5, (int64_t)0,
		       "void android.view.View.wrap()", "void", "android.view.View", "wrap", "") ||
	    bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)6, (int64_t)0,
		       "void com.example.Other.draw()", "void", "com.example.Other", "draw", ""))
		printf("# %s\n", err.msg);
	bt_display_init(&d);
	for (k = 0; k < 9; k++) {
		int64_t ts = k * P + MS, ui = k == 6 ? 20 * MS : 5 * MS;
		struct bt_slice s;
		if (k == 7)
			continue;   /* the janky one ran through its tick */
		if (k == 6) {
			s = sl(4, ts + 2 * MS, 10 * MS, 10 * MS, 3);    /* setText */
			bt_frames_slice(f, &s, 0, 0);
			s = sl(5, ts + 2 * MS, 11 * MS, 0, 2);          /* the wrapper: nothing of its own */
			bt_frames_slice(f, &s, 0, 0);
			s = sl(6, ts + 13 * MS, 3 * MS, 3 * MS, 2);     /* Other.draw */
			bt_frames_slice(f, &s, 0, 1);
			s = sl(2, ts + MS, 16 * MS, 2 * MS, 1);         /* bind */
			bt_frames_slice(f, &s, 0, 1);
		}
		ui_frame(f, &d, k, ui, k == 6 ? MS : ui, 200 + k);
	}
	is_int(bt_frames_store(f, &d, 1, db, &err), BT_OK, "a parent not kept: stored");
	cause = tsql_rows(db, "SELECT cause FROM ui_frames WHERE vsync = 206");
	if (!ok(cause && strstr(cause, "Adapter.bind(int) 12.0 ms") && strstr(cause, "Other.draw() 3.0 ms") &&
		strstr(cause, "bind") < strstr(cause, "Other"),
		"a parent not kept: the callee's time is its nearest ancestor's app method's, not a sibling's"))
		printf("#   cause: %s\n", cause ? cause : "(none)");
	free(cause);
	bt_frames_free(f);
	bt_display_release(&d);
	bt_db_close(db);
}

/*
 * A janky frame with ten methods of their own time and 2.9 ms of its
 * doFrame's: ui_frame_methods' janky sums hold its eight with the most
 * (frames.c keeps no more of a frame), the lower id where the eighth and
 * ninth tie (methods 12 and 13); every one's time counts in all the
 * frames'.
 */
static void test_janky_top(void)
{
	static const int64_t tenths[10] = { 3, 9, 12, 12, 15, 18, 21, 24, 27, 30 };   /* of a ms, methods 10..19 */
	struct bt_err err = BT_ERR_INIT;
	struct bt_frames *f = bt_frames_new();
	struct bt_display d;
	struct bt_db *db = new_db();
	int64_t k, j;

	for (j = 0; j < 10; j++) {
		char name[64];
		snprintf(name, sizeof name, "void android.view.V%d.run()", (int)j);
		if (bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", 10 + j, (int64_t)0, name, "void",
			       "android.view.V", "run", ""))
			printf("# %s\n", err.msg);
	}
	bt_display_init(&d);
	for (k = 0; k < 9; k++) {
		int64_t ts = k * P + MS, ui = k == 6 ? 20 * MS : 5 * MS, at = ts + MS / 10, own = 0;
		struct bt_slice s;
		if (k == 7)
			continue;   /* the janky one ran through its tick */
		for (j = 0; k == 6 && j < 10; j++) {
			s = sl(10 + j, at, tenths[j] * MS / 10, tenths[j] * MS / 10, 1);
			bt_frames_slice(f, &s, 0, 0);
			at += tenths[j] * MS / 10;
			own += tenths[j] * MS / 10;
		}
		ui_frame(f, &d, k, ui, ui - own, 300 + k);
	}
	is_int(bt_frames_store(f, &d, 1, db, &err), BT_OK, "a janky frame of ten methods: stored");
	is_int(tsql_int(db, "SELECT janky FROM ui_frames WHERE vsync = 306", -1), 1, "... the frame is janky");
	is_rows(db, "SELECT frame_id, janky_self_ns FROM ui_frame_methods WHERE janky_self_ns > 0 ORDER BY frame_id",
		"1|2900000;12|1200000;14|1500000;15|1800000;16|2100000;17|2400000;18|2700000;19|3000000",
		"the janky sums: its eight methods with the most time, the lower id of a tie");
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frame_methods WHERE frame_id >= 10 AND self_ns > 0", -1), 10,
	       "all the frames' sums: every method's");
	bt_frames_free(f);
	bt_display_release(&d);
	bt_db_close(db);
}

/*
 * The ui_frames rows as kept (ui_frames.c): a frame's N, a deadline not
 * one period after its vsync and a draw in columns of their own from the
 * first row with one (the rows before read NULL, their own deadline,
 * NULL); the vsyncs missed from the end, the deadline and the period.
 */
static void test_rows(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = new_db();
	struct bt_ui_frames *t = bt_ui_frames_new(1, 10, 1);   /* room for one: the rest grow it */
	const struct bt_ui_frame_row r[] = {
		{ 100, -1, 5, 105, 98, 108, 0, 0, 0, NULL },     /* on time */
		{ 120, 7, 15, 135, 118, 128, 0, 0, 0, NULL },    /* past its deadline by 7: one vsync */
		{ 140, -1, 5, 145, 138, 150, 144, 3, 1, NULL },  /* a deadline of its own, drawn */
		{ 160, 9, 20, 181, 158, 168, 0, 0, 0, NULL },    /* 13 past: two */
		{ 190, -1, 8, 198, 188, 198, 0, 0, 0, NULL },    /* at its deadline: on time */
	};
	size_t i;

	for (i = 0; i < sizeof r / sizeof r[0]; i++)
		bt_ui_frames_add(t, &r[i]);
	is_int(bt_ui_frames_attach(t, db, &err), BT_OK, "rows kept: attached");
	is_rows(db, "SELECT ts, vsync, dur, end_ts, period_ns, expected_ts, deadline_ts, janky, missed_vsyncs,"
		" draw_ts, draw_dur FROM ui_frames ORDER BY id",
		"100|-|5|105|10|98|108|0|0|-|-;120|7|15|135|10|118|128|1|1|-|-;140|-|5|145|10|138|150|0|0|144|3;"
		"160|9|20|181|10|158|168|1|2|-|-;190|-|8|198|10|188|198|0|0|-|-",
		"rows kept: N, deadlines and draws from the first that has one, vsyncs missed from the end");
	is_rows(db, "SELECT key, value FROM meta WHERE key IN ('ui_frames_janky', 'ui_frames_missed') ORDER BY key",
		"ui_frames_janky|2;ui_frames_missed|3", "rows kept: the summary's janky frames and vsyncs missed");
	bt_db_close(db);
}

/*
 * A hostile trace's order: frame 8 closes before frame 6 (a frame that
 * began before the one closed before it). The frames' records, kept as
 * they closed, are then read sorted: frame 6, janky, still finds its own
 * methods (bind's 15 ms) for its cause line.
 */
static void test_unsorted(void)
{
	static const int64_t order[] = { 0, 1, 2, 3, 4, 5, 8, 6, 9 };
	struct bt_err err = BT_ERR_INIT;
	struct bt_frames *f = bt_frames_new();
	struct bt_display d;
	struct bt_db *db = new_db();
	char *cause;
	size_t i;

	bt_display_init(&d);
	for (i = 0; i < sizeof order / sizeof order[0]; i++) {
		int64_t k = order[i], ts = k * P + MS, ui = k == 6 ? 20 * MS : 5 * MS;
		struct bt_slice s;
		if (k == 6) {
			s = sl(2, ts + MS, 15 * MS, 15 * MS, 1);   /* bind */
			bt_frames_slice(f, &s, 0, 1);
		}
		ui_frame(f, &d, k, ui, k == 6 ? 5 * MS : ui, 400 + k);
	}
	is_int(bt_frames_store(f, &d, 1, db, &err), BT_OK, "frames closed out of order: stored");
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frames", -1), 9, "... a row each");
	cause = tsql_rows(db, "SELECT cause FROM ui_frames WHERE vsync = 406 AND janky");
	if (!ok(cause && strstr(cause, "Adapter.bind(int) 15.0 ms"),
		"frames closed out of order: the janky one's cause names its own method"))
		printf("#   cause: %s\n", cause ? cause : "(none)");
	free(cause);
	bt_frames_free(f);
	bt_display_release(&d);
	bt_db_close(db);
}

/*
 * A janky frame's sleep (off the CPU, no record saying why) is named
 * from 1 ms of one slice's time: setText's 10 ms, off the CPU for off ns
 * of them. The cause line says "sleep" with it, or nothing under 1 ms.
 */
static char *sleep_cause(int64_t off)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_frames *f = bt_frames_new();
	struct bt_display d;
	struct bt_db *db = new_db();
	char *cause;
	int64_t k;

	bt_display_init(&d);
	for (k = 0; k < 9; k++) {
		int64_t ts = k * P + MS, ui = k == 6 ? 20 * MS : 5 * MS;
		struct bt_slice s;
		if (k == 7)
			continue;   /* the janky one ran through its tick */
		if (k == 6) {
			s = sl(4, ts + 2 * MS, 10 * MS, 10 * MS, 1);   /* setText */
			s.cpu_dur = s.self_cpu_dur = 10 * MS - off;
			bt_frames_slice(f, &s, 0, 0);
		}
		ui_frame(f, &d, k, ui, k == 6 ? 10 * MS : ui, 500 + k);
	}
	if (bt_frames_store(f, &d, 1, db, &err))
		printf("# %s\n", err.msg);
	cause = tsql_rows(db, "SELECT cause FROM ui_frames WHERE vsync = 506 AND janky");
	bt_frames_free(f);
	bt_display_release(&d);
	bt_db_close(db);
	return cause;
}

static void test_sleep(void)
{
	char *at = sleep_cause(MS), *under = sleep_cause(MS - MS / 10);

	if (!ok(at && strstr(at, "sleep 1.0 ms in ") && strstr(at, "setText"),
		"a janky frame's sleep of 1 ms is named, with the method that slept"))
		printf("#   cause: %s\n", at ? at : "(none)");
	if (!ok(under && !strstr(under, "sleep"), "... one of 0.9 ms is not"))
		printf("#   cause: %s\n", under ? under : "(none)");
	free(at);
	free(under);
}

int main(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_frames *f = bt_frames_new();
	struct bt_display d;
	struct bt_db *db = new_db();
	char *cause;
	size_t i;

	bt_display_init(&d);
	for (i = 0; i < NF; i++) {
		int64_t ts = frames[i][0] * P + MS, ui = frames[i][1] * MS, bind = frames[i][3] * MS;
		struct bt_dframe u = { ts, ui, 100 + frames[i][0], 1 }, dr = { ts + ui, frames[i][2] * MS, u.vsync, 3 };
		struct bt_slice s;
		if (bind && frames[i][0] == 13) {   /* setText ends first, then bind */
			s = sl(4, ts + 2 * MS, 10 * MS, 10 * MS, 2);
			bt_frames_slice(f, &s, 0, 0);
			s = sl(2, ts + MS, bind, bind - 10 * MS, 1);
			bt_frames_slice(f, &s, 0, 1);
		} else if (bind) {
			s = sl(2, ts + MS, bind, bind, 1);
			bt_frames_slice(f, &s, 0, 1);
		}
		s = sl(1, ts, ui, ui - bind, 0);
		bt_frames_slice(f, &s, 1, 0);
		bt_display_add_ui(&d, &u);
		bt_display_add_draw(&d, &dr);
	}
	is_int(bt_frames_store(f, &d, 1, db, &err), BT_OK, "stored");
	if (err.code)
		printf("# %s\n", err.msg);
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frames", -1), NF, "a row per UI frame");
	is_int(tsql_int(db, "SELECT min(period_ns) = max(period_ns) AND min(period_ns) = 16666667 FROM ui_frames", -1),
	       1, "the period: 60 Hz from the cadence");
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frames WHERE deadline_ts - expected_ts != period_ns", -1), 0,
	       "a deadline one period after the vsync");
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frames WHERE expected_ts > ts OR ts - expected_ts > 1000000", -1),
	       0, "each frame's vsync is the grid's tick just before it");
	is_int(tsql_int(db, "SELECT count(DISTINCT (expected_ts % 16666667)) FROM ui_frames", -1), 1,
	       "... all on one grid");
	is_rows(db, "SELECT vsync, end_ts - ts, janky, missed_vsyncs, draw_dur FROM ui_frames ORDER BY ts",
		"100|7000000|0|0|2000000;101|7000000|0|0|2000000;102|18000000|1|1|13000000;"
		"103|7000000|0|0|2000000;104|22000000|1|1|2000000;106|7000000|0|0|2000000;"
		"107|42000000|1|2|2000000;110|7000000|0|0|2000000;111|7000000|0|0|2000000;"
		"113|22000000|1|1|2000000",
		"jank: ended (at its draw's end) past the deadline, by whole vsyncs");
	is_rows(db, "SELECT key, value FROM meta WHERE key LIKE 'ui_frames%' ORDER BY key",
		"ui_frames|10;ui_frames_janky|4;ui_frames_missed|5;ui_frames_p50_ns|7000000;ui_frames_p90_ns|22000000;"
		"ui_frames_p99_ns|42000000;ui_frames_period_ns|16666667",
		"meta: frames, janky ones, vsyncs missed, the frame times' nearest ranks (7 ms of ten, 22 ms ninth, "
		"42 ms tenth), the period");
	cause = tsql_rows(db, "SELECT cause FROM ui_frames WHERE vsync = 104");
	ok(strstr(cause, "bind") && strstr(cause, "15.0 ms") && strstr(cause, "bind") < strstr(cause, "15.0 ms"),
	   "the janky frame's cause names the app method with its time");
	if (!strstr(cause, "bind"))
		printf("#   cause: %s\n", cause);
	free(cause);
	cause = tsql_rows(db, "SELECT cause FROM ui_frames WHERE vsync = 113");
	if (!ok(strstr(cause, "Adapter.bind(int) 15.0 ms") && !strstr(cause, "setText"),
		"the platform code an app method called counts as the app method's in the cause"))
		printf("#   cause: %s\n", cause);
	free(cause);
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frames WHERE janky = 0 AND cause IS NOT NULL", -1), 0,
	       "no cause for a frame on time");
	is_rows(db, "SELECT frame_id, self_ns, janky_self_ns FROM ui_frame_methods WHERE tid = 1 ORDER BY frame_id",
		"1|85000000|55000000;2|20000000|20000000;4|10000000|10000000", "what filled the frames: all, and the janky ones");
	bt_frames_free(f);
	bt_display_release(&d);
	bt_db_close(db);

	/* no UI frame: nothing stored */
	db = new_db();
	bt_display_init(&d);
	f = bt_frames_new();
	is_int(bt_frames_store(f, &d, 1, db, &err), BT_OK, "no frames: fine");
	is_int(tsql_int(db, "SELECT count(*) FROM ui_frames", -1), 0, "no frames: no rows");
	is_int(tsql_int(db, "SELECT count(*) FROM meta WHERE key = 'ui_frames'", -1), 0, "no frames: no meta");
	bt_frames_free(f);
	bt_db_close(db);
	test_sampled(0);
	test_sampled(1);
	test_owner_not_kept();
	test_janky_top();
	test_rows();
	test_unsorted();
	test_sleep();
	return done_testing();
}
