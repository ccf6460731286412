/*
 * "btrace-analyze compare --base R... --head R...": read (or analyse) every
 * run, compare them (compare.h) under the flags' thresholds and an
 * optional gate script, write the comparison, and exit 3 when a gated
 * metric regressed (or, with --fail-inconclusive, could not be judged).
 * An R that is a JSON report is read; anything else is analysed here with
 * the built-in rules (or --analyze-rules), as 'analyze' would.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cmd.h"
#include "reports/compare/cmp_report.h"
#include "engine/compare/compare.h"
#include "engine/base/fileio.h"
#include "lua/gates.h"
#include "lua/rules.h"
#include "engine/compare/runs.h"

struct copts {
	const char **base, **head, **globs, **arules, **sets;
	int nbase, nhead, nglobs, narules, nsets;
	const char *rules, *out, *format;
	struct bt_gate def;
	int fail_inconclusive, quiet, help, top;
};

/* The value of option a (argv[*i]): after '=' or the next argument. */
static int value(int argc, char **argv, int *i, const char *name, const char **out, struct bt_err *err)
{
	const char *eq = strchr(argv[*i], '=');

	if (eq) {
		*out = eq + 1;
		return BT_OK;
	}
	if (*i + 1 >= argc)
		return bt_err_set(err, BT_EUSAGE, "option '%s' needs a value", name);
	*out = argv[++*i];
	return BT_OK;
}

static int is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

static int number_opt(const char *name, const char *v, int pct, struct copts *o, struct bt_err *err)
{
	char *end;
	double d;

	if (pct) {
		if (bt_gate_parse_pct(v, &o->def.max_regress))
			return bt_err_set(err, BT_EUSAGE, "%s wants a percentage like 5%%, not '%s'", name, v);
		return BT_OK;
	}
	d = strtod(v, &end);
	if (end == v || *end || !(d > 0 && d < 1))
		return bt_err_set(err, BT_EUSAGE, "%s wants a number between 0 and 1, not '%s'", name, v);
	o->def.alpha = d;
	return BT_OK;
}

static int one_opt(struct copts *o, int argc, char **argv, int *i, const char ***list, int **count,
		   struct bt_err *err)
{
	const char *a = argv[*i], *v = NULL;
	char *end;
	int rc;

	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return o->help = 1, BT_OK;
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
		return o->quiet = 1, BT_OK;
	if (!strcmp(a, "--fail-inconclusive"))
		return o->fail_inconclusive = 1, BT_OK;
	if (is_opt(a, "--base") || is_opt(a, "--head")) {
		*list = a[2] == 'b' ? o->base : o->head;
		*count = a[2] == 'b' ? &o->nbase : &o->nhead;
		if (strchr(a, '='))
			(*list)[(**count)++] = strchr(a, '=') + 1;
		return BT_OK;
	}
	*list = NULL;
#define VALUE(name) (is_opt(a, name) && !(rc = value(argc, argv, i, name, &v, err)))
	if (VALUE("--rules"))
		return o->rules ? bt_err_set(err, BT_EUSAGE, "compare takes one gate script (--rules)")
				: (o->rules = v, BT_OK);
	if (VALUE("-o") || VALUE("--output"))
		return o->out = v, BT_OK;
	if (VALUE("--format"))
		return o->format = v, BT_OK;
	if (VALUE("--metric"))
		return o->globs[o->nglobs++] = v, BT_OK;
	if (VALUE("--analyze-rules"))
		return o->arules[o->narules++] = v, BT_OK;
	if (VALUE("--set"))
		return o->sets[o->nsets++] = v, BT_OK;
	if (VALUE("--max-regress"))
		return number_opt("--max-regress", v, 1, o, err);
	if (VALUE("--alpha"))
		return number_opt("--alpha", v, 0, o, err);
	if (VALUE("--noise-floor"))
		return bt_gate_parse_floor(v, &o->def)
			? bt_err_set(err, BT_EUSAGE, "--noise-floor wants an amount like 2ms, 64KB or 3, "
				     "not '%s'", v) : BT_OK;
	if (VALUE("--top")) {
		o->top = (int)strtol(v, &end, 10);
		return *end || o->top < 0 ? bt_err_set(err, BT_EUSAGE, "--top wants a count, not '%s'", v) : BT_OK;
	}
#undef VALUE
	if (err->code)
		return err->code;
	return bt_err_set(err, BT_EUSAGE, "unknown option '%s' for 'compare' (see 'btrace-analyze help compare')", a);
}

static int parse(struct copts *o, int argc, char **argv, struct bt_err *err)
{
	const char **list = NULL;
	int *count = NULL, i, rc = BT_OK;
	size_t n = (size_t)argc + 1;

	memset(o, 0, sizeof *o);
	bt_gate_defaults(&o->def);
	o->top = 10;
	o->base = bt_xcalloc(n, sizeof *o->base);
	o->head = bt_xcalloc(n, sizeof *o->head);
	o->globs = bt_xcalloc(n, sizeof *o->globs);
	o->arules = bt_xcalloc(n, sizeof *o->arules);
	o->sets = bt_xcalloc(n, sizeof *o->sets);
	for (i = 1; i < argc && !rc; i++) {
		if (argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (!list)
				return bt_err_set(err, BT_EUSAGE, "'%s': runs follow --base or --head", argv[i]);
			list[(*count)++] = argv[i];
		} else {
			rc = one_opt(o, argc, argv, &i, &list, &count, err);
		}
	}
	if (!rc && !o->help && (!o->nbase || !o->nhead))
		rc = bt_err_set(err, BT_EUSAGE, "compare needs runs on both sides: --base R... --head R...");
	return rc;
}

static void release(struct copts *o)
{
	free(o->base);
	free(o->head);
	free(o->globs);
	free(o->arules);
	free(o->sets);
}

/* A trace analysed here, as 'analyze' would, for its metrics. */
static int analyse(struct bt_runs *rs, enum bt_side side, const char *path, const struct copts *co,
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
		     const struct copts *o, struct bt_err *err)
{
	int i, rc = BT_OK;

	for (i = 0; i < n && !rc; i++) {
		if (!bt_is_file(paths[i]) && !bt_is_dir(paths[i]))
			rc = bt_err_set(err, BT_EIO, "%s: no such file or directory", paths[i]);
		else if (bt_runs_is_json(paths[i]))
			rc = bt_runs_add_report(rs, side, paths[i], err);
		else
			rc = analyse(rs, side, paths[i], o, err);
	}
	return rc;
}

static int verdict_status(const struct copts *o, const struct bt_compare *c, struct bt_err *err)
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
	struct copts o;
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
	if (!rc && o.rules && !(rc = bt_gates_open(&gates, o.rules, err)))
		bt_gates_hooks(gates, &hooks);
	if (!rc)
		rc = read_side(&rs, BT_BASE, o.base, o.nbase, &o, err);
	if (!rc)
		rc = read_side(&rs, BT_HEAD, o.head, o.nhead, &o, err);
	if (!rc) {
		co.def = o.def;
		co.globs = o.globs;
		co.nglobs = o.nglobs;
		co.hooks = gates ? &hooks : NULL;
		co.rules = o.rules;
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
	release(&o);
	return rc;
}
