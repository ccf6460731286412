/*
 * The one writer signature every report format and export has (struct
 * bt_exporter; the table and the run's outputs are reports/outputs/). The
 * writers also read the trace's facts (reports/facts.h) and format values
 * for people (reports/format.h), included here for them.
 */
#ifndef BT_REPORT_H
#define BT_REPORT_H

#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/base/err.h"
#include "engine/base/result.h"
#include "engine/db/rows.h"
#include "reports/facts.h"
#include "reports/format.h"

struct bt_stacks;
struct bt_slicelog;
struct bt_perfetto;
struct bt_html_timeline;
struct bt_namer;

/* What an output needs, besides its file. */
enum {
	BT_NEED_RESULT = 1 << 0,     /* the rules' result and the database: written after the rules */
	BT_NEED_STACKS = 1 << 1,     /* self values per thread, message and call path */
	BT_NEED_SLICES = 1 << 2,     /* every slice in preorder, in the slice log (the Perfetto
				      * trace, speedscope's timelines) */
	BT_NEED_TIMELINE = 1 << 3,   /* every slice of every thread, packed (the HTML timeline) */
	BT_NEED_PERFETTO = 1 << 4    /* the Perfetto trace's facts (process, tracks, waits) */
};

/* What a writer gets; only what its needs name is set. A writer without
 * BT_NEED_RESULT must not touch db: it runs beside the rules. */
struct bt_export {
	struct bt_db *db;
	const struct bt_result *res;
	const struct bt_stacks *stacks;
	const struct bt_slicelog *slices;   /* sealed: each writer reads it with a reader of its own */
	struct bt_perfetto *perfetto;
	const struct bt_html_timeline *timeline;
	int folded_metric;           /* enum bt_folded_metric */
	int show_idle;               /* --idle: idle time in the flame graphs, pprof and folded */
	const char *path;            /* the output's path; NULL: stdout */
	int width;                   /* --width: text tables within this many columns; 0: the
				      * terminal's when writing to one, else no limit */
	struct bt_namer *names;      /* method names as people read them (engine/base/names.h):
				      * the trace's frames in scope; NULL: full names (--full-names) */
	/* A long write's progress (NULL: none), on the writer's thread: 0 of
	 * total first, then more done, total of total last. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

struct bt_exporter {
	const char *name;            /* the --format value, or the export's option without "--" */
	const char *ext;             /* the -o extension that selects a report format; NULL for an export */
	unsigned needs;
	int (*write)(const struct bt_export *x, FILE *out, struct bt_err *err);
};

#endif
