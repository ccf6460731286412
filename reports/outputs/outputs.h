/*
 * The outputs of an analysis behind one table: the report formats (-o,
 * --format) and the exports (--perfetto, --pprof, --folded,
 * --speedscope), each a
 * struct bt_exporter (reports/report.h). What an output needs from the
 * slices it gets from taps on the run that builds the profile; the
 * exports that need no rules' result are written on a helper thread while
 * the rules run; and every output is committed only when all of them
 * succeeded (DESIGN §3). A new format adds its exporter to the table in
 * outputs.c (a report format) or an option on the command line (an export).
 */
#ifndef BT_OUTPUTS_H
#define BT_OUTPUTS_H

#include "engine/base/err.h"
#include "engine/base/result.h"
#include "engine/db/db.h"
#include "engine/profile/tap.h"
#include "reports/report.h"

extern const struct bt_exporter bt_rep_text, bt_rep_json, bt_rep_md, bt_rep_html, bt_rep_xlsx;
extern const struct bt_exporter bt_exp_perfetto, bt_exp_pprof, bt_exp_folded, bt_exp_speedscope;

/* The report format for --format name, else for path's extension, else
 * text. BT_EUSAGE for an unknown name. */
int bt_report_pick(const char *format, const char *path, const struct bt_exporter **out,
		   struct bt_err *err);

struct bt_outputs;

/* folded_metric: enum bt_folded_metric; show_idle: --idle (struct bt_export) */
struct bt_outputs *bt_outputs_new(int folded_metric, int show_idle);
/* --width: text tables within cols columns (0: the terminal's, if any). */
void bt_outputs_width(struct bt_outputs *o, int cols);
/* --full-names: no short names (before bt_outputs_start). */
void bt_outputs_full_names(struct bt_outputs *o, int full);
/* The short names of the trace's methods, made by bt_outputs_start from
 * its frames (NULL before, or with full names): the rules' bt.short reads
 * the same names as the reports. */
struct bt_namer *bt_outputs_namer(const struct bt_outputs *o);
/* Show each writer's progress through fn (on its thread), with the
 * output's path ("stdout" for stdout); before bt_outputs_start. */
void bt_outputs_progress(struct bt_outputs *o,
			 void (*fn)(void *ctx, const char *path, uint64_t done, uint64_t total), void *ctx);
/* Add an output of x to path (NULL or "-": stdout), in the order their
 * errors should be found in. */
void bt_outputs_add(struct bt_outputs *o, const struct bt_exporter *x, const char *path);
/* Before the run: BT_EUSAGE if an output's path cannot be one (a
 * directory, a socket; see bt_out_target), so the run is not wasted. */
int bt_outputs_check(const struct bt_outputs *o, struct bt_err *err);
/* The taps the run must feed for the outputs' needs; valid until
 * bt_outputs_free. Their ready (tap.h) is bt_outputs_start. */
const struct bt_taps *bt_outputs_taps(struct bt_outputs *o);
/* Once the run is ready, before the rules: open every output, read what
 * they need from db, and start writing the exports that need no result
 * (on threads that do not touch db). Once: later calls do nothing. */
int bt_outputs_start(struct bt_outputs *o, struct bt_db *db, struct bt_err *err);
/* After the rules: write the rest, wait for the exports, and commit every
 * output if all succeeded (else none is). */
int bt_outputs_finish(struct bt_outputs *o, struct bt_db *db, const struct bt_result *res,
		      struct bt_err *err);
/* After a finish that succeeded: "btrace-analyze: wrote PATH (SIZE)" for
 * each file written (not stdout), so an export says what it made. */
/* "wrote PATH (SIZE)" for a regular file written (not stdout, a FIFO or a device). */
void bt_outputs_tell_file(FILE *to, const char *path);
void bt_outputs_tell(const struct bt_outputs *o, FILE *to);
/* Free o; uncommitted outputs are removed. Waits for the helper thread. */
void bt_outputs_free(struct bt_outputs *o);

#endif
