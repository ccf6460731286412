/*
 * The app start (issue 19): where it begins and ends, its phases, and what
 * the main thread did in each, as the tables startup, startup_phases,
 * startup_methods and startup_blocking (queries/schema.sql).
 *
 * The boundaries are activations of the framework's own frames on the
 * main thread: a dump's methods (ActivityThread.handleBindApplication,
 * performLaunchActivity, Choreographer.doFrame, ...) or a trace's atrace
 * slices (bindApplication, activityStart, Choreographer#doFrame N, ...),
 * so one collector serves a reconstruction (fed as the main thread's
 * slices end) and a trace that brings its own slices (fed from the
 * slices table). It keeps the main thread's slices only until the first
 * frame after the launch has ended, or until reportFullyDrawn where the
 * app reports full display, and at most STARTUP_MAX_SLICES.
 */
#ifndef BT_STARTUP_H
#define BT_STARTUP_H

#include <stdint.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"

struct bt_startup;

/* A collector for the main thread of db (NULL when db names none, or
 * its frames have no start's frame: then there is nothing to find). */
int bt_startup_new(struct bt_startup **out, struct bt_db *db, struct bt_err *err);
/* The same for thread tid, frames 1..n named by name(ctx, id) (NULL:
 * none), before the database holds them: for an importer that feeds its
 * slices before it knows which thread is the main one (a collector per
 * candidate). NULL when no frame marks a start. */
struct bt_startup *bt_startup_new_frames(int64_t tid, size_t n, const char *(*name)(const void *ctx, size_t id),
					 const void *ctx);
void bt_startup_free(struct bt_startup *st);

/* Whether the slices added have exact bounds (a trace's own, not
 * reconstructed from samples); not, unless said. */
void bt_startup_exact(struct bt_startup *st, int exact);

/* The main thread's tid, for the caller's filter. */
int64_t bt_startup_tid(const struct bt_startup *st);

/* A slice of the main thread ended: slices come as they end (children
 * first, in time order), as the slicer emits them; the first frame counts
 * only once the launch before it has been seen. */
void bt_startup_add(struct bt_startup *st, const struct bt_slice *s);

/* A Looper message of thread tid stored, [ts, end): the main thread's
 * are what a late frame may have waited behind. */
void bt_startup_message(struct bt_startup *st, int64_t tid, int64_t msg_id, int64_t ts, int64_t end);

/* Find the start in what was added and write its tables (none when no
 * start is there, with a diagnostic when a boundary is missing). */
int bt_startup_store(struct bt_startup *st, struct bt_db *db, struct bt_diag *diag, struct bt_err *err);

/*
 * The collectors of the threads that may be the main one (startups.c): a
 * trace's importer learns which only after its slices (a Perfetto
 * trace's pid's thread, or one named main), so each candidate's collects
 * until then; or the one the database names. Each slice that ends goes
 * to every collector (each takes its own thread's, and another thread's
 * draws), with no CPU time where the trace does not say it.
 */
#define BT_STARTUPS_MAX 8
struct bt_startups;

struct bt_startups *bt_startups_new(void);
void bt_startups_free(struct bt_startups *c);
/* A collector for the main thread db names into c (*tid, else -1). */
int bt_startups_from_db(struct bt_startups *c, struct bt_db *db, int64_t *tid, struct bt_err *err);
/* A collector for thread tid, its frames 1..n named by name(ctx, id)
 * (bt_startup_new_frames); past BT_STARTUPS_MAX of them, none is stored. */
void bt_startups_candidate(struct bt_startups *c, int64_t tid, size_t n,
			   const char *(*name)(const void *ctx, size_t id), const void *ctx);
/* The slices are the trace's own calls (bt_startup_exact). */
void bt_startups_exact(struct bt_startups *c, int exact);
void bt_startups_add(struct bt_startups *c, const struct bt_slice *s);
void bt_startups_message(struct bt_startups *c, int64_t tid, int64_t msg_id, int64_t ts, int64_t end);
/* Store main_tid's collector (bt_startup_store) and meta startup_modeled;
 * main_tid -1: none, the meta alone. Nothing when main_tid has no
 * collector or there were too many candidates (the pipeline reads the
 * slices back then). */
int bt_startups_store(struct bt_startups *c, int64_t main_tid, struct bt_db *db, struct bt_diag *diag,
		      struct bt_err *err);

/* The same from the stored slices of a trace that brought its own. */
int bt_startup_from_slices(struct bt_db *db, struct bt_diag *diag, struct bt_err *err);

#endif
