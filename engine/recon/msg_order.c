/*
 * Messages stored in the order of their ids and times (msg_order.h). A
 * thread's messages come in the order they ran, so the test is each one
 * against its thread's last: a larger id, not an earlier start.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/recon/msg_order.h"

void bt_msg_order_init(struct bt_msg_order *o)
{
	bt_map64_init(&o->at, 16);
	o->last = NULL;
	o->n = o->cap = 0;
	o->tid = 0;
	o->cur = 0;
	o->broken = 0;
}

void bt_msg_order_release(struct bt_msg_order *o)
{
	bt_map64_release(&o->at);
	free(o->last);
	o->last = NULL;
}

void bt_msg_order_see(struct bt_msg_order *o, int64_t tid, int64_t id, int64_t ts)
{
	uint32_t i;

	if (o->broken)
		return;
	i = o->cur && o->tid == tid ? o->cur : bt_map64_get(&o->at, (uint64_t)tid);
	o->tid = tid;
	if (!i) {
		BT_GROW(o->last, o->n + 1, o->cap);
		bt_map64_put(&o->at, (uint64_t)tid, i = (uint32_t)++o->n);
	} else if (id <= o->last[i - 1].id || ts < o->last[i - 1].ts) {
		o->broken = 1;
		return;
	}
	o->cur = i;
	o->last[i - 1].id = id;
	o->last[i - 1].ts = ts;
}

/* Several feeds may store into one database (a capture of several
 * processes): one whose messages were out of order holds for all. */
int bt_msg_order_store(const struct bt_msg_order *o, struct bt_db *db, struct bt_err *err)
{
	int64_t before;

	if (bt_db_meta_int(db, "messages_in_id_order", 1, &before, err))
		return err->code;
	return bt_db_set_meta_int(db, "messages_in_id_order", before && !o->broken, err);
}
