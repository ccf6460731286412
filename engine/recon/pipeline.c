/*
 * The pipeline (pipeline.h): import, link, reconstruct, attribute, in one
 * transaction, every slice going to the database (or only counted), the
 * profile and the taps as it ends.
 *
 * Ownership, and the close order it needs. A scratch analysis (no keep)
 * hands its big arrays on instead of copying them:
 *   capture (records, stack tree) -> slicer -> database
 * The slicer takes the capture's arrays (bt_slicer_new), gives the records
 * and the stack tree to the database as its samples and nodes tables
 * (attach_rows), and goes to the database itself as the maker of deferred
 * slices (bt_db_defer_slices); the merged profile goes to the database as
 * the calltree table (bt_profile_store). The slicer still reads the
 * records and nodes it gave away, so it must be freed before them:
 * bt_db_close releases the deferred slicer first and only then closes the
 * connection, whose modules free the arrays and the profile. A kept
 * database stores everything as rows and frees the slicer here.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/progress.h"
#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/recon/binder.h"
#include "engine/recon/capture.h"
#include "engine/recon/chain.h"
#include "engine/recon/feed.h"
#include "engine/recon/join.h"
#include "engine/recon/link.h"
#include "engine/recon/msg_order.h"
#include "engine/recon/offcpu.h"
#include "engine/recon/pipeline.h"
#include "engine/startup/startup.h"

/* A part of the reconstruction (one of its two cores): where its slices
 * and messages go. Slices of a kept database are stored, a scratch one's
 * only counted; a helper part's messages wait in msgs (it may not use db). */
struct fill {
	struct bt_db *db;
	int store, part;
	const struct bt_taps *taps;
	int64_t count;
	struct bt_message *msgs;
	size_t nmsgs, mcap;
	struct bt_msg_order *order;   /* of the messages stored (the main part's) */
	struct bt_chain *chain;   /* the wait chains take every slice */
	struct bt_startup *startup;   /* fed the main thread's slices (one part has them) */
	struct bt_offcpu *offcpu;     /* with a system trace's states: the slices' self time, to
				       * split by state (offcpu.h), or NULL */
};

static int fill_slice(void *ctx, const struct bt_slice *s, struct bt_err *err)
{
	struct fill *f = ctx;

	f->count++;
	bt_chain_slice(f->chain, f->part, s);
	if (f->offcpu)
		bt_offcpu_closed(f->offcpu, s->tid, s->depth, s->frame_id, s->ts, s->ts + s->dur, s->idle);
	if (f->startup && s->tid == bt_startup_tid(f->startup))
		bt_startup_add(f->startup, s);
	if (f->taps && f->taps->n && bt_taps_slice(f->taps, f->part, s, err))
		return err->code;
	return f->store ? bt_db_insert_slice(f->db, s, err) : BT_OK;
}

static int fill_thread(void *ctx, int64_t tid, int64_t n, struct bt_err *err)
{
	struct fill *f = ctx;

	if (f->offcpu)
		bt_offcpu_thread_done(f->offcpu);
	return bt_taps_thread(f->taps, f->part, tid, n, err);
}

static int insert_message(struct bt_db *db, struct bt_msg_order *order, const struct bt_message *m,
			  struct bt_err *err)
{
	const struct bt_message_row row = { m->tid, m->msg_id, m->ts, m->dur, m->cpu, m->block, m->idle, m->alloc };

	bt_msg_order_see(order, m->tid, m->msg_id, m->ts);
	return bt_db_insert_message(db, &row, err);
}

static int fill_message(void *ctx, const struct bt_message *m, struct bt_err *err)
{
	struct fill *f = ctx;

	if (f->startup)
		bt_startup_message(f->startup, m->tid, m->msg_id, m->ts, bt_sat_add(m->ts, m->dur));
	if (!f->db) {
		BT_GROW(f->msgs, f->nmsgs + 1, f->mcap);
		f->msgs[f->nmsgs++] = *m;
		return BT_OK;
	}
	return insert_message(f->db, f->order, m, err);
}

/* A scratch analysis reconstructs on two cores (slices are only counted
 * there); the helper's profile and messages join the main one's after. */
static int run_scratch(struct bt_slicer *sl, struct fill *f, struct bt_slice_sink *sink,
		       struct bt_err *err)
{
	struct fill f2 = { NULL, 0, 1, f->taps, 0, NULL, 0, 0, NULL, f->chain, f->startup, NULL };
	struct bt_slice_sink sink2 = { fill_slice, fill_message, &f2, bt_profile_new(), fill_thread };
	struct bt_offcpu off2;
	size_t i;
	int rc;

	bt_offcpu_init(&off2);
	if (f->offcpu)
		f2.offcpu = &off2;
	if (f->taps->stacks)
		bt_profile_keep_entries(sink2.profile);
	rc = bt_slicer_run2(sl, sink, &sink2, err);   /* drops the items: the deferred slices build them again, if asked */
	bt_profile_merge(sink->profile, sink2.profile);
	f->count += f2.count;
	if (f->offcpu)
		bt_offcpu_move(f->offcpu, &off2);
	for (i = 0; i < f2.nmsgs && !rc; i++)
		rc = insert_message(f->db, f->order, &f2.msgs[i], err);
	free(f2.msgs);
	return rc;
}

/* The deferred slices: the same reconstruction again, stored, for a
 * reader of the slices table (no taps: they had the first run's). */
static int fill_deferred(void *ctx, struct bt_db *db, struct bt_err *err)
{
	struct fill f = { db, 1, 0, NULL, 0, NULL, 0, 0, NULL, NULL, NULL, NULL };
	struct bt_slice_sink sink = { fill_slice, NULL, &f, NULL, NULL };

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
	size_t i, e;
	int rc;

	if (!cap->n)
		return BT_OK;   /* a trace of slices: its feed noted the span */
	bt_map64_init(&tids, 64);
	for (i = 0, e = 0; i < cap->n; i++) {
		const struct bt_csample *s = &cap->s[i];
		int64_t end_ts = bt_cends_next(&cap->ends, i, &e)[0], end = end_ts > s->ts ? end_ts : s->ts;
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
	struct bt_cends ends = cap->ends;
	uint32_t *parent = cap->parent, *frame = cap->frame;
	size_t n = cap->n, nnodes = cap->nnodes;

	if (cap->bad_at)   /* the records keep no id: it is their position */
		return bt_err_set(err, BT_ESQL, "sample id %lld at position %zu: ids must be dense",
				  (long long)cap->bad_id, cap->bad_at);
	if (sl) {
		records = bt_slicer_give_records(sl, &n, &ends);
		bt_slicer_give_nodes(sl, &parent, &frame, &nnodes);
	} else {   /* the capture's arrays move on */
		cap->s = NULL;
		memset(&cap->ends, 0, sizeof cap->ends);
		cap->parent = cap->frame = NULL;
		cap->n = cap->cap = cap->nnodes = cap->ncap = 0;
	}
	if (bt_db_attach_samples(db, records, n, &ends, err))
		return err->code;
	return bt_db_attach_nodes(db, parent, frame, nnodes, err);
}

/* Reconstruct: messages and attribution always, slices now or deferred
 * (see above), every slice to the taps, whose owner is ready before the
 * attribution is stored (*ready set). */
static int reconstruct(struct bt_capture *cap, struct bt_db *db, const struct bt_pipeline *pl,
		       struct bt_slice_span *spans, size_t nspans, struct bt_diag *diag, int *ready,
		       struct bt_err *err)
{
	struct bt_slicer *sl = NULL;
	struct bt_msg_order order;
	struct fill f = { db, pl->keep, 0, &pl->taps, 0, NULL, 0, 0, &order, NULL, NULL, NULL };
	struct bt_offcpu offcpu;
	struct bt_slice_sink sink = { fill_slice, fill_message, &f, NULL, fill_thread };
	int rc = bt_chain_new(&f.chain, cap, db, err);

	if (!rc && !(pl->imp->brings & BT_BRINGS_SLICES))
		rc = bt_slicer_new(&sl, cap, db, pl->policy, (pl->imp->brings & BT_BRINGS_THROTTLE) != 0, err);
	if (!rc && sl && spans)
		bt_slicer_spans(sl, spans, nspans);
	else
		free(spans);
	if (!rc && !sl)   /* no records: the chains have no methods */
		rc = bt_chain_store(f.chain, db, err);
	if (!rc && !pl->keep && sl)   /* no records (a Perfetto trace): the tables hold what the importer wrote */
		rc = attach_rows(cap, sl, db, err);
	if (rc || !sl) {
		bt_chain_free(f.chain);
		bt_slicer_free(sl);
		return rc;
	}
	rc = bt_startup_new(&f.startup, db, err);
	bt_msg_order_init(&order);
	bt_offcpu_init(&offcpu);
	if (pl->sys_input)   /* a system trace gave the threads' states */
		f.offcpu = &offcpu;
	sink.profile = bt_profile_new();
	if (!rc && pl->taps.stacks)
		bt_profile_keep_entries(sink.profile);
	if (!rc)
		rc = bt_taps_begin(&pl->taps, db, err);
	if (!rc && pl->keep)   /* nothing reads them back before the commit */
		rc = bt_db_slices_as_pages(db, err);
	if (!rc)
		rc = pl->keep ? bt_slicer_run(sl, &sink, err) : run_scratch(sl, &f, &sink, err);
	if (!rc)
		rc = bt_msg_order_store(&order, db, err);
	bt_msg_order_release(&order);
	if (!rc)
		rc = bt_chain_store(f.chain, db, err);
	bt_chain_free(f.chain);
	if (!rc)
		rc = bt_slicer_store_frames(sl, db, err);
	if (!rc && f.startup)
		rc = bt_startup_store(f.startup, db, diag, err);
	bt_startup_free(f.startup);
	if (!rc) {
		bt_taps_done(&pl->taps, sink.profile);
		*ready = 1;
		rc = bt_taps_ready(&pl->taps, db, err);
	}
	bt_progress_phase("storing the attribution");
	if (!rc)
		rc = bt_profile_store(sink.profile, db, pl->keep, err);
	else
		bt_profile_free(sink.profile);
	if (!rc && f.offcpu) {   /* after the methods: their self time by state */
		bt_offcpu_sort(&offcpu);
		rc = bt_offcpu_store(&offcpu, db, err);
	}
	bt_offcpu_release(&offcpu);
	if (!rc)
		rc = bt_db_set_meta_int(db, "slices", f.count, err);
	if (!rc)
		rc = bt_db_set_meta_text(db, "slice_policy", bt_slice_policy_name(pl->policy), err);
	if (rc || pl->keep) {
		bt_slicer_free(sl);
		return rc;
	}
	bt_db_defer_slices(db, fill_deferred, release_slicer, sl);
	return BT_OK;
}

/* The start of a trace that brought its own slices: from the stored
 * ones, unless the importer found it as the slices passed
 * (startup_modeled: its slices may be deferred, and reading them here
 * would make them all). */
static int startup_of_slices(struct bt_db *db, struct bt_diag *diag, struct bt_err *err)
{
	int64_t modeled;

	if (bt_db_meta_int(db, "startup_modeled", 0, &modeled, err))
		return err->code;
	return modeled ? BT_OK : bt_startup_from_slices(db, diag, err);
}

/* Each process's main-thread waits linked to their wakers, within it. */
static int link_processes(const struct bt_capture *cap, const struct bt_process *procs, size_t n,
			  struct bt_db *db, struct bt_diag *diag, struct bt_err *err)
{
	size_t k;

	if (n == 1)
		return bt_link_run(cap, db, diag, err);
	for (k = 0; k < n; k++)
		if (bt_link_range(cap, procs[k].lo, procs[k].hi, procs[k].main_tid, procs[k].version, db, diag, err))
			return err->code;
	return BT_OK;
}

int bt_pipeline_run(struct bt_db *db, const struct bt_pipeline *pl, struct bt_diag *diag,
		    struct bt_err *err)
{
	struct bt_import_opts io = pl->io;
	struct bt_capture cap;
	struct bt_process *procs = NULL;
	struct bt_slice_span *spans = NULL;
	struct bt_sys_calls sys = { NULL, 0, 0 };
	size_t nspans = 0;
	int ready = 0, rc = bt_db_begin(db, err);

	io.taps = &pl->taps;
	io.keep = pl->keep;
	bt_capture_begin(&cap, db);
	bt_db_rows_in_memory(db, !pl->keep);
	bt_alloc_doing("importing", pl->inputs[0]);
	if (!rc)
		rc = bt_join_import(db, pl->imp, pl->inputs, pl->ninputs, &io, &cap, diag, &procs, err);
	bt_alloc_doing("reconstructing the slices of", pl->inputs[0]);
	bt_progress_phase("reconstructing the slices");
	if (!rc && pl->sys_input)
		rc = bt_join_system(db, pl->sys_imp, pl->sys_input, &io, procs, pl->ninputs, diag, &sys, err);
	if (!rc && (pl->imp->brings & BT_BRINGS_WAKERS))
		rc = link_processes(&cap, procs, pl->ninputs, db, diag, err);
	if (!rc && (pl->ninputs > 1 || pl->sys_input))
		rc = bt_binder_link(&cap, procs, pl->ninputs, pl->sys_input ? &sys : NULL, db, diag, &spans, &nspans,
				    err);
	free(procs);
	free(sys.v);
	if (!rc)
		rc = note_span(&cap, db, err);
	if (!rc)
		rc = reconstruct(&cap, db, pl, spans, nspans, diag, &ready, err);
	else
		free(spans);
	if (!rc && !ready)   /* no reconstruction: the trace's own slices are in */
		rc = startup_of_slices(db, diag, err);
	if (!rc && !ready)
		rc = bt_taps_ready(&pl->taps, db, err);
	bt_capture_release(&cap);
	if (!rc)
		rc = bt_diag_save(diag, db, err);
	if (!rc)
		rc = bt_db_set_meta_text(db, "importer", pl->imp->name, err);
	if (!rc)
		rc = bt_db_commit(db, err);
	if (rc) {
		bt_db_defer_slices(db, NULL, NULL, NULL);
		bt_db_rollback(db);
	}
	return rc;
}

/* Columns of replay_slices.sql: the slices table's, in its order. */
enum { R_ID, R_TID, R_DEPTH, R_PARENT, R_FRAME, R_TS, R_DUR, R_CPU, R_SELF, R_SELF_CPU, R_BLOCK,
       R_MSG, R_COUNT, R_OBJS, R_BYTES, R_MAJFLT, R_NVCSW, R_NIVCSW, R_TYPE, R_WAKEUP, R_GAP,
       R_GAP_CPU, R_IDLE };

#define REPLAY_MAX_DEPTH (1 << 20)

/* The stored slice r holds; its stored id (*id) and parent (*parent). */
static void read_slice(struct bt_rows *r, struct bt_slice *s, int64_t *id, int64_t *parent)
{
	memset(s, 0, sizeof *s);
	*id = bt_rows_int(r, R_ID);
	*parent = bt_rows_type(r, R_PARENT) == BT_ROWS_NULL ? 0 : bt_rows_int(r, R_PARENT);
	s->tid = bt_rows_int(r, R_TID);
	s->depth = bt_rows_int(r, R_DEPTH);
	s->frame_id = bt_rows_int(r, R_FRAME);
	s->ts = bt_rows_int(r, R_TS);
	s->dur = bt_rows_int(r, R_DUR);
	s->cpu_dur = bt_rows_int(r, R_CPU);
	s->cpu_unknown = bt_rows_type(r, R_CPU) == BT_ROWS_NULL;   /* NULL: the trace did not say */
	s->self_dur = bt_rows_int(r, R_SELF);
	s->self_cpu_dur = bt_rows_int(r, R_SELF_CPU);
	s->block_dur = bt_rows_int(r, R_BLOCK);
	s->msg_id = bt_rows_int(r, R_MSG);
	s->sample_count = bt_rows_int(r, R_COUNT);
	s->alloc_objects = bt_rows_int(r, R_OBJS);
	s->alloc_bytes = bt_rows_int(r, R_BYTES);
	s->majflt = bt_rows_int(r, R_MAJFLT);
	s->nvcsw = bt_rows_int(r, R_NVCSW);
	s->nivcsw = bt_rows_int(r, R_NIVCSW);
	s->type = bt_rows_type(r, R_TYPE) == BT_ROWS_NULL ? -1 : bt_rows_int(r, R_TYPE);
	s->wakeup_tid = bt_rows_int(r, R_WAKEUP);
	s->gap_dur = bt_rows_int(r, R_GAP);
	s->gap_cpu_dur = bt_rows_int(r, R_GAP_CPU);
	s->idle = bt_rows_int(r, R_IDLE);
}

/* Stored ids of the open slices, by depth. */
struct open_ids {
	int64_t *id, tid;
	size_t n, cap;
};

/* Close the feed's open slices down to depth, each at its stored end. */
static int close_to(struct bt_feed *f, int64_t depth, struct bt_err *err)
{
	while (bt_feed_depth(f) > depth) {
		const struct bt_slice *top = bt_feed_top(f);
		if (bt_feed_close(f, top->ts + top->dur, NULL, err))
			return err->code;
	}
	return BT_OK;
}

/* One stored slice: close what ended before it, check it sits in the
 * slice enclosing it, open it. */
static int replay_one(struct bt_feed *f, struct open_ids *o, struct bt_rows *r, struct bt_err *err)
{
	struct bt_slice s;
	int64_t id, parent;

	read_slice(r, &s, &id, &parent);
	if (s.depth < 0 || s.depth >= REPLAY_MAX_DEPTH || s.frame_id <= 0 || s.frame_id >= UINT32_MAX)
		return bt_err_set(err, BT_EFORMAT, "slice %lld: depth %lld or frame %lld out of range",
				  (long long)id, (long long)s.depth, (long long)s.frame_id);
	if (s.tid != o->tid || !o->n) {   /* another thread's slices */
		if (close_to(f, 0, err))
			return err->code;
		o->n = 0;
	}
	o->tid = s.tid;
	if ((size_t)s.depth > o->n || (s.depth > 0 && o->id[s.depth - 1] != parent) ||
	    (s.depth == 0 && parent))
		return bt_err_set(err, BT_EFORMAT, "slice %lld: parent %lld is not the enclosing slice",
				  (long long)id, (long long)parent);
	if (close_to(f, s.depth, err))
		return err->code;
	o->n = (size_t)s.depth;
	BT_GROW(o->id, o->n + 1, o->cap);
	o->id[o->n++] = id;
	return bt_feed_open(f, &s, (s.cpu_unknown ? BT_FEED_CPU_UNKNOWN : BT_FEED_CPU | BT_FEED_SELF_CPU) |
			    BT_FEED_BLOCK | BT_FEED_SELF, 0, err);
}

int bt_pipeline_replay(struct bt_db *db, const struct bt_taps *taps, struct bt_err *err)
{
	struct bt_feed *f = bt_feed_new_replay(taps);
	struct open_ids o = { NULL, 0, 0, 0 };
	struct bt_rows *r = NULL;
	int rc;

	if (bt_taps_begin(taps, db, err) || bt_rows_open(&r, db, BT_SQL_REPLAY_SLICES, err)) {
		bt_feed_free(f);
		return err->code;
	}
	while ((rc = bt_rows_next(r, err)) == 1)
		if (replay_one(f, &o, r, err)) {
			rc = -1;
			break;
		}
	bt_rows_close(r);
	free(o.id);
	if (rc >= 0 && close_to(f, 0, err))
		rc = -1;
	if (rc < 0) {
		bt_feed_free(f);
		return err->code;
	}
	if (bt_feed_finish(f, err))
		return err->code;
	return bt_taps_ready(taps, db, err);
}
