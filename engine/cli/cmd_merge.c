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
#include "engine/cli/outset.h"
#include "engine/fleet/fleet.h"
#include "engine/fleet/inputs.h"
#include "reports/fleet/fleet_report.h"
#include "reports/text/md_term.h"
#include "reports/text/safe.h"

/* The outputs -o asks for (stdout when none), each checked before the work. */
static int pick_outputs(const struct bt_opts *o, struct bt_outset *outs, struct bt_err *err)
{
	int k, nv = o->nouts ? o->nouts : 1, rc = BT_OK;

	for (k = 0; k < nv && !rc; k++) {
		const char *path = o->nouts ? o->outs[k] : NULL;
		const struct bt_fleetrep_reporter *rep = NULL;
		if (!(rc = bt_fleetrep_report_pick(o->format, path, &rep, err)))
			bt_outset_add(outs, path, rep, rep == &bt_fleetrep_md ? BT_READ_PERSON_MD : BT_READ_PROGRAM);
	}
	return rc ? rc : bt_outset_check(outs, o->format, err);
}

/* The --group pairs in force for input i, in the order given (a later
 * one of a key replaces an earlier; "KEY=" removes it). */
static size_t groups_at(const struct bt_opts_merge *o, int i, struct bt_sum_kv *kv)
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

static int load_inputs(const struct bt_opts_merge *o, struct bt_fleet *f, struct bt_fleet_stats *st,
		       struct bt_err *err)
{
	struct bt_sum_kv *kv = bt_xcalloc((size_t)o->ngroups + 1, sizeof *kv);
	int i, rc = BT_OK;
	size_t n, k;

	for (i = 0; i < o->o.ninputs && !rc; i++) {
		n = groups_at(o, i, kv);
		rc = bt_fleet_load(f, o->o.inputs[i], kv, n, st, err);
		for (k = 0; k < n; k++) {
			free(kv[k].key);
			free(kv[k].value);
			kv[k].key = kv[k].value = NULL;
		}
	}
	free(kv);
	return rc;
}

struct merge_ctx {
	const struct bt_fleetrep_view *view;
	int width;   /* --width, 0: the terminal's */
};

/* The Markdown on a terminal reads as the text reports do: its
 * paragraphs wrapped and its tables fitted to the terminal's width. */
static int write_one(void *ctx, const struct bt_outset_item *it, FILE *fp, struct bt_err *err)
{
	const struct merge_ctx *m = ctx;
	const struct bt_fleetrep_reporter *rep = it->format;
	size_t cols = m->width > 0 ? (size_t)m->width : (size_t)bt_tty_width(it->out.fp);
	char *md = NULL;
	size_t len = 0;
	FILE *mem;
	int rc;

	if (rep != &bt_fleetrep_md || !cols || it->out.fp != stdout)
		return rep->write(m->view, fp, err);
	if (!(mem = open_memstream(&md, &len)))
		return bt_err_set(err, BT_EIO, "cannot write the fleet report: %s", strerror(errno));
	rc = rep->write(m->view, mem, err);
	if (fclose(mem) && !rc)
		rc = bt_err_set(err, BT_EIO, "cannot write the fleet report: %s", strerror(errno));
	if (!rc)
		bt_md_term(md, len, fp, cols);
	free(md);
	return rc;
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
	struct bt_opts_merge om;
	struct bt_opts *o = &om.o;
	struct bt_fleet f;
	struct bt_fleet_stats st = { 0, 0, 0, 0 };
	struct bt_fleetrep_view view;
	struct bt_outset outs = { NULL, 0, 0 };
	int rc = bt_opts_parse(o, &bt_optab_merge, argc, argv, err);

	bt_fleet_init(&f);
	memset(&view, 0, sizeof view);
	if (!rc && o->help) {
		bt_cmd_print_help("merge");
		goto done;
	}
	if (!rc && !o->ninputs)
		rc = bt_err_set(err, BT_EUSAGE, "merge needs inputs: JSON reports, summaries, fleet "
				"summaries or directories of them");
	if (!rc)
		rc = pick_outputs(o, &outs, err);
	if (!rc)
		rc = load_inputs(&om, &f, &st, err);
	if (!rc && !st.reports && !st.summaries && !st.fleets)
		rc = bt_err_set(err, BT_EFORMAT, "no report, summary or fleet summary in the inputs");
	if (!rc) {
		bt_fleetrep_view_build(&view, &f, om.top, o->full_names);
		struct merge_ctx m = { &view, o->width };
		rc = bt_outset_write(&outs, write_one, &m, err);
	}
	if (!rc)
		tell(o, &f, &st);
	if (!rc && !o->quiet)
		bt_outset_tell(&outs, stderr);
done:
	bt_outset_release(&outs);
	bt_fleetrep_view_release(&view);
	bt_fleet_release(&f);
	bt_opts_release(o, &bt_optab_merge);
	return rc;
}
