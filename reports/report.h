/*
 * Reporters: one file per output format behind struct bt_reporter. They
 * render what the rules emitted (result.h) with the trace's facts and
 * diagnostics, read through engine/rows.h.
 */
#ifndef BT_REPORT_H
#define BT_REPORT_H

#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/base/err.h"
#include "engine/base/result.h"
#include "engine/db/rows.h"

struct bt_reporter {
	const char *name;   /* --format value */
	const char *ext;    /* -o extension that selects it */
	int (*write)(struct bt_db *db, const struct bt_result *res, FILE *out, struct bt_err *err);
};

/* Reporter for --format name, else for path's extension, else text. */
int bt_report_pick(const char *format, const char *path, const struct bt_reporter **out,
		   struct bt_err *err);

extern const struct bt_reporter bt_rep_text, bt_rep_json, bt_rep_md, bt_rep_html, bt_rep_xlsx;

/* Output formats of the query command. */
enum bt_rows_format { BT_FMT_TABLE, BT_FMT_CSV, BT_FMT_TSV, BT_FMT_JSON };

int bt_rows_format_parse(const char *name, enum bt_rows_format *out, struct bt_err *err);

/* Print every row of r to out in format f. */
int bt_rep_rows_write(struct bt_rows *r, enum bt_rows_format f, FILE *out, struct bt_err *err);

/* Facts about the trace that head every report. Strings owned by f. */
struct bt_facts {
	char *format, *source, *mapping;
	int64_t version, pid, main_tid, records, samples, threads, start_ns, end_ns;
	int64_t slices;
	int imported;              /* the trace brought its slices (Perfetto): no samples */
	int has_pid;
};

int bt_facts_load(struct bt_db *db, struct bt_facts *f, struct bt_err *err);
void bt_facts_release(struct bt_facts *f);

/* A diagnostic, as the report lists it. Strings owned. */
struct bt_diag_row {
	char *code, *detail;
	int64_t count;
};

int bt_diag_rows_load(struct bt_db *db, struct bt_diag_row **out, size_t *n, struct bt_err *err);
void bt_diag_rows_free(struct bt_diag_row *d, size_t n);

/* What every reporter shows besides the rules' results. */
struct bt_report_ctx {
	struct bt_facts facts;
	struct bt_diag_row *diag;
	size_t ndiag;
	const struct bt_metric **metrics;   /* sorted by name */
};

int bt_report_ctx_load(struct bt_db *db, const struct bt_result *res, struct bt_report_ctx *c,
		       struct bt_err *err);
void bt_report_ctx_release(struct bt_report_ctx *c);

/* Every frame's name by frame id, for exporters that meet ids by the
 * million: (*names)[id], NULL where no frame has the id, for id < *n.
 * Free with bt_frame_names_free. */
int bt_frame_names_load(struct bt_db *db, char ***names, size_t *n, struct bt_err *err);
void bt_frame_names_free(char **names, size_t n);

/* A value as people read it: ns as ms, bytes with binary units, percent. */
void bt_format_value(const struct bt_value *v, enum bt_unit u, struct bt_buf *b);
/* A column heading for people: "wall_ns" reads "wall ms". */
void bt_format_heading(const char *column, enum bt_unit u, struct bt_buf *b);

/* Text as Markdown table-cell content: escaped, on one line. */
void bt_md_put(FILE *out, const char *s);

/* Rows a text or Markdown table shows; JSON has them all. */
#define BT_REPORT_ROWS 30

#endif
