/*
 * What compare's text and Markdown outputs say, cell by cell, and picking
 * the output format. Amounts carry their unit ("12.5 ms", "3.2 MiB"), so
 * one column can hold metrics of different units.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/compare/fleetcmp.h"
#include "reports/compare/cmp_report.h"

static const struct bt_cmprep_reporter *const reporters[] = { &bt_cmprep_text, &bt_cmprep_json, &bt_cmprep_md,
								   &bt_cmprep_xlsx, &bt_cmprep_html };

int bt_cmprep_report_pick(const char *format, const char *path, const struct bt_cmprep_reporter **out,
		       struct bt_err *err)
{
	const char *ext = path ? strrchr(path, '.') : NULL;
	struct stat st;
	size_t i;

	*out = &bt_cmprep_text;
	if (ext && strchr(ext, '/'))
		ext = NULL;   /* a dot in a folder's name: no extension */
	for (i = 0; i < sizeof reporters / sizeof reporters[0]; i++) {
		if (format ? !strcmp(format, reporters[i]->name) : ext && !strcmp(ext, reporters[i]->ext)) {
			*out = reporters[i];
			return BT_OK;
		}
	}
	if (format)
		return bt_err_set(err, BT_EUSAGE, "unknown compare format '%s' (known: text, json, md, xlsx, html)", format);
	if (ext && strcmp(path, "-") && (stat(path, &st) || S_ISREG(st.st_mode)))   /* out.pdf would get text in it */
		return bt_err_set(err, BT_EUSAGE, "-o %s: no compare format has the extension '%s' (known: .txt, "
				  ".json, .md, .xlsx, .html; --format names one for any path)", path, ext);
	return BT_OK;
}

const char *const bt_cmprep_mhead[BT_CMP_MCOLS] = { "verdict", "metric", "base median", "head median",
						  "change", "p", "shift [CI]", "why" };
const char *const bt_cmprep_dhead[BT_CMP_DCOLS] = { "change", "what", "base", "head", "delta", "share",
						  "inclusive base -> head", "p" };

void bt_cmprep_cells(struct bt_buf *cell, int init)
{
	int k;

	for (k = 0; k < BT_CMP_CELLS; k++) {
		if (init)
			bt_buf_init(&cell[k]);
		else
			bt_buf_release(&cell[k]);
	}
}

void bt_cmprep_headline(const struct bt_compare *c, struct bt_buf *b)
{
	bt_buf_adds(b, c->headline ? c->headline : bt_verdict_name[c->overall]);
}

void bt_cmprep_policy(const struct bt_cmprep_view *v, struct bt_buf *b)
{
	const struct bt_compare *c = v->c;
	int i;

	bt_buf_addf(b, "%zu base run%s, %zu head run%s. ", c->nbase, c->nbase == 1 ? "" : "s", c->nhead,
		    c->nhead == 1 ? "" : "s");
	if (c->nbase < 2 || c->nhead < 2)
		bt_buf_adds(b, "With one run on a side the thresholds alone decide (no test). ");
	else if (c->holm)
		bt_buf_addf(b, "The %zu gated metrics are one family: p is family-wise (Holm's step-down "
			    "on each metric's Mann-Whitney p: fleet summaries hold each measure's "
			    "distribution alone, binned, not the traces' joint values). ", c->nfamily);
	else
		bt_buf_addf(b, "The %zu gated metrics every run has and whose medians can move are one "
			    "family: p is family-wise (Westfall-Young "
			    "step-down max-T over %s%zu relabelings of the runs; smallest p %.2g), so a "
			    "same build fails the gate with probability at most alpha. Ungated metrics: "
			    "Mann-Whitney U, Hodges-Lehmann shift. ", c->nfamily,
			    c->fam.exact ? "all " : "", c->fam.relabelings, c->fam.min_p);
	bt_buf_addf(b, "Regressed: the median moved by more than max(%g %% of the base, noise floor ",
		    100 * c->def.max_regress);
	bt_cmp_amount(BT_UNIT_NS, c->def.floor_ns, b);
	bt_buf_adds(b, " / ");
	bt_cmp_amount(BT_UNIT_BYTES, c->def.floor_bytes, b);
	bt_buf_addf(b, " / %g) with p < %g.", c->def.floor_count, c->def.alpha);
	if (c->msg_window)
		bt_buf_addf(b, " Messages: each run's first %lld, the most every run has (later ones come in "
			    "another mix, with warmer caches: a longer capture's would differ), not all of them.",
			    (long long)c->msg_window);
	if (c->resolution_ns > c->def.floor_ns) {
		bt_buf_adds(b, " The main thread's methods in the start: a floor of ");
		bt_cmp_amount(BT_UNIT_NS, c->resolution_ns, b);
		bt_buf_adds(b, ", how finely the runs' samples place their bounds (the median of "
			    BT_CMP_RESOLUTION ").");
	}
	if (v->nglobs) {
		bt_buf_adds(b, " Gated:");
		for (i = 0; i < v->nglobs; i++)
			bt_buf_addf(b, " %s", v->globs[i]);
		bt_buf_adds(b, ".");
	}
	if (c->rules)
		bt_buf_addf(b, " Gate script: %s (its thresholds replace these where it sets them).", c->rules);
	if (v->fleet && v->fleet->summaries)
		bt_buf_addf(b, " Fleets: two fleet summaries of %zu and %zu traces; each measure's binned "
			    "distribution (within 1 %%) dealt to at most %d runs a side, in rank order.",
			    v->fleet->reports[0], v->fleet->reports[1], BT_FLEETCMP_MAX_RUNS);
	else if (v->fleet)
		bt_buf_addf(b, " Fleets: one run per trace, from folders of reports; left out: %zu base and "
			    "%zu head reports without an app start.", v->fleet->nostart[0], v->fleet->nostart[1]);
	if (v->fail_inconclusive)
		bt_buf_adds(b, " Inconclusive fails the gate.");
}

static void signed_amount(enum bt_unit u, double v, struct bt_buf *b)
{
	if (isnan(v)) {
		bt_buf_adds(b, "-");
		return;
	}
	if (v > 0)
		bt_buf_addc(b, '+');
	bt_cmp_amount(u, v, b);
}

static void amount(enum bt_unit u, double v, struct bt_buf *b)
{
	if (isnan(v))
		bt_buf_adds(b, "-");
	else
		bt_cmp_amount(u, v, b);
}

static void p_value(int tested, double p, struct bt_buf *b)
{
	if (!tested || isnan(p))
		bt_buf_adds(b, "-");
	else
		bt_buf_addf(b, p < 0.001 ? "%.1e" : "%.3f", p);
}

void bt_cmprep_metric_cells(const struct bt_cmp_metric *m, struct bt_buf cell[BT_CMP_MCOLS])
{
	int i;

	for (i = 0; i < BT_CMP_MCOLS; i++)
		bt_buf_reset(&cell[i]);
	bt_buf_addf(&cell[0], m->gate.gated ? "%s%s" : "(%s%s)", bt_verdict_name[m->verdict],
		    m->by_script ? " (script)" : "");
	bt_buf_adds(&cell[1], m->name);
	amount(m->unit, m->base.median, &cell[2]);
	amount(m->unit, m->head.median, &cell[3]);
	signed_amount(m->unit, m->delta, &cell[4]);
	if (!isnan(m->rel))
		bt_buf_addf(&cell[4], " (%+.1f %%)", 100 * m->rel);
	p_value(m->tested, bt_cmp_p(m), &cell[5]);
	if (m->tested) {
		signed_amount(m->unit, m->hl.est, &cell[6]);
		bt_buf_adds(&cell[6], " [");
		signed_amount(m->unit, m->hl.lo, &cell[6]);
		bt_buf_adds(&cell[6], ", ");
		signed_amount(m->unit, m->hl.hi, &cell[6]);
		bt_buf_adds(&cell[6], "]");
	} else {
		bt_buf_adds(&cell[6], "-");
	}
	bt_buf_adds(&cell[7], m->reason ? m->reason : "");
}

void bt_cmprep_change_cells(const struct bt_cmp_change *r, enum bt_unit u, struct bt_buf cell[BT_CMP_DCOLS])
{
	int i;

	for (i = 0; i < BT_CMP_DCOLS; i++)
		bt_buf_reset(&cell[i]);
	bt_buf_addf(&cell[0], "%s%s", bt_change_name[r->change],
		    r->significant ? "" : r->small ? " (small)" : " (n.s.)");
	if (r->scope)
		bt_buf_addf(&cell[1], "%s: ", r->scope);
	bt_buf_adds(&cell[1], r->what);
	amount(u, r->base.median, &cell[2]);
	amount(u, r->head.median, &cell[3]);
	signed_amount(u, r->delta, &cell[4]);
	bt_buf_addf(&cell[5], "%+.1f %%", r->share);
	if (isnan(r->incl_base) && isnan(r->incl_head)) {
		bt_buf_adds(&cell[6], "-");
	} else {
		amount(u, r->incl_base, &cell[6]);
		bt_buf_adds(&cell[6], " -> ");
		amount(u, r->incl_head, &cell[6]);
	}
	p_value(r->tested, r->p, &cell[7]);
}

const char *const bt_cmprep_shead[BT_CMP_SCOLS] = { "metric", "base", "head", "delta", "p", "n", "verdict" };
const char *const bt_cmprep_khead[BT_CMP_KCOLS] = { "cause", "base", "head", "change",
						  "share of the metric's change" };

/* Verdict order in the compact table: regressed, improved, inconclusive, unchanged. */
static int summary_rank(const struct bt_cmp_metric *m)
{
	static const int rank[BT_VD__COUNT] = { 3, 1, 2, 0 };

	return rank[m->verdict];
}

static int key_metric(const char *name)
{
	return !strstr(name, ".method.") && (!strncmp(name, "startup.", 8) || !strncmp(name, "thread.main.", 12));
}

#define SUMMARY_INCONCLUSIVE 10   /* noise, mostly: the rest are in the details */

struct row_key {
	int method;
	double move, t;
	size_t at;
};

/* Within a verdict: the start's and the main thread's own measures first,
 * then methods by how much time they moved in all, as the headline ranks
 * them (not by relative change, which puts a small method's jitter above a
 * large method's slowdown; not metric by metric, which puts every caller's
 * inclusive time above the slowed method's own), a method's rows
 * together, the one the headline shows (largest |t|) first. */
static int summary_order(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;

	if (x->method != y->method)
		return x->method - y->method;
	if (x->method && x->move != y->move)
		return x->move < y->move ? 1 : -1;
	if (x->method && x->t != y->t)
		return x->t < y->t ? 1 : -1;
	return (x->at > y->at) - (x->at < y->at);
}

static void sort_rows(const struct bt_compare *c, size_t *at, size_t n)
{
	struct row_key *k = bt_xcalloc(n + 1, sizeof *k);
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].method = bt_metric_per_method(c->m[at[i]].name);
		k[i].move = bt_cmp_method_moved(c, &c->m[at[i]]);
		k[i].t = isnan(c->m[at[i]].t) ? 0 : fabs(c->m[at[i]].t);
		k[i].at = at[i];
	}
	qsort(k, n, sizeof *k, summary_order);
	for (i = 0; i < n; i++)
		at[i] = k[i].at;
	free(k);
}

size_t bt_cmprep_summary_rows(const struct bt_compare *c, size_t *at, size_t max, size_t *more)
{
	size_t i, n = 0, unsure = 0, from;
	int r;

	*more = 0;
	for (r = 0; r < 4; r++) {
		from = n;
		for (i = 0; i < c->nm; i++) {
			const struct bt_cmp_metric *m = &c->m[i];
			if (!m->gate.gated || summary_rank(m) != r || (r == 3 && !key_metric(m->name)) ||
			    (m->base.max == 0 && m->head.max == 0 && m->base.min == 0 && m->head.min == 0))
				continue;
			if (r == 2 && unsure++ >= SUMMARY_INCONCLUSIVE)
				++*more;
			else
				at[n++] = i;
		}
		sort_rows(c, at + from, n - from);
	}
	if (n > max) {
		for (i = max; i < n; i++)
			*more += summary_rank(&c->m[at[i]]) < 3;
		n = max;
	}
	return n;
}

void bt_cmprep_summary_cells(const struct bt_compare *c, const struct bt_cmp_metric *m,
			  struct bt_buf cell[BT_CMP_SCOLS])
{
	int i;
	double p = bt_cmp_p(m);

	for (i = 0; i < BT_CMP_SCOLS; i++)
		bt_buf_reset(&cell[i]);
	bt_buf_adds(&cell[0], m->label ? m->label : m->name);
	amount(m->unit, m->base.median, &cell[1]);
	amount(m->unit, m->head.median, &cell[2]);
	if (m->verdict != BT_VD_REGRESSED && m->verdict != BT_VD_IMPROVED)
		bt_buf_adds(&cell[3], "~");
	else if (!isnan(m->rel))
		bt_buf_addf(&cell[3], "%+.1f %%", 100 * m->rel);
	else
		signed_amount(m->unit, m->delta, &cell[3]);
	p_value(!isnan(p), p, &cell[4]);
	bt_buf_addf(&cell[5], "%zu+%zu", m->base.n, m->head.n);
	if (m->verdict != BT_VD_UNCHANGED)
		bt_buf_adds(&cell[6], bt_verdict_name[m->verdict]);
	(void)c;
}

void bt_cmprep_causes_title(const struct bt_cmp_metric *m, struct bt_buf *b)
{
	bt_buf_addf(b, "Causes of %s ", m->label ? m->label : m->name);
	signed_amount(m->unit, m->delta, b);
	bt_buf_addf(b, " (%s)", bt_verdict_name[m->verdict]);
}

void bt_cmprep_cause_cells(const struct bt_compare *c, const struct bt_cmp_cause *k,
			struct bt_buf cell[BT_CMP_KCOLS])
{
	enum bt_unit u = bt_unit_of(c->runs->names[k->id], BT_UNIT_COUNT);
	int i;

	for (i = 0; i < BT_CMP_KCOLS; i++)
		bt_buf_reset(&cell[i]);
	bt_buf_adds(&cell[0], k->label);
	if (k->holder)
		bt_buf_addf(&cell[0], " (held by %s)", k->holder);
	amount(u, k->base, &cell[1]);
	amount(u, k->head, &cell[2]);
	signed_amount(u, k->delta, &cell[3]);
	if (!isnan(k->rel))
		bt_buf_addf(&cell[3], " (%+.0f %%)", 100 * k->rel);
	if (isnan(k->of_change))   /* no part of the metric (a janky-frame rate's time per frame) */
		bt_buf_adds(&cell[4], "-");
	else
		bt_buf_addf(&cell[4], "%.0f %%", k->of_change);
}

const char bt_cmprep_legend[] = "(small): within the threshold; (n.s.): not significant at alpha.";

const char *bt_cmprep_list_title(int measure, enum bt_unit *u)
{
	static const char *const title[BT_MS__COUNT] = {
		"Methods that changed most: self wall time",
		"Methods that changed most: self CPU time",
		"Methods that changed most: self off-CPU time",
		"Methods that changed most: self allocated bytes",
		"Methods that changed most: self major page faults",
	};
	static const enum bt_unit unit[BT_MS__COUNT] = { BT_UNIT_NS, BT_UNIT_NS, BT_UNIT_NS, BT_UNIT_BYTES,
							 BT_UNIT_COUNT };

	if (measure < 0) {
		*u = BT_UNIT_NS;
		return "Blocked time by kind";
	}
	*u = unit[measure];
	return title[measure];
}
