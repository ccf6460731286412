/*
 * The app start (startup.h). A phase is the first activation of its
 * frame on the main thread (the first frame: the first doFrame that
 * begins after the launch); the start is the process's (cold: the main
 * thread's first slice or bindApplication, whichever is earlier) or the
 * launch's (warm) or the resume's (hot); the end is the end of the first
 * frame (time to initial display). A phase's (and the window's)
 * main-thread breakdown and top methods come from the slices inside it,
 * those that straddle an edge counted by their share of it, and its
 * blocked time from the blocking records that overlap it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/appcode.h"
#include "engine/db/diag.h"
#include "engine/profile/profile.h"
#include "engine/db/rows.h"
#include "engine/startup/display.h"
#include "engine/startup/frames.h"
#include "engine/startup/startup.h"

#define STARTUP_MAX_SLICES 400000   /* the main thread's, kept until the first frame */
#define MAX_NEST 512                 /* deeper slices are not checked for recursion */
#define TOP_METHODS 10               /* per phase; the whole window keeps every method (the gate's) */
#define FULLY_DRAWN_NS 30000000000LL /* reportFullyDrawn at most this long after the first frame */
#define LAUNCH_LEAD_NS 10000000000LL /* a launching: slice this far before the app's first phase */

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

static const char *const phase_name[PH__COUNT] = {
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
	unsigned char *role;       /* by frame id: 1 + enum phase, 0 for none */
	unsigned char *app;        /* by frame id: 1 the app's method (engine/db/appcode.h) */
	size_t acap;
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
	return name && !strncmp(name, DRAW_PREFIX, sizeof DRAW_PREFIX - 1) ? ROLE_DRAW : 0;
}

/* Frame id's role and name, if it has one: 1 it marks a phase. */
static int add_frame(struct bt_startup *st, int64_t id, const char *name, size_t *cap, size_t *ncap)
{
	int r = role_of(name);

	if (id > 0 && id < UINT32_MAX && name && bt_frame_is_app(name)) {
		st->app = bt_grow_zero(st->app, 1, &st->acap, (size_t)id);
		st->app[id] = 1;
	}
	if (id <= 0 || id >= UINT32_MAX || !r)
		return 0;
	st->role = bt_grow_zero(st->role, 1, cap, (size_t)id);
	st->names = bt_grow_zero(st->names, sizeof *st->names, ncap, (size_t)id);
	st->role[id] = (unsigned char)r;
	free(st->names[id]);
	st->names[id] = bt_xstrdup(name);
	if ((size_t)id >= st->nframes)
		st->nframes = (size_t)id + 1;
	return r != ROLE_DRAW && r != ROLE_VSYNC;   /* a draw or a vsync alone marks no start */
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
	size_t cap = 0, ncap = 0;
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
		any |= add_frame(st, bt_rows_int(r, 0), bt_rows_text(r, 1, NULL), &cap, &ncap);
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
	size_t id, cap = 0, ncap = 0;
	int any = 0;

	for (id = 1; id <= n; id++)
		any |= add_frame(st, (int64_t)id, name(ctx, id), &cap, &ncap);
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
	free(st->role);
	free(st->app);
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

static int role(const struct bt_startup *st, int64_t frame)
{
	return frame > 0 && (size_t)frame < st->nframes ? st->role[frame] : 0;
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

void bt_startup_add(struct bt_startup *st, const struct bt_slice *s)
{
	int ph = role(st, s->frame_id);
	struct bt_dframe d;
	struct mslice *m;

	if (s->tid != st->tid) {   /* another thread's: only a draw counts */
		if (ph == ROLE_DRAW)
			d = dframe(st, s), bt_display_add_draw(&st->disp, &d);
		return;
	}
	if (!st->have_first || s->ts < st->first_ts)
		st->first_ts = s->ts, st->have_first = 1;
	bt_frames_slice(st->frames, s, ph == 1 + PH_FRAME ? BT_FRAMES_UI : ph == ROLE_VSYNC ? BT_FRAMES_VSYNC : 0,
			s->frame_id > 0 && (size_t)s->frame_id < st->acap && st->app[s->frame_id]);
	if (ph == ROLE_DRAW || ph == ROLE_VSYNC)
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

/* The share of [a, b) that slice m covers, in [0, 1]. */
static double share(const struct mslice *m, int64_t a, int64_t b)
{
	int64_t lo = m->ts > a ? m->ts : a, hi = m->ts + m->dur < b ? m->ts + m->dur : b;

	if (hi <= lo)
		return m->dur == 0 && m->ts >= a && m->ts < b;
	return m->dur > 0 ? (double)(hi - lo) / (double)m->dur : 1.0;
}

/* What the main thread did in [a, b): running and idle from the slices,
 * those that straddle an edge by their share, blocked as its blocking
 * records overlap it (store_blocking); running, then blocked, then idle
 * take precedence, so the four add up to b - a. */
struct parts {
	int64_t cpu, blocked, idle, rest;
};

static struct parts split(const struct bt_startup *st, int64_t a, int64_t b, int64_t blocked, int64_t running)
{
	double cpu = 0, idle = 0;
	struct parts p;
	int64_t wall = b - a, left;
	size_t i;

	for (i = 0; i < st->n; i++) {
		double f = share(&st->v[i], a, b);
		if (f <= 0)
			continue;
		cpu += f * (double)st->v[i].self_cpu;
		idle += f * (double)st->v[i].idle_own;
	}
	if (running >= 0)   /* the scheduler's, exact */
		cpu = (double)running;
	p.cpu = (int64_t)cpu < wall ? (int64_t)cpu : wall;
	p.cpu = p.cpu < 0 ? 0 : p.cpu;
	left = wall - p.cpu;
	p.blocked = blocked < left ? blocked : left;
	p.blocked = p.blocked < 0 ? 0 : p.blocked;
	left -= p.blocked;
	p.idle = (int64_t)idle < left ? (int64_t)idle : left;
	p.idle = p.idle < 0 ? 0 : p.idle;
	p.rest = left - p.idle;
	return p;
}

struct mtotal {
	uint32_t frame;
	double self_cpu, self, incl;
};

static int by_cpu(const void *x, const void *y)
{
	const struct mtotal *a = x, *b = y;

	if (a->self_cpu != b->self_cpu)
		return a->self_cpu < b->self_cpu ? 1 : -1;
	return (a->frame > b->frame) - (a->frame < b->frame);
}

/* CPU time unknown: by self wall time. */
static int by_self(const void *x, const void *y)
{
	const struct mtotal *a = x, *b = y;

	if (a->self != b->self)
		return a->self < b->self ? 1 : -1;
	return (a->frame > b->frame) - (a->frame < b->frame);
}

/* The entry of frame in t (index: frame -> position + 1), made if new. */
static struct mtotal *total_of(struct bt_map64 *index, struct mtotal **t, size_t *n, size_t *cap,
			       uint32_t frame)
{
	uint32_t k = bt_map64_get(index, frame);

	if (!k) {
		BT_GROW(*t, *n + 1, *cap);
		memset(&(*t)[*n], 0, sizeof (*t)[*n]);
		(*t)[*n].frame = frame;
		bt_map64_put(index, frame, k = (uint32_t)++*n);
	}
	return &(*t)[k - 1];
}

static int by_ts_depth(const void *x, const void *y)
{
	const struct mslice *a = *(const struct mslice *const *)x, *b = *(const struct mslice *const *)y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (a->depth > b->depth) - (a->depth < b->depth);
}

/* Each frame's inclusive wall time in [a, b): its slices' overlap with it,
 * a recursive call's counted once (inside an open slice of its frame). */
static void add_inclusive(const struct bt_startup *st, int64_t a, int64_t b, struct bt_map64 *index,
			  struct mtotal **t, size_t *n, size_t *cap)
{
	const struct mslice *open[MAX_NEST];
	const struct mslice **idx = bt_xcalloc(st->n + 1, sizeof *idx);
	size_t i, m = 0, d;

	for (i = 0; i < st->n; i++)
		if (share(&st->v[i], a, b) > 0)
			idx[m++] = &st->v[i];
	qsort(idx, m, sizeof *idx, by_ts_depth);
	memset(open, 0, sizeof open);
	for (i = 0; i < m; i++) {
		const struct mslice *s = idx[i];
		int nested = 0;
		for (d = 0; d < s->depth && d < MAX_NEST && !nested; d++)
			nested = open[d] && open[d]->frame == s->frame && open[d]->ts + open[d]->dur > s->ts;
		if (s->depth < MAX_NEST)
			open[s->depth] = s;
		if (!nested)
			total_of(index, t, n, cap, s->frame)->incl += share(s, a, b) * (double)s->dur;
	}
	free(idx);
}

/* The top methods by self CPU time in [a, b) (by self wall time, their
 * CPU NULL, when the trace does not give it): all of them (those with
 * any own time, running or not, or only callees' time) for the whole
 * window, with their inclusive time, which compare gates method by
 * method. */
static int store_methods(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t a,
			 int64_t b, struct bt_err *err)
{
	struct bt_map64 index;
	struct mtotal *t = NULL;
	size_t n = 0, cap = 0, i;
	int rc = BT_OK, all = !strcmp(phase, phase_name[PH_STARTUP]);

	bt_map64_init(&index, 256);
	for (i = 0; i < st->n; i++) {
		double f = share(&st->v[i], a, b);
		struct mtotal *e;
		if (f <= 0 || ((st->cpu_unknown || st->v[i].self_cpu <= 0) &&
				(!(all || st->cpu_unknown) || st->v[i].self <= st->v[i].idle_own)))
			continue;
		e = total_of(&index, &t, &n, &cap, st->v[i].frame);
		e->self_cpu += f * (double)st->v[i].self_cpu;
		e->self += f * (double)(st->v[i].self - st->v[i].idle_own);
	}
	if (all)
		add_inclusive(st, a, b, &index, &t, &n, &cap);
	if (n)
		qsort(t, n, sizeof *t, st->cpu_unknown ? by_self : by_cpu);
	for (i = 0; i < n && (all || i < TOP_METHODS) && !rc; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_STARTUP_METHOD, err, "tiimim", phase, (int64_t)i + 1,
				(int64_t)t[i].frame, st->cpu_unknown ? INT64_MIN : (int64_t)t[i].self_cpu,
				(int64_t)t[i].self, all ? (int64_t)t[i].incl : INT64_MIN);
	free(t);
	bt_map64_release(&index);
	return rc;
}

static int by_ts(const void *x, const void *y)
{
	const struct block *a = x, *b = y;

	return (a->ts > b->ts) - (a->ts < b->ts);
}

static int by_len(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* How finely the samples place a method's bounds: the gap from one sample
 * (a duration record: its end) to the next that holds half of the time
 * between samples in gaps no longer than it (the median gap seen from a
 * random instant, where a bound falls). A bound is somewhere in its gap,
 * and a slowdown elsewhere moves where the samples land: a method's time
 * moves by a gap's worth with them (issue 36). -1 under MIN_GAPS gaps. */
#define MIN_GAPS 8
static int64_t bound_gap(struct block *s, size_t n)
{
	int64_t *gap, m = -1, total = 0, acc = 0;
	size_t i, k = 0;

	if (n <= MIN_GAPS)
		return -1;
	qsort(s, n, sizeof *s, by_ts);
	gap = bt_xmalloc(n * sizeof *gap);
	for (i = 1; i < n; i++)
		if (s[i].ts > s[i - 1].end) {
			gap[k] = s[i].ts - s[i - 1].end;
			total = bt_sat_add(total, gap[k++]);
		}
	if (k >= MIN_GAPS) {
		qsort(gap, k, sizeof *gap, by_len);
		for (i = 0; i < k && m < 0; i++) {
			acc = bt_sat_add(acc, gap[i]);
			if (acc >= total - acc)
				m = gap[i];
		}
	}
	free(gap);
	return m;
}

/* The main thread's blocking records (its duration records where the
 * trace has samples, else its waits), read once for every phase, and the
 * spacing of its samples in the window [a, b). */
static int load_blocks(struct bt_startup *st, struct bt_db *db, int64_t a, int64_t b, struct bt_err *err)
{
	struct block *smp = NULL;
	size_t ns = 0, scap = 0;
	int from_samples;

	st->interval = -1;
	for (from_samples = 1; from_samples >= 0 && !st->nblk; from_samples--) {
		struct bt_rows *r = NULL;
		int rc;
		if (bt_rows_open(&r, db, from_samples ? BT_SQL_STARTUP_BLOCKS_SAMPLES : BT_SQL_STARTUP_BLOCKS_EDGES,
				 err)) {
			free(smp);
			return err->code;
		}
		bt_rows_bind_int(r, 1, st->tid);
		if (from_samples) {
			bt_rows_bind_int(r, 2, a);
			bt_rows_bind_int(r, 3, b);
		}
		while ((rc = bt_rows_next(r, err)) == 1) {
			int k = from_samples ? bt_block_kind_of(bt_rows_int(r, 0)) : bt_block_kind_named(bt_rows_text(r, 0, NULL));
			if (from_samples && !st->exact && bt_rows_int(r, 1) >= a && bt_rows_int(r, 1) < b) {
				BT_GROW(smp, ns + 1, scap);
				smp[ns].ts = bt_rows_int(r, 1);
				smp[ns].end = bt_rows_type(r, 2) == BT_ROWS_NULL ? smp[ns].ts : bt_rows_int(r, 2);
				ns++;
			}
			if (k < 0)
				continue;
			BT_GROW(st->blk, st->nblk + 1, st->bcap);
			st->blk[st->nblk].kind = k;
			st->blk[st->nblk].ts = bt_rows_int(r, 1);
			st->blk[st->nblk++].end = bt_rows_int(r, 2);
		}
		bt_rows_close(r);
		if (rc < 0) {
			free(smp);
			return err->code;
		}
	}
	st->interval = bound_gap(smp, ns);
	free(smp);
	return BT_OK;
}

/* Blocked time by kind in [a, b): the records' overlap with it. */
static int store_blocking(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t a,
			  int64_t b, int64_t *total, struct bt_err *err)
{
	int64_t count[BT_BLOCK__COUNT] = { 0 }, dur[BT_BLOCK__COUNT] = { 0 };
	size_t i;
	int k;

	for (i = 0; i < st->nblk; i++) {
		const struct block *x = &st->blk[i];
		int64_t lo = x->ts > a ? x->ts : a, hi = x->end < b ? x->end : b;
		if (hi <= lo)
			continue;
		count[x->kind]++;
		dur[x->kind] = bt_sat_add(dur[x->kind], hi - lo);
	}
	*total = 0;
	for (k = 0; k < BT_BLOCK__COUNT; k++) {
		*total = bt_sat_add(*total, dur[k]);
		if (count[k] && bt_db_exec(db, BT_SQL_INSERT_STARTUP_BLOCKING, err, "ttii", phase,
					   bt_block_kind_name[k], count[k], dur[k]))
			return err->code;
	}
	return BT_OK;
}

/* The main thread's running time in [a, b) as the scheduler's states give
 * it, where they cover the interval; else -1 (slices' CPU time share it). */
static int sched_running(const struct bt_startup *st, struct bt_db *db, int64_t a, int64_t b, int64_t *out,
			 struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	*out = -1;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_RUNNING, err))
		return err->code;
	bt_rows_bind_int(r, 1, st->tid);
	bt_rows_bind_int(r, 2, a);
	bt_rows_bind_int(r, 3, b);
	if ((rc = bt_rows_next(r, err)) == 1 && bt_rows_type(r, 0) != BT_ROWS_NULL)
		*out = bt_rows_int(r, 0);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int store_phase(const struct bt_startup *st, struct bt_db *db, const char *phase, int64_t ts,
		       int64_t dur, const char *source, struct bt_err *err)
{
	struct parts p;
	int64_t blocked = 0, running;

	if (store_blocking(st, db, phase, ts, ts + dur, &blocked, err) ||
	    sched_running(st, db, ts, ts + dur, &running, err))
		return err->code;
	p = split(st, ts, ts + dur, blocked, running);
	if (st->cpu_unknown && running < 0)   /* a trace without CPU time: running and the rest are unknown */
		p.cpu = p.rest = INT64_MIN;
	if (bt_db_exec(db, BT_SQL_INSERT_STARTUP_PHASE, err, "tiitimmmm", phase, ts, dur, source,
		       (int64_t)st->exact, p.cpu, p.blocked, p.idle, p.rest) ||
	    store_methods(st, db, phase, ts, ts + dur, err))
		return err->code;
	return BT_OK;
}

/* The app's package: that of the class whose onCreate
 * callApplicationOnCreate called ("void com.foo.App.onCreate()" gives
 * com.foo), else NULL. */
static char *app_package(const struct bt_startup *st, struct bt_db *db)
{
	const struct found *f = &st->ph[PH_APP_CREATE];
	const struct mslice *best = NULL;
	const char *name, *sp, *end;
	char **names = NULL;
	size_t i, n = 0;
	char *out = NULL;
	struct bt_err err = BT_ERR_INIT;

	for (i = 0; f->have && i < st->n; i++) {
		const struct mslice *m = &st->v[i];
		if ((int64_t)m->depth == st->app_depth + 1 && m->ts >= f->ts && m->ts < f->ts + f->dur &&
		    (!best || m->ts < best->ts))
			best = m;
	}
	if (!best || bt_frame_names_load(db, &names, &n, &err) || best->frame >= n || !(name = names[best->frame]))
		goto done;
	sp = strchr(name, ' ');
	name = sp && sp < strchr(name, '(') ? sp + 1 : name;
	if (!(end = strchr(name, '(')))
		goto done;
	while (end > name && end[-1] != '.')   /* the method */
		end--;
	if (end > name)
		end--;
	while (end > name && end[-1] != '.')   /* the class */
		end--;
	if (end > name + 1)
		out = bt_xstrndup(name, (size_t)(end - 1 - name));
done:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return out;
}

#define COMM_MAX 15   /* a thread name's characters the kernel keeps */

/* A dump's main thread of COMM_MAX characters may be named after the end
 * of a longer process name (ART keeps the last 15 characters of a dotted
 * one: "om.example.feed"): the class path of the first method that holds
 * it and a dot says where the package begins ("com.example.feed"). name
 * itself when no method holds it. */
static int uncut_package(struct bt_db *db, const char *name, char **out, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	const char *f, *at, *start;
	size_t n = strlen(name);
	int rc;

	*out = NULL;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_PACKAGE_CUT, err))
		return err->code;
	bt_rows_bind_text(r, 1, name, n);
	if ((rc = bt_rows_next(r, err)) == 1 && (f = bt_rows_text(r, 0, NULL)) != NULL &&
	    (at = strstr(f, name)) != NULL) {
		for (start = at; start > f && !strchr(" (,<", start[-1]); start--)
			;
		*out = bt_xstrndup(start, (size_t)(at - start) + n);
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	if (!*out)
		*out = bt_xstrdup(name);
	return BT_OK;
}

/* Without the Application class: the process's name (a trace's), else
 * the main thread's (a dump's main thread is named after its process,
 * uncut where it was cut), when it can be a package: one has a dot
 * (Android requires two segments), where the Java name of every app's
 * main thread, "main", which an ART trace gives, has none. */
static int fallback_package(const struct bt_startup *st, struct bt_db *db, char **out, struct bt_err *err)
{
	char name[256];
	struct bt_rows *r = NULL;
	const char *t;
	char *cut = NULL;
	int rc;

	*out = NULL;
	if (bt_db_meta_text(db, "process_name", name, sizeof name, err))
		return err->code;
	if (name[0]) {
		*out = bt_xstrdup(name);
		return BT_OK;
	}
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_THREAD_NAME, err))
		return err->code;
	bt_rows_bind_int(r, 1, st->tid);
	if ((rc = bt_rows_next(r, err)) == 1 && (t = bt_rows_text(r, 0, NULL)) != NULL && strchr(t, '.')) {
		if (strlen(t) == COMM_MAX)
			cut = bt_xstrdup(t);
		else
			*out = bt_xstrdup(t);
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	rc = cut ? uncut_package(db, cut, out, err) : BT_OK;
	free(cut);
	return rc;
}

static const char *source_of(const struct bt_startup *st, const struct found *f)
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

/* The launch an importer chose (meta), else the one the trace's stored
 * async slices had in flight when the activity started at ts. */
static int launch_of(struct bt_db *db, int64_t ts, int64_t *launch, int64_t *end, char *src, size_t n,
		     struct bt_err *err)
{
	struct bt_rows *r = NULL;
	const char *name;
	int rc;

	if (bt_db_meta_int(db, "launch_ts", INT64_MIN, launch, err) ||
	    bt_db_meta_int(db, "launch_end_ts", INT64_MIN, end, err) ||
	    bt_db_meta_text(db, "launch_source", src, n, err))
		return err->code;
	if (*launch != INT64_MIN)
		return BT_OK;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_LAUNCH_TRACK, err))
		return err->code;
	bt_rows_bind_int(r, 1, ts);
	if ((rc = bt_rows_next(r, err)) == 1 && (name = bt_rows_text(r, 0, NULL)) != NULL) {
		snprintf(src, n, "%s", name);
		*launch = bt_rows_int(r, 1);
		*end = *launch + bt_rows_int(r, 2);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int begin_of(const struct bt_startup *st, struct bt_db *db, struct begin *b, struct bt_err *err)
{
	const struct found *ph = st->ph;
	int64_t launch, launch_end;

	b->win_end = INT64_MIN;
	if (ph[PH_BIND].have || (!ph[PH_LAUNCH].have && !ph[PH_RESUME].have && !ph[PH_RESTART].have)) {
		const struct found *f = ph[PH_BIND].have ? &ph[PH_BIND] : &ph[PH_APP_CREATE];
		b->kind = "cold";   /* bindApplication, or an iOS app's didFinishLaunching */
		b->ts = st->first_ts < f->ts ? st->first_ts : f->ts;
		b->source = st->first_ts < f->ts ? "first main-thread record" : source_of(st, f);
		return BT_OK;
	}
	b->kind = ph[PH_LAUNCH].have ? "warm" : "hot";
	b->ts = ph[PH_LAUNCH].have ? ph[PH_LAUNCH].ts : ph[PH_RESTART].have ? ph[PH_RESTART].ts : ph[PH_RESUME].ts;
	b->source = source_of(st, ph[PH_LAUNCH].have ? &ph[PH_LAUNCH] : ph[PH_RESTART].have ? &ph[PH_RESTART] :
			      &ph[PH_RESUME]);
	/* a system trace's launch (system_server's launchingActivity#N or
	 * launching: slice, in meta) begins the start where the user does: at
	 * the intent, before the app ran; it ends when the system saw the
	 * activity drawn (Perfetto's android_startups) */
	if (launch_of(db, b->ts, &launch, &launch_end, b->launch_source, sizeof b->launch_source, err))
		return err->code;
	if (launch != INT64_MIN && launch <= b->ts && b->ts - launch < LAUNCH_LEAD_NS) {
		b->ts = launch;
		b->source = b->launch_source[0] ? b->launch_source : "launching";
		b->win_end = launch_end > launch ? launch_end : INT64_MIN;
	}
	return BT_OK;
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
		const char *how = source_of(st, &f);
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
			rc = store_phase(st, db, phase_name[k], f.ts, f.dur, how, err);
	}
	return rc;
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
	if ((rc = begin_of(st, db, &b, err)) != BT_OK)
		return rc;
	if (have_end) {   /* the initial display: the first frame's draw, else its end */
		struct bt_dframe ui = { ph[PH_FRAME].ts, ph[PH_FRAME].dur, -1, ph[PH_FRAME].frame };
		ui.vsync = bt_display_vsync(source_of(st, &ph[PH_FRAME]));
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
	if ((rc = load_blocks(st, db, b.ts, win_end, err)) != BT_OK)
		return rc;
	if (!(package = app_package(st, db)) && (rc = fallback_package(st, db, &package, err)) != BT_OK)
		return rc;
	rc = bt_db_exec(db, BT_SQL_INSERT_STARTUP, err, "tit" "imm" "m" "tt" "m", b.kind, st->tid, package, b.ts,
			have_end ? first.end : INT64_MIN, have_end ? first.end - b.ts : INT64_MIN,
			ph[PH_DRAWN].have ? ttfd : INT64_MIN, b.source,
			!have_end ? NULL : first.drawn ? st->names[first.draw.frame] : source_of(st, &ph[PH_FRAME]),
			st->interval >= 0 ? st->interval : INT64_MIN);
	free(package);
	if (!rc)
		rc = store_phases(st, db, have_end ? &first : NULL, have_full ? &full : NULL, err);
	if (!rc && have_end)
		rc = store_phase(st, db, phase_name[PH_STARTUP], b.ts,
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
	rc = rc < 0 ? err->code : bt_startup_store(st, db, diag, err);
	bt_startup_free(st);
	return rc;
}
