/*
 * Choosing a reporter from --format or the output file's extension.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "report.h"

static const struct bt_reporter *const reporters[] = { &bt_rep_text, &bt_rep_json };

#define N_REPORTERS (sizeof reporters / sizeof reporters[0])

int bt_report_pick(const char *format, const char *path, const struct bt_reporter **out,
		   struct bt_err *err)
{
	const char *ext = path ? strrchr(path, '.') : NULL;
	size_t i;

	*out = &bt_rep_text;
	for (i = 0; i < N_REPORTERS; i++) {
		if (format ? !strcmp(format, reporters[i]->name) :
		    ext && !strcmp(ext, reporters[i]->ext)) {
			*out = reporters[i];
			return BT_OK;
		}
	}
	if (format)
		return bt_err_set(err, BT_EUSAGE, "unknown report format '%s' (known: text, json)", format);
	return BT_OK;
}

const struct bt_report_table bt_report_tables[] = {
	{ "threads", "Threads", BT_SQL_THREAD_SUMMARY, 0 },
	{ "sample_types", "Records by type", BT_SQL_SAMPLE_TYPES, 0 },
	{ "top_leaf_frames", "Top leaf frames (samples)", BT_SQL_TOP_LEAF_FRAMES, 20 },
	{ "diagnostics", "Diagnostics", BT_SQL_DIAGNOSTICS_ALL, 0 },
};

const int bt_report_ntables = sizeof bt_report_tables / sizeof bt_report_tables[0];

int bt_report_table_open(struct bt_db *db, const struct bt_report_table *t, struct bt_rows **out,
			 struct bt_err *err)
{
	int rc = bt_rows_open(out, db, t->id, err);

	if (!rc && t->limit > 0)
		bt_rows_bind_int(*out, 1, t->limit);
	return rc;
}

static void meta_row(struct bt_facts *f, struct bt_rows *r)
{
	const char *k = bt_rows_text(r, 0, NULL), *v = bt_rows_text(r, 1, NULL);
	int64_t n = bt_rows_int(r, 1);

	if (!k)
		return;
	if (!strcmp(k, "format"))
		f->format = bt_xstrdup(v ? v : "");
	else if (!strcmp(k, "source"))
		f->source = bt_xstrdup(v ? v : "");
	else if (!strcmp(k, "mapping") && v)
		f->mapping = bt_xstrdup(v);
	else if (!strcmp(k, "version"))
		f->version = n;
	else if (!strcmp(k, "main_tid"))
		f->main_tid = n;
	else if (!strcmp(k, "records"))
		f->records = n;
	if (!strcmp(k, "pid")) {
		f->pid = n;
		f->has_pid = 1;
	}
}

int bt_facts_load(struct bt_db *db, struct bt_facts *f, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	memset(f, 0, sizeof *f);
	f->main_tid = -1;
	if (bt_rows_open(&r, db, BT_SQL_META_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1)
		meta_row(f, r);
	bt_rows_close(r);
	if (rc < 0 || bt_rows_open(&r, db, BT_SQL_TRACE_SPAN, err))
		return err->code;
	if ((rc = bt_rows_next(r, err)) == 1) {
		f->samples = bt_rows_int(r, 0);
		f->threads = bt_rows_int(r, 1);
		f->start_ns = bt_rows_int(r, 2);
		f->end_ns = bt_rows_int(r, 3);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

void bt_facts_release(struct bt_facts *f)
{
	free(f->format);
	free(f->source);
	free(f->mapping);
	memset(f, 0, sizeof *f);
}
