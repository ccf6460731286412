/*
 * The main thread's display frames (issue 37): every UI frame the start-up
 * collector saw (Choreographer.doFrame, Choreographer#doFrame N, with the
 * RenderThread's DrawFrame N where the trace has it), the display's
 * refresh period, each frame's vsync tick and deadline, whether it missed
 * it and by how many vsyncs, and for each janky frame one line of what the
 * main thread did instead (its methods by self time not blocked, its
 * waits with their holder, GC and the other blocking records) -> the
 * ui_frames table; what filled the frames, in all of them and in the janky
 * ones (each method's self time not blocked, the blocked time by kind and
 * by the holder of the waits) -> ui_frame_methods and ui_frame_blocking.
 *
 * The period: the median expected frame of a Perfetto frame timeline, else
 * the cadence of the frames (the median gap between consecutive frames
 * under 25 ms, snapped to 60, 90, 120 or 144 Hz). A frame's vsync: the
 * timeline's expected frame of its token (Choreographer#doFrame N), which
 * gives its deadline too; else a tick of the vsync grid, whose phase is
 * where most frames begin (a frame begins just after the vsync it was
 * asked for unless the main thread was busy): the tick at or before its
 * start, or, where the main thread was busy from the frame before's end
 * past the tick after it (no wait for work there: a pending frame would
 * have run), that tick, which it missed. The deadline: one period after
 * its vsync. A frame is janky when it ends (its draw's end where drawn)
 * after its deadline, missed_vsyncs the periods it ended past it.
 */
#ifndef BT_FRAMES_H
#define BT_FRAMES_H

#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"
#include "engine/startup/display.h"

struct bt_frames;

struct bt_frames *bt_frames_new(void);
void bt_frames_free(struct bt_frames *f);

/* What a main-thread slice is to the frames. */
enum { BT_FRAMES_UI = 1,      /* a UI frame (Choreographer.doFrame) */
       BT_FRAMES_VSYNC = 2,   /* the vsync's callback that posts one (onVsync) */
       BT_FRAMES_TRAVERSAL = 3,   /* a frame's traversal callback (TraversalRunnable.run) */
       BT_FRAMES_CALLBACK = 4 };  /* a frame's callback (Choreographer$CallbackRecord.run) */

/* A main-thread slice, as slices end (children first): a frame (role
 * BT_FRAMES_UI) sums the self time of the slices inside it by method, and
 * for its cause line by the innermost app method (is_app: the slice's
 * method is the app's, engine/db/appcode.h) that holds each; a vsync's
 * callback is kept for the frame its message ran (bt_frames_store). */
void bt_frames_slice(struct bt_frames *f, const struct bt_slice *s, int role, int is_app);

/* A main-thread message as it is stored, [ts, end): what a late frame
 * may have waited behind. */
void bt_frames_message(struct bt_frames *f, int64_t msg_id, int64_t ts, int64_t end);

/* The ui_frames, ui_frame_methods and ui_frame_blocking rows of the main
 * thread tid from d's frames and draws; nothing when d has no UI frame. */
int bt_frames_store(struct bt_frames *f, struct bt_display *d, int64_t tid, struct bt_db *db,
		    struct bt_err *err);

#endif
