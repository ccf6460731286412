/*
 * What compare's text and Markdown outputs say, cell by cell, and picking
 * the output format. Amounts carry their unit ("12.5 ms", "3.2 MiB"), so
 * one column can hold metrics of different units.
 */
#include <math.h>
#include <string.h>

#include "reports/compare/cmp_report.h"

static const struct bt_cmp_reporter *const reporters[] = { &bt_cmp_text, &bt_cmp_json, &bt_cmp_md,
								   &bt_cmp_xlsx, &bt_cmp_html };

int bt_cmp_report_pick(const char *format, const char *path, const struct bt_cmp_reporter **out,
		       struct bt_err *err)
{
	const char *ext = path ? strrchr(path, '.') : NULL;
	size_t i;

	*out = &bt_cmp_text;
	for (i = 0; i < sizeof reporters / sizeof reporters[0]; i++) {
		if (format ? !strcmp(format, reporters[i]->name) : ext && !strcmp(ext, reporters[i]->ext)) {
			*out = reporters[i];
			return BT_OK;
		}
	}
	if (format)
		return bt_err_set(err, BT_EUSAGE, "unknown compare format '%s' (known: text, json, md, xlsx)", format);
	return BT_OK;
}

const char *const bt_cmp_mhead[BT_CMP_MCOLS] = { "verdict", "metric", "base median", "head median",
						  "change", "p", "shift [CI]", "why" };
const char *const bt_cmp_dhead[BT_CMP_DCOLS] = { "change", "what", "base", "head", "delta", "share",
						  "inclusive base -> head", "p" };

void bt_cmp_cells(struct bt_buf *cell, int init)
{
	int k;

	for (k = 0; k < BT_CMP_CELLS; k++) {
		if (init)
			bt_buf_init(&cell[k]);
		else
			bt_buf_release(&cell[k]);
	}
}

void bt_cmp_headline(const struct bt_compare *c, struct bt_buf *b)
{
	bt_buf_addf(b, "%s", bt_verdict_name[c->overall]);
	if (c->count[BT_VD_REGRESSED])
		bt_buf_addf(b, ": %zu of %zu gated metrics regressed", c->count[BT_VD_REGRESSED], c->ngated);
	else
		bt_buf_addf(b, ": %zu gated metrics, none regressed", c->ngated);
	if (c->count[BT_VD_INCONCLUSIVE])
		bt_buf_addf(b, ", %zu inconclusive", c->count[BT_VD_INCONCLUSIVE]);
	if (c->count[BT_VD_IMPROVED])
		bt_buf_addf(b, ", %zu improved", c->count[BT_VD_IMPROVED]);
}

void bt_cmp_policy(const struct bt_cmp_view *v, struct bt_buf *b)
{
	const struct bt_compare *c = v->c;
	int i;

	bt_buf_addf(b, "%zu base run%s, %zu head run%s. ", c->nbase, c->nbase == 1 ? "" : "s", c->nhead,
		    c->nhead == 1 ? "" : "s");
	if (c->nbase < 2 || c->nhead < 2)
		bt_buf_adds(b, "With one run on a side the thresholds alone decide (no test). ");
	else
		bt_buf_addf(b, "Two-sided Mann-Whitney U (exact up to %d runs in all), Hodges-Lehmann "
			    "shift with its interval. ", BT_STATS_EXACT_MAX);
	bt_buf_addf(b, "Regressed: the median moved by more than max(%g %% of the base, noise floor ",
		    100 * c->def.max_regress);
	bt_cmp_amount(BT_UNIT_NS, c->def.floor_ns, b);
	bt_buf_adds(b, " / ");
	bt_cmp_amount(BT_UNIT_BYTES, c->def.floor_bytes, b);
	bt_buf_addf(b, " / %g) with p < %g.", c->def.floor_count, c->def.alpha);
	if (v->nglobs) {
		bt_buf_adds(b, " Gated:");
		for (i = 0; i < v->nglobs; i++)
			bt_buf_addf(b, " %s", v->globs[i]);
		bt_buf_adds(b, ".");
	}
	if (c->rules)
		bt_buf_addf(b, " Gate script: %s (its thresholds replace these where it sets them).", c->rules);
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

void bt_cmp_metric_cells(const struct bt_cmp_metric *m, struct bt_buf cell[BT_CMP_MCOLS])
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
	p_value(m->tested, m->mwu.p, &cell[5]);
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

void bt_cmp_change_cells(const struct bt_cmp_change *r, enum bt_unit u, struct bt_buf cell[BT_CMP_DCOLS])
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

const char bt_cmp_legend[] = "(small): within the threshold; (n.s.): not significant at alpha.";

const char *bt_cmp_list_title(int measure, enum bt_unit *u)
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
