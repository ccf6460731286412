/*
 * Compare as JSON (reports/compare.schema.json): everything the text says
 * plus each run's values, for CI and other tools. Numbers that were not
 * computed (no test with one run a side, a relative change from 0) are
 * null.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/compare/cmp_report.h"
#include "engine/base/jsonw.h"

#define COMPARE_SCHEMA "btrace-analyze/compare@1"

static void num(struct bt_jsonw *w, const char *key, double v)
{
	bt_jsonw_key(w, key);
	if (!isnan(v) && v == floor(v) && fabs(v) < 9e15)
		bt_jsonw_int(w, (int64_t)v);
	else
		bt_jsonw_real(w, v);
}

static void summary(struct bt_jsonw *w, const char *key, const struct bt_stats_summary *s,
		    const double *x, size_t nx)
{
	size_t i;

	bt_jsonw_key(w, key);
	bt_jsonw_begin_object(w);
	num(w, "n", (double)s->n);
	num(w, "median", s->median);
	num(w, "min", s->min);
	num(w, "max", s->max);
	if (x) {
		bt_jsonw_key(w, "values");
		bt_jsonw_begin_array(w);
		for (i = 0; i < nx; i++)
			bt_jsonw_real(w, x[i]);
		bt_jsonw_end_array(w);
	}
	bt_jsonw_end_object(w);
}

static void runs(struct bt_jsonw *w, const struct bt_compare *c, enum bt_side side)
{
	size_t r;

	bt_jsonw_begin_array(w);
	for (r = 0; r < c->runs->nruns; r++)
		if (c->runs->run[r].side == side)
			bt_jsonw_cstr(w, c->runs->run[r].path);
	bt_jsonw_end_array(w);
}

/* The runs of side that had warning w, as indices into that side's list. */
static void warning_runs(struct bt_jsonw *w, const struct bt_runs *rs, const struct bt_runs_warning *x,
			 enum bt_side side)
{
	size_t i, r, at = 0;

	bt_jsonw_begin_array(w);
	for (i = 0, r = 0; i < x->nruns; i++) {
		for (; r < x->runs[i]; r++)
			at += rs->run[r].side == side;
		if (rs->run[r].side == side)
			bt_jsonw_int(w, (int64_t)at);
	}
	bt_jsonw_end_array(w);
}

/* Each class of the runs' warnings once: the diagnostics of the reports
 * read and of the traces analysed, with the runs that had it. */
static void warnings(struct bt_jsonw *w, const struct bt_runs *rs)
{
	size_t i;

	bt_jsonw_key(w, "warnings");
	bt_jsonw_begin_array(w);
	for (i = 0; i < rs->nwarn; i++) {
		const struct bt_runs_warning *x = &rs->warn[i];
		bt_jsonw_begin_object(w);
		bt_jsonw_key(w, "code");
		bt_jsonw_cstr(w, x->code);
		bt_jsonw_key(w, "detail");
		bt_jsonw_cstr(w, x->detail);
		num(w, "count", (double)x->count);
		bt_jsonw_key(w, "base");
		warning_runs(w, rs, x, BT_BASE);
		bt_jsonw_key(w, "head");
		warning_runs(w, rs, x, BT_HEAD);
		bt_jsonw_end_object(w);
	}
	bt_jsonw_end_array(w);
}

/* "fleet": null, or per side the reports compared and those left out. */
static void fleet(struct bt_jsonw *w, const struct bt_cmprep_fleet *f)
{
	static const char *const side[2] = { "base", "head" };
	int k;

	bt_jsonw_key(w, "fleet");
	if (!f) {
		bt_jsonw_null(w);
		return;
	}
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "from");
	bt_jsonw_cstr(w, f->summaries ? "summaries" : "reports");
	for (k = 0; k < 2; k++) {
		bt_jsonw_key(w, side[k]);
		bt_jsonw_begin_object(w);
		num(w, "reports", (double)f->reports[k]);
		num(w, "no_start", (double)f->nostart[k]);
		num(w, "not_reports", (double)f->other[k]);
		bt_jsonw_end_object(w);
	}
	bt_jsonw_end_object(w);
}

static void policy(struct bt_jsonw *w, const struct bt_cmprep_view *v)
{
	const struct bt_gate *g = &v->c->def;
	int i;

	bt_jsonw_key(w, "policy");
	bt_jsonw_begin_object(w);
	num(w, "max_regress", g->max_regress);
	bt_jsonw_key(w, "noise_floor");
	bt_jsonw_begin_object(w);
	num(w, "ns", g->floor_ns);
	num(w, "bytes", g->floor_bytes);
	num(w, "count", g->floor_count);
	bt_jsonw_end_object(w);
	num(w, "alpha", g->alpha);
	bt_jsonw_key(w, "metrics");
	bt_jsonw_begin_array(w);
	for (i = 0; i < v->nglobs; i++)
		bt_jsonw_cstr(w, v->globs[i]);
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "rules");
	bt_jsonw_cstr(w, v->c->rules);
	bt_jsonw_key(w, "fail_inconclusive");
	bt_jsonw_bool(w, v->fail_inconclusive);
	fleet(w, v->fleet);
	bt_jsonw_end_object(w);
}

static void causes(struct bt_jsonw *w, const struct bt_compare *c, const struct bt_cmp_metric *m)
{
	size_t i;

	bt_jsonw_key(w, "causes");
	bt_jsonw_begin_array(w);
	for (i = 0; i < m->ncauses; i++) {
		const struct bt_cmp_cause *k = &m->causes[i];
		bt_jsonw_begin_object(w);
		bt_jsonw_key(w, "name");
		bt_jsonw_cstr(w, c->runs->names[k->id]);
		bt_jsonw_key(w, "label");
		bt_jsonw_cstr(w, k->label);
		bt_jsonw_key(w, "holder");
		bt_jsonw_cstr(w, k->holder);
		num(w, "base", k->base);
		num(w, "head", k->head);
		num(w, "delta", k->delta);
		num(w, "rel", k->rel);
		num(w, "of_change_pct", k->of_change);
		bt_jsonw_end_object(w);
	}
	bt_jsonw_end_array(w);
}

static void family_test(struct bt_jsonw *w, const struct bt_cmp_metric *m)
{
	bt_jsonw_key(w, "family");
	if (!m->in_family) {
		bt_jsonw_null(w);
		return;
	}
	bt_jsonw_begin_object(w);
	num(w, "t", m->t);
	num(w, "p_adj", m->p_adj);
	bt_jsonw_end_object(w);
}

static void sequential(struct bt_jsonw *w, const struct bt_compare *c)
{
	const struct bt_cmp_seq *q = &c->seq;
	size_t i;

	if (!q->on)
		return;
	bt_jsonw_key(w, "sequential");
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "looks");
	bt_jsonw_begin_array(w);
	for (i = 0; i < BT_CMP_NLOOKS; i++)
		bt_jsonw_int(w, (int64_t)bt_cmp_looks[i]);
	bt_jsonw_end_array(w);
	num(w, "runs", (double)q->n);
	num(w, "look", (double)q->look);
	num(w, "alpha", q->alpha);
	bt_jsonw_key(w, "decided");
	bt_jsonw_bool(w, q->decided);
	num(w, "more", (double)q->more);
	bt_jsonw_key(w, "not_shown_within");
	if (q->undecided)
		bt_jsonw_cstr(w, q->undecided);
	else
		bt_jsonw_null(w);
	bt_jsonw_end_object(w);
}

static void family(struct bt_jsonw *w, const struct bt_compare *c)
{
	bt_jsonw_key(w, "family");
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "method");
	bt_jsonw_cstr(w, c->holm ? "holm step-down" : "westfall-young step-down max-T");
	num(w, "tests", (double)c->nfamily);
	num(w, "relabelings", (double)c->fam.relabelings);
	bt_jsonw_key(w, "exact");
	bt_jsonw_bool(w, c->fam.exact);
	num(w, "min_p", c->fam.min_p);
	bt_jsonw_end_object(w);
	sequential(w, c);
}

static void metric(struct bt_jsonw *w, const struct bt_compare *c, const struct bt_cmp_metric *m,
		   double *x)
{
	size_t n;

	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "name");
	bt_jsonw_cstr(w, m->name);
	bt_jsonw_key(w, "label");
	bt_jsonw_cstr(w, m->label);
	bt_jsonw_key(w, "unit");
	bt_jsonw_cstr(w, m->unit == BT_UNIT_COUNT ? "count" : bt_unit_name(m->unit));
	bt_jsonw_key(w, "gated");
	bt_jsonw_bool(w, m->gate.gated);
	bt_jsonw_key(w, "verdict");
	bt_jsonw_cstr(w, bt_verdict_name[m->verdict]);
	bt_jsonw_key(w, "reason");
	bt_jsonw_cstr(w, m->reason);
	bt_jsonw_key(w, "by_script");
	bt_jsonw_bool(w, m->by_script);
	n = bt_compare_values(c, m->id, BT_BASE, x);
	summary(w, "base", &m->base, x, n);
	n = bt_compare_values(c, m->id, BT_HEAD, x);
	summary(w, "head", &m->head, x, n);
	num(w, "delta", m->delta);
	num(w, "rel", m->rel);
	num(w, "threshold", m->threshold);
	num(w, "max_regress", m->gate.max_regress);
	num(w, "alpha", m->gate.alpha);
	bt_jsonw_key(w, "higher_is_better");
	bt_jsonw_bool(w, m->gate.higher_is_better);
	bt_jsonw_key(w, "test");
	if (!m->tested) {
		bt_jsonw_null(w);
	} else {
		bt_jsonw_begin_object(w);
		bt_jsonw_key(w, "method");
		bt_jsonw_cstr(w, m->mwu.exact ? "exact" : "normal");
		num(w, "p", m->mwu.p);
		num(w, "u_head", m->mwu.u_head);
		num(w, "z", m->mwu.z);
		num(w, "cliffs_delta", m->mwu.delta);
		bt_jsonw_key(w, "shift");
		bt_jsonw_begin_object(w);
		num(w, "estimate", m->hl.est);
		num(w, "lo", m->hl.lo);
		num(w, "hi", m->hl.hi);
		num(w, "level", m->hl.level);
		bt_jsonw_end_object(w);
		bt_jsonw_key(w, "equivalence");
		if (m->gate.alpha < 0.5) {
			bt_jsonw_begin_object(w);
			num(w, "lo", m->eq.lo);
			num(w, "hi", m->eq.hi);
			num(w, "level", m->eq.level);
			bt_jsonw_key(w, "within");
			bt_jsonw_bool(w, m->equivalent);
			bt_jsonw_end_object(w);
		} else {
			bt_jsonw_null(w);
		}
		bt_jsonw_end_object(w);
	}
	family_test(w, m);
	causes(w, c, m);
	bt_jsonw_end_object(w);
}

static void change(struct bt_jsonw *w, const struct bt_cmp_change *r)
{
	bt_jsonw_begin_object(w);
	if (r->scope) {
		bt_jsonw_key(w, "scope");
		bt_jsonw_cstr(w, r->scope);
		bt_jsonw_key(w, "kind");
	} else {
		bt_jsonw_key(w, "method");
	}
	bt_jsonw_cstr(w, r->what);
	bt_jsonw_key(w, "change");
	bt_jsonw_cstr(w, bt_change_name[r->change]);
	summary(w, "base", &r->base, NULL, 0);
	summary(w, "head", &r->head, NULL, 0);
	num(w, "delta", r->delta);
	num(w, "share_pct", r->share);
	if (!r->scope) {
		num(w, "incl_base", r->incl_base);
		num(w, "incl_head", r->incl_head);
	}
	num(w, "p", r->tested ? r->p : NAN);
	bt_jsonw_key(w, "significant");
	bt_jsonw_bool(w, r->significant);
	bt_jsonw_end_object(w);
}

static void list(struct bt_jsonw *w, const struct bt_cmp_list *l)
{
	size_t i;

	bt_jsonw_begin_array(w);
	for (i = 0; i < l->n; i++)
		change(w, &l->rows[i]);
	bt_jsonw_end_array(w);
}

static int write_json(const struct bt_cmprep_view *v, FILE *out, struct bt_err *err)
{
	const struct bt_compare *c = v->c;
	double *x = bt_xcalloc(c->runs->nruns + 1, sizeof *x);
	struct bt_jsonw w;
	size_t i;

	bt_jsonw_init(&w, out, 1);
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "schema");
	bt_jsonw_cstr(&w, COMPARE_SCHEMA);
	bt_jsonw_key(&w, "verdict");
	bt_jsonw_cstr(&w, bt_verdict_name[c->overall]);
	bt_jsonw_key(&w, "headline");
	bt_jsonw_cstr(&w, c->headline);
	bt_jsonw_key(&w, "counts");
	bt_jsonw_begin_object(&w);
	for (i = 0; i < BT_VD__COUNT; i++)
		num(&w, bt_verdict_name[i], (double)c->count[i]);
	bt_jsonw_end_object(&w);
	bt_jsonw_key(&w, "base");
	runs(&w, c, BT_BASE);
	bt_jsonw_key(&w, "head");
	runs(&w, c, BT_HEAD);
	policy(&w, v);
	family(&w, c);
	bt_jsonw_key(&w, "metrics");
	bt_jsonw_begin_array(&w);
	for (i = 0; i < c->nm; i++)
		metric(&w, c, &c->m[i], x);
	bt_jsonw_end_array(&w);
	bt_jsonw_key(&w, "diff");
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "blocking");
	list(&w, &c->blocking);
	bt_jsonw_key(&w, "methods");
	bt_jsonw_begin_object(&w);
	for (i = 0; i < BT_MS__COUNT; i++) {
		bt_jsonw_key(&w, bt_measure_name[i]);
		list(&w, &c->methods[i]);
	}
	bt_jsonw_end_object(&w);
	bt_jsonw_end_object(&w);
	warnings(&w, c->runs);
	bt_jsonw_end_object(&w);
	fputc('\n', out);
	free(x);
	(void)err;
	return BT_OK;
}

const struct bt_cmprep_reporter bt_cmprep_json = { "json", ".json", write_json };
