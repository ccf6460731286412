/*
 * The app start (startup.h). A phase is the first activation of its
 * frame on the main thread (the first frame: the first doFrame that
 * begins after the launch); the start is the process's (cold: the main
 * thread's first slice or bindApplication, whichever is earlier) or the
 * launch's (warm) or the resume's (hot); the end is the end of the first
 * frame (time to initial display). A phase's (and the window's)
 * main-thread breakdown and top methods come from the slices inside it,
 * those that straddle an edge counted by their share of it, and its
 * blocked time from the blocking records that overlap it. This file
 * collects the phases and stores the start; startup_phase.c breaks a
 * phase down, startup_begin.c finds where the start began.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/appcode.h"
#include "engine/db/diag.h"
#include "engine/db/rows.h"
#include "engine/startup/startup_int.h"

#define STARTUP_MAX_SLICES 400000   /* the main thread's, kept until the first frame */
#define FULLY_DRAWN_NS 30000000000LL /* reportFullyDrawn at most this long after the first frame */

const char *const bt_startup_phase_name[PH__COUNT] = {
	"bind_application", "content_providers", "application_create", "activity_launch",
	"activity_create", "activity_start", "activity_resume", "first_frame", "fully_drawn",
	"activity_restart", "startup"
};

/* How a frame's name marks a phase: a part of a method's PrettyMethod
 * name (a dump's frames) or an atrace slice name's prefix (a trace's). */
static const struct {
	enum phase ph;
	const char *part;
	int prefix;    /* 1: the name begins with part (atrace), 0: contains it */
} marks[] = {
	{ PH_BIND, " android.app.ActivityThread.handleBindApplication(", 0 },
	{ PH_BIND, "bindApplication", 1 },
	{ PH_PROVIDERS, " android.app.ActivityThread.installContentProviders(", 0 },
	{ PH_APP_CREATE, " android.app.Instrumentation.callApplicationOnCreate(", 0 },
	{ PH_APP_CREATE, " application:didFinishLaunchingWithOptions:]", 0 },   /* iOS */
	{ PH_LAUNCH, " android.app.ActivityThread.performLaunchActivity(", 0 },
	{ PH_LAUNCH, "activityStart", 1 },
	{ PH_ACT_CREATE, " android.app.Instrumentation.callActivityOnCreate(", 0 },
	{ PH_ACT_CREATE, "performCreate:", 1 },
	{ PH_ACT_START, " android.app.Activity.performStart(", 0 },
	{ PH_ACT_START, "performStart", 1 },
	{ PH_RESUME, " android.app.ActivityThread.handleResumeActivity(", 0 },
	{ PH_RESTART, " android.app.ActivityThread.performRestartActivity(", 0 },   /* a hot start's */
	{ PH_RESTART, "activityRestart", 1 },
	{ PH_RESUME, "activityResume", 1 },
	{ PH_FRAME, " android.view.Choreographer.doFrame(", 0 },
	{ PH_FRAME, "Choreographer#doFrame", 1 },
	{ PH_FRAME, "CA::Transaction::commit(", 0 },   /* iOS: the first frame's commit */
	{ PH_DRAWN, " android.app.Activity.reportFullyDrawn(", 0 },
	{ PH_DRAWN, "reportFullyDrawn", 1 },
};

static int role_of(const char *name)
{
	size_t i, len;

	for (i = 0; name && i < sizeof marks / sizeof marks[0]; i++) {
		len = strlen(marks[i].part);
		if (marks[i].prefix ? !strncmp(name, marks[i].part, len) : strstr(name, marks[i].part) != NULL)
			return 1 + (int)marks[i].ph;
	}
	if (name && strstr(name, VSYNC_PART))
		return ROLE_VSYNC;
	if (name && strstr(name, TRAVERSAL_PART))
		return ROLE_TRAVERSAL;
	if (name && strstr(name, CALLBACK_PART))
		return ROLE_CALLBACK;
	return name && !strncmp(name, DRAW_PREFIX, sizeof DRAW_PREFIX - 1) ? ROLE_DRAW : 0;
}

/* Frame id's role and name, if it has one: 1 it marks a phase. */
static int add_frame(struct bt_startup *st, int64_t id, const char *name, size_t *ncap)
{
	int r = role_of(name), app = id > 0 && id < UINT32_MAX && name && bt_frame_is_app(name);

	if (app || (id > 0 && id < UINT32_MAX && r))
		st->kind = bt_grow_zero(st->kind, 1, &st->kcap, (size_t)id);
	if (app)
		st->kind[id] |= KIND_APP;
	if (id <= 0 || id >= UINT32_MAX || !r)
		return 0;
	st->names = bt_grow_zero(st->names, sizeof *st->names, ncap, (size_t)id);
	st->kind[id] = (unsigned char)((st->kind[id] & KIND_APP) | r);
	free(st->names[id]);
	st->names[id] = bt_xstrdup(name);
	if ((size_t)id >= st->nframes)
		st->nframes = (size_t)id + 1;
	return r < ROLE_DRAW;   /* a draw, a vsync or a frame's callback alone marks no start */
}

static struct bt_startup *startup_new(int64_t tid)
{
	struct bt_startup *st = bt_xcalloc(1, sizeof *st);

	st->tid = tid;
	st->app_depth = -1;
	bt_display_init(&st->disp);
	st->frames = bt_frames_new();
	return st;
}

int bt_startup_new(struct bt_startup **out, struct bt_db *db, struct bt_err *err)
{
	struct bt_startup *st;
	struct bt_rows *r = NULL;
	int64_t tid;
	size_t ncap = 0;
	int rc, any = 0;

	*out = NULL;
	if (bt_db_main_tid(db, &tid, err))
		return err->code;
	if (tid < 0)
		return BT_OK;
	st = startup_new(tid);
	if (bt_rows_open(&r, db, BT_SQL_FRAMES_ALL, err)) {
		bt_startup_free(st);
		return err->code;
	}
	while ((rc = bt_rows_next(r, err)) == 1)
		any |= add_frame(st, bt_rows_int(r, 0), bt_rows_text(r, 1, NULL), &ncap);
	bt_rows_close(r);
	if (rc < 0 || !any) {
		bt_startup_free(st);
		return rc < 0 ? err->code : BT_OK;
	}
	*out = st;
	return BT_OK;
}

struct bt_startup *bt_startup_new_frames(int64_t tid, size_t n, const char *(*name)(const void *ctx, size_t id),
					 const void *ctx)
{
	struct bt_startup *st = startup_new(tid);
	size_t id, ncap = 0;
	int any = 0;

	for (id = 1; id <= n; id++)
		any |= add_frame(st, (int64_t)id, name(ctx, id), &ncap);
	if (!any) {
		bt_startup_free(st);
		return NULL;
	}
	return st;
}

void bt_startup_free(struct bt_startup *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nframes; i++)
		free(st->names[i]);
	free(st->names);
	free(st->kind);
	free(st->v);
	free(st->blk);
	bt_display_release(&st->disp);
	bt_frames_free(st->frames);
	free(st);
}

void bt_startup_exact(struct bt_startup *st, int exact)
{
	st->exact = exact != 0;
}

int64_t bt_startup_tid(const struct bt_startup *st)
{
	return st->tid;
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

static int kind(const struct bt_startup *st, int64_t frame)
{
	return frame > 0 && (size_t)frame < st->kcap ? st->kind[frame] : 0;
}

/* The launch's begin, for the first frame after it: the launch, else
 * the resume (a hot start), else an iOS app's didFinishLaunching, else
 * none (-1). */
static int64_t launch_ts(const struct bt_startup *st)
{
	if (st->ph[PH_LAUNCH].have)
		return st->ph[PH_LAUNCH].ts;
	if (st->ph[PH_RESTART].have)
		return st->ph[PH_RESTART].ts;
	if (st->ph[PH_RESUME].have)
		return st->ph[PH_RESUME].ts;
	return st->ph[PH_APP_CREATE].have && !st->ph[PH_BIND].have ? st->ph[PH_APP_CREATE].ts : -1;
}

static void note(struct bt_startup *st, const struct bt_slice *s, int ph)
{
	struct found *f = &st->ph[ph];

	if (ph == PH_FRAME && (launch_ts(st) < 0 || s->ts < launch_ts(st)))
		return;   /* a frame before the launch (an earlier activity's) */
	if (f->have && f->ts <= s->ts)
		return;
	f->have = 1;
	f->ts = s->ts;
	f->dur = s->dur;
	f->frame = (uint32_t)s->frame_id;
	if (ph == PH_APP_CREATE)
		st->app_depth = s->depth;
}

/* Whether the slices kept so far hold every phase: those up to the first
 * frame, then those up to the frame that shows the full display (the
 * first to end after reportFullyDrawn), which an app reports within
 * FULLY_DRAWN_NS of its first frame or not at all. */
static int kept_all(struct bt_startup *st, const struct bt_slice *s)
{
	const struct found *f = &st->ph[PH_FRAME];

	if (!st->done && f->have && (st->fd_shown || s->ts > f->ts + f->dur + FULLY_DRAWN_NS))
		st->done = 1;
	return st->done;
}

static struct bt_dframe dframe(const struct bt_startup *st, const struct bt_slice *s)
{
	struct bt_dframe d;

	d.ts = s->ts;
	d.dur = s->dur;
	d.frame = (uint32_t)s->frame_id;
	d.vsync = bt_display_vsync(st->names[s->frame_id]);
	return d;
}

/* A main-thread slice of frame kind k, but the common one after the
 * start (bt_startup_add): apart, so that one's path saves no registers. */
static NOINLINE void main_slice(struct bt_startup *st, const struct bt_slice *s, int k)
{
	int ph = k & KIND_ROLE;
	struct bt_dframe d;
	struct mslice *m;

	bt_frames_slice(st->frames, s,
			ph == 1 + PH_FRAME ? BT_FRAMES_UI : ph == ROLE_VSYNC ? BT_FRAMES_VSYNC
			: ph == ROLE_TRAVERSAL ? BT_FRAMES_TRAVERSAL : ph == ROLE_CALLBACK ? BT_FRAMES_CALLBACK : 0,
			k & KIND_APP);
	if (ph >= ROLE_DRAW)
		ph = 0;
	if (ph)
		note(st, s, ph - 1);
	if (ph == 1 + PH_FRAME) {
		d = dframe(st, s);
		bt_display_add_ui(&st->disp, &d);
		if (st->ph[PH_DRAWN].have && s->ts + s->dur > st->ph[PH_DRAWN].ts)
			st->fd_shown = 1;
	}
	if (kept_all(st, s))
		return;
	if (st->n == STARTUP_MAX_SLICES) {
		st->full = 1;
		return;
	}
	BT_GROW(st->v, st->n + 1, st->cap);
	m = &st->v[st->n++];
	st->cpu_unknown |= s->cpu_unknown != 0;
	m->ts = s->ts;
	m->dur = s->dur;
	m->self = s->self_dur;
	m->self_cpu = s->self_cpu_dur;
	m->idle_own = bt_slice_idle_part(s);
	m->frame = (uint32_t)s->frame_id;
	m->depth = s->depth < 0 ? 0 : (uint32_t)s->depth;
}

/* Most of a trace's main-thread slices come after the start, have no
 * role and are not the app's: their path is short. */
void bt_startup_add(struct bt_startup *st, const struct bt_slice *s)
{
	int k = kind(st, s->frame_id);

	if (s->tid != st->tid) {   /* another thread's: only a draw counts */
		if ((k & KIND_ROLE) == ROLE_DRAW) {
			struct bt_dframe d = dframe(st, s);
			bt_display_add_draw(&st->disp, &d);
		}
		return;
	}
	if (!st->have_first || s->ts < st->first_ts)
		st->first_ts = s->ts, st->have_first = 1;
	if (!k && st->done) {   /* nothing more for the start, no role: the frames' alone */
		bt_frames_slice(st->frames, s, 0, 0);
		return;
	}
	main_slice(st, s, k);
}

/* The phases; the activity's onStart where atrace marks none, the first
 * frame until its draw ended, the full display from the initial one to
 * the frame that showed it. */
static int store_phases(const struct bt_startup *st, struct bt_db *db, const struct bt_display_hit *first,
			const struct bt_display_hit *full, struct bt_err *err)
{
	const struct found *ph = st->ph;
	int64_t end = first ? first->end : 0;
	int k, rc = BT_OK;

	for (k = 0; k < PH_RESTART && !rc; k++) {   /* a restart only begins a hot start */
		struct found f = ph[k];
		const char *how = bt_startup_source_of(st, &f);
		int64_t fd_end = full ? full->end : f.ts;
		if (k == PH_ACT_START && !f.have && ph[PH_LAUNCH].have && ph[PH_RESUME].have &&
		    ph[PH_RESUME].ts > ph[PH_LAUNCH].ts + ph[PH_LAUNCH].dur) {
			/* atrace marks no onStart: it runs between the launch and the resume */
			f = ph[PH_LAUNCH];
			f.ts = ph[PH_LAUNCH].ts + ph[PH_LAUNCH].dur;
			f.dur = ph[PH_RESUME].ts - f.ts;
			how = "between the launch and the resume";
		} else if (k == PH_FRAME && f.have && first) {
			f.dur = first->end - f.ts;
		} else if (k == PH_DRAWN && f.have && first && fd_end >= end && (full || f.ts >= end)) {
			f.dur = fd_end - end;
			f.ts = end;
		}
		if (f.have)
			rc = bt_startup_store_phase(st, db, bt_startup_phase_name[k], f.ts, f.dur, how, err);
	}
	return rc;
}

void bt_startup_message(struct bt_startup *st, int64_t tid, int64_t msg_id, int64_t ts, int64_t end)
{
	if (tid == st->tid)
		bt_frames_message(st->frames, msg_id, ts, end);
}

static int store_start(struct bt_startup *st, struct bt_db *db, struct bt_diag *diag, struct bt_err *err);

/* iOS marks its first frame by a CA::Transaction commit, which is no
 * vsync's frame: no display frames from it. */
static int ios_frames(const struct bt_startup *st)
{
	return st->disp.nui && st->disp.ui[0].frame < st->nframes && st->names[st->disp.ui[0].frame] &&
	       strstr(st->names[st->disp.ui[0].frame], "CA::Transaction::commit(");
}

int bt_startup_store(struct bt_startup *st, struct bt_db *db, struct bt_diag *diag, struct bt_err *err)
{
	int rc = ios_frames(st) ? BT_OK : bt_frames_store(st->frames, &st->disp, st->tid, db, err);

	return rc ? rc : store_start(st, db, diag, err);
}

static int store_start(struct bt_startup *st, struct bt_db *db, struct bt_diag *diag, struct bt_err *err)
{
	const struct found *ph = st->ph;
	struct bt_display_hit first, full;
	struct begin b;
	int64_t ttfd = 0, win_end;
	char *package = NULL;
	int rc, have_end = ph[PH_FRAME].have, have_full = 0;

	if (!ph[PH_BIND].have && !ph[PH_LAUNCH].have && !ph[PH_RESUME].have && !ph[PH_RESTART].have &&
	    !ph[PH_APP_CREATE].have)
		return BT_OK;   /* no start in the trace */
	if ((rc = bt_startup_begin_of(st, db, &b, err)) != BT_OK)
		return rc;
	if (have_end) {   /* the initial display: the first frame's draw, else its end */
		struct bt_dframe ui = { ph[PH_FRAME].ts, ph[PH_FRAME].dur, -1, ph[PH_FRAME].frame };
		ui.vsync = bt_display_vsync(bt_startup_source_of(st, &ph[PH_FRAME]));
		bt_display_of(&st->disp, &ui, &first);
	} else
		bt_diag_warn(diag, "startup_no_first_frame", "a %s start at %lld with no frame after %s%s",
			     b.kind, (long long)b.ts, ph[PH_LAUNCH].have ? "its launch" : "its resume",
			     st->full ? " among the main thread's first slices" : "");
	if (ph[PH_BIND].have && !ph[PH_LAUNCH].have)
		bt_diag_warn(diag, "startup_no_launch", "bindApplication at %lld and no activity launch",
			     (long long)ph[PH_BIND].ts);
	if (ph[PH_DRAWN].have) {   /* the full display: the draw of the first frame to end after the report */
		have_full = bt_display_after(&st->disp, ph[PH_DRAWN].ts, &full) && full.drawn;
		ttfd = (have_full ? full.end : ph[PH_DRAWN].ts) - b.ts;
	}
	win_end = !have_end ? INT64_MAX : b.win_end != INT64_MIN ? b.win_end : first.end;
	if ((rc = bt_startup_load_blocks(st, db, b.ts, win_end, err)) != BT_OK)
		return rc;
	if ((rc = bt_startup_package(st, db, &package, err)) != BT_OK)
		return rc;
	rc = bt_db_exec(db, BT_SQL_INSERT_STARTUP, err, "tit" "imm" "m" "tt" "m", b.kind, st->tid, package, b.ts,
			have_end ? first.end : INT64_MIN, have_end ? first.end - b.ts : INT64_MIN,
			ph[PH_DRAWN].have ? ttfd : INT64_MIN, b.source,
			!have_end ? NULL : first.drawn ? st->names[first.draw.frame] : bt_startup_source_of(st, &ph[PH_FRAME]),
			st->interval >= 0 ? st->interval : INT64_MIN);
	free(package);
	if (!rc)
		rc = store_phases(st, db, have_end ? &first : NULL, have_full ? &full : NULL, err);
	if (!rc && have_end)
		rc = bt_startup_store_phase(st, db, bt_startup_phase_name[PH_STARTUP], b.ts,
				 (b.win_end != INT64_MIN ? b.win_end : first.end) - b.ts, b.source, err);
	if (!rc)   /* the main thread's scheduler states in each phase, where the trace has them */
		rc = bt_db_exec(db, BT_SQL_UPDATE_STARTUP_OFFCPU, err, "i", st->tid);
	return rc;
}

/* The other threads' draws of the frames, from the stored slices. */
static int add_draws(struct bt_startup *st, struct bt_db *db, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	struct bt_slice s;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_STARTUP_DRAW_SLICES, err))
		return -1;
	bt_rows_bind_int(r, 1, st->tid);
	while ((rc = bt_rows_next(r, err)) == 1) {
		memset(&s, 0, sizeof s);
		s.tid = bt_rows_int(r, 0);
		s.frame_id = bt_rows_int(r, 1);
		s.ts = bt_rows_int(r, 2);
		s.dur = bt_rows_int(r, 3);
		bt_startup_add(st, &s);
	}
	bt_rows_close(r);
	return rc;
}

/* The main thread's stored messages, for what a late frame waited behind. */
static int add_messages(struct bt_startup *st, struct bt_db *db, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_MESSAGES, err))
		return -1;
	bt_rows_bind_int(r, 1, st->tid);
	while ((rc = bt_rows_next(r, err)) == 1)
		bt_startup_message(st, st->tid, bt_rows_int(r, 0), bt_rows_int(r, 1), bt_rows_int(r, 2));
	bt_rows_close(r);
	return rc;
}

int bt_startup_from_slices(struct bt_db *db, struct bt_diag *diag, struct bt_err *err)
{
	struct bt_startup *st = NULL;
	struct bt_rows *r = NULL;
	struct bt_slice s, *open = NULL;   /* preorder in; ended ones out, children first */
	size_t n = 0, cap = 0;
	int rc;

	if (bt_startup_new(&st, db, err) || !st)
		return err->code;
	st->exact = 1;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_MAIN_SLICES, err)) {
		bt_startup_free(st);
		return err->code;
	}
	bt_rows_bind_int(r, 1, st->tid);
	while ((rc = bt_rows_next(r, err)) == 1) {
		memset(&s, 0, sizeof s);
		s.tid = st->tid;
		s.depth = bt_rows_int(r, 0);
		s.frame_id = bt_rows_int(r, 1);
		s.ts = bt_rows_int(r, 2);
		s.dur = bt_rows_int(r, 3);
		s.cpu_dur = bt_rows_int(r, 4);
		s.cpu_unknown = bt_rows_type(r, 4) == BT_ROWS_NULL;
		s.self_dur = bt_rows_int(r, 5);
		s.self_cpu_dur = bt_rows_int(r, 6);
		s.block_dur = bt_rows_int(r, 7);
		s.idle = bt_rows_int(r, 8);
		s.type = bt_rows_type(r, 9) == BT_ROWS_NULL ? -1 : bt_rows_int(r, 9);
		while (n && open[n - 1].depth >= s.depth)   /* those it comes after have ended */
			bt_startup_add(st, &open[--n]);
		BT_GROW(open, n + 1, cap);
		open[n++] = s;
	}
	bt_rows_close(r);
	while (n)
		bt_startup_add(st, &open[--n]);
	free(open);
	if (rc >= 0)
		rc = add_draws(st, db, err);
	if (rc >= 0)
		rc = add_messages(st, db, err);
	rc = rc < 0 ? err->code : bt_startup_store(st, db, diag, err);
	bt_startup_free(st);
	return rc;
}
