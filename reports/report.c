/*
 * What every report format shares: the trace's facts, its diagnostics,
 * and values formatted for people.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/names.h"
#include "reports/report.h"

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
	else if (!strcmp(k, "partial_reason") && v)
		f->partial = bt_xstrdup(v);
	else if (!strcmp(k, "no_names") && v)
		f->no_names = bt_xstrdup(v);
	else if (!strcmp(k, "no_threads") && v)
		f->no_threads = bt_xstrdup(v);
	else if (!strcmp(k, "mapping") && v)
		f->mapping = bt_xstrdup(v);
	else if (!strcmp(k, "process_name") && v)
		f->process = bt_xstrdup(v);
	else if (!strcmp(k, "version"))
		f->version = n;
	else if (!strcmp(k, "main_tid"))
		f->main_tid = n;
	else if (!strcmp(k, "records"))
		f->records = n;
	else if (!strcmp(k, "samples"))
		f->samples = n;
	else if (!strcmp(k, "sampled_threads"))
		f->threads = n;
	else if (!strcmp(k, "first_ts"))
		f->start_ns = n;
	else if (!strcmp(k, "last_ts"))
		f->end_ns = n;
	else if (!strcmp(k, "slices"))
		f->slices = n;
	else if (!strcmp(k, "slice_policy"))
		f->imported = v && !strcmp(v, "imported");
	else if (!strcmp(k, "cpu_unknown") && v)
		f->cpu_time = !strcmp(v, "all") ? BT_CPU_UNKNOWN : !strcmp(v, "some") ? BT_CPU_PARTIAL : 0;
	else if (!strcmp(k, "no_alloc"))
		f->no_alloc = n != 0;
	else if (!strcmp(k, "no_faults"))
		f->no_faults = n != 0;
	else if (!strcmp(k, "no_csw"))
		f->no_csw = n != 0;
	else if (!strcmp(k, "other_processes"))
		f->other_processes = n;
	else if (!strcmp(k, "no_waits"))
		f->no_waits = n != 0;
	else if (!strcmp(k, "no_idle"))
		f->no_idle = n != 0;
	if (!strcmp(k, "pid")) {
		f->pid = n;
		f->has_pid = 1;
	}
}

/* What the trace does not record, said once in every report's header. */
static void unrecorded(struct bt_facts *f)
{
	struct bt_buf b = BT_BUF_INIT;
	const char *part[6];
	int n = 0, i;

	if (f->cpu_time)
		part[n++] = f->cpu_time == BT_CPU_PARTIAL ? "CPU time of some threads" : "CPU time";
	if (f->no_alloc)
		part[n++] = "allocations";
	if (f->no_faults)
		part[n++] = "page faults";
	if (f->no_csw)
		part[n++] = "context switches";
	if (f->no_waits)
		part[n++] = "waits (blocked time)";
	if (f->no_idle)
		part[n++] = "idle time";
	for (i = 0; i < n; i++)
		bt_buf_addf(&b, "%s%s", i ? ", " : "", part[i]);
	if (n)
		f->unrecorded = bt_buf_detach(&b, NULL);
}

int bt_facts_load(struct bt_db *db, struct bt_facts *f, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	memset(f, 0, sizeof *f);
	f->main_tid = -1;
	f->threads = -1;
	if (bt_rows_open(&r, db, BT_SQL_META_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1)
		meta_row(f, r);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	unrecorded(f);
	if (f->threads >= 0)   /* the import noted the span; else scan the samples */
		return BT_OK;
	if (bt_rows_open(&r, db, BT_SQL_TRACE_SPAN, err))
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
	free(f->partial);
	free(f->no_names);
	free(f->no_threads);
	free(f->process);
	free(f->unrecorded);
	memset(f, 0, sizeof *f);
}

#define GROUP_SHOWN 6   /* kinds a grouped diagnostic names */

static int by_count_desc(const void *a, const void *b)
{
	const struct bt_diagrow *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->code, y->code);
}

/* "1,234,567" */
static void add_grouped(struct bt_buf *b, int64_t n)
{
	char d[24];
	int len = snprintf(d, sizeof d, "%lld", (long long)n), i;

	for (i = 0; i < len; i++) {
		if (i && d[i - 1] != '-' && (len - i) % 3 == 0)
			bt_buf_addc(b, ',');
		bt_buf_addc(b, d[i]);
	}
}

/*
 * Diagnostics counted per kind ("CODE:KIND", the kind's label as detail,
 * e.g. perfetto_not_imported:perf_sample) read as one line per CODE,
 * most first: "355 perf_sample packets, 88 irq_handler_entry events ...".
 * The table keeps every kind; a report would drown in them.
 */
static void group_kinds(struct bt_diagrow *d, size_t *n)
{
	size_t i, j, k, m, out = 0;

	for (i = 0; i < *n; i++) {
		const char *colon = strchr(d[i].code, ':');
		size_t plen = colon ? (size_t)(colon - d[i].code) : 0;
		struct bt_buf b = BT_BUF_INIT;
		int64_t total = 0;
		if (!colon) {
			d[out++] = d[i];
			continue;
		}
		for (j = i, m = i; j < *n; j++)   /* its kinds, moved to d[i..m) */
			if (!strncmp(d[j].code, d[i].code, plen + 1)) {
				struct bt_diagrow t = d[m];
				d[m++] = d[j];
				d[j] = t;
			}
		qsort(d + i, m - i, sizeof *d, by_count_desc);
		for (k = i; k < m; k++) {
			total += d[k].count;
			if (k - i < GROUP_SHOWN) {
				bt_buf_adds(&b, k > i ? ", " : "");
				add_grouped(&b, d[k].count);
				bt_buf_addf(&b, " %s", d[k].detail);
			}
			if (k > i) {
				free(d[k].code);
				free(d[k].detail);
			}
		}
		if (m - i > GROUP_SHOWN)
			bt_buf_addf(&b, " and %zu more kinds (the diagnostics table has each)", m - i - GROUP_SHOWN);
		d[i].code[plen] = '\0';
		free(d[i].detail);
		d[i].detail = bt_buf_detach(&b, NULL);
		d[i].count = total;
		d[out++] = d[i];
		i = m - 1;
	}
	*n = out;
}

int bt_diagrows_load(struct bt_db *db, struct bt_diagrow **out, size_t *n, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (bt_rows_open(&r, db, BT_SQL_DIAGNOSTICS_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *code = bt_rows_text(r, 0, NULL), *detail = bt_rows_text(r, 2, NULL);
		BT_GROW(*out, *n + 1, cap);
		(*out)[*n].code = bt_xstrdup(code ? code : "");
		(*out)[*n].count = bt_rows_int(r, 1);
		(*out)[(*n)++].detail = bt_xstrdup(detail ? detail : "");
	}
	bt_rows_close(r);
	if (rc >= 0)
		group_kinds(*out, n);
	return rc < 0 ? err->code : BT_OK;
}

void bt_diagrows_free(struct bt_diagrow *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(d[i].code);
		free(d[i].detail);
	}
	free(d);
}

void bt_format_bytes(double v, struct bt_buf *b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while ((v >= 1024 || v <= -1024) && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		bt_buf_addf(b, "%.0f B", v);
	else
		bt_buf_addf(b, "%.1f %s", v, units[u]);
}

void bt_format_value(const struct bt_value *v, enum bt_unit u, struct bt_buf *b)
{
	double d;

	switch (v->type) {
	case BT_V_NULL:
		return;
	case BT_V_TEXT:
	case BT_V_JSON:
		bt_buf_adds(b, v->u.s);
		return;
	default:
		break;
	}
	d = v->type == BT_V_INT ? (double)v->u.i : v->u.d;
	switch (u) {
	case BT_UNIT_NS:
		bt_buf_addf(b, "%.1f", d / 1e6);
		return;
	case BT_UNIT_BYTES:
		bt_format_bytes(d, b);
		return;
	case BT_UNIT_PCT:
		bt_buf_addf(b, "%.1f%%", d);
		return;
	default:
		if (v->type == BT_V_INT)
			bt_buf_addf(b, "%lld", (long long)v->u.i);
		else
			bt_buf_addf(b, "%.4g", d);
	}
}

void bt_format_name(const struct bt_namer *names, const char *s, struct bt_buf *b)
{
	size_t indent = strspn(s, " ");

	bt_buf_add(b, s, indent);
	bt_buf_adds(b, bt_namer_get(names, s + indent));
}

void bt_format_cell(const struct bt_namer *names, const struct bt_value *v, enum bt_unit u,
		    struct bt_buf *b)
{
	if (v->type == BT_V_TEXT)
		bt_format_name(names, v->u.s, b);
	else
		bt_format_value(v, u, b);
}

void bt_format_heading(const char *column, enum bt_unit u, struct bt_buf *b)
{
	size_t n = strlen(column);

	if (u == BT_UNIT_NS && n > 3 && !strcmp(column + n - 3, "_ns")) {
		bt_buf_add(b, column, n - 3);
		bt_buf_adds(b, " ms");
	} else if (u == BT_UNIT_NS) {
		bt_buf_adds(b, column);
		bt_buf_adds(b, " ms");
	} else if (u == BT_UNIT_PCT && n > 4 && !strcmp(column + n - 4, "_pct")) {
		bt_buf_add(b, column, n - 4);
		bt_buf_adds(b, " %");
	} else {
		bt_buf_adds(b, column);
	}
}

void bt_format_duration(double ns, struct bt_buf *b)
{
	double a = ns < 0 ? -ns : ns;
	const char *sign = ns < 0 ? "-" : "";

	if (a < 1e9)
		bt_buf_addf(b, "%.1f ms", ns / 1e6);
	else if (a < 60e9)
		bt_buf_addf(b, "%.2f s", ns / 1e9);
	else if (a < 3600e9)
		bt_buf_addf(b, "%s%d min %.1f s", sign, (int)(a / 60e9), (a - 60e9 * (int)(a / 60e9)) / 1e9);
	else
		bt_buf_addf(b, "%s%d h %02d min", sign, (int)(a / 3600e9),
			    (int)((a - 3600e9 * (int)(a / 3600e9)) / 60e9));
}

int bt_rep_is_ts(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "ts") || (n > 3 && (!strcmp(name + n - 3, "_ts") || !strcmp(name + n - 3, ".ts")));
}

void bt_format_at(int64_t ts, int64_t t0, struct bt_buf *b)
{
	if (ts >= t0)
		bt_buf_addc(b, '+');
	bt_format_duration((double)ts - (double)t0, b);
}

struct bt_ns_scale bt_ns_scale_of(double max_abs_ns)
{
	if (max_abs_ns >= 6000e9)          /* 100 min: "6000.0 s" is no longer read at a glance */
		return (struct bt_ns_scale){ 60e9, "min" };
	if (max_abs_ns >= 100e9)           /* 100 s: "100000.0 ms" */
		return (struct bt_ns_scale){ 1e9, "s" };
	return (struct bt_ns_scale){ 1e6, "ms" };
}

static double number(const struct bt_value *v)
{
	return v->type == BT_V_INT ? (double)v->u.i : v->type == BT_V_REAL ? v->u.d : 0;
}

static int is_number(const struct bt_value *v)
{
	return v->type == BT_V_INT || v->type == BT_V_REAL;
}

void bt_col_fmt_of(const struct bt_rtable *t, int c, size_t rows, int64_t t0, struct bt_col_fmt *k)
{
	double max = 0;
	size_t r;

	k->ts = bt_rep_is_ts(t->columns[c]);
	k->ns = !k->ts && t->units[c] == BT_UNIT_NS;
	k->t0 = k->ts ? t0 : 0;
	for (r = 0; r < rows && r < t->nrows && (k->ts || k->ns); r++) {
		const struct bt_value *v = &t->cells[r * (size_t)t->ncols + c];
		if (is_number(v))
			max = fmax(max, fabs(number(v) - (double)k->t0));
	}
	k->scale = bt_ns_scale_of(max);
}

void bt_col_heading(const struct bt_rtable *t, int c, const struct bt_col_fmt *k, struct bt_buf *b)
{
	const char *name = t->columns[c];
	size_t n = strlen(name);

	if (k->ts) {
		bt_buf_add(b, name, n - 2);
		bt_buf_addf(b, "at %s", k->scale.unit);
	} else if (k->ns) {
		bt_format_heading(name, BT_UNIT_NS, b);
		bt_buf_setlen(b, b->len - 2);   /* its " ms" */
		bt_buf_adds(b, k->scale.unit);
	} else {
		bt_format_heading(name, t->units[c], b);
	}
}

void bt_col_cell(const struct bt_namer *names, const struct bt_value *v, const struct bt_col_fmt *k,
		 enum bt_unit u, struct bt_buf *b)
{
	if (is_number(v) && (k->ts || k->ns))
		bt_buf_addf(b, k->scale.div == 1e9 ? "%.2f" : "%.1f", (number(v) - (double)k->t0) / k->scale.div);
	else if (v->type == BT_V_NULL && !k->ts && (k->ns || u != BT_UNIT_NONE))
		bt_buf_adds(b, BT_UNKNOWN);   /* a measure the trace does not give (CPU time): never 0 */
	else
		bt_format_cell(names, v, u, b);
}

int bt_rep_value_zero(const struct bt_value *v)
{
	return v->type == BT_V_NULL || (v->type == BT_V_INT && v->u.i == 0) || (v->type == BT_V_REAL && v->u.d == 0);
}

int bt_row_zero(const struct bt_rtable *t, size_t r)
{
	int c, measures = 0;

	for (c = 0; c < t->ncols; c++) {
		if (t->units[c] == BT_UNIT_NONE || bt_rep_is_ts(t->columns[c]))
			continue;
		if (!bt_rep_value_zero(&t->cells[r * (size_t)t->ncols + c]))
			return 0;
		measures++;
	}
	return measures > 0;
}

/* A finding's value as people read it: durations in ms, s or min,
 * timestamps since the trace's start. */
void bt_format_evidence(const char *key, const struct bt_value *v, int64_t t0, const struct bt_namer *names,
			struct bt_buf *b)
{
	enum bt_unit u = bt_unit_of(key, BT_UNIT_NONE);
	int number = v->type == BT_V_INT || v->type == BT_V_REAL;
	double d = v->type == BT_V_INT ? (double)v->u.i : v->type == BT_V_REAL ? v->u.d : 0;

	if (number && bt_rep_is_ts(key) && v->type == BT_V_INT)
		bt_format_at(v->u.i, t0, b);
	else if (number && u == BT_UNIT_NS)
		bt_format_duration(d, b);
	else
		bt_format_cell(names, v, u, b);
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct bt_metric *const *)a)->name, (*(const struct bt_metric *const *)b)->name);
}

int bt_report_ctx_load(struct bt_db *db, const struct bt_result *res, struct bt_report_ctx *c,
		       struct bt_err *err)
{
	size_t i;
	int rc;

	memset(c, 0, sizeof *c);
	rc = bt_facts_load(db, &c->facts, err);
	if (!rc)
		rc = bt_diagrows_load(db, &c->diag, &c->ndiag, err);
	c->metrics = bt_xcalloc(res->nmetrics + 1, sizeof *c->metrics);
	for (i = 0; i < res->nmetrics; i++)
		c->metrics[i] = &res->metrics[i];
	qsort(c->metrics, res->nmetrics, sizeof *c->metrics, by_name);
	if (rc)
		bt_report_ctx_release(c);
	return rc;
}

void bt_report_ctx_release(struct bt_report_ctx *c)
{
	bt_facts_release(&c->facts);
	bt_diagrows_free(c->diag, c->ndiag);
	free(c->metrics);
	memset(c, 0, sizeof *c);
}
