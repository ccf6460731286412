/*
 * "btrace-analyze compare --base R... --head R...": read (or analyse) every
 * run, compare them (compare.h) under the flags' thresholds and an
 * optional gate script, write the comparison, and exit 3 when a gated
 * metric regressed (or, with --fail-inconclusive, could not be judged).
 * An R that is a JSON report is read; anything else is analysed here with
 * the built-in rules (or --analyze-rules), as 'analyze' would.
 */
#include <string.h>

#include "engine/cli/cmd.h"
#include "reports/compare/cmp_report.h"
#include "engine/compare/compare.h"
#include "engine/base/fileio.h"
#include "lua/gates.h"
#include "lua/rules.h"
#include "engine/compare/runs.h"

/* Runs on both sides, unless only help was asked for. */
static int parse(struct bt_opts *o, int argc, char **argv, struct bt_err *err)
{
	int rc = bt_opts_parse(o, &bt_optab_compare, argc, argv, err);

	if (!rc && !o->help && (!o->nbase || !o->nhead))
		rc = bt_err_set(err, BT_EUSAGE, "compare needs runs on both sides: --base R... --head R...");
	return rc;
}

/* A trace analysed here, as 'analyze' would, for its metrics. */
static int analyse(struct bt_runs *rs, enum bt_side side, const char *path, const struct bt_opts *co,
		   struct bt_err *err)
{
	struct bt_opts o;
	struct bt_db *db = NULL;
	struct bt_result res;
	struct bt_rules_opts ro;
	int rc;

	memset(&o, 0, sizeof o);
	o.cmd = "compare";
	o.quiet = co->quiet;
	bt_result_init(&res);
	rc = bt_cmd_load(&o, path, 0, NULL, &db, err);
	if (!rc) {
		ro.files = co->arules;
		ro.nfiles = co->narules;
		ro.sets = co->sets;
		ro.nsets = co->nsets;
		rc = bt_rules_run(db, &ro, &res, err);
	}
	if (!rc)
		bt_runs_add_result(rs, side, path, &res);
	bt_db_close(db);
	bt_result_release(&res);
	return rc;
}

static int read_side(struct bt_runs *rs, enum bt_side side, const char **paths, int n,
		     const struct bt_opts *o, struct bt_err *err)
{
	int i, rc = BT_OK;

	for (i = 0; i < n && !rc; i++) {
		if (bt_input_check(paths[i], 1, err))
			rc = err->code;
		else if (bt_runs_is_json(paths[i]))
			rc = bt_runs_add_report(rs, side, paths[i], err);
		else
			rc = analyse(rs, side, paths[i], o, err);
	}
	return rc;
}

static int verdict_status(const struct bt_opts *o, const struct bt_compare *c, struct bt_err *err)
{
	if (c->count[BT_VD_REGRESSED])
		return bt_err_set(err, BT_EGATE, "gate failed: %zu of %zu gated metrics regressed",
				  c->count[BT_VD_REGRESSED], c->ngated);
	if (o->fail_inconclusive && c->count[BT_VD_INCONCLUSIVE])
		return bt_err_set(err, BT_EGATE, "gate failed: %zu gated metrics inconclusive "
				  "(--fail-inconclusive)", c->count[BT_VD_INCONCLUSIVE]);
	return BT_OK;
}

int bt_cmd_compare(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts o;
	struct bt_runs rs;
	struct bt_gates *gates = NULL;
	struct bt_cmp_hooks hooks = { NULL, NULL, NULL };
	struct bt_cmp_opts co;
	struct bt_compare c;
	struct bt_out out = { NULL, NULL, NULL };
	const struct bt_cmp_reporter *rep = NULL;
	struct bt_cmp_view view;
	int rc = parse(&o, argc, argv, err);

	bt_runs_init(&rs);
	memset(&c, 0, sizeof c);
	if (!rc && o.help) {
		bt_cmd_print_help("compare");
		goto done;
	}
	if (!rc)
		rc = bt_cmp_report_pick(o.format, o.out, &rep, err);
	if (!rc && o.gates && !(rc = bt_gates_open(&gates, o.gates, err)))
		bt_gates_hooks(gates, &hooks);
	if (!rc)
		rc = read_side(&rs, BT_BASE, o.base, o.nbase, &o, err);
	if (!rc)
		rc = read_side(&rs, BT_HEAD, o.head, o.nhead, &o, err);
	if (!rc) {
		co.def = o.gate;
		co.globs = o.globs;
		co.nglobs = o.nglobs;
		co.hooks = gates ? &hooks : NULL;
		co.rules = o.gates;
		rc = bt_compare_run(&c, &rs, &co, err);
	}
	if (!rc)
		rc = bt_out_open(&out, o.out, err);
	if (!rc) {
		view.c = &c;
		view.globs = o.globs;
		view.nglobs = o.nglobs;
		view.top = o.top;
		view.fail_inconclusive = o.fail_inconclusive;
		rc = rep->write(&view, out.fp, err);
	}
	if (!rc)
		rc = bt_out_commit(&out, err);
	if (!rc)
		rc = verdict_status(&o, &c, err);
done:
	bt_out_abort(&out);
	bt_compare_release(&c);
	bt_gates_close(gates);
	bt_runs_release(&rs);
	bt_opts_release(&o);
	return rc;
}
