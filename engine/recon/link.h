/*
 * Blocking edges: link each wait to the record that ended it (DESIGN §6).
 * The matching is format-neutral, a key plus a time window; the drivers say
 * what the key is: the waiter's begin time for Android v5 wakers, a lock id
 * for formats that record lock addresses, the object or thread a notify or
 * unpark marker names for traces with marker slices.
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

/* bt_link_match's flags. */
enum {
	BT_LINK_WITHIN = 1,   /* the wake is not before the wait's begin */
	BT_LINK_OTHER = 2     /* the wake is another thread's than the waiter's */
};

/*
 * For each wait choose the wake with the same key whose time is the
 * latest not after the wait's end (and as flags say, BT_LINK_*), of
 * those at one time the last in wakes' order by sample_id. wakes are
 * sorted here by (key, ts, sample_id). match[i] receives the index into
 * the sorted wakes, or -1.
 */
void bt_link_match(const struct bt_wait *waits, size_t nwaits, struct bt_wake *wakes,
		   size_t nwakes, int flags, long *match);

/*
 * The wakers a trace's marker slices name, kept while an importer reads
 * it (Perfetto's and systrace's): an Object#notify of an object and an
 * Unsafe#unpark of a thread (its identity hash). bt_link_waits then ends
 * each Object#wait of that object (a blocking edge of kind "wait", the
 * object its lock_id) and each Unsafe#park of that thread ("park") that
 * has no waker yet with the last notify or unpark another thread began
 * inside it.
 */
enum bt_link_kind { BT_LINK_NOTIFY, BT_LINK_UNPARK, BT_LINK_KINDS };

struct bt_link_notes {
	struct bt_wake *v[BT_LINK_KINDS];
	size_t n[BT_LINK_KINDS], cap[BT_LINK_KINDS];
};

void bt_link_notes_init(struct bt_link_notes *n);
void bt_link_notes_release(struct bt_link_notes *n);

/* A notify of object obj, or an unpark of the thread whose hash is obj,
 * began on thread tid at ts. */
void bt_link_note(struct bt_link_notes *n, enum bt_link_kind kind, int64_t obj, int64_t tid, int64_t ts);

/* Link the waits and parks of db's blocking_edges without a waker (and
 * without a waiter sample) to the notes: waker_tid and waker_ts. */
int bt_link_waits(struct bt_link_notes *n, struct bt_db *db, struct bt_err *err);

struct bt_capture;

/* Fill blocking_edges for a freshly imported trace whose samples hold
 * waits and their wakers' records (BT_BRINGS_WAKERS: a btrace 3.0 dump)
 * from its captured samples, counting unlinked waits and orphan wakers in
 * diag. */
int bt_link_run(const struct bt_capture *cap, struct bt_db *db, struct bt_diag *diag,
		struct bt_err *err);
/* The same for one process of a capture: records [lo, hi) of cap, its
 * main thread and its dump's version. */
int bt_link_range(const struct bt_capture *cap, size_t lo, size_t hi, int64_t main_tid, int64_t version,
		  struct bt_db *db, struct bt_diag *diag, struct bt_err *err);

#endif
