/*
 * "btrace-analyze [analyze] INPUT": import (or reuse) a trace, run the
 * rules (the built-in attribution unless --rules), and write the report
 * to stdout or atomically to -o, in the format --format or the
 * extension names; --perfetto also exports the slices for Perfetto UI,
 * --pprof and --folded the self values of the call paths for pprof and
 * flame graphs, --speedscope the timelines and profiles of each thread
 * for speedscope. Every output is committed only once all are written.
 * --fail-on exits 3 (after writing everything) when a finding reaches it.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "engine/base/progress.h"

#include "engine/cli/cmd.h"
#include "lua/rules.h"
#include "reports/export/folded.h"
#include "reports/outputs/outputs.h"

static int gate(const struct bt_opts *o, const struct bt_result *res, struct bt_err *err)
{
	int at = o->fail_on ? bt_severity_parse(o->fail_on) : -1;
	size_t i, n = 0;

	if (!o->fail_on)
		return BT_OK;
	for (i = 0; i < res->nfindings; i++)
		n += (int)res->findings[i].severity >= at;
	if (n)
		return bt_err_set(err, BT_EGATE, "gate failed: %zu finding%s at or above '%s'", n,
				  n == 1 ? "" : "s", o->fail_on);
	return BT_OK;
}

/* A writer's progress, on the progress line's "writing PATH" phase
 * (engine/base/progress.h: nothing unless stderr is a terminal). */
static void show_writing(void *ctx, const char *path, uint64_t done, uint64_t total)
{
	(void)ctx;
	(void)path;
	bt_progress_pct(total && done < total ? (int)(done * 100 / total) : -1);
}

/* The outputs asked for, in the order their errors should be found in:
 * the report, then the exports. */
static int add_outputs(const struct bt_opts *o, struct bt_outputs *out, struct bt_err *err)
{
	const struct bt_exporter *rep;
	int i;

	if (o->nouts > 1 && o->format)
		return bt_err_set(err, BT_EUSAGE, "--format applies to one output; with several -o each takes its "
				  "format from its extension (.txt .json .md .html .xlsx)");
	/* exports alone stand alone: no report on stdout unless asked for */
	if (!o->nouts && (o->format || !(o->perfetto || o->pprof || o->folded || o->speedscope))) {
		if (bt_report_pick(o->format, NULL, &rep, err))
			return err->code;
		bt_outputs_add(out, rep, NULL);
	}
	for (i = 0; i < o->nouts; i++) {   /* every -o, each in its own format */
		if (bt_report_pick(o->format, o->outs[i], &rep, err))
			return err->code;
		bt_outputs_add(out, rep, o->outs[i]);
	}
	if (o->perfetto)
		bt_outputs_add(out, &bt_exp_perfetto, o->perfetto);
	if (o->pprof)
		bt_outputs_add(out, &bt_exp_pprof, o->pprof);
	if (o->folded)
		bt_outputs_add(out, &bt_exp_folded, o->folded);
	if (o->speedscope)
		bt_outputs_add(out, &bt_exp_speedscope, o->speedscope);
	return bt_outputs_check(out, err);
}

int bt_cmd_analyze(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts o;
	struct bt_db *db = NULL;
	struct bt_outputs *out = NULL;
	struct bt_result res;
	struct bt_rules_opts ro = { 0 };
	int rc = bt_opts_parse(&o, &bt_optab_analyze, argc, argv, err);

	bt_result_init(&res);
	if (!rc && o.help) {
		bt_cmd_print_help("analyze");
		goto done;
	}
	if (!rc && o.ninputs == 0)
		rc = bt_err_set(err, BT_EUSAGE, "no input given");
	if (!rc && o.fail_on && bt_severity_parse(o.fail_on) < 0)
		rc = bt_err_set(err, BT_EUSAGE, "--fail-on wants info, warning or error, not '%s'", o.fail_on);
	if (!rc && bt_folded_metric_parse(o.folded_metric) < 0)
		rc = bt_err_set(err, BT_EUSAGE, "--folded-metric wants wall, cpu, offcpu or alloc, not '%s'",
				o.folded_metric);
	if (!rc) {
		out = bt_outputs_new(bt_folded_metric_parse(o.folded_metric), o.show_idle);
		bt_outputs_width(out, o.width);
		bt_outputs_full_names(out, o.full_names);
		if (!o.quiet && isatty(2))
			bt_outputs_progress(out, show_writing, NULL);
		rc = add_outputs(&o, out, err);
	}
	if (!rc)
		rc = bt_cmd_load_many(&o, (const char *const *)o.inputs, o.ninputs, 0, bt_outputs_taps(out), &db, err);
	if (!rc)
		rc = bt_outputs_start(out, db, err);
	if (!rc) {
		ro.files = o.rules;
		ro.nfiles = o.nrules;
		ro.sets = o.sets;
		ro.nsets = o.nsets;
		ro.names = bt_outputs_namer(out);
		ro.full_names = o.full_names;
		bt_alloc_doing("running the rules on", o.inputs[0]);
		bt_progress_phase("running the rules");
		rc = bt_rules_run(db, &ro, &res, err);
	}
	bt_alloc_doing("writing the outputs of", o.inputs[0]);
	if (!rc)
		rc = bt_outputs_finish(out, db, &res, err);
	bt_progress_phase(NULL);
	if (!rc && !o.quiet)
		bt_outputs_tell(out, stderr);
	if (!rc)
		rc = bt_db_publish(db, err);
	if (!rc && o.db && !o.quiet)   /* told as every other output is */
		bt_outputs_tell_file(stderr, o.db);
	if (!rc)
		rc = gate(&o, &res, err);
done:
	bt_outputs_free(out);
	bt_db_close(db);
	bt_result_release(&res);
	bt_opts_release(&o, &bt_optab_analyze);
	return rc;
}
