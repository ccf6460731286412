/*
 * Unit tests of what a late frame waited behind (engine/startup/late.c):
 * each Looper message's owning method as its slices stream by (children
 * first), the time an app method owned (its own and the platform code
 * below it), else the method with the most self time; the messages as
 * they are stored, the parts of one id as one, by end; the longest message that ended between a frame's
 * vsync and its start (a little after, AHEAD: a sampled start is placed
 * off its true one); the first message at or after a time.
 */
#include <string.h>

#include "engine/startup/late.h"
#include "tests/tap.h"
#include "tests/tslice.h"

#define MS 1000000LL

enum { LOOP = 1, APP_BIND = 2, SETTEXT = 3, APP_LOAD = 4, PLAT_A = 5, PLAT_B = 6 };

static struct bt_slice sl(int64_t frame, int64_t msg, int64_t ts, int64_t dur, int64_t self, int64_t depth)
{
	struct bt_slice s = tslice(1, frame, ts, dur, self, depth);

	s.msg_id = msg;
	return s;
}

/* One slice to the module: its self time not blocked is run. */
static void feed(struct bt_late *l, struct bt_slice s, int64_t run, int app)
{
	bt_late_slice(l, &s, (int)s.depth, run, app);
}

/*
 * The main thread's messages (Looper.loop at depth 0 above them all):
 *   msg 1, 0-20 ms: the app's bind (4 ms of its own) calls the
 *     platform's setText (10 ms), and the app's load runs 6 ms: bind owns
 *     14 ms though setText has the most self time;
 *   msg 2, 30-36 ms: platform code only, PLAT_A 2 ms, PLAT_B 3 ms of
 *     which 2 ms were blocked (run 1 ms): PLAT_A owns it, 2 ms;
 *   msg 3, 40-41 ms: a short one;
 *   msg 4, 60-65 ms: idle slices and slices of no message add nothing.
 */
static struct bt_late *streamed(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_slice idle;

	feed(l, sl(SETTEXT, 1, 2 * MS, 10 * MS, 10 * MS, 2), 10 * MS, 0);
	feed(l, sl(APP_BIND, 1, 1 * MS, 14 * MS, 4 * MS, 1), 4 * MS, 1);
	feed(l, sl(APP_LOAD, 1, 14 * MS, 6 * MS, 6 * MS, 1), 6 * MS, 1);
	feed(l, sl(PLAT_A, 2, 30 * MS, 2 * MS, 2 * MS, 1), 2 * MS, 0);
	feed(l, sl(PLAT_B, 2, 32 * MS, 3 * MS, 3 * MS, 1), 1 * MS, 0);
	feed(l, sl(APP_LOAD, 3, 40 * MS, 1 * MS, 1 * MS, 1), 1 * MS, 1);
	idle = sl(PLAT_B, 4, 60 * MS, 5 * MS, 5 * MS, 1);
	idle.idle = 1;
	bt_late_slice(l, &idle, (int)idle.depth, 5 * MS, 0);
	feed(l, sl(LOOP, 0, 0, 70 * MS, 0, 0), 0, 0);   /* the loop: no message's */
	bt_late_message(l, 1, 0, 20 * MS);
	bt_late_message(l, 3, 40 * MS, 41 * MS);   /* not in id order: sorted when ready */
	bt_late_message(l, 2, 30 * MS, 36 * MS);
	bt_late_message(l, 4, 60 * MS, 65 * MS);
	bt_late_ready(l);
	return l;
}

static void test_owner_and_behind(void)
{
	struct bt_late *l = streamed();
	struct bt_late_msg m;
	int64_t ts = 0, end = 0;

	/* a frame whose vsync came at 5 ms and that began at 25 ms waited
	 * behind msg 1, owned by the app's bind with setText's time */
	ok(bt_late_behind(l, 5 * MS, 25 * MS, &m), "a message ended between the vsync and the start");
	is_int(m.msg_id, 1, "the message");
	is_int(m.ts, 0, "its start");
	is_int(m.end, 20 * MS, "its end");
	is_int(m.frame, APP_BIND, "owned by the app method above the platform's time");
	is_int(m.ns, 14 * MS, "its own time and setText's");

	/* msg 2 has no app code: the method with the most self time not
	 * blocked owns it */
	ok(bt_late_behind(l, 25 * MS, 38 * MS, &m), "msg 2 found");
	is_int(m.msg_id, 2, "msg 2");
	is_int(m.frame, PLAT_A, "no app method: the most self time not blocked (2 ms against 1)");
	is_int(m.ns, 2 * MS, "its self time");

	/* the longest of the messages that ended in the window */
	ok(bt_late_behind(l, 5 * MS, 45 * MS, &m), "three ended in the window");
	is_int(m.msg_id, 1, "the longest of them");

	/* the window: ended after the vsync, at most AHEAD after the start */
	ok(bt_late_behind(l, 21 * MS, 39 * MS, &m) && m.msg_id == 2, "msg 1 ended before the vsync: msg 2");
	ok(bt_late_behind(l, 37 * MS, 40 * MS + 900000, &m) && m.msg_id == 3,
	   "a message ending 0.1 ms after the sampled start still ran before it");
	ok(!bt_late_behind(l, 37 * MS, 40 * MS + 500000, &m), "one ending 0.5 ms after the start did not");
	ok(!bt_late_behind(l, 66 * MS, 80 * MS, &m), "none after the last");

	/* msg 4's slices were idle: it has a span but no owner */
	ok(bt_late_behind(l, 50 * MS, 66 * MS, &m), "msg 4 ended in the window");
	is_int(m.msg_id, 4, "msg 4");
	is_int(m.frame, 0, "no owner: its only slice waited for work");

	ok(bt_late_after(l, 21 * MS, &ts, &end), "a message begins after 21 ms");
	is_int(ts, 30 * MS, "the first: msg 2's start");
	is_int(end, 36 * MS, "msg 2's end");
	ok(bt_late_after(l, 30 * MS, &ts, &end) && ts == 30 * MS, "at the time itself");
	ok(!bt_late_after(l, 61 * MS, &ts, &end), "none begins after the last start");
	bt_late_free(l);
}

/* A method's slices in one message are summed: two short ones own it
 * over one longer. */
static void test_message_again(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_late_msg m;

	feed(l, sl(PLAT_A, 7, 0, 3 * MS, 3 * MS, 1), 3 * MS, 0);
	feed(l, sl(PLAT_B, 7, 3 * MS, 2 * MS, 2 * MS, 1), 2 * MS, 0);
	feed(l, sl(PLAT_B, 7, 5 * MS, 2 * MS, 2 * MS, 1), 2 * MS, 0);
	bt_late_message(l, 7, 0, 7 * MS);
	bt_late_ready(l);
	ok(bt_late_behind(l, 0, 7 * MS, &m), "the message found");
	is_int(m.frame, PLAT_B, "two slices of PLAT_B (4 ms) against one of PLAT_A (3 ms)");
	is_int(m.ns, 4 * MS, "summed over its slices");
	ok(!bt_late_behind(l, 7 * MS, 9 * MS, &m), "none ended after it");
	bt_late_free(l);
}

/* Ties and nothing: of two methods with the same time the lower id owns
 * the message, whichever came first (platform code, msg 10; the app's,
 * msg 11); an app method that owns no time owns no message (msg 12: the
 * platform's 1 ms does). */
static void test_ties(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_late_msg m;

	feed(l, sl(PLAT_B, 10, 0, 2 * MS, 2 * MS, 1), 2 * MS, 0);
	feed(l, sl(PLAT_A, 10, 2 * MS, 2 * MS, 2 * MS, 1), 2 * MS, 0);
	feed(l, sl(APP_LOAD, 11, 5 * MS, 3 * MS, 3 * MS, 1), 3 * MS, 1);
	feed(l, sl(APP_BIND, 11, 8 * MS, 3 * MS, 3 * MS, 1), 3 * MS, 1);
	feed(l, sl(PLAT_A, 12, 12 * MS, 1 * MS, 1 * MS, 1), 1 * MS, 0);
	feed(l, sl(APP_LOAD, 12, 13 * MS, 1, 0, 1), 0, 1);
	feed(l, sl(LOOP, 0, 0, 14 * MS, 0, 0), 0, 0);
	bt_late_message(l, 10, 0, 4 * MS);
	bt_late_message(l, 11, 5 * MS, 11 * MS);
	bt_late_message(l, 12, 12 * MS, 13 * MS + 1);
	bt_late_ready(l);
	ok(bt_late_behind(l, 0, 4 * MS, &m) && m.msg_id == 10 && m.frame == PLAT_A,
	   "a tie of platform methods: the lower id, though the other came first");
	ok(bt_late_behind(l, 4 * MS, 11 * MS, &m) && m.msg_id == 11 && m.frame == APP_BIND,
	   "a tie of app methods: the lower id");
	ok(bt_late_behind(l, 11 * MS, 13 * MS + 1, &m) && m.msg_id == 12 && m.frame == PLAT_A && m.ns == MS,
	   "an app method with no time of its own owns nothing");
	bt_late_free(l);
}

/* A message whose slices come back after another message's (one of its
 * slices ended after the other began): its owner is the one its first
 * stretch of slices gave, as the messages are looked up by id. */
static void test_owner_again(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_late_msg m;

	feed(l, sl(PLAT_A, 8, 0, 2 * MS, 2 * MS, 1), 2 * MS, 0);
	feed(l, sl(PLAT_B, 9, 3 * MS, 1 * MS, 1 * MS, 1), 1 * MS, 0);
	feed(l, sl(APP_LOAD, 8, 2 * MS, 5 * MS, 5 * MS, 1), 5 * MS, 1);
	feed(l, sl(LOOP, 0, 0, 9 * MS, 0, 0), 0, 0);
	bt_late_message(l, 8, 0, 7 * MS);
	bt_late_message(l, 9, 3 * MS, 4 * MS);
	bt_late_ready(l);
	ok(bt_late_behind(l, 0, 7 * MS, &m) && m.msg_id == 8, "msg 8, the longest");
	is_int(m.frame, PLAT_A, "owned as its first stretch of slices had it");
	ok(bt_late_behind(l, 3 * MS + 500000, 4 * MS, &m) && m.msg_id == 9 && m.frame == PLAT_B, "msg 9 its own");
	bt_late_free(l);
}

/* A message whose parts come apart (a nested loop ran another between
 * them) is one, from the first part's start to the last one's end, as
 * the messages table holds it; the one between stays its own. */
static void test_parts(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_late_msg m;

	bt_late_message(l, 5, 10 * MS, 12 * MS);
	bt_late_message(l, 6, 12 * MS, 13 * MS);
	bt_late_message(l, 5, 13 * MS, 20 * MS);
	bt_late_message(l, 5, 8 * MS, 9 * MS);   /* an earlier part, come last */
	bt_late_ready(l);
	ok(bt_late_behind(l, 7 * MS, 21 * MS, &m), "found");
	is_int(m.msg_id, 5, "the parts are one message, the longest");
	is_int(m.ts, 8 * MS, "from its first part's start");
	is_int(m.end, 20 * MS, "to its last part's end");
	ok(bt_late_behind(l, 12 * MS, 13 * MS, &m) && m.msg_id == 6 && m.ts == 12 * MS && m.end == 13 * MS,
	   "msg 6 stays its own");
	ok(!bt_late_behind(l, 20 * MS, 30 * MS, &m), "none of the parts ends after the last one's end");
	bt_late_free(l);
}

/* No stored message: nothing to wait behind, nothing after. */
static void test_empty(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_late_msg m;
	int64_t ts, end;

	bt_late_ready(l);
	ok(!bt_late_behind(l, 0, INT64_MAX, &m), "no message: none behind");
	ok(!bt_late_after(l, INT64_MIN, &ts, &end), "no message: none after");
	bt_late_free(l);
	bt_late_free(NULL);
}

/* The common slice's short path (bt_late_pass, as frames.c takes it): the
 * time below a platform method with none of its own goes up to the app
 * method above, as bt_late_slice would pass it; a slice of another
 * message is left to bt_late_slice. */
static void test_pass(void)
{
	struct bt_late *l = bt_late_new();
	struct bt_slice s;
	struct bt_late_msg m;

	feed(l, sl(SETTEXT, 1, 3 * MS, 5 * MS, 5 * MS, 3), 5 * MS, 0);   /* 5 ms, depth 3 */
	ok(bt_late_pass(l, 2, 1), "a slice of the message at hand: passed");   /* PLAT_A, depth 2, none of its own */
	ok(!bt_late_pass(l, 2, 2), "a slice of another message: left to bt_late_slice");
	feed(l, sl(APP_BIND, 1, 2 * MS, 7 * MS, 1 * MS, 1), 1 * MS, 1);   /* the app's, depth 1 */
	s = sl(PLAT_A, 2, 10 * MS, 3 * MS, 3 * MS, 1);
	feed(l, s, 3 * MS, 0);
	feed(l, sl(LOOP, 0, 0, 20 * MS, 0, 0), 0, 0);
	bt_late_message(l, 1, 2 * MS, 9 * MS);
	bt_late_message(l, 2, 10 * MS, 13 * MS);
	bt_late_ready(l);
	ok(bt_late_behind(l, 0, 9 * MS + 1, &m), "the message behind");
	is_int(m.frame, APP_BIND, "owned by the app method");
	is_int(m.ns, 6 * MS, "its own time and the 5 ms passed up through a slice with none");
	ok(bt_late_behind(l, 9 * MS + 1, 13 * MS + 1, &m), "the next message behind a later frame");
	is_int(m.msg_id, 2, "the other message");
	is_int(m.frame, PLAT_A, "its method, untouched by the pass refused");
	bt_late_free(l);
}

int main(void)
{
	test_owner_and_behind();
	test_message_again();
	test_ties();
	test_owner_again();
	test_parts();
	test_empty();
	test_pass();
	return done_testing();
}
