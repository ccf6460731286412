/*
 * Unit tests of the stacks (engine/profile/stacks.c) the pprof and folded
 * exports write: a run's profile keeps its paths' self values per Looper
 * message, the stacks take them and, with the database's names, give
 * each entry its thread and message (a path met again after another
 * message a second entry), threads main first with unique root labels,
 * the trace's span and process, and idle time as an "(idle)" frame when
 * asked, the profile handed over as the taps do it (bt_taps_done); and
 * values too wide for an entry's 32-bit slots (seconds, a negative CPU
 * delta), in one profile and in two merged.
 */
#include <string.h>

#include "engine/profile/stacks.h"
#include "engine/profile/tap.h"
#include "tests/tap.h"
#include "tests/tsql.h"

static const int64_t no_ctr[BT_PROFILE_NCTR];

static void leave(struct bt_profile *p, uint32_t path, int64_t frame, int64_t self, int64_t self_cpu, int64_t msg,
		  int idle, int in_msg)
{
	struct bt_slice s;

	memset(&s, 0, sizeof s);
	s.frame_id = frame;
	s.dur = s.self_dur = self;
	s.cpu_dur = s.self_cpu_dur = self_cpu;
	s.msg_id = msg;
	s.idle = idle;
	bt_profile_leave(p, path, &s, no_ctr, in_msg, in_msg);
}

/* Thread 10: W (frame 4) waits for work, idle (80 of 100 ns off the CPU).
 * Thread 20, main: the loop (frame 1) runs A (frame 2) in messages 1, 2,
 * then 1 again. Threads 30 (no name) and 40 (named as 10) run B. */
static struct bt_profile *profile(void)
{
	struct bt_profile *p = bt_profile_new();
	uint32_t r, loop, a;

	bt_profile_keep_entries(p);
	r = bt_profile_thread(p, 10);
	leave(p, bt_profile_enter(p, r, 4, 0, 0, 0, 1), 4, 100, 20, 0, 1, 0);
	bt_profile_thread_end(p);
	r = bt_profile_thread(p, 20);
	loop = bt_profile_enter(p, r, 1, 0, 0, 0, 0);
	a = bt_profile_enter(p, loop, 2, 0, 1, 1, 0);
	leave(p, a, 2, 30, 30, 1, 0, 1);
	a = bt_profile_enter(p, loop, 2, 0, 1, 2, 0);
	leave(p, a, 2, 40, 30, 2, 0, 1);
	a = bt_profile_enter(p, loop, 2, 0, 1, 1, 0);
	leave(p, a, 2, 5, 5, 1, 0, 1);
	leave(p, loop, 1, 10, 0, 0, 0, 0);
	bt_profile_thread_end(p);
	r = bt_profile_thread(p, 30);
	leave(p, bt_profile_enter(p, r, 3, 0, 0, 0, 0), 3, 7, 7, 0, 0, 0);
	bt_profile_thread_end(p);
	r = bt_profile_thread(p, 40);
	leave(p, bt_profile_enter(p, r, 3, 0, 0, 0, 0), 3, 9, 9, 0, 0, 0);
	bt_profile_thread_end(p);
	return p;
}

static struct bt_db *new_db(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	const char *names[] = { NULL, "void android.os.Looper.loop()", "void A.a()", "void B.b()", "void W.w()",
				"(idle)" };
	size_t i;
	int rc;

	rc = bt_db_create(&db, ":memory:", &err) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)10, "worker", (int64_t)0) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)20, "com.example", (int64_t)1) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)40, "worker", (int64_t)0) ||
	     bt_db_set_meta_int(db, "first_ts", 1000, &err) || bt_db_set_meta_int(db, "last_ts", 5000, &err) ||
	     bt_db_set_meta_int(db, "no_alloc", 1, &err);
	for (i = 1; !rc && i < sizeof names / sizeof names[0]; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)i, (int64_t)0, names[i], NULL, NULL,
				NULL, NULL);
	if (rc)
		printf("# %s\n", err.msg);
	return db;
}

/* Every entry as "thread label/msg:frames outermost first=wall,cpu,idle". */
static char *entries(const struct bt_stacks *s)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct bt_stacks_entry *e = &s->e[i];
		const struct bt_stacks_ctx *c = &s->ctx[e->ctx];
		uint32_t path[16], n = 0, p;
		for (p = e->path; p && n < 16; p = s->parent[p])
			path[n++] = p;
		bt_buf_addf(&b, "%s%s/%lld:", i ? ";" : "", s->threads[c->thread].root, (long long)c->msg);
		while (n--)
			bt_buf_addf(&b, "%s%s", bt_stacks_frame_name(s, s->frame[path[n]]), n ? ">" : "");
		bt_buf_addf(&b, "=%lld,%lld,%lld", (long long)bt_stacks_value(s, e, BT_SV_WALL),
			    (long long)bt_stacks_value(s, e, BT_SV_CPU), (long long)bt_stacks_value(s, e, BT_SV_IDLE));
	}
	return bt_buf_detach(&b, NULL);
}

static void test_take(int show_idle)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_profile *p = profile();
	struct bt_stacks *s = bt_stacks_new();
	struct bt_taps taps = { NULL, NULL, 0, NULL, NULL, s };
	struct bt_db *db = new_db();
	char *got;

	bt_taps_done(&taps, p);   /* the tap hands the run's profile to the stacks */
	bt_profile_free(p);
	s->show_idle = show_idle;
	is_int(bt_stacks_load_names(s, db, &err), BT_OK, "names loaded");
	got = entries(s);
	if (!show_idle) {
		is_str(got,
		       "worker (tid 10)/0:void W.w()=20,20,80;"
		       "com.example/0:void android.os.Looper.loop()=10,0,0;"
		       "com.example/1:void android.os.Looper.loop()>void A.a()=30,30,0;"
		       "com.example/2:void android.os.Looper.loop()>void A.a()=40,30,0;"
		       "com.example/1:void android.os.Looper.loop()>void A.a()=5,5,0;"
		       "tid 30/0:void B.b()=7,7,0;worker (tid 40)/0:void B.b()=9,9,0",
		       "entries: per thread, message and path in order; a path again after another message anew");
		ok(s->nthreads == 4 && s->threads[0].tid == 20 && s->threads[0].is_main,
		   "threads: the main thread first");
		ok(s->threads[3].tid == 30 && !strcmp(s->threads[3].label, "tid 30"),
		   "threads: one the database does not name, by first use, labelled by tid");
		is_int(s->nctx, 6, "contexts: one per thread and message");
		ok(s->first_ts == 1000 && s->last_ts == 5000, "the trace's span from meta");
		is_str(s->process, "com.example", "the process: the main thread's name");
		ok(s->no_alloc && !s->no_faults && !s->cpu_unknown, "the format's gaps from meta");
		is_int(s->wall_first_ns, 0, "no wall clock");
		is_str(bt_stacks_frame_name(s, 99), "?", "an unknown frame's name");
	} else {
		ok(strstr(got, "worker (tid 10)/0:void W.w()=20,20,80;") &&
		   strstr(got, "worker (tid 10)/0:void W.w()>(idle)=80,0,0"),
		   "idle shown: an \"(idle)\" frame below the wait, its idle time as wall");
	}
	free(got);
	bt_stacks_free(s);
	bt_db_close(db);
}

/* Thread tid: A (frame 2) in message 1 for 3 s + tid ns, its CPU delta
 * -tid, then W (frame 4) idle for 2.5 s. */
static void wide_thread(struct bt_profile *p, int64_t tid)
{
	uint32_t r = bt_profile_thread(p, tid);

	leave(p, bt_profile_enter(p, r, 2, 0, 1, 1, 0), 2, 3000000000 + tid, -tid, 1, 0, 1);
	leave(p, bt_profile_enter(p, r, 4, 0, 0, 0, 1), 4, 2500000000, 100, 0, 1, 0);
	bt_profile_thread_end(p);
}

/* The stacks of p, idle shown, as entries() writes them. */
static char *taken(struct bt_profile *p)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_stacks *s = bt_stacks_new();
	struct bt_taps taps = { NULL, NULL, 0, NULL, NULL, s };
	struct bt_db *db = new_db();
	char *got;

	bt_taps_done(&taps, p);
	bt_profile_free(p);
	s->show_idle = 1;
	if (bt_stacks_load_names(s, db, &err))
		printf("# %s\n", err.msg);
	got = entries(s);
	bt_stacks_free(s);
	bt_db_close(db);
	return got;
}

static void test_wide(void)
{
	struct bt_profile *one = bt_profile_new(), *a = bt_profile_new(), *b = bt_profile_new();
	char *x, *y;

	bt_profile_keep_entries(one);
	bt_profile_keep_entries(a);
	bt_profile_keep_entries(b);
	wide_thread(one, 10);
	wide_thread(one, 20);
	wide_thread(a, 20);   /* the higher tid in the first part, as test_merge of t_profile */
	wide_thread(b, 10);
	bt_profile_merge(a, b);
	x = taken(one);
	y = taken(a);
	is_str(x,
	       "worker (tid 10)/1:void A.a()=3000000010,-10,0;worker (tid 10)/0:void W.w()=100,100,2499999900;"
	       "com.example/1:void A.a()=3000000020,-20,0;com.example/0:void W.w()=100,100,2499999900;"
	       "worker (tid 10)/0:void W.w()>(idle)=2499999900,0,0;com.example/0:void W.w()>(idle)=2499999900,0,0",
	       "wide values: as summed, the idle ones shown as wall");
	is_str(y, x, "wide values: two profiles merged as one");
	free(x);
	free(y);
}

int main(void)
{
	test_take(0);
	test_take(1);
	test_wide();
	return done_testing();
}
