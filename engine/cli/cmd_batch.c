/*
 * "btrace-analyze batch INPUT... -o OUTDIR": every trace under the inputs
 * analysed by a pool of workers (engine/batch/batch.h), each this binary's
 * 'analyze' on one trace; here the command line, the probe that says what
 * a file is (the importers'), and the summary line.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/fileio.h"
#include "engine/batch/batch.h"
#include "engine/cli/cmd.h"
#include "importers/importer.h"
#include "importers/known.h"

static const char *probe(const char *path, struct bt_buf *why, int *sidecar)
{
	const struct bt_importer *imp;
	struct bt_err e = BT_ERR_INIT;

	*sidecar = 0;
	if (bt_db_is_trace_db(path))
		return "trace-database";
	if (!bt_importer_find(path, &imp, &e))
		return imp->name;
	bt_buf_adds(why, e.msg);
	*sidecar = bt_known_sidecar_file(path);
	return NULL;
}

/* The binary workers run: this one, by /proc/self/exe where there is one. */
static char *self_exe(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n > 0) {
		buf[n] = 0;
		return bt_xstrdup(buf);
	}
	return bt_xstrdup(argv0);
}

/* The analyze options every worker gets. */
static const char **worker_args(const struct bt_opts *o, int *n)
{
	const char **a = bt_xcalloc((size_t)(2 * (o->nrules + o->nsets) + 16), sizeof *a);
	int i, k = 0;

	for (i = 0; i < o->nrules; i++) {
		a[k++] = "--rules";
		a[k++] = o->rules[i];
	}
	for (i = 0; i < o->nsets; i++) {
		a[k++] = "--set";
		a[k++] = o->sets[i];
	}
	if (o->strict)
		a[k++] = "--strict";
	*n = k;
	return a;
}

/* The options of o that apply to a format, for its workers: a batch's
 * --retrace, --symbols and --slice-policy go to the traces they apply to
 * and pass the others by (one trace alone refuses them, bt_cmd_load). */
struct format_args {
	const struct bt_opts *o;
	const char *v[6];
};

static const char *const *format_args(void *ctx, const char *format, int *n)
{
	struct format_args *fa = ctx;
	const struct bt_importer *imp = bt_importer_named(format);
	const char *opt[3] = { "--retrace", "--symbols", "--slice-policy" };
	const char *val[3] = { fa->o->retrace, fa->o->symbols, fa->o->slice_policy };
	int i, k = 0;

	for (i = 0; i < 3; i++) {
		if (val[i] && imp && bt_cmd_applies(imp, opt[i])) {
			fa->v[k++] = opt[i];
			fa->v[k++] = val[i];
		}
	}
	*n = k;
	return fa->v;
}

/* The files every worker reads, before the first starts: one missing
 * would fail every trace. */
static int check_files(const struct bt_opts *o, struct bt_err *err)
{
	int i, rc = BT_OK;

	for (i = 0; i < o->nrules && !rc; i++)
		rc = bt_input_check(o->rules[i], 0, err);
	if (!rc && o->retrace)
		rc = bt_input_check(o->retrace, 0, err);
	if (!rc && o->symbols)
		rc = bt_input_check(o->symbols, 0, err);
	return rc;
}

/* One line to a log, within the width of a terminal. */
static void tell(const struct bt_batch_sum *s)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_buf_addf(&b, "%llu trace%s: %llu ok, %llu failed",
		    (unsigned long long)s->traces, s->traces == 1 ? "" : "s", (unsigned long long)s->ok,
		    (unsigned long long)s->failed);
	if (s->earlier)
		bt_buf_addf(&b, " (%llu from an earlier run)", (unsigned long long)s->earlier);
	bt_buf_addf(&b, "; %llu other file%s skipped", (unsigned long long)s->skipped, s->skipped == 1 ? "" : "s");
	if (s->sidecars)
		bt_buf_addf(&b, " (%llu beside a trace)", (unsigned long long)s->sidecars);
	bt_buf_addf(&b, "; %llu analysed in %.1f s", (unsigned long long)s->ran, s->seconds);
	if (s->ran && s->seconds > 0)
		bt_buf_addf(&b, ", %.1f/s", (double)s->ran / s->seconds);
	bt_buf_addf(&b, "; manifest '%s'", s->manifest);
	bt_cmd_say("batch", b.buf);
	bt_buf_release(&b);
}

int bt_cmd_batch(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts_batch ob;
	struct bt_opts *o = &ob.o;
	struct bt_batch_opts bo;
	struct bt_batch_sum sum;
	struct format_args fa;
	const char **args = NULL;
	char *exe = NULL, *outdir = NULL;
	size_t n;
	int rc = bt_opts_parse(o, &bt_optab_batch, argc, argv, err);

	memset(&sum, 0, sizeof sum);
	if (!rc && o->help) {
		bt_cmd_print_help("batch");
		goto done;
	}
	if (!rc && o->ninputs == 0)
		rc = bt_err_set(err, BT_EUSAGE, "batch wants at least one input (a trace or a directory)");
	if (!rc && !o->out)
		rc = bt_err_set(err, BT_EUSAGE, "batch wants an output directory (-o OUTDIR)");
	if (!rc)
		rc = check_files(o, err);
	if (rc)
		goto done;
	memset(&bo, 0, sizeof bo);
	exe = self_exe(argv[0]);
	args = worker_args(o, &bo.nargs);
	outdir = bt_xstrdup(o->out);   /* "fleet/" names its files "fleet/reports/..." */
	for (n = strlen(outdir); n > 1 && outdir[n - 1] == '/'; n--)
		outdir[n - 1] = 0;
	bo.outdir = outdir;
	bo.exe = exe;
	bo.args = args;
	bo.jobs = ob.jobs ? ob.jobs : bt_batch_cores();
	bo.db = ob.keep_db;
	bo.shard = ob.shard;
	bo.nshards = ob.nshards;
	bo.retry_failed = ob.retry_failed;
	bo.timeout = ob.timeout;
	bo.progress = !o->quiet && isatty(2);
	bo.probe = probe;
	fa.o = o;
	bo.format_args = format_args;
	bo.format_ctx = &fa;
	rc = bt_batch_run(&bo, o->inputs, o->ninputs, &sum, err);
	if ((!rc || rc == BT_EBATCH) && !o->quiet)
		tell(&sum);
done:
	bt_batch_sum_release(&sum);
	free(args);
	free(exe);
	free(outdir);
	bt_opts_release(o, &bt_optab_batch);
	return rc;
}
