/*
 * The stack-level diff of compare (see compare.h): per measure, the
 * methods whose self value moved, from the reports' method.<symbol>.<field>
 * metrics, and the blocked time by kind on the main thread and the whole
 * process. Rows are ranked by how much of the change they carry.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/compare/compare_int.h"

const char *const bt_measure_name[BT_MS__COUNT] = { "wall", "cpu", "offcpu", "alloc", "majflt" };
const char *const bt_change_name[4] = { "appeared", "disappeared", "grown", "shrunk" };

const char *const bt_method_field[BT_MS__COUNT][2] = {
	{ "self_ns", "incl_ns" },
	{ "self_cpu_ns", "incl_cpu_ns" },
	{ "self_offcpu_ns", "incl_offcpu_ns" },
	{ "self_alloc_bytes", "incl_alloc_bytes" },
	{ "self_majflt", "incl_majflt" },
};

static const char *const block_prefix[2][2] = {
	{ "thread.main.blocked_ns.", "main" },
	{ "process.blocked_ns.", "process" },
};

struct method {
	char *symbol;
	size_t id[BT_MS__COUNT][2];   /* metric ids, SIZE_MAX when absent */
};

struct methods {
	struct bt_strmap index;       /* symbol -> position + 1 */
	struct method *m;
	size_t n, cap;
};

int bt_method_metric(const char *name, const char **sym, size_t *len, enum bt_measure *k, int *incl)
{
	const char *dot;
	int m, s;

	if (strncmp(name, "method.", 7))
		return 0;
	*sym = name + 7;
	dot = strrchr(*sym, '.');
	if (!dot || dot == *sym)
		return 0;
	*len = (size_t)(dot - *sym);
	for (m = 0; m < BT_MS__COUNT; m++) {
		for (s = 0; s < 2; s++) {
			if (!strcmp(dot + 1, bt_method_field[m][s])) {
				*k = (enum bt_measure)m;
				*incl = s;
				return 1;
			}
		}
	}
	return 0;
}

static void note_method_metric(struct methods *ms, const char *name, size_t id)
{
	const char *sym;
	size_t len, j;
	enum bt_measure k;
	int s;
	uint32_t at;

	if (!bt_method_metric(name, &sym, &len, &k, &s))
		return;
	at = bt_strmap_get(&ms->index, sym, len);
	if (!at) {
		BT_GROW(ms->m, ms->n + 1, ms->cap);
		ms->m[ms->n].symbol = bt_xstrndup(sym, len);
		for (j = 0; j < 2 * BT_MS__COUNT; j++)
			ms->m[ms->n].id[j / 2][j % 2] = SIZE_MAX;
		bt_strmap_put(&ms->index, sym, len, (uint32_t)++ms->n);
		at = (uint32_t)ms->n;
	}
	ms->m[at - 1].id[k][s] = id;
}

static int change_order(const void *a, const void *b)
{
	const struct bt_cmp_change *x = a, *y = b;
	double dx = fabs(x->delta), dy = fabs(y->delta);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	if (strcmp(x->what, y->what))
		return strcmp(x->what, y->what);
	return strcmp(x->scope ? x->scope : "", y->scope ? y->scope : "");
}

/* One row from metric id (a self or blocked value); 0 if it did not move. */
static int measure_row(struct bt_compare *c, const struct bt_cmp_opts *o, size_t id,
		       struct bt_cmp_change *row, double *x, double *y, struct bt_err *err)
{
	const char *name = c->runs->names[id];
	struct bt_gate g = o->def;
	struct bt_stats_mwu mwu;
	size_t n = bt_compare_values(c, id, BT_BASE, x), k = bt_compare_values(c, id, BT_HEAD, y);
	double thr;
	int rc;

	memset(row, 0, sizeof *row);
	bt_stats_summarize(x, n, &row->base);
	bt_stats_summarize(y, k, &row->head);
	if (!n || !k || row->head.median == row->base.median)
		return 0;
	if (o->hooks && o->hooks->thresholds && (rc = o->hooks->thresholds(o->hooks->ctx, name, &g, err)))
		return -rc;
	row->delta = row->head.median - row->base.median;
	row->change = row->base.max == 0 ? BT_CH_APPEARED : row->head.max == 0 ? BT_CH_DISAPPEARED :
		      row->delta > 0 ? BT_CH_GROWN : BT_CH_SHRUNK;
	row->tested = n >= 2 && k >= 2;
	row->p = NAN;
	if (row->tested) {
		if ((rc = bt_stats_mwu(x, n, y, k, BT_STATS_AUTO, &mwu, err)))
			return -rc;
		row->p = mwu.p;
	}
	thr = bt_gate_threshold(&g, bt_unit_of(name, BT_UNIT_COUNT), row->base.median);
	row->small = fabs(row->delta) <= thr;
	row->significant = !row->small && (!row->tested || row->p < g.alpha);
	row->incl_base = row->incl_head = NAN;
	return 1;
}

static void rank(struct bt_cmp_list *l)
{
	double sum = 0;
	size_t i;

	qsort(l->rows, l->n, sizeof *l->rows, change_order);
	for (i = 0; i < l->n; i++)
		sum += fabs(l->rows[i].delta);
	for (i = 0; i < l->n; i++)
		l->rows[i].share = sum > 0 ? 100 * l->rows[i].delta / sum : 0;
}

static int diff_methods(struct bt_compare *c, const struct bt_cmp_opts *o, struct methods *ms,
			double *x, double *y, struct bt_err *err)
{
	size_t k, i;
	int got;

	for (k = 0; k < BT_MS__COUNT; k++) {
		struct bt_cmp_list *l = &c->methods[k];
		l->rows = bt_xcalloc(ms->n + 1, sizeof *l->rows);
		for (i = 0; i < ms->n; i++) {
			struct method *m = &ms->m[i];
			struct bt_cmp_change *row = &l->rows[l->n];
			if (m->id[k][0] == SIZE_MAX)
				continue;
			if ((got = measure_row(c, o, m->id[k][0], row, x, y, err)) < 0)
				return -got;
			if (!got)
				continue;
			row->what = bt_xstrdup(m->symbol);
			row->incl_base = bt_cmp_median(c, m->id[k][1], BT_BASE, x);
			row->incl_head = bt_cmp_median(c, m->id[k][1], BT_HEAD, x);
			l->n++;
		}
		rank(l);
	}
	return BT_OK;
}

static int diff_blocking(struct bt_compare *c, const struct bt_cmp_opts *o, double *x, double *y,
			 struct bt_err *err)
{
	const struct bt_runs *rs = c->runs;
	struct bt_cmp_list *l = &c->blocking;
	size_t id, s;
	int got;

	l->rows = bt_xcalloc(rs->nnames + 1, sizeof *l->rows);
	for (id = 0; id < rs->nnames; id++) {
		for (s = 0; s < 2; s++) {
			size_t plen = strlen(block_prefix[s][0]);
			struct bt_cmp_change *row = &l->rows[l->n];
			if (strncmp(rs->names[id], block_prefix[s][0], plen))
				continue;
			if ((got = measure_row(c, o, id, row, x, y, err)) < 0)
				return -got;
			if (!got)
				continue;
			row->what = bt_xstrdup(rs->names[id] + plen);
			row->scope = block_prefix[s][1];
			l->n++;
		}
	}
	rank(l);
	return BT_OK;
}

int bt_cmp_diff(struct bt_compare *c, const struct bt_cmp_opts *o, double *x, double *y,
		struct bt_err *err)
{
	struct methods ms;
	size_t id, i;
	int rc;

	memset(&ms, 0, sizeof ms);
	bt_strmap_init(&ms.index);
	for (id = 0; id < c->runs->nnames; id++)
		if (bt_metric_per_method(c->runs->names[id]))
			note_method_metric(&ms, c->runs->names[id], id);
	rc = diff_methods(c, o, &ms, x, y, err);
	if (!rc)
		rc = diff_blocking(c, o, x, y, err);
	for (i = 0; i < ms.n; i++)
		free(ms.m[i].symbol);
	free(ms.m);
	bt_strmap_release(&ms.index);
	return rc;
}

void bt_cmp_list_release(struct bt_cmp_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->rows[i].what);
	free(l->rows);
	memset(l, 0, sizeof *l);
}
