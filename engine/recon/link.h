/*
 * Blocking edges: link each wait to the record that ended it (DESIGN §6).
 * The matching is format-neutral, a key plus a time window; the drivers say
 * what the key is: the waiter's begin time for Android v5 wakers, a lock id
 * for formats that record lock addresses.
 */
#ifndef BT_LINK_H
#define BT_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"

struct bt_wait {
	int64_t sample_id, tid, ts, end, key;
	const char *kind;        /* static string: monitor, wait, park, lock… */
};

struct bt_wake {
	int64_t sample_id, tid, key, ts, node_id;
};

/*
 * For each wait choose the wake with the same key whose time is the
 * latest not after the wait's end (and, with within set, not before its
 * begin). wakes are sorted here by (key, ts). match[i] receives the index
 * into the sorted wakes, or -1.
 */
void bt_link_match(const struct bt_wait *waits, size_t nwaits, struct bt_wake *wakes,
		   size_t nwakes, int within, long *match);

struct bt_capture;

/* Fill blocking_edges for a freshly imported trace whose samples hold
 * waits and their wakers' records (BT_BRINGS_WAKERS: a btrace 3.0 dump)
 * from its captured samples, counting unlinked waits and orphan wakers in
 * diag. */
int bt_link_run(const struct bt_capture *cap, struct bt_db *db, struct bt_diag *diag,
		struct bt_err *err);

#endif
