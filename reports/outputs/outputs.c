/*
 * The outputs of an analysis (outputs.h): the report formats' table, the
 * taps the outputs' needs make, the threads that write the exports while
 * the rules run (one each), and the all-or-nothing commit.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/names.h"
#include "engine/base/progress.h"
#include "engine/profile/stacks.h"
#include "reports/export/perfetto.h"
#include "reports/export/slice_log.h"
#include "reports/html/html.h"
#include "reports/outputs/outputs.h"
#include "reports/text/safe.h"

static const struct bt_exporter *const reports[] = {
	&bt_rep_text, &bt_rep_json, &bt_rep_md, &bt_rep_html, &bt_rep_xlsx
};

#define N_REPORTS (sizeof reports / sizeof reports[0])

/* A path that is there and no regular file (a FIFO, a device): its name
 * says nothing of a format. */
static int special(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode);
}

int bt_report_pick(const char *format, const char *path, const struct bt_exporter **out,
		   struct bt_err *err)
{
	const char *ext = path ? strrchr(path, '.') : NULL;
	size_t i;

	*out = &bt_rep_text;
	if (ext && strchr(ext, '/'))
		ext = NULL;   /* a dot in a folder's name: no extension */
	for (i = 0; i < N_REPORTS; i++) {
		if (format ? !strcmp(format, reports[i]->name) : ext && !strcmp(ext, reports[i]->ext)) {
			*out = reports[i];
			return BT_OK;
		}
	}
	if (format)
		return bt_err_set(err, BT_EUSAGE, "unknown report format '%s' (known: text, json, md, html, xlsx)",
				  format);
	if (ext && strcmp(path, "-") && !special(path))   /* r.pdf would get text in it */
		return bt_err_set(err, BT_EUSAGE, "-o %s: no report format has the extension '%s' (known: .txt, "
				  ".json, .md, .html, .xlsx; --format names one for any path)", path, ext);
	return BT_OK;
}

struct output {
	const struct bt_exporter *x;
	const char *path;
	struct bt_out out;
	struct bt_export ex;        /* its own copy: threads share nothing */
	pthread_t thread;
	int threaded;               /* its writer runs on thread */
	int rc;                     /* its writer's result */
	struct bt_err err;
	void (*progress)(void *ctx, const char *path, uint64_t done, uint64_t total);
	void *progress_ctx;
};

#define MAX_TAPS 2

struct bt_outputs {
	struct output *v;           /* grown only before bt_outputs_start: threads hold &v[i] */
	size_t n, cap;
	struct bt_export x;
	struct bt_stacks *stacks;
	struct bt_slicelog *slices;
	struct bt_perfetto *perfetto;
	struct bt_html_timeline *timeline;
	struct bt_slice_tap tapv[MAX_TAPS];
	struct bt_tap_filter want[MAX_TAPS];
	struct bt_taps taps;
	int ready;                  /* started */
	int full_names;             /* --full-names: x.names stays NULL */
	void (*progress)(void *ctx, const char *path, uint64_t done, uint64_t total);
	void *progress_ctx;
};

static int ready(void *ctx, struct bt_db *db, struct bt_err *err)
{
	return bt_outputs_start(ctx, db, err);
}

struct bt_outputs *bt_outputs_new(int folded_metric, int show_idle)
{
	struct bt_outputs *o = bt_xcalloc(1, sizeof *o);
	size_t k;

	for (k = 0; k < MAX_TAPS; k++) {   /* every slice, until a tap's begin says otherwise */
		o->want[k].tid = -1;
		o->want[k].min_dur = INT64_MIN;
	}
	o->x.folded_metric = folded_metric;
	o->x.show_idle = show_idle;
	o->taps.v = o->tapv;
	o->taps.want = o->want;
	o->taps.ready = ready;
	o->taps.ctx = o;
	return o;
}

void bt_outputs_width(struct bt_outputs *o, int cols)
{
	o->x.width = cols;
}

void bt_outputs_full_names(struct bt_outputs *o, int full)
{
	o->full_names = full;
}

void bt_outputs_progress(struct bt_outputs *o,
			 void (*fn)(void *ctx, const char *path, uint64_t done, uint64_t total), void *ctx)
{
	o->progress = fn;
	o->progress_ctx = ctx;
}

static void output_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct output *d = ctx;

	d->progress(d->progress_ctx, d->path && strcmp(d->path, "-") ? d->path : "stdout", done, total);
}

/* What d's writer gets: the run's, and its own progress. */
static void export_of(const struct bt_outputs *o, struct output *d)
{
	d->ex = o->x;
	d->ex.path = d->path && strcmp(d->path, "-") ? d->path : NULL;
	d->progress = o->progress;
	d->progress_ctx = o->progress_ctx;
	if (o->progress) {
		d->ex.progress = output_progress;
		d->ex.progress_ctx = d;
	}
}

struct bt_namer *bt_outputs_namer(const struct bt_outputs *o)
{
	return o->x.names;
}

/* Every frame of the trace in scope, so a name reads the same in every
 * table, flame graph and export. */
static int load_names(struct bt_outputs *o, struct bt_db *db, struct bt_err *err)
{
	char **names;
	size_t n, i;

	if (o->full_names)
		return BT_OK;
	if (bt_frame_names_load(db, &names, &n, err))
		return err->code;
	o->x.names = bt_namer_new();
	for (i = 0; i < n; i++)
		bt_namer_add(o->x.names, names[i]);
	bt_namer_done(o->x.names);
	bt_frame_names_free(names, n);
	return BT_OK;
}

void bt_outputs_add(struct bt_outputs *o, const struct bt_exporter *x, const char *path)
{
	struct output *d;

	assert(!o->ready);
	BT_GROW(o->v, o->n + 1, o->cap);
	d = &o->v[o->n++];
	memset(d, 0, sizeof *d);
	d->x = x;
	d->path = path;
	d->err = (struct bt_err)BT_ERR_INIT;
	if ((x->needs & BT_NEED_STACKS) && !o->stacks)
		o->taps.stacks = o->stacks = bt_stacks_new();
	if ((x->needs & BT_NEED_SLICES) && !o->slices) {   /* one log, however many read it */
		o->slices = bt_slicelog_new();
		o->tapv[o->taps.n++] = bt_slicelog_tap(o->slices);
	}
	if ((x->needs & BT_NEED_PERFETTO) && !o->perfetto)
		o->perfetto = bt_perfetto_new();
	if ((x->needs & BT_NEED_TIMELINE) && !o->timeline) {
		o->timeline = bt_html_timeline_new();
		o->tapv[o->taps.n++] = bt_html_timeline_tap(o->timeline);
	}
}

int bt_outputs_check(const struct bt_outputs *o, struct bt_err *err)
{
	const char **paths = bt_xcalloc(o->n + 1, sizeof *paths);
	size_t i;
	int rc;

	for (i = 0; i < o->n; i++)
		paths[i] = o->v[i].path;
	rc = bt_out_distinct(paths, o->n, err);   /* as every command's (engine/cli/outset.c) */
	free(paths);
	return rc;
}

const struct bt_taps *bt_outputs_taps(struct bt_outputs *o)
{
	return &o->taps;
}

static void *write_one(void *arg)
{
	struct output *d = arg;

	int people = d->x == &bt_rep_text || d->x == &bt_rep_md;   /* read by people: no control characters */
	FILE *fp;

	if (people && !d->ex.width)   /* the terminal's, read before the stream hides it */
		d->ex.width = bt_tty_width(d->out.fp);
	fp = people ? bt_safe_open(d->out.fp, d->x == &bt_rep_md) : d->out.fp;
	errno = 0;
	d->rc = d->x->write(&d->ex, fp, &d->err);
	if (bt_safe_close(fp, d->out.fp) && !d->rc)
		d->rc = bt_err_set(&d->err, BT_EIO, "cannot write '%s': %s", d->out.path ? d->out.path : "stdout",
				   errno ? strerror(errno) : "write error");
	return NULL;
}

/* An export gets a thread of its own unless it shares stdout with
 * another output. */
static int own_thread(const struct bt_outputs *o, const struct output *d)
{
	size_t i, to_stdout = 0;

	if (d->x->needs & BT_NEED_RESULT)
		return 0;
	for (i = 0; i < o->n; i++)
		to_stdout += o->v[i].out.fp == stdout;
	return d->out.fp != stdout || to_stdout == 1;
}

int bt_outputs_start(struct bt_outputs *o, struct bt_db *db, struct bt_err *err)
{
	size_t i;

	if (o->ready)
		return BT_OK;
	o->ready = 1;
	for (i = 0; i < o->n; i++)
		if (bt_out_open(&o->v[i].out, o->v[i].path, err))
			return err->code;
	if (load_names(o, db, err))
		return err->code;
	if (o->stacks)
		o->stacks->show_idle = o->x.show_idle;
	if (o->stacks && bt_stacks_load_names(o->stacks, db, err))
		return err->code;
	if (o->slices && bt_slicelog_seal(o->slices, err))
		return err->code;
	if (o->perfetto && bt_perfetto_load(o->perfetto, db, err))
		return err->code;
	o->x.stacks = o->stacks;
	o->x.slices = o->slices;
	o->x.perfetto = o->perfetto;
	o->x.timeline = o->timeline;
	for (i = 0; i < o->n; i++) {   /* without its thread, finish writes it */
		struct output *d = &o->v[i];
		export_of(o, d);
		if (own_thread(o, d))
			d->threaded = pthread_create(&d->thread, NULL, write_one, d) == 0;
	}
	return BT_OK;
}

static void join(struct bt_outputs *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->v[i].threaded)
			pthread_join(o->v[i].thread, NULL);
	for (i = 0; i < o->n; i++)
		o->v[i].threaded = 0;
}

static int failed(const struct output *d, struct bt_err *err)
{
	const char *path = d->path && strcmp(d->path, "-") ? d->path : "stdout";

	if (strstr(d->err.msg, path))
		return bt_err_set(err, d->err.code, "%s", d->err.msg);
	return bt_err_set(err, d->err.code, "'%s': %s", path, d->err.msg);
}

/* "writing 'report.html'" on the progress line. */
static void phase(const struct output *d)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_buf_addf(&b, "writing '%s'", d->path && strcmp(d->path, "-") ? d->path : "stdout");
	bt_progress_phase(b.buf);
	bt_buf_release(&b);
}

int bt_outputs_finish(struct bt_outputs *o, struct bt_db *db, const struct bt_result *res,
		      struct bt_err *err)
{
	size_t i;

	o->x.db = db;
	o->x.res = res;
	for (i = 0; i < o->n; i++) {
		if (o->v[i].threaded)
			continue;
		export_of(o, &o->v[i]);
		phase(&o->v[i]);
		write_one(&o->v[i]);
	}
	for (i = 0; i < o->n; i++)   /* the exports' threads, still writing */
		if (o->v[i].threaded)
			phase(&o->v[i]);
	join(o);
	for (i = 0; i < o->n; i++)   /* the first failure, in the order added: the writers know no path */
		if (o->v[i].rc)
			return failed(&o->v[i], err);
	for (i = 0; i < o->n; i++)   /* all written through before any is renamed */
		if (o->v[i].out.fp && o->v[i].out.fp != stdout && (fflush(o->v[i].out.fp) || ferror(o->v[i].out.fp)))
			return bt_err_set(err, BT_EIO, "cannot write '%s': %s", o->v[i].path, strerror(errno));
	for (i = 0; i < o->n; i++)
		if (bt_out_commit(&o->v[i].out, err))
			return err->code;
	return BT_OK;
}

void bt_outputs_tell_file(FILE *to, const char *path)
{
	struct bt_buf b = BT_BUF_INIT;
	struct stat st;

	if (!path || !strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	bt_format_bytes((double)st.st_size, &b);
	fprintf(to, "btrace-analyze: wrote %s (%s)\n", path, b.buf);
	bt_buf_release(&b);
}

void bt_outputs_tell(const struct bt_outputs *o, FILE *to)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		bt_outputs_tell_file(to, o->v[i].path);
}

void bt_outputs_free(struct bt_outputs *o)
{
	size_t i;

	if (!o)
		return;
	join(o);
	for (i = 0; i < o->n; i++)
		bt_out_abort(&o->v[i].out);
	bt_stacks_free(o->stacks);
	bt_slicelog_free(o->slices);
	bt_perfetto_free(o->perfetto);
	bt_html_timeline_free(o->timeline);
	bt_namer_free(o->x.names);
	free(o->v);
	free(o);
}
