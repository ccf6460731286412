/*
 * Values formatted for people (format.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/names.h"
#include "reports/format.h"

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
