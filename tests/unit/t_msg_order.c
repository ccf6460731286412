/*
 * Unit tests of engine/recon/msg_order.c: meta messages_in_id_order is 1
 * only when every thread's messages, as stored, have growing ids and
 * starts that do not go back; one feed out of order holds for all.
 */
#include <stdio.h>

#include "engine/db/db.h"
#include "engine/recon/msg_order.h"
#include "tests/tap.h"

/* The flag one tracker stores into a fresh database after the messages
 * v (tid, id, ts) of n; -1 on an error. */
static int64_t flag_of(const int64_t (*v)[3], size_t n)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_msg_order o;
	int64_t got = -1;
	size_t i;

	bt_msg_order_init(&o);
	for (i = 0; i < n; i++)
		bt_msg_order_see(&o, v[i][0], v[i][1], v[i][2]);
	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) || bt_msg_order_store(&o, db, &err) ||
	    bt_db_meta_int(db, "messages_in_id_order", -1, &got, &err))
		printf("# %s\n", err.msg);
	bt_msg_order_release(&o);
	bt_db_close(db);
	return got;
}

int main(void)
{
	static const int64_t none[1][3] = { { 0 } };
	static const int64_t ordered[][3] = { { 5, 1, 100 }, { 5, 2, 200 }, { 5, 3, 200 },   /* equal starts */
					      { 7, 1, 50 }, { 7, 9, 60 }, { 5, 4, 300 } };   /* back to 5 */
	static const int64_t id_back[][3] = { { 5, 1, 100 }, { 5, 3, 200 }, { 5, 2, 300 } };
	static const int64_t id_same[][3] = { { 5, 1, 100 }, { 5, 1, 200 } };
	static const int64_t ts_back[][3] = { { 5, 1, 100 }, { 5, 2, 90 } };
	/* thread 5 again after 7, its id below its last: caught though another came between */
	static const int64_t back_later[][3] = { { 5, 1, 100 }, { 5, 4, 200 }, { 7, 1, 10 }, { 5, 3, 300 } };
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	struct bt_msg_order a, b;
	int64_t got = -1;

	is_int(flag_of(none, 0), 1, "no messages: in order");
	is_int(flag_of(ordered, 6), 1, "growing ids, starts not going back, threads interleaved: in order");
	is_int(flag_of(id_back, 3), 0, "an id below the last: not in order");
	is_int(flag_of(id_same, 2), 0, "an id twice: not in order");
	is_int(flag_of(ts_back, 2), 0, "a start before the last one's: not in order");
	is_int(flag_of(back_later, 4), 0, "a thread's id going back after another thread's: not in order");

	/* two feeds into one database: the first out of order, the second in */
	bt_msg_order_init(&a);
	bt_msg_order_init(&b);
	bt_msg_order_see(&a, 5, 2, 100);
	bt_msg_order_see(&a, 5, 1, 200);
	bt_msg_order_see(&b, 9, 1, 100);
	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) || bt_msg_order_store(&a, db, &err) ||
	    bt_msg_order_store(&b, db, &err) || bt_db_meta_int(db, "messages_in_id_order", -1, &got, &err))
		printf("# %s\n", err.msg);
	is_int(got, 0, "one feed out of order, the next in order: the database's are not");
	bt_msg_order_release(&a);
	bt_msg_order_release(&b);
	bt_db_close(db);
	return done_testing();
}
