/*
 * Whether every thread's Looper messages began in the order of their ids:
 * then the messages table, keyed by (tid, msg_id), holds each thread's in
 * time order, and a rule reads a thread's first N by the key's range
 * instead of sorting them all (meta messages_in_id_order; lua/gate.lua's
 * windows).
 */
#ifndef BT_MSG_ORDER_H
#define BT_MSG_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/hash.h"
#include "engine/db/db.h"

struct bt_msg_order {
	struct bt_map64 at;   /* tid -> index + 1 in last */
	struct { int64_t id, ts; } *last;   /* each thread's last message */
	size_t n, cap;
	int64_t tid;          /* the thread of the last message seen, at index cur */
	uint32_t cur;
	int broken;           /* some thread's ids and times disagree */
};

void bt_msg_order_init(struct bt_msg_order *o);
void bt_msg_order_release(struct bt_msg_order *o);
/* The next message stored: thread tid's message id, beginning at ts. */
void bt_msg_order_see(struct bt_msg_order *o, int64_t tid, int64_t id, int64_t ts);
/* meta messages_in_id_order: 1 where every thread's were, else 0. */
int bt_msg_order_store(const struct bt_msg_order *o, struct bt_db *db, struct bt_err *err);

#endif
