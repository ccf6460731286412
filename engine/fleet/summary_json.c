/*
 * A summary as JSON (summary.h; engine/fleet/README.md, part 1): written
 * into a report or a file of its own, and read back by merge with the
 * pull reader, every error naming the file and the byte.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/fleet/summary.h"

static const char *const method_cols[] = { "method", "self_cpu_ns", "self_ns", "incl_ns" };
static const char *const wait_cols[] = { "kind", "holder", "waits", "ns" };

static void columns(struct bt_jsonw *w, const char *const *c, int n)
{
	int i;

	bt_jsonw_key(w, "columns");
	bt_jsonw_begin_array(w);
	for (i = 0; i < n; i++)
		bt_jsonw_cstr(w, c[i]);
	bt_jsonw_end_array(w);
}

static void pair(struct bt_jsonw *w, const char *k1, int64_t v1, const char *k2, int64_t v2)
{
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, k1);
	bt_jsonw_int(w, v1);
	bt_jsonw_key(w, k2);
	bt_jsonw_int(w, v2);
	bt_jsonw_end_object(w);
}

static void write_methods(struct bt_jsonw *w, const struct bt_summary *s)
{
	size_t i;

	bt_jsonw_key(w, "methods");
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "k");
	bt_jsonw_int(w, BT_SUMMARY_METHODS);
	columns(w, method_cols, 4);
	bt_jsonw_key(w, "rows");
	bt_jsonw_begin_array(w);
	for (i = 0; i < s->nmethods; i++) {
		bt_jsonw_begin_array(w);
		bt_jsonw_cstr(w, s->methods[i].name);
		bt_jsonw_int(w, s->methods[i].self_cpu);
		bt_jsonw_int(w, s->methods[i].self);
		bt_jsonw_int(w, s->methods[i].incl);
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "other");
	pair(w, "self_cpu_ns", s->other_self_cpu, "self_ns", s->other_self);
	bt_jsonw_end_object(w);
}

static void write_waits(struct bt_jsonw *w, const struct bt_summary *s)
{
	size_t i;

	bt_jsonw_key(w, "waits");
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "k");
	bt_jsonw_int(w, BT_SUMMARY_WAITS);
	columns(w, wait_cols, 4);
	bt_jsonw_key(w, "rows");
	bt_jsonw_begin_array(w);
	for (i = 0; i < s->nwaits; i++) {
		bt_jsonw_begin_array(w);
		bt_jsonw_cstr(w, s->waits[i].kind);
		bt_jsonw_cstr(w, s->waits[i].holder);
		bt_jsonw_int(w, s->waits[i].waits);
		bt_jsonw_int(w, s->waits[i].ns);
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "other");
	pair(w, "waits", s->other_waits, "ns", s->other_ns);
	bt_jsonw_end_object(w);
}

void bt_summary_write(struct bt_jsonw *w, const struct bt_summary *s)
{
	size_t i;

	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "schema");
	bt_jsonw_cstr(w, BT_SUMMARY_SCHEMA);
	if (s->source) {
		bt_jsonw_key(w, "source");
		bt_jsonw_cstr(w, s->source);
	}
	bt_jsonw_key(w, "groups");
	bt_jsonw_begin_object(w);
	for (i = 0; i < s->ngroups; i++) {
		bt_jsonw_key(w, s->groups[i].key);
		bt_jsonw_cstr(w, s->groups[i].value);
	}
	bt_jsonw_end_object(w);
	bt_jsonw_key(w, "values");
	bt_jsonw_begin_object(w);
	for (i = 0; i < s->nvalues; i++) {
		bt_jsonw_key(w, s->values[i].name);
		bt_jsonw_int(w, s->values[i].v);
	}
	bt_jsonw_end_object(w);
	if (s->has_methods)
		write_methods(w, s);
	if (s->has_waits)
		write_waits(w, s);
	if (s->has_frames) {
		bt_jsonw_key(w, "frames");
		bt_dist_write_json(w, &s->frames);
	}
	bt_jsonw_end_object(w);
}

/* ---- reading ---------------------------------------------------------- */

/* A non-negative integer, or the reader fails naming what. */
static int count(struct bt_jr *r, int64_t *v, const char *what)
{
	int k = bt_jr_int(r, v);

	if (k < 0)
		return r->err->code;
	return k == 1 && *v >= 0 ? BT_OK : bt_jr_fail(r, what);
}

static int string(struct bt_jr *r, struct bt_buf *b, const char *what)
{
	bt_buf_reset(b);
	return bt_jr_peek(r) == BT_J_STRING ? bt_jr_string(r, b) : bt_jr_fail(r, what);
}

static int object(struct bt_jr *r, const char *what)
{
	return bt_jr_peek(r) == BT_J_OBJECT ? bt_jr_object(r) : bt_jr_fail(r, what);
}

static int array(struct bt_jr *r, const char *what)
{
	return bt_jr_peek(r) == BT_J_ARRAY ? bt_jr_array(r) : bt_jr_fail(r, what);
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

static int read_groups(struct bt_jr *r, struct bt_summary *s, struct bt_buf *key, struct bt_buf *val)
{
	int more = 0, rc = object(r, "a summary's \"groups\" is not an object");

	while (!rc && (more = bt_jr_key(r, key)) == 1)
		if (!(rc = whole(r, key)) && !(rc = string(r, val, "a group's value is not a string")) &&
		    !(rc = whole(r, val)))
			bt_summary_set_group(s, key->buf, val->buf);
	return end(r, rc, more);
}

static int read_values(struct bt_jr *r, struct bt_summary *s, struct bt_buf *key)
{
	int more = 0, rc = object(r, "a summary's \"values\" is not an object");
	size_t cap = 0;
	int64_t v;

	while (!rc && (more = bt_jr_key(r, key)) == 1) {
		if ((rc = whole(r, key)) || (rc = count(r, &v, "a summary value is not a non-negative integer")))
			break;
		BT_GROW(s->values, s->nvalues + 1, cap);
		s->values[s->nvalues].name = bt_xstrdup(key->buf);
		s->values[s->nvalues++].v = v;
	}
	return end(r, rc, more);
}

/* ["name", n, n, n] or ["kind", "holder", n, n]. */
static int read_row(struct bt_jr *r, struct bt_summary *s, int methods, size_t *cap, struct bt_buf *a,
		    struct bt_buf *b)
{
	const char *bad = methods ? "a method row is not [name, self_cpu_ns, self_ns, incl_ns]" :
		"a wait row is not [kind, holder, waits, ns]";
	int64_t v[3] = { 0, 0, 0 };
	int rc = array(r, bad), i, n = methods ? 3 : 2;

	if (!rc && bt_jr_more(r) == 1)
		rc = string(r, a, bad);
	else
		rc = rc ? rc : bt_jr_fail(r, bad);
	rc = rc ? rc : whole(r, a);
	if (!rc && !methods)
		rc = bt_jr_more(r) == 1 ? string(r, b, bad) : bt_jr_fail(r, bad);
	if (!rc && !methods)
		rc = whole(r, b);
	for (i = 0; !rc && i < n; i++)
		rc = bt_jr_more(r) == 1 ? count(r, &v[i], bad) : bt_jr_fail(r, bad);
	if (!rc && bt_jr_more(r) != 0)
		rc = bt_jr_fail(r, bad);
	if (rc)
		return rc;
	if (methods) {
		struct bt_sum_method *m;
		BT_GROW(s->methods, s->nmethods + 1, *cap);
		m = &s->methods[s->nmethods++];
		m->name = bt_xstrdup(a->buf);
		m->self_cpu = v[0];
		m->self = v[1];
		m->incl = v[2];
	} else {
		struct bt_sum_wait *w;
		BT_GROW(s->waits, s->nwaits + 1, *cap);
		w = &s->waits[s->nwaits++];
		w->kind = bt_xstrdup(a->buf);
		w->holder = bt_xstrdup(b->buf);
		w->waits = v[0];
		w->ns = v[1];
	}
	return BT_OK;
}

static int read_other(struct bt_jr *r, struct bt_summary *s, int methods, struct bt_buf *key)
{
	int more = 0, rc = object(r, "\"other\" is not an object");

	while (!rc && (more = bt_jr_key(r, key)) == 1) {
		int64_t *at = NULL;
		if (methods)
			at = !strcmp(key->buf, "self_cpu_ns") ? &s->other_self_cpu :
				!strcmp(key->buf, "self_ns") ? &s->other_self : NULL;
		else
			at = !strcmp(key->buf, "waits") ? &s->other_waits :
				!strcmp(key->buf, "ns") ? &s->other_ns : NULL;
		rc = at ? count(r, at, "an \"other\" sum is not a non-negative integer") : bt_jr_skip(r);
	}
	return end(r, rc, more);
}

static int read_list(struct bt_jr *r, struct bt_summary *s, int methods, struct bt_buf *key,
		     struct bt_buf *b)
{
	int more = 0, rc = object(r, methods ? "a summary's \"methods\" is not an object" :
				  "a summary's \"waits\" is not an object");
	struct bt_buf a = BT_BUF_INIT;
	size_t cap = 0;

	while (!rc && (more = bt_jr_key(r, key)) == 1) {
		if (!strcmp(key->buf, "rows")) {
			int m2 = 0;
			rc = array(r, "\"rows\" is not an array");
			while (!rc && (m2 = bt_jr_more(r)) == 1)
				rc = read_row(r, s, methods, &cap, &a, b);
			rc = end(r, rc, m2);
		} else if (!strcmp(key->buf, "other")) {
			rc = read_other(r, s, methods, key);
		} else {
			rc = bt_jr_skip(r);
		}
	}
	bt_buf_release(&a);
	if (methods)
		s->has_methods = 1;
	else
		s->has_waits = 1;
	return end(r, rc, more);
}

static int read_schema(struct bt_jr *r, struct bt_buf *val)
{
	const char *at = r->p;
	int rc = string(r, val, "\"schema\" is not a string");

	if (!rc && strcmp(val->buf, BT_SUMMARY_SCHEMA)) {
		r->p = at;
		rc = bt_jr_fail(r, "not a summary (schema is not \"" BT_SUMMARY_SCHEMA "\")");
	}
	return rc;
}

int bt_summary_read(struct bt_jr *r, struct bt_summary *s)
{
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	int more = 0, rc = object(r, "a summary is not an object"), schema = 0;

	bt_summary_init(s);
	while (!rc && (more = bt_jr_key(r, &key)) == 1) {
		if (!strcmp(key.buf, "schema")) {
			rc = read_schema(r, &val);
			schema = 1;
		} else if (!strcmp(key.buf, "source") && bt_jr_peek(r) == BT_J_STRING) {
			if (!(rc = bt_jr_string(r, &val))) {
				free(s->source);   /* the last one is kept */
				s->source = bt_xstrdup(val.buf);
			}
		} else if (!strcmp(key.buf, "groups")) {
			rc = read_groups(r, s, &key, &val);
		} else if (!strcmp(key.buf, "values")) {
			rc = read_values(r, s, &key);
		} else if (!strcmp(key.buf, "methods") || !strcmp(key.buf, "waits")) {
			rc = read_list(r, s, key.buf[0] == 'm', &key, &val);
		} else if (!strcmp(key.buf, "frames")) {
			rc = bt_dist_read_json(r, &s->frames, &key);
			s->has_frames = 1;
		} else {
			rc = bt_jr_skip(r);
		}
	}
	rc = end(r, rc, more);
	if (!rc && !schema)
		rc = bt_jr_fail(r, "not a summary (no \"schema\")");
	bt_buf_release(&key);
	bt_buf_release(&val);
	if (rc)
		bt_summary_release(s);
	return rc;
}
