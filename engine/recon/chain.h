/*
 * Wait chains (issue 19): behind each main-thread wait with a known waker,
 * what the waker did during the wait and, when it was itself blocked, the
 * thread that released it, hop by hop: a critical path of the main thread
 * with a Java stack on every hop. Tables wait_chain and wait_chain_methods.
 */
#ifndef BT_CHAIN_H
#define BT_CHAIN_H

#include "engine/db/db.h"

#define BT_CHAIN_DEPTH 4     /* hops per wait at most */
#define BT_CHAIN_METHODS 5   /* top methods kept per hop */

struct bt_capture;
struct bt_chain;

/*
 * The hops of every main-thread wait with a waker in db's blocking_edges,
 * from the records in cap (read now, not kept: call it before the slicer
 * takes them). *out is NULL when no wait has a waker. Errors: reading the
 * edges (BT_ESQL).
 */
int bt_chain_new(struct bt_chain **out, const struct bt_capture *cap, struct bt_db *db,
		 struct bt_err *err);
/* Slice s ended on part (0 or 1; the two parts of a run may call at the
 * same time): its overlap with the hops of its thread. c may be NULL. */
void bt_chain_slice(struct bt_chain *c, int part, const struct bt_slice *s);
/* Write wait_chain and wait_chain_methods (c may be NULL: nothing). */
int bt_chain_store(struct bt_chain *c, struct bt_db *db, struct bt_err *err);
void bt_chain_free(struct bt_chain *c);

#endif
