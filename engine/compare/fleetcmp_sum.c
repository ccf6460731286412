/*
 * A fleet summary as the runs of one side (fleetcmp.h): merge's fleet@1
 * JSON (engine/fleet/README.md) holds, per measure, a log-bucketed
 * histogram of its per-trace values, not the traces. Each histogram is
 * read back into values (each bucket's count at its representative
 * value, clamped to the measure's min and max) and the values of every
 * measure are dealt to the side's runs in rank order, so that each
 * measure's distribution is the summary's; which trace had which values
 * together is not known, so compare's family for these runs is Holm's
 * (compare.h), which needs no joint values.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/jsonr.h"
#include "engine/compare/fleetcmp.h"
#include "engine/compare/runs.h"

struct bucket {
	int64_t idx;
	double count;
};

/* One measure's histogram (a DIST). */
struct dist {
	char *name;                /* compare's metric name (owned) */
	double scale;              /* compare's value of one of the summary's */
	double n, zeros, min, max;
	struct bucket *b;
	size_t nb, cap;
};

struct fsum {
	double gamma, traces;
	int schema;
	const char *key, *value;   /* the group read: groups.KEY.values.VALUE; NULL: "all" */
	int found;
	struct dist *d;
	size_t n, cap;
};

static int number(struct bt_jr *jr, double *v)
{
	if (bt_jr_peek(jr) == BT_J_NULL) {
		*v = NAN;
		return bt_jr_skip(jr);
	}
	if (bt_jr_peek(jr) != BT_J_NUMBER)
		return bt_jr_fail(jr, "a fleet summary's number is not a number");
	return bt_jr_number(jr, v);
}

static int read_buckets(struct bt_jr *jr, struct dist *d)
{
	int more = 0, rc = bt_jr_peek(jr) == BT_J_ARRAY ? bt_jr_array(jr) :
		bt_jr_fail(jr, "\"buckets\" is not an array");
	double i, k;

	while (!rc && (more = bt_jr_more(jr)) == 1) {
		if (bt_jr_peek(jr) != BT_J_ARRAY || (rc = bt_jr_array(jr)))
			return rc ? rc : bt_jr_fail(jr, "a bucket is not [index, count]");
		if (bt_jr_more(jr) != 1 || (rc = number(jr, &i)) || bt_jr_more(jr) != 1 ||
		    (rc = number(jr, &k)) || bt_jr_more(jr) != 0)
			return rc ? rc : bt_jr_fail(jr, "a bucket is not [index, count]");
		if (!(i >= 0 && i < 1e6 && k >= 0 && k < 1e15))
			return bt_jr_fail(jr, "a bucket's index or count is out of range");
		BT_GROW(d->b, d->nb + 1, d->cap);
		d->b[d->nb].idx = (int64_t)i;
		d->b[d->nb++].count = floor(k);
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* A DIST object into a new dist named name. */
static int read_dist(struct bt_jr *jr, struct fsum *f, const char *name, double scale, struct bt_buf *key)
{
	struct dist *d;
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "a distribution is not an object");

	BT_GROW(f->d, f->n + 1, f->cap);
	d = &f->d[f->n++];
	memset(d, 0, sizeof *d);
	d->name = bt_xstrdup(name);
	d->scale = scale;
	d->min = d->max = NAN;
	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		if (!strcmp(key->buf, "n"))
			rc = number(jr, &d->n);
		else if (!strcmp(key->buf, "zeros"))
			rc = number(jr, &d->zeros);
		else if (!strcmp(key->buf, "min"))
			rc = number(jr, &d->min);
		else if (!strcmp(key->buf, "max"))
			rc = number(jr, &d->max);
		else if (!strcmp(key->buf, "buckets"))
			rc = read_buckets(jr, d);
		else
			rc = bt_jr_skip(jr);
	}
	if (!rc && more < 0)
		rc = jr->err->code;
	if (!rc && !(d->n >= 0 && d->zeros >= 0 && d->zeros <= d->n))
		rc = bt_jr_fail(jr, "a distribution's n or zeros is out of range");
	return rc;
}

/* compare's name of a summary value: gate.lua's or frames.lua's where it
 * has one; *scale turns the summary's value into compare's (janky frames
 * per million into per cent). */
static void value_name(const char *v, struct bt_buf *b, double *scale)
{
	size_t n = strlen(v);

	bt_buf_reset(b);
	*scale = 1;
	if (!strcmp(v, "frames.janky_ppm"))
		bt_buf_adds(b, "frames.janky_pct"), *scale = 1e-4;
	else if (!strncmp(v, "startup.phase.", 14) && n > 17 && !strcmp(v + n - 3, "_ns"))
		bt_buf_addf(b, "startup.phase.%.*s.dur_ns", (int)(n - 17), v + 14);
	else if (!strncmp(v, "main.", 5))
		bt_buf_addf(b, "thread.%s", v);
	else
		bt_buf_adds(b, v);
}

/* "values": { NAME: DIST } */
static int read_values(struct bt_jr *jr, struct fsum *f, struct bt_buf *key)
{
	struct bt_buf name = BT_BUF_INIT;
	int more = 0, rc = bt_jr_object(jr);
	double scale;

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		value_name(key->buf, &name, &scale);
		rc = read_dist(jr, f, name.buf, scale, key);
	}
	bt_buf_release(&name);
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* An item of "methods" or "waits": its "dist", named as gate.lua would. */
static int read_item(struct bt_jr *jr, struct fsum *f, int waits, const char *k, struct bt_buf *key)
{
	struct bt_buf name = BT_BUF_INIT;
	const char *tab = strchr(k, '\t');
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "an item is not an object");

	if (waits && !tab)
		rc = rc ? rc : bt_jr_fail(jr, "a wait's key is not \"KIND<tab>HOLDER\"");
	if (waits && tab)
		bt_buf_addf(&name, "startup.main.wait.%.*s.by.%s.ns", (int)(tab - k), k, tab + 1);
	else
		bt_buf_addf(&name, "startup.main.method.%s.self_cpu_ns", k);
	while (!rc && (more = bt_jr_key(jr, key)) == 1)
		rc = !strcmp(key->buf, "dist") ? read_dist(jr, f, name.buf, 1, key) : bt_jr_skip(jr);
	bt_buf_release(&name);
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* "methods" / "waits": { "items": { KEY: ITEM }, "other": ... } */
static int read_items(struct bt_jr *jr, struct fsum *f, int waits, struct bt_buf *key)
{
	struct bt_buf k = BT_BUF_INIT;
	int more = 0, rc = bt_jr_object(jr), in;

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		if (strcmp(key->buf, "items") || bt_jr_peek(jr) != BT_J_OBJECT) {
			rc = bt_jr_skip(jr);
			continue;
		}
		rc = bt_jr_object(jr);
		while (!rc && (in = bt_jr_key(jr, &k)) == 1)
			rc = read_item(jr, f, waits, k.buf, key);
		if (!rc && in < 0)
			rc = jr->err->code;
	}
	bt_buf_release(&k);
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

static int read_group(struct bt_jr *jr, struct fsum *f, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "\"all\" is not an object");

	while (!rc && (more = bt_jr_key(jr, key)) == 1) {
		int obj = bt_jr_peek(jr) == BT_J_OBJECT;
		if (!strcmp(key->buf, "traces"))
			rc = number(jr, &f->traces);
		else if (!strcmp(key->buf, "values") && obj)
			rc = read_values(jr, f, key);
		else if ((!strcmp(key->buf, "methods") || !strcmp(key->buf, "waits")) && obj)
			rc = read_items(jr, f, key->buf[0] == 'w', key);
		else
			rc = bt_jr_skip(jr);
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* An object's member name, found (the reader at its value: 1), or not (0). */
static int member(struct bt_jr *jr, const char *name, struct bt_buf *key)
{
	int more, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) : BT_OK;

	if (rc || bt_jr_peek(jr) == BT_J_END)
		return rc ? -1 : 0;
	while ((more = bt_jr_key(jr, key)) == 1) {
		if (!strcmp(key->buf, name))
			return 1;
		if (bt_jr_skip(jr))
			return -1;
	}
	return more;
}

/* "groups": KEY -> "values" -> VALUE -> GROUP; the rest skipped unchecked. */
static int read_groups(struct bt_jr *jr, struct fsum *f, struct bt_buf *key)
{
	int at = bt_jr_peek(jr) == BT_J_OBJECT ? member(jr, f->key, key) : 0;

	if (at == 1 && bt_jr_peek(jr) == BT_J_OBJECT)
		at = member(jr, "values", key);
	if (at == 1 && bt_jr_peek(jr) == BT_J_OBJECT)
		at = member(jr, f->value, key);
	if (at < 0)
		return jr->err->code;
	f->found = at == 1;
	return f->found ? read_group(jr, f, key) : BT_OK;
}

static int read_sketch(struct bt_jr *jr, struct fsum *f, struct bt_buf *key)
{
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "\"sketch\" is not an object");

	while (!rc && (more = bt_jr_key(jr, key)) == 1)
		rc = !strcmp(key->buf, "gamma") ? number(jr, &f->gamma) : bt_jr_skip(jr);
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

static int read_fsum(struct bt_jr *jr, struct fsum *f)
{
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	int more = 0, rc = bt_jr_peek(jr) == BT_J_OBJECT ? bt_jr_object(jr) :
		bt_jr_fail(jr, "not a fleet summary (not a JSON object)");

	while (!rc && (more = bt_jr_key(jr, &key)) == 1) {
		if (!strcmp(key.buf, "schema") && bt_jr_peek(jr) == BT_J_STRING) {
			if (!(rc = bt_jr_string(jr, &val)) && strcmp(val.buf, BT_FLEETCMP_SCHEMA))
				rc = bt_jr_fail(jr, "not a fleet summary (schema is not \"" BT_FLEETCMP_SCHEMA "\")");
			f->schema = 1;
		} else if (!strcmp(key.buf, "sketch")) {
			rc = read_sketch(jr, f, &val);
		} else if (!strcmp(key.buf, "all") && !f->key) {
			rc = read_group(jr, f, &val);
		} else {
			rc = bt_jr_skip(jr);
		}
	}
	if (!rc && more < 0)
		rc = jr->err->code;
	if (!rc)
		rc = bt_jr_finish(jr);
	if (!rc && (!f->schema || !(f->gamma > 1 && f->gamma < 2)))
		rc = bt_jr_fail(jr, !f->schema ? "not a fleet summary (no \"schema\")" :
				"a fleet summary without its sketch's gamma");
	bt_buf_release(&key);
	bt_buf_release(&val);
	return rc;
}

/* Second pass, once schema and sketch are known: the group KEY=VALUE. */
static int read_selected(struct bt_jr *jr, struct fsum *f, const struct bt_fmap *m, const char *path)
{
	struct bt_buf key = BT_BUF_INIT;
	int rc = BT_OK;

	bt_jr_init(jr, m->data, m->len, path, jr->err);
	if (member(jr, "groups", &key) == 1)
		rc = read_groups(jr, f, &key);
	else if (jr->err->code)
		rc = jr->err->code;
	bt_buf_release(&key);
	if (!rc && !f->found)
		rc = bt_err_set(jr->err, BT_EUSAGE, "'%s' has no group %s=%s", path, f->key, f->value);
	return rc;
}

static int by_idx(const void *a, const void *b)
{
	const struct bucket *x = a, *y = b;

	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Bucket i's value: its representative 2 gamma^i / (gamma + 1) (bucket
 * 0: 1), clamped to [min, max] (engine/fleet/README.md's estimate). */
static double bucket_value(const struct dist *d, double gamma, int64_t i)
{
	double v = i > 0 ? 2 * pow(gamma, (double)i) / (gamma + 1) : 1;

	if (!isnan(d->min))
		v = fmax(v, d->min);
	if (!isnan(d->max))
		v = fmin(v, d->max);
	return v;
}

/* Deal each dist's values to runs first.. in rank order: k of them, at
 * evenly spaced ranks (all of them when the side has a run per trace);
 * the ranks only grow, so one walk over the buckets finds them all. A
 * bucket whose value is past a double (gamma^index overflows, no max to
 * clamp it) fails with the file and the measure (BT_EFORMAT). */
static int deal(struct bt_runs *rs, size_t first, size_t nruns, const struct fsum *f, const char *path,
		struct bt_err *err)
{
	size_t i, j, b;

	for (i = 0; i < f->n; i++) {
		struct dist *d = &f->d[i];
		double total = d->zeros, seen;
		size_t k, len = strlen(d->name);
		if (d->nb)
			qsort(d->b, d->nb, sizeof *d->b, by_idx);
		for (j = 0; j < d->nb; j++)
			total += d->b[j].count;
		if (total < 1)
			continue;
		k = (size_t)llround(total * (double)nruns / f->traces);
		if (k > nruns)
			k = nruns;
		for (j = 0, b = 0, seen = d->zeros; j < k; j++) {
			double r = floor(((double)j + 0.5) * total / (double)k);
			double v;
			while (r >= seen && b < d->nb)
				seen += d->b[b++].count;
			v = r < d->zeros ? 0 : bucket_value(d, f->gamma, d->b[b ? b - 1 : 0].idx) * d->scale;
			if (!isfinite(v))
				return bt_err_set(err, BT_EFORMAT, "'%s': the value of measure '%s' in bucket "
						  "%lld is out of range (%g)", path, d->name,
						  (long long)d->b[b ? b - 1 : 0].idx, v);
			bt_runs_set(rs, first + j, d->name, len, v);
		}
	}
	return BT_OK;
}

static void fsum_release(struct fsum *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->d[i].name);
		free(f->d[i].b);
	}
	free(f->d);
}

int bt_fleetcmp_split(const char *arg, struct bt_buf *file, struct bt_buf *key, const char **value)
{
	const char *hash = strrchr(arg, '#'), *eq = hash ? strchr(hash, '=') : NULL;

	bt_buf_reset(file);
	bt_buf_reset(key);
	*value = NULL;
	if (!eq || eq == hash + 1 || !eq[1]) {
		bt_buf_adds(file, arg);
		return 0;
	}
	bt_buf_add(file, arg, (size_t)(hash - arg));
	bt_buf_add(key, hash + 1, (size_t)(eq - hash - 1));
	*value = eq + 1;
	return 1;
}

int bt_fleetcmp_summary_runs(struct bt_runs *rs, enum bt_side side, const char *path, size_t *traces,
			  struct bt_err *err)
{
	struct bt_buf file = BT_BUF_INIT, key = BT_BUF_INIT;
	const char *value = NULL;
	struct fsum f;
	struct bt_fmap m;
	struct bt_jr jr;
	size_t r, first = rs->nruns, nruns;
	int rc, group = access(path, F_OK) && bt_fleetcmp_split(path, &file, &key, &value);

	memset(&f, 0, sizeof f);
	if (group)
		f.key = key.buf, f.value = value;
	else
		bt_buf_reset(&file), bt_buf_adds(&file, path);
	if ((rc = bt_fmap_open(&m, file.buf, err)))
		goto out;
	bt_jr_init(&jr, m.data, m.len, path, err);
	rc = read_fsum(&jr, &f);
	if (!rc && group)
		rc = read_selected(&jr, &f, &m, path);
	if (!rc && !(f.traces >= 1 && f.traces < 1e12))
		rc = bt_err_set(err, BT_EFORMAT, "'%s': a fleet summary without traces", path);
	bt_fmap_release(&m);
	if (!rc) {
		*traces = (size_t)f.traces;
		nruns = *traces < BT_FLEETCMP_MAX_RUNS ? *traces : BT_FLEETCMP_MAX_RUNS;
		for (r = 0; r < nruns; r++)
			bt_runs_add_empty(rs, side, path);
		rc = deal(rs, first, nruns, &f, path, err);
	}
out:
	fsum_release(&f);
	bt_buf_release(&file);
	bt_buf_release(&key);
	return rc;
}

int bt_fleetcmp_is_summary(const char *path)
{
	struct bt_err e;
	struct bt_fmap m;
	struct bt_jr jr;
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	const char *v;
	int more, yes = 0;

	memset(&e, 0, sizeof e);
	if (access(path, F_OK) && bt_fleetcmp_split(path, &val, &key, &v))
		path = val.buf;   /* FILE#KEY=VALUE */
	if (bt_fmap_open(&m, path, &e)) {
		bt_buf_release(&key);
		bt_buf_release(&val);
		return 0;
	}
	bt_jr_init(&jr, m.data, m.len, path, &e);
	if (bt_jr_peek(&jr) == BT_J_OBJECT && !bt_jr_object(&jr))
		while (!yes && (more = bt_jr_key(&jr, &key)) == 1) {
			if (!strcmp(key.buf, "schema") && bt_jr_peek(&jr) == BT_J_STRING) {
				yes = !bt_jr_string(&jr, &val) && !strcmp(val.buf, BT_FLEETCMP_SCHEMA);
				break;
			}
			if (bt_jr_skip(&jr))
				break;
		}
	bt_buf_release(&key);
	bt_buf_release(&val);
	bt_fmap_release(&m);
	return yes;
}
