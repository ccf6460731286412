/*
 * The runs compare reads (DESIGN §9): each run's metrics, by name, from a
 * JSON report or from the result of analysing a trace on the fly. Names
 * are shared across runs, so a metric has one id and every run one value
 * for it (NaN where the run does not have it).
 */
#ifndef BT_RUNS_H
#define BT_RUNS_H

#include <stddef.h>

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

struct bt_runs {
	struct bt_strmap ids;      /* metric name -> id + 1 */
	char **names;
	size_t nnames, ncap;
	struct bt_run *run;
	size_t nruns, rcap;
};

void bt_runs_init(struct bt_runs *rs);
void bt_runs_release(struct bt_runs *rs);
/* 1 if the file's first non-blank byte opens a JSON object: a report. */
int bt_runs_is_json(const char *path);
/* Read the metrics of the JSON report at path (schema report@1). */
int bt_runs_add_report(struct bt_runs *rs, enum bt_side side, const char *path, struct bt_err *err);
/* The metrics of an analysis done here. */
void bt_runs_add_result(struct bt_runs *rs, enum bt_side side, const char *path,
			const struct bt_result *res);
/* Value of metric id in run r, NaN if absent. */
double bt_runs_value(const struct bt_runs *rs, size_t r, size_t id);

#endif
