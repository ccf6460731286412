/*
 * The JSON report, the stable interface of DESIGN §8:
 * {schema, trace, summary, metrics, tables, findings, diagnostics}; the
 * summary is the trace's mergeable one (engine/fleet/README.md). Metrics are
 * sorted by name; tables keep the order rules emitted them in, with a
 * title and each column's unit besides the contract's columns and rows.
 * reports/json/report.schema.json describes it.
 */
#include "engine/base/jsonw.h"
#include "engine/fleet/summary.h"
#include "reports/report.h"

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
	bt_jsonw_int_or_null(w, f->has_pid, f->pid);
	bt_jsonw_key(w, "main_tid");
	bt_jsonw_int_or_null(w, f->main_tid >= 0, f->main_tid);
	if (f->other_processes) {
		bt_jsonw_key(w, "other_processes");
		bt_jsonw_int(w, f->other_processes);
	}
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
	if (f->partial) {
		bt_jsonw_key(w, "partial");
		bt_jsonw_cstr(w, f->partial);
	}
	if (f->no_names) {
		bt_jsonw_key(w, "no_names");
		bt_jsonw_cstr(w, f->no_names);
	}
	if (f->no_threads) {
		bt_jsonw_key(w, "no_threads");
		bt_jsonw_cstr(w, f->no_threads);
	}
	if (f->cpu_time) {
		bt_jsonw_key(w, "cpu_time");
		bt_jsonw_cstr(w, f->cpu_time == BT_CPU_PARTIAL ? "partial" : "unknown");
	}
	if (f->no_alloc || f->no_faults || f->no_csw || f->no_waits || f->no_idle) {
		bt_jsonw_key(w, "not_recorded");
		bt_jsonw_begin_array(w);
		if (f->no_alloc)
			bt_jsonw_cstr(w, "allocations");
		if (f->no_faults)
			bt_jsonw_cstr(w, "page_faults");
		if (f->no_csw)
			bt_jsonw_cstr(w, "context_switches");
		if (f->no_waits)
			bt_jsonw_cstr(w, "waits");
		if (f->no_idle)
			bt_jsonw_cstr(w, "idle");
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_object(w);
}

static void value(struct bt_jsonw *w, const struct bt_value *v)
{
	switch (v->type) {
	case BT_V_INT: bt_jsonw_int(w, v->u.i); break;
	case BT_V_REAL: bt_jsonw_real(w, v->u.d); break;
	case BT_V_TEXT: bt_jsonw_cstr(w, v->u.s); break;
	case BT_V_JSON: bt_jsonw_raw(w, v->u.s); break;
	default: bt_jsonw_null(w);
	}
}

static void metrics(struct bt_jsonw *w, const struct bt_result *res, const struct bt_metric *const *m)
{
	size_t i;

	bt_jsonw_key(w, "metrics");
	bt_jsonw_begin_object(w);
	for (i = 0; i < res->nmetrics; i++) {
		bt_jsonw_key(w, m[i]->name);
		value(w, &m[i]->v);
	}
	bt_jsonw_end_object(w);
}

static void table(struct bt_jsonw *w, const struct bt_rtable *t)
{
	size_t r;
	int c;

	bt_jsonw_key(w, t->name);
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "title");
	bt_jsonw_cstr(w, t->title);
	bt_jsonw_key(w, "columns");
	bt_jsonw_begin_array(w);
	for (c = 0; c < t->ncols; c++)
		bt_jsonw_cstr(w, t->columns[c]);
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "units");
	bt_jsonw_begin_array(w);
	for (c = 0; c < t->ncols; c++)
		bt_jsonw_cstr(w, bt_unit_name(t->units[c]));
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "rows");
	bt_jsonw_begin_array(w);
	for (r = 0; r < t->nrows; r++) {
		bt_jsonw_begin_array(w);
		for (c = 0; c < t->ncols; c++)
			value(w, &t->cells[r * (size_t)t->ncols + c]);
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_array(w);
	bt_jsonw_end_object(w);
}

static void finding(struct bt_jsonw *w, const struct bt_finding *f)
{
	int k;

	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "rule");
	bt_jsonw_cstr(w, f->rule);
	bt_jsonw_key(w, "severity");
	bt_jsonw_cstr(w, bt_severity_name[f->severity]);
	bt_jsonw_key(w, "message");
	bt_jsonw_cstr(w, f->message);
	bt_jsonw_key(w, "tid");
	bt_jsonw_int_or_null(w, f->has_tid, f->tid);
	bt_jsonw_key(w, "ts");
	bt_jsonw_int_or_null(w, f->has_ts, f->ts);
	bt_jsonw_key(w, "dur");
	bt_jsonw_int_or_null(w, f->has_dur, f->dur);
	bt_jsonw_key(w, "evidence");
	bt_jsonw_begin_object(w);
	for (k = 0; k < f->nev; k++) {
		bt_jsonw_key(w, f->ev[k].key);
		value(w, &f->ev[k].v);
	}
	bt_jsonw_end_object(w);
	bt_jsonw_end_object(w);
}

static int write_json(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	struct bt_db *db = x->db;
	const struct bt_result *res = x->res;
	struct bt_jsonw w;
	struct bt_report_ctx c;
	struct bt_summary sum;
	size_t i;

	if (bt_report_ctx_load(db, res, &c, err))
		return err->code;
	if (bt_summary_load(db, &sum, err)) {
		bt_report_ctx_release(&c);
		return err->code;
	}
	bt_jsonw_init(&w, out, 1);
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "schema");
	bt_jsonw_cstr(&w, "btrace-analyze/report@1");
	trace(&w, &c.facts);
	bt_jsonw_key(&w, "summary");
	bt_summary_write(&w, &sum);
	bt_summary_release(&sum);
	metrics(&w, res, c.metrics);
	bt_jsonw_key(&w, "tables");
	bt_jsonw_begin_object(&w);
	for (i = 0; i < res->ntables; i++)
		table(&w, &res->tables[i]);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "findings");
	bt_jsonw_begin_array(&w);
	for (i = 0; i < res->nfindings; i++)
		finding(&w, &res->findings[i]);
	bt_jsonw_end_array(&w);
	bt_jsonw_key(&w, "diagnostics");
	bt_jsonw_begin_array(&w);
	for (i = 0; i < c.ndiag; i++) {
		bt_jsonw_begin_object(&w);
		bt_jsonw_key(&w, "code");
		bt_jsonw_cstr(&w, c.diag[i].code);
		bt_jsonw_key(&w, "count");
		bt_jsonw_int(&w, c.diag[i].count);
		bt_jsonw_key(&w, "detail");
		bt_jsonw_cstr(&w, c.diag[i].detail);
		bt_jsonw_end_object(&w);
	}
	bt_jsonw_end_array(&w);
	bt_jsonw_end_object(&w);
	bt_report_ctx_release(&c);
	return BT_OK;
}

const struct bt_exporter bt_rep_json = { "json", ".json", BT_NEED_RESULT, write_json };
