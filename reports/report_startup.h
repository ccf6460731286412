/*
 * The startup summary every report opens with (issue 19): the app start
 * the engine's model found, its phases with the main thread's breakdown,
 * blocked time by kind and the top methods, read once so the text,
 * Markdown, HTML and xlsx reports show the same figures.
 */
#ifndef BT_REPORT_STARTUP_H
#define BT_REPORT_STARTUP_H

#include <stdint.h>
#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"
#include "engine/db/db.h"

struct bt_namer;

#define BT_NONE INT64_MIN   /* a NULL column */

struct bt_su_phase {
	char *phase;
	int64_t ts, dur, cpu, blocked, idle, unexplained;   /* BT_NONE when unknown */
	int64_t runnable, sleeping, io, uninterruptible;    /* by scheduler state; BT_NONE without states */
	int exact;
};

struct bt_su_kind {
	char *kind;
	int64_t count, dur;
};

struct bt_su_method {
	char *name;
	int64_t self_cpu, self;
};

/* Strings and arrays owned by the summary. found = 0: no startup row. */
struct bt_startsum {
	int found;
	char *kind, *package, *source, *end_source;
	int64_t tid, ts, end_ts, ttid, ttfd;   /* BT_NONE when unknown */
	struct bt_su_phase *phases;
	size_t nphases;
	int have_states;   /* some phase has the main thread's scheduler states */
	struct bt_su_kind *blocking;
	size_t nblocking;
	struct bt_su_method *methods;
	size_t nmethods;
};

/* Read the summary; BT_ESQL on a failed query (s released). */
int bt_startsum_load(struct bt_db *db, struct bt_startsum *s, struct bt_err *err);
void bt_startsum_release(struct bt_startsum *s);

/* The headline line: "cold start of PKG: initial display 812.3 ms, full
 * display 1.2 s". Appended to b. */
void bt_startsum_headline(const struct bt_startsum *s, struct bt_buf *b);
/* A value in ms ("412.0"), or BT_UNKNOWN ("—") for BT_NONE. Appended to b. */
void bt_startsum_ms(int64_t ns, struct bt_buf *b);

/* Blocking by kind: "monitor 45.8 ms (7), park 25.0 ms (3)". Appended to b. */
void bt_startsum_kinds(const struct bt_startsum *s, struct bt_buf *b);
/* The phases table: its headings, and one phase's cells in their order. */
extern const char *const bt_startsum_cols[8];
void bt_startsum_phase_cells(const struct bt_su_phase *p, int64_t t0, struct bt_buf c[8]);
/* The columns by scheduler state, shown where have_states is set. */
extern const char *const bt_startsum_state_cols[4];
void bt_startsum_state_cells(const struct bt_su_phase *p, struct bt_buf c[4]);

/* The same as Markdown (a heading, the headline and a phases table). */
void bt_startsum_md(FILE *out, const struct bt_startsum *s);

#endif
