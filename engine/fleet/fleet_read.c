/*
 * A fleet summary read back (fleet.h): every count checked (a bucket's
 * index in range, the counts adding up to n), so that a fleet merged from
 * files is as exact as one merged in memory.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/fleet/fleet.h"
#include "engine/fleet/fleet_int.h"

struct rd {
	struct bt_jr *r;
	struct bt_buf key, val;
};

static void group_add_traces(struct bt_fl_group *g, int64_t n)
{
	g->traces = bt_sat_add(g->traces, n);
}

/* A name with a NUL byte would not survive as a C string: refused. */
static int whole(struct bt_jr *r, const struct bt_buf *b)
{
	return strlen(b->buf) == b->len ? BT_OK : bt_jr_fail(r, "a name holds a NUL character");
}

static int end(struct bt_jr *r, int rc, int more)
{
	return rc ? rc : more < 0 ? r->err->code : BT_OK;
}

static int object(struct bt_jr *r, const char *what)
{
	return bt_jr_peek(r) == BT_J_OBJECT ? bt_jr_object(r) : bt_jr_fail(r, what);
}

static int count(struct bt_jr *r, int64_t *v, const char *what)
{
	int k = bt_jr_int(r, v);

	if (k < 0)
		return r->err->code;
	return k == 1 && *v >= 0 ? BT_OK : bt_jr_fail(r, what);
}

static int dist(struct rd *x, struct bt_dist *d)
{
	return bt_dist_read_json(x->r, d, &x->key);
}

static int values(struct rd *x, struct bt_fl_table *t)
{
	struct bt_jr *r = x->r;
	int more = 0, rc = object(r, "a group's \"values\" is not an object");
	struct bt_buf name = BT_BUF_INIT;

	while (!rc && (more = bt_jr_key(r, &x->key)) == 1) {
		struct bt_dist d;
		bt_dist_init(&d);
		bt_buf_reset(&name);
		bt_buf_add(&name, x->key.buf, x->key.len);
		if (!(rc = whole(r, &name)) && !(rc = dist(x, &d)))
			bt_fleet_put_item(t, name.buf, name.len, d.n, NULL, &d);
		bt_dist_release(&d);
	}
	bt_buf_release(&name);
	return end(r, rc, more);
}

/* One method or wait item: its sums by name, "traces" and "dist". */
static int item(struct rd *x, const char *const *names, int n, int64_t *traces, int64_t s[3],
		struct bt_dist *d)
{
	struct bt_jr *r = x->r;
	int more = 0, rc = object(r, "an item is not an object"), k;

	while (!rc && (more = bt_jr_key(r, &x->key)) == 1) {
		for (k = 0; k < n && strcmp(x->key.buf, names[k]); k++)
			;
		if (k < n)
			rc = count(r, &s[k], "an item's sum is not a non-negative integer");
		else if (!strcmp(x->key.buf, "traces"))
			rc = count(r, traces, "an item's traces is not a non-negative integer");
		else if (!strcmp(x->key.buf, "dist"))
			rc = dist(x, d);
		else
			rc = bt_jr_skip(r);
	}
	return end(r, rc, more);
}

static int items(struct rd *x, struct bt_fl_table *t, int methods)
{
	static const char *const mcols[3] = { "self_cpu_ns", "self_ns", "incl_ns" };
	static const char *const wcols[2] = { "waits", "ns" };
	const char *const *names = methods ? mcols : wcols;
	struct bt_jr *r = x->r;
	int more = 0, rc = object(r, "a group's \"methods\" or \"waits\" is not an object");
	struct bt_buf name = BT_BUF_INIT;

	while (!rc && (more = bt_jr_key(r, &x->key)) == 1) {
		if (!strcmp(x->key.buf, "items")) {
			int m2 = 0;
			rc = object(r, "\"items\" is not an object");
			while (!rc && (m2 = bt_jr_key(r, &x->key)) == 1) {
				int64_t traces = 0, s[3] = { 0, 0, 0 };
				struct bt_dist d;
				bt_dist_init(&d);
				bt_buf_reset(&name);
				bt_buf_add(&name, x->key.buf, x->key.len);
				if (!(rc = whole(r, &name)) && !(rc = item(x, names, methods ? 3 : 2, &traces, s, &d)))
					bt_fleet_put_item(t, name.buf, name.len, traces, s, &d);
				bt_dist_release(&d);
			}
			rc = end(r, rc, m2);
		} else if (!strcmp(x->key.buf, "other")) {
			int64_t traces = 0, s[3] = { 0, 0, 0 };
			struct bt_dist d;
			bt_dist_init(&d);
			if (!(rc = item(x, names, 2, &traces, s, &d)))
				bt_fleet_put_other(t, s);
			bt_dist_release(&d);
		} else {
			rc = bt_jr_skip(r);
		}
	}
	bt_buf_release(&name);
	return end(r, rc, more);
}

static int group(struct rd *x, struct bt_fl_group *g)
{
	struct bt_jr *r = x->r;
	int more = 0, rc = object(r, "a group is not an object");
	int64_t n;

	while (!rc && (more = bt_jr_key(r, &x->key)) == 1) {
		if (!strcmp(x->key.buf, "traces")) {
			if (!(rc = count(r, &n, "a group's traces is not a non-negative integer")))
				group_add_traces(g, n);
		} else if (!strcmp(x->key.buf, "values")) {
			rc = values(x, &g->values);
		} else if (!strcmp(x->key.buf, "methods")) {
			rc = items(x, &g->methods, 1);
		} else if (!strcmp(x->key.buf, "waits")) {
			rc = items(x, &g->waits, 0);
		} else if (!strcmp(x->key.buf, "frames")) {
			struct bt_dist d;
			bt_dist_init(&d);
			if (!(rc = dist(x, &d)))
				bt_dist_merge(&g->frames, &d);
			bt_dist_release(&d);
		} else {
			rc = bt_jr_skip(r);
		}
	}
	return end(r, rc, more);
}

/* groups.KEY: {"values": {VALUE: GROUP}, "other": GROUP|null}. */
static int group_key(struct rd *x, struct bt_fleet *f, const char *key, size_t len)
{
	struct bt_jr *r = x->r;
	int more = 0, rc = object(r, "a group key is not an object");
	struct bt_buf value = BT_BUF_INIT;

	while (!rc && (more = bt_jr_key(r, &x->key)) == 1) {
		if (!strcmp(x->key.buf, "values")) {
			int m2 = 0;
			rc = object(r, "a group key's \"values\" is not an object");
			while (!rc && (m2 = bt_jr_key(r, &x->key)) == 1) {
				struct bt_fl_group g;
				bt_fl_group_init(&g);
				bt_buf_reset(&value);
				bt_buf_add(&value, x->key.buf, x->key.len);
				if (!(rc = whole(r, &value)) && !(rc = group(x, &g)))
					bt_fleet_put_group(f, key, len, value.buf, value.len, &g);
				bt_fl_group_release(&g);
			}
			rc = end(r, rc, m2);
		} else if (!strcmp(x->key.buf, "other") && bt_jr_peek(r) == BT_J_OBJECT) {
			struct bt_fl_group g;
			bt_fl_group_init(&g);
			if (!(rc = group(x, &g)))
				bt_fleet_put_group(f, key, len, NULL, 0, &g);
			bt_fl_group_release(&g);
		} else {
			rc = bt_jr_skip(r);
		}
	}
	bt_buf_release(&value);
	return end(r, rc, more);
}

static int groups(struct rd *x, struct bt_fleet *f)
{
	struct bt_jr *r = x->r;
	int more = 0, rc = object(r, "\"groups\" is not an object");
	struct bt_buf key = BT_BUF_INIT;

	while (!rc && (more = bt_jr_key(r, &x->key)) == 1) {
		bt_buf_reset(&key);
		bt_buf_add(&key, x->key.buf, x->key.len);
		if (!(rc = whole(r, &key)))
			rc = group_key(x, f, key.buf, key.len);
	}
	bt_buf_release(&key);
	return end(r, rc, more);
}

static int schema(struct rd *x)
{
	const char *at = x->r->p;
	int rc = bt_jr_peek(x->r) == BT_J_STRING ? bt_jr_string(x->r, &x->val) :
		bt_jr_fail(x->r, "\"schema\" is not a string");

	if (!rc && strcmp(x->val.buf, BT_FLEET_SCHEMA)) {
		x->r->p = at;
		rc = bt_jr_fail(x->r, "not a fleet summary (schema is not \"" BT_FLEET_SCHEMA "\")");
	}
	return rc;
}

int bt_fleet_read(struct bt_jr *r, struct bt_fleet *f)
{
	struct rd x = { r, BT_BUF_INIT, BT_BUF_INIT };
	int more = 0, rc = object(r, "a fleet summary is not an object"), have = 0;

	bt_fleet_init(f);
	while (!rc && (more = bt_jr_key(r, &x.key)) == 1) {
		if (!strcmp(x.key.buf, "schema")) {
			rc = schema(&x);
			have = 1;
		} else if (!strcmp(x.key.buf, "all")) {
			rc = group(&x, &f->all);
		} else if (!strcmp(x.key.buf, "groups")) {
			rc = groups(&x, f);
		} else {
			rc = bt_jr_skip(r);
		}
	}
	rc = end(r, rc, more);
	if (!rc && !have)
		rc = bt_jr_fail(r, "not a fleet summary (no \"schema\")");
	bt_buf_release(&x.key);
	bt_buf_release(&x.val);
	if (rc)
		bt_fleet_release(f);
	return rc;
}
