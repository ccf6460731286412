/*
 * Slices a trace brings with it (a Perfetto trace): taken as they are, no
 * reconstruction. The importer opens and closes them in each thread's
 * time order, threads in ascending tid order; the feed numbers them in
 * preorder, links parents, works out self values and inclusive blocked
 * time, stores them, and gives them the same attribution and messages as
 * reconstructed slices (profile.h), so every report reads them alike.
 */
#ifndef BT_FEED_H
#define BT_FEED_H

#include <stdint.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/profile/tap.h"

struct bt_feed;

/* Values of a slice the trace gave (its annotations); the rest are
 * worked out from the slice and its children. */
enum {
	BT_FEED_CPU = 1u << 0,        /* cpu_dur */
	BT_FEED_SELF_CPU = 1u << 1,   /* self_cpu_dur */
	BT_FEED_BLOCK = 1u << 2,      /* block_dur (else: its self time if it blocks, plus children's) */
	BT_FEED_SELF = 1u << 3,       /* self_dur (else: dur less the children's) */
	BT_FEED_CPU_UNKNOWN = 1u << 4 /* the trace does not say its CPU time: stored NULL, counted 0 */
};

/* A feed storing what it is given into db (slices, attribution, messages,
 * meta), and passing each slice to taps (borrowed until bt_feed_finish;
 * NULL for none). */
struct bt_feed *bt_feed_new(struct bt_db *db, const struct bt_taps *taps);
/* A feed that stores nothing: the slices of a trace database, read back
 * in id order, replayed to taps (borrowed until bt_feed_finish). */
struct bt_feed *bt_feed_new_replay(const struct bt_taps *taps);
/* The feed of a deferred re-walk (bt_feed_defer's fn): a replay that
 * stores each slice it is given into db, as the import would have, and
 * nothing else. */
struct bt_feed *bt_feed_new_refill(struct bt_db *db);

/* Store no slices: fn(ctx, db) makes them again when something first
 * reads the slices table (bt_db_defer_slices, registered when the feed
 * finishes; release(ctx) after fn, or at close). For a scratch database
 * (bt_import_opts.keep 0), whose importer can go through its trace
 * again: a dense trace's slices cost more to store than to read. */
void bt_feed_defer(struct bt_feed *f, bt_slices_fn fn, void (*release)(void *), void *ctx);

/* Frame ids are the importer's: tell the feed each one's name, once,
 * before a slice of it opens (it needs the message-loop frames). */
void bt_feed_frame(struct bt_feed *f, uint32_t frame, const char *name);

/*
 * Open a slice on s->tid at s->ts with frame, type and the given values
 * (known: BT_FEED_* bits); id, depth and parent_id are the feed's. A
 * smaller tid than the last is BT_EFORMAT. blocks: the slice is itself
 * a wait of type s->type (a marker slice): its self time is blocked, its
 * children's time only as far as they block (a wait inside a wait counts
 * once), so no frame's self blocked time exceeds its self time.
 */
int bt_feed_open(struct bt_feed *f, const struct bt_slice *s, unsigned known, int blocks,
		 struct bt_err *err);

/* Find the app's start as the slices pass (engine/startup/startup.h): the
 * slices, as they close, go to a start-up collector for the main thread
 * the frames and threads already stored name (it takes that thread's
 * slices and another thread's draws), and bt_feed_finish stores
 * what it found (the startup tables, diagnostics to diag) and meta
 * startup_modeled (the pipeline then need not read the slices back for
 * it). Before the first slice; a replay finds nothing. */
int bt_feed_find_startup(struct bt_feed *f, struct bt_diag *diag, struct bt_err *err);
/* Or the slices, as they close, go to the collectors c (borrowed; the
 * caller stores them, bt_startups_store): a trace that learns its main
 * thread only after its slices gives one per candidate. */
struct bt_startups;
void bt_feed_startups(struct bt_feed *f, struct bt_startups *c);
/* The slices are the trace's own calls, not stack changes between samples
 * (what the start-up collector makes of them); before bt_feed_finish. */
void bt_feed_startup_exact(struct bt_feed *f, int exact);

/* The trace has scheduler states (thread_states): keep every slice's self
 * time as segments, so that bt_feed_finish splits each method's self time
 * by state too (offcpu.h). Before the first slice. */
void bt_feed_states(struct bt_feed *f);

/* The innermost open slice of the current thread, or NULL. */
struct bt_slice *bt_feed_top(struct bt_feed *f);
int64_t bt_feed_depth(const struct bt_feed *f);

/* Values of the innermost open slice set since it opened (an end event's
 * annotations): BT_FEED_* bits to add to its known ones. */
void bt_feed_known(struct bt_feed *f, unsigned known);

/* Close the innermost open slice at end (not before its begin); its
 * values may be changed through bt_feed_top() until then. The slice as
 * stored goes to *closed unless that is NULL. */
int bt_feed_close(struct bt_feed *f, int64_t end, struct bt_slice *closed, struct bt_err *err);

/* Close what is open, tell the taps the run is done, store attribution,
 * messages and meta (unless a replay); frees f. */
int bt_feed_finish(struct bt_feed *f, struct bt_err *err);
/* Free f after an error. */
void bt_feed_free(struct bt_feed *f);

#endif
