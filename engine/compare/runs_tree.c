/*
 * The runs' main-thread call trees, merged (see runs.h): the report's
 * main_calltree table holds the tree in row order, a node's depth as two
 * spaces of indent per level before its method. Each row becomes the path
 * of its node, found or added in the one merged tree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compare/runs.h"

#define TABLE "main_calltree"

/* The columns read, by name. */
enum { C_METHOD, C_INCL, C_SELF, C_CPU, C__COUNT };
static const char *const colname[C__COUNT] = { "method", "incl_ns", "self_ns", "incl_cpu_ns" };

/* Reading one run's rows: the node open at each depth so far. */
struct walk {
	struct bt_tree *t;
	uint32_t run;
	uint32_t *open;
	size_t nopen, cap;
};

void bt_runs_tree_release(struct bt_tree *t)
{
	size_t i;

	for (i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
	free(t->node);
	free(t->val);
	bt_strmap_release(&t->name_ids);
	bt_map64_release(&t->paths);
	memset(t, 0, sizeof *t);
}

static uint32_t name_id(struct bt_tree *t, const char *s, size_t len)
{
	uint32_t id = bt_strmap_get(&t->name_ids, s, len);

	if (id)
		return id - 1;
	BT_GROW(t->names, t->nnames + 1, t->ncap);
	t->names[t->nnames] = bt_xstrndup(s, len);
	bt_strmap_put(&t->name_ids, s, len, (uint32_t)++t->nnames);
	return (uint32_t)t->nnames - 1;
}

static uint32_t node_id(struct bt_tree *t, uint32_t parent, uint32_t name, uint32_t depth)
{
	uint64_t key = (uint64_t)parent << 32 | name;
	uint32_t at = bt_map64_get(&t->paths, key);

	if (at)
		return at - 1;
	BT_GROW(t->node, t->nnodes + 1, t->nodecap);
	t->node[t->nnodes].parent = parent;
	t->node[t->nnodes].name = name;
	t->node[t->nnodes].depth = depth;
	t->node[t->nnodes].last_run = 0;
	bt_map64_put(&t->paths, key, (uint32_t)++t->nnodes);
	return (uint32_t)t->nnodes - 1;
}

/* One row: its method with its indent, and its values. NULL and a
 * message when the row cannot be placed. */
static const char *add_row(struct walk *w, const char *method, size_t len, const double v[C__COUNT])
{
	size_t sp = strspn(method, " "), depth = sp / 2;
	uint32_t node;
	struct bt_tval *e;

	if (sp > len)
		sp = len;
	if (sp % 2 || sp == len)
		return "a main_calltree method is not two spaces per level and a name";
	if (depth > w->nopen)
		return "a main_calltree row is deeper than the row above it allows";
	node = node_id(w->t, depth ? w->open[depth - 1] + 1 : 0, name_id(w->t, method + sp, len - sp),
		       (uint32_t)depth);
	if (w->t->node[node].last_run == w->run + 1)
		return "a call path appears twice in main_calltree";
	w->t->node[node].last_run = w->run + 1;
	BT_GROW(w->open, depth + 1, w->cap);
	w->open[depth] = node;
	w->nopen = depth + 1;
	BT_GROW(w->t->val, w->t->nval + 1, w->t->valcap);
	e = &w->t->val[w->t->nval++];
	e->node = node;
	e->run = w->run;
	e->incl = v[C_INCL];
	e->self = v[C_SELF];
	e->incl_cpu = v[C_CPU];
	return NULL;
}

/* A row of the JSON table: col[k] is the role of cell k, or -1. */
static int json_row(struct walk *w, struct bt_jr *jr, const int *col, int ncol, struct bt_buf *s)
{
	double v[C__COUNT] = { 0, 0, 0, 0 };
	const char *at = NULL, *bad;
	int k = 0, more, rc = bt_jr_array(jr);

	while (!rc && (more = bt_jr_more(jr)) == 1) {
		int role = k < ncol ? col[k] : -1;
		k++;
		if (role == C_METHOD) {
			at = jr->p;
			if (bt_jr_peek(jr) != BT_J_STRING)
				return bt_jr_fail(jr, "a main_calltree method is not a string");
			rc = bt_jr_string(jr, s);
		} else if (role == C_CPU && bt_jr_peek(jr) == BT_J_NULL) {
			rc = bt_jr_skip(jr);   /* CPU time the trace does not give: the run's
						* cpu_unknown keeps it out of the CPU view */
		} else if (role > C_METHOD) {
			if (bt_jr_peek(jr) != BT_J_NUMBER)
				return bt_jr_fail(jr, "a main_calltree value is not a number");
			if (!(rc = bt_jr_number(jr, &v[role])) && !isfinite(v[role]))
				return bt_jr_fail(jr, "a main_calltree value is out of range");
		} else {
			rc = bt_jr_skip(jr);
		}
	}
	if (rc || more < 0)
		return rc ? rc : jr->err->code;
	if (!at)
		return bt_jr_fail(jr, "a main_calltree row has no method");
	if ((bad = add_row(w, s->buf, s->len, v))) {
		jr->p = at;
		return bt_jr_fail(jr, bad);
	}
	return BT_OK;
}

static int json_rows(struct bt_tree *t, size_t r, struct bt_jr *jr, const int *col, int ncol)
{
	struct walk w = { t, (uint32_t)r, NULL, 0, 0 };
	struct bt_buf s = BT_BUF_INIT;
	int more = 0, rc = bt_jr_array(jr);

	while (!rc && (more = bt_jr_more(jr)) == 1)
		rc = json_row(&w, jr, col, ncol, &s);
	free(w.open);
	bt_buf_release(&s);
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

/* "columns": each cell's role into col (room for 64; later ones -1). */
static int json_columns(struct bt_jr *jr, int *col, int *ncol, int *found, struct bt_buf *s)
{
	int more, rc = bt_jr_array(jr), k;

	*ncol = 0;
	while (!rc && (more = bt_jr_more(jr)) == 1) {
		if (bt_jr_peek(jr) != BT_J_STRING)
			return bt_jr_fail(jr, "a main_calltree column name is not a string");
		if ((rc = bt_jr_string(jr, s)) || *ncol >= 64)
			continue;
		col[*ncol] = -1;
		for (k = 0; k < C__COUNT; k++)
			if (!strcmp(s->buf, colname[k]) && !(*found & 1 << k)) {
				col[*ncol] = k;
				*found |= 1 << k;
			}
		++*ncol;
	}
	return rc ? rc : more < 0 ? jr->err->code : BT_OK;
}

int bt_runs_tree_json(struct bt_runs *rs, size_t r, struct bt_jr *jr)
{
	struct bt_buf key = BT_BUF_INIT;
	struct bt_jr rows;   /* the reader at "rows", read once the columns are known */
	int col[64], ncol = 0, found = 0, seen_rows = 0, more = 0, rc = bt_jr_object(jr);

	while (!rc && (more = bt_jr_key(jr, &key)) == 1) {
		if (!strcmp(key.buf, "columns")) {
			rc = json_columns(jr, col, &ncol, &found, &key);
		} else if (!strcmp(key.buf, "rows")) {
			rows = *jr;
			seen_rows = 1;
			rc = bt_jr_skip(jr);
		} else {
			rc = bt_jr_skip(jr);
		}
	}
	if (!rc && more < 0)
		rc = jr->err->code;
	if (!rc && seen_rows && found == (1 << C__COUNT) - 1) {
		rs->run[r].has_tree = 1;
		rc = json_rows(&rs->tree, r, &rows, col, ncol);
	}
	bt_buf_release(&key);
	return rc;
}

static double num(const struct bt_value *v)
{
	return v->type == BT_V_INT ? (double)v->u.i : v->type == BT_V_REAL ? v->u.d : 0;
}

void bt_runs_tree_result(struct bt_runs *rs, size_t r, const struct bt_result *res)
{
	uint32_t at = bt_strmap_get(&res->table_index, TABLE, strlen(TABLE));
	const struct bt_rtable *t = at ? &res->tables[at - 1] : NULL;
	struct walk w = { &rs->tree, (uint32_t)r, NULL, 0, 0 };
	int col[C__COUNT] = { -1, -1, -1, -1 }, c, k;
	size_t i;

	for (c = 0; t && c < t->ncols; c++)
		for (k = 0; k < C__COUNT; k++)
			if (col[k] < 0 && !strcmp(t->columns[c], colname[k]))
				col[k] = c;
	for (k = 0; k < C__COUNT; k++)
		if (col[k] < 0)
			return;
	rs->run[r].has_tree = 1;
	for (i = 0; i < t->nrows; i++) {
		const struct bt_value *row = &t->cells[i * (size_t)t->ncols];
		double v[C__COUNT] = { 0, num(&row[col[C_INCL]]), num(&row[col[C_SELF]]), num(&row[col[C_CPU]]) };
		/* the built-in rules write the table; a row they could not place is none */
		if (row[col[C_METHOD]].type == BT_V_TEXT)
			(void)add_row(&w, row[col[C_METHOD]].u.s, strlen(row[col[C_METHOD]].u.s), v);
	}
	free(w.open);
}
