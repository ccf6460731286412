/*
 * A distribution as JSON (sketch.h; engine/fleet/README.md's DIST): written
 * with its derived quantiles and compact buckets, read back with every
 * count checked, so that a distribution through a file is as exact as one
 * in memory. A fleet's values, methods and waits, and a trace's frame
 * times, are written and read here.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/fleet/sketch.h"

static void int_or_null(struct bt_jsonw *w, const char *key, int have, int64_t v)
{
	bt_jsonw_key(w, key);
	bt_jsonw_int_or_null(w, have, v);
}

void bt_dist_write_json(struct bt_jsonw *w, const struct bt_dist *d)
{
	static const int pm[3] = { 500, 900, 990 };
	static const char *const pk[3] = { "p50", "p90", "p99" };
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "n");
	bt_jsonw_int(w, d->n);
	bt_jsonw_key(w, "sum");
	bt_jsonw_int(w, d->sum);
	int_or_null(w, "min", d->n != 0, d->min);
	int_or_null(w, "max", d->n != 0, d->max);
	bt_jsonw_key(w, "zeros");
	bt_jsonw_int(w, d->zeros);
	for (i = 0; i < 3; i++)
		int_or_null(w, pk[i], d->n != 0, d->n ? bt_dist_quantile(d, pm[i]) : 0);
	bt_buf_addc(&b, '[');
	for (i = 0; i < d->nc; i++) {
		if (!d->c[i])
			continue;
		bt_buf_adds(&b, b.len > 1 ? ",[" : "[");
		bt_buf_addi(&b, d->lo + (int64_t)i);
		bt_buf_addc(&b, ',');
		bt_buf_addi(&b, d->c[i]);
		bt_buf_addc(&b, ']');
	}
	bt_buf_addc(&b, ']');
	bt_jsonw_key(w, "buckets");
	bt_jsonw_raw(w, b.buf);
	bt_buf_release(&b);
	bt_jsonw_end_object(w);
}

static int end(struct bt_jr *r, int rc, int more)
{
	return rc ? rc : more < 0 ? r->err->code : BT_OK;
}

static int count(struct bt_jr *r, int64_t *v, const char *what)
{
	int k = bt_jr_int(r, v);

	if (k < 0)
		return r->err->code;
	return k == 1 && *v >= 0 ? BT_OK : bt_jr_fail(r, what);
}

static int buckets(struct bt_jr *r, struct bt_dist *d, int64_t *total)
{
	const char *bad = "a bucket is not [index, count] with 0 <= index < "
		"2200 and count >= 1";
	int more = 0, rc = bt_jr_peek(r) == BT_J_ARRAY ? bt_jr_array(r) : bt_jr_fail(r, bad);
	int64_t (*b)[2] = NULL, first = BT_DIST_NBUCKETS, last = -1;
	size_t n = 0, cap = 0, k;

	while (!rc && (more = bt_jr_more(r)) == 1) {
		int64_t i = -1, c = 0;
		rc = bt_jr_peek(r) == BT_J_ARRAY ? bt_jr_array(r) : bt_jr_fail(r, bad);
		if (!rc)
			rc = bt_jr_more(r) == 1 ? count(r, &i, bad) : bt_jr_fail(r, bad);
		if (!rc)
			rc = bt_jr_more(r) == 1 ? count(r, &c, bad) : bt_jr_fail(r, bad);
		if (!rc && (bt_jr_more(r) != 0 || i >= BT_DIST_NBUCKETS || c < 1))
			rc = bt_jr_fail(r, bad);
		if (!rc) {
			BT_GROW(b, n + 1, cap);
			b[n][0] = i;
			b[n++][1] = c;
			first = i < first ? i : first;
			last = i > last ? i : last;
		}
	}
	if (!rc && n) {   /* the span once, then every count in place */
		bt_dist_put(d, (int)first, 0);
		bt_dist_put(d, (int)last, 0);
		for (k = 0; k < n; k++) {
			bt_dist_put(d, (int)b[k][0], b[k][1]);
			*total = bt_sat_add(*total, b[k][1]);
		}
	}
	free(b);
	return end(r, rc, more);
}

int bt_dist_read_json(struct bt_jr *r, struct bt_dist *d, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_peek(r) == BT_J_OBJECT ? bt_jr_object(r) :
		bt_jr_fail(r, "a distribution is not an object");
	int64_t total = 0;

	bt_dist_release(d);   /* a second "dist" of one entry replaces the first: its buckets */
	bt_dist_init(d);      /* added to the first's with its own n did not add up */
	while (!rc && (more = bt_jr_key(r, key)) == 1) {
		const char *k = key->buf;
		int64_t *at = !strcmp(k, "n") ? &d->n : !strcmp(k, "sum") ? &d->sum :
			!strcmp(k, "zeros") ? &d->zeros : !strcmp(k, "min") ? &d->min :
			!strcmp(k, "max") ? &d->max : NULL;
		if (!strcmp(k, "buckets"))
			rc = buckets(r, d, &total);
		else if (at && bt_jr_peek(r) == BT_J_NULL && at != &d->n && at != &d->sum && at != &d->zeros)
			rc = bt_jr_skip(r);
		else if (at)
			rc = count(r, at, "a distribution's count, sum, min or max is not a non-negative integer");
		else
			rc = bt_jr_skip(r);
	}
	rc = end(r, rc, more);
	if (!rc && bt_sat_add(total, d->zeros) != d->n)
		rc = bt_jr_fail(r, "a distribution's buckets and zeros do not add up to its n");
	if (!rc && d->n && d->min > d->max)
		rc = bt_jr_fail(r, "a distribution's min is above its max");
	return rc;
}
