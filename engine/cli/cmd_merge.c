/*
 * "btrace-analyze merge INPUT... -o fleet.{json,md,html,xlsx}": fold the
 * summaries of many traces (JSON reports, summary files, fleet summaries,
 * directories of them) into one fleet summary (engine/fleet/), grouped by
 * what the traces say and by --group KEY=VALUE for the inputs after it,
 * and write it once per -o (all committed or none).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "engine/cli/cmd.h"
#include "engine/fleet/fleet.h"
#include "engine/fleet/inputs.h"
#include "reports/fleet/fleet_report.h"
#include "reports/text/safe.h"

struct fl_output {
	const char *path;   /* NULL or "-": stdout */
	const struct bt_fleet_reporter *rep;
	struct bt_out out;
};

/* The outputs -o asks for (stdout when none), each checked before the work. */
static int pick_outputs(const struct bt_opts *o, struct fl_output **out, size_t *n, struct bt_err *err)
{
	size_t k, i, nv = o->nouts ? (size_t)o->nouts : 1;
	struct fl_output *v = bt_xcalloc(nv, sizeof *v);
	struct bt_buf real = BT_BUF_INIT;
	int rc = BT_OK, stream;

	if (o->nouts > 1 && o->format)
		rc = bt_err_set(err, BT_EUSAGE, "--format applies to one output; with several -o each "
				"takes its format from its extension (.json .md .html .xlsx)");
	for (k = 0; k < nv && !rc; k++) {
		v[k].path = o->nouts ? o->outs[k] : NULL;
		if (v[k].path && !*v[k].path)
			rc = bt_err_set(err, BT_EUSAGE, "an output path is empty");
		if (!rc)
			rc = bt_fleet_report_pick(o->format, v[k].path, &v[k].rep, err);
		if (!rc && v[k].path && strcmp(v[k].path, "-"))
			rc = bt_out_target(v[k].path, NULL, &real, &stream, err);
		for (i = 0; !rc && i < k; i++)
			if (v[i].path && v[k].path && !strcmp(v[i].path, v[k].path))
				rc = bt_err_set(err, BT_EUSAGE, "'%s' is given twice", v[k].path);
		bt_buf_reset(&real);
	}
	bt_buf_release(&real);
	*out = v;
	*n = nv;
	return rc;
}

/* The --group pairs in force for input i, in the order given (a later
 * one of a key replaces an earlier; "KEY=" removes it). */
static size_t groups_at(const struct bt_opts *o, int i, struct bt_sum_kv *kv)
{
	size_t n = 0, k;
	int g;

	for (g = 0; g < o->ngroups && o->group_at[g] <= i; g++) {
		const char *eq = strchr(o->groups[g], '=');
		size_t klen = (size_t)(eq - o->groups[g]);
		for (k = 0; k < n && !(strlen(kv[k].key) == klen && !strncmp(kv[k].key, o->groups[g], klen)); k++)
			;
		if (k == n) {
			kv[n].key = bt_xstrndup(o->groups[g], klen);
			kv[n++].value = NULL;
		}
		free(kv[k].value);
		kv[k].value = bt_xstrdup(eq + 1);
	}
	return n;
}

static int load_inputs(const struct bt_opts *o, struct bt_fleet *f, struct bt_fleet_stats *st,
		       struct bt_err *err)
{
	struct bt_sum_kv *kv = bt_xcalloc((size_t)o->ngroups + 1, sizeof *kv);
	int i, rc = BT_OK;
	size_t n, k;

	for (i = 0; i < o->ninputs && !rc; i++) {
		n = groups_at(o, i, kv);
		rc = bt_fleet_load(f, o->inputs[i], kv, n, st, err);
		for (k = 0; k < n; k++) {
			free(kv[k].key);
			free(kv[k].value);
			kv[k].key = kv[k].value = NULL;
		}
	}
	free(kv);
	return rc;
}

/* A writer's I/O error names what it wrote, not where: the message again
 * with the output's path (the cause, after the writer's first ": "). */
static int name_output(const char *path, struct bt_err *err)
{
	char cause[sizeof err->msg];
	const char *at = strstr(err->msg, ": ");

	if (err->code != BT_EIO || strstr(err->msg, path))
		return err->code;
	snprintf(cause, sizeof cause, "%s", at ? at + 2 : err->msg);
	bt_err_clear(err);
	return bt_err_set(err, BT_EIO, "cannot write '%s': %s", path, cause);
}

/* Each output written and flushed before any is renamed into place. */
static int write_outputs(struct fl_output *v, size_t n, const struct bt_fleet_view *view, struct bt_err *err)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const char *path = v[k].path && strcmp(v[k].path, "-") ? v[k].path : "stdout";
		if (bt_out_open(&v[k].out, v[k].path, err))
			return err->code;
		{
			FILE *fp = v[k].rep == &bt_fleet_md ? bt_safe_open(v[k].out.fp, 1) : v[k].out.fp;   /* no mentions */
			int rc = v[k].rep->write(view, fp, err);
			if (bt_safe_close(fp, v[k].out.fp) && !rc)
				rc = bt_err_set(err, BT_EIO, "cannot write '%s': %s", path, errno ? strerror(errno) : "write error");
			if (rc)
				return name_output(path, err);
		}
		if (v[k].out.fp != stdout && (fflush(v[k].out.fp) || ferror(v[k].out.fp)))
			return bt_err_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
	}
	for (k = 0; k < n; k++)
		if (bt_out_commit(&v[k].out, err))
			return err->code;
	return BT_OK;
}

static void tell(const struct bt_opts *o, const struct bt_fleet *f, const struct bt_fleet_stats *st)
{
	int64_t folded = bt_fleet_folded(f);

	if (o->quiet)
		return;
	if (st->skipped)
		fprintf(stderr, "btrace-analyze: %lld JSON file%s in the input directories %s no report, "
			"summary or fleet summary: skipped\n", (long long)st->skipped, st->skipped == 1 ? "" : "s",
			st->skipped == 1 ? "is" : "are");
	if (folded)
		fprintf(stderr, "btrace-analyze: warning: %lld method, wait or group item%s past the fleet's "
			"limits folded into \"other\" (engine/fleet/README.md)\n", (long long)folded,
			folded == 1 ? "" : "s");
	fprintf(stderr, "btrace-analyze: merged %lld traces (%lld reports, %lld summaries, %lld fleet "
		"summaries)\n", (long long)f->all.traces, (long long)st->reports, (long long)st->summaries,
		(long long)st->fleets);
}

int bt_cmd_merge(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts o;
	struct bt_fleet f;
	struct bt_fleet_stats st = { 0, 0, 0, 0 };
	struct bt_fleet_view view;
	struct fl_output *outs = NULL;
	size_t k, nouts = 0;
	int rc = bt_opts_parse(&o, &bt_optab_merge, argc, argv, err);

	bt_fleet_init(&f);
	memset(&view, 0, sizeof view);
	if (!rc && o.help) {
		bt_cmd_print_help("merge");
		goto done;
	}
	if (!rc && !o.ninputs)
		rc = bt_err_set(err, BT_EUSAGE, "merge needs inputs: JSON reports, summaries, fleet "
				"summaries or directories of them");
	if (!rc)
		rc = pick_outputs(&o, &outs, &nouts, err);
	if (!rc)
		rc = load_inputs(&o, &f, &st, err);
	if (!rc && !st.reports && !st.summaries && !st.fleets)
		rc = bt_err_set(err, BT_EFORMAT, "no report, summary or fleet summary in the inputs");
	if (!rc) {
		bt_fleet_view_build(&view, &f, o.top, o.full_names);
		rc = write_outputs(outs, nouts, &view, err);
	}
	if (!rc)
		tell(&o, &f, &st);
done:
	for (k = 0; k < nouts; k++)
		bt_out_abort(&outs[k].out);
	free(outs);
	bt_fleet_view_release(&view);
	bt_fleet_release(&f);
	bt_opts_release(&o);
	return rc;
}
