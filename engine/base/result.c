/*
 * The report's content (see result.h): owned copies of everything rules
 * emit, so a rule's Lua state can go away before the report is written.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/result.h"

const char *const bt_severity_name[BT_SEV__COUNT] = { "info", "warning", "error" };

int bt_severity_parse(const char *name)
{
	int i;

	for (i = 0; i < BT_SEV__COUNT; i++)
		if (!strcmp(name, bt_severity_name[i]))
			return i;
	return -1;
}

static const char *const unit_names[] = { "", "ns", "bytes", "pct", "count" };

const char *bt_unit_name(enum bt_unit u)
{
	return unit_names[u];
}

int bt_unit_parse(const char *name, enum bt_unit *out)
{
	size_t i;

	for (i = 0; i < sizeof unit_names / sizeof unit_names[0]; i++) {
		if (!strcmp(name, unit_names[i])) {
			*out = (enum bt_unit)i;
			return 1;
		}
	}
	return 0;
}

/* 1 if the name component c[0..n) is word w or ends in "_w". */
static int component_is(const char *c, size_t n, const char *w)
{
	size_t m = strlen(w);

	return n >= m && !memcmp(c + n - m, w, m) && (n == m || c[n - m - 1] == '_');
}

static enum bt_unit component_unit(const char *c, size_t n)
{
	if (component_is(c, n, "ns") || (n == 3 && !memcmp(c, "dur", 3)))
		return BT_UNIT_NS;
	if (n >= 5 && !memcmp(c + n - 5, "bytes", 5))   /* "*bytes", as help rules says */
		return BT_UNIT_BYTES;
	if (component_is(c, n, "pct"))
		return BT_UNIT_PCT;
	return BT_UNIT_NONE;
}

enum bt_unit bt_unit_of(const char *name, enum bt_unit otherwise)
{
	const char *end = name + strlen(name), *c;
	enum bt_unit u;

	for (;;) {
		for (c = end; c > name && c[-1] != '.'; c--)
			;
		if ((u = component_unit(c, (size_t)(end - c))) != BT_UNIT_NONE)
			return u;
		if (c == name)
			return otherwise;
		end = c - 1;
	}
}

void bt_value_release(struct bt_value *v)
{
	if (v->type == BT_V_TEXT || v->type == BT_V_JSON)
		free(v->u.s);
	v->type = BT_V_NULL;
}

struct bt_value bt_value_text(const char *s, size_t len)
{
	struct bt_value v;

	v.type = BT_V_TEXT;
	v.u.s = bt_xstrndup(s, len);
	return v;
}

void bt_result_init(struct bt_result *r)
{
	memset(r, 0, sizeof *r);
	bt_strmap_init(&r->metric_index);
	bt_strmap_init(&r->table_index);
}

static void table_release(struct bt_rtable *t)
{
	size_t i;
	int c;

	for (i = 0; i < t->nrows * (size_t)t->ncols; i++)
		bt_value_release(&t->cells[i]);
	for (c = 0; c < t->ncols; c++)
		free(t->columns[c]);
	free(t->columns);
	free(t->units);
	free(t->spare);
	free(t->cells);
	free(t->name);
	free(t->title);
}

static void finding_release(struct bt_finding *f)
{
	int i;

	for (i = 0; i < f->nev; i++) {
		free(f->ev[i].key);
		bt_value_release(&f->ev[i].v);
	}
	free(f->ev);
	free(f->rule);
	free(f->message);
}

void bt_result_release(struct bt_result *r)
{
	size_t i;

	for (i = 0; i < r->nmetrics; i++) {
		free(r->metrics[i].name);
		bt_value_release(&r->metrics[i].v);
	}
	for (i = 0; i < r->ntables; i++)
		table_release(&r->tables[i]);
	for (i = 0; i < r->nfindings; i++)
		finding_release(&r->findings[i]);
	free(r->metrics);
	free(r->tables);
	free(r->findings);
	bt_strmap_release(&r->metric_index);
	bt_strmap_release(&r->table_index);
	memset(r, 0, sizeof *r);
}

int bt_metric_in_window(const char *name)
{
	return !strncmp(name, BT_METRIC_WINDOW, strlen(BT_METRIC_WINDOW));
}

int bt_metric_per_method(const char *name)
{
	return !strncmp(name, "method.", 7) || strstr(name, ".method.") || strstr(name, ".by.");
}

void bt_result_metric(struct bt_result *r, const char *name, struct bt_value v)
{
	size_t len = strlen(name);
	uint32_t at = bt_strmap_get(&r->metric_index, name, len);

	if (at) {
		bt_value_release(&r->metrics[at - 1].v);
		r->metrics[at - 1].v = v;
		return;
	}
	BT_GROW(r->metrics, r->nmetrics + 1, r->mcap);
	bt_strmap_put(&r->metric_index, name, len, (uint32_t)r->nmetrics + 1);
	r->metrics[r->nmetrics].name = bt_xstrdup(name);
	r->metrics[r->nmetrics++].v = v;
}

struct bt_rtable *bt_result_table(struct bt_result *r, const char *name, const char *title, int ncols)
{
	size_t len = strlen(name);
	uint32_t at = bt_strmap_get(&r->table_index, name, len);
	struct bt_rtable *t;

	if (at) {
		t = &r->tables[at - 1];
		table_release(t);
	} else {
		BT_GROW(r->tables, r->ntables + 1, r->tcap);
		bt_strmap_put(&r->table_index, name, len, (uint32_t)r->ntables + 1);
		t = &r->tables[r->ntables++];
	}
	memset(t, 0, sizeof *t);
	t->name = bt_xstrdup(name);
	t->title = bt_xstrdup(title ? title : name);
	t->ncols = ncols;
	t->columns = bt_xcalloc((size_t)ncols + 1, sizeof *t->columns);
	t->units = bt_xcalloc((size_t)ncols + 1, sizeof *t->units);
	t->spare = bt_xcalloc((size_t)ncols + 1, 1);
	return t;
}

struct bt_value *bt_rtable_row(struct bt_rtable *t)
{
	struct bt_value *row;

	BT_GROW(t->cells, (t->nrows + 1) * (size_t)t->ncols, t->cap);
	row = &t->cells[t->nrows++ * (size_t)t->ncols];
	memset(row, 0, (size_t)t->ncols * sizeof *row);
	return row;
}

struct bt_finding *bt_result_finding(struct bt_result *r, const char *rule, enum bt_severity sev,
				     const char *message)
{
	struct bt_finding *f;

	BT_GROW(r->findings, r->nfindings + 1, r->fcap);
	f = &r->findings[r->nfindings++];
	memset(f, 0, sizeof *f);
	f->rule = bt_xstrdup(rule);
	f->severity = sev;
	f->message = bt_xstrdup(message);
	return f;
}

void bt_finding_evidence(struct bt_finding *f, const char *key, struct bt_value v)
{
	f->ev = bt_xrealloc(f->ev, (size_t)(f->nev + 1) * sizeof *f->ev);
	f->ev[f->nev].key = bt_xstrdup(key);
	f->ev[f->nev++].v = v;
}

/* Merge sort by (headline, severity desc, ts, emission order): qsort is
 * not stable. A headline leads whatever its severity: a review reads the
 * startup's duration before the waits inside it. */
static int before(const struct bt_finding *a, const struct bt_finding *b)
{
	if (a->headline != b->headline)
		return a->headline;
	if (a->severity != b->severity)
		return a->severity > b->severity;
	if (a->has_ts != b->has_ts)
		return a->has_ts;
	return a->has_ts && a->ts < b->ts;
}

static void msort(struct bt_finding *v, struct bt_finding *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(v, tmp, h);
	msort(v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = before(&v[j], &v[i]) ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

void bt_result_sort(struct bt_result *r)
{
	struct bt_finding *tmp;

	if (r->nfindings < 2)
		return;
	tmp = bt_xmalloc(r->nfindings * sizeof *tmp);
	msort(r->findings, tmp, r->nfindings);
	free(tmp);
}

int bt_result_max_severity(const struct bt_result *r)
{
	size_t i;
	int max = -1;

	for (i = 0; i < r->nfindings; i++)
		if ((int)r->findings[i].severity > max)
			max = (int)r->findings[i].severity;
	return max;
}
