/*
 * Unit tests of the capture (engine/recon/capture.c): the samples and
 * stack nodes an importer inserts are copied as they pass, field by field
 * and in file order; the first id that is not its position is noted; a
 * released capture watches no more.
 */
#include <string.h>

#include "engine/recon/capture.h"
#include "tests/tap.h"

static int insert(struct bt_db *db, int64_t id, int64_t tid, int64_t ts, struct bt_err *err)
{
	struct bt_sample s;

	memset(&s, 0, sizeof s);
	s.id = id;
	s.tid = tid;
	s.type = 8;
	s.ts = ts;
	s.end_ts = ts + 50;
	s.cpu_ns = 7;
	s.end_cpu_ns = 9;
	s.msg_id = 3;
	s.node_id = 2;
	s.alloc_objects = 4;
	s.alloc_bytes = 400;
	s.majflt = 1;
	s.nvcsw = 2;
	s.nivcsw = 5;
	return bt_db_insert_sample(db, &s, err);
}

int main(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_capture c;
	struct bt_db *db = NULL;
	const struct bt_csample *x;

	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err))
		printf("# %s\n", err.msg);
	bt_capture_begin(&c, db);
	ok(!insert(db, 1, 10, 100, &err) && !insert(db, 2, 11, 90, &err), "two samples inserted");
	ok(!bt_db_insert_node(db, 1, 0, 5, 0, &err) && !bt_db_insert_node(db, 3, 1, 6, 0, &err), "nodes inserted");
	is_int(c.n, 2, "both captured");
	x = &c.s[1];
	ok(x->tid == 11 && x->ts == 90 && bt_cends_of(&c.ends, 1)[0] == 140 && x->cpu == 7 &&
	   bt_cends_of(&c.ends, 1)[1] == 9 && x->type == 8, "in file order, times and type copied");
	ok(c.ends.n == 2 && c.ends.at[0] == 0 && c.ends.at[1] == 1, "each record's end beside it, by index");
	ok(x->msg_id == 3 && x->node_id == 2 && x->alloc_objects == 4 && x->alloc_bytes == 400 && x->majflt == 1 &&
	   x->nvcsw == 2 && x->nivcsw == 5, "message, node and counters copied");
	is_int(c.bad_at, 0, "dense ids: none noted");
	is_int(c.nnodes, 3, "the stack tree up to the largest node id");
	ok(c.parent[3] == 1 && c.frame[3] == 6 && c.frame[1] == 5 && c.frame[2] == 0, "nodes by id, a gap left empty");
	insert(db, 7, 10, 200, &err);
	insert(db, 9, 10, 300, &err);
	ok(c.bad_at == 3 && c.bad_id == 7, "the first id not its position is noted, once");
	bt_capture_release(&c);
	is_int(c.n, 0, "released: empty");
	insert(db, 4, 10, 400, &err);
	is_int(c.n, 0, "released: watches no more");
	bt_db_rollback(db);
	bt_db_close(db);
	return done_testing();
}
