/*
 * Unit tests of the off-CPU split by scheduler state (engine/recon/offcpu.c):
 * a thread's states against its top-level slices give its runnable,
 * sleeping, I/O and other uninterruptible time inside them, and against
 * its self segments each method's; states outside its slices say nothing
 * (NULL), as do a thread without states and one without slices.
 */
#include "engine/recon/offcpu.h"
#include "tests/tap.h"
#include "tests/tsql.h"

/* tid, ts, dur, state (1 running, 2 runnable, 3 sleeping, 4 uninterruptible), io_wait */
static const int64_t states[][5] = {
	{ 5, 0, 50, 1, -1 }, { 5, 50, 30, 2, -1 }, { 5, 80, 40, 3, -1 }, { 5, 120, 30, 4, 1 },
	{ 5, 150, 20, 4, 0 }, { 5, 170, 130, 3, -1 },
	{ 6, 0, 100, 3, -1 },     /* a thread without slices */
	{ 8, 0, 10, 3, -1 },      /* states before its slice only */
};

int main(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_offcpu o;
	struct bt_db *db = NULL;
	size_t i;
	int rc;

	rc = bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err);
	for (i = 0; !rc && i < sizeof states / sizeof states[0]; i++) {
		const int64_t v[7] = { states[i][0], states[i][1], states[i][2], states[i][3], 0, -1, states[i][4] };
		rc = bt_db_insert_thread_state(db, v, NULL, &err);
	}
	for (i = 2; !rc && i <= 3; i++) {   /* the methods stored before: frames 2 and 3 of tid 5 */
		int64_t v[20] = { 5, (int64_t)i };
		rc = bt_db_exec_ints(db, BT_SQL_INSERT_METHOD, v, 20, &err);
	}
	if (rc)
		printf("# %s\n", err.msg);
	bt_offcpu_init(&o);
	is_int(bt_offcpu_store(&o, db, &err), BT_OK, "no slices: nothing to split");
	bt_offcpu_add(&o, 5, 10, 100);
	bt_offcpu_add(&o, 5, 110, 160);
	bt_offcpu_add(&o, 7, 0, 100);      /* a thread without states */
	bt_offcpu_add(&o, 8, 1000, 2000);
	bt_offcpu_self(&o, 5, 2, 10, 60);
	bt_offcpu_self(&o, 5, 3, 60, 100);
	bt_offcpu_self(&o, 5, 2, 110, 160);
	is_int(bt_offcpu_store(&o, db, &err), BT_OK, "stored");
	if (err.code)
		printf("# %s\n", err.msg);
	is_rows(db, "SELECT tid, runnable_dur, sleeping_dur, io_dur, uninterruptible_dur FROM threads ORDER BY tid",
		"5|30|30|30|10", "threads: the states' overlap with the top-level slices by class; no row for the others");
	is_rows(db, "SELECT frame_id, self_runnable_ns, self_sleeping_ns, self_io_ns, self_uninterruptible_ns "
		"FROM methods ORDER BY frame_id", "2|10|10|30|10;3|20|20|0|0", "methods: the same of their self segments");
	bt_offcpu_release(&o);
	is_int(o.n + o.nself, 0, "release empties it");
	bt_db_close(db);
	return done_testing();
}
