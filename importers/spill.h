/*
 * The importers' store of events kept until the whole trace is read
 * (Perfetto's track and scheduler events, systrace's per thread): records
 * ordered by key (a thread, a track), then time, then the caller's
 * sequence number (file order), spilled as sorted runs to an unlinked
 * temporary file and merged when read back, so memory stays flat however
 * long the trace.
 */
#ifndef BT_SPILL_H
#define BT_SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"

/* A record as the store keeps it; len bytes of payload follow it (kept
 * rounded up to 8). */
struct bt_spill_rec {
	int64_t k, ts, seq;   /* the order: key, then time, then seq */
	uint32_t a;           /* the caller's */
	uint8_t c;            /* the caller's */
	uint8_t flags;        /* the caller's bits, below BT_SPILL_PENDING */
	uint16_t len;         /* bytes of payload */
};

/* In flags: k is not the key yet but the caller's name for it, which its
 * resolver turns into the key (a track described after its events). */
#define BT_SPILL_PENDING 0x80
/* A record with its payload is at most this many bytes. */
#define BT_SPILL_MAX_REC 512

/* The key of a pending record named pending: 1 and *k set once it is
 * known, else 0 (the record waits; at bt_spill_order, it is dropped). */
typedef int (*bt_spill_resolve_fn)(void *ctx, int64_t pending, int64_t *k);

struct bt_spill;

/*
 * A new store for the events of path (named in messages, copied). chunk:
 * bytes of records sorted in memory at a time (0: 32 MiB; tests give
 * less, to make many runs); stem names the temporary file
 * ($TMPDIR/STEM-PID-XXXXXX, unlinked once open). resolve (and ctx) serve
 * pending records until bt_spill_order; NULL when there are none.
 */
struct bt_spill *bt_spill_new(const char *path, const char *stem, size_t chunk, bt_spill_resolve_fn resolve,
			      void *ctx);
void bt_spill_free(struct bt_spill *s);

/* Add r and its r->len bytes of payload (BT_EIO if the file fails). */
int bt_spill_add(struct bt_spill *s, const struct bt_spill_rec *r, const void *payload, struct bt_err *err);
/* Sort the records in memory and write them out as a run (bt_spill_add
 * does when the chunk is full). */
int bt_spill_flush(struct bt_spill *s, struct bt_err *err);
/* Sorted runs written to the file so far (0: all in memory; s NULL: 0). */
int64_t bt_spill_runs(const struct bt_spill *s);

/*
 * Once all are added: get ready to read the records in order; each
 * bt_spill_next points *r at the next (its payload after it; valid until
 * the next call): 1 a record, 0 the end, -1 an error (err set). Pending
 * records never resolved are left out.
 */
int bt_spill_order(struct bt_spill *s, struct bt_err *err);
int bt_spill_next(struct bt_spill *s, const struct bt_spill_rec **r, struct bt_err *err);
/* After a read in order: give back its buffers (the records stay, in
 * memory or in the file, until bt_spill_free). */
void bt_spill_rest(struct bt_spill *s);
/* Read the records in order again, from the first (after bt_spill_order). */
int bt_spill_rewind(struct bt_spill *s, struct bt_err *err);

/* A record's bytes: its header and payload, rounded up to 8. */
static inline size_t bt_spill_size(const struct bt_spill_rec *r)
{
	return sizeof *r + (((size_t)r->len + 7) & ~(size_t)7);
}

#endif
