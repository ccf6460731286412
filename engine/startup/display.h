/*
 * When a frame of the start reached the screen (engine/startup): the main
 * thread's frames (Choreographer#doFrame N) and the RenderThread's draws
 * (DrawFrame N, DrawFrames N), matched as Perfetto's android_frames and
 * androidx's StartupTimingQuery match them. A frame is displayed at the
 * end of its draw; a trace without draws (a dump) ends it with the frame.
 */
#ifndef BT_DISPLAY_H
#define BT_DISPLAY_H

#include <stddef.h>
#include <stdint.h>

struct bt_dframe {
	int64_t ts, dur;
	int64_t vsync;    /* the N of the name; -1: the name has none */
	uint32_t frame;   /* its frame id (name) */
};

struct bt_display {
	struct bt_dframe *ui, *draw;
	size_t nui, ndraw, ucap, dcap;
	int full;         /* BT_DISPLAY_MAX reached: later frames are not kept */
	int sorted;
	struct bt_vsync_draw { int64_t vsync; size_t at; } *by_vsync;   /* once sorted: the draws with
									   * an N (draw[at]), by N, then
									   * by time */
	size_t nbv;
};

/* A frame as displayed: the UI frame and the draw that ended it. */
struct bt_display_hit {
	struct bt_dframe ui;
	int drawn;        /* 1: draw holds the RenderThread's draw of it */
	struct bt_dframe draw;
	int64_t end;      /* the draw's end, else the UI frame's */
};

void bt_display_init(struct bt_display *d);
void bt_display_release(struct bt_display *d);

/* The N at the end of a frame's name ("Choreographer#doFrame 191185",
 * "DrawFrames 191185"), else -1. */
int64_t bt_display_vsync(const char *name);

/* A main-thread frame, or a draw of any thread of the app, in any order. */
void bt_display_add_ui(struct bt_display *d, const struct bt_dframe *f);
void bt_display_add_draw(struct bt_display *d, const struct bt_dframe *f);

/* The draw of a UI frame: the first draw of its N that begins at or after
 * it (Perfetto), else the first draw that begins after it (androidx);
 * out->end is the UI frame's end when there is none. */
void bt_display_of(struct bt_display *d, const struct bt_dframe *ui, struct bt_display_hit *out);

/* The first UI frame that ends after ts (one that holds a call made at
 * ts counts: a UI update made before or during a frame is shown by it),
 * and its draw: 1, else 0. */
int bt_display_after(struct bt_display *d, int64_t ts, struct bt_display_hit *out);

#endif
