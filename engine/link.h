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

#include "db.h"
#include "diag.h"

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

/*
 * Linking a trace as it is imported: bt_link_begin() watches the samples
 * going into db and keeps the waits and wakers among them (so no table
 * scan is needed); bt_link_finish() fills blocking_edges and counts
 * unlinked waits and orphan wakers in diag.
 */
struct bt_linker {
	struct bt_db *db;      /* watched until release */
	struct bt_link_rec { int64_t id, tid, type, ts, end_ts, node_id; } *recs;
	size_t n, cap;
};

void bt_link_begin(struct bt_linker *l, struct bt_db *db);
int bt_link_finish(struct bt_linker *l, struct bt_db *db, struct bt_diag *diag, struct bt_err *err);
void bt_link_release(struct bt_linker *l);

#endif
