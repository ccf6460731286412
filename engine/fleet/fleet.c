/*
 * A fleet's state (fleet.h): keyed tables that fold the keys past their
 * limit by hash, groups of tables, and adding a summary or merging another
 * fleet into them. Every operation adds integers, so any order and any
 * partition of the inputs give the same state once finished.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/fleet/fleet.h"
#include "engine/fleet/fleet_int.h"

static void group_init(struct bt_fl_group *g);
static void group_release(struct bt_fl_group *g);
static void group_merge(struct bt_fl_group *g, struct bt_fl_group *o);

static void table_init(struct bt_fl_table *t, enum bt_fl_fold fold, size_t limit)
{
	memset(t, 0, sizeof *t);
	t->fold = fold;
	t->limit = limit;
	bt_strmap_init(&t->map);
}

static void keys_init(struct bt_fl_table *t)
{
	table_init(t, BT_FL_DROP, BT_FLEET_KEYS);
}

static struct bt_fl_group *group_new(void)
{
	struct bt_fl_group *g = bt_xmalloc(sizeof *g);

	group_init(g);
	return g;
}

static void group_free(struct bt_fl_group *g)
{
	group_release(g);
	free(g);
}

static void table_release(struct bt_fl_table *t);

static void item_release(struct bt_fl_item *it)
{
	free(it->key);
	bt_dist_release(&it->d);
	if (it->g)
		group_free(it->g);
	if (it->sub) {
		table_release(it->sub);
		free(it->sub);
	}
}

static void table_release(struct bt_fl_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		item_release(&t->v[i]);
	free(t->v);
	free(t->cut_key);
	bt_strmap_release(&t->map);
	if (t->other_group)
		group_free(t->other_group);
	memset(t, 0, sizeof *t);
}

static void group_init(struct bt_fl_group *g)
{
	g->traces = 0;
	table_init(&g->values, BT_FL_DROP, BT_FLEET_VALUES);
	table_init(&g->methods, BT_FL_SUMS, BT_FLEET_METHODS);
	table_init(&g->waits, BT_FL_SUMS, BT_FLEET_WAITS);
	bt_dist_init(&g->frames);
}

static void group_release(struct bt_fl_group *g)
{
	table_release(&g->values);
	table_release(&g->methods);
	table_release(&g->waits);
	bt_dist_release(&g->frames);
}

/* (hash, key bytes): the order that decides which keys a limit keeps. */
static int hash_cmp(uint64_t ha, const char *a, size_t la, uint64_t hb, const char *b, size_t lb)
{
	int c;

	if (ha != hb)
		return ha < hb ? -1 : 1;
	c = memcmp(a, b, la < lb ? la : lb);
	return c ? c : la < lb ? -1 : la > lb;
}

static int item_hash_order(const void *a, const void *b)
{
	const struct bt_fl_item *x = a, *y = b;

	return hash_cmp(x->hash, x->key, x->len, y->hash, y->key, y->len);
}

/* Fold an item that will not be kept into t's other (it is released). */
static void fold(struct bt_fl_table *t, struct bt_fl_item *it)
{
	int k;

	t->folded++;
	if (t->fold == BT_FL_SUMS)
		for (k = 0; k < 3; k++)
			t->other[k] = bt_sat_add(t->other[k], it->s[k]);
	if (t->fold == BT_FL_GROUPS && it->g) {
		if (!t->other_group)
			t->other_group = group_new();
		group_merge(t->other_group, it->g);
	}
	item_release(it);
}

static void remap(struct bt_fl_table *t)
{
	size_t i;

	bt_strmap_release(&t->map);
	bt_strmap_init(&t->map);
	for (i = 0; i < t->n; i++)
		bt_strmap_put_h(&t->map, t->v[i].key, t->v[i].len, t->v[i].hash, (uint32_t)(i + 1));
}

/* Keep the limit keys of smallest hash; fold the rest; remember the cut. */
static void prune(struct bt_fl_table *t)
{
	size_t i;

	if (!t->limit || t->n <= t->limit)
		return;
	qsort(t->v, t->n, sizeof *t->v, item_hash_order);
	for (i = t->limit; i < t->n; i++)
		fold(t, &t->v[i]);
	t->n = t->limit;
	t->cut = 1;
	t->cut_hash = t->v[t->n - 1].hash;
	free(t->cut_key);
	t->cut_len = t->v[t->n - 1].len;
	t->cut_key = bt_xstrndup(t->v[t->n - 1].key, t->cut_len);
	remap(t);
}

/* The item of key, made if new; NULL when the limit folds key (no
 * sooner kept key could be dropped for it). */
static struct bt_fl_item *table_get_h(struct bt_fl_table *t, const char *key, size_t len, uint64_t h)
{
	struct bt_fl_item *it;
	uint32_t at = bt_strmap_get_h(&t->map, key, len, h);

	if (at)
		return &t->v[at - 1];
	if (t->limit && t->n >= 2 * t->limit)
		prune(t);
	if (t->cut && hash_cmp(h, key, len, t->cut_hash, t->cut_key, t->cut_len) > 0)
		return NULL;
	BT_GROW(t->v, t->n + 1, t->cap);
	it = &t->v[t->n++];
	memset(it, 0, sizeof *it);
	it->key = bt_xstrndup(key, len);
	it->len = len;
	it->hash = h;
	bt_strmap_put_h(&t->map, key, len, h, (uint32_t)t->n);
	return it;
}

static struct bt_fl_item *table_get(struct bt_fl_table *t, const char *key, size_t len)
{
	return table_get_h(t, key, len, bt_hash_bytes(key, len));
}

/* A summary's keys, hashed once for all the groups it is added to. */
struct fl_key {
	const char *s;
	size_t len;
	uint64_t h;
	int bucket;         /* the sketch's bucket of the item's distribution value */
};

struct prepared {
	const struct bt_summary *s;
	struct fl_key *values, *methods, *waits;
	struct bt_buf waitkeys;      /* "KIND\tHOLDER\0" after one another */
};

static void key_of(struct fl_key *k, const char *s, size_t len, int64_t v)
{
	k->s = s;
	k->len = len;
	k->h = bt_hash_bytes(s, len);
	k->bucket = v > 0 ? bt_dist_index(v) : 0;
}

static void prepare(struct prepared *p, const struct bt_summary *s)
{
	size_t i, *at = bt_xmalloc((s->nwaits + 1) * sizeof *at);

	p->s = s;
	p->values = bt_xmalloc((s->nvalues + 1) * sizeof *p->values);
	p->methods = bt_xmalloc((s->nmethods + 1) * sizeof *p->methods);
	p->waits = bt_xmalloc((s->nwaits + 1) * sizeof *p->waits);
	bt_buf_init(&p->waitkeys);
	for (i = 0; i < s->nvalues; i++)
		key_of(&p->values[i], s->values[i].name, strlen(s->values[i].name), s->values[i].v);
	for (i = 0; i < s->nmethods; i++)
		key_of(&p->methods[i], s->methods[i].name, strlen(s->methods[i].name), s->methods[i].self_cpu);
	for (i = 0; i < s->nwaits; i++) {   /* offsets first: the buffer moves as it grows */
		at[i] = p->waitkeys.len;
		bt_buf_adds(&p->waitkeys, s->waits[i].kind);
		bt_buf_addc(&p->waitkeys, '\t');
		bt_buf_adds(&p->waitkeys, s->waits[i].holder);
		bt_buf_addc(&p->waitkeys, '\0');
	}
	for (i = 0; i < s->nwaits; i++)
		key_of(&p->waits[i], p->waitkeys.buf + at[i], strlen(p->waitkeys.buf + at[i]), s->waits[i].ns);
	free(at);
}

static void unprepare(struct prepared *p)
{
	free(p->values);
	free(p->methods);
	free(p->waits);
	bt_buf_release(&p->waitkeys);
}

/* Sums of a method or wait, to its item or, folded, to the table's other. */
static void add_sums(struct bt_fl_table *t, const struct fl_key *k, const int64_t s[3], int64_t dist)
{
	struct bt_fl_item *it = table_get_h(t, k->s, k->len, k->h);
	int i;

	if (!it) {
		t->folded++;
		for (i = 0; i < 3; i++)
			t->other[i] = bt_sat_add(t->other[i], s[i]);
		return;
	}
	it->traces++;
	for (i = 0; i < 3; i++)
		it->s[i] = bt_sat_add(it->s[i], s[i]);
	bt_dist_add_at(&it->d, dist, k->bucket);
}

static void group_add(struct bt_fl_group *g, const struct prepared *p)
{
	const struct bt_summary *s = p->s;
	size_t i;

	g->traces++;
	for (i = 0; i < s->nvalues; i++) {
		struct bt_fl_item *it = table_get_h(&g->values, p->values[i].s, p->values[i].len, p->values[i].h);
		if (!it) {
			g->values.folded++;
			continue;
		}
		it->traces++;
		bt_dist_add_at(&it->d, s->values[i].v, p->values[i].bucket);
	}
	for (i = 0; s->has_methods && i < s->nmethods; i++) {
		const struct bt_sum_method *m = &s->methods[i];
		int64_t v[3] = { m->self_cpu, m->self, m->incl };
		add_sums(&g->methods, &p->methods[i], v, m->self_cpu);
	}
	if (s->has_methods) {
		g->methods.other[0] = bt_sat_add(g->methods.other[0], s->other_self_cpu);
		g->methods.other[1] = bt_sat_add(g->methods.other[1], s->other_self);
	}
	for (i = 0; s->has_waits && i < s->nwaits; i++) {
		const struct bt_sum_wait *w = &s->waits[i];
		int64_t v[3] = { w->waits, w->ns, 0 };
		add_sums(&g->waits, &p->waits[i], v, w->ns);
	}
	if (s->has_waits) {
		g->waits.other[0] = bt_sat_add(g->waits.other[0], s->other_waits);
		g->waits.other[1] = bt_sat_add(g->waits.other[1], s->other_ns);
	}
	if (s->has_frames)
		bt_dist_merge(&g->frames, &s->frames);
}

/* The values table of a group key (made if new); NULL when dropped. */
static struct bt_fl_table *key_values(struct bt_fleet *f, const char *key, size_t len)
{
	struct bt_fl_item *it = table_get(&f->keys, key, len);

	if (!it) {
		f->keys.folded++;
		return NULL;
	}
	if (!it->sub) {
		it->sub = bt_xmalloc(sizeof *it->sub);
		table_init(it->sub, BT_FL_GROUPS, BT_FLEET_GROUP_VALUES);
	}
	return it->sub;
}

/* The group of value in t, made if new; folded: t's other group. */
static struct bt_fl_group *value_group(struct bt_fl_table *t, const char *value, size_t len)
{
	struct bt_fl_item *it = table_get(t, value, len);

	if (!it) {
		t->folded++;
		if (!t->other_group)
			t->other_group = group_new();
		return t->other_group;
	}
	if (!it->g)
		it->g = group_new();
	return it->g;
}

void bt_fleet_init(struct bt_fleet *f)
{
	group_init(&f->all);
	keys_init(&f->keys);
}

void bt_fleet_release(struct bt_fleet *f)
{
	if (!f)
		return;
	group_release(&f->all);
	table_release(&f->keys);
}

void bt_fleet_add(struct bt_fleet *f, const struct bt_summary *s)
{
	struct prepared p;
	size_t i;

	prepare(&p, s);
	group_add(&f->all, &p);
	for (i = 0; i < s->ngroups; i++) {
		struct bt_fl_table *t = key_values(f, s->groups[i].key, strlen(s->groups[i].key));
		if (t)
			group_add(value_group(t, s->groups[i].value, strlen(s->groups[i].value)), &p);
	}
	unprepare(&p);
}

static void table_merge(struct bt_fl_table *t, const struct bt_fl_table *o)
{
	size_t i;
	int k;

	for (i = 0; i < o->n; i++) {
		const struct bt_fl_item *src = &o->v[i];
		struct bt_fl_item *it = table_get(t, src->key, src->len);
		if (!it) {
			struct bt_fl_item tmp;
			memset(&tmp, 0, sizeof tmp);
			memcpy(tmp.s, src->s, sizeof tmp.s);
			if (src->g) {
				tmp.g = group_new();
				group_merge(tmp.g, src->g);
			}
			fold(t, &tmp);
			continue;
		}
		it->traces = bt_sat_add(it->traces, src->traces);
		for (k = 0; k < 3; k++)
			it->s[k] = bt_sat_add(it->s[k], src->s[k]);
		bt_dist_merge(&it->d, &src->d);
		if (src->g) {
			if (!it->g)
				it->g = group_new();
			group_merge(it->g, src->g);
		}
		if (src->sub) {
			if (!it->sub) {
				it->sub = bt_xmalloc(sizeof *it->sub);
				table_init(it->sub, src->sub->fold, src->sub->limit);
			}
			table_merge(it->sub, src->sub);
		}
	}
	for (k = 0; k < 3; k++)
		t->other[k] = bt_sat_add(t->other[k], o->other[k]);
	if (o->other_group) {
		if (!t->other_group)
			t->other_group = group_new();
		group_merge(t->other_group, o->other_group);
	}
	t->folded += o->folded;
}

static void group_merge(struct bt_fl_group *g, struct bt_fl_group *o)
{
	g->traces = bt_sat_add(g->traces, o->traces);
	table_merge(&g->values, &o->values);
	table_merge(&g->methods, &o->methods);
	table_merge(&g->waits, &o->waits);
	bt_dist_merge(&g->frames, &o->frames);
}

void bt_fleet_merge(struct bt_fleet *f, struct bt_fleet *o)
{
	group_merge(&f->all, &o->all);
	table_merge(&f->keys, &o->keys);
}

/* Where key is in t (1 + its index), 0 if not: the map is keyed by
 * bt_hash_bytes everywhere (table_get_h). */
static uint32_t table_at(const struct bt_fl_table *t, const char *key)
{
	size_t len = strlen(key);

	return bt_strmap_get_h(&t->map, key, len, bt_hash_bytes(key, len));
}

static void table_remove(struct bt_fl_table *t, const char *key)
{
	uint32_t at = table_at(t, key);

	if (!at)
		return;
	item_release(&t->v[at - 1]);
	memmove(&t->v[at - 1], &t->v[at], (t->n - at) * sizeof *t->v);
	t->n--;
	remap(t);
}

void bt_fleet_regroup(struct bt_fleet *o, const char *key, const char *value)
{
	struct bt_fl_table *t;

	table_remove(&o->keys, key);
	if ((t = key_values(o, key, strlen(key))))
		group_merge(value_group(t, value, strlen(value)), &o->all);
}

static void group_finish(struct bt_fl_group *g);

static void table_finish(struct bt_fl_table *t)
{
	size_t i;

	prune(t);
	for (i = 0; i < t->n; i++) {
		if (t->v[i].g)
			group_finish(t->v[i].g);
		if (t->v[i].sub)
			table_finish(t->v[i].sub);
	}
	if (t->other_group)
		group_finish(t->other_group);
}

static void group_finish(struct bt_fl_group *g)
{
	table_finish(&g->values);
	table_finish(&g->methods);
	table_finish(&g->waits);
}

void bt_fleet_finish(struct bt_fleet *f)
{
	group_finish(&f->all);
	table_finish(&f->keys);
}

static int64_t table_folded(const struct bt_fl_table *t);

static int64_t group_folded(const struct bt_fl_group *g)
{
	return g ? table_folded(&g->values) + table_folded(&g->methods) + table_folded(&g->waits) : 0;
}

static int64_t table_folded(const struct bt_fl_table *t)
{
	int64_t n = t->folded + group_folded(t->other_group);
	size_t i;

	for (i = 0; i < t->n; i++)
		n += group_folded(t->v[i].g) + (t->v[i].sub ? table_folded(t->v[i].sub) : 0);
	return n;
}

int64_t bt_fleet_folded(const struct bt_fleet *f)
{
	return group_folded(&f->all) + table_folded(&f->keys);
}

static int key_order(const void *a, const void *b)
{
	const struct bt_fl_item *x = *(const struct bt_fl_item *const *)a, *y = *(const struct bt_fl_item *const *)b;
	int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);

	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

struct bt_fl_item **bt_fl_sorted(const struct bt_fl_table *t)
{
	struct bt_fl_item **p = bt_xmalloc((t->n ? t->n : 1) * sizeof *p);
	size_t i;

	for (i = 0; i < t->n; i++)
		p[i] = &t->v[i];
	qsort(p, t->n, sizeof *p, key_order);
	return p;
}

const struct bt_fl_item *bt_fl_find(const struct bt_fl_table *t, const char *key)
{
	uint32_t at = table_at(t, key);

	return at ? &t->v[at - 1] : NULL;
}

/* ---- for the reader (fleet_int.h) ------------------------------------- */

void bt_fl_group_init(struct bt_fl_group *g)
{
	group_init(g);
}

void bt_fl_group_release(struct bt_fl_group *g)
{
	group_release(g);
}

void bt_fleet_put_item(struct bt_fl_table *t, const char *key, size_t len, int64_t traces,
		       const int64_t s[3], const struct bt_dist *d)
{
	struct bt_fl_item *it = table_get(t, key, len);
	int k;

	if (!it) {
		t->folded++;
		for (k = 0; s && t->fold == BT_FL_SUMS && k < 3; k++)
			t->other[k] = bt_sat_add(t->other[k], s[k]);
		return;
	}
	it->traces = bt_sat_add(it->traces, traces);
	for (k = 0; s && k < 3; k++)
		it->s[k] = bt_sat_add(it->s[k], s[k]);
	bt_dist_merge(&it->d, d);
}

void bt_fleet_put_other(struct bt_fl_table *t, const int64_t s[3])
{
	int k;

	for (k = 0; k < 3; k++)
		t->other[k] = bt_sat_add(t->other[k], s[k]);
}

void bt_fleet_put_group(struct bt_fleet *f, const char *key, size_t klen, const char *value, size_t vlen,
			struct bt_fl_group *g)
{
	struct bt_fl_table *t = key_values(f, key, klen);

	if (!t)
		return;
	if (!value) {
		if (!t->other_group)
			t->other_group = group_new();
		group_merge(t->other_group, g);
		return;
	}
	group_merge(value_group(t, value, vlen), g);
}
