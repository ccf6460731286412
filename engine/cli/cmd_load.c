/*
 * Loading an input for a command: reuse a trace database, or recognise a
 * dump and run the pipeline on it (engine/recon/pipeline.h), and report
 * what the importer had to recover from. Progress goes to a terminal
 * stderr.
 */
#include <stddef.h>
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
#include "reports/export/folded.h"
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

/* What an import reads: one input of imp, or a capture of several: dumps
 * of one format that can join others (BT_BRINGS_JOINS), the processes of
 * the capture, and at most one system trace of the same time (sys, a
 * format that brings several processes). dumps (n of them) in order; list
 * owns them where find_joining picked them out of the inputs. */
struct capture_inputs {
	const struct bt_importer *imp, *sys_imp;
	const char *const *dumps, *sys;
	const char **list;
	int n;
};

static int import(const struct bt_opts *o, const struct capture_inputs *c, const struct bt_taps *taps,
		  struct bt_db *db, struct bt_err *err)
{
	struct bt_pipeline pl;
	struct bt_diag diag;
	struct bt_buf what = BT_BUF_INIT;
	int rc;

	memset(&pl, 0, sizeof pl);
	if ((rc = bt_slice_policy_parse(o->slice_policy, &pl.policy, err)))
		return rc;
	pl.imp = c->imp;
	pl.inputs = c->dumps;
	pl.ninputs = (size_t)c->n;
	pl.sys_imp = c->sys_imp;
	pl.sys_input = c->sys;
	pl.io.mapping = o->mapping;
	pl.io.retrace = o->retrace;
	pl.io.symbols = o->symbols;
	pl.io.strict = o->strict;
	pl.io.process = o->process;
	pl.keep = o->db != NULL;
	if (taps)
		pl.taps = *taps;
	pl.io.progress = show_progress;
	bt_buf_addf(&what, c->n > 1 ? "importing '%s' and %d more" : "importing '%s'", c->dumps[0], c->n - 1);
	bt_progress_phase_eager(what.buf);
	bt_buf_release(&what);
	bt_diag_init(&diag);
	rc = bt_pipeline_run(db, &pl, &diag, err);
	bt_progress_phase(NULL);
	if (!rc && !o->quiet && !o->diag_later)
		print_diagnostics(&diag, o->verbose);
	return rc;
}

#define F(x) offsetof(struct bt_opts, x)

/* The options only some formats can use (struct bt_importer's brings): an
 * input whose format cannot is refused before anything is read, with
 * "OPTION does not apply to 'INPUT': NOUN LACKS (only FORMATS HAVE)". */
static const struct refusal {
	const char *opt;
	size_t field;      /* the option's value (a const char *) in struct bt_opts */
	unsigned flag;     /* BT_BRINGS_*: the format must bring it, or (refused_with) must not */
	int refused_with;
	const char *lacks, *have;
} refusals[] = {
	{ "--slice-policy", F(slice_policy), BT_BRINGS_SLICES, 1, "brings its own slices, taken as it gives them",
	  "is sliced from samples" },
	{ "--process", F(process), BT_BRINGS_PROCESSES, 0, "holds one process", "holds several" },
	{ "--mapping", F(mapping), BT_BRINGS_MAPPING, 0, "names its methods itself", "reads a mapping" },
	{ "--retrace", F(retrace), BT_BRINGS_RETRACE, 0, "is not de-obfuscated here", "is" },
	{ "--symbols", F(symbols), BT_BRINGS_ADDRESSES, 0, "names its frames itself", "has addresses to name" },
};

#define N_REFUSALS (sizeof refusals / sizeof refusals[0])

static const char *opt_value(const struct bt_opts *o, const struct refusal *r)
{
	return *(const char *const *)((const char *)o + r->field);
}

int bt_cmd_applies(const struct bt_importer *imp, const char *opt)
{
	size_t i;

	for (i = 0; i < N_REFUSALS; i++)
		if (!strcmp(refusals[i].opt, opt))
			return ((imp->brings & refusals[i].flag) != 0) != refusals[i].refused_with;
	return 1;
}

/* BT_EUSAGE when an option cannot apply to input, read by imp. */
static int refuse(const struct bt_opts *o, const char *input, const struct bt_importer *imp, struct bt_err *err)
{
	struct bt_buf those = BT_BUF_INIT;
	int metric = bt_folded_metric_parse(o->folded_metric);
	size_t i;

	for (i = 0; i < N_REFUSALS; i++) {
		const struct refusal *r = &refusals[i];
		if (!opt_value(o, r) || ((imp->brings & r->flag) != 0) != r->refused_with)
			continue;
		bt_importer_nouns(r->flag, !r->refused_with, &those);
		bt_err_set(err, BT_EUSAGE, "%s does not apply to '%s': %s %s (only %s %s)", r->opt, input,
			   imp->noun, r->lacks, those.buf, r->have);
		bt_buf_release(&those);
		return err->code;
	}
	if (o->folded && (metric == BT_FOLDED_CPU || metric == BT_FOLDED_OFFCPU) && !(imp->brings & BT_BRINGS_CPU))
		return bt_err_set(err, BT_EUSAGE, "--folded-metric %s does not apply to '%s': %s gives no CPU "
				  "time (--folded-metric wall or alloc can)", o->folded_metric, input, imp->noun);
	return BT_OK;
}

/* BT_EUSAGE when an option that shapes an import is given with a trace
 * database, which keeps what it was imported with. */
static int refuse_db(const struct bt_opts *o, const char *input, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < N_REFUSALS; i++)
		if (opt_value(o, &refusals[i]))
			return bt_err_set(err, BT_EUSAGE, "%s does not apply to '%s': a trace database keeps %s it "
					  "was imported with", refusals[i].opt, input,
					  refusals[i].flag == BT_BRINGS_SLICES ? "the slices"
					  : refusals[i].flag == BT_BRINGS_PROCESSES ? "the process" : "the names");
	return BT_OK;
}

static int find_joining(const struct bt_opts *o, const char *const *inputs, int n, struct capture_inputs *c,
			struct bt_err *err)
{
	struct bt_buf those = BT_BUF_INIT;
	const struct bt_importer *imp;
	int k;

	c->dumps = c->list = bt_xcalloc((size_t)n, sizeof *c->list);
	for (k = 0; k < n; k++) {
		if (bt_input_check(inputs[k], 1, err))
			return err->code;
		if (bt_db_is_trace_db(inputs[k]))
			return bt_err_set(err, BT_EUSAGE, "'%s' is a trace database: only dumps can be imported "
					  "together as the processes of one capture", inputs[k]);
		if (bt_importer_find(inputs[k], &imp, err))
			return err->code;
		if (!(imp->brings & BT_BRINGS_JOINS) && (imp->brings & BT_BRINGS_PROCESSES) && !c->sys) {
			c->sys = inputs[k];   /* the system trace of the capture's time */
			c->sys_imp = imp;
			continue;
		}
		if (refuse(o, inputs[k], imp, err))
			return err->code;
		if (!(imp->brings & BT_BRINGS_JOINS)) {
			bt_importer_nouns(BT_BRINGS_JOINS, 1, &those);
			bt_err_set(err, BT_EUSAGE, "'%s' is %s, which cannot be one of several processes of a "
				   "capture (only %s can; one system trace of the same time may join them)",
				   inputs[k], imp->noun, those.buf);
			bt_buf_release(&those);
			return err->code;
		}
		if (c->imp && imp != c->imp)
			return bt_err_set(err, BT_EUSAGE, "'%s' is %s and '%s' %s: the processes of one capture "
					  "are given as dumps of one format", c->dumps[0], c->imp->noun, inputs[k],
					  imp->noun);
		c->imp = imp;
		c->list[c->n++] = inputs[k];
	}
	if (!c->n)
		return bt_err_set(err, BT_EUSAGE, "'%s' is %s: a system trace joins the dumps of a capture, and no "
				  "dump is given", c->sys, c->sys_imp->noun);
	return BT_OK;
}

int bt_cmd_load(const struct bt_opts *o, const char *input, int readonly, const struct bt_taps *taps,
		struct bt_db **out, struct bt_err *err)
{
	return bt_cmd_load_many(o, &input, 1, readonly, taps, out, err);
}

/* A new database of c's inputs (o->db, else a scratch one). */
static int import_new(const struct bt_opts *o, const struct capture_inputs *c, int readonly,
		      const struct bt_taps *taps, struct bt_db **db, struct bt_err *err)
{
	int rc = bt_db_create(db, o->db, err);

	if (!rc)
		rc = import(o, c, taps, *db, err);
	if (!rc && readonly)
		rc = bt_db_query_only(*db, err);
	return rc;
}

int bt_cmd_load_many(const struct bt_opts *o, const char *const *inputs, int n, int readonly,
		     const struct bt_taps *taps, struct bt_db **out, struct bt_err *err)
{
	struct capture_inputs c;
	const char *input = inputs[0];
	struct bt_db *db = NULL;
	int rc;

	*out = NULL;
	memset(&c, 0, sizeof c);
	bt_progress_start(!o->quiet && isatty(2));
	if (n > 1) {
		rc = find_joining(o, inputs, n, &c, err);
		if (!rc)
			rc = import_new(o, &c, readonly, taps, &db, err);
		free(c.list);
	} else if (bt_input_check(input, 1, err)) {   /* before anything opens it: a FIFO would block */
		return err->code;
	} else if (bt_db_is_trace_db(input)) {
		if (refuse_db(o, input, err))
			return err->code;
		rc = bt_db_open(&db, input, readonly, err);
		if (!rc && taps && (taps->n || taps->stacks))
			rc = bt_pipeline_replay(db, taps, err);
	} else {
		c.dumps = inputs;
		c.n = 1;
		rc = bt_importer_find(input, &c.imp, err);
		if (!rc)
			rc = refuse(o, input, c.imp, err);
		if (!rc)
			rc = import_new(o, &c, readonly, taps, &db, err);
	}
	if (rc) {
		bt_db_close(db);
		return rc;
	}
	*out = db;
	return BT_OK;
}
