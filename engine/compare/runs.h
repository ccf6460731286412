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
#include "engine/base/result.h"

enum bt_side { BT_BASE, BT_HEAD };

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
};

void bt_runs_init(struct bt_runs *rs);
void bt_runs_release(struct bt_runs *rs);
/* 1 if the file's first non-blank byte opens a JSON object: a report. */
int bt_runs_is_json(const char *path);
/* Read the metrics of the JSON report at path (schema report@1), and its
 * "diagnostics" as the run's warnings. */
int bt_runs_add_report(struct bt_runs *rs, enum bt_side side, const char *path, struct bt_err *err);
/* The metrics of an analysis done here. */
void bt_runs_add_result(struct bt_runs *rs, enum bt_side side, const char *path,
			const struct bt_result *res);
/* Count a warning of the last run added: count occurrences of code, with
 * detail as its example if the code is new. */
void bt_runs_warn(struct bt_runs *rs, const char *code, uint64_t count, const char *detail);
/* Value of metric id in run r, NaN if absent. */
double bt_runs_value(const struct bt_runs *rs, size_t r, size_t id);

#endif
