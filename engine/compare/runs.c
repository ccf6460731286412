/*
 * Reading runs for compare (see runs.h). A report is mapped and walked
 * with the pull reader: "schema" must name a report, "metrics" and
 * "diagnostics" are read, everything else is skipped (but checked), so ten
 * 1M-record reports take milliseconds each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "engine/base/jsonr.h"
#include "engine/compare/runs.h"

#define REPORT_SCHEMA "btrace-analyze/report@1"

void bt_runs_init(struct bt_runs *rs)
{
	memset(rs, 0, sizeof *rs);
	bt_strmap_init(&rs->ids);
	bt_strmap_init(&rs->tree.name_ids);
	bt_map64_init(&rs->tree.paths, 256);
}

void bt_runs_release(struct bt_runs *rs)
{
	size_t i;

	for (i = 0; i < rs->nnames; i++)
		free(rs->names[i]);
	for (i = 0; i < rs->nruns; i++) {
		free(rs->run[i].path);
		free(rs->run[i].v);
		free(rs->run[i].fv);
		bt_map64_release(&rs->run[i].far);
	}
	for (i = 0; i < rs->nwarn; i++) {
		free(rs->warn[i].code);
		free(rs->warn[i].detail);
		free(rs->warn[i].runs);
	}
	free(rs->warn);
	free(rs->names);
	free(rs->run);
	bt_strmap_release(&rs->ids);
	bt_runs_tree_release(&rs->tree);
	memset(rs, 0, sizeof *rs);
}

static struct bt_run *new_run(struct bt_runs *rs, enum bt_side side, const char *path)
{
	struct bt_run *r;

	BT_GROW(rs->run, rs->nruns + 1, rs->rcap);
	r = &rs->run[rs->nruns++];
	memset(r, 0, sizeof *r);
	r->path = bt_xstrdup(path);
	r->side = side;
	bt_map64_init(&r->far, 16);
	return r;
}

static size_t metric_id(struct bt_runs *rs, const char *name, size_t len)
{
	uint32_t id = bt_strmap_get(&rs->ids, name, len);

	if (id)
		return id - 1;
	BT_GROW(rs->names, rs->nnames + 1, rs->ncap);
	rs->names[rs->nnames] = bt_xstrndup(name, len);
	bt_strmap_put(&rs->ids, name, len, (uint32_t)++rs->nnames);
	return rs->nnames - 1;
}

/* Room in r->v for id if that keeps v within about twice the run's
 * values; 0 when id belongs in the sparse part. */
static int grow_dense(struct bt_run *r, size_t id)
{
	size_t budget = 2 * r->count + 1024, n = r->nv ? r->nv : 64, i;

	if (id >= budget)
		return 0;
	while (n <= id)
		n *= 2;
	if (n > budget)
		n = budget;
	r->v = bt_xrealloc(r->v, n * sizeof *r->v);
	for (i = r->nv; i < n; i++)
		r->v[i] = NAN;
	r->nv = n;
	return 1;
}

static void set_value(struct bt_runs *rs, struct bt_run *r, const char *name, size_t len, double v)
{
	size_t id = metric_id(rs, name, len);
	uint32_t at;

	r->count++;
	if (id < r->nv || grow_dense(r, id)) {
		r->v[id] = v;
		return;
	}
	at = bt_map64_get(&r->far, id);
	if (!at) {
		BT_GROW(r->fv, r->nfv + 1, r->fvcap);
		at = (uint32_t)++r->nfv;
		bt_map64_put(&r->far, id, at);
	}
	r->fv[at - 1] = v;
}

double bt_runs_value(const struct bt_runs *rs, size_t r, size_t id)
{
	const struct bt_run *x = &rs->run[r];
	uint32_t at;

	if (id < x->nv && !isnan(x->v[id]))
		return x->v[id];
	at = bt_map64_get(&x->far, id);   /* set before v grew over id */
	return at ? x->fv[at - 1] : NAN;
}

void bt_runs_warn(struct bt_runs *rs, const char *code, uint64_t count, const char *detail)
{
	size_t i, r = rs->nruns - 1;
	struct bt_runs_warning *w = NULL;

	for (i = 0; i < rs->nwarn && !w; i++)
		if (!strcmp(rs->warn[i].code, code))
			w = &rs->warn[i];
	if (!w) {
		BT_GROW(rs->warn, rs->nwarn + 1, rs->wcap);
		w = &rs->warn[rs->nwarn++];
		memset(w, 0, sizeof *w);
		w->code = bt_xstrdup(code);
		w->detail = bt_xstrdup(detail);
	}
	w->count += count;
	if (!w->nruns || w->runs[w->nruns - 1] != r) {
		BT_GROW(w->runs, w->nruns + 1, w->rcap);
		w->runs[w->nruns++] = r;
	}
}

int bt_runs_is_json(const char *path)
{
	FILE *f = fopen(path, "rb");
	int c = EOF;

	if (!f)
		return 0;
	do
		c = fgetc(f);
	while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
	fclose(f);
	return c == '{';
}

static int read_metrics(struct bt_runs *rs, struct bt_run *run, struct bt_jr *jr, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_object(jr);
	double v;

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		enum bt_jtype t = bt_jr_peek(jr);
		if (t == BT_J_NULL) {   /* a value the rule could not compute */
			rc = bt_jr_skip(jr);
			continue;
		}
		if (t != BT_J_NUMBER)
			return bt_jr_fail(jr, "a metric's value is not a number");
		if ((rc = bt_jr_number(jr, &v)))
			break;
		if (!isfinite(v))
			return bt_jr_fail(jr, "a metric's value is out of range");
		set_value(rs, run, key->buf, key->len, v);
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* One of "diagnostics": {"code", "count", "detail"}; other keys skipped. */
static int read_diagnostic(struct bt_runs *rs, struct bt_jr *jr, struct bt_buf *key)
{
	struct bt_buf code = BT_BUF_INIT, detail = BT_BUF_INIT;
	int64_t count = 1;
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "a diagnostic is not an object");

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		int str = bt_jr_peek(jr) == BT_J_STRING;
		if (!strcmp(key->buf, "code") || !strcmp(key->buf, "detail"))
			rc = !str ? bt_jr_fail(jr, "a diagnostic's code or detail is not a string") :
				bt_jr_string(jr, key->buf[0] == 'c' ? &code : &detail);
		else if (!strcmp(key->buf, "count"))
			rc = bt_jr_int(jr, &count) != 1 || count < 0 ?
				bt_jr_fail(jr, "a diagnostic's count is not a count") : BT_OK;
		else
			rc = bt_jr_skip(jr);
	}
	if (!rc && more < 0)
		rc = jr->err->code;
	if (!rc && !code.len)
		rc = bt_jr_fail(jr, "a diagnostic has no code");
	if (!rc)
		bt_runs_warn(rs, code.buf, (uint64_t)count, detail.len ? detail.buf : "");
	bt_buf_release(&code);
	bt_buf_release(&detail);
	return rc;
}

static int read_diagnostics(struct bt_runs *rs, struct bt_jr *jr, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_peek(jr) == BT_J_ARRAY ? bt_jr_array(jr) :
		bt_jr_fail(jr, "\"diagnostics\" is not an array");

	while (!rc && (more = bt_jr_more(jr)) == 1)
		rc = read_diagnostic(rs, jr, key);
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* "tables": main_calltree into the merged tree, the others skipped. */
static int read_tables(struct bt_runs *rs, struct bt_jr *jr, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_object(jr);

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		if (!strcmp(key->buf, "main_calltree") && bt_jr_peek(jr) == BT_J_OBJECT)
			rc = bt_runs_tree_json(rs, rs->nruns - 1, jr);
		else
			rc = bt_jr_skip(jr);
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* "trace": {"cpu_time": "unknown" | "partial", ...}; other keys skipped. */
static int read_trace(struct bt_run *run, struct bt_jr *jr, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_object(jr);

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		if (!strcmp(key->buf, "cpu_time") && bt_jr_peek(jr) == BT_J_STRING)
			run->cpu_unknown = 1;
		rc = bt_jr_skip(jr);
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

static int read_report(struct bt_runs *rs, struct bt_run *run, struct bt_jr *jr)
{
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	int more = 0, rc = bt_jr_object(jr), schema = 0, metrics = 0;

	while (!rc && (more = bt_jr_key(jr, &key)) == 1) {
		if (!strcmp(key.buf, "schema")) {
			const char *at = jr->p;
			if (bt_jr_peek(jr) != BT_J_STRING)
				rc = bt_jr_fail(jr, "\"schema\" is not a string");
			else if (!(rc = bt_jr_string(jr, &val)) && strcmp(val.buf, REPORT_SCHEMA)) {
				jr->p = at;
				rc = bt_jr_fail(jr, "not a btrace-analyze report (schema is not \""
						REPORT_SCHEMA "\")");
			}
			schema = 1;
		} else if (!strcmp(key.buf, "metrics")) {
			rc = read_metrics(rs, run, jr, &val);
			metrics = 1;
		} else if (!strcmp(key.buf, "diagnostics")) {
			rc = read_diagnostics(rs, jr, &val);
		} else if (!strcmp(key.buf, "trace") && bt_jr_peek(jr) == BT_J_OBJECT) {
			rc = read_trace(run, jr, &val);
		} else if (!strcmp(key.buf, "tables") && bt_jr_peek(jr) == BT_J_OBJECT) {
			rc = read_tables(rs, jr, &val);
		} else {
			rc = bt_jr_skip(jr);
		}
	}
	if (!rc && more < 0)
		rc = jr->err->code;
	if (!rc)
		rc = bt_jr_finish(jr);
	if (!rc && (!schema || !metrics))
		rc = bt_jr_fail(jr, schema ? "the report has no \"metrics\"" :
				"not a btrace-analyze report (no \"schema\")");
	bt_buf_release(&key);
	bt_buf_release(&val);
	return rc;
}

int bt_runs_add_report(struct bt_runs *rs, enum bt_side side, const char *path, struct bt_err *err)
{
	struct bt_fmap m;
	struct bt_jr jr;
	int rc = bt_fmap_open(&m, path, err);

	if (rc)
		return rc;
	bt_alloc_doing("reading the report", path);
	bt_jr_init(&jr, m.data, m.len, path, err);
	rc = read_report(rs, new_run(rs, side, path), &jr);
	bt_alloc_doing(NULL, NULL);   /* path is the caller's */
	bt_fmap_release(&m);
	return rc;
}

/* The metrics object: name's value into *v (NaN when absent or null). */
static int peek_metrics(struct bt_jr *jr, const char *name, double *v, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "\"metrics\" is not an object");

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		if (strcmp(key->buf, name) || bt_jr_peek(jr) != BT_J_NUMBER)
			rc = bt_jr_skip(jr);
		else
			rc = bt_jr_number(jr, v);
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

int bt_runs_peek(const char *path, const char *name, int *report, double *v, struct bt_err *err)
{
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	struct bt_fmap m;
	struct bt_jr jr;
	int more = 0, rc = bt_fmap_open(&m, path, err), schema = 0;

	*report = 0;
	*v = NAN;
	if (rc)
		return rc;
	bt_jr_init(&jr, m.data, m.len, path, err);
	if (bt_jr_peek(&jr) != BT_J_OBJECT)
		goto out;   /* no report, and not for compare to judge */
	rc = bt_jr_object(&jr);
	while (!rc && !*report && (more = bt_jr_key(&jr, &key)) == 1) {
		if (!strcmp(key.buf, "schema") && bt_jr_peek(&jr) == BT_J_STRING) {
			if (!(rc = bt_jr_string(&jr, &val)) && strcmp(val.buf, REPORT_SCHEMA))
				break;   /* another kind of JSON */
			schema = 1;
		} else if (!strcmp(key.buf, "metrics") && schema) {
			rc = peek_metrics(&jr, name, v, &val);
			*report = !rc;
		} else {
			rc = bt_jr_skip(&jr);
		}
	}
	if (!rc && more < 0)
		rc = err->code;
out:
	bt_buf_release(&key);
	bt_buf_release(&val);
	bt_fmap_release(&m);
	return rc;
}

size_t bt_runs_add_empty(struct bt_runs *rs, enum bt_side side, const char *path)
{
	new_run(rs, side, path);
	return rs->nruns - 1;
}

void bt_runs_set(struct bt_runs *rs, size_t r, const char *name, size_t len, double v)
{
	set_value(rs, &rs->run[r], name, len, v);
}

void bt_runs_add_result(struct bt_runs *rs, enum bt_side side, const char *path,
			const struct bt_result *res)
{
	struct bt_run *run = new_run(rs, side, path);
	size_t i;

	for (i = 0; i < res->nmetrics; i++) {
		const struct bt_value *v = &res->metrics[i].v;
		const char *name = res->metrics[i].name;
		if (v->type == BT_V_INT)
			set_value(rs, run, name, strlen(name), (double)v->u.i);
		else if (v->type == BT_V_REAL && isfinite(v->u.d))
			set_value(rs, run, name, strlen(name), v->u.d);
	}
	bt_runs_tree_result(rs, rs->nruns - 1, res);
}

/* Each of run r's values, by metric id: f(ctx, id, r, v). */
static void each_value(const struct bt_runs *rs, size_t r,
		       void (*f)(void *ctx, size_t id, size_t r, double v), void *ctx)
{
	const struct bt_run *x = &rs->run[r];
	size_t i;

	for (i = 0; i < x->nv; i++)
		if (!isnan(x->v[i]))
			f(ctx, i, r, x->v[i]);
	for (i = 0; i < x->far.cap; i++) {
		const struct bt_map64_slot *s = &x->far.slots[i];
		if (s->val && (s->key >= x->nv || isnan(x->v[s->key])))
			f(ctx, (size_t)s->key, r, x->fv[s->val - 1]);
	}
}

static void count_value(void *ctx, size_t id, size_t r, double v)
{
	struct bt_runs_cols *c = ctx;

	(void)r, (void)v;
	c->at[id + 1]++;
}

static void place_value(void *ctx, size_t id, size_t r, double v)
{
	struct bt_runs_cols *c = ctx;
	size_t at = c->at[id]++;

	c->run[at] = (uint32_t)r;
	c->v[at] = v;
}

void bt_runs_columns(const struct bt_runs *rs, struct bt_runs_cols *c)
{
	size_t r, id, n;

	c->at = bt_xcalloc(rs->nnames + 2, sizeof *c->at);
	for (r = 0; r < rs->nruns; r++)
		each_value(rs, r, count_value, c);
	for (id = 0; id < rs->nnames; id++)
		c->at[id + 1] += c->at[id];
	n = c->at[rs->nnames];
	c->run = bt_xcalloc(n + 1, sizeof *c->run);
	c->v = bt_xcalloc(n + 1, sizeof *c->v);
	for (r = 0; r < rs->nruns; r++)   /* placing moves at[id] to the next column's start */
		each_value(rs, r, place_value, c);
	for (id = rs->nnames; id > 0; id--)
		c->at[id] = c->at[id - 1];
	c->at[0] = 0;
}

void bt_runs_columns_release(struct bt_runs_cols *c)
{
	free(c->at);
	free(c->run);
	free(c->v);
	memset(c, 0, sizeof *c);
}
