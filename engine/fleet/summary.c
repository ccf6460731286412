/*
 * A trace's summary from its database (summary.h): the values, groups,
 * methods, waits and frame times queries (queries/summary_*.sql), the
 * app's top K methods and waits kept, the rest summed into "other".
 */
#include <stdlib.h>
#include <string.h>

#include "engine/db/appcode.h"
#include "engine/db/rows.h"
#include "engine/fleet/summary.h"

void bt_summary_init(struct bt_summary *s)
{
	memset(s, 0, sizeof *s);
}

void bt_summary_release(struct bt_summary *s)
{
	size_t i;

	if (!s)
		return;
	free(s->source);
	for (i = 0; i < s->ngroups; i++) {
		free(s->groups[i].key);
		free(s->groups[i].value);
	}
	for (i = 0; i < s->nvalues; i++)
		free(s->values[i].name);
	for (i = 0; i < s->nmethods; i++)
		free(s->methods[i].name);
	for (i = 0; i < s->nwaits; i++) {
		free(s->waits[i].kind);
		free(s->waits[i].holder);
	}
	free(s->groups);
	free(s->values);
	free(s->methods);
	free(s->waits);
	bt_dist_release(&s->frames);
	bt_summary_init(s);
}

const char *bt_summary_group(const struct bt_summary *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->ngroups; i++)
		if (!strcmp(s->groups[i].key, key))
			return s->groups[i].value;
	return NULL;
}

void bt_summary_set_group(struct bt_summary *s, const char *key, const char *value)
{
	size_t i, cap = s->ngroups;

	for (i = 0; i < s->ngroups && strcmp(s->groups[i].key, key) < 0; i++)
		;
	if (i < s->ngroups && !strcmp(s->groups[i].key, key)) {
		free(s->groups[i].value);
		if (value && *value) {
			s->groups[i].value = bt_xstrdup(value);
			return;
		}
		free(s->groups[i].key);
		memmove(&s->groups[i], &s->groups[i + 1], (s->ngroups - i - 1) * sizeof *s->groups);
		s->ngroups--;
		return;
	}
	if (!value || !*value)
		return;
	BT_GROW(s->groups, s->ngroups + 1, cap);
	memmove(&s->groups[i + 1], &s->groups[i], (s->ngroups - i) * sizeof *s->groups);
	s->groups[i].key = bt_xstrdup(key);
	s->groups[i].value = bt_xstrdup(value);
	s->ngroups++;
}

static char *dup_text(struct bt_rows *r, int col)
{
	const char *t = bt_rows_text(r, col, NULL);

	return bt_xstrdup(t ? t : "");
}

static int load_groups(struct bt_db *db, struct bt_summary *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_SUMMARY_GROUPS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1)
		bt_summary_set_group(s, bt_rows_text(r, 0, NULL), bt_rows_text(r, 1, NULL));
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int load_values(struct bt_db *db, struct bt_summary *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_SUMMARY_VALUES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		BT_GROW(s->values, s->nvalues + 1, cap);
		s->values[s->nvalues].name = dup_text(r, 0);
		s->values[s->nvalues++].v = bt_rows_int(r, 1);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* Rows come by self CPU (then name): the first K of the app's are kept. */
static int load_methods(struct bt_db *db, struct bt_summary *s, struct bt_err *err)
{
	const char *pkg = bt_summary_group(s, "package");
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_SUMMARY_METHODS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *name = bt_rows_text(r, 0, NULL);
		int64_t cpu = bt_rows_int(r, 1), self = bt_rows_int(r, 2);
		if (s->nmethods < BT_SUMMARY_METHODS && name && bt_frame_in_package(name, pkg)) {
			struct bt_sum_method *m;
			BT_GROW(s->methods, s->nmethods + 1, cap);
			m = &s->methods[s->nmethods++];
			m->name = bt_xstrdup(name);
			m->self_cpu = cpu;
			m->self = self;
			m->incl = bt_rows_int(r, 3);
		} else {
			s->other_self_cpu = bt_sat_add(s->other_self_cpu, cpu);
			s->other_self = bt_sat_add(s->other_self, self);
		}
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static void add_wait(struct bt_summary *s, size_t *cap, const char *kind, const char *holder, int64_t dur)
{
	struct bt_sum_wait *w;
	size_t i;

	for (i = 0; i < s->nwaits; i++)
		if (!strcmp(s->waits[i].kind, kind) && !strcmp(s->waits[i].holder, holder))
			break;
	if (i == s->nwaits) {
		BT_GROW(s->waits, s->nwaits + 1, *cap);
		w = &s->waits[s->nwaits++];
		w->kind = bt_xstrdup(kind);
		w->holder = bt_xstrdup(holder);
		w->waits = w->ns = 0;
	}
	s->waits[i].waits++;
	s->waits[i].ns = bt_sat_add(s->waits[i].ns, dur);
}

static int wait_order(const void *a, const void *b)
{
	const struct bt_sum_wait *x = a, *y = b;
	int c;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	c = strcmp(x->kind, y->kind);
	return c ? c : strcmp(x->holder, y->holder);
}

/* Keep the top K by ns; the rest are summed into other. */
static void cut_waits(struct bt_summary *s)
{
	size_t i;

	if (s->nwaits > 1)
		qsort(s->waits, s->nwaits, sizeof *s->waits, wait_order);
	for (i = BT_SUMMARY_WAITS; i < s->nwaits; i++) {
		s->other_waits += s->waits[i].waits;
		s->other_ns = bt_sat_add(s->other_ns, s->waits[i].ns);
		free(s->waits[i].kind);
		free(s->waits[i].holder);
	}
	if (s->nwaits > BT_SUMMARY_WAITS)
		s->nwaits = BT_SUMMARY_WAITS;
}

/* One row per (wait, rank): each wait's holder is its first app method,
 * else its rank-1 method, else "(unknown)". */
static int load_waits(struct bt_db *db, struct bt_summary *s, struct bt_err *err)
{
	const char *pkg = bt_summary_group(s, "package");
	struct bt_buf kind = BT_BUF_INIT, holder = BT_BUF_INIT;
	struct bt_rows *r = NULL;
	int64_t edge = 0, dur = 0;
	size_t cap = 0;
	int rc, have = 0, app = 0;

	if (bt_rows_open(&r, db, BT_SQL_SUMMARY_WAITS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *name = bt_rows_text(r, 4, NULL);
		if (!have || bt_rows_int(r, 0) != edge) {
			if (have)
				add_wait(s, &cap, kind.buf, holder.len ? holder.buf : "(unknown)", dur);
			have = 1;
			edge = bt_rows_int(r, 0);
			dur = bt_rows_int(r, 2);
			bt_buf_reset(&kind);
			bt_buf_adds(&kind, bt_rows_text(r, 1, NULL) ? bt_rows_text(r, 1, NULL) : "");
			bt_buf_reset(&holder);
			if (name)
				bt_buf_adds(&holder, name);
			app = name && bt_frame_in_package(name, pkg);
		} else if (name && !app && bt_frame_in_package(name, pkg)) {
			bt_buf_reset(&holder);
			bt_buf_adds(&holder, name);
			app = 1;
		}
	}
	if (rc >= 0 && have)
		add_wait(s, &cap, kind.buf, holder.len ? holder.buf : "(unknown)", dur);
	bt_rows_close(r);
	bt_buf_release(&kind);
	bt_buf_release(&holder);
	if (rc < 0)
		return err->code;
	cut_waits(s);
	return BT_OK;
}

/* The display frames' times into the frame-time sketch, where it has some. */
static int load_frames(struct bt_db *db, struct bt_summary *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_SUMMARY_FRAME_TIMES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		s->has_frames = 1;
		bt_dist_add(&s->frames, bt_rows_int(r, 0));
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_summary_load(struct bt_db *db, struct bt_summary *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	bt_summary_init(s);
	rc = load_groups(db, s, err);
	rc = rc ? rc : load_values(db, s, err);
	if (!rc && !(rc = bt_rows_open(&r, db, BT_SQL_SUMMARY_HAS_STARTUP, err))) {
		if ((rc = bt_rows_next(r, err)) == 1)
			s->has_methods = s->has_waits = bt_rows_int(r, 0) > 0;
		rc = rc < 0 ? err->code : BT_OK;
		bt_rows_close(r);
	}
	if (!rc && s->has_methods)
		rc = load_methods(db, s, err);
	if (!rc && s->has_waits)
		rc = load_waits(db, s, err);
	if (!rc)
		rc = load_frames(db, s, err);
	if (!rc && !(rc = bt_rows_open(&r, db, BT_SQL_GET_META, err))) {
		bt_rows_bind_text(r, 1, "source", 6);
		if ((rc = bt_rows_next(r, err)) == 1)
			s->source = bt_rows_text(r, 0, NULL) ? bt_xstrdup(bt_rows_text(r, 0, NULL)) : NULL;
		rc = rc < 0 ? err->code : BT_OK;
		bt_rows_close(r);
	}
	if (rc)
		bt_summary_release(s);
	return rc;
}
