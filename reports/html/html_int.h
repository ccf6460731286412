/*
 * The HTML report's private pieces (rep_html.c, html_*.c): the data its
 * scripts draw the flame graph and the timeline from, written as JSON
 * into a <script type="application/json"> element, and every thread's
 * slices, packed (html_tap.c) into a base64 <script> block beside it.
 */
#ifndef BT_HTML_INT_H
#define BT_HTML_INT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/base/jsonw.h"
#include "reports/html/html.h"
#include "reports/report.h"

/* Flame graph: call paths under this share of their thread's wall time
 * and of its allocated bytes (per ten thousand) are merged into their
 * caller's self values. */
#define BT_HTML_FLAME_MIN 2
#define BT_HTML_FLAME_THREADS 32
/* Timeline: every slice of every thread, up to BT_HTML_SLICES in all;
 * past that the shortest are left out, a power of two of their duration
 * at a time (a 1M-record dump has 3.8M). Per thread, the first
 * BT_HTML_MESSAGES Looper messages and the longest BT_HTML_WAITS waits. */
#define BT_HTML_SLICES 4000000
#define BT_HTML_MESSAGES 50000
#define BT_HTML_WAITS 20000
#define BT_HTML_STATES 100000   /* a thread's scheduler states, the first */
/* The frames track: the main thread's display frames, the first
 * BT_HTML_FRAMES in time order (a few thousand a minute at 120 Hz), each
 * janky one's cause line cut at BT_HTML_CAUSE bytes. */
#define BT_HTML_FRAMES 20000
#define BT_HTML_CAUSE 300

/*
 * A thread's slices as the tap packed them, in the order they ended (a
 * parent after its children, so ends never go back), all times in whole
 * microseconds, some 4.6 bytes a slice. Per slice four LEB128 varints:
 *   zigzag(end - the previous end; the first slice's from base_us)
 *   zigzag(depth - the previous depth) * 11 + CPU share in tenths (0..10)
 *   with a child: zigzag(the first child's start - start), else duration
 *   frame id
 * A slice has a child when one came at depth + 1 since the last slice at
 * depth or above; the first of them started the soonest (timeline.js).
 */
struct bt_html_lane {
	int64_t tid;
	int64_t count;            /* slices the thread had */
	int64_t kept;             /* of them packed */
	int64_t base_us;          /* the first packed slice's end */
	unsigned char *buf;
	size_t len, cap;
	int64_t *depth;           /* packed slices per depth */
	size_t ndepth;
	int64_t hist[64];         /* packed slices by bit length of their duration in us */
	int64_t prev_end, prev_depth;
	int64_t *first;           /* by depth: the start of the first slice since a shallower one */
	unsigned char *has;       /* by depth: whether first holds one (none at top or deeper) */
	size_t top;               /* the last packed slice's depth + 1 */
};

/* The HTML writer's progress (struct bt_export's), in slices: those
 * trimmed and those written out. */
struct bt_html_progress {
	const struct bt_export *x;
	uint64_t done, total;
};

/* n more done (0: the start). */
void bt_html_progress(struct bt_html_progress *p, uint64_t n);

/* A lane's slices unpacked one by one, in the order they were packed:
 * what timeline.js does, in C. */
struct bt_html_slice {
	int64_t start, end, depth, frame, tenths;   /* times in us */
};

struct bt_html_unpack {
	const struct bt_html_lane *l;
	const unsigned char *p;
	int64_t e, d;
	int64_t *first;
	unsigned char *has;
	size_t top;
};

void bt_html_unpack_init(struct bt_html_unpack *u, const struct bt_html_lane *l);
/* 1 and the next slice in *s, or 0 at the end. */
int bt_html_unpack_next(struct bt_html_unpack *u, struct bt_html_slice *s);
void bt_html_unpack_release(struct bt_html_unpack *u);

/* The lanes a page shows: every thread's, main first, then by slice
 * count; those of the tap, or copies left with the slices of at least
 * min_us when all of them would pass max (BT_HTML_SLICES). */
struct bt_html_lanes {
	const struct bt_html_lane **v;
	size_t n;
	struct bt_html_lane *trimmed;   /* owned copies, when min_us > 0 */
	int64_t total, kept, min_us;
};

/* Valid until bt_html_lanes_release, and t's lanes until t is freed;
 * t may be NULL (no lanes). */
void bt_html_lanes_pick(struct bt_html_lanes *ls, const struct bt_html_timeline *t, int64_t main_tid,
			int64_t max, struct bt_html_progress *p);
void bt_html_lanes_release(struct bt_html_lanes *ls);

/* The trace's frame names by frame id, as the page shows them (short
 * unless --full-names) and in full for tooltips. */
struct bt_html_names {
	char **by_id;            /* frames.name by frames.id */
	size_t nid;
	const struct bt_namer *namer;
};

int bt_html_names_load(struct bt_html_names *n, struct bt_db *db, const struct bt_namer *namer,
		       struct bt_err *err);
void bt_html_names_release(struct bt_html_names *n);

/* "flame": {threads: [...]} from the calltree table, main thread first;
 * *first_tid is the first thread's tid, or -1 if there is none. Idle
 * paths and time are left out unless show_idle. */
int bt_html_flame_write(struct bt_db *db, struct bt_jsonw *w, int show_idle, int64_t *first_tid,
			struct bt_err *err);

/* "timeline": each lane's thread, messages, waits (with their wakers)
 * and where its slices sit in the packed block, times from t0. */
int bt_html_timeline_write(struct bt_db *db, const struct bt_html_lanes *ls, const struct bt_facts *f,
			   struct bt_jsonw *w, struct bt_err *err);
/* "frames" (none without ui_frames rows): {rows, tid, period_ns, total,
 * janky, missed}, rows holding twelve values a frame: its start (ns from
 * t0), frame time (to its end: its draw's where it has one), main-thread
 * time, start - its vsync, deadline - start, janky (0 or 1), vsyncs
 * missed, id, vsync (null: none), draw start - start and draw duration
 * (null, null: no draw), cause line (null unless janky); html_frames.c. */
int bt_html_frames_write(struct bt_db *db, const struct bt_facts *f, struct bt_jsonw *w, struct bt_err *err);
/* The packed slices of every lane, in order, as base64: the content of
 * the slices' <script> element (no '<' in it). */
void bt_html_timeline_blob(const struct bt_html_lanes *ls, FILE *out, struct bt_html_progress *p);

/* Text as HTML content or attribute value (rep_html.c). */
void bt_html_esc(FILE *out, const char *s);
/* The page up to <body>: the stylesheet and catch.js inline, nothing
 * fetched (a Content-Security-Policy says so). */
void bt_html_head(FILE *out, const char *title);
/* The page's scripts, in one <script> element: every page gets them all,
 * and they draw what its data holds. */
void bt_html_scripts(FILE *out);
/* The page's last script, after its data: BT.finish (report.js). */
void bt_html_finish(FILE *out);

/* The findings, per severity and then per rule, each rule's folded
 * (html_findings.c); a finding with a time links to the timeline. */
void bt_html_findings(FILE *out, const struct bt_result *res, int64_t t0, const struct bt_namer *names);
/* Text that may be a method's name: the short name, with the full one
 * as its title when they differ. */
void bt_html_name(FILE *out, const struct bt_namer *names, const char *s);

/* The page's data and scripts: the JSON object in <script id="bt-data">
 * ('<' is escaped, so no symbol can end the element), the scripts (the
 * flame graph works while the browser reads on), the packed slices in
 * <script id="bt-slices">, and the last script. */
int bt_html_data_write(const struct bt_export *x, const struct bt_facts *f, FILE *out, struct bt_err *err);

#endif
