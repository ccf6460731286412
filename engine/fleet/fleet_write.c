/*
 * A fleet summary as JSON (engine/fleet/README.md, part 2): finished
 * first, every map's keys in byte order, the buckets compact, so equal
 * states are equal bytes whatever order built them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/jsonw.h"
#include "engine/fleet/fleet.h"

static void key(struct bt_jsonw *w, const struct bt_fl_item *it)
{
	bt_jsonw_key(w, it->key);
}

static void values(struct bt_jsonw *w, const struct bt_fl_table *t)
{
	struct bt_fl_item **v = bt_fl_sorted(t);
	size_t i;

	bt_jsonw_key(w, "values");
	bt_jsonw_begin_object(w);
	for (i = 0; i < t->n; i++) {
		key(w, v[i]);
		bt_dist_write_json(w, &v[i]->d);
	}
	bt_jsonw_end_object(w);
	free(v);
}

static void sums(struct bt_jsonw *w, const char *const *names, const int64_t *s, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		bt_jsonw_key(w, names[k]);
		bt_jsonw_int(w, s[k]);
	}
}

/* methods: self_cpu_ns, self_ns, incl_ns (other: the first two); waits:
 * waits, ns. */
static void items(struct bt_jsonw *w, const char *name, const struct bt_fl_table *t, int methods)
{
	static const char *const mcols[3] = { "self_cpu_ns", "self_ns", "incl_ns" };
	static const char *const wcols[2] = { "waits", "ns" };
	struct bt_fl_item **v = bt_fl_sorted(t);
	size_t i;

	bt_jsonw_key(w, name);
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "items");
	bt_jsonw_begin_object(w);
	for (i = 0; i < t->n; i++) {
		key(w, v[i]);
		bt_jsonw_begin_object(w);
		bt_jsonw_key(w, "traces");
		bt_jsonw_int(w, v[i]->traces);
		sums(w, methods ? mcols : wcols, v[i]->s, methods ? 3 : 2);
		bt_jsonw_key(w, "dist");
		bt_dist_write_json(w, &v[i]->d);
		bt_jsonw_end_object(w);
	}
	bt_jsonw_end_object(w);
	bt_jsonw_key(w, "other");
	bt_jsonw_begin_object(w);
	sums(w, methods ? mcols : wcols, t->other, 2);
	bt_jsonw_end_object(w);
	bt_jsonw_end_object(w);
	free(v);
}

static void group(struct bt_jsonw *w, const struct bt_fl_group *g)
{
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "traces");
	bt_jsonw_int(w, g->traces);
	values(w, &g->values);
	items(w, "methods", &g->methods, 1);
	items(w, "waits", &g->waits, 0);
	if (g->frames.n) {   /* none in a fleet without frames: its bytes as before */
		bt_jsonw_key(w, "frames");
		bt_dist_write_json(w, &g->frames);
	}
	bt_jsonw_end_object(w);
}

static void groups(struct bt_jsonw *w, const struct bt_fl_table *keys)
{
	struct bt_fl_item **k = bt_fl_sorted(keys);
	size_t i, j;

	bt_jsonw_key(w, "groups");
	bt_jsonw_begin_object(w);
	for (i = 0; i < keys->n; i++) {
		const struct bt_fl_table *t = k[i]->sub;
		struct bt_fl_item **v;
		if (!t)
			continue;
		v = bt_fl_sorted(t);
		key(w, k[i]);
		bt_jsonw_begin_object(w);
		bt_jsonw_key(w, "values");
		bt_jsonw_begin_object(w);
		for (j = 0; j < t->n; j++) {
			key(w, v[j]);
			group(w, v[j]->g);
		}
		bt_jsonw_end_object(w);
		bt_jsonw_key(w, "other");
		if (t->other_group)
			group(w, t->other_group);
		else
			bt_jsonw_null(w);
		bt_jsonw_end_object(w);
		free(v);
	}
	bt_jsonw_end_object(w);
	free(k);
}

int bt_fleet_write_json(struct bt_fleet *f, FILE *out, struct bt_err *err)
{
	struct bt_jsonw w;

	bt_fleet_finish(f);
	bt_jsonw_init(&w, out, 1);
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "schema");
	bt_jsonw_cstr(&w, BT_FLEET_SCHEMA);
	bt_jsonw_key(&w, "sketch");
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "alpha");
	bt_jsonw_real(&w, BT_DIST_ALPHA);
	bt_jsonw_key(&w, "gamma");
	bt_jsonw_real(&w, bt_dist_gamma());
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "limits");
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "methods");
	bt_jsonw_int(&w, BT_FLEET_METHODS);
	bt_jsonw_key(&w, "waits");
	bt_jsonw_int(&w, BT_FLEET_WAITS);
	bt_jsonw_key(&w, "group_values");
	bt_jsonw_int(&w, BT_FLEET_GROUP_VALUES);
	bt_jsonw_key(&w, "values");
	bt_jsonw_int(&w, BT_FLEET_VALUES);
	bt_jsonw_key(&w, "group_keys");
	bt_jsonw_int(&w, BT_FLEET_KEYS);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "all");
	group(&w, &f->all);
	groups(&w, &f->keys);
	bt_jsonw_end_object(&w);
	if (ferror(out))
		return bt_err_set(err, BT_EIO, "cannot write the fleet summary: %s", strerror(errno));
	return BT_OK;
}
