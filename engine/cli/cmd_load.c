/*
 * Loading an input for a command: reuse a trace database, or recognise a
 * dump and run the pipeline on it (engine/recon/pipeline.h), and report
 * what the importer had to recover from. Progress goes to a terminal
 * stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/fileio.h"
#include "engine/base/progress.h"
#include "engine/cli/cmd.h"
#include "engine/db/diag.h"
#include "engine/recon/pipeline.h"
#include "importers/importer.h"
#include "reports/text/grid.h"
#include "reports/text/safe.h"

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	bt_progress_pct(total ? (int)(done * 100 / total) : 100);
}

void bt_cmd_say(const char *kind, const char *text)
{
	char lead[64];

	snprintf(lead, sizeof lead, "btrace-analyze: %s: ", kind);
	bt_text_put(stderr, lead, "  ", text, (size_t)bt_tty_width(stderr));   /* a log: as it is */
}

/* What an import recovered from, but what every healthy trace has (the
 * report counts it) only with -v. */
static void print_diagnostics(const struct bt_diag *d, int verbose)
{
	int i;

	struct bt_buf b = BT_BUF_INIT;

	for (i = 0; i < d->n; i++) {
		const struct bt_diag_item *it = &d->items[i];
		if (!verbose && bt_diag_routine(it->code))
			continue;
		bt_buf_reset(&b);
		if (it->count > 1)
			bt_buf_addf(&b, "%s [%s, %llu times]", it->detail, it->code, (unsigned long long)it->count);
		else
			bt_buf_addf(&b, "%s [%s]", it->detail, it->code);
		bt_cmd_say("warning", b.buf);
	}
	bt_buf_release(&b);
}

static int import(const struct bt_opts *o, const char *input, const struct bt_importer *imp,
		  const struct bt_taps *taps, struct bt_db *db, struct bt_err *err)
{
	struct bt_pipeline pl;
	struct bt_diag diag;
	struct bt_buf what = BT_BUF_INIT;
	int rc;

	memset(&pl, 0, sizeof pl);
	if ((rc = bt_slice_policy_parse(o->slice_policy, &pl.policy, err)))
		return rc;
	pl.imp = imp;
	pl.input = input;
	pl.io.mapping = o->mapping;
	pl.io.retrace = o->retrace;
	pl.io.symbols = o->symbols;
	pl.io.strict = o->strict;
	pl.io.process = o->process;
	pl.keep = o->db != NULL;
	if (taps)
		pl.taps = *taps;
	pl.io.progress = show_progress;
	bt_buf_addf(&what, "importing '%s'", input);
	bt_progress_phase_eager(what.buf);
	bt_buf_release(&what);
	bt_diag_init(&diag);
	rc = bt_pipeline_run(db, &pl, &diag, err);
	bt_progress_phase(NULL);
	if (!rc && !o->quiet && !o->diag_later)
		print_diagnostics(&diag, o->verbose);
	return rc;
}

int bt_cmd_load(const struct bt_opts *o, const char *input, int readonly, const struct bt_taps *taps,
		struct bt_db **out, struct bt_err *err)
{
	const struct bt_importer *imp;
	struct bt_db *db = NULL;
	int rc;

	*out = NULL;
	bt_progress_start(!o->quiet && isatty(2));
	if (bt_input_check(input, 1, err))   /* before anything opens it: a FIFO would block */
		return err->code;
	if (bt_db_is_trace_db(input)) {
		if (o->slice_policy)
			return bt_err_set(err, BT_EUSAGE, "--slice-policy does not apply to '%s': a trace "
					  "database keeps the slices it was imported with", input);
		if (o->process)
			return bt_err_set(err, BT_EUSAGE, "--process does not apply to '%s': a trace "
					  "database keeps the process it was imported with", input);
		rc = bt_db_open(&db, input, readonly, err);
		if (!rc && taps && (taps->n || taps->stacks))
			rc = bt_pipeline_replay(db, taps, err);
	} else {
		rc = bt_importer_find(input, &imp, err);
		if (!rc && imp->slices_given && o->slice_policy)
			rc = bt_err_set(err, BT_EUSAGE, "--slice-policy does not apply to '%s': %s are "
					"taken as the trace gives them", input, imp->slices_given);
		if (!rc && !imp->processes && o->process)
			rc = bt_err_set(err, BT_EUSAGE, "--process does not apply to '%s': only a Perfetto "
					"trace or a systrace holds several processes", input);
		if (!rc)
			rc = bt_db_create(&db, o->db, err);
		if (!rc)
			rc = import(o, input, imp, taps, db, err);
		if (!rc && readonly)
			rc = bt_db_query_only(db, err);
	}
	if (rc) {
		bt_db_close(db);
		return rc;
	}
	*out = db;
	return BT_OK;
}
