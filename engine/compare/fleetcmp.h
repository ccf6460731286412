/*
 * Fleet comparison (issue 23): each side is a directory of JSON reports
 * (a 'batch' output, or 'analyze -o' runs), one trace per report, and
 * compare tests the two versions' per-trace distributions with the CI
 * gate's statistics and family (compare.h), gating the start by default.
 */
#ifndef BT_FLEETCMP_H
#define BT_FLEETCMP_H

#include <stddef.h>

#include "engine/base/err.h"
#include "engine/compare/runs.h"

/* The metrics a fleet comparison gates when --metric does not say: the
 * start of each trace (time to initial display, each phase, the main
 * thread's CPU and blocked time by kind, every thread's CPU and off-CPU
 * time in the window, the app's methods' self CPU, self wall and inclusive
 * time on the main thread in it: a sampled method's self time sees part
 * of its own slowdown, its inclusive time nearly all), and its display
 * frames (the janky-frame rate, the frame time's p50, p90 and p99).
 * BT_FLEETCMP_NGLOBS of them. */
#define BT_FLEETCMP_NGLOBS 13
extern const char *const bt_fleetcmp_globs[BT_FLEETCMP_NGLOBS];

/* A report without it (a trace without an app start) is left out. */
#define BT_FLEETCMP_KEY "startup.ttid_ns"

/* One side's reports: paths owned, sorted (byte order). */
struct bt_fleetcmp_side {
	char **paths;
	size_t n, cap;
	size_t json;       /* .json files found */
	size_t nostart;    /* reports without BT_FLEETCMP_KEY: left out */
	size_t other;      /* .json files that are no report (a manifest): skipped */
	size_t traces;     /* a fleet summary's traces (bt_fleetcmp_summary_runs) */
};

/*
 * Add the reports under dir (recursively, dot-entries skipped, symbolic
 * links to files followed, to folders not) to s: each .json file whose
 * schema is a report and that has BT_FLEETCMP_KEY. BT_EIO when a folder or
 * file cannot be read, BT_EFORMAT for a malformed report (file and byte
 * offset), BT_EUSAGE when dir holds no report with an app start.
 */
int bt_fleetcmp_list(struct bt_fleetcmp_side *s, const char *dir, struct bt_err *err);
/* A path as given (a report or a trace): added, owned, not checked. */
void bt_fleetcmp_add(struct bt_fleetcmp_side *s, const char *path);
void bt_fleetcmp_side_release(struct bt_fleetcmp_side *s);

/*
 * Fleet summaries (merge's fleet@1, engine/fleet/README.md): its "all"
 * group as the runs of one side, fleetcmp_sum.c. Each measure's histogram
 * (per trace: startup.* values, the main thread's and the process's
 * totals, each app method's self CPU in the start where it was in the
 * trace's top 32, each wait kind and holder's time) is read back into
 * values, a bucket's count at its representative value (within the
 * sketch's 1 %; a trace's janky frames per million as compare's
 * frames.janky_pct), and dealt to the runs in rank order: each measure's
 * distribution is the summary's, but which trace had which values
 * together is not known, so compare takes the family by Holm
 * (bt_cmp_opts.holm). A side has one run per trace, at most
 * BT_FLEETCMP_MAX_RUNS: beyond, that many evenly spaced quantiles of each
 * measure (the tests then count that many runs: fewer than the traces,
 * so p is larger than the traces' own would be). Method self wall and
 * inclusive time are sums only in a summary: not read. *traces: the
 * summary's. BT_EFORMAT (file and byte offset) for a malformed or other
 * JSON, BT_EIO when unreadable.
 */
#define BT_FLEETCMP_SCHEMA "btrace-analyze/fleet@1"
/* path may name one group of the summary: FILE#KEY=VALUE reads its
 * groups.KEY.values.VALUE instead of "all" (when no file FILE#KEY=VALUE
 * exists), BT_EUSAGE when it has no such group. */
#define BT_FLEETCMP_MAX_RUNS 2000
int bt_fleetcmp_summary_runs(struct bt_runs *rs, enum bt_side side, const char *path, size_t *traces,
			  struct bt_err *err);
/* "FILE#KEY=VALUE": 1, FILE, KEY and VALUE (in arg); else 0 and arg as FILE. */
int bt_fleetcmp_split(const char *arg, struct bt_buf *file, struct bt_buf *key, const char **value);
/* 1 if path (or its FILE#KEY=VALUE's FILE) is a JSON object whose
 * top-level "schema" is BT_FLEETCMP_SCHEMA. */
int bt_fleetcmp_is_summary(const char *path);

#endif
