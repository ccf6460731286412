/*
 * compare -o diff.html: a differential flame graph of the main thread,
 * head against base, drawn by the analysis report's viewer (reports/html:
 * flame.js in its diff mode, report.css). Widths are head medians, colours
 * the change of the self time; the runs' call trees are the merged tree of
 * engine/compare/runs.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/names.h"
#include "reports/compare/cmp_report.h"
#include "reports/html/html_int.h"

/* A node's values on each side, medians over that side's runs with a tree. */
enum { V_INCL, V_CPU, V_SELF, V_SELF_CPU, V__COUNT };
/* A node's change in one measure; flame.js reads the numbers. */
enum { ST_UNCHANGED, ST_GROWN, ST_SHRUNK, ST_APPEARED, ST_DISAPPEARED };
static const char *const st_name[] = { "unchanged", "grown", "shrunk", "appeared", "disappeared" };
/* The table of largest changes under the graph. */
#define TOP_ROWS 30

struct dnode {
	double v[2][V__COUNT];   /* [side][value]; 0 where the side lacks the node */
	int has[2];              /* present in more than half of the side's runs */
	int any[2];              /* present in one of them at least */
	int state[2];            /* wall, CPU */
	int64_t out;             /* index in the page's node array, or -1 */
};

struct diff {
	const struct bt_tree *t;
	struct bt_namer *names;  /* short names, as every report reads them */
	struct dnode *n;
	size_t ntree[2];         /* runs with a tree, per side */
	double floor_ns, frac;   /* a self change within max(floor, frac * base) is unchanged */
	double alpha;            /* and, with runs enough, one whose runs do not separate */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *x, size_t n)
{
	if (!n)
		return 0;
	qsort(x, n, sizeof *x, cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Self CPU per entry: its inclusive CPU minus that of its callees in the
 * same run (callees under the table's cutoff stay in it). */
static double *self_cpu(const struct bt_tree *t, size_t nruns)
{
	uint32_t *at = bt_xcalloc(t->nnodes * nruns + 1, sizeof *at);   /* node x run -> entry + 1 */
	double *s = bt_xmalloc((t->nval + 1) * sizeof *s);
	size_t i;

	for (i = 0; i < t->nval; i++) {
		at[t->val[i].node * nruns + t->val[i].run] = (uint32_t)i + 1;
		s[i] = t->val[i].incl_cpu;
	}
	for (i = 0; i < t->nval; i++) {
		uint32_t p = t->node[t->val[i].node].parent, e;
		if (p && (e = at[(p - 1) * nruns + t->val[i].run]))
			s[e - 1] -= t->val[i].incl_cpu;
	}
	free(at);
	return s;
}

/* Grown or shrunk: the self median moved beyond max(floor, frac * base)
 * and, with two or more runs a side, the runs separate (Mann-Whitney U,
 * p < alpha), so a same-build page stays grey. */
static int classify(const struct diff *d, const struct dnode *n, int k, const double *const x[2], const size_t m[2])
{
	double b = n->v[BT_BASE][k], h = n->v[BT_HEAD][k], lim = fmax(d->floor_ns, d->frac * fabs(b));
	struct bt_stats_mwu u;
	struct bt_err err;

	if (!n->has[BT_BASE] || !n->has[BT_HEAD])
		return !n->has[BT_BASE] ? !n->any[BT_BASE] ? ST_APPEARED : ST_UNCHANGED
					: !n->any[BT_HEAD] ? ST_DISAPPEARED : ST_UNCHANGED;
	if (fabs(h - b) <= lim)
		return ST_UNCHANGED;
	if (m[0] >= 2 && m[1] >= 2 &&
	    (bt_stats_mwu(x[0], m[0], x[1], m[1], BT_STATS_AUTO, &u, &err) || !(u.p < d->alpha)))
		return ST_UNCHANGED;
	return h > b ? ST_GROWN : ST_SHRUNK;
}

/* Values of node i on one side, k: every run with a tree gives one, 0
 * where the path is under the cutoff. */
static size_t side_values(const struct diff *d, const struct bt_runs *rs, const size_t *first,
			  const size_t *next, const double *sc, size_t i, int side, int k, double *x, size_t *present)
{
	size_t m = 0, r, e;
	int cpu = k != V_INCL && k != V_SELF;   /* a run without CPU time has no value of it */

	*present = 0;
	for (r = 0; r < rs->nruns; r++)
		if (rs->run[r].has_tree && rs->run[r].side == (enum bt_side)side)
			x[r] = 0;
	for (e = first[i]; e; e = next[e - 1]) {
		const struct bt_tval *v = &d->t->val[e - 1];
		if (rs->run[v->run].side != (enum bt_side)side || (cpu && rs->run[v->run].cpu_unknown))
			continue;
		x[v->run] = k == V_INCL ? v->incl : k == V_CPU ? v->incl_cpu : k == V_SELF ? v->self : sc[e - 1];
		++*present;
	}
	for (r = 0; r < rs->nruns; r++)   /* packed, in run order */
		if (rs->run[r].has_tree && rs->run[r].side == (enum bt_side)side && !(cpu && rs->run[r].cpu_unknown))
			x[m++] = x[r];
	return m;
}

/* Medians and states of every node. A path in at most half of a side's
 * runs is under the cutoff there: absent on that side. */
static void summarise(struct diff *d, const struct bt_runs *rs)
{
	const struct bt_tree *t = d->t;
	double *sc = self_cpu(t, rs->nruns), *x = bt_xmalloc(2 * (rs->nruns + 1) * sizeof *x), *tmp;
	size_t *first = bt_xcalloc(t->nnodes + 1, sizeof *first), *next = bt_xmalloc((t->nval + 1) * sizeof *next);
	size_t i, k, m[2], present;
	int side;

	tmp = x + rs->nruns + 1;
	for (i = t->nval; i-- > 0;) {   /* each node's entries, as a list */
		next[i] = first[t->val[i].node];
		first[t->val[i].node] = i + 1;
	}
	for (i = 0; i < t->nnodes; i++) {
		struct dnode *n = &d->n[i];
		for (k = 0; k < V__COUNT; k++) {
			const double *xs[2];
			double *both = bt_xmalloc(2 * (rs->nruns + 1) * sizeof *both);
			for (side = 0; side < 2; side++) {
				m[side] = side_values(d, rs, first, next, sc, i, side, (int)k, x, &present);
				memcpy(both + side * (rs->nruns + 1), x, m[side] * sizeof *x);
				n->any[side] = present > 0;
				n->has[side] = 2 * present > d->ntree[side];
				memcpy(tmp, x, m[side] * sizeof *x);
				n->v[side][k] = n->has[side] ? median(tmp, m[side]) : 0;
			}
			xs[0] = both;
			xs[1] = both + rs->nruns + 1;
			if (k == V_SELF || k == V_SELF_CPU)
				n->state[k == V_SELF_CPU] = classify(d, n, (int)k, xs, m);
			free(both);
		}
	}
	free(first);
	free(next);
	free(x);
	free(sc);
}

/* The page's data: one "thread" whose nodes are parent, name, head wall
 * and CPU, base wall and CPU (inclusive), head and base self wall, head
 * and base self CPU, wall state, CPU state. */
static void data(struct diff *d, FILE *out)
{
	const struct bt_tree *t = d->t;
	struct bt_jsonw w;
	int64_t kept = 0;
	size_t i;
	int k;

	bt_jsonw_init(&w, out, 0);
	w.html = 1;
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "diff");
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "base");
	bt_jsonw_int(&w, (int64_t)d->ntree[BT_BASE]);
	bt_jsonw_key(&w, "head");
	bt_jsonw_int(&w, (int64_t)d->ntree[BT_HEAD]);
	bt_jsonw_key(&w, "floor_ns");
	bt_jsonw_real(&w, d->floor_ns);
	bt_jsonw_key(&w, "frac");
	bt_jsonw_real(&w, d->frac);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "timeline");
	bt_jsonw_null(&w);
	bt_jsonw_key(&w, "flame");
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "min_pct");
	bt_jsonw_real(&w, 1);
	bt_jsonw_key(&w, "threads_left_out");
	bt_jsonw_int(&w, 0);
	bt_jsonw_key(&w, "threads");
	bt_jsonw_begin_array(&w);
	if (d->ntree[BT_BASE] && d->ntree[BT_HEAD]) {
		bt_jsonw_begin_object(&w);
		bt_jsonw_key(&w, "tid");
		bt_jsonw_int(&w, 0);
		bt_jsonw_key(&w, "name");
		bt_jsonw_cstr(&w, "main thread");
		bt_jsonw_key(&w, "main");
		bt_jsonw_int(&w, 1);
		bt_jsonw_key(&w, "stride");
		bt_jsonw_int(&w, 12);
		bt_jsonw_key(&w, "nodes");
		bt_jsonw_begin_array(&w);
		for (i = 0; i < t->nnodes; i++) {
			struct dnode *n = &d->n[i];
			uint32_t p = t->node[i].parent;
			int64_t parent = p ? d->n[p - 1].out : -1;
			n->out = -1;
			if ((!n->has[0] && !n->has[1]) || (p && parent < 0))
				continue;
			n->out = kept++;
			bt_jsonw_int(&w, parent);
			bt_jsonw_int(&w, t->node[i].name);
			{
				double v[8] = { n->v[1][V_INCL], n->v[1][V_CPU], n->v[0][V_INCL], n->v[0][V_CPU],
						n->v[1][V_SELF], n->v[0][V_SELF], n->v[1][V_SELF_CPU],
						n->v[0][V_SELF_CPU] };
				for (k = 0; k < 8; k++)
					bt_jsonw_int(&w, (int64_t)llround(v[k]));
			}
			bt_jsonw_int(&w, n->state[0]);
			bt_jsonw_int(&w, n->state[1]);
		}
		bt_jsonw_end_array(&w);
		bt_jsonw_key(&w, "paths");
		bt_jsonw_int(&w, kept);
		bt_jsonw_key(&w, "merged");
		bt_jsonw_int(&w, (int64_t)t->nnodes - kept);
		bt_jsonw_end_object(&w);
	}
	bt_jsonw_end_array(&w);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "names");
	bt_jsonw_begin_array(&w);
	for (i = 0; i < t->nnames; i++)
		bt_jsonw_cstr(&w, bt_namer_get(d->names, t->names[i]));
	bt_jsonw_end_array(&w);
	bt_jsonw_key(&w, "full");   /* the signature, where the short name is not it */
	bt_jsonw_begin_array(&w);
	for (i = 0; i < t->nnames; i++)
		bt_jsonw_cstr(&w, strcmp(bt_namer_get(d->names, t->names[i]), t->names[i]) ? t->names[i] : "");
	bt_jsonw_end_array(&w);
	bt_jsonw_end_object(&w);
}

/* Nodes by the size of their self-wall change, largest first. */
static const struct diff *sort_d;

static int by_change(const void *a, const void *b)
{
	const struct dnode *x = &sort_d->n[*(const size_t *)a], *y = &sort_d->n[*(const size_t *)b];
	double dx = fabs(x->v[1][V_SELF] - x->v[0][V_SELF]), dy = fabs(y->v[1][V_SELF] - y->v[0][V_SELF]);

	return (dx < dy) - (dx > dy);
}

static void ms(FILE *out, double ns, int sign)
{
	fprintf(out, sign ? "%+.2f ms" : "%.2f ms", ns / 1e6);
}

/* The gate's own rows, as the text's compact table has them: the page
 * names what the headline names before the call paths' detail. */
static void gate_rows(const struct bt_compare *c, FILE *out)
{
	size_t *at = bt_xcalloc(c->nm + 1, sizeof *at), n, i, more;
	struct bt_buf cell[BT_CMP_CELLS];
	int k;

	bt_cmprep_cells(cell, 1);
	n = bt_cmprep_summary_rows(c, at, TOP_ROWS, &more);
	fputs("<section id=\"gate\">\n<h2>What the gate found</h2>\n<table class=\"data\"><thead><tr>", out);
	for (k = 0; k < BT_CMP_SCOLS; k++) {
		fputs("<th>", out);
		bt_html_esc(out, bt_cmprep_shead[k]);
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
	for (i = 0; i < n; i++) {
		bt_cmprep_summary_cells(c, &c->m[at[i]], cell);
		fprintf(out, "<tr data-verdict=\"%s\">", bt_verdict_name[c->m[at[i]].verdict]);
		for (k = 0; k < BT_CMP_SCOLS; k++) {
			fputs(k ? "<td class=\"n\">" : "<td>", out);
			bt_html_esc(out, cell[k].buf ? cell[k].buf : "");
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	if (more)
		fprintf(out, "<p class=\"note\">%zu more moved: see the text or JSON report.</p>\n", more);
	fputs("</section>\n", out);
	bt_cmprep_cells(cell, 0);
	free(at);
}

/* The largest self-wall changes, as a table a reader (or a test) can use
 * without the script. */
static void changes(const struct diff *d, FILE *out)
{
	size_t *ix = bt_xmalloc((d->t->nnodes + 1) * sizeof *ix), n = 0, i;

	for (i = 0; i < d->t->nnodes; i++)   /* a path only on one side counts with its self time */
		if (d->n[i].state[0] != ST_UNCHANGED &&
		    fmax(d->n[i].v[0][V_SELF], d->n[i].v[1][V_SELF]) > d->floor_ns)
			ix[n++] = i;
	sort_d = d;
	qsort(ix, n, sizeof *ix, by_change);
	fprintf(out, "<section id=\"changes\">\n<h2>Call paths whose self time moved (%zu)</h2>\n"
		"<p class=\"note\">Over the whole trace, each path on its own (not gated): where in the tree a "
		"method's time moved. The same threshold as the gate's: max(", n);
	ms(out, d->floor_ns, 0);
	fprintf(out, ", %g %% of the base).</p>\n", 100 * d->frac);
	if (!n)
		fputs("<p>No call path's self time moved beyond the noise threshold.</p>\n", out);
	else
		fputs("<table class=\"data sortable\"><thead><tr><th>change</th><th>method</th><th>depth</th>"
		      "<th>base self</th><th>head self</th><th>delta</th><th>relative</th></tr></thead><tbody>\n", out);
	for (i = 0; i < n && i < TOP_ROWS; i++) {
		const struct dnode *x = &d->n[ix[i]];
		double b = x->v[0][V_SELF], h = x->v[1][V_SELF];
		fprintf(out, "<tr data-state=\"%s\"><td>%s</td><td title=\"", st_name[x->state[0]], st_name[x->state[0]]);
		bt_html_esc(out, d->t->names[d->t->node[ix[i]].name]);
		fputs("\">", out);
		bt_html_esc(out, bt_namer_get(d->names, d->t->names[d->t->node[ix[i]].name]));
		fprintf(out, "</td><td class=\"n\">%u</td><td class=\"n\" data-v=\"%.0f\">", d->t->node[ix[i]].depth, b);
		ms(out, b, 0);
		fprintf(out, "</td><td class=\"n\" data-v=\"%.0f\">", h);
		ms(out, h, 0);
		fprintf(out, "</td><td class=\"n\" data-v=\"%.0f\">", h - b);
		ms(out, h - b, 1);
		if (b > 0)
			fprintf(out, "</td><td class=\"n\" data-v=\"%.4f\">%+.1f %%</td></tr>\n", (h - b) / b, 100 * (h - b) / b);
		else
			fputs("</td><td class=\"n\">new</td></tr>\n", out);
	}
	if (n)
		fputs("</tbody></table>\n", out);
	if (n > TOP_ROWS)
		fprintf(out, "<p class=\"note\">%zu more changed paths not listed.</p>\n", n - TOP_ROWS);
	fputs("</section>\n", out);
	free(ix);
}

/* Why there is nothing to draw, when a side has no tree. */
static void empty(const struct diff *d, FILE *out)
{
	fputs("<p id=\"diff-empty\" class=\"facts sev-warning\">No differential flame graph: ", out);
	fputs(!d->ntree[BT_BASE] && !d->ntree[BT_HEAD] ? "no run's report" :
	      !d->ntree[BT_BASE] ? "no base run's report" : "no head run's report", out);
	fputs(" has the main thread's call tree (the <code>main_calltree</code> table of the built-in "
	      "rules; a report written with other --rules, or by an older version, lacks it).</p>\n", out);
}

static void body(const struct bt_cmprep_view *v, const struct diff *d, FILE *out)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_cmprep_headline(v->c, &b);
	fputs("<header>\n<h1>btrace-analyze compare: main thread, head against base</h1>\n<p class=\"facts\">", out);
	bt_html_esc(out, b.buf);
	fprintf(out, "</p>\n<p class=\"facts\">%zu base and %zu head runs with a call tree. Width: the head's "
		"median inclusive time over its runs (idle left out); colour: the change of the median self "
		"time, <span style=\"color:#d32f2f\">red grown</span>, <span style=\"color:#1565c0\">blue "
		"shrunk</span>, grey within max(", d->ntree[BT_BASE], d->ntree[BT_HEAD]);
	ms(out, d->floor_ns, 0);
	fprintf(out, ", %g %% of the base); deeper colour, larger relative change. [+] appeared, [-] "
		"disappeared: the path is in more than half of one side's runs and at most half of the "
		"other's (the reports leave out paths under attribution.tree_min_pct of the thread, 1 %% by default).</p>\n", 100 * d->frac);
	fputs("<noscript><p>The flame graph needs JavaScript.</p></noscript>\n</header>\n", out);
	if (!d->ntree[BT_BASE] || !d->ntree[BT_HEAD])
		empty(d, out);
	fputs("<section id=\"flame\">\n<h2>Differential flame graph</h2>\n<div class=\"controls\">"
	      "<label>Thread <select id=\"fg-thread\"></select></label> "
	      "<label>Show <select id=\"fg-measure\"><option value=\"0\">head wall</option>"
	      "<option value=\"1\">head CPU</option><option value=\"2\">base wall</option>"
	      "<option value=\"3\">base CPU</option></select></label> "
	      "<input id=\"fg-search\" type=\"search\" placeholder=\"Search frames\" autocomplete=\"off\"> "
	      "<button id=\"fg-reset\" type=\"button\">Reset zoom</button> "
	      "<span id=\"fg-match\" class=\"note\"></span></div>\n"
	      "<p id=\"fg-note\" class=\"note\"></p>\n"
	      "<div id=\"fg-wrap\" class=\"wrap\"><canvas id=\"fg-canvas\"></canvas></div>\n</section>\n", out);
	gate_rows(v->c, out);
	if (d->ntree[BT_BASE] && d->ntree[BT_HEAD])
		changes(d, out);
	bt_buf_release(&b);
}

static int write_html(const struct bt_cmprep_view *v, FILE *out, struct bt_err *err)
{
	const struct bt_runs *rs = v->c->runs;
	struct diff d;
	size_t r;

	memset(&d, 0, sizeof d);
	d.t = &rs->tree;
	d.floor_ns = fmax(v->c->def.floor_ns, v->c->resolution_ns);   /* the gate's, for its methods */
	d.frac = v->c->def.max_regress;
	d.alpha = v->c->def.alpha;
	for (r = 0; r < rs->nruns; r++)
		d.ntree[rs->run[r].side] += rs->run[r].has_tree != 0;
	d.n = bt_xcalloc(d.t->nnodes + 1, sizeof *d.n);
	d.names = bt_namer_new();
	for (r = 0; r < d.t->nnames; r++)
		bt_namer_add(d.names, d.t->names[r]);
	bt_namer_done(d.names);
	summarise(&d, rs);
	bt_html_head(out, "btrace-analyze compare: differential flame graph");
	body(v, &d, out);
	fputs("<div id=\"bt-tip\" class=\"tip\" hidden></div>\n<pre id=\"bt-errors\" hidden></pre>\n"
	      "<pre id=\"bt-selftest\" hidden></pre>\n<script type=\"application/json\" id=\"bt-data\">", out);
	data(&d, out);
	fputs("</script>\n", out);
	bt_html_scripts(out);
	bt_html_finish(out);
	fputs("</body>\n</html>\n", out);
	bt_namer_free(d.names);
	free(d.n);
	if (ferror(out))
		return bt_err_set(err, BT_EIO, "cannot write the differential flame graph: %s", strerror(errno));
	return BT_OK;
}

const struct bt_cmprep_reporter bt_cmprep_html = { "html", ".html", write_html };
