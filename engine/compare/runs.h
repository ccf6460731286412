/*
 * The runs compare reads (DESIGN §9): each run's metrics, by name, from a
 * JSON report or from the result of analysing a trace on the fly. Names
 * are shared across runs, so a metric has one id and every run one value
 * for it (NaN where the run does not have it).
 */
#ifndef BT_RUNS_H
#define BT_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"
#include "engine/base/hash.h"
#include "engine/base/jsonr.h"
#include "engine/base/result.h"

enum bt_side { BT_BASE, BT_HEAD };

/* The main thread's call tree of every run (the reports' main_calltree
 * table: a node per call path over 1 % of the thread), merged into one
 * tree: a node per path, and one value entry per run that has the path,
 * so the tree is held once however many runs there are. */
struct bt_tnode {
	uint32_t parent;     /* node index + 1; 0 for a root */
	uint32_t name;       /* index into names */
	uint32_t depth;
	uint32_t last_run;   /* run index + 1 of the last entry: a path twice in a run is refused */
};

struct bt_tval {
	uint32_t node, run;
	double incl, self, incl_cpu;   /* ns: wall with idle left out, and CPU */
};

struct bt_tree {
	struct bt_strmap name_ids;   /* method -> index + 1 */
	char **names;
	size_t nnames, ncap;
	struct bt_map64 paths;       /* (parent << 32 | name) -> node index + 1 */
	struct bt_tnode *node;
	size_t nnodes, nodecap;
	struct bt_tval *val;         /* in the order read: by run, then by row */
	size_t nval, valcap;
};

/* A run's values take memory in proportion to its own metrics, not to
 * all runs' names: ids below nv are in v, kept at most about twice the
 * run's count (plus 1024); the others are in far (id -> index + 1 into
 * fv). One tiny run read after a 1M-metric report takes a few KB. */
struct bt_run {
	char *path;          /* as given on the command line */
	enum bt_side side;
	double *v;           /* by metric id, nv of them; NaN: absent */
	size_t nv, count;    /* count: values set */
	struct bt_map64 far;
	double *fv;
	size_t nfv, fvcap;
	int has_tree;        /* its report had a main_calltree table */
	int cpu_unknown;     /* its trace does not give (some threads') CPU time: a per-method
			      * CPU metric it lacks is unknown there, not ~0 */
};

/* A class of warning (a diagnostic's code) over every run that had it:
 * told once for all runs rather than once per run. */
struct bt_runs_warning {
	char *code;
	char *detail;        /* the first run's example */
	uint64_t count;      /* occurrences, all runs together */
	size_t *runs;        /* indices into run[], in the order read */
	size_t nruns, rcap;
};

struct bt_runs {
	struct bt_strmap ids;      /* metric name -> id + 1 */
	char **names;
	size_t nnames, ncap;
	struct bt_run *run;
	size_t nruns, rcap;
	struct bt_runs_warning *warn;   /* in the order first seen */
	size_t nwarn, wcap;
	struct bt_tree tree;
};

void bt_runs_init(struct bt_runs *rs);
void bt_runs_release(struct bt_runs *rs);
/* 1 if the file's first non-blank byte opens a JSON object: a report. */
int bt_runs_is_json(const char *path);
/* Read the metrics of the JSON report at path (schema report@1), and its
 * "diagnostics" as the run's warnings. */
int bt_runs_add_report(struct bt_runs *rs, enum bt_side side, const char *path, struct bt_err *err);
/* Metric name's value in the report at path, read up to its "metrics"
 * and no further: *v NaN when absent or null. *report 0 (and BT_OK) for
 * a JSON file that is no report (another schema, or a "metrics" before
 * any "schema": a manifest, a fleet summary); a malformed one fails with
 * the file and byte offset (BT_EFORMAT), an unreadable one BT_EIO. */
int bt_runs_peek(const char *path, const char *name, int *report, double *v, struct bt_err *err);
/* A run without values, for a reader of its own (fleet_sum.c): its
 * index; bt_runs_set gives it values. */
size_t bt_runs_add_empty(struct bt_runs *rs, enum bt_side side, const char *path);
void bt_runs_set(struct bt_runs *rs, size_t r, const char *name, size_t len, double v);
/* The metrics of an analysis done here. */
void bt_runs_add_result(struct bt_runs *rs, enum bt_side side, const char *path,
			const struct bt_result *res);
/* Count a warning of the last run added: count occurrences of code, with
 * detail as its example if the code is new. */
void bt_runs_warn(struct bt_runs *rs, const char *code, uint64_t count, const char *detail);
/* The main_calltree table of run r into rs->tree: from the report being
 * read (jr at the table's object; the table is consumed), or from a
 * result. A table without the method, incl_ns, self_ns and incl_cpu_ns
 * columns is no tree (has_tree stays 0); a malformed row fails with the
 * file and byte offset (BT_EFORMAT). runs_tree.c. */
int bt_runs_tree_json(struct bt_runs *rs, size_t r, struct bt_jr *jr);
void bt_runs_tree_result(struct bt_runs *rs, size_t r, const struct bt_result *res);
void bt_runs_tree_release(struct bt_tree *t);

/* Value of metric id in run r, NaN if absent. */
double bt_runs_value(const struct bt_runs *rs, size_t r, size_t id);

/* Every run's values by metric, read once: metric id's are v[at[id]] up
 * to v[at[id + 1] - 1], of runs run[...] in increasing order (runs
 * without it have none). Memory in proportion to the values read, not to
 * runs x metrics. */
struct bt_runs_cols {
	size_t *at;          /* nnames + 1 */
	uint32_t *run;
	double *v;
};

void bt_runs_columns(const struct bt_runs *rs, struct bt_runs_cols *c);
void bt_runs_columns_release(struct bt_runs_cols *c);

#endif
