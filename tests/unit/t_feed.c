/*
 * Unit tests of the feed (engine/recon/feed.c): a trace's own slices,
 * opened and closed by a small script, come out numbered in preorder with
 * depths and parents, self values and blocked time worked out from the
 * children, messages from the slices below a loop frame, meta, taps; the
 * deferred re-walk stores the same slices when they are first read; a
 * replay stores nothing; threads out of order are refused; the start is
 * found as the main thread's slices close (bt_feed_find_startup).
 */
#include <string.h>

#include "engine/recon/feed.h"
#include "tests/tap.h"
#include "tests/tsql.h"

/* One step of a trace: open frame on tid at ts (cpu, type, blocks, the
 * known bits), or close the innermost slice at ts ('c'). */
struct ev {
	char op;
	int64_t tid, frame, ts, cpu;
	unsigned known;
	int blocks;
	int64_t msg;
};

static const struct ev trace[] = {
	/* thread 5: A [0,100) CPU 60 holds B [10,30) CPU 20 and the monitor wait W [40,55) */
	{ 'o', 5, 2, 0, 60, BT_FEED_CPU, 0, 0 },
	{ 'o', 5, 3, 10, 20, BT_FEED_CPU, 0, 0 },
	{ 'c', 0, 0, 30, 0, 0, 0, 0 },
	{ 'o', 5, 4, 40, 0, 0, 1, 0 },
	{ 'c', 0, 0, 55, 0, 0, 0, 0 },
	{ 'c', 0, 0, 100, 0, 0, 0, 0 },
	/* thread 9: the loop (frame 1) runs message 7 (B, then A) and message 8 (B); the
	 * loop's wait (frame 5, MessageQueue.next) is in no message */
	{ 'o', 9, 1, 200, 0, BT_FEED_CPU_UNKNOWN, 0, 0 },
	{ 'o', 9, 3, 210, 0, BT_FEED_CPU_UNKNOWN, 0, 7 },
	{ 'c', 0, 0, 220, 0, 0, 0, 0 },
	{ 'o', 9, 2, 220, 0, BT_FEED_CPU_UNKNOWN, 0, 7 },
	{ 'c', 0, 0, 250, 0, 0, 0, 0 },
	{ 'o', 9, 5, 250, 0, BT_FEED_CPU_UNKNOWN, 0, 0 },
	{ 'c', 0, 0, 270, 0, 0, 0, 0 },
	{ 'o', 9, 3, 270, 0, BT_FEED_CPU_UNKNOWN, 0, 8 },
	{ 'c', 0, 0, 280, 0, 0, 0, 0 },
	{ 'c', 0, 0, 300, 0, 0, 0, 0 },
	/* thread 11: A left open (the finish closes it at its begin) */
	{ 'o', 11, 2, 400, 0, 0, 0, 0 },
};

static const char *const names[] = {
	NULL, "void android.os.Looper.loop()", "void A.run()", "void B.call()", "void java.lang.Object.wait()",
	"java.lang.Object android.os.MessageQueue.next()",
};

static int walk(struct bt_feed *f, struct bt_err *err)
{
	size_t i;
	uint32_t k;

	for (k = 1; k < sizeof names / sizeof names[0]; k++)
		bt_feed_frame(f, k, names[k]);
	for (i = 0; i < sizeof trace / sizeof trace[0]; i++) {
		const struct ev *e = &trace[i];
		struct bt_slice s;
		memset(&s, 0, sizeof s);
		if (e->op == 'c') {
			if (bt_feed_close(f, e->ts, NULL, err))
				return err->code;
			continue;
		}
		s.tid = e->tid;
		s.frame_id = e->frame;
		s.ts = e->ts;
		s.cpu_dur = e->cpu;
		s.msg_id = e->msg;
		s.type = e->blocks ? 8 : 0;
		if (bt_feed_open(f, &s, e->known, e->blocks, err))
			return err->code;
	}
	return BT_OK;
}

/* A tap that counts what it is given: slices longer than 15 ns only. */
struct seen {
	int begun, slices, threads, ready, fills, released;
	int64_t last_tid, thread_n, ids;
};

static int tap_begin(void *ctx, struct bt_db *db, struct bt_tap_filter *want, struct bt_err *err)
{
	(void)db;
	(void)err;
	((struct seen *)ctx)->begun++;
	want->min_dur = 16;
	return BT_OK;
}

static int tap_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	struct seen *c = ctx;

	(void)err;
	c->slices += part == 0;
	c->ids += s->id;
	return BT_OK;
}

static int tap_thread(void *ctx, int part, int64_t tid, int64_t n, struct bt_err *err)
{
	struct seen *c = ctx;

	(void)part;
	(void)err;
	c->threads++;
	c->thread_n += n;
	c->last_tid = tid;
	return BT_OK;
}

static struct bt_db *new_db(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;

	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err))
		printf("# %s\n", err.msg);
	return db;
}

#define SLICES "SELECT id, tid, depth, parent_id, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur, " \
	"block_dur, msg_id FROM slices ORDER BY id"
#define WANT_SLICES \
	"1|5|0|-|2|0|100|60|65|40|15|0;2|5|1|1|3|10|20|20|20|20|0|0;3|5|1|1|4|40|15|0|15|0|15|0;" \
	"4|9|0|-|1|200|100|-|30|-|0|0;5|9|1|4|3|210|10|-|10|-|0|7;6|9|1|4|2|220|30|-|30|-|0|7;" \
	"7|9|1|4|5|250|20|-|20|-|0|0;8|9|1|4|3|270|10|-|10|-|0|8;9|11|0|-|2|400|0|0|0|0|0|0"

static void test_store(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = new_db();
	struct seen c;
	struct bt_slice_tap tap = { tap_begin, tap_slice, tap_thread, &c };
	struct bt_tap_filter want;
	struct bt_taps taps = { &tap, &want, 1, NULL, NULL, NULL };
	struct bt_feed *f = bt_feed_new(db, &taps);
	struct bt_slice *top, closed;

	memset(&c, 0, sizeof c);
	is_int(walk(f, &err), BT_OK, "the trace feeds");
	top = bt_feed_top(f);
	ok(top && top->frame_id == 2 && top->id == 9, "top: the open slice, id given at open");
	is_int(bt_feed_depth(f), 1, "depth: one open");
	is_int(bt_feed_finish(f, &err), BT_OK, "finish closes what is open and stores");
	is_rows(db, SLICES, WANT_SLICES, "slices: preorder ids, parents, self values, blocked time");
	is_rows(db, "SELECT tid, msg_id, ts, dur, cpu_dur, block_dur FROM messages ORDER BY 1, 2",
		"9|7|210|40|-|0;9|8|270|10|-|0", "messages: the slices right below the loop, by msg_id");
	is_rows(db, "SELECT key, value FROM meta WHERE key IN ('slices', 'slice_policy', 'first_ts', 'last_ts') ORDER BY key",
		"first_ts|0;last_ts|400;slice_policy|imported;slices|9", "meta: count, policy, span");
	is_rows(db, "SELECT tid, frame_id, self_ns, incl_ns, self_blocked_ns, incl_blocked_ns FROM methods WHERE tid = 5 ORDER BY 2",
		"5|2|65|100|0|15;5|3|20|20|0|0;5|4|15|15|15|15", "the profile: methods of the feed's slices");
	is_int(tsql_int(db, "SELECT count(*) FROM method_blocking WHERE frame_id = 4 AND kind = 'monitor'", -1), 1,
	       "a blocking slice's type gives its kind");
	is_int(c.begun, 1, "tap: begun once");
	is_int(c.slices, 5, "tap: only the slices its filter wants (over 15 ns)");
	is_int(c.ids, 1 + 2 + 4 + 6 + 7, "tap: ... those");
	is_int(c.threads, 3, "tap: told of each thread");
	ok(c.thread_n == 9 && c.last_tid == 11, "tap: with every slice counted, the last thread last");
	bt_db_close(db);

	/* a slice's values given, and the order of threads */
	db = new_db();
	f = bt_feed_new(db, NULL);
	bt_feed_frame(f, 2, "void A.run()");
	{
		struct bt_slice s;
		memset(&s, 0, sizeof s);
		s.tid = 4;
		s.frame_id = 2;
		s.ts = 5;
		s.self_dur = 3;
		s.block_dur = 2;
		is_int(bt_feed_open(f, &s, BT_FEED_SELF | BT_FEED_BLOCK, 0, &err), BT_OK, "open with values given");
		bt_feed_top(f)->cpu_dur = 4;
		bt_feed_known(f, BT_FEED_CPU);
		is_int(bt_feed_close(f, 15, &closed, &err), BT_OK, "close");
		ok(closed.dur == 10 && closed.self_dur == 3 && closed.block_dur == 2 && closed.cpu_dur == 4 &&
		   closed.self_cpu_dur == 4, "known values kept, set after open through top and known");
		s.ts = 20;
		is_int(bt_feed_open(f, &s, 0, 0, &err), BT_OK, "another slice");
		is_int(bt_feed_close(f, 10, &closed, &err), BT_OK, "closed before its begin");
		is_int(closed.dur, 0, "... lasts 0");
		s.tid = 3;
		is_int(bt_feed_open(f, &s, 0, 0, &err), BT_EFORMAT, "a lower tid after a higher one is refused");
		is_str(err.msg, "imported slices of thread 3 came after thread 4", "... saying which");
	}
	bt_feed_free(f);
	bt_db_close(db);
}

static struct seen deferred;

/* The deferred slices: the walk again on a refilling feed (bt_feed_new_refill), stored. */
static int fill(void *ctx, struct bt_db *db, struct bt_err *err)
{
	struct bt_feed *f = bt_feed_new_refill(db);

	((struct seen *)ctx)->fills++;
	if (walk(f, err)) {
		bt_feed_free(f);
		return err->code;
	}
	return bt_feed_finish(f, err);
}

static void release(void *ctx)
{
	((struct seen *)ctx)->released++;
}

static void test_defer(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = new_db();
	struct bt_feed *f = bt_feed_new(db, NULL);

	memset(&deferred, 0, sizeof deferred);
	bt_feed_defer(f, fill, release, &deferred);
	is_int(walk(f, &err), BT_OK, "deferred: the trace feeds");
	is_int(bt_feed_finish(f, &err), BT_OK, "deferred: finish");
	ok(bt_db_slices_deferred(db), "deferred: the database holds the maker, not the slices");
	is_int(deferred.fills + deferred.released, 0, "deferred: not made yet, not released");
	is_rows(db, "SELECT count(*) FROM messages", "2", "deferred: messages stored all the same");
	is_rows(db, SLICES, WANT_SLICES, "deferred: first read makes the same slices");
	is_int(deferred.fills, 1, "deferred: made once");
	is_int(deferred.released, 1, "deferred: released after");
	is_rows(db, "SELECT count(*) FROM slices", "9", "deferred: read again, not made again");
	is_int(deferred.fills, 1, "deferred: still once");
	is_int(tsql_int(db, "SELECT count(*) FROM calltree", -1), 8, "deferred: the call tree is a view");
	bt_db_close(db);

	/* released at close when nothing read them */
	memset(&deferred, 0, sizeof deferred);
	db = new_db();
	f = bt_feed_new(db, NULL);
	bt_feed_defer(f, fill, release, &deferred);
	walk(f, &err);
	bt_feed_finish(f, &err);
	bt_db_close(db);
	ok(deferred.fills == 0 && deferred.released == 1, "deferred: never read, released at close");

	/* a feed that fails frees the maker's context too */
	memset(&deferred, 0, sizeof deferred);
	f = bt_feed_new(NULL, NULL);
	bt_feed_defer(f, fill, release, &deferred);
	bt_feed_free(f);
	is_int(deferred.released, 1, "deferred: a freed feed releases");
}

static void test_replay(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct seen c;
	struct bt_slice_tap tap = { NULL, tap_slice, tap_thread, &c };
	struct bt_tap_filter want = { 5, INT64_MIN };   /* a replay calls no begin: thread 5 only */
	struct bt_taps taps = { &tap, &want, 1, NULL, NULL, NULL };
	struct bt_feed *f = bt_feed_new_replay(&taps);

	memset(&c, 0, sizeof c);
	is_int(walk(f, &err), BT_OK, "replay: feeds");
	is_int(bt_feed_finish(f, &err), BT_OK, "replay: finishes without a database");
	is_int(c.slices, 3, "replay: the tap's thread only");
	is_int(c.threads, 3, "replay: every thread told");
}

/* The start found as the slices pass (bt_feed_find_startup): the main
 * thread's (5) bindApplication, launch and first frame, another thread's
 * slices beside them; the finish stores the start and meta
 * startup_modeled. Without the call, or in a replay, nothing. */
static const char *const start_names[] = {
	NULL, "void android.app.ActivityThread.handleBindApplication(android.app.ActivityThread$AppBindData)",
	"android.app.Activity android.app.ActivityThread.performLaunchActivity("
	"android.app.ActivityThread$ActivityClientRecord, android.content.Intent)",
	"void android.view.Choreographer.doFrame(long, int)", "void A.run()",
};

static int start_walk(struct bt_feed *f, struct bt_err *err)
{
	static const int64_t ev[][4] = {   /* tid, frame, begin, end */
		{ 5, 1, 1000, 5000 }, { 5, 2, 6000, 9000 }, { 5, 3, 10000, 12000 }, { 7, 4, 2000, 3000 },
	};
	size_t i;
	uint32_t k;

	for (k = 1; k < sizeof start_names / sizeof start_names[0]; k++)
		bt_feed_frame(f, k, start_names[k]);
	for (i = 0; i < sizeof ev / sizeof ev[0]; i++) {
		struct bt_slice sl;
		memset(&sl, 0, sizeof sl);
		sl.tid = ev[i][0];
		sl.frame_id = ev[i][1];
		sl.ts = ev[i][2];
		if (bt_feed_open(f, &sl, BT_FEED_CPU_UNKNOWN, 0, err) || bt_feed_close(f, ev[i][3], NULL, err))
			return err->code;
	}
	return BT_OK;
}

static struct bt_db *start_db(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = new_db();
	size_t k;
	int rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)5, "main", (int64_t)1) ||
		 bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)7, "worker", (int64_t)0);

	for (k = 1; !rc && k < sizeof start_names / sizeof start_names[0]; k++)
		rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)k, (int64_t)k, start_names[k], NULL,
				NULL, NULL, NULL);
	if (rc)
		printf("# %s\n", err.msg);
	return db;
}

static void test_startup(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = start_db();
	struct bt_feed *f = bt_feed_new(db, NULL);
	char *got;

	bt_diag_init(&diag);
	is_int(bt_feed_find_startup(f, &diag, &err), BT_OK, "startup: a collector made from the frames stored");
	is_int(start_walk(f, &err), BT_OK, "startup: the slices fed");
	is_int(bt_feed_finish(f, &err), BT_OK, "startup: finished");
	got = tsql_rows(db, "SELECT phase, ts, dur FROM startup_phases WHERE phase <> 'startup' ORDER BY ts");
	is_str(got, "bind_application|1000|4000;activity_launch|6000|3000;first_frame|10000|2000",
	       "startup: the main thread's phases, found as they closed");
	free(got);
	is_int(tsql_int(db, "SELECT count(*) FROM startup", -1), 1, "startup: one start stored");
	is_int(tsql_int(db, "SELECT value FROM meta WHERE key = 'startup_modeled'", -1), 1, "startup: meta startup_modeled");
	bt_db_close(db);

	db = start_db();
	f = bt_feed_new(db, NULL);
	is_int(start_walk(f, &err) || bt_feed_finish(f, &err), BT_OK, "no find: fed and finished");
	is_int(tsql_int(db, "SELECT count(*) FROM startup", -1), 0, "no find: no start");
	is_int(tsql_int(db, "SELECT count(*) FROM meta WHERE key = 'startup_modeled'", -1), 0, "no find: no meta");
	bt_db_close(db);

	f = bt_feed_new_replay(NULL);
	is_int(bt_feed_find_startup(f, NULL, &err), BT_OK, "replay: nothing to find, no error");
	bt_feed_free(f);
}

int main(void)
{
	test_store();
	test_defer();
	test_replay();
	test_startup();
	return done_testing();
}
