/*
 * The fleet report (merge -o fleet.{json,md,html,xlsx}): the fleet summary
 * as JSON, and for people, per group, the distributions of the values
 * (p50/p90/p99), the methods that dominate the startup's main-thread CPU
 * and the waits most often on its critical path. The view is built once
 * so that Markdown, HTML and xlsx show the same rows.
 */
#ifndef BT_FLEET_REPORT_H
#define BT_FLEET_REPORT_H

#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"
#include "engine/fleet/fleet.h"

struct bt_namer;

/* One group as the report shows it. Arrays owned; items borrowed. */
struct bt_fv_group {
	char *title;                     /* "all traces", "app_version = 4.2.0", ... */
	char *key, *value;               /* NULL, NULL for all; value NULL for a key's other values */
	const struct bt_fl_group *g;
	struct bt_fl_item **values;      /* in reading order: startup first */
	size_t nvalues;
	struct bt_fl_item **methods;     /* by summed self CPU, at most top */
	size_t nmethods;
	struct bt_fl_item **waits;       /* by traces, then ns, at most top */
	size_t nwaits;
	int64_t cpu_total;               /* the startup's main-thread self CPU: items + other */
};

struct bt_fleetrep_view {
	struct bt_fleet *f;              /* finished */
	struct bt_fv_group *groups;      /* all first, then each key's values in byte order */
	size_t ngroups;
	struct bt_namer *names;          /* short method names; NULL: full ones */
	int top;
	int64_t epoch;                   /* the xlsx document's time (0: BT_XLSX_CREATED) */
};

/* Build the view of f (finished here) with top rows per list and, unless
 * full_names, short names. */
void bt_fleetrep_view_build(struct bt_fleetrep_view *v, struct bt_fleet *f, int top, int full_names);
void bt_fleetrep_view_release(struct bt_fleetrep_view *v);

/* A value's name as people read it: "time to initial display". Appended. */
void bt_fv_label(const char *name, struct bt_buf *b);
/* A method's name as people read it (short unless --full-names). */
const char *bt_fv_name(const struct bt_fleetrep_view *v, const char *signature);
/* A wait item's key "KIND\tHOLDER" split: kind into b (reset), holder returned. */
const char *bt_fv_wait(const struct bt_fl_item *it, struct bt_buf *kind);
/* ns as people read them: "387.5 ms"; "" for none (n = 0). */
void bt_fv_ns(int64_t ns, int have, struct bt_buf *b);

struct bt_fleetrep_reporter {
	const char *name, *ext;
	int (*write)(const struct bt_fleetrep_view *v, FILE *out, struct bt_err *err);
};

extern const struct bt_fleetrep_reporter bt_fleetrep_json, bt_fleetrep_md, bt_fleetrep_html, bt_fleetrep_xlsx;

/* By format name, else by path's extension (.json .md .html .xlsx), else
 * Markdown; BT_EUSAGE for another extension or name. */
int bt_fleetrep_report_pick(const char *format, const char *path, const struct bt_fleetrep_reporter **out,
			 struct bt_err *err);

#endif
