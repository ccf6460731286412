/*
 * Loading an input for a command: reuse a trace database, or recognise a
 * dump, import it in one transaction, and report what
 * the importer had to recover from. Progress goes to a terminal stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/cli/cmd.h"
#include "engine/db/diag.h"
#include "engine/base/hash.h"
#include "engine/recon/capture.h"
#include "importers/importer.h"
#include "engine/recon/link.h"
#include "engine/profile/profile.h"
#include "engine/recon/slice.h"

struct progress {
	const char *path;
	int last;
};

static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	int pct = total ? (int)(done * 100 / total) : 100;

	if (pct == p->last)
		return;
	p->last = pct;
	fprintf(stderr, "\rbtrace-analyze: importing '%s': %3d%%", p->path, pct);
	fflush(stderr);
}

static void print_diagnostics(const struct bt_diag *d)
{
	int i;

	for (i = 0; i < d->n; i++) {
		const struct bt_diag_item *it = &d->items[i];
		if (it->count > 1)
			fprintf(stderr, "btrace-analyze: warning: %s [%s, %llu times]\n", it->detail,
				it->code, (unsigned long long)it->count);
		else
			fprintf(stderr, "btrace-analyze: warning: %s [%s]\n", it->detail, it->code);
	}
}

/* Slices of a kept database are stored with the import; a scratch
 * database counts them and stores them only if something reads them.
 * A helper thread's messages wait in msgs (it may not use db). */
struct fill {
	struct bt_db *db;
	int store;
	int64_t count;
	int64_t (*msgs)[5];
	size_t nmsgs, mcap;
};

static int fill_slice(void *ctx, const struct bt_slice *s, struct bt_err *err)
{
	struct fill *f = ctx;

	f->count++;
	return f->store ? bt_db_insert_slice(f->db, s, err) : BT_OK;
}

static int fill_message(void *ctx, int64_t tid, int64_t msg_id, int64_t ts, int64_t dur, int64_t cpu,
			struct bt_err *err)
{
	struct fill *f = ctx;

	if (!f->db) {
		BT_GROW(f->msgs, f->nmsgs + 1, f->mcap);
		f->msgs[f->nmsgs][0] = tid;
		f->msgs[f->nmsgs][1] = msg_id;
		f->msgs[f->nmsgs][2] = ts;
		f->msgs[f->nmsgs][3] = dur;
		f->msgs[f->nmsgs++][4] = cpu;
		return BT_OK;
	}
	return bt_db_exec(f->db, BT_SQL_INSERT_MESSAGE, err, "iiiii", tid, msg_id, ts, dur, cpu);
}

/* A scratch analysis reconstructs on two cores (slices are only counted
 * there); the helper's profile and messages join the main one's after. */
static int run_scratch(struct bt_slicer *sl, struct fill *f, struct bt_slice_sink *sink,
		       struct bt_err *err)
{
	struct fill f2 = { NULL, 0, 0, NULL, 0, 0 };
	struct bt_slice_sink sink2 = { fill_slice, fill_message, &f2, bt_profile_new() };
	size_t i;
	int rc = bt_slicer_run2(sl, sink, &sink2, err);

	bt_profile_merge(sink->profile, sink2.profile);
	f->count += f2.count;
	for (i = 0; i < f2.nmsgs && !rc; i++)
		rc = bt_db_exec(f->db, BT_SQL_INSERT_MESSAGE, err, "iiiii", f2.msgs[i][0], f2.msgs[i][1],
				f2.msgs[i][2], f2.msgs[i][3], f2.msgs[i][4]);
	free(f2.msgs);
	return rc;
}

static int fill_deferred(void *ctx, struct bt_db *db, struct bt_err *err)
{
	struct fill f = { db, 1, 0, NULL, 0, 0 };
	struct bt_slice_sink sink = { fill_slice, NULL, &f, NULL };

	return bt_slicer_run(ctx, &sink, err);
}

static void release_slicer(void *ctx)
{
	bt_slicer_free(ctx);
}

/* The span of the samples and their threads, for report headers (a
 * scan of the samples table would cost more than the whole report). */
static int note_span(const struct bt_capture *cap, struct bt_db *db, struct bt_err *err)
{
	struct bt_map64 tids;
	int64_t first = 0, last = 0, threads = 0;
	size_t i;
	int rc;

	if (!cap->n)
		return BT_OK;   /* a trace of slices: its importer noted the span */
	bt_map64_init(&tids, 64);
	for (i = 0; i < cap->n; i++) {
		const struct bt_csample *s = &cap->s[i];
		int64_t end = s->end_ts > s->ts ? s->end_ts : s->ts;
		if (!i || s->ts < first)
			first = s->ts;
		if (!i || end > last)
			last = end;
		if (!bt_map64_get(&tids, (uint64_t)s->tid)) {
			bt_map64_put(&tids, (uint64_t)s->tid, 1);
			threads++;
		}
	}
	bt_map64_release(&tids);
	rc = bt_db_set_meta_int(db, "first_ts", first, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "last_ts", last, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "sampled_threads", threads, err);
	return rc;
}

/* A scratch analysis's samples and nodes stay in memory, where the
 * capture (or the slicer that took it over) has them: the database reads
 * them there from now on. */
static int attach_rows(struct bt_capture *cap, struct bt_slicer *sl, struct bt_db *db,
		       struct bt_err *err)
{
	struct bt_csample *records = cap->s;
	uint32_t *parent = cap->parent, *frame = cap->frame;
	size_t n = cap->n, nnodes = cap->nnodes;

	if (sl) {
		records = bt_slicer_give_records(sl, &n);
		bt_slicer_give_nodes(sl, &parent, &frame, &nnodes);
	} else {   /* the capture's arrays move on */
		cap->s = NULL;
		cap->parent = cap->frame = NULL;
		cap->n = cap->cap = cap->nnodes = cap->ncap = 0;
	}
	if (bt_db_attach_samples(db, records, n, err))
		return err->code;
	return bt_db_attach_nodes(db, parent, frame, nnodes, err);
}

/* Reconstruct: messages and attribution always, slices now or deferred
 * (see above). */
static int reconstruct(struct bt_capture *cap, struct bt_db *db, enum bt_slice_policy policy,
		       int keep, struct bt_err *err)
{
	struct bt_slicer *sl = NULL;
	struct fill f = { db, keep, 0, NULL, 0, 0 };
	struct bt_slice_sink sink = { fill_slice, fill_message, &f, NULL };
	int rc = bt_slicer_new(&sl, cap, db, policy, err);

	if (!rc && !keep)
		rc = attach_rows(cap, sl, db, err);
	if (rc || !sl) {
		bt_slicer_free(sl);
		return rc;
	}
	sink.profile = bt_profile_new();
	rc = keep ? bt_slicer_run(sl, &sink, err) : run_scratch(sl, &f, &sink, err);
	if (!rc)
		rc = bt_profile_store(sink.profile, db, keep, err);
	else
		bt_profile_free(sink.profile);
	if (!rc)
		rc = bt_db_set_meta_int(db, "slices", f.count, err);
	if (!rc)
		rc = bt_db_set_meta_text(db, "slice_policy", bt_slice_policy_name(policy), err);
	if (rc || keep) {
		bt_slicer_free(sl);
		return rc;
	}
	bt_db_defer_slices(db, fill_deferred, release_slicer, sl);
	return BT_OK;
}

static int import(const struct bt_opts *o, const char *input, const struct bt_importer *imp,
		  struct bt_db *db, struct bt_err *err)
{
	struct bt_import_opts io = { o->mapping, o->retrace, o->symbols, NULL, NULL };
	struct progress p = { input, -1 };
	struct bt_capture cap;
	struct bt_diag diag;
	enum bt_slice_policy policy;
	int rc = bt_slice_policy_parse(o->slice_policy, &policy, err);

	if (rc)
		return rc;
	bt_diag_init(&diag);
	if (!o->quiet && isatty(2)) {
		io.progress = show_progress;
		io.progress_ctx = &p;
	}
	rc = bt_db_begin(db, err);
	bt_capture_begin(&cap, db);
	bt_db_rows_in_memory(db, o->db == NULL);
	if (!rc)
		rc = imp->run(db, input, &io, &diag, err);
	if (!rc)
		rc = bt_link_run(&cap, db, &diag, err);
	if (!rc)
		rc = note_span(&cap, db, err);
	if (!rc)
		rc = reconstruct(&cap, db, policy, o->db != NULL, err);

	bt_capture_release(&cap);
	if (!rc)
		rc = bt_diag_save(&diag, db, err);
	if (!rc)
		rc = bt_db_set_meta_text(db, "importer", imp->name, err);
	if (!rc)
		rc = bt_db_commit(db, err);

	if (io.progress && p.last >= 0)
		fputs("\r\033[K", stderr);
	if (rc) {
		bt_db_defer_slices(db, NULL, NULL, NULL);
		bt_db_rollback(db);
		return rc;
	}
	if (!o->quiet)
		print_diagnostics(&diag);
	return BT_OK;
}

int bt_cmd_load(const struct bt_opts *o, const char *input, int readonly, struct bt_db **out,
		struct bt_err *err)
{
	const struct bt_importer *imp;
	struct bt_db *db = NULL;
	int rc;

	*out = NULL;
	if (bt_db_is_trace_db(input) && o->slice_policy)
		return bt_err_set(err, BT_EUSAGE, "--slice-policy does not apply to '%s': a trace database "
				  "keeps the slices it was imported with", input);
	if (bt_db_is_trace_db(input))
		return bt_db_open(out, input, readonly, err);
	rc = bt_importer_find(input, &imp, err);
	if (!rc && imp == &bt_imp_perfetto && o->slice_policy)
		rc = bt_err_set(err, BT_EUSAGE, "--slice-policy does not apply to '%s': a Perfetto trace's "
				"slices are taken as the trace gives them", input);
	if (!rc)
		rc = bt_db_create(&db, o->db, err);
	if (!rc)
		rc = import(o, input, imp, db, err);
	if (!rc && readonly)
		rc = bt_db_query_only(db, err);
	if (rc) {
		bt_db_close(db);
		return rc;
	}
	*out = db;
	return BT_OK;
}
