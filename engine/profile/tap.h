/*
 * Slice taps: consumers of the slices of the run that builds the profile,
 * besides the database. An export or report that needs slices (the
 * Perfetto trace, the HTML timeline) taps the one reconstruction (or the
 * import of a trace's own slices, or the replay of a trace database's
 * stored ones) instead of making its own; the pprof and folded stacks
 * come from the run's profile itself (stacks.h).
 */
#ifndef BT_PROFILE_TAP_H
#define BT_PROFILE_TAP_H

#include <stdint.h>

#include "engine/db/db.h"
#include "engine/profile/profile.h"

struct bt_stacks;

/* The slices a tap is given: those of thread tid (-1: of every thread)
 * lasting at least min_dur ns. The others only count (thread below). */
struct bt_tap_filter {
	int64_t tid, min_dur;
};

struct bt_slice_tap {
	/* Before the first slice (may be NULL): the trace's facts so far are
	 * in db (its meta and threads; a trace that brings its own slices may
	 * name its main thread only later); *want (every slice, unless begin
	 * narrows it) spares the run calls for slices the tap would drop. */
	int (*begin)(void *ctx, struct bt_db *db, struct bt_tap_filter *want, struct bt_err *err);
	/*
	 * A slice it wants ended. The run has one or two parts (the
	 * reconstruction's two cores) working on disjoint threads at the same
	 * time: part is 0 or 1, and a tap keeps what it collects per part.
	 * Within a part, threads come in ascending tid order, each thread's
	 * slices as they end (children before their parent), with ids counted
	 * per part in preorder (a thread's ids are contiguous).
	 */
	int (*slice)(void *ctx, int part, const struct bt_slice *s, struct bt_err *err);
	/* A thread's slices are all given (may be NULL): it had n, wanted or
	 * not. */
	int (*thread)(void *ctx, int part, int64_t tid, int64_t n, struct bt_err *err);
	void *ctx;
};

/* The taps of a run, called in turn, and whoever owns them. */
struct bt_taps {
	const struct bt_slice_tap *v;
	struct bt_tap_filter *want;   /* by tap: what begin asked for */
	size_t n;
	/*
	 * Once every tap is done and the database holds all a consumer may
	 * want besides the slices (threads, frames, meta, waits): right after
	 * a reconstruction, before its attribution is stored; after the import
	 * of a trace that brings its own slices; at the end of a replay. Read
	 * db then (on the caller's thread) and start using what the taps
	 * collected, while the run goes on. Called once; may be NULL.
	 */
	int (*ready)(void *ctx, struct bt_db *db, struct bt_err *err);
	void *ctx;
	/* The stacks to fill (NULL: none): the run's profile keeps its paths'
	 * values per message, which the stacks take when it is done. */
	struct bt_stacks *stacks;
};

/* Each tap's begin, in turn (NULL ones skipped); the first error stops
 * them. */
int bt_taps_begin(const struct bt_taps *t, struct bt_db *db, struct bt_err *err);
/* The run is over and p is its profile (parts merged): the stacks take
 * its entries. */
void bt_taps_done(const struct bt_taps *t, struct bt_profile *p);
/* The owner's ready, if any. */
int bt_taps_ready(const struct bt_taps *t, struct bt_db *db, struct bt_err *err);
/* Slice s ended on part: to each tap that wants it. */
int bt_taps_slice(const struct bt_taps *t, int part, const struct bt_slice *s, struct bt_err *err);
/* A thread's n slices are done: to each tap's thread. */
int bt_taps_thread(const struct bt_taps *t, int part, int64_t tid, int64_t n, struct bt_err *err);

#endif
