/*
 * compare --calibrate's output: the false-alarm rate the runs show and,
 * per gated metric, the smallest change the gate can catch with N runs a
 * side (engine/compare/calibrate.h). Text for terminals, JSON (by -o's
 * extension) for scripts that pick N.
 */
#include <math.h>
#include <string.h>

#include "engine/base/jsonw.h"
#include "reports/compare/cmp_report.h"
#include "reports/text/grid.h"

#define TEXT_ROWS 40   /* the noisiest; the JSON has them all */

static void pct_of(double v, double median, struct bt_buf *b)
{
	if (median != 0)
		bt_buf_addf(b, " (%.1f %%)", 100 * v / fabs(median));
}

static void text(const struct bt_calibration *cal, FILE *out)
{
	static const char *const head[] = { "metric", "median", "noise (sd)", "threshold", "N=3", "N=5",
					    "N=10", "N=20", "A/A alarms" };
	struct bt_grid g;
	struct bt_buf b = BT_BUF_INIT;
	size_t i, k;

	fprintf(out, "btrace-analyze compare --calibrate: %zu of %zu A/A comparisons (%zu + %zu runs drawn "
		"from %zu of one build) would fail the gate: %.1f %% (95 %% upper bound %.1f %%) at alpha %g "
		"family-wise.\n", cal->alarms, cal->splits, cal->per_side, cal->per_side, cal->pool,
		100 * cal->rate, 100 * cal->upper, cal->alpha);
	fprintf(out, "A real change must beat T* = %.2f (the %g quantile of a same-build comparison's largest "
		"T). Smallest change each gated metric can catch with N runs a side: max(threshold, T* "
		"sqrt(2 sd^2 / N + s0^2)); pick the N that catches what you care about.\n\n",
		cal->crit, 1 - cal->alpha);
	bt_grid_init(&g, 9);
	for (k = 1; k < 9; k++)
		g.numeric[k] = 1;
	for (k = 0; k < 9; k++)
		bt_grid_add(&g, head[k], strlen(head[k]));
	for (i = 0; i < cal->nm && i < TEXT_ROWS; i++) {
		const struct bt_cal_metric *m = &cal->m[i];
		double v[3] = { m->median, m->sd, m->threshold };
		bt_grid_add(&g, m->label, strlen(m->label));
		for (k = 0; k < 3 + BT_CAL_NS; k++) {
			double x = k < 3 ? v[k] : m->mde[k - 3];
			bt_buf_reset(&b);
			if (isnan(x)) {   /* N runs a side cannot decide */
				bt_buf_adds(&b, "\xe2\x80\x94");
			} else {
				bt_cmp_amount(m->unit, x, &b);
				if (k)
					pct_of(x, m->median, &b);
			}
			bt_grid_add(&g, b.buf, b.len);
		}
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%zu", m->alarms);
		bt_grid_add(&g, b.buf, b.len);
	}
	bt_grid_print(&g, out);
	for (k = 0; k < BT_CAL_NS && cal->nm; k++)
		if (isnan(cal->m[0].mde[k]))
			fprintf(out, "N=%zu: \xe2\x80\x94, no change can be caught: the smallest p of %zu + %zu runs is "
				"%.3g, not below alpha %g.\n", bt_cal_n[k], bt_cal_n[k], bt_cal_n[k],
				bt_family_min_p(bt_cal_n[k]), cal->alpha);
	if (cal->nm > TEXT_ROWS)
		fprintf(out, "(%zu more gated metrics, less noisy; -o cal.json has them all)\n", cal->nm - TEXT_ROWS);
	bt_grid_release(&g);
	bt_buf_release(&b);
}

static void num(struct bt_jsonw *w, const char *key, double v)
{
	bt_jsonw_key(w, key);
	bt_jsonw_real(w, v);
}

static void json(const struct bt_calibration *cal, FILE *out)
{
	struct bt_jsonw w;
	size_t i, k;

	bt_jsonw_init(&w, out, 1);
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "schema");
	bt_jsonw_cstr(&w, "btrace-analyze/calibration@1");
	num(&w, "pool", (double)cal->pool);
	num(&w, "per_side", (double)cal->per_side);
	num(&w, "splits", (double)cal->splits);
	num(&w, "alarms", (double)cal->alarms);
	num(&w, "rate", cal->rate);
	num(&w, "upper95", cal->upper);
	num(&w, "alpha", cal->alpha);
	num(&w, "t_crit", cal->crit);
	bt_jsonw_key(&w, "n");
	bt_jsonw_begin_array(&w);
	for (k = 0; k < BT_CAL_NS; k++)
		bt_jsonw_int(&w, (int64_t)bt_cal_n[k]);
	bt_jsonw_end_array(&w);
	bt_jsonw_key(&w, "metrics");
	bt_jsonw_begin_array(&w);
	for (i = 0; i < cal->nm; i++) {
		const struct bt_cal_metric *m = &cal->m[i];
		bt_jsonw_begin_object(&w);
		bt_jsonw_key(&w, "name");
		bt_jsonw_cstr(&w, m->name);
		bt_jsonw_key(&w, "label");
		bt_jsonw_cstr(&w, m->label);
		num(&w, "median", m->median);
		num(&w, "sd", m->sd);
		num(&w, "threshold", m->threshold);
		num(&w, "s0", m->s0);
		bt_jsonw_key(&w, "smallest_change");
		bt_jsonw_begin_array(&w);
		for (k = 0; k < BT_CAL_NS; k++)
			bt_jsonw_real(&w, m->mde[k]);
		bt_jsonw_end_array(&w);
		num(&w, "alarms", (double)m->alarms);
		bt_jsonw_end_object(&w);
	}
	bt_jsonw_end_array(&w);
	bt_jsonw_end_object(&w);
	fputc('\n', out);
}

int bt_cmprep_calibration_write(const struct bt_calibration *cal, const char *path, FILE *out,
			     struct bt_err *err)
{
	const char *ext = path ? strrchr(path, '.') : NULL;

	if (ext && !strcmp(ext, ".json"))
		json(cal, out);
	else
		text(cal, out);
	(void)err;
	return BT_OK;
}
