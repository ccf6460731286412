/*
 * Compare's outputs: text for terminals, Markdown for pull-request
 * comments, JSON for machines (reports/compare.schema.json). Text and
 * Markdown share their cells (cmp_cells.c) and differ only in layout.
 */
#ifndef BT_CMP_REPORT_H
#define BT_CMP_REPORT_H

#include <stdio.h>

#include "engine/compare/calibrate.h"
#include "engine/compare/compare.h"

/* A fleet comparison's sides (compare DIR_A DIR_B): reports read, and
 * those left out, per side (0 base, 1 head). */
struct bt_cmprep_fleet {
	int summaries;        /* two fleet summaries: reports[] are their traces */
	size_t reports[2];
	size_t nostart[2];    /* reports of traces without an app start */
	size_t other[2];      /* .json files that are no report (a manifest) */
};

struct bt_cmprep_view {
	const struct bt_compare *c;
	const struct bt_cmprep_fleet *fleet;   /* NULL: not folders of reports */
	const char *const *globs;   /* --metric (or a fleet's defaults), for the policy line */
	int nglobs;
	int top;                    /* diff rows per list in text and Markdown */
	int fail_inconclusive;
	size_t width;               /* text: lines within this many columns (0: no limit) */
	int brief;                  /* text: the headline, the table and the causes only (a
				     * terminal without -v); the details are in files */
};

struct bt_cmprep_reporter {
	const char *name, *ext;
	int (*write)(const struct bt_cmprep_view *v, FILE *out, struct bt_err *err);
};

extern const struct bt_cmprep_reporter bt_cmprep_text, bt_cmprep_md, bt_cmprep_json, bt_cmprep_xlsx, bt_cmprep_html;

/* compare --calibrate's output: JSON when path ends in .json, else text. */
int bt_cmprep_calibration_write(const struct bt_calibration *cal, const char *path, FILE *out,
			     struct bt_err *err);

/* By --format name, else by path's extension, else text. */
int bt_cmprep_report_pick(const char *format, const char *path, const struct bt_cmprep_reporter **out,
		       struct bt_err *err);

/* ---- cells shared by text and Markdown (cmp_cells.c) ---- */

enum { BT_CMP_MCOLS = 8, BT_CMP_DCOLS = 8, BT_CMP_SCOLS = 7, BT_CMP_KCOLS = 5,
       BT_CMP_CELLS = 8 /* the largest */ };
extern const char *const bt_cmprep_mhead[BT_CMP_MCOLS];
extern const char *const bt_cmprep_dhead[BT_CMP_DCOLS];
extern const char *const bt_cmprep_shead[BT_CMP_SCOLS];   /* the compact table */
extern const char *const bt_cmprep_khead[BT_CMP_KCOLS];   /* a metric's causes */

/* Rows of the compact table: the gated metrics that moved, then the
 * gated metrics of the startup window and the main thread that did not
 * (what a reviewer looks for first), at most max of them; the others are
 * in the details. Fills at[] (indices into c->m) and returns how many;
 * *more gets how many moved gated metrics were left out. */
size_t bt_cmprep_summary_rows(const struct bt_compare *c, size_t *at, size_t max, size_t *more);
/* One compact row, benchstat's way: "~" for a change that is not a
 * regression or an improvement. */
void bt_cmprep_summary_cells(const struct bt_compare *c, const struct bt_cmp_metric *m,
			  struct bt_buf cell[BT_CMP_SCOLS]);
/* "Causes of startup main-thread CPU +12.6 ms:" */
void bt_cmprep_causes_title(const struct bt_cmp_metric *m, struct bt_buf *b);
void bt_cmprep_cause_cells(const struct bt_compare *c, const struct bt_cmp_cause *k,
			struct bt_buf cell[BT_CMP_KCOLS]);

/* Init (1) or release (0) the BT_CMP_CELLS buffers of a row. */
void bt_cmprep_cells(struct bt_buf *cell, int init);
/* The headline: the compare's (headline.c). */
void bt_cmprep_headline(const struct bt_compare *c, struct bt_buf *b);
/* Runs, thresholds and tests in one paragraph. */
void bt_cmprep_policy(const struct bt_cmprep_view *v, struct bt_buf *b);
/* One metric's cells; cell[i] is reset first. */
void bt_cmprep_metric_cells(const struct bt_cmp_metric *m, struct bt_buf cell[BT_CMP_MCOLS]);
/* One diff row's cells, in unit u. */
void bt_cmprep_change_cells(const struct bt_cmp_change *r, enum bt_unit u, struct bt_buf cell[BT_CMP_DCOLS]);
/* What the diff rows' markers mean, a line of its own. */
extern const char bt_cmprep_legend[];
/* The title of a diff list and the unit of its values. */
const char *bt_cmprep_list_title(int measure, enum bt_unit *u);   /* -1: blocking */

#endif
