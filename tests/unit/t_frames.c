/*
 * Unit tests of the display frames (engine/startup/frames.c) on a
 * constructed 60 Hz main thread: the period from the frames' cadence, each
 * frame's vsync tick on the grid and its deadline one period later, jank
 * where the frame (its draw's end where drawn) ends past it and by how
 * many vsyncs, a janky frame's cause line naming the app method that held
 * it, and what filled the frames (ui_frame_methods) in all and in the
 * janky ones.
 */
#include <string.h>

#include "engine/startup/display.h"
#include "engine/startup/frames.h"
#include "tests/tap.h"
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
	struct bt_slice s;

	memset(&s, 0, sizeof s);
	s.tid = 1;
	s.frame_id = frame;
	s.ts = ts;
	s.dur = dur;
	s.self_dur = self;
	s.cpu_dur = dur;
	s.self_cpu_dur = self;   /* on the CPU throughout: no unexplained sleep */
	s.depth = depth;
	return s;
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
		"ui_frames|10;ui_frames_janky|4", "meta: frames and janky ones");
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
	return done_testing();
}
