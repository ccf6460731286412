/*
 * What a frame that began late waited behind (issue 37): the main
 * thread's longest message that ended between the frame's vsync and its
 * start, and the app method that owned most of that message's time (the
 * innermost app method above each slice's own time, as a frame's cause
 * line reads a slow bind as the adapter's method; a message with no app
 * code: its method with the most self time).
 */
#ifndef BT_LATE_H
#define BT_LATE_H

#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"

struct bt_late;

struct bt_late *bt_late_new(void);
void bt_late_free(struct bt_late *l);

#define BT_LATE_MAX_DEPTH 1024   /* deeper slices count as this deep */

/* A main-thread slice, as slices end (children first), at depth (its
 * depth clamped to [0, BT_LATE_MAX_DEPTH]), with its self time not
 * blocked (run: its own blocking records left out, the caller reads them
 * by kind); is_app: its method is the app's (engine/db/appcode.h). */
void bt_late_slice(struct bt_late *l, const struct bt_slice *s, int depth, int64_t run, int is_app);

/* bt_late_slice for the common slice: at depth (clamped as there), of
 * message msg_id, not the app's and with no time of its own. 1 when done;
 * 0, and nothing done, when msg_id is not the message at hand (the caller
 * then calls bt_late_slice). */
int bt_late_pass(struct bt_late *l, int depth, int64_t msg_id);

/* A message of the thread, [ts, end), as its importer stores it: the
 * parts of one message id (a nested loop, a kFlush span that repeats it)
 * are one message from the first part's start to the last one's end. */
void bt_late_message(struct bt_late *l, int64_t msg_id, int64_t ts, int64_t end);

/* After every slice and message has come. */
void bt_late_ready(struct bt_late *l);

struct bt_late_msg {
	int64_t msg_id, ts, end;
	uint32_t frame;           /* the method that owned most of its time not blocked, 0: none */
	int64_t ns;               /* that time */
};

/* The message a frame that began at start for the vsync at vsync waited
 * behind into *out: 1, else 0 (none ended between them). */
int bt_late_behind(const struct bt_late *l, int64_t vsync, int64_t start, struct bt_late_msg *out);

/* The first message that begins at or after t: 1 with its span,
 * else 0. */
int bt_late_after(const struct bt_late *l, int64_t t, int64_t *ts, int64_t *end);

#endif
