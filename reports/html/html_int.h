/*
 * The HTML report's private pieces (rep_html.c, html_*.c): the data its
 * script draws the flame graph and the timeline from, written as JSON
 * into a <script type="application/json"> element.
 */
#ifndef BT_HTML_INT_H
#define BT_HTML_INT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/base/hash.h"
#include "engine/base/jsonw.h"
#include "reports/html/html.h"
#include "reports/report.h"

/* Flame graph: call paths under this share of their thread's wall time
 * (per ten thousand) are merged into their caller's self time. */
#define BT_HTML_FLAME_MIN 2
#define BT_HTML_FLAME_THREADS 32
/* Timeline: slices shorter than span / this are left out, and only the
 * longest BT_HTML_SLICES of the rest are kept. */
#define BT_HTML_SLICE_DIV 20000
#define BT_HTML_SLICES 20000
#define BT_HTML_MESSAGES 50000
#define BT_HTML_WAITS 20000

/* The frame names the data refers to, as indexes into its "names" array,
 * numbered in order of first use. */
struct bt_html_names {
	char **by_id;            /* frames.name by frames.id */
	size_t nid;
	struct bt_map64 used;    /* frame id -> index + 1 */
	int64_t *order;          /* frame ids by index */
	size_t nused, cap;
};

int bt_html_names_load(struct bt_html_names *n, struct bt_db *db, struct bt_err *err);
/* The index of frame_id's name in the names array. */
int64_t bt_html_names_ref(struct bt_html_names *n, int64_t frame_id);
void bt_html_names_release(struct bt_html_names *n);

/* "flame": {threads: [...]} from the calltree table, main thread first;
 * *first_tid is the first thread's tid, or -1 if there is none. Idle
 * paths and time are left out unless show_idle. */
int bt_html_flame_write(struct bt_db *db, struct bt_html_names *n, struct bt_jsonw *w, int show_idle,
			int64_t *first_tid, struct bt_err *err);

/* "timeline": thread tid's messages, longest slices (from tl) and waits,
 * from t0. */
int bt_html_timeline_write(struct bt_db *db, const struct bt_html_timeline *tl,
			   const struct bt_facts *f, int64_t tid, struct bt_html_names *n,
			   struct bt_jsonw *w, struct bt_err *err);

/* Text as HTML content or attribute value (rep_html.c). */
void bt_html_esc(FILE *out, const char *s);
/* The page up to <body>: the stylesheet and catch.js inline, nothing
 * fetched (a Content-Security-Policy says so). */
void bt_html_head(FILE *out, const char *title);

/* The whole data object, for the <script> element: '<' is escaped, so
 * no symbol can end the element. */
int bt_html_data_write(struct bt_db *db, const struct bt_html_timeline *tl, const struct bt_facts *f,
		       int show_idle, FILE *out, struct bt_err *err);

#endif
