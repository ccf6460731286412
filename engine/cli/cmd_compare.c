/*
 * "btrace-analyze compare --base R... --head R...", or "compare DIR_A
 * DIR_B" (two fleets: each R that is a directory no importer reads stands
 * for the reports under it, and the start is gated, fleetcmp.h): check every input and
 * output, read (or analyse) every run, compare them (compare.h) under the
 * flags' thresholds and an optional gate script, write the comparison once
 * per -o (all committed or none), tell the runs' warnings once, and exit 3
 * when a gated metric regressed (or, with --fail-inconclusive, could not
 * be judged). An R that is a JSON report is read; anything else is
 * analysed here with the built-in rules (or --analyze-rules), as 'analyze'
 * would.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "engine/cli/cmd.h"
#include "engine/cli/outset.h"
#include "reports/compare/cmp_report.h"
#include "engine/compare/compare.h"
#include "engine/compare/fleetcmp.h"
#include "engine/base/fileio.h"
#include "engine/base/progress.h"
#include "engine/db/diag.h"
#include "importers/importer.h"
#include "lua/gates.h"
#include "lua/rules.h"
#include "reports/report.h"
#include "reports/text/safe.h"
#include "engine/compare/runs.h"

#define SHOWN_RUNS 3   /* paths a warning's summary line names */

/* The runs of each side (base, head, --calibrate) once directories of
 * reports are read out; fleet: one was. */
struct sides {
	struct bt_fleetcmp_side s[3];
	int fleet;
	int summaries;    /* DIR_A DIR_B were two fleet summaries (merge's) */
};

/* Runs on both sides, unless only help was asked for. */
static int parse(struct bt_opts_compare *o, int argc, char **argv, struct bt_err *err)
{
	int rc = bt_opts_parse(&o->o, &bt_optab_compare, argc, argv, err);

	if (!rc && !o->o.help && o->o.ninputs && (o->o.ninputs != 2 || o->nbase || o->nhead || o->ncalib))
		rc = bt_err_set(err, BT_EUSAGE, "compare takes two folders of reports (compare DIR_A "
				"DIR_B), or runs after --base and --head");
	else if (!rc && !o->o.help && o->ncalib && (o->nbase || o->nhead))
		rc = bt_err_set(err, BT_EUSAGE, "--calibrate takes runs of one build, not --base or --head");
	else if (!rc && !o->o.help && !o->ncalib && !o->o.ninputs && (!o->nbase || !o->nhead))
		rc = bt_err_set(err, BT_EUSAGE, "compare needs runs on both sides (--base R... --head "
				"R...), or one build's runs (--calibrate R...)");
	if (!rc && o->ncalib && o->o.nouts > 1)
		rc = bt_err_set(err, BT_EUSAGE, "--calibrate writes one output");
	if (!rc && o->o.nouts > 1 && o->o.format)
		rc = bt_err_set(err, BT_EUSAGE, "--format applies to one output; with several -o each "
				"takes its format from its extension (.txt .md .json .xlsx)");
	return rc;
}

/* A run compare can read: a JSON report, a trace database or an input an
 * importer recognises (by its first bytes: cheap, nothing is imported). */
static int check_run(const char *path, struct bt_err *err)
{
	const struct bt_importer *imp;

	if (bt_input_check(path, 1, err))
		return err->code;
	if (bt_runs_is_json(path) || bt_db_is_trace_db(path))
		return BT_OK;
	return bt_importer_find(path, &imp, err);
}

/* A folder no importer reads (a trace's folder holds its dump and
 * mapping): a folder of reports. */
static int reports_dir(const char *path)
{
	const struct bt_importer *imp;
	struct bt_err e;
	struct stat st;

	memset(&e, 0, sizeof e);
	return !stat(path, &st) && S_ISDIR(st.st_mode) && bt_importer_find(path, &imp, &e);
}

/* Each side's runs: a folder of reports read out (fleetcmp.h), any other R
 * as given. DIR_A DIR_B must both be folders of reports. */
static int list_side(struct sides *sd, int k, const char **paths, int n, int positional,
		     struct bt_err *err)
{
	int i;

	for (i = 0; i < n; i++) {
		if (positional && access(paths[i], F_OK) && bt_fleetcmp_is_summary(paths[i])) {
			sd->fleet = 1;   /* FILE#KEY=VALUE: one group of a summary */
			sd->summaries++;
			bt_fleetcmp_add(&sd->s[k], paths[i]);
			continue;
		}
		if (bt_input_check(paths[i], 1, err))
			return err->code;
		if (reports_dir(paths[i])) {
			size_t json = sd->s[k].json;
			struct bt_err e;
			memset(&e, 0, sizeof e);
			if (!bt_fleetcmp_list(&sd->s[k], paths[i], &e)) {
				sd->fleet = 1;
			} else if (!positional && sd->s[k].json == json && e.code == BT_EUSAGE) {
				bt_fleetcmp_add(&sd->s[k], paths[i]);   /* no JSON: a trace's folder, the
								      * importer tells what is missing */
			} else {
				return bt_err_set(err, e.code, "%s", e.msg);
			}
		} else if (positional && bt_fleetcmp_is_summary(paths[i])) {
			sd->fleet = 1;
			sd->summaries++;
			bt_fleetcmp_add(&sd->s[k], paths[i]);
		} else if (positional) {
			return bt_err_set(err, BT_EUSAGE, "'%s' is no folder of reports nor a fleet summary "
					  "(compare DIR_A DIR_B, or FLEET_A.json FLEET_B.json; single runs go "
					  "after --base and --head)", paths[i]);
		} else {
			bt_fleetcmp_add(&sd->s[k], paths[i]);
		}
	}
	return BT_OK;
}

static int list_sides(const struct bt_opts_compare *o, struct sides *sd, struct bt_err *err)
{
	if (o->o.ninputs) {
		if (list_side(sd, 0, (const char **)o->o.inputs, 1, 1, err) ||
		    list_side(sd, 1, (const char **)o->o.inputs + 1, 1, 1, err))
			return err->code;
		if (sd->summaries == 1)
			return bt_err_set(err, BT_EUSAGE, "compare takes two fleet summaries or two folders "
					  "of reports, not one of each");
		sd->summaries = sd->summaries == 2;
		return BT_OK;
	}
	if (list_side(sd, 0, o->base, o->nbase, 0, err) || list_side(sd, 1, o->head, o->nhead, 0, err) ||
	    list_side(sd, 2, o->calib, o->ncalib, 0, err))
		return err->code;
	return BT_OK;
}

/* Before the first run is analysed: a missing head run, gate script or
 * rule file is told at once, not after every base run. */
static int check_inputs(const struct bt_opts_compare *o, const struct sides *sd, struct bt_err *err)
{
	size_t i;
	int k, j;

	for (k = 0; k < 3 && !sd->summaries; k++)   /* a summary is checked as it is read */
		for (i = 0; i < sd->s[k].n; i++)
			if (check_run(sd->s[k].paths[i], err))
				return err->code;
	if (o->gates && bt_input_check(o->gates, 0, err))
		return err->code;
	for (j = 0; j < o->narules; j++)
		if (bt_input_check(o->arules[j], 0, err))
			return err->code;
	return BT_OK;
}

/* The outputs -o asks for (stdout when none), each in the format --format
 * or its extension names, all checked before the work. */
static int pick_outputs(const struct bt_opts_compare *o, struct bt_outset *outs, struct bt_err *err)
{
	int k, nv = o->o.nouts ? o->o.nouts : 1, rc = BT_OK;

	for (k = 0; k < nv && !rc; k++) {
		const char *path = o->o.nouts ? o->o.outs[k] : NULL;
		const struct bt_cmprep_reporter *rep = NULL;
		if (!(rc = bt_cmprep_report_pick(o->o.format, path, &rep, err)))
			bt_outset_add(outs, path, rep, rep == &bt_cmprep_text ? BT_READ_PERSON :
					rep == &bt_cmprep_md ? BT_READ_PERSON_MD : BT_READ_PROGRAM);
	}
	return rc ? rc : bt_outset_check(outs, o->o.format, err);
}

/* The text for a terminal (stdout one): its width, and the headline, the
 * table and the causes only unless -v; a file or a pipe gets every detail,
 * within --width where given. */
static void text_view(const struct bt_opts_compare *o, int to_stdout, struct bt_cmprep_view *view)
{
	int cols = to_stdout ? bt_tty_width(stdout) : 0;   /* 0: not a terminal */

	view->width = o->o.width > 0 ? (size_t)o->o.width : (size_t)cols;
	view->brief = cols > 0 && !o->o.verbose;
}

struct view_ctx {
	const struct bt_opts_compare *o;
	const struct bt_cmprep_view *all;
};

static int write_one(void *ctx, const struct bt_outset_item *it, FILE *fp, struct bt_err *err)
{
	const struct view_ctx *v = ctx;
	const struct bt_cmprep_reporter *rep = it->format;
	struct bt_cmprep_view one = *v->all;

	text_view(v->o, it->out.fp == stdout, &one);
	return rep->write(&one, fp, err);
}

/* The diagnostics of a run analysed here, as warnings of the last run. */
static int add_warnings(struct bt_runs *rs, struct bt_db *db, struct bt_err *err)
{
	struct bt_diagrow *d = NULL;
	size_t i, n = 0;
	int rc = bt_diagrows_load(db, &d, &n, err);

	for (i = 0; !rc && i < n; i++)
		bt_runs_warn(rs, d[i].code, d[i].count > 0 ? (uint64_t)d[i].count : 1, d[i].detail);
	bt_diagrows_free(d, n);
	return rc;
}

/* A trace analysed here, as 'analyze' would, for its metrics. */
static int analyse(struct bt_runs *rs, enum bt_side side, const char *path, const struct bt_opts_compare *co,
		   struct bt_err *err)
{
	struct bt_opts o;
	struct bt_db *db = NULL;
	struct bt_result res;
	struct bt_rules_opts ro = { 0 };
	struct bt_buf scope = BT_BUF_INIT;
	const char **sets = NULL;
	int rc;

	memset(&o, 0, sizeof o);
	o.cmd = "compare";
	o.quiet = co->o.quiet;
	o.diag_later = 1;
	bt_result_init(&res);
	rc = bt_cmd_load(&o, path, 0, NULL, &db, err);
	if (!rc) {
		ro.files = co->arules;
		ro.nfiles = co->narules;
		ro.sets = co->o.sets;
		ro.nsets = co->o.nsets;
		if (co->o.process) {   /* --process: the rules' main thread is that process's */
			sets = bt_xcalloc((size_t)co->o.nsets + 1, sizeof *sets);
			memcpy(sets, co->o.sets, (size_t)co->o.nsets * sizeof *sets);
			bt_buf_addf(&scope, "scope.process=%s", co->o.process);
			sets[co->o.nsets] = scope.buf;
			ro.sets = sets;
			ro.nsets = co->o.nsets + 1;
		}
		rc = bt_rules_run(db, &ro, &res, err);
		free(sets);
		bt_buf_release(&scope);
	}
	if (!rc) {
		char cpu[16];
		bt_runs_add_result(rs, side, path, &res);
		rc = bt_db_meta_text(db, "cpu_unknown", cpu, sizeof cpu, err);
		rs->run[rs->nruns - 1].cpu_unknown = !rc && *cpu;
		rc = rc ? rc : add_warnings(rs, db, err);
	}
	bt_db_close(db);
	bt_result_release(&res);
	return rc;
}

static int read_side(struct bt_runs *rs, enum bt_side side, struct bt_fleetcmp_side *fs,
		     const struct sides *sd, const struct bt_opts_compare *o, struct bt_err *err)
{
	char *const *paths = fs->paths;
	size_t i, n = fs->n;
	int rc = BT_OK;

	if (sd->summaries)   /* one fleet summary: its traces in place of the paths */
		return bt_fleetcmp_summary_runs(rs, side, paths[0], &fs->traces, err);

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

/* Each class of warning once, for all runs: "3 of 10 runs ('a', 'b', 'c',
 * and 1 more): DETAIL [code, N times]". */
static void print_warnings(const struct bt_runs *rs, int verbose)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i, k;

	for (i = 0; i < rs->nwarn; i++) {
		const struct bt_runs_warning *w = &rs->warn[i];
		if (!verbose && bt_diag_routine(w->code))
			continue;   /* every healthy run has some: the JSON lists them */
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%zu of %zu runs (", w->nruns, rs->nruns);
		for (k = 0; k < w->nruns && k < SHOWN_RUNS; k++)
			bt_buf_addf(&b, "%s'%s'", k ? ", " : "", rs->run[w->runs[k]].path);
		if (w->nruns > SHOWN_RUNS)
			bt_buf_addf(&b, ", and %zu more", w->nruns - SHOWN_RUNS);
		bt_buf_addf(&b, "): %s [%s, %llu time%s]", w->detail, w->code,
			    (unsigned long long)w->count, w->count == 1 ? "" : "s");
		bt_cmd_say("warning", b.buf);
	}
	bt_buf_release(&b);
}

static int verdict_status(const struct bt_opts_compare *o, const struct bt_compare *c, struct bt_err *err)
{
	if (c->count[BT_VD_REGRESSED])
		return bt_err_set(err, BT_EGATE, "gate failed: %zu of %zu gated metrics regressed",
				  c->count[BT_VD_REGRESSED], c->ngated);
	if (c->seq.on && !c->seq.decided && c->seq.more)
		return bt_err_set(err, BT_EMORE, "%s (--sequential)", c->headline);
	if ((o->require_decision || c->seq.on) && c->overall == BT_VD_INCONCLUSIVE)
		return bt_err_set(err, BT_EUNDECIDED, "no decision: %s (%s)", c->headline,
				  c->seq.on ? "--sequential" : "--require-decision");
	if (o->fail_inconclusive && c->count[BT_VD_INCONCLUSIVE])
		return bt_err_set(err, BT_EGATE, "gate failed: %zu gated metrics inconclusive "
				  "(--fail-inconclusive)", c->count[BT_VD_INCONCLUSIVE]);
	return BT_OK;
}

/* The gated metrics: --metric's, else a fleet's (fleetcmp.h), else by name. */
static void gated(const struct bt_opts_compare *o, const struct sides *sd, const char *const **globs, int *n)
{
	*globs = o->globs;
	*n = o->nglobs;
	if (!o->nglobs && sd->fleet) {
		*globs = bt_fleetcmp_globs;
		*n = BT_FLEETCMP_NGLOBS;
	}
}

static void cmp_opts(const struct bt_opts_compare *o, const struct sides *sd, struct bt_gates *gates,
		     struct bt_cmp_hooks *hooks, struct bt_cmp_opts *co)
{
	if (gates)
		bt_gates_hooks(gates, hooks);
	co->def = o->gate;
	co->holm = sd->summaries;
	co->sequential = o->sequential;
	gated(o, sd, &co->globs, &co->nglobs);
	co->hooks = gates ? hooks : NULL;
	co->rules = o->gates;
}

/* Compare base with head and write every output. */
static int run_compare(const struct bt_opts_compare *o, const struct sides *sd, struct bt_runs *rs,
		       struct bt_gates *gates, struct bt_compare *c, struct bt_outset *outs,
		       struct bt_err *err)
{
	struct bt_cmp_hooks hooks = { NULL, NULL, NULL };
	struct bt_cmp_opts co;
	struct bt_cmprep_fleet fl;
	struct bt_cmprep_view view;
	int rc, k;

	cmp_opts(o, sd, gates, &hooks, &co);
	if ((rc = bt_compare_run(c, rs, &co, err)))
		return rc;
	memset(&view, 0, sizeof view);
	fl.summaries = sd->summaries;
	for (k = 0; k < 2; k++) {
		fl.reports[k] = sd->summaries ? sd->s[k].traces : sd->s[k].n;
		fl.nostart[k] = sd->s[k].nostart;
		fl.other[k] = sd->s[k].other;
	}
	view.c = c;
	view.fleet = sd->fleet ? &fl : NULL;
	gated(o, sd, &view.globs, &view.nglobs);
	view.top = o->top;
	view.fail_inconclusive = o->fail_inconclusive;
	{
		struct view_ctx v = { o, &view };
		return bt_outset_write(outs, write_one, &v, err);
	}
}

static int write_calibration(void *ctx, const struct bt_outset_item *it, FILE *fp, struct bt_err *err)
{
	return bt_cmprep_calibration_write(ctx, it->path, fp, err);
}

/* --calibrate: the pool's A/A splits, written to the one output. */
static int run_calibrate(const struct bt_opts_compare *o, const struct sides *sd, struct bt_runs *rs,
			 struct bt_gates *gates, struct bt_outset *outs, struct bt_err *err)
{
	struct bt_cmp_hooks hooks = { NULL, NULL, NULL };
	struct bt_cmp_opts co;
	struct bt_calibration cal;
	int rc;

	cmp_opts(o, sd, gates, &hooks, &co);
	bt_progress_start(!o->o.quiet && isatty(2));   /* a line while the splits run */
	rc = bt_calibrate(&cal, rs, &co, (size_t)o->cal_runs, (size_t)o->cal_splits, err);
	bt_progress_stop();
	if (!rc) {
		outs->v[0].reader = BT_READ_PROGRAM;   /* its own writer; text or JSON by the path */
		rc = bt_outset_write(outs, write_calibration, &cal, err);
	}
	bt_calibration_release(&cal);
	return rc;
}

/* Reports of traces without a start, left out of a fleet's sides. */
static void print_left_out(const struct bt_opts_compare *o, const struct sides *sd)
{
	static const char *const name[3] = { "base", "head", "--calibrate" };
	int k;

	for (k = 0; k < 3 && sd->fleet && !o->o.quiet; k++)
		if (sd->s[k].nostart)
			fprintf(stderr, "btrace-analyze: note: %zu %s report%s of traces without an app start "
				"left out (%zu compared)\n", sd->s[k].nostart, name[k],
				sd->s[k].nostart == 1 ? "" : "s", sd->s[k].n);
}

int bt_cmd_compare(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts_compare o;
	struct bt_runs rs;
	struct bt_gates *gates = NULL;
	struct bt_compare c;
	struct bt_outset outs = { NULL, 0, 0 };
	struct sides sd;
	size_t k;
	int rc = parse(&o, argc, argv, err);

	bt_runs_init(&rs);
	memset(&c, 0, sizeof c);
	memset(&sd, 0, sizeof sd);
	if (!rc && o.o.help) {
		bt_cmd_print_help("compare");
		goto done;
	}
	if (!rc)
		rc = pick_outputs(&o, &outs, err);
	if (!rc)
		rc = list_sides(&o, &sd, err);
	if (!rc)
		rc = check_inputs(&o, &sd, err);
	if (!rc && o.gates)
		rc = bt_gates_open(&gates, o.gates, err);
	if (!rc)
		print_left_out(&o, &sd);
	if (!rc && o.ncalib) {
		if (!(rc = read_side(&rs, BT_BASE, &sd.s[2], &sd, &o, err)))
			rc = run_calibrate(&o, &sd, &rs, gates, &outs, err);
		goto done;
	}
	if (!rc)
		rc = read_side(&rs, BT_BASE, &sd.s[0], &sd, &o, err);
	if (!rc)
		rc = read_side(&rs, BT_HEAD, &sd.s[1], &sd, &o, err);
	if (!rc)
		rc = run_compare(&o, &sd, &rs, gates, &c, &outs, err);
	if (!rc)
		rc = verdict_status(&o, &c, err);
	if (!rc && !o.o.quiet && c.overall == BT_VD_INCONCLUSIVE)   /* exit 0, but said: nothing passed */
		fprintf(stderr, "btrace-analyze: note: nothing decided: %s; --require-decision exits 5 "
			"(or --sequential)\n", c.headline);
done:
	if (!o.o.quiet)
		print_warnings(&rs, o.o.verbose);
	if (!o.o.quiet && (!rc || rc == BT_EGATE))
		bt_outset_tell(&outs, stderr);
	bt_outset_release(&outs);
	for (k = 0; k < 3; k++)
		bt_fleetcmp_side_release(&sd.s[k]);
	bt_compare_release(&c);
	bt_gates_close(gates);
	bt_runs_release(&rs);
	bt_opts_release(&o.o, &bt_optab_compare);
	return rc;
}
