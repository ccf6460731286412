/*
 * The trace's facts, its diagnostics and a reporter's context, read from
 * the database (facts.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/rows.h"
#include "reports/facts.h"

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
