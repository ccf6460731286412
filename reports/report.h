/*
 * What the outputs of an analysis share: the one writer signature every
 * report format and export has (struct bt_exporter; the table and the
 * run's outputs are reports/outputs/), the trace's facts and diagnostics
 * read through engine/db/rows.h, values formatted for people, and the
 * query command's row formats.
 */
#ifndef BT_REPORT_H
#define BT_REPORT_H

#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/base/err.h"
#include "engine/base/result.h"
#include "engine/db/rows.h"

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

/* Output formats of the query command. */
enum bt_rowfmt { BT_FMT_TABLE, BT_FMT_CSV, BT_FMT_TSV, BT_FMT_JSON };

int bt_rowfmt_parse(const char *name, enum bt_rowfmt *out, struct bt_err *err);
/* By --format name, else by path's extension (.txt table, .csv, .tsv,
 * .json), else (stdout, "-") a table; BT_EUSAGE for another extension. */
int bt_rowfmt_pick(const char *name, const char *path, enum bt_rowfmt *out, struct bt_err *err);

/* Print every row of r to out in format f. */
/* A table within width columns (0: no limit; as the report's tables fit). */
int bt_rep_rows_write(struct bt_rows *r, enum bt_rowfmt f, FILE *out, size_t width, struct bt_err *err);

/* Facts about the trace that head every report. Strings owned by f. */
struct bt_facts {
	char *format, *source, *mapping;
	char *partial;             /* why the input was cut short and salvaged; NULL: intact */
	char *no_names;            /* why frames and threads have no names (no mapping); NULL: named */
	char *no_threads;          /* why the thread tables are empty and where the data is; NULL: not so */
	char *process;             /* the process's name (meta process_name); NULL: unknown */
	int64_t version, pid, main_tid, records, samples, threads, start_ns, end_ns;
	int64_t slices;
	int imported;              /* the trace brought its slices (Perfetto): no samples */
	int has_pid;
	int cpu_time;              /* BT_CPU_*: the threads' CPU time known (meta cpu_unknown) */
	int no_alloc, no_faults, no_csw;   /* the trace records no allocations, page faults,
					    * context switches (meta no_*: the importer knows) */
	int64_t other_processes;   /* processes besides the app's whose threads' slices are here
				    * too, in every figure (a systrace's) */
	int no_waits, no_idle;     /* nor when threads waited or idled (meta no_*: the profile's
				    * store, for slices that came with the trace) */
	char *unrecorded;          /* what of these it does not record, for people ("CPU
				    * time, allocations"); NULL: all recorded */
};

enum { BT_CPU_KNOWN, BT_CPU_PARTIAL /* some threads' */, BT_CPU_UNKNOWN };

int bt_facts_load(struct bt_db *db, struct bt_facts *f, struct bt_err *err);
void bt_facts_release(struct bt_facts *f);

/* A diagnostic, as the report lists it. Strings owned. */
struct bt_diagrow {
	char *code, *detail;
	int64_t count;
};

int bt_diagrows_load(struct bt_db *db, struct bt_diagrow **out, size_t *n, struct bt_err *err);
void bt_diagrows_free(struct bt_diagrow *d, size_t n);

/* What every reporter shows besides the rules' results. */
struct bt_report_ctx {
	struct bt_facts facts;
	struct bt_diagrow *diag;
	size_t ndiag;
	const struct bt_metric **metrics;   /* sorted by name */
};

int bt_report_ctx_load(struct bt_db *db, const struct bt_result *res, struct bt_report_ctx *c,
		       struct bt_err *err);
void bt_report_ctx_release(struct bt_report_ctx *c);


/* Bytes as people read them, one convention for every output: binary
 * units, one decimal ("131.7 MiB", "512 B"). */
void bt_format_bytes(double v, struct bt_buf *b);
/* A value as people read it: ns as ms, bytes with binary units, percent. */
void bt_format_value(const struct bt_value *v, enum bt_unit u, struct bt_buf *b);
/* Text as people read it: a frame name in scope of names (the trace's
 * frames; NULL under --full-names) short, "FeedAdapter.bind", its leading
 * spaces (a call tree's depth) kept; any other text as it is, so every
 * text cell may go through it. Appended to b. */
void bt_format_name(const struct bt_namer *names, const char *s, struct bt_buf *b);
/* bt_format_value with its text through bt_format_name. */
void bt_format_cell(const struct bt_namer *names, const struct bt_value *v, enum bt_unit u,
		    struct bt_buf *b);
/* A column heading for people: "wall_ns" reads "wall ms". */
void bt_format_heading(const char *column, enum bt_unit u, struct bt_buf *b);

/* A duration on its own (not in a column): "387.5 ms", "12.35 s",
 * "5 min 31.6 s", "2 h 05 min". */
void bt_format_duration(double ns, struct bt_buf *b);
/* A timestamp as people read it: since the trace's start, "+306.0 ms";
 * raw boot-clock ns stay in JSON and SQL. */
int bt_rep_is_ts(const char *name);             /* "ts", "waker_ts": a timestamp's name */
void bt_format_at(int64_t ts, int64_t t0, struct bt_buf *b);

/* One unit for a column of ns, chosen by its largest value, so a column
 * reads "12.3 s" rather than "12345.6 ms": divide by div, head with unit. */
struct bt_ns_scale {
	double div;
	const char *unit;    /* "ms", "s", "min" */
};
struct bt_ns_scale bt_ns_scale_of(double max_abs_ns);

/* How a table's column reads in text and Markdown: timestamps since the
 * trace's start t0, durations in one scale for the column (by its first
 * rows' largest value). */
struct bt_col_fmt {
	int ts, ns;
	int64_t t0;
	struct bt_ns_scale scale;
};
void bt_col_fmt_of(const struct bt_rtable *t, int c, size_t rows, int64_t t0, struct bt_col_fmt *k);
/* "ts" -> "at ms", "waker_ts" -> "waker_at ms", "wall_ns" -> "wall s". */
void bt_col_heading(const struct bt_rtable *t, int c, const struct bt_col_fmt *k, struct bt_buf *b);
void bt_col_cell(const struct bt_namer *names, const struct bt_value *v, const struct bt_col_fmt *k,
		 enum bt_unit u, struct bt_buf *b);
/* A finding's value as people read it: durations in ms, s or min,
 * timestamps ("ts", "waker_ts") since the trace's start t0, method names
 * short by names. */
void bt_format_evidence(const char *key, const struct bt_value *v, int64_t t0, const struct bt_namer *names,
			struct bt_buf *b);
/* How a measure the trace does not give (NULL: its CPU time) reads in
 * text, Markdown, HTML and xlsx cells; JSON has null. */
#define BT_UNKNOWN "\xe2\x80\x94"   /* an em dash */

/* 0, or no value. */
int bt_rep_value_zero(const struct bt_value *v);
/* Row r's every measure (a cell whose column has a unit) is 0: it says
 * nothing, and text and Markdown leave it out. */
int bt_row_zero(const struct bt_rtable *t, size_t r);

/* Rows a text or Markdown table shows; JSON has them all. */
#define BT_REPORT_ROWS 30

#endif
