/*
 * The JSON report, the stable interface of DESIGN §8:
 * {schema, trace, metrics, tables, findings, diagnostics}.
 */
#include "jsonw.h"
#include "report.h"

static void trace(struct bt_jsonw *w, const struct bt_facts *f)
{
	bt_jsonw_key(w, "trace");
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "format");
	bt_jsonw_cstr(w, f->format);
	bt_jsonw_key(w, "version");
	bt_jsonw_int(w, f->version);
	bt_jsonw_key(w, "source");
	bt_jsonw_cstr(w, f->source);
	bt_jsonw_key(w, "pid");
	if (f->has_pid)
		bt_jsonw_int(w, f->pid);
	else
		bt_jsonw_null(w);
	bt_jsonw_key(w, "start_ns");
	bt_jsonw_int(w, f->start_ns);
	bt_jsonw_key(w, "end_ns");
	bt_jsonw_int(w, f->end_ns);
	bt_jsonw_key(w, "threads");
	bt_jsonw_int(w, f->threads);
	bt_jsonw_key(w, "samples");
	bt_jsonw_int(w, f->samples);
	bt_jsonw_key(w, "records");
	bt_jsonw_int(w, f->records);
	bt_jsonw_end_object(w);
}

static void value(struct bt_jsonw *w, struct bt_rows *r, int i)
{
	size_t len;
	const char *s;

	switch (bt_rows_type(r, i)) {
	case BT_ROWS_INT: bt_jsonw_int(w, bt_rows_int(r, i)); break;
	case BT_ROWS_REAL: bt_jsonw_real(w, bt_rows_real(r, i)); break;
	case BT_ROWS_NULL: bt_jsonw_null(w); break;
	default:
		s = bt_rows_text(r, i, &len);
		bt_jsonw_str(w, s, len);
	}
}

static int table(struct bt_jsonw *w, struct bt_db *db, const struct bt_report_table *t,
		 struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int i, n, rc = bt_report_table_open(db, t, &r, err);

	if (rc)
		return rc;
	n = bt_rows_ncols(r);
	bt_jsonw_key(w, t->name);
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "columns");
	bt_jsonw_begin_array(w);
	for (i = 0; i < n; i++)
		bt_jsonw_cstr(w, bt_rows_name(r, i));
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "rows");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1) {
		bt_jsonw_begin_array(w);
		for (i = 0; i < n; i++)
			value(w, r, i);
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_array(w);
	bt_jsonw_end_object(w);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int diagnostics(struct bt_jsonw *w, struct bt_db *db, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc = bt_rows_open(&r, db, BT_SQL_DIAGNOSTICS_ALL, err);

	if (rc)
		return rc;
	bt_jsonw_key(w, "diagnostics");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1) {
		bt_jsonw_begin_object(w);
		bt_jsonw_key(w, "code");
		value(w, r, 0);
		bt_jsonw_key(w, "count");
		value(w, r, 1);
		bt_jsonw_key(w, "detail");
		value(w, r, 2);
		bt_jsonw_end_object(w);
	}
	bt_jsonw_end_array(w);
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int write_json(struct bt_db *db, FILE *out, struct bt_err *err)
{
	struct bt_jsonw w;
	struct bt_facts f;
	int i, rc = bt_facts_load(db, &f, err);

	if (rc)
		return rc;
	bt_jsonw_init(&w, out, 1);
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "schema");
	bt_jsonw_cstr(&w, "btrace-analyze/report@1");
	trace(&w, &f);
	bt_facts_release(&f);
	bt_jsonw_key(&w, "metrics");
	bt_jsonw_begin_object(&w);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "tables");
	bt_jsonw_begin_object(&w);
	for (i = 0; i < bt_report_ntables && !rc; i++)
		rc = table(&w, db, &bt_report_tables[i], err);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "findings");
	bt_jsonw_begin_array(&w);
	bt_jsonw_end_array(&w);
	if (!rc)
		rc = diagnostics(&w, db, err);
	bt_jsonw_end_object(&w);
	return rc;
}

const struct bt_reporter bt_rep_json = { "json", ".json", write_json };
