/*
 * Unit tests of the attribution profile (engine/profile/profile.c and
 * profile_store.c): slices of two threads fed by hand, then the tables it
 * stores: methods (a recursive method's inclusive time counted once),
 * callers, blocking by kind, the threads' breakdown, the longest
 * messages' methods, the call tree as a view; and two profiles merged
 * store what one fed both threads would, also with values too wide for a
 * path's 32-bit slots (seconds of self time, a negative CPU delta).
 */
#include <string.h>

#include "engine/profile/profile.h"
#include "tests/tap.h"
#include "tests/tslice.h"
#include "tests/tsql.h"

static const int64_t no_ctr[BT_PROFILE_NCTR];

/* A slice of tid: frame from ts for dur (cpu), self values given. */
static struct bt_slice sl(int64_t tid, int64_t frame, int64_t ts, int64_t dur, int64_t cpu, int64_t self,
			  int64_t self_cpu, int64_t msg)
{
	struct bt_slice s = tslice(tid, frame, ts, dur, self, 0);

	s.cpu_dur = cpu;
	s.self_cpu_dur = self_cpu;
	s.msg_id = msg;
	return s;
}

/* Thread 10: A [0,100) calls B [10,60), which calls A again [20,40);
 * B blocks 15 ns on a monitor; its span is 200 ns wall, 80 CPU. */
static void thread10(struct bt_profile *p)
{
	uint32_t root = bt_profile_thread(p, 10), a, b, a2;
	const int64_t alloc[BT_PROFILE_NCTR] = { 5, 1, 0, 0, 0 };
	struct bt_slice s;

	a = bt_profile_enter(p, root, 1, 0, 0, 0, 0);
	b = bt_profile_enter(p, a, 2, 0, 0, 0, 0);
	a2 = bt_profile_enter(p, b, 1, 0, 0, 0, 0);
	s = sl(10, 1, 20, 20, 10, 20, 10, 0);
	bt_profile_leave(p, a2, &s, alloc, 0, 0);
	bt_profile_block(p, b, 8, 15);   /* a monitor record */
	s = sl(10, 2, 10, 50, 30, 30, 20, 0);
	bt_profile_leave(p, b, &s, no_ctr, 0, 0);
	s = sl(10, 1, 0, 100, 60, 50, 30, 0);
	bt_profile_leave(p, a, &s, no_ctr, 0, 0);
	bt_profile_thread_span(p, 200, 80);
	bt_profile_thread_end(p);
}

/* Thread 20: the loop (frame 3) runs message 1 (frame 4, 30 ns) and
 * message 2 (frame 4, 60 ns, calling frame 5 for 20 ns). */
static void thread20(struct bt_profile *p)
{
	uint32_t root = bt_profile_thread(p, 20), loop, m, c;
	struct bt_slice s;

	loop = bt_profile_enter(p, root, 3, 0, 0, 0, 0);
	m = bt_profile_enter(p, loop, 4, 0, 1, 1, 0);
	s = sl(20, 4, 0, 30, 30, 30, 30, 1);
	bt_profile_leave(p, m, &s, no_ctr, 1, 1);
	m = bt_profile_enter(p, loop, 4, 0, 1, 2, 0);
	c = bt_profile_enter(p, m, 5, 0, 1, 2, 0);
	s = sl(20, 5, 50, 20, 5, 20, 5, 2);
	bt_profile_leave(p, c, &s, no_ctr, 1, 0);
	s = sl(20, 4, 40, 60, 25, 40, 20, 2);
	bt_profile_leave(p, m, &s, no_ctr, 1, 1);
	s = sl(20, 3, 0, 100, 60, 10, 5, 0);
	bt_profile_leave(p, loop, &s, no_ctr, 0, 0);
	bt_profile_thread_span(p, 100, 60);
	bt_profile_thread_end(p);
}

static struct bt_db *stored(struct bt_profile *p, int keep)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;

	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err))
		printf("# %s\n", err.msg);
	is_int(bt_profile_store(p, db, keep, &err), BT_OK, keep ? "stored, call tree as rows" : "stored, call tree a view");
	if (err.code)
		printf("# %s\n", err.msg);
	return db;
}

#define METHODS "SELECT tid, frame_id, self_ns, incl_ns, self_cpu_ns, incl_cpu_ns, self_blocked_ns, " \
	"incl_blocked_ns, self_alloc_bytes, incl_alloc_bytes FROM methods ORDER BY tid, frame_id"
#define CALLERS "SELECT tid, frame_id, caller_frame_id, self_ns, self_cpu_ns FROM callers ORDER BY 1, 2, 3"
#define BLOCKING "SELECT tid, frame_id, kind, self_count, self_ns, incl_count, incl_ns FROM method_blocking ORDER BY 1, 2"
#define THREADS "SELECT tid, wall_dur, cpu_dur, blocked_dur, idle_dur, unexplained_dur FROM threads ORDER BY tid"
#define MSGS "SELECT tid, msg_id, rank, frame_id, self_ns, incl_ns FROM message_methods ORDER BY 1, 2, 3"
#define TREE "SELECT id, tid, parent_id, frame_id, depth, self_ns, incl_ns, self_blocked_ns FROM calltree ORDER BY id"

static void test_tables(void)
{
	struct bt_profile *p = bt_profile_new();
	struct bt_db *db;
	uint32_t first, end;

	thread10(p);
	thread20(p);
	is_int(bt_profile_npaths(p), 2 + 3 + 3, "paths: two roots, A>B>A, loop>msg>callee");
	ok(bt_profile_thread_paths(p, 20, &first, &end) && end - first == 4, "thread 20: its root and 3 paths");
	ok(!bt_profile_thread_paths(p, 30, &first, &end), "no paths for an unknown thread");
	db = stored(p, 0);
	is_rows(db, METHODS,
		"10|1|70|100|40|60|0|15|5|5;"   /* A: self 50 + 20; inclusive once (recursion) */
		"10|2|30|50|20|30|15|15|0|5;"
		"20|3|10|100|5|60|0|0|0|0;20|4|70|90|50|55|0|0|0|0;20|5|20|20|5|5|0|0|0|0",
		"methods: self sums, inclusive with nested activations once");
	is_rows(db, CALLERS, "10|1|0|50|30;10|1|2|20|10;10|2|1|30|20;20|3|0|10|5;20|4|3|70|50;20|5|4|20|5",
		"callers: self split by calling method");
	is_rows(db, BLOCKING, "10|1|monitor|0|0|1|15;10|2|monitor|1|15|1|15",
		"method_blocking: the record's self on B, inclusive on its callers");
	is_rows(db, "SELECT tid, kind, count, dur FROM thread_blocking", "10|monitor|1|15", "thread_blocking");
	is_rows(db, THREADS, "10|200|80|15|0|105;20|100|60|0|0|40",
		"threads: span split into CPU, blocked and the rest");
	is_rows(db, MSGS, "20|1|1|4|30|30;20|2|1|4|40|60;20|2|2|5|20|20",
		"message_methods: each message's methods by self time");
	is_rows(db, TREE,
		"2|10|-|1|0|50|100|0;3|10|2|2|1|30|50|15;4|10|3|1|2|20|20|0;"
		"6|20|-|3|0|10|100|0;7|20|6|4|1|70|90|0;8|20|7|5|2|20|20|0",
		"calltree: paths with self and inclusive values, roots skipped");
	is_int(tsql_int(db, "SELECT sum(self_ns) FROM calltree WHERE tid = 10", -1), 100,
	       "a thread's self values add up to its outermost slice");
	bt_db_close(db);
}

/* Two profiles, a thread each (made on two cores), merged: the same
 * tables, path ids included, as one profile of both. */
static void test_merge(void)
{
	struct bt_profile *one = bt_profile_new(), *a = bt_profile_new(), *b = bt_profile_new();
	struct bt_db *db1, *db2;
	const char *q[] = { METHODS, CALLERS, BLOCKING, THREADS, MSGS, TREE };
	const char *name[] = { "merged: methods as one profile's", "merged: callers as one profile's",
			       "merged: method_blocking as one profile's", "merged: threads as one profile's",
			       "merged: message_methods as one profile's", "merged: calltree as one profile's" };
	size_t i;

	thread10(one);
	thread20(one);
	thread20(a);   /* the higher tid in the first part: merge orders by tid */
	thread10(b);
	bt_profile_merge(a, b);
	is_int(bt_profile_npaths(a), bt_profile_npaths(one), "merged: as many paths");
	db1 = stored(one, 1);
	db2 = stored(a, 1);
	for (i = 0; i < sizeof q / sizeof q[0]; i++) {
		char *x = tsql_rows(db1, q[i]), *y = tsql_rows(db2, q[i]);
		ok(x[0] && !strcmp(x, y), name[i]);
		if (strcmp(x, y))
			printf("#   %s\n#   one:    %s\n#   merged: %s\n", q[i], x, y);
		free(x);
		free(y);
	}
	bt_db_close(db1);
	bt_db_close(db2);
}

/* Thread tid: A [0, 3 s) calls B [1 s, 2.5 s) with k bytes allocated, B's
 * CPU delta negative (a counter that went back): wide slots. */
static void wide_thread(struct bt_profile *p, int64_t tid, int64_t k)
{
	uint32_t root = bt_profile_thread(p, tid), a, b;
	const int64_t alloc[BT_PROFILE_NCTR] = { k, 3, 0, 0, 0 };
	struct bt_slice s;

	a = bt_profile_enter(p, root, 1, 0, 0, 0, 0);
	b = bt_profile_enter(p, a, 2, 0, 0, 0, 0);
	s = sl(tid, 2, 1000000000, 1500000000, -7, 1500000000, -7, 0);
	bt_profile_leave(p, b, &s, alloc, 0, 0);
	s = sl(tid, 1, 0, 3000000000, 2200000000, 1500000000, 2200000007, 0);
	bt_profile_leave(p, a, &s, no_ctr, 0, 0);
	bt_profile_thread_span(p, 3000000000, 2200000000);
	bt_profile_thread_end(p);
}

static void test_wide(void)
{
	struct bt_profile *one = bt_profile_new(), *a = bt_profile_new(), *b = bt_profile_new();
	struct bt_db *db1, *db2;
	char *x, *y;

	wide_thread(one, 10, 5000000000);
	wide_thread(one, 20, 6);
	wide_thread(a, 20, 6);
	wide_thread(b, 10, 5000000000);
	bt_profile_merge(a, b);
	db1 = stored(one, 0);
	db2 = stored(a, 0);
	is_rows(db1, METHODS,
		"10|1|1500000000|3000000000|2200000007|2200000000|0|0|0|5000000000;"
		"10|2|1500000000|1500000000|-7|-7|0|0|5000000000|5000000000;"
		"20|1|1500000000|3000000000|2200000007|2200000000|0|0|0|6;20|2|1500000000|1500000000|-7|-7|0|0|6|6",
		"wide values: self and inclusive as summed");
	x = tsql_rows(db1, "SELECT * FROM calltree ORDER BY id");
	y = tsql_rows(db2, "SELECT * FROM calltree ORDER BY id");
	ok(x[0] && !strcmp(x, y), "wide values: the merged profile's call tree as one profile's");
	if (strcmp(x, y))
		printf("#   one:    %s\n#   merged: %s\n", x, y);
	free(x);
	free(y);
	bt_db_close(db1);
	bt_db_close(db2);
}

static void test_kinds(void)
{
	is_int(bt_block_kind_of(8), BT_BLOCK_MONITOR, "record type 8: monitor");
	is_int(bt_block_kind_of(2), BT_BLOCK_BINDER, "record type 2: binder");
	is_int(bt_block_kind_of(1), -1, "a record that does not block");
	is_int(bt_block_kind_named("gc"), BT_BLOCK_GC, "kind by name");
	is_int(bt_block_kind_named("nap"), -1, "unknown kind name");
	is_int(bt_block_kind_named(NULL), -1, "no name");
}

/* An idle path: its slices' off-CPU own time is idle, in no wall value,
 * and a record blocking there is no blocked time. */
static void test_idle(void)
{
	struct bt_profile *p = bt_profile_new();
	struct bt_db *db;
	uint32_t root = bt_profile_thread(p, 7), w, i;
	struct bt_slice s;

	w = bt_profile_enter(p, root, 1, 0, 0, 0, 0);
	i = bt_profile_enter(p, w, 2, 0, 0, 0, 1);
	s = sl(7, 2, 10, 80, 5, 80, 5, 0);
	s.idle = 1;
	bt_profile_block(p, i, 6, 70);
	bt_profile_leave(p, i, &s, no_ctr, 0, 0);
	s = sl(7, 1, 0, 100, 15, 20, 10, 0);
	bt_profile_leave(p, w, &s, no_ctr, 0, 0);
	bt_profile_thread_span(p, 100, 15);
	bt_profile_thread_end(p);
	db = stored(p, 1);
	is_rows(db, "SELECT frame_id, self_ns, incl_ns, self_idle_ns, incl_idle_ns, self_blocked_ns FROM methods ORDER BY 1",
		"1|20|25|0|75|0;2|5|5|75|75|0", "idle: off-CPU own time of an idle slice is idle, not wall");
	is_int(tsql_int(db, "SELECT count(*) FROM method_blocking", -1), 0, "idle: a record there is not blocking");
	is_rows(db, THREADS, "7|100|15|0|75|10", "idle: the thread's idle time");
	bt_db_close(db);
}

/* The longest messages of a thread (MSG_KEEP, 100, of them) keep their
 * methods: messages of random lengths with many ties, on two threads,
 * against a reference that scans the kept ones at every message (a new
 * message replaces the first of the shortest, if it is longer). */
static void test_longest(void)
{
	enum { KEEP = 100, N = 1500 };
	static int64_t kept_id[2][KEEP], kept_dur[2][KEEP];
	static char want[2 * KEEP * 32];
	struct bt_profile *p = bt_profile_new();
	struct bt_db *db;
	uint64_t seed = 77;
	size_t len = 0;
	int nk[2] = { 0, 0 }, t, i, j;

	for (t = 0; t < 2; t++) {
		uint32_t root = bt_profile_thread(p, 30 + t), loop = bt_profile_enter(p, root, 3, 0, 0, 0, 0);
		int64_t ts = 0;
		struct bt_slice s;
		for (i = 1; i <= N - t * 1000; i++) {
			int64_t dur = 1 + (int64_t)(tap_rand(&seed) % 40);   /* ties: 40 lengths */
			uint32_t m = bt_profile_enter(p, loop, 4, 0, 1, i, 0);
			int slot = nk[t];
			s = sl(30 + t, 4, ts, dur, dur, dur, dur, i);
			bt_profile_leave(p, m, &s, no_ctr, 1, 1);
			ts += dur;
			if (nk[t] == KEEP) {
				for (slot = 0, j = 1; j < KEEP; j++)
					if (kept_dur[t][j] < kept_dur[t][slot])
						slot = j;
				if (kept_dur[t][slot] >= dur)
					continue;
			} else {
				nk[t]++;
			}
			kept_id[t][slot] = i;
			kept_dur[t][slot] = dur;
		}
		s = sl(30 + t, 3, 0, ts, ts, 0, 0, 0);
		bt_profile_leave(p, loop, &s, no_ctr, 0, 0);
		bt_profile_thread_span(p, ts, ts);
		bt_profile_thread_end(p);
	}
	for (t = 0; t < 2; t++) {   /* the reference's, by msg_id: "tid|msg_id|self_ns" */
		for (i = 1; i < nk[t]; i++)   /* insertion sort of (id, dur) by id */
			for (j = i; j > 0 && kept_id[t][j - 1] > kept_id[t][j]; j--) {
				int64_t x = kept_id[t][j], y = kept_dur[t][j];
				kept_id[t][j] = kept_id[t][j - 1], kept_dur[t][j] = kept_dur[t][j - 1];
				kept_id[t][j - 1] = x, kept_dur[t][j - 1] = y;
			}
		for (i = 0; i < nk[t]; i++)
			len += (size_t)snprintf(want + len, sizeof want - len, "%s%d|%lld|%lld", len ? ";" : "", 30 + t,
						(long long)kept_id[t][i], (long long)kept_dur[t][i]);
	}
	is_int(nk[0] == KEEP && nk[1] == KEEP, 1, "both threads: more messages than are kept");
	db = stored(p, 0);
	is_rows(db, "SELECT tid, msg_id, self_ns FROM message_methods WHERE rank = 1 ORDER BY 1, 2", want,
		"message_methods: each thread's longest messages, the first of the shortest replaced");
	bt_db_close(db);
}

int main(void)
{
	test_kinds();
	test_tables();
	test_merge();
	test_wide();
	test_idle();
	test_longest();
	return done_testing();
}
