/*
 * Binder calls of a system trace: the binder driver's tracepoints pair a
 * client's call with the thread that served it, as Perfetto's binder
 * tracker reads them. One place for every importer of them (Perfetto's
 * ftrace bundles, systrace's text).
 */
#ifndef BT_IMP_BINDER_EVENTS_H
#define BT_IMP_BINDER_EVENTS_H

#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"

/* One tracepoint of thread tid at ts: binder_transaction (received 0: a
 * call, or with reply a reply to thread to_thread; oneway from its flags)
 * or binder_transaction_received (received 1); debug_id pairs them. */
struct bt_bevent {
	int64_t ts, tid;
	int32_t debug_id, to_thread;
	int reply, received, oneway;
	int64_t seq;   /* set by bt_bevents_add: the order they came in */
};

/* The tracepoints as they come (any order), then paired. */
struct bt_bevents;

/* Keep event e; *b made at the first. */
void bt_bevents_add(struct bt_bevents **b, const struct bt_bevent *e);
/* Once the threads and their states are in db: each call paired with its
 * server and reply, a binder_calls row and, where the client waited, a
 * blocking edge ended by the server; why the reply was slow from the
 * server's states. Calls the trace cut are counted in diag as code. */
int bt_bevents_save(struct bt_bevents *b, struct bt_db *db, struct bt_diag *diag, const char *code,
			  const char *path, struct bt_err *err);
void bt_bevents_free(struct bt_bevents *b);

#endif
