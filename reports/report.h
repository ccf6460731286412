/*
 * Reporters: one file per output format behind struct bt_reporter. They
 * only format rows read through engine/rows.h.
 */
#ifndef BT_REPORT_H
#define BT_REPORT_H

#include <stdio.h>

#include "db.h"
#include "err.h"
#include "rows.h"

struct bt_reporter {
	const char *name;   /* --format value */
	const char *ext;    /* -o extension that selects it */
	int (*write)(struct bt_db *db, FILE *out, struct bt_err *err);
};

/* Reporter for --format name, else for path's extension, else text. */
int bt_report_pick(const char *format, const char *path, const struct bt_reporter **out,
		   struct bt_err *err);

extern const struct bt_reporter bt_rep_text, bt_rep_json;

/* Output formats of the query command. */
enum bt_rows_format { BT_FMT_TABLE, BT_FMT_CSV, BT_FMT_TSV, BT_FMT_JSON };

int bt_rows_format_parse(const char *name, enum bt_rows_format *out, struct bt_err *err);

/* Print every row of r to out in format f. */
int bt_rep_rows_write(struct bt_rows *r, enum bt_rows_format f, FILE *out, struct bt_err *err);

#endif

/* Facts about the trace that head every report. Strings owned by f. */
struct bt_facts {
	char *format, *source, *mapping;
	int64_t version, pid, main_tid, records, samples, threads, start_ns, end_ns;
	int has_pid;
};

int bt_facts_load(struct bt_db *db, struct bt_facts *f, struct bt_err *err);
void bt_facts_release(struct bt_facts *f);

/* The tables every report shows until rules provide their own. */
struct bt_report_table {
	const char *name;      /* stable key in the JSON report */
	const char *title;     /* heading in text reports */
	enum bt_sql_id id;
	int limit;             /* bound to ?1 when > 0 */
};

extern const struct bt_report_table bt_report_tables[];
extern const int bt_report_ntables;

/* Open a cursor on one of bt_report_tables. */
int bt_report_table_open(struct bt_db *db, const struct bt_report_table *t, struct bt_rows **out,
			 struct bt_err *err);
