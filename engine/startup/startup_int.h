/*
 * The app start's collector (startup.c) as its other parts see it: the
 * phases, the main thread's slices kept until the first frame, the
 * phases found. startup_phase.c breaks a phase down and stores it;
 * startup_begin.c finds where the start began and the app's package.
 */
#ifndef BT_STARTUP_INT_H
#define BT_STARTUP_INT_H

#include <stdint.h>
#include <stddef.h>

#include "engine/db/db.h"
#include "engine/startup/display.h"
#include "engine/startup/frames.h"
#include "engine/startup/startup.h"

/* Phases in report order; PH_STARTUP is the whole window. */
enum phase {
	PH_BIND, PH_PROVIDERS, PH_APP_CREATE, PH_LAUNCH, PH_ACT_CREATE, PH_ACT_START, PH_RESUME,
	PH_FRAME, PH_DRAWN, PH_RESTART, PH_STARTUP, PH__COUNT
};

/* A role beyond the phases: the RenderThread's draw of a frame, on any
 * thread (the prefix matches DrawFrame N and API 32's DrawFrames N). */
#define ROLE_DRAW (PH__COUNT + 1)
#define DRAW_PREFIX "DrawFrame"
/* And the vsync's callback in the main thread's poll, which posts the
 * frame's message (ui_frames: a frame that ran unsampled after it). */
#define ROLE_VSYNC (PH__COUNT + 2)
#define VSYNC_PART " android.view.Choreographer$FrameDisplayEventReceiver.onVsync("
#define ROLE_TRAVERSAL (PH__COUNT + 3)
#define TRAVERSAL_PART " android.view.ViewRootImpl$TraversalRunnable.run("
#define ROLE_CALLBACK (PH__COUNT + 4)
#define CALLBACK_PART " android.view.Choreographer$CallbackRecord.run("
/* A frame id's kind: its role (1 + enum phase, or a ROLE_*) in the low
 * bits, and KIND_APP where it is the app's method (engine/db/appcode.h);
 * one byte, as every main-thread slice reads both. */
#define KIND_ROLE 0x1f
#define KIND_APP 0x80

/* The phases' names, as startup_phases stores them. */
extern const char *const bt_startup_phase_name[PH__COUNT];

/* A main-thread slice, as much as the tables need. */
struct mslice {
	int64_t ts, dur, self, self_cpu, idle_own;
	uint32_t frame, depth;
};

struct block {
	int kind;
	int64_t ts, end;
};

struct found {
	int have;
	int64_t ts, dur;
	uint32_t frame;
};

struct bt_startup {
	int64_t tid;
	unsigned char *kind;       /* by frame id: its role and KIND_APP, 0 for neither */
	size_t kcap;
	char **names;              /* by frame id, for the sources */
	size_t nframes;
	struct mslice *v;
	size_t n, cap;
	int full;                  /* STARTUP_MAX_SLICES reached */
	int done;                  /* no more slices are needed (kept_all) */
	struct found ph[PH__COUNT];
	int64_t first_ts;          /* the main thread's first slice */
	int have_first;
	int exact;                 /* the trace's own slices: their bounds are exact */
	int64_t app_depth;         /* callApplicationOnCreate's depth (the app's class below it) */
	int cpu_unknown;           /* a slice did not say its CPU time (its importer knows): running,
				    * the rest and the methods' CPU are unknown, methods rank by wall */
	struct block *blk;         /* the main thread's blocking records (load_blocks) */
	size_t nblk, bcap;
	int64_t interval;          /* how finely its samples in the window place a bound (bound_gap) */
	struct bt_display disp;    /* the main thread's frames and every thread's draws */
	struct bt_frames *frames;  /* their methods, for ui_frames' causes */
	int fd_shown;              /* a frame ended after reportFullyDrawn: the full display's */
};

static inline const char *bt_startup_source_of(const struct bt_startup *st, const struct found *f)
{
	return f->frame < st->nframes && st->names[f->frame] ? st->names[f->frame] : "?";
}

/* Where the start begins and how it is known, and where system_server's
 * launch says it ends (win_end; INT64_MIN: the initial display ends it). */
struct begin {
	const char *kind, *source;
	char launch_source[128];
	int64_t ts, win_end;
};

/* Where the start began (cold, warm or hot) and how it is known
 * (startup_begin.c). */
int bt_startup_begin_of(const struct bt_startup *st, struct bt_db *db, struct begin *b, struct bt_err *err);
/* The app's package (malloc'd, or NULL where nothing names one). */
int bt_startup_package(const struct bt_startup *st, struct bt_db *db, char **out, struct bt_err *err);

/* The main thread's blocking records in [a, b), kept in st
 * (startup_phase.c). */
int bt_startup_load_blocks(struct bt_startup *st, struct bt_db *db, int64_t a, int64_t b, struct bt_err *err);
/* A phase's row, its breakdown, blocking and top methods. */
int bt_startup_store_phase(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t ts,
			   int64_t dur, const char *source, struct bt_err *err);

#endif
