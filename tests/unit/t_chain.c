/*
 * Unit tests of the wait chains (engine/recon/chain.c): a main-thread
 * wait woken by a thread that was itself blocked on a monitor, which a
 * third thread's unlock record released: hop 1 is the waker over the
 * whole wait with its blocked time, kind and stack; hop 2 the unlocker
 * over the block, with its last sample's stack (the samples of nine other
 * threads between two of its own); each hop's methods from
 * the slices that overlap it, longest first. No wait with a waker: no
 * chain.
 */
#include <string.h>

#include "engine/recon/capture.h"
#include "engine/recon/chain.h"
#include "tests/tap.h"
#include "tests/tslice.h"
#include "tests/tsql.h"

/* tid, type, ts, end_ts, node */
static const int64_t records[][5] = {
	{ 1, 8, 1000, 2000, 1 },   /* the main thread's monitor wait */
	{ 2, 8, 1200, 1700, 5 },   /* its waker blocked on a monitor meanwhile */
	{ 3, 5, 1100, 0, 6 },      /* the unlocker's samples: before the block ... */
	{ 3, 5, 1500, 0, 7 },      /* ... and inside it, its last there */
	{ 3, 5, 1300, 0, 9 },      /* an earlier one, later in the file */
	{ 3, 23, 1000, 1650, 7 },  /* the unlock of the main wait (key: its begin), inside the block */
	{ 20, 5, 1610, 0, 1 }, { 21, 5, 1620, 0, 1 }, { 22, 5, 1630, 0, 1 },   /* nine other threads ... */
	{ 23, 5, 1640, 0, 1 }, { 24, 5, 1650, 0, 1 }, { 25, 5, 1655, 0, 1 },
	{ 26, 5, 1660, 0, 1 }, { 27, 5, 1665, 0, 1 }, { 28, 5, 1670, 0, 1 },
	{ 3, 5, 1680, 0, 9 },      /* ... then the unlocker's last inside (its place looked up again) */
	{ 3, 5, 1800, 0, 8 },      /* after it */
};

static struct bt_db *new_db(struct bt_capture *cap, int edge)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	size_t i;
	int rc;

	rc = bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, &err, "iti", (int64_t)1, "main", (int64_t)1);
	if (!rc && edge)
		rc = bt_db_exec(db, BT_SQL_INSERT_EDGE, &err, "iitniiiinn", (int64_t)1, (int64_t)1, "monitor",
				(int64_t)1000, (int64_t)1000, (int64_t)2, (int64_t)2);
	bt_capture_begin(cap, db);
	for (i = 0; !rc && i < sizeof records / sizeof records[0]; i++) {
		struct bt_sample s;
		memset(&s, 0, sizeof s);
		s.id = (int64_t)i + 1;
		s.tid = records[i][0];
		s.type = records[i][1];
		s.ts = records[i][2];
		s.end_ts = records[i][3];
		s.node_id = records[i][4];
		rc = bt_db_insert_sample(db, &s, &err);
	}
	if (rc)
		printf("# %s\n", err.msg);
	return db;
}

static struct bt_slice sl(int64_t tid, int64_t frame, int64_t ts, int64_t dur, int64_t depth)
{
	return tslice(tid, frame, ts, dur, 0, depth);
}

int main(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_capture cap;
	struct bt_db *db = new_db(&cap, 1);
	struct bt_chain *c = NULL;
	struct bt_slice s;

	is_int(bt_chain_new(&c, &cap, db, &err), BT_OK, "chain: built");
	ok(c != NULL, "chain: a wait with a waker");
	s = sl(2, 10, 1150, 100, 2);   /* thread 2's slices as they end: 10 calls 11 calls 10 */
	bt_chain_slice(c, 0, &s);
	s = sl(2, 11, 1100, 200, 1);
	bt_chain_slice(c, 0, &s);
	s = sl(2, 10, 1000, 900, 0);
	bt_chain_slice(c, 0, &s);
	s = sl(3, 12, 1250, 350, 0);
	bt_chain_slice(c, 1, &s);      /* the other part of a two-core run */
	s = sl(3, 13, 1900, 0, 0);     /* no duration: nothing */
	bt_chain_slice(c, 1, &s);
	is_int(bt_chain_store(c, db, &err), BT_OK, "chain: stored");
	is_rows(db, "SELECT edge_id, hop, tid, ts, dur, blocked_kind, blocked_ns, node_id FROM wait_chain ORDER BY hop",
		"1|1|2|1000|1000|monitor|500|5;1|2|3|1200|500|-|0|9",
		"hops: the waker over the wait, blocked on a monitor; its unlocker over the block");
	is_rows(db, "SELECT hop, rank, frame_id, overlap_ns FROM wait_chain_methods ORDER BY hop, rank",
		"1|1|10|900;1|2|11|200;2|1|12|350", "each hop's methods by their overlap with it, a recursive one's outermost only");
	bt_chain_free(c);
	bt_capture_release(&cap);
	bt_db_close(db);

	db = new_db(&cap, 0);
	c = (struct bt_chain *)&err;   /* must be set to NULL */
	is_int(bt_chain_new(&c, &cap, db, &err), BT_OK, "no edge: fine");
	ok(c == NULL, "no edge: no chain");
	bt_chain_slice(NULL, 0, &s);
	is_int(bt_chain_store(NULL, db, &err), BT_OK, "no chain: nothing stored");
	is_int(tsql_int(db, "SELECT count(*) FROM wait_chain", -1), 0, "no chain: no rows");
	bt_capture_release(&cap);
	bt_db_close(db);
	return done_testing();
}
