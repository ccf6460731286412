/*
 * The fleet report's view (fleet_report.h): the groups in order, each
 * group's values in reading order, its top methods and waits, and the
 * short names of every method shown.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/names.h"
#include "reports/fleet/fleet_report.h"
#include "reports/report.h"

static const char *const phases[] = {
	"bind_application", "content_providers", "application_create", "activity_launch",
	"activity_create", "activity_start", "activity_resume", "first_frame", "fully_drawn"
};

/* Where a value comes in the list: the startup first, then the main
 * thread, then the process, then any other; ties by name. */
static int rank(const char *n)
{
	size_t i;

	if (!strcmp(n, "startup.ttid_ns"))
		return 0;
	if (!strcmp(n, "startup.ttfd_ns"))
		return 1;
	if (!strncmp(n, "startup.phase.", 14)) {
		for (i = 0; i < sizeof phases / sizeof phases[0]; i++)
			if (!strncmp(n + 14, phases[i], strlen(phases[i])) && !strcmp(n + 14 + strlen(phases[i]), "_ns"))
				return 2 + (int)i;
		return 19;
	}
	if (!strcmp(n, "startup.main.cpu_ns"))
		return 20;
	if (!strcmp(n, "startup.main.blocked_ns"))
		return 21;
	if (!strncmp(n, "startup.", 8))
		return 22;
	if (!strcmp(n, "main.wall_ns"))
		return 30;
	if (!strcmp(n, "main.cpu_ns"))
		return 31;
	if (!strcmp(n, "main.offcpu_ns"))
		return 32;
	if (!strcmp(n, "main.blocked_ns"))
		return 33;
	if (!strncmp(n, "main.", 5))
		return 34;
	if (!strncmp(n, "process.", 8))
		return 40;
	if (!strncmp(n, "frames.", 7))
		return 45;
	return 50;
}

static int value_order(const void *a, const void *b)
{
	const struct bt_fl_item *x = *(const struct bt_fl_item *const *)a, *y = *(const struct bt_fl_item *const *)b;
	int rx = rank(x->key), ry = rank(y->key);

	return rx != ry ? (rx < ry ? -1 : 1) : strcmp(x->key, y->key);
}

static int method_order(const void *a, const void *b)
{
	const struct bt_fl_item *x = *(const struct bt_fl_item *const *)a, *y = *(const struct bt_fl_item *const *)b;

	if (x->s[0] != y->s[0])
		return x->s[0] > y->s[0] ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int wait_order(const void *a, const void *b)
{
	const struct bt_fl_item *x = *(const struct bt_fl_item *const *)a, *y = *(const struct bt_fl_item *const *)b;

	if (x->traces != y->traces)
		return x->traces > y->traces ? -1 : 1;
	if (x->s[1] != y->s[1])
		return x->s[1] > y->s[1] ? -1 : 1;
	return strcmp(x->key, y->key);
}

static struct bt_fl_item **listed(const struct bt_fl_table *t, int (*order)(const void *, const void *),
				  size_t top, size_t *n)
{
	struct bt_fl_item **v = bt_fl_sorted(t);

	if (t->n)
		qsort(v, t->n, sizeof *v, order);
	*n = t->n < top ? t->n : top;
	return v;
}

static void add_group(struct bt_fleetrep_view *v, size_t *cap, const char *title, const char *key,
		      const char *value, const struct bt_fl_group *g)
{
	struct bt_fv_group *x;
	size_t i;

	BT_GROW(v->groups, v->ngroups + 1, *cap);
	x = &v->groups[v->ngroups++];
	memset(x, 0, sizeof *x);
	x->title = bt_xstrdup(title);
	x->key = key ? bt_xstrdup(key) : NULL;
	x->value = value ? bt_xstrdup(value) : NULL;
	x->g = g;
	x->values = listed(&g->values, value_order, g->values.n, &x->nvalues);
	x->methods = listed(&g->methods, method_order, (size_t)v->top, &x->nmethods);
	x->waits = listed(&g->waits, wait_order, (size_t)v->top, &x->nwaits);
	x->cpu_total = g->methods.other[0];
	for (i = 0; i < g->methods.n; i++)
		x->cpu_total = bt_sat_add(x->cpu_total, g->methods.v[i].s[0]);
}

static void name_scope(struct bt_fleetrep_view *v)
{
	struct bt_buf kind = BT_BUF_INIT;
	size_t i, k;

	v->names = bt_namer_new();
	for (i = 0; i < v->ngroups; i++) {
		const struct bt_fv_group *x = &v->groups[i];
		for (k = 0; k < x->nmethods; k++)
			bt_namer_add(v->names, x->methods[k]->key);
		for (k = 0; k < x->nwaits; k++)
			bt_namer_add(v->names, bt_fv_wait(x->waits[k], &kind));
	}
	bt_namer_done(v->names);
	bt_buf_release(&kind);
}

void bt_fleetrep_view_build(struct bt_fleetrep_view *v, struct bt_fleet *f, int top, int full_names)
{
	struct bt_buf t = BT_BUF_INIT;
	struct bt_fl_item **keys;
	size_t cap = 0, i, j;

	memset(v, 0, sizeof *v);
	bt_fleet_finish(f);
	v->f = f;
	v->top = top > 0 ? top : 20;
	add_group(v, &cap, "all traces", NULL, NULL, &f->all);
	keys = bt_fl_sorted(&f->keys);
	for (i = 0; i < f->keys.n; i++) {
		const struct bt_fl_table *vals = keys[i]->sub;
		struct bt_fl_item **vs;
		if (!vals)
			continue;
		vs = bt_fl_sorted(vals);
		for (j = 0; j < vals->n; j++) {
			bt_buf_reset(&t);
			bt_buf_addf(&t, "%s = %s", keys[i]->key, vs[j]->key);
			add_group(v, &cap, t.buf, keys[i]->key, vs[j]->key, vs[j]->g);
		}
		if (vals->other_group) {
			bt_buf_reset(&t);
			bt_buf_addf(&t, "%s = (other values)", keys[i]->key);
			add_group(v, &cap, t.buf, keys[i]->key, NULL, vals->other_group);
		}
		free(vs);
	}
	free(keys);
	bt_buf_release(&t);
	if (!full_names)
		name_scope(v);
}

void bt_fleetrep_view_release(struct bt_fleetrep_view *v)
{
	size_t i;

	for (i = 0; i < v->ngroups; i++) {
		free(v->groups[i].title);
		free(v->groups[i].key);
		free(v->groups[i].value);
		free(v->groups[i].values);
		free(v->groups[i].methods);
		free(v->groups[i].waits);
	}
	free(v->groups);
	bt_namer_free(v->names);
	memset(v, 0, sizeof *v);
}

void bt_fv_label(const char *n, struct bt_buf *b)
{
	static const struct { const char *name, *label; } known[] = {
		{ "startup.ttid_ns", "time to initial display" },
		{ "startup.ttfd_ns", "time to full display" },
		{ "startup.main.cpu_ns", "startup: main thread running" },
		{ "startup.main.blocked_ns", "startup: main thread blocked" },
		{ "main.wall_ns", "main thread: wall" },
		{ "main.cpu_ns", "main thread: running" },
		{ "main.offcpu_ns", "main thread: off CPU" },
		{ "main.blocked_ns", "main thread: blocked" },
		{ "process.wall_ns", "process: wall (all threads)" },
		{ "process.cpu_ns", "process: CPU (all threads)" },
		{ "process.offcpu_ns", "process: off CPU (all threads)" },
		{ "frames.count", "frames: displayed" },
		{ "frames.janky", "frames: janky" },
		{ "frames.janky_ppm", "frames: janky per million" },
		{ "frames.p50_ns", "frames: frame time p50" },
		{ "frames.p90_ns", "frames: frame time p90" },
		{ "frames.p99_ns", "frames: frame time p99" },
	};
	size_t i, len = strlen(n);

	for (i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strcmp(n, known[i].name)) {
			bt_buf_adds(b, known[i].label);
			return;
		}
	if (!strncmp(n, "startup.phase.", 14) && len > 17 && !strcmp(n + len - 3, "_ns"))
		bt_buf_addf(b, "phase %.*s", (int)(len - 17), n + 14);
	else if (!strncmp(n, "startup.main.blocked_ns.", 24))
		bt_buf_addf(b, "startup: main thread blocked, %s", n + 24);
	else if (!strncmp(n, "main.blocked_ns.", 16))
		bt_buf_addf(b, "main thread: blocked, %s", n + 16);
	else
		bt_buf_adds(b, n);
}

const char *bt_fv_name(const struct bt_fleetrep_view *v, const char *signature)
{
	return bt_namer_get(v->names, signature);
}

const char *bt_fv_wait(const struct bt_fl_item *it, struct bt_buf *kind)
{
	const char *tab = memchr(it->key, '\t', it->len);

	bt_buf_reset(kind);
	if (!tab) {
		bt_buf_adds(kind, it->key);
		return "";
	}
	bt_buf_add(kind, it->key, (size_t)(tab - it->key));
	return tab + 1;
}

void bt_fv_ns(int64_t ns, int have, struct bt_buf *b)
{
	if (have)
		bt_format_duration((double)ns, b);
}

static const struct bt_fleetrep_reporter *const reporters[] = {
	&bt_fleetrep_json, &bt_fleetrep_md, &bt_fleetrep_html, &bt_fleetrep_xlsx
};

int bt_fleetrep_report_pick(const char *format, const char *path, const struct bt_fleetrep_reporter **out,
			 struct bt_err *err)
{
	const char *ext = path && strcmp(path, "-") ? strrchr(path, '.') : NULL;
	size_t i;

	*out = &bt_fleetrep_md;
	for (i = 0; i < sizeof reporters / sizeof reporters[0]; i++) {
		if (format && !strcmp(format, reporters[i]->name))
			return (*out = reporters[i], BT_OK);
		if (!format && ext && !strcmp(ext, reporters[i]->ext))
			return (*out = reporters[i], BT_OK);
	}
	if (format)
		return bt_err_set(err, BT_EUSAGE, "unknown fleet report format '%s' (json, md, html or xlsx)",
				  format);
	if (ext && strchr(ext, '/') == NULL)
		return bt_err_set(err, BT_EUSAGE, "-o %s: no fleet report format has the extension '%s' "
				  "(known: .json, .md, .html, .xlsx; --format names one for any path)", path, ext);
	return BT_OK;
}
