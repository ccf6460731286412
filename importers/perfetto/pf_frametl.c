/*
 * SurfaceFlinger's frame timeline (FrameTimelineEvent) into display_frames:
 * each expected and actual display and surface frame, its start paired
 * with its FrameEnd by cookie, with what the start says of it (tokens,
 * layer, present type, jank). Nothing is computed from them here.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"

#define MAX_OPEN 65536   /* frames started and not ended; beyond: counted, not kept */

enum { EXP_DISPLAY, ACT_DISPLAY, EXP_SURFACE, ACT_SURFACE, NKINDS };
static const char *const kind_name[NKINDS] = { "expected_display", "actual_display", "expected_surface",
					       "actual_surface" };

/* A frame as its start said; INT64_MIN: not said. */
struct frame {
	int kind, live;
	int64_t cookie, ts, pid, token, display_token, present, on_time, gpu, jank, prediction, is_buffer;
	char *layer;
};

struct pf_frametl {
	struct bt_map64 of;      /* cookie -> index + 1 into open (stale once ended: checked) */
	struct frame *open;
	size_t nopen, cap, live;
	size_t *free_at;         /* indices of ended frames, for reuse */
	size_t nfree, fcap;
	uint64_t count[NKINDS], janky, unended, unmatched, over, bad_time;
};

static struct pf_frametl *state(struct pf *p)
{
	if (!p->frametl) {
		p->frametl = bt_xcalloc(1, sizeof *p->frametl);
		bt_map64_init(&p->frametl->of, 64);
	}
	return p->frametl;
}

/* Perfetto's names (trace processor's actual_frame_timeline_slice). */
static const char *present_name(int64_t v)
{
	static const char *const n[] = { "Unspecified Present", "On-time Present", "Late Present", "Early Present",
					 "Dropped Frame", "Unknown Present" };
	return v >= 0 && v < 6 ? n[v] : NULL;
}

static const char *prediction_name(int64_t v)
{
	static const char *const n[] = { "Unspecified Prediction", "Valid Prediction", "Expired Prediction",
					 "Unknown Prediction" };
	return v >= 0 && v < 4 ? n[v] : NULL;
}

/* The jank bitmask as Perfetto words it, reasons joined by ", ". */
static void jank_name(int64_t v, struct bt_buf *b)
{
	static const char *const n[] = { "None", "SurfaceFlinger Scheduling", "Prediction Error", "Display HAL",
					  "SurfaceFlinger CPU Deadline Missed", "SurfaceFlinger GPU Deadline Missed",
					  "App Deadline Missed", "Buffer Stuffing", "Unknown Jank",
					  "SurfaceFlinger Stuffing", "Dropped Frame" };
	size_t i;

	if (v == 0)
		bt_buf_addf(b, "Unspecified");
	for (i = 0; i < sizeof n / sizeof n[0]; i++)
		if (v >> i & 1)
			bt_buf_addf(b, "%s%s", b->len ? ", " : "", n[i]);
}

static int insert(struct pf *p, const struct frame *f, int64_t end, struct bt_err *err)
{
	struct bt_buf jank = BT_BUF_INIT;
	int rc;

	if (f->jank != INT64_MIN)
		jank_name(f->jank, &jank);
	rc = bt_db_exec(p->db, BT_SQL_INSERT_DISPLAY_FRAME, err, "timmmmttmmmttm", kind_name[f->kind], f->ts,
			end == INT64_MIN ? INT64_MIN : end - f->ts, f->pid, f->token, f->display_token, f->layer,
			f->present == INT64_MIN ? NULL : present_name(f->present), f->on_time, f->gpu, f->jank,
			f->jank == INT64_MIN ? NULL : jank.buf,
			f->prediction == INT64_MIN ? NULL : prediction_name(f->prediction), f->is_buffer);
	bt_buf_release(&jank);
	return rc;
}

#define OR_NONE(has, v) ((has) ? (int64_t)(v) : INT64_MIN)

static void from_display(struct frame *f, const Perfetto__Protos__FrameTimelineEvent__DisplayFrameStart *d)
{
	f->cookie = d->cookie;
	f->pid = OR_NONE(d->has_pid, d->pid);
	f->token = OR_NONE(d->has_token, d->token);
	f->present = OR_NONE(d->has_present_type, d->present_type);
	f->on_time = OR_NONE(d->has_on_time_finish, d->on_time_finish);
	f->gpu = OR_NONE(d->has_gpu_composition, d->gpu_composition);
	f->jank = OR_NONE(d->has_jank_type, d->jank_type);
	f->prediction = OR_NONE(d->has_prediction_type, d->prediction_type);
}

static void from_surface(struct frame *f, const Perfetto__Protos__FrameTimelineEvent__SurfaceFrameStart *s)
{
	f->cookie = s->cookie;
	f->pid = OR_NONE(s->has_pid, s->pid);
	f->token = OR_NONE(s->has_token, s->token);
	f->display_token = OR_NONE(s->has_display_frame_token, s->display_frame_token);
	f->layer = s->layer_name ? bt_xstrdup(s->layer_name) : NULL;
	f->present = OR_NONE(s->has_present_type, s->present_type);
	f->on_time = OR_NONE(s->has_on_time_finish, s->on_time_finish);
	f->gpu = OR_NONE(s->has_gpu_composition, s->gpu_composition);
	f->jank = OR_NONE(s->has_jank_type, s->jank_type);
	f->prediction = OR_NONE(s->has_prediction_type, s->prediction_type);
	f->is_buffer = OR_NONE(s->has_is_buffer, s->is_buffer);
}

/* The map holds a cookie per frame ever started: rebuilt from the open
 * ones when mostly stale, so it stays the size of what is open. */
static void compact(struct pf_frametl *t)
{
	size_t i;

	if (t->of.len < 4 * t->live + 1024)
		return;
	bt_map64_release(&t->of);
	bt_map64_init(&t->of, 2 * t->live + 64);
	for (i = 0; i < t->nopen; i++)
		if (t->open[i].live)
			bt_map64_put(&t->of, (uint64_t)t->open[i].cookie, (uint32_t)i + 1);
}

static void start(struct pf_frametl *t, const struct frame *f)
{
	size_t i;

	if (t->live >= MAX_OPEN) {
		t->over++;
		free(f->layer);
		return;
	}
	if (t->nfree)
		i = t->free_at[--t->nfree];
	else {
		BT_GROW(t->open, t->nopen + 1, t->cap);
		i = t->nopen++;
	}
	t->open[i] = *f;
	t->open[i].live = 1;
	t->live++;
	compact(t);
	bt_map64_put(&t->of, (uint64_t)f->cookie, (uint32_t)i + 1);
}

static int end(struct pf *p, struct pf_frametl *t, int64_t cookie, int64_t ts, struct bt_err *err)
{
	uint32_t i = bt_map64_get(&t->of, (uint64_t)cookie);
	struct frame *f = i ? &t->open[i - 1] : NULL;
	int rc;

	if (!f || !f->live || f->cookie != cookie) {
		t->unmatched++;
		return BT_OK;
	}
	rc = insert(p, f, ts >= f->ts ? ts : f->ts, err);
	free(f->layer);
	f->layer = NULL;
	f->live = 0;
	t->live--;
	BT_GROW(t->free_at, t->nfree + 1, t->fcap);
	t->free_at[t->nfree++] = i - 1;
	return rc;
}

int pf_frametl_event(struct pf *p, const Perfetto__Protos__FrameTimelineEvent *e, int64_t ts, uint64_t off,
		     struct bt_err *err)
{
	struct pf_frametl *t = state(p);
	struct frame f;

	(void)off;
	if (ts < 0) {   /* none, or beyond pipeline.h's bound */
		t->bad_time++;
		return BT_OK;
	}
	if (e->frame_end)
		return end(p, t, e->frame_end->cookie, ts, err);
	memset(&f, 0, sizeof f);
	f.ts = ts;
	f.display_token = f.is_buffer = INT64_MIN;
	if (e->expected_display_frame_start || e->actual_display_frame_start) {
		f.kind = e->expected_display_frame_start ? EXP_DISPLAY : ACT_DISPLAY;
		from_display(&f, e->expected_display_frame_start ? e->expected_display_frame_start
				 : e->actual_display_frame_start);
	} else if (e->expected_surface_frame_start || e->actual_surface_frame_start) {
		f.kind = e->expected_surface_frame_start ? EXP_SURFACE : ACT_SURFACE;
		from_surface(&f, e->expected_surface_frame_start ? e->expected_surface_frame_start
				 : e->actual_surface_frame_start);
	} else {
		return BT_OK;   /* an event of no kind read here */
	}
	t->count[f.kind]++;
	t->janky += f.jank != INT64_MIN && f.jank > 1;   /* 0 unspecified, 1 none */
	start(t, &f);
	return BT_OK;
}

int pf_frametl_save(struct pf *p, struct bt_err *err)
{
	struct pf_frametl *t = p->frametl;
	size_t i;
	int rc = BT_OK;

	if (!t)
		return BT_OK;
	for (i = 0; i < t->nopen && !rc; i++)
		if (t->open[i].live) {
			t->unended++;
			rc = insert(p, &t->open[i], INT64_MIN, err);
		}
	if (!rc)
		rc = bt_db_set_meta_int(p->db, "display_frames", (int64_t)(t->count[EXP_DISPLAY] + t->count[ACT_DISPLAY]), err);
	if (!rc)
		rc = bt_db_set_meta_int(p->db, "surface_frames", (int64_t)(t->count[EXP_SURFACE] + t->count[ACT_SURFACE]), err);
	if (!rc)
		bt_diag_count(p->diag, "perfetto_frame_timeline", t->count[ACT_DISPLAY] + t->count[ACT_SURFACE],
			      "frames of '%s' in display_frames: %llu display and %llu surface frames (actual; as many expected: %llu, %llu), %llu janky",
			      p->path, (unsigned long long)t->count[ACT_DISPLAY], (unsigned long long)t->count[ACT_SURFACE],
			      (unsigned long long)t->count[EXP_DISPLAY], (unsigned long long)t->count[EXP_SURFACE],
			      (unsigned long long)t->janky);
	if (t->unended)
		bt_diag_count(p->diag, "perfetto_frame_unended", t->unended,
			      "frames of '%s' never ended (no FrameEnd of their cookie); dur NULL", p->path);
	if (t->unmatched)
		bt_diag_count(p->diag, "perfetto_frame_unmatched_end", t->unmatched,
			      "frame ends of '%s' with no frame of their cookie started; skipped", p->path);
	if (t->over)
		bt_diag_count(p->diag, "perfetto_frame_too_many", t->over,
			      "frames of '%s' started while %d were open; not imported", p->path, MAX_OPEN);
	if (t->bad_time)
		bt_diag_count(p->diag, "perfetto_frame_time", t->bad_time,
			      "frame timeline events of '%s' have no usable timestamp; skipped", p->path);
	return rc;
}

void pf_frametl_free(struct pf_frametl *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nopen; i++)
		free(t->open[i].layer);
	free(t->open);
	free(t->free_at);
	bt_map64_release(&t->of);
	free(t);
}
