/*
 * Unit tests of the slicer (engine/recon/slice.c, with slice_tree.c and
 * slice_idle.c, whose internals slice_int.h shares): a small Android
 * trace's records, captured as an importer writes them, become slices per
 * policy. btrace ends a frame 10 ns after its last sample and makes no
 * messages; midpoint changes frames halfway between samples, exactly at a
 * duration record's ends, and splits the frames below the loop where the
 * message id changes; idle keeps the loop's wait for work apart (idle
 * slices, an "(idle)" frame) and out of every message, and gives a draw's
 * wait for the RenderThread the frames no sample shows. Two cores give the
 * slices one gives.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/recon/capture.h"
#include "engine/recon/slice.h"
#include "engine/recon/slice_int.h"
#include "tests/tap.h"
#include "tests/tsql.h"

static const char *const frames[] = {
	NULL, "void android.os.Looper.loop()", "void A.a()", "void B.b()", "void C.c()",
	"java.lang.Object android.os.MessageQueue.next()", "void X.x()", "void Y.y()",
};
/* node id -> parent, frame */
static const uint32_t nodes[][2] = {
	{ 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 2, 4 }, { 1, 5 }, { 0, 6 }, { 6, 7 },
};
/* tid, type, ts, end_ts, cpu, end_cpu, msg, node, nvcsw: thread 100 (main) runs
 * A, B and C in message 1, waits in the loop, then A in messages 2 and 3;
 * thread 200 waits on a monitor in Y (a duration record, 2000 to 2600). */
static const int64_t records[][9] = {
	{ 100, 5, 1000, 0, 1000, 0, 1, 2, 0 },
	{ 200, 5, 1000, 0, 1000, 0, 0, 6, 0 },
	{ 100, 5, 2000, 0, 2000, 0, 1, 3, 0 },
	{ 200, 8, 2000, 2600, 1100, 1150, 0, 7, 0 },
	{ 100, 5, 3000, 0, 3000, 0, 1, 4, 0 },
	{ 200, 5, 3000, 0, 1300, 0, 0, 6, 1 },
	{ 100, 5, 4000, 0, 3100, 0, 1, 5, 0 },
	{ 100, 5, 8000, 0, 3200, 0, 2, 2, 1 },
	{ 100, 5, 9000, 0, 4200, 0, 3, 2, 1 },
};

#define NREC (sizeof records / sizeof records[0])

struct got {
	struct bt_buf s, m;
	int nslices, nmsgs, threads;
	int64_t thread_n;
};

static int on_slice(void *ctx, const struct bt_slice *s, struct bt_err *err)
{
	struct got *g = ctx;

	(void)err;
	/* id tid depth parent frame ts dur block msg idle */
	bt_buf_addf(&g->s, "%s%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld", g->nslices++ ? ";" : "",
		    (long long)s->id, (long long)s->tid, (long long)s->depth, (long long)s->parent_id,
		    (long long)s->frame_id, (long long)s->ts, (long long)s->dur, (long long)s->block_dur,
		    (long long)s->msg_id, (long long)s->idle);
	return BT_OK;
}

static int on_message(void *ctx, const struct bt_message *m, struct bt_err *err)
{
	struct got *g = ctx;

	(void)err;
	bt_buf_addf(&g->m, "%s%lld|%lld|%lld|%lld|%lld", g->nmsgs++ ? ";" : "", (long long)m->tid,
		    (long long)m->msg_id, (long long)m->ts, (long long)m->dur, (long long)m->idle);
	return BT_OK;
}

static int on_thread(void *ctx, int64_t tid, int64_t n, struct bt_err *err)
{
	struct got *g = ctx;

	(void)tid;
	(void)err;
	g->threads++;
	g->thread_n += n;
	return BT_OK;
}

/* A small trace: frame names (1..), nodes (parent, frame) and records
 * (columns as records[] above). */
struct small {
	const char *const *frames;
	size_t nframes;
	const uint32_t (*nodes)[2];
	size_t nnodes;
	const int64_t (*records)[9];
	size_t nrec;
};

/* A struct small of three arrays. */
#define SMALL_OF(f, n, r) { f, sizeof f / sizeof f[0], n, sizeof n / sizeof n[0], r, sizeof r / sizeof r[0] }

static const struct small small_trace = {
	frames, sizeof frames / sizeof frames[0], nodes, sizeof nodes / sizeof nodes[0], records, NREC
};

/* The trace's database, its records captured into a slicer of policy. */
static struct bt_db *trace_of(const struct small *x, enum bt_slice_policy policy, struct bt_slicer **out)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_capture cap;
	struct bt_db *db = NULL;
	struct bt_sample s;
	size_t i;
	int rc;

	rc = bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) ||
	     bt_db_set_meta_text(db, "format", "android-sampling", &err) ||
	     bt_db_set_meta_int(db, "version", 5, &err) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)100, "main", (int64_t)1);
	for (i = 1; !rc && i < x->nframes; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)i, (int64_t)i, x->frames[i], "void",
				NULL, NULL, "");
	bt_capture_begin(&cap, db);
	for (i = 1; !rc && i < x->nnodes; i++)
		rc = bt_db_insert_node(db, (int64_t)i, x->nodes[i][0], x->nodes[i][1], 0, &err);
	for (i = 0; !rc && i < x->nrec; i++) {
		memset(&s, 0, sizeof s);
		s.id = (int64_t)i + 1;
		s.tid = x->records[i][0];
		s.type = x->records[i][1];
		s.ts = x->records[i][2];
		s.end_ts = x->records[i][3];
		s.cpu_ns = x->records[i][4];
		s.end_cpu_ns = x->records[i][5];
		s.msg_id = x->records[i][6];
		s.node_id = x->records[i][7];
		s.nvcsw = x->records[i][8];
		rc = bt_db_insert_sample(db, &s, &err);
	}
	if (!rc)
		rc = bt_slicer_new(out, &cap, db, policy, 1, &err);   /* a btrace 3.0 dump: throttled */
	if (rc)
		printf("# %s\n", err.msg);
	ok(!rc && *out, "the slicer takes the captured records");
	ok(cap.n == 0 && !cap.s, "... leaving the capture empty");
	bt_capture_release(&cap);
	return db;
}

static struct bt_db *trace(enum bt_slice_policy policy, struct bt_slicer **out)
{
	return trace_of(&small_trace, policy, out);
}

static void run(struct bt_slicer *sl, struct got *g)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_slice_sink sink = { on_slice, on_message, g, NULL, on_thread };

	memset(g, 0, sizeof *g);
	bt_buf_init(&g->s);
	bt_buf_init(&g->m);
	is_int(bt_slicer_run(sl, &sink, &err), BT_OK, "the slicer runs");
}

static void release(struct got *g)
{
	bt_buf_release(&g->s);
	bt_buf_release(&g->m);
}

static void test_btrace(void)
{
	struct bt_slicer *sl = NULL;
	struct bt_db *db = trace(BT_SLICE_BTRACE, &sl);
	struct got g;

	run(sl, &g);
	/* as they end: a frame ends 10 ns after its last sample (the monitor's
	 * end item, at 2600, its last); the monitor's synthetic leaf is frame 8 */
	is_str(g.s.buf,
	       "3|100|2|2|3|2000|10|0|1|0;4|100|2|2|4|3000|10|0|1|0;2|100|1|1|2|1000|2010|0|1|0;"
	       "5|100|1|1|5|4000|10|0|1|0;6|100|1|1|2|8000|1010|0|2|0;1|100|0|0|1|1000|8010|0|1|0;"
	       "9|200|2|8|8|2000|610|600|0|0;8|200|1|7|7|2000|610|600|0|0;7|200|0|0|6|1000|2010|600|0|0",
	       "btrace: upstream's boundaries, ids in preorder, slices as they end");
	is_int(g.nmsgs, 0, "btrace: no messages");
	ok(g.threads == 2 && g.thread_n == 9, "btrace: each thread told with its count");
	is_rows(db, "SELECT id, name FROM frames WHERE id > 7", "8|void Monitor:Lock()",
		"the monitor's synthetic leaf frame is added");
	release(&g);
	bt_slicer_free(sl);
	bt_db_close(db);
}

static void test_midpoint(void)
{
	struct bt_slicer *sl = NULL;
	struct bt_db *db = trace(BT_SLICE_MIDPOINT, &sl);
	struct bt_err err = BT_ERR_INIT;
	struct got g;
	char *first;

	run(sl, &g);
	is_str(g.s.buf,
	       "3|100|2|2|3|1500|1000|0|1|0;4|100|2|2|4|2500|1000|0|1|0;2|100|1|1|2|1000|2500|0|1|0;"
	       "5|100|1|1|5|3500|4400|0|1|0;6|100|1|1|2|7900|600|0|2|0;7|100|1|1|2|8500|500|0|3|0;"
	       "1|100|0|0|1|1000|8000|0|1|0;"
	       "10|200|2|9|8|2000|600|600|0|0;9|200|1|8|7|1500|1300|600|0|0;8|200|0|0|6|1000|2000|600|0|0",
	       "midpoint: halfway, exact at the monitor's ends, split where the message changes");
	is_str(g.m.buf, "100|1|1000|2500|0;100|2|7900|600|0;100|3|8500|500|0",
	       "midpoint: a message per id, the loop's wait in none");
	first = bt_buf_detach(&g.s, NULL);
	release(&g);
	bt_slicer_drop_items(sl);
	run(sl, &g);
	is_str(g.s.buf, first, "a run after the items were dropped makes the same slices");
	free(first);
	release(&g);
	is_int(bt_slicer_store_frames(sl, db, &err), BT_OK, "store frames");
	is_int(tsql_int(db, "SELECT count(*) FROM frames WHERE name = '(idle)'", -1), 0,
	       "midpoint: no \"(idle)\" frame");
	bt_slicer_free(sl);
	bt_db_close(db);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A ';' list of slices without their ids and parent ids (each sink counts
 * its own), sorted: for comparing two runs. */
static char *sorted(const char *list)
{
	char *copy = strdup(list), *save = NULL, *t, **v = NULL;
	size_t n = 0, i;
	struct bt_buf b = BT_BUF_INIT;

	for (t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		long long id, tid, depth, parent;
		int at = 0;
		struct bt_buf k = BT_BUF_INIT;
		sscanf(t, "%lld|%lld|%lld|%lld|%n", &id, &tid, &depth, &parent, &at);
		bt_buf_addf(&k, "%lld|%lld|%s", tid, depth, t + at);
		v = realloc(v, (n + 1) * sizeof *v);
		v[n++] = bt_buf_detach(&k, NULL);
	}
	qsort(v, n, sizeof *v, by_text);
	for (i = 0; i < n; i++) {
		bt_buf_addf(&b, "%s;", v[i]);
		free(v[i]);
	}
	free(v);
	free(copy);
	return bt_buf_detach(&b, NULL);
}

static void test_idle(void)
{
	struct bt_slicer *sl = NULL;
	struct bt_db *db = trace(BT_SLICE_IDLE, &sl);
	struct bt_err err = BT_ERR_INIT;
	struct got g, g1, g2;
	struct bt_slice_sink s1 = { on_slice, on_message, &g1, NULL, on_thread };
	struct bt_slice_sink s2 = { on_slice, on_message, &g2, NULL, on_thread };
	char *a, *b, *all;

	run(sl, &g);
	{
		char *copy = strdup(g.s.buf), *save = NULL, *t;
		int idle = 0, idle_wait = 0, busy_in_wait = 0, a_msgs = 0;
		int64_t wts = -1, wend = -1;
		for (t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
			long long id, tid, depth, parent, frame, ts, dur, block, msg, isidle;
			sscanf(t, "%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld", &id, &tid, &depth, &parent, &frame,
			       &ts, &dur, &block, &msg, &isidle);
			idle += isidle != 0;
			idle_wait += isidle && frame == 5;
			if (frame == 5) {
				wts = ts;
				wend = ts + dur;
			}
			a_msgs += frame == 2 && tid == 100;
		}
		free(copy);
		copy = strdup(g.s.buf);
		for (t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
			long long id, tid, depth, parent, frame, ts, dur, block, msg, isidle;
			sscanf(t, "%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld|%lld", &id, &tid, &depth, &parent, &frame,
			       &ts, &dur, &block, &msg, &isidle);
			busy_in_wait += tid == 100 && depth == 1 && frame != 5 && ts < wend && ts + dur > wts;
		}
		free(copy);
		is_int(idle, 1, "idle: one idle slice");
		is_int(idle_wait, 1, "idle: ... the loop's wait");
		ok(wts >= 3000 && wend <= 8000 && wend > wts, "idle: the wait lies between the samples around it");
		is_int(busy_in_wait, 0, "idle: no method's slice overlaps the wait");
		is_int(a_msgs, 3, "idle: A split at each message boundary");
	}
	is_int(g.nmsgs, 3, "idle: three messages");
	ok(strstr(g.m.buf, "100|1|1000|") == g.m.buf, "idle: message 1 begins at its first sample");
	is_int(bt_slicer_store_frames(sl, db, &err), BT_OK, "store frames");
	is_int(tsql_int(db, "SELECT count(*) FROM frames WHERE name = '(idle)'", -1), 1,
	       "idle: the \"(idle)\" frame stored once a run made an idle slice");
	is_int(bt_slicer_store_frames(sl, db, &err), BT_OK, "store frames again: nothing more (no duplicate id)");

	/* two cores: each sink gets whole threads, and together what one run gave */
	memset(&g1, 0, sizeof g1);
	memset(&g2, 0, sizeof g2);
	bt_buf_init(&g1.s);
	bt_buf_init(&g1.m);
	bt_buf_init(&g2.s);
	bt_buf_init(&g2.m);
	is_int(bt_slicer_run2(sl, &s1, &s2, &err), BT_OK, "run2 on two cores");
	ok(g1.threads == 1 && g2.threads == 1, "run2: a thread each");
	bt_buf_addf(&g1.s, ";%s", g2.s.buf);
	a = sorted(g.s.buf);
	b = sorted(g1.s.buf);
	is_str(b, a, "run2: the same slices as one run");
	all = bt_buf_detach(&g1.m, NULL);
	ok(!strcmp(all, g.m.buf) || !strcmp(g2.m.buf, g.m.buf), "run2: the same messages");
	free(all);
	free(a);
	free(b);
	release(&g);
	release(&g1);
	release(&g2);
	bt_slicer_free(sl);
	bt_db_close(db);
}

/* A frame's draw that waits for the RenderThread: samples in a frame the
 * draw called, then a sleep, then one after the draw in the same message.
 * The wait gets the frames no sample shows, synthetic ones (Android 10's
 * names), from when the thread slept to when the draw returned. */
static const char *const draw_frames[] = {
	NULL, "void android.os.Looper.loop()", "void android.view.Choreographer.doFrame(long, int)",
	"void android.view.ThreadedRenderer.draw(android.view.View, android.view.View$AttachInfo, "
	"android.view.ThreadedRenderer$DrawCallbacks)",
	"android.graphics.RenderNode android.view.View.updateDisplayListIfDirty()", "void A.after()",
};
static const uint32_t draw_nodes[][2] = { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 2, 5 } };
/* an allocation sample each (9); the third after a sleep (nvcsw 1) and
 * 600 ns of CPU in the 3000 ns gap */
static const int64_t draw_records[][9] = {
	{ 100, 9, 1000, 0, 1000, 0, 1, 4, 0 },
	{ 100, 9, 2000, 0, 2000, 0, 1, 4, 0 },
	{ 100, 9, 5000, 0, 2600, 0, 1, 5, 1 },
	{ 100, 9, 6000, 0, 3600, 0, 1, 5, 1 },
};

static void test_draw_wait(void)
{
	const struct small x = SMALL_OF(draw_frames, draw_nodes, draw_records);
	struct bt_slicer *sl = NULL, *mid = NULL;
	struct bt_db *db = trace_of(&x, BT_SLICE_IDLE, &sl), *db2 = trace_of(&x, BT_SLICE_MIDPOINT, &mid);
	struct bt_err err = BT_ERR_INIT;
	struct got g;

	run(sl, &g);
	/* id|tid|depth|parent|frame|ts|dur|block|msg|idle: the callee ends as
	 * the thread sleeps (half the gap's CPU after the sample: the throttle
	 * timed the next), the draw and its wait's two frames (7, 8: after
	 * "(idle)", 6) run through the sleep, A.after begins as it wakes */
	ok(strstr(g.s.buf, "|100|3|3|4|1000|1300|") != NULL, "draw: its callee ends as the thread sleeps");
	ok(strstr(g.s.buf, "6|100|4|5|8|2300|2400|") != NULL && strstr(g.s.buf, "5|100|3|3|7|2300|2400|") != NULL,
	   "draw: syncAndDrawFrame and nSyncAndDrawFrame under the draw, through the sleep");
	ok(strstr(g.s.buf, "3|100|2|2|3|1000|3700|") != NULL, "draw: the draw returns as the thread wakes");
	ok(strstr(g.s.buf, "|100|2|2|5|4700|") != NULL, "draw: what follows begins then");
	is_int(bt_slicer_store_frames(sl, db, &err), BT_OK, "store frames");
	is_rows(db, "SELECT id, printf('%x', address), class, method FROM frames WHERE id > 6 ORDER BY id",
		"7|7ffffffffffffffc|android.graphics.HardwareRenderer|syncAndDrawFrame;"
		"8|7ffffffffffffffb|android.graphics.HardwareRenderer|nSyncAndDrawFrame",
		"draw: the wait's frames stored, with their pseudo-pointers");
	release(&g);
	run(mid, &g);
	ok(!strstr(g.s.buf, "|7|") && !strstr(g.s.buf, "|8|"), "midpoint: no wait frames");
	is_int(bt_slicer_store_frames(mid, db2, &err), BT_OK, "store frames");
	is_int(tsql_int(db2, "SELECT count(*) FROM frames WHERE id > 5", -1), 0, "midpoint: no rows for them");
	release(&g);
	bt_slicer_free(sl);
	bt_slicer_free(mid);
	bt_db_close(db);
	bt_db_close(db2);
}

/* A display frame: a sample in doFrame's own code, then two in a
 * callback's traversal. doFrame runs its callbacks back to back (its own
 * code is a few microseconds), so doCallbacks and the callback record
 * begin as the gap opens (the phases no sample shows ran in them); the
 * traversal, one of the callbacks, begins as the policy places it. */
static const char *const cb_frames[] = {
	NULL, "void android.os.Looper.loop()", "void android.view.Choreographer.doFrame(long, int)",
	"void android.view.Choreographer.doCallbacks(int, long)",
	"void android.view.Choreographer$CallbackRecord.run(long)", "void android.view.ViewRootImpl$TraversalRunnable.run()",
};
static const uint32_t cb_nodes[][2] = { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 4 }, { 4, 5 } };
static const int64_t cb_records[][9] = {
	{ 100, 9, 1000, 0, 1000, 0, 1, 2, 0 },
	{ 100, 9, 3000, 0, 3000, 0, 1, 5, 0 },
	{ 100, 9, 4000, 0, 4000, 0, 1, 5, 0 },
};

static void test_frame_callbacks(void)
{
	const struct small x = SMALL_OF(cb_frames, cb_nodes, cb_records);
	struct bt_slicer *sl = NULL, *mid = NULL;
	struct bt_db *db = trace_of(&x, BT_SLICE_IDLE, &sl), *db2 = trace_of(&x, BT_SLICE_MIDPOINT, &mid);
	struct got g;

	run(sl, &g);
	/* id|tid|depth|parent|frame|ts|...: doCallbacks (3), the record (4) */
	ok(strstr(g.s.buf, "|100|2|2|3|1000|") != NULL && strstr(g.s.buf, "|100|3|3|4|1000|") != NULL,
	   "frame: doCallbacks and the callback record begin after doFrame's own code");
	ok(strstr(g.s.buf, "|100|4|4|5|2000|") != NULL, "frame: the traversal begins at the gap's middle");
	if (!strstr(g.s.buf, "|100|2|2|3|1000|"))
		printf("#   slices: %s\n", g.s.buf);
	release(&g);
	run(mid, &g);
	ok(strstr(g.s.buf, "|100|2|2|3|2000|") != NULL, "midpoint: doCallbacks begins at the gap's middle");
	release(&g);
	bt_slicer_free(sl);
	bt_slicer_free(mid);
	bt_db_close(db);
	bt_db_close(db2);
}

static void test_names(void)
{
	struct bt_err err = BT_ERR_INIT;
	enum bt_slice_policy p;

	is_int(bt_slice_policy_parse(NULL, &p, &err), BT_OK, "no policy: the default");
	is_int(p, BT_SLICE_IDLE, "the default is idle");
	ok(!bt_slice_policy_parse("btrace", &p, &err) && p == BT_SLICE_BTRACE, "btrace by name");
	is_str(bt_slice_policy_name(BT_SLICE_MIDPOINT), "midpoint", "a policy's name");
	is_int(bt_slice_policy_parse("mid", &p, &err), BT_EUSAGE, "an unknown policy");
	ok(bt_frame_is_loop("void android.os.Looper.loop()") && !bt_frame_is_loop("void A.a()"), "loop frames");
	ok(bt_frame_is_idle(frames[5]) && !bt_frame_is_idle(frames[1]), "the loop's wait");
	is_int(bt_frame_task("java.lang.Runnable java.util.concurrent.ThreadPoolExecutor.getTask()"), BT_TASK_WAIT,
	       "a pool worker's wait for a task");
	is_int(bt_frame_task("void A.a()"), 0, "no task boundary");
}

int main(void)
{
	test_names();
	test_btrace();
	test_midpoint();
	test_idle();
	test_draw_wait();
	test_frame_callbacks();
	return done_testing();
}
