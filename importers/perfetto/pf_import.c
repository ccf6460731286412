/*
 * The Perfetto importer: traces of btrace 2.0 (atrace prints in ftrace),
 * btrace 3.0 (the Android converter's app tracks, perhaps after a system
 * trace), the iOS tool, and our own --perfetto output. Slices are taken
 * as the trace has them (engine/recon/feed.h); how they are read, paired and
 * linked is in pf_*.c (pf_int.h).
 */
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/inflate.h"
#include "importers/perfetto/pf_int.h"
#include "engine/db/rows.h"
#include "engine/startup/startup.h"
#include "importers/symbol.h"

/* A Trace begins with packet fields: key 0x0A, a length, then the packet's
 * own first key, of a wire type protobuf uses. */
static int looks_like_trace(const unsigned char *b, size_t n)
{
	uint64_t len = 0;
	size_t i = 1;
	int shift = 0;

	if (n < 3 || b[0] != 0x0A)
		return 0;
	while (i < n && i < 6 && (b[i] & 0x80))
		len |= (uint64_t)(b[i++] & 0x7f) << shift, shift += 7;
	if (i >= n || i >= 6)
		return 0;
	len |= (uint64_t)b[i++] << shift;
	if (!len || i >= n)
		return len == 0;
	return (b[i] & 7) != 3 && (b[i] & 7) != 4 && (b[i] & 7) < 6 && b[i] >> 3;
}

static int probe(const char *path, const unsigned char *head, size_t n)
{
	unsigned char buf[64];
	int k;

	if (!head)
		return 0;
	if (!bt_inflate_is(head, n, BT_INFLATE_GZIP))
		return looks_like_trace(head, n);
	k = bt_inflate_head(path, buf, sizeof buf, NULL);
	return k > 0 && looks_like_trace(buf, (size_t)k);
}

static int load_types(struct pf *p, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, p->db, BT_SQL_RECORD_TYPES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t t = bt_rows_int(r, 0);
		size_t len = 0;
		const char *name = bt_rows_text(r, 1, &len);
		if (t > 0 && t < 256 && name && !bt_strmap_get(&p->type_of, name, len))
			bt_strmap_put(&p->type_of, name, len, (uint32_t)t + 1);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* Events of tracks never described stay on a track of their own. */
static void resolve_pending(struct pf *p)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->ntracks; i++) {
		struct pf_track *t = &p->tracks[i];
		if (!t->pending)
			continue;
		n++;
		pf_spill_resolve(p, t, -(int64_t)i - 1);
	}
	if (n)
		bt_diag_count(p->diag, "perfetto_undescribed_track", n,
			      "tracks of '%s' have events but no descriptor; imported as tracks of no thread", p->path);
}

/* The frames of the app's slices (other processes' names stay out). */
static int write_frames(struct pf *p, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < p->nframes; i++) {
		const char *n = p->frames[i].name;
		struct bt_symbol sym;
		if (!p->frames[i].used)
			continue;
		bt_symbol_parse(n, strlen(n), &sym);
		if (bt_db_exec(p->db, BT_SQL_INSERT_FRAME, err, "intssss", (int64_t)i + 1, n, sym.ret.p, sym.ret.len,
			       sym.cls.p, sym.cls.len, sym.method.p, sym.method.len, sym.params.p, sym.params.len))
			return err->code;
	}
	return BT_OK;
}

/* A thread's name without the iOS tool's "Callstack: Thread " prefix. */
static const char *thread_name(const struct pf *p, int64_t tid)
{
	static const char ios[] = "Callstack: Thread ";
	const char *n = pf_name(p, (struct bt_map64 *)&p->thread_name, tid);

	if (n && !strncmp(n, ios, sizeof ios - 1))
		n = n[sizeof ios - 1] ? n + sizeof ios - 1 : NULL;
	return n;
}

/* --process all: each thread's process (where the trace says it) and
 * the processes, the app's the lead. */
static int write_processes(struct pf *p, const struct bt_map64 *threads, struct bt_err *err)
{
	struct bt_map64 count;   /* pid + 1 -> its threads */
	size_t i;
	int64_t n = 0;
	int rc = BT_OK;

	bt_map64_init(&count, 64);
	for (i = 0; i < threads->cap && !rc; i++) {
		int64_t tid = (int64_t)threads->slots[i].key;
		uint32_t g = threads->slots[i].val ? bt_map64_get(&p->tgid_of, (uint64_t)tid) : 0;
		if (!g)
			continue;
		rc = bt_db_exec(p->db, BT_SQL_SET_THREAD_PID, err, "ii", tid, (int64_t)g - 1);
		bt_map64_put(&count, g, bt_map64_get(&count, g) + 1);
	}
	for (i = 0; i < count.cap && !rc; i++) {
		int64_t pid = (int64_t)count.slots[i].key - 1;
		const char *name = pf_name(p, &p->process_name, pid);
		if (!count.slots[i].val)
			continue;
		n++;
		rc = bt_db_exec(p->db, BT_SQL_INSERT_PROCESS, err, "itttmimmii", pid, name ? name : thread_name(p, pid),
				p->path, "perfetto", bt_map64_get(threads, (uint64_t)pid) ? pid : INT64_MIN,
				(int64_t)(pid == p->pid), INT64_MIN, INT64_MIN, (int64_t)0,
				(int64_t)count.slots[i].val);
	}
	bt_map64_release(&count);
	return rc ? rc : bt_db_set_meta_int(p->db, "processes", n, err);
}

/* The app's threads: those with slices, and those the trace names. Main:
 * the one whose tid is the pid, else (iOS, pid 1) the one named main.
 * *nrows: the rows written, the header's count of threads. */
static int write_threads(struct pf *p, struct bt_map64 *with_slices, int64_t *main_tid, size_t *nrows,
			 struct bt_err *err)
{
	struct bt_map64 all;
	size_t i;
	int rc = BT_OK;

	bt_map64_init(&all, 64);
	for (i = 0; i < with_slices->cap; i++)
		if (with_slices->slots[i].val)
			bt_map64_put(&all, with_slices->slots[i].key, 1);
	for (i = 0; i < p->tgid_of.cap; i++)
		if (p->tgid_of.slots[i].val && (p->all || (int64_t)p->tgid_of.slots[i].val - 1 == p->pid))
			bt_map64_put(&all, p->tgid_of.slots[i].key, 1);
	*main_tid = bt_map64_get(&all, (uint64_t)p->pid) ? p->pid : -1;
	for (i = 0; i < all.cap && *main_tid < 0; i++) {
		const char *n = all.slots[i].val ? thread_name(p, (int64_t)all.slots[i].key) : NULL;
		if (n && !strcmp(n, "main"))
			*main_tid = (int64_t)all.slots[i].key;
	}
	*nrows = all.len;
	for (i = 0; i < all.cap && !rc; i++) {
		int64_t tid = (int64_t)all.slots[i].key;
		if (all.slots[i].val)
			rc = bt_db_exec(p->db, BT_SQL_INSERT_THREAD, err, "iti", tid, thread_name(p, tid),
					(int64_t)(tid == *main_tid));
	}
	if (!rc && p->all)
		rc = write_processes(p, &all, err);
	bt_map64_release(&all);
	if (!rc && *nrows && !p->named_threads)
		bt_diag_count(p->diag, "perfetto_no_thread_names", *nrows,
			      "threads of '%s' have no names: the trace holds no process tree, thread descriptors or scheduler events", p->path);
	return rc;
}

static int write_meta(struct pf *p, int64_t main_tid, size_t threads, struct bt_err *err)
{
	const char *process = pf_name(p, &p->process_name, p->pid);
	const char *sources = p->flavor_track && p->flavor_atrace ? "track_event+atrace"
			      : p->flavor_atrace ? "atrace" : "track_event";
	int rc = bt_db_set_meta_text(p->db, "format", "perfetto", err);

	rc = rc ? rc : bt_db_set_meta_text(p->db, "source", p->path, err);
	rc = rc ? rc : bt_db_set_meta_text(p->db, "sources", sources, err);
	rc = rc ? rc : bt_db_set_meta_text(p->db, "clock", "as the trace's timestamps", err);
	rc = rc ? rc : bt_db_set_meta_int(p->db, "packets", p->packets, err);
	rc = rc ? rc : bt_db_set_meta_int(p->db, "events", p->seq - p->seq_unused, err);
	rc = rc ? rc : bt_db_set_meta_int(p->db, "spill_runs", bt_spill_runs(p->spill), err);   /* 0: sorted in memory */
	rc = rc ? rc : bt_db_set_meta_int(p->db, "sampled_threads", (int64_t)threads, err);
	if (p->pid > 0)
		rc = rc ? rc : bt_db_set_meta_int(p->db, "pid", p->pid, err);
	if (process)
		rc = rc ? rc : bt_db_set_meta_text(p->db, "process_name", process, err);
	if (main_tid >= 0)
		rc = rc ? rc : bt_db_set_meta_int(p->db, "main_tid", main_tid, err);
	if (!(p->args_seen & (1u << PF_OBJS | 1u << PF_BYTES)))   /* no slice says: not recorded */
		rc = rc ? rc : bt_db_set_meta_int(p->db, "no_alloc", 1, err);
	if (!(p->args_seen & 1u << PF_MAJFLT))
		rc = rc ? rc : bt_db_set_meta_int(p->db, "no_faults", 1, err);
	if (!(p->args_seen & (1u << PF_NVCSW | 1u << PF_NIVCSW)))
		rc = rc ? rc : bt_db_set_meta_int(p->db, "no_csw", 1, err);
	return rc;
}

static const char *frame_name(const void *ctx, size_t id)
{
	const struct pf *p = ctx;

	return p->frames[id - 1].name;
}

/* Collectors for the threads write_threads may choose as the main one:
 * the pid's own, or one named main. */
static void start_candidates(struct pf *p, struct bt_startups *c)
{
	size_t i;

	bt_startups_candidate(c, p->pid, p->nframes, frame_name, p);
	for (i = 0; i < p->thread_name.cap; i++) {
		const char *n = p->thread_name.slots[i].val ? thread_name(p, (int64_t)p->thread_name.slots[i].key) : NULL;
		if (n && !strcmp(n, "main"))
			bt_startups_candidate(c, (int64_t)p->thread_name.slots[i].key, p->nframes, frame_name, p);
	}
	bt_startups_exact(c, 1);
}

/* The app's frames from its frame timeline where no doFrame slice gave
 * them (an app traced with its own markers only): ui_frames, janky as the
 * timeline says, each janky one's cause from the main thread's slices. */
static int timeline_frames(struct pf *p, int64_t main_tid, struct bt_err *err)
{
	struct bt_err ignored;
	int64_t have = 0;
	int rc;

	if (main_tid < 0 || p->pid <= 0 || bt_db_meta_int(p->db, "ui_frames", 0, &have, err))
		return err->code;
	if (have)
		return BT_OK;
	rc = bt_db_exec(p->db, BT_SQL_UI_FRAMES_FROM_TIMELINE, err, "ii", main_tid, p->pid);
	if (!rc)
		rc = bt_db_script(p->db, BT_SQL_UI_FRAMES_SUMMARY, err);
	if (rc || bt_db_slices_deferred(p->db))
		return rc;
	rc = bt_db_exec(p->db, BT_SQL_SCRATCH_UF_SLICES, err, "i", main_tid);
	if (!rc)
		rc = bt_db_script(p->db, BT_SQL_SCRATCH_UF_INDEX, err);
	if (!rc)
		rc = bt_db_script(p->db, BT_SQL_SCRATCH_UF_CAUSES, err);
	bt_db_script(p->db, BT_SQL_SCRATCH_UF_DROP, &ignored);
	return rc;
}

/* Wait and park edges to the notify or unpark that ended them, monitor
 * edges to their owner's release; our arrows to edges. */
static int pf_link(struct pf *p, struct bt_err *err)
{
	if (bt_link_waits(&p->notes, p->db, err) ||
	    bt_db_script(p->db, BT_SQL_SCRATCH_PF_LINK_RELEASES, err) ||
	    bt_db_script(p->db, BT_SQL_SCRATCH_PF_FLOW_EDGES, err))
		return err->code;
	return bt_db_script(p->db, BT_SQL_UNSET_NO_WAITS, err);
}

/* Kernel wakers' slice stacks at the wake (scratch_pf_waker_stacks.sql),
 * which need the slices: deferred ones are made (pf_pair.c's fill runs the
 * script) only when a waker has slices at all. */
static int waker_stacks(struct pf *p, const struct bt_map64 *threads, int deferred, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc, any = 0;

	if (!deferred)
		return bt_db_script(p->db, BT_SQL_SCRATCH_PF_WAKER_STACKS, err);
	if (bt_rows_open(&r, p->db, BT_SQL_PF_SLEEP_WAKERS, err))
		return err->code;
	while (!any && (rc = bt_rows_next(r, err)) == 1)
		any = bt_map64_get(threads, (uint64_t)bt_rows_int(r, 0)) != 0;
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	return any ? bt_db_need_slices(p->db, err) : BT_OK;
}

/* The trace's span covers its threads' scheduler states too, not only its
 * slices (the feed's first_ts and last_ts): a system trace's states begin
 * before the first slice and end after the last. */
static int span_states(struct pf *p, struct bt_err *err)
{
	int64_t first, last;

	if (!p->sched_states)
		return BT_OK;
	if (bt_db_meta_int(p->db, "first_ts", p->states_first, &first, err) ||
	    bt_db_meta_int(p->db, "last_ts", p->states_end, &last, err) ||
	    bt_db_set_meta_int(p->db, "first_ts", first < p->states_first ? first : p->states_first, err))
		return err->code;
	return bt_db_set_meta_int(p->db, "last_ts", last > p->states_end ? last : p->states_end, err);
}

static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
	       struct bt_err *err)
{
	struct pf p;
	struct bt_map64 threads;
	struct bt_startups *starts = bt_startups_new();
	struct pf_kept *kept = NULL;
	int64_t main_tid = -1;
	size_t nthreads = 0;
	struct bt_err ignored;
	int rc;

	memset(&p, 0, sizeof p);
	p.db = db;
	p.path = path;
	p.o = o;
	p.all = o->process && !strcmp(o->process, BT_PROCESS_ALL);
	p.diag = diag;
	bt_map64_init(&p.track_of, 64);
	bt_map64_init(&p.tgid_of, 256);
	bt_map64_init(&p.thread_name, 256);
	bt_map64_init(&p.process_name, 64);
	bt_map64_init(&p.begins, 64);
	bt_map64_init(&p.cpu_keys, 16);
	bt_map64_init(&p.cpu_tracks, 16);
	bt_map64_init(&p.marks, 16);
	bt_map64_init(&p.seq_of, 16);
	bt_strmap_init(&p.frame_of);
	bt_strmap_init(&p.type_of);
	pf_threads_init(&p);
	bt_map64_init(&threads, 64);
	pf_kinds_init(&p);
	pf_sched_init(&p);
	bt_link_notes_init(&p.notes);
	rc = load_types(&p, err);
	pf_spill_open(&p, 0);
	if (!rc)
		rc = bt_db_script(db, BT_SQL_SCRATCH_PF_TABLES, err);
	if (!rc)
		rc = pf_stream(&p, err);
	if (!rc)
		resolve_pending(&p);
	pf_samples_done(&p);
	if (!rc)
		pf_threads_done(&p);
	if (!rc)
		rc = pf_choose(&p, err);
	if (!rc) {
		pf_wanted_index(&p);
		rc = pf_later_replay(&p, err);
	}
	if (!rc)
		start_candidates(&p, starts);
	if (!rc) {
		pf_kinds_name(&p);
		rc = pf_pair(&p, &threads, starts, &kept, err);
	}
	if (!rc)
		rc = write_frames(&p, err);
	if (!rc)
		rc = pf_link(&p, err);
	if (!rc)
		rc = pf_threads_report(&p, err);
	if (!rc)
		rc = write_threads(&p, &threads, &main_tid, &nthreads, err);
	if (!rc)
		rc = write_meta(&p, main_tid, nthreads, err);
	if (!rc)
		rc = pf_choose_meta(&p, err);
	if (!rc)
		rc = pf_samples_save(&p, err);
	if (!rc)
		rc = pf_frametl_save(&p, err);
	if (!rc)
		rc = pf_kinds_save(&p, threads.len, err);   /* threads with slices */
	if (!rc)
		rc = bt_startups_store(starts, main_tid, p.db, p.diag, err);   /* the start, from the main
										 * thread's slices as they were
										 * paired */
	if (!rc)
		rc = timeline_frames(&p, main_tid, err);
	if (!rc && kept)   /* the database holds kept, until it closes */
		pf_pair_keep(kept, &p);
	if (!rc)
		rc = waker_stacks(&p, &threads, kept != NULL, err);
	if (!rc)
		rc = span_states(&p, err);
	if (!rc)
		rc = bt_bevents_save(p.binder, p.db, p.diag, "perfetto_binder_unpaired", p.path, err);
	bt_bevents_free(p.binder);
	bt_startups_free(starts);
	bt_spill_free(p.spill);
	p.spill = NULL;
	bt_db_script(db, BT_SQL_SCRATCH_PF_DROP, &ignored);
	bt_link_notes_release(&p.notes);
	bt_map64_release(&threads);
	pf_release(&p);
	pf_samples_free(p.samples);
	pf_frametl_free(p.frametl);
	pf_choose_release(&p);
	pf_kinds_release(&p);
	pf_sched_release(p.sched);
	pf_later_free(p.later);
	bt_fmap_release(&p.fmap);
	return rc;
}

const struct bt_importer bt_imp_perfetto = {
	.name = "perfetto", .noun = "a Perfetto trace",
	.brings = BT_BRINGS_SLICES | BT_BRINGS_PROCESSES | BT_BRINGS_CPU,
	.probe = probe, .run = run
};
