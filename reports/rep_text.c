/*
 * The text report: trace facts, then each report table as an aligned
 * table, readable in a terminal.
 */
#include "report.h"

static void facts(FILE *out, const struct bt_facts *f)
{
	fprintf(out, "trace     %s (%s v%lld)\n", f->source ? f->source : "?",
		f->format ? f->format : "?", (long long)f->version);
	if (f->mapping)
		fprintf(out, "mapping   %s\n", f->mapping);
	if (f->has_pid)
		fprintf(out, "process   pid %lld, main thread tid %lld\n", (long long)f->pid,
			(long long)f->main_tid);
	else
		fprintf(out, "process   pid unknown\n");
	fprintf(out, "samples   %lld of %lld records, %lld threads\n", (long long)f->samples,
		(long long)f->records, (long long)f->threads);
	fprintf(out, "span      %.3f ms (%lld .. %lld ns)\n", (double)(f->end_ns - f->start_ns) / 1e6,
		(long long)f->start_ns, (long long)f->end_ns);
}

static int write_text(struct bt_db *db, FILE *out, struct bt_err *err)
{
	struct bt_facts f;
	int i, rc = bt_facts_load(db, &f, err);

	if (rc)
		return rc;
	facts(out, &f);
	bt_facts_release(&f);
	for (i = 0; i < bt_report_ntables && !rc; i++) {
		struct bt_rows *r = NULL;
		fprintf(out, "\n%s\n\n", bt_report_tables[i].title);
		rc = bt_report_table_open(db, &bt_report_tables[i], &r, err);
		if (!rc)
			rc = bt_rep_rows_write(r, BT_FMT_TABLE, out, err);
		bt_rows_close(r);
	}
	return rc;
}

const struct bt_reporter bt_rep_text = { "text", ".txt", write_text };
