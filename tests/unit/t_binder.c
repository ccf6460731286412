/*
 * Unit tests of binder calls followed across the processes of one capture
 * (engine/recon/binder.c), on a constructed capture of two processes:
 *   - a client's call is served by the binder thread of another process
 *     sampled most inside it under Binder.execTransact, of the interface
 *     its proxy names: not a thread of its own process, not a thread
 *     serving another interface; its row gives the server's first and
 *     last sample, how many, its blocked time and why the call was slow;
 *     its edge the server's last sample and its most sampled stack;
 *   - a stretch of work that ran into the call's window from before it
 *     (no sleep between) is another client's transaction: the call is
 *     unserved, and counted;
 *   - with a system trace's calls, those are the calls: the dump's record
 *     each one is, the server's samples between its receipt and reply, a
 *     oneway call with no edge.
 */
#include <string.h>

#include "engine/recon/binder.h"
#include "engine/recon/capture.h"
#include "tests/tap.h"
#include "tests/tsql.h"

/* id, name, class, method */
static const char *const frames[][3] = {
	{ "void android.os.Looper.loop()", "android.os.Looper", "loop" },
	{ "int com.app.IFoo$Stub$Proxy.get()", "com.app.IFoo$Stub$Proxy", "get" },
	{ "boolean android.os.Binder.execTransact(int)", "android.os.Binder", "execTransact" },
	{ "boolean com.app.IFoo$Stub.onTransact(int)", "com.app.IFoo$Stub", "onTransact" },
	{ "void com.srv.Db.query()", "com.srv.Db", "query" },
	{ "boolean com.app.IBar$Stub.onTransact(int)", "com.app.IBar$Stub", "onTransact" },
};

/* node -> parent, frame (1 up) */
static const int64_t nodes[][2] = {
	{ 0, 0 }, { 0, 1 },
	{ 1, 2 },   /* 2: the client's proxy call */
	{ 0, 3 },   /* 3: a binder thread in execTransact */
	{ 3, 4 },   /* 4: serving IFoo */
	{ 4, 5 },   /* 5: ... in its database */
	{ 3, 6 },   /* 6: serving IBar */
};

/* tid, type, ts, end_ts, node, nvcsw; the app (pid 100) first, then the
 * server process (pid 200) */
static const int64_t records[][6] = {
	{ 100, 2, 1000, 2000, 2, 0 },   /* the call IFoo serves */
	{ 100, 2, 3000, 3500, 2, 0 },   /* the call no one was seen serving */
	{ 110, 5, 1050, 0, 4, 1 },      /* the app's own binder thread, busy meanwhile: */
	{ 110, 5, 1250, 0, 4, 1 },      /* sampled more than the server, but a call goes */
	{ 110, 5, 1450, 0, 4, 1 },      /* to another process */
	{ 110, 5, 1650, 0, 4, 1 },
	{ 110, 5, 1850, 0, 4, 1 },
#define APP_RECORDS 7
	{ 210, 5, 1100, 0, 4, 5 },      /* the server: woke for the call, */
	{ 210, 8, 1200, 1700, 5, 5 },   /* blocked on a monitor for 500 of it */
	{ 210, 5, 1400, 0, 5, 5 },
	{ 210, 5, 1700, 0, 5, 5 },
	{ 210, 5, 2500, 0, 3, 6 },      /* slept after it */
	{ 220, 5, 1300, 0, 6, 2 },      /* another binder thread, serving IBar: sampled */
	{ 220, 5, 1500, 0, 6, 2 },      /* more than the server, but of another interface */
	{ 220, 5, 1600, 0, 6, 2 },
	{ 220, 5, 1800, 0, 6, 2 },
	{ 220, 5, 1900, 0, 6, 2 },
	{ 230, 5, 2900, 0, 4, 9 },      /* a transaction running since before the second call */
	{ 230, 5, 3200, 0, 4, 9 },
};

#define NREC (sizeof records / sizeof records[0])

static struct bt_db *capture(struct bt_capture *cap, struct bt_process procs[2])
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	size_t i;
	int rc;

	rc = bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err);
	for (i = 0; !rc && i < sizeof frames / sizeof frames[0]; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, &err, "iittttt", (int64_t)i + 1, (int64_t)0, frames[i][0],
				NULL, frames[i][1], frames[i][2], "");
	bt_capture_begin(cap, db);
	for (i = 1; !rc && i < sizeof nodes / sizeof nodes[0]; i++)
		rc = bt_db_insert_node(db, (int64_t)i, nodes[i][0], nodes[i][1], 0, &err);
	for (i = 0; !rc && i < NREC; i++) {
		struct bt_sample s;
		memset(&s, 0, sizeof s);
		s.id = (int64_t)i + 1;
		s.tid = records[i][0];
		s.type = records[i][1];
		s.ts = records[i][2];
		s.end_ts = records[i][3];
		s.node_id = records[i][4];
		s.nvcsw = records[i][5];
		rc = bt_db_insert_sample(db, &s, &err);
	}
	if (rc)
		printf("# %s\n", err.msg);
	memset(procs, 0, 2 * sizeof *procs);
	procs[0].pid = 100, procs[0].lo = 0, procs[0].hi = APP_RECORDS;
	procs[1].pid = 200, procs[1].lo = APP_RECORDS, procs[1].hi = NREC;
	return db;
}

/* The capture linked (with a system trace's calls sys, or NULL): what it
 * stored in l->db, its counts and the servers' spans. */
struct linked {
	struct bt_db *db;
	struct bt_diag diag;
	struct bt_slice_span *spans;
	size_t nspans;
};

static void link_capture(const struct bt_sys_calls *sys, struct linked *l)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_process procs[2];
	struct bt_capture cap;

	memset(l, 0, sizeof *l);
	bt_diag_init(&l->diag);
	l->db = capture(&cap, procs);
	is_int(bt_binder_link(&cap, procs, 2, sys, l->db, &l->diag, &l->spans, &l->nspans, &err), BT_OK, "linked");
	bt_capture_release(&cap);
}

static void linked_release(struct linked *l)
{
	free(l->spans);
	bt_db_close(l->db);
}

#define CALLS "SELECT client_tid, client_sample_id, ts, dur, oneway, server_pid, server_tid, server_first_ts, " \
	      "server_last_ts, server_samples, blocked_dur, why FROM binder_calls ORDER BY id"

static void test_from_the_dumps(void)
{
	struct linked l;
	int i;

	link_capture(NULL, &l);
	is_rows(l.db, CALLS, "100|1|1000|1000|0|200|210|1100|1700|4|500|blocked;100|2|3000|500|0|-|-|-|-|-|-|-",
		"the first call served by pid 200's tid 210, 4 samples, blocked 500 of its 600 (why: blocked); "
		"the second by none");
	is_rows(l.db,
		"SELECT waiter_tid, waiter_sample_id, kind, ts, dur, waker_tid, waker_sample_id, waker_ts, "
		"waker_node_id FROM blocking_edges",
		"100|1|binder|1000|1000|210|11|1700|5",
		"its edge: the server's last sample in it, its most sampled stack (the database)");
	is_int(l.nspans, 1, "one span for the slicer");
	ok(l.nspans == 1 && l.spans[0].tid == 210 && l.spans[0].lo == 1000 && l.spans[0].hi == 2000 &&
	   !l.spans[0].exact, "the server's span: within the call, not exact");
	for (i = 0; i < l.diag.n && strcmp(l.diag.items[i].code, "binder_unserved"); i++)
		;
	ok(i < l.diag.n && l.diag.items[i].count == 1, "the unserved call counted");
	linked_release(&l);
}

static void test_from_a_system_trace(void)
{
	struct bt_sys_call calls[2];
	struct bt_sys_calls sys = { calls, 2, 2 };
	struct linked l;

	memset(calls, 0, sizeof calls);
	calls[0] = (struct bt_sys_call){ 100, 1000, 2000, 210, 200, 1050, 1650, 300, 0, "blocked" };
	calls[1] = (struct bt_sys_call){ 100, 3000, 3100, 220, 200, 3010, 0, 0, 1, "" };
	link_capture(&sys, &l);
	is_rows(l.db, CALLS, "100|1|1000|1000|0|200|210|1050|1650|3|300|blocked;100|2|3000|100|1|200|220|3010|-|0|0|-",
		"the system trace's calls: its receipt and reply, the server's samples between, the record each is");
	is_rows(l.db, "SELECT waiter_tid, waiter_sample_id, kind, waker_tid, waker_sample_id, waker_ts, waker_node_id "
		      "FROM blocking_edges",
		"100|1|binder|210|10|1650|5", "one edge: the oneway call has none");
	ok(l.nspans == 1 && l.spans[0].tid == 210 && l.spans[0].lo == 1050 && l.spans[0].hi == 1650 &&
	   l.spans[0].exact, "the server's span is its receipt to its reply, exact");
	is_int(l.diag.n, 0, "nothing unserved: the system trace said who served");
	linked_release(&l);
}

int main(void)
{
	test_from_the_dumps();
	test_from_a_system_trace();
	return done_testing();
}
