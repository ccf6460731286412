/*
 * Perfetto export (see perfetto.h). Each TracePacket is encoded on its own
 * (perfetto_seq.c) and written as one `packet` field of Trace (0x0A,
 * length, bytes), so the file is a valid Trace however many slices there
 * are. The layout follows upstream's converter (format spec §10), minus its
 * quirks: the process track gets a real uuid (not 0, Q-6) and thread names
 * no newline. Each value is written once, where it says something:
 * names are interned, a zero is left out, a slice's self times only when
 * its children do not give them, and the values its opening sample gave
 * the slices it opened together (Gap) or every slice below it (MessageId)
 * only on the outermost.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/names.h"
#include "engine/base/search.h"
#include "engine/db/rows.h"
#include "reports/export/perfetto.h"
#include "reports/export/perfetto_int.h"
#include "reports/report.h"

/* As the importer's feed (engine/recon/feed.c) subtracts, so a self time
 * left out reads back the same. */
static int64_t sub(int64_t a, int64_t b)
{
	return b == INT64_MIN ? bt_sat_add(bt_sat_add(a, INT64_MAX), 1) : bt_sat_add(a, -b);
}

static struct pfw_track *track_of(struct bt_perfetto *w, int64_t tid)
{
	uint32_t k = bt_map64_get(&w->tmap, (uint64_t)tid);

	if (k)
		return &w->tracks[k - 1];
	BT_GROW(w->tracks, w->ntracks + 1, w->tcap);
	memset(&w->tracks[w->ntracks], 0, sizeof w->tracks[0]);
	w->tracks[w->ntracks].tid = tid;
	bt_map64_put(&w->tmap, (uint64_t)tid, (uint32_t)++w->ntracks);
	return &w->tracks[w->ntracks - 1];
}

static int describe_thread(struct bt_perfetto *w, struct pfw_track *t, struct bt_err *err)
{
	struct bt_pbw *o = &w->out;
	const char *name = t->name;   /* NULL: none, as in the trace (the UI shows the tid) */

	t->described = 1;
	pfw_packet_open(w);
	bt_pbw_open(o, PB_PACKET_TRACK_DESCRIPTOR);
	bt_pbw_varint(o, PB_TRACK_UUID, PFW_THREAD_UUID(t->tid));
	if (name)
		bt_pbw_str(o, PB_TRACK_NAME, name);
	bt_pbw_open(o, PB_TRACK_THREAD);
	bt_pbw_varint(o, PB_THREAD_PID, (uint64_t)(int64_t)(int32_t)(t->pid ? t->pid : w->pid));
	bt_pbw_varint(o, PB_THREAD_TID, (uint64_t)(int64_t)(int32_t)t->tid);
	if (name)
		bt_pbw_str(o, PB_THREAD_NAME, name);
	bt_pbw_close(o);
	bt_pbw_varint(o, PB_TRACK_PARENT, t->pid ? PFW_OTHER_PROCESS_UUID(t->pid) : PFW_PROCESS_UUID);
	bt_pbw_varint(o, PB_TRACK_NO_MERGE, 1);
	bt_pbw_close(o);
	return pfw_packet_done(w, err);
}

/* The threads table's threads become tracks, main thread first. */
static int load_threads(struct bt_db *db, struct bt_perfetto *w, int *first_is_main, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	*first_is_main = 0;
	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_THREADS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct pfw_track *t = track_of(w, bt_rows_int(r, 0));
		if (!t->name && bt_rows_type(r, 1) != BT_ROWS_NULL)
			t->name = bt_xstrdup(bt_rows_text(r, 1, NULL));
		if (w->ntracks == 1)
			*first_is_main = bt_rows_int(r, 2) != 0;
		if (bt_rows_type(r, 3) != BT_ROWS_NULL)
			t->pid = bt_rows_int(r, 3);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* The capture's processes besides the lead (a capture of several): each
 * its own process track, its threads under it. */
static int load_processes(struct bt_db *db, struct bt_perfetto *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t i;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_PROCESSES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct pfw_process *p;
		BT_GROW(w->others, w->nothers + 1, w->ocap_);
		p = &w->others[w->nothers++];
		p->pid = bt_rows_int(r, 0);
		p->name = bt_rows_type(r, 1) == BT_ROWS_NULL ? NULL : bt_xstrdup(bt_rows_text(r, 1, NULL));
	}
	bt_rows_close(r);
	for (i = 0; i < w->ntracks; i++)   /* the lead's threads are under the lead's track */
		if (w->tracks[i].pid == w->pid)
			w->tracks[i].pid = 0;
	return rc < 0 ? err->code : BT_OK;
}

/* A process track: the lead's, or another of the capture's. */
static int describe_process(struct bt_perfetto *w, uint64_t uuid, int64_t pid, const char *name, struct bt_err *err)
{
	struct bt_pbw *o = &w->out;

	pfw_packet_open(w);
	bt_pbw_open(o, PB_PACKET_TRACK_DESCRIPTOR);
	bt_pbw_varint(o, PB_TRACK_UUID, uuid);
	if (name)
		bt_pbw_str(o, PB_TRACK_NAME, name);
	bt_pbw_open(o, PB_TRACK_PROCESS);
	bt_pbw_varint(o, PB_PROCESS_PID, (uint64_t)(int64_t)(int32_t)pid);
	if (name)
		bt_pbw_str(o, PB_PROCESS_NAME, name);
	bt_pbw_close(o);
	bt_pbw_close(o);
	return pfw_packet_done(w, err);
}

static int describe(struct bt_perfetto *w, struct bt_err *err)
{
	size_t i;

	if (describe_process(w, PFW_PROCESS_UUID, w->pid, w->process, err))
		return err->code;
	for (i = 0; i < w->nothers; i++)
		if (describe_process(w, PFW_OTHER_PROCESS_UUID(w->others[i].pid), w->others[i].pid,
				     w->others[i].name, err))
			return err->code;
	for (i = 0; i < w->ntracks; i++)
		if (describe_thread(w, &w->tracks[i], err))
			return err->code;
	return BT_OK;
}

static int load_names(struct bt_db *db, struct bt_perfetto *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_NAMES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t id = bt_rows_int(r, 0);
		const char *name = bt_rows_text(r, 1, NULL);
		if (!name)
			continue;
		if (id < 0 && -id < PFW_NTYPES) {
			w->types[-id] = bt_xstrdup(name);
		} else if (id > 0 && id < INT32_MAX) {
			w->names = bt_grow_zero(w->names, sizeof *w->names, &cap, (size_t)id);
			w->names[id] = bt_xstrdup(name);
			if ((size_t)id >= w->nnames)
				w->nnames = (size_t)id + 1;
		}
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int load_edges(struct bt_db *db, struct bt_perfetto *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_EDGES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct pfw_edge *e;
		BT_GROW(w->edges, w->nedges + 1, cap);
		e = &w->edges[w->nedges++];
		memset(e, 0, sizeof *e);
		e->id = bt_rows_int(r, 0);
		e->waiter_tid = bt_rows_int(r, 1);
		e->ts = bt_rows_int(r, 2);
		e->waker_tid = bt_rows_int(r, 3);
		e->waker_ts = bt_rows_int(r, 4);
		snprintf(e->kind, sizeof e->kind, "%s", bt_rows_text(r, 5, NULL) ? bt_rows_text(r, 5, NULL) : "");
		e->dur = bt_rows_int(r, 6);
		e->blocked_in = bt_rows_int(r, 7);
		e->caller = bt_rows_int(r, 8);
		e->waker_frame = bt_rows_int(r, 9);
		e->linked = bt_rows_int(r, 10) != 0;
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* Edges by waiter, then by the wait's start: as the query gives them. */
static int by_waiter_ts(const void *x, const void *y)
{
	const struct pfw_edge *a = x, *b = y;

	if (a->waiter_tid != b->waiter_tid)
		return a->waiter_tid < b->waiter_tid ? -1 : 1;
	return (a->ts > b->ts) - (a->ts < b->ts);
}

/* The first unused linked edge ending at a wait of tid that began at ts. */
static struct pfw_edge *edge_at(struct bt_perfetto *w, int64_t tid, int64_t ts)
{
	const struct pfw_edge key = { .waiter_tid = tid, .ts = ts };
	size_t lo = bt_first_not_before(w->edges, w->nedges, sizeof *w->edges, &key, by_waiter_ts);
	for (; lo < w->nedges && w->edges[lo].waiter_tid == tid && w->edges[lo].ts == ts; lo++)
		if (w->edges[lo].linked && !w->edges[lo].used)
			return &w->edges[lo];
	return NULL;
}

/* Where the wait was: its length, the waiting frame and its caller (the
 * arrow ends on its record's outermost slice, which may be longer). */
static void wait_annots(struct bt_perfetto *w, const struct pfw_edge *e)
{
	pfw_annot_ms(w, PFW_WAIT, e->dur);
	if (e->blocked_in > 0)
		pfw_annot_frame(w, PFW_BLOCKED_IN, e->blocked_in);
	if (e->caller > 0)
		pfw_annot_frame(w, PFW_CALLER, e->caller);
}

/* The innermost open slice ends. A reader works its self times out as the
 * slice less its children, and a blocked time not given as its children's
 * (ours does): only other ones are written, on the SLICE_END. */
static int end_slice(struct bt_perfetto *w, struct bt_err *err)
{
	const struct pfw_open *o = &w->open[--w->nopen];

	pfw_event(w, PB_SLICE_END);
	if (o->self_dur != o->dur - o->child_dur)
		pfw_annot_ms(w, PFW_SELF, o->self_dur);
	if (o->self_cpu != sub(o->cpu, o->child_cpu))
		pfw_annot_ms(w, PFW_SELF_CPU, o->self_cpu);
	if (!o->block && o->child_block)   /* the slice's own BlockTime left out its zero */
		pfw_annot_ms(w, PFW_BLOCK, 0);
	if (w->nopen) {
		struct pfw_open *up = &w->open[w->nopen - 1];
		up->child_dur += o->dur;
		up->child_cpu = bt_sat_add(up->child_cpu, o->cpu);
		up->child_block = bt_sat_add(up->child_block, o->block);
	}
	return pfw_event_put(w, o->end, err);
}

static int end_thread(struct bt_perfetto *w, struct bt_err *err)
{
	while (w->nopen)
		if (end_slice(w, err))
			return err->code;
	return BT_OK;
}

/* The values s inherits from its parent up when one sample opened both. */
static void values(const struct bt_slice *s, int64_t v[PFW__NINHERIT])
{
	v[PFW_I_COUNT] = s->sample_count;
	v[PFW_I_OBJS] = s->alloc_objects;
	v[PFW_I_BYTES] = s->alloc_bytes;
	v[PFW_I_MAJFLT] = s->majflt;
	v[PFW_I_NVCSW] = s->nvcsw;
	v[PFW_I_NIVCSW] = s->nivcsw;
	v[PFW_I_GAP] = s->gap_dur;
	v[PFW_I_GAP_CPU] = s->gap_cpu_dur;
}

/*
 * The values of s that are not zero, nor what its parent up says for it:
 * the counts and the gap of a slice that began with its parent (the same
 * sample opened both, and most end together too) when they are the
 * parent's, the message id when it is the parent's. What people read
 * first, the CPU and blocked times and the bytes, every slice carries.
 */
static void slice_annots(struct bt_perfetto *w, const struct bt_slice *s, const struct pfw_open *up,
			 const int64_t v[PFW__NINHERIT], int first)
{
	static const int64_t none[PFW__NINHERIT];
	const int64_t *in = up && up->ts == s->ts ? up->v : none;

	if (s->wakeup_tid)
		pfw_annot_int(w, PFW_WAKEUP, s->wakeup_tid);
	if (s->block_dur)
		pfw_annot_ms(w, PFW_BLOCK, s->block_dur);
	if (s->cpu_dur || (first && !s->cpu_unknown))   /* a reader takes a thread none of whose
							   * slices has it for one of unknown CPU time */
		pfw_annot_ms(w, PFW_CPU, s->cpu_dur);
	if (v[PFW_I_COUNT] != in[PFW_I_COUNT])
		pfw_annot_int(w, PFW_COUNT, v[PFW_I_COUNT]);
	if (v[PFW_I_GAP] != in[PFW_I_GAP])
		pfw_annot_ms(w, PFW_GAP, v[PFW_I_GAP]);
	if (v[PFW_I_GAP_CPU] != in[PFW_I_GAP_CPU])
		pfw_annot_ms(w, PFW_GAP_CPU, v[PFW_I_GAP_CPU]);
	if (s->idle)
		pfw_annot_int(w, PFW_IDLE, 1);   /* only there: other policies' exports stay as they were */
	if (s->msg_id != (up ? up->msg : 0))
		pfw_annot_int(w, PFW_MSG, s->msg_id);
	if (v[PFW_I_OBJS] != in[PFW_I_OBJS])
		pfw_annot_int(w, PFW_OBJS, v[PFW_I_OBJS]);
	if (s->alloc_bytes)   /* for people, as every report writes bytes; the number for tools */
		pfw_annot_bytes(w, PFW_BYTES, s->alloc_bytes);
	if (v[PFW_I_BYTES] != in[PFW_I_BYTES])
		pfw_annot_int(w, PFW_BYTES_NUM, v[PFW_I_BYTES]);
	if (v[PFW_I_MAJFLT] != in[PFW_I_MAJFLT])
		pfw_annot_int(w, PFW_MAJFLT, v[PFW_I_MAJFLT]);
	if (v[PFW_I_NVCSW] != in[PFW_I_NVCSW])
		pfw_annot_int(w, PFW_NVCSW, v[PFW_I_NVCSW]);
	if (v[PFW_I_NIVCSW] != in[PFW_I_NIVCSW])
		pfw_annot_int(w, PFW_NIVCSW, v[PFW_I_NIVCSW]);
	if (s->frame_id > 0 && (size_t)s->frame_id < w->nnames && w->signed_[s->frame_id])
		pfw_annot_frame(w, PFW_SIGNATURE, s->frame_id);
}

/* A slice's SLICE_BEGIN; the ends of the slices it follows on its track
 * come first. A thread's first slice starts its sequence. */
static int begin_slice(struct bt_perfetto *w, const struct bt_slice *s, int64_t *tid, struct bt_err *err)
{
	struct pfw_open *o;
	struct pfw_edge *e;
	int64_t v[PFW__NINHERIT];
	int first = s->tid != *tid || !w->seq.id;

	if (first) {
		struct pfw_track *t = track_of(w, s->tid);
		if (end_thread(w, err) || (!t->described && describe_thread(w, t, err)) ||
		    pfw_seq_start(w, PFW_THREAD_UUID(s->tid), s->ts, err))
			return err->code;
		*tid = s->tid;
	}
	while ((int64_t)w->nopen > s->depth)
		if (end_slice(w, err))
			return err->code;
	values(s, v);
	pfw_event(w, PB_SLICE_BEGIN);
	pfw_event_frame(w, s->frame_id);
	pfw_event_category(w, s->type);
	slice_annots(w, s, w->nopen ? &w->open[w->nopen - 1] : NULL, v, first);
	if ((e = edge_at(w, s->tid, s->ts)) != NULL) {
		e->used = 1;
		wait_annots(w, e);
		bt_pbw_fixed64(&w->ev, PB_EVENT_TERMINATING_FLOW_IDS, (uint64_t)e->id);
	}
	BT_GROW(w->open, w->nopen + 1, w->ocap);
	o = &w->open[w->nopen++];
	memset(o, 0, sizeof *o);
	o->ts = s->ts;
	o->end = s->ts + s->dur;
	o->dur = s->dur;
	o->cpu = s->cpu_dur;
	o->self_dur = s->self_dur;
	o->self_cpu = s->self_cpu_dur;
	o->block = s->block_dur;
	o->msg = s->msg_id;
	memcpy(o->v, v, sizeof o->v);
	return pfw_event_put(w, s->ts, err);
}

static int slices(struct bt_perfetto *w, const struct bt_slicelog *log, struct bt_err *err)
{
	struct bt_slicelog_reader *r = bt_slicelog_reader_new(log);
	struct bt_slice s;
	int64_t tid = 0;
	int rc;

	while ((rc = bt_slicelog_reader_next(r, &s, err)) == 1)
		if (begin_slice(w, &s, &tid, err))
			break;
	bt_slicelog_reader_free(r);
	if (rc != 0)
		return err->code;
	return end_thread(w, err);
}

/* An instant on tid's track at ts: a waker's, starting the flow of wait e
 * (waker), or e's own, ending it (linked) or standing alone. */
static int instant(struct bt_perfetto *w, int64_t tid, int64_t ts, const char *name, const struct pfw_edge *e,
		   int waker, struct bt_err *err)
{
	struct pfw_track *t = track_of(w, tid);

	if (!t->described && describe_thread(w, t, err))
		return err->code;
	pfw_event(w, PB_INSTANT);
	bt_pbw_varint(&w->ev, PB_EVENT_TRACK_UUID, PFW_THREAD_UUID(tid));
	pfw_event_name(w, name);
	if (!waker)
		wait_annots(w, e);
	else if (e->waker_frame > 0)
		pfw_annot_frame(w, PFW_WAKER_METHOD, e->waker_frame);
	if (e->linked)
		bt_pbw_fixed64(&w->ev, waker ? PB_EVENT_FLOW_IDS : PB_EVENT_TERMINATING_FLOW_IDS, (uint64_t)e->id);
	return pfw_event_put(w, ts, err);
}

/* Each waker's instant starts a flow; a wait no slice began at gets an
 * instant of its own to end it, and a wait no one is known to have ended
 * one that stands alone. Instants are a sequence of their own. */
static int flows(struct bt_perfetto *w, struct bt_err *err)
{
	char name[64];
	size_t i;

	if (w->nedges && pfw_seq_start(w, 0, 0, err))
		return err->code;
	for (i = 0; i < w->nedges; i++) {
		const struct pfw_edge *e = &w->edges[i];
		snprintf(name, sizeof name, "wakes %s wait of %lld", e->kind, (long long)e->waiter_tid);
		if (e->linked && instant(w, e->waker_tid, e->waker_ts, name, e, 1, err))
			return err->code;
		if (!e->used && instant(w, e->waiter_tid, e->ts, e->kind, e, 0, err))
			return err->code;
	}
	return BT_OK;
}

/* The process and the threads of the threads table. */
static int process_tree(struct bt_perfetto *w, struct bt_err *err)
{
	struct bt_pbw *o = &w->out;
	size_t i;

	pfw_packet_open(w);
	bt_pbw_open(o, PB_PACKET_PROCESS_TREE);
	bt_pbw_open(o, PB_TREE_PROCESSES);
	bt_pbw_varint(o, PB_TREE_PROCESS_PID, (uint64_t)(int64_t)(int32_t)w->pid);
	bt_pbw_str(o, PB_TREE_PROCESS_CMDLINE, w->process);
	bt_pbw_close(o);
	for (i = 0; i < w->nothers; i++) {
		bt_pbw_open(o, PB_TREE_PROCESSES);
		bt_pbw_varint(o, PB_TREE_PROCESS_PID, (uint64_t)(int64_t)(int32_t)w->others[i].pid);
		if (w->others[i].name)
			bt_pbw_str(o, PB_TREE_PROCESS_CMDLINE, w->others[i].name);
		bt_pbw_close(o);
	}
	for (i = 0; i < w->ntracks; i++) {
		const struct pfw_track *t = &w->tracks[i];
		if (!t->name)
			continue;
		bt_pbw_open(o, PB_TREE_THREADS);
		bt_pbw_varint(o, PB_TREE_THREAD_TID, (uint64_t)(int64_t)(int32_t)t->tid);
		bt_pbw_str(o, PB_TREE_THREAD_NAME, t->name);
		bt_pbw_varint(o, PB_TREE_THREAD_TGID, (uint64_t)(int64_t)(int32_t)(t->pid ? t->pid : w->pid));
		bt_pbw_close(o);
	}
	bt_pbw_close(o);
	return pfw_packet_done(w, err);
}

/* pid and process name: meta's, else the main thread's name. */
static int process_facts(struct bt_db *db, struct bt_perfetto *w, int first_is_main, struct bt_err *err)
{
	if (bt_db_meta_int(db, "pid", 0, &w->pid, err) ||
	    bt_db_meta_text(db, "process_name", w->process, sizeof w->process, err))
		return err->code;
	if (!w->process[0] && first_is_main)
		snprintf(w->process, sizeof w->process, "%s", w->tracks[0].name);
	if (!w->process[0])
		snprintf(w->process, sizeof w->process, "pid %lld", (long long)w->pid);
	return BT_OK;
}

/* What each frame's slices show: the short name, and whether the full
 * one differs (then it goes along as "signature"). */
static void shown_names(struct bt_perfetto *w, const struct bt_namer *namer)
{
	size_t i, n = w->nnames ? w->nnames : 1;

	w->shown = bt_xcalloc(n, sizeof *w->shown);
	w->signed_ = bt_xcalloc(n, 1);
	w->name_gen = bt_xcalloc(n, sizeof *w->name_gen);
	w->name_iid = bt_xcalloc(n, sizeof *w->name_iid);
	w->str_gen = bt_xcalloc(n, sizeof *w->str_gen);
	w->str_iid = bt_xcalloc(n, sizeof *w->str_iid);
	for (i = 0; i < w->nnames; i++)
		if (w->names[i]) {
			w->shown[i] = bt_namer_get(namer, w->names[i]);
			w->signed_[i] = strcmp(w->shown[i], w->names[i]) != 0;
		}
}

struct bt_perfetto *bt_perfetto_new(void)
{
	struct bt_perfetto *w = bt_xcalloc(1, sizeof *w);

	bt_map64_init(&w->tmap, 64);
	bt_map64_init(&w->bytes_text, 256);
	return w;
}

void bt_perfetto_free(struct bt_perfetto *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->ntracks; i++)
		free(w->tracks[i].name);
	free(w->tracks);
	for (i = 0; i < w->nothers; i++)
		free(w->others[i].name);
	free(w->others);
	free(w->open);
	for (i = 0; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	free(w->shown);
	free(w->signed_);
	free(w->name_gen);
	free(w->name_iid);
	free(w->str_gen);
	free(w->str_iid);
	for (i = 0; i < PFW_NTYPES; i++)
		free(w->types[i]);
	free(w->edges);
	free(w->text);
	bt_map64_release(&w->bytes_text);
	pfw_seq_release(&w->seq);
	bt_pbw_release(&w->out);
	bt_pbw_release(&w->ev);
	bt_pbw_release(&w->in);
	bt_map64_release(&w->tmap);
	free(w);
}

int bt_perfetto_load(struct bt_perfetto *w, struct bt_db *db, struct bt_err *err)
{
	int first_is_main = 0, rc = load_threads(db, w, &first_is_main, err);

	if (!rc)
		rc = process_facts(db, w, first_is_main, err);
	if (!rc)
		rc = load_processes(db, w, err);
	if (!rc)
		rc = load_names(db, w, err);
	if (!rc)
		rc = load_edges(db, w, err);
	return rc;
}

int bt_perfetto_write(struct bt_perfetto *w, const struct bt_slicelog *log, const struct bt_namer *names,
		      FILE *fp, struct bt_err *err)
{
	int rc;

	w->fp = fp;
	shown_names(w, names);
	rc = describe(w, err);
	if (!rc)
		rc = slices(w, log, err);
	if (!rc)
		rc = flows(w, err);
	if (!rc)
		rc = process_tree(w, err);
	if (!rc)
		rc = pfw_flush(w, err);
	return rc;
}

static int write_export(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	return bt_perfetto_write(x->perfetto, x->slices, x->names, out, err);
}

const struct bt_exporter bt_exp_perfetto = { "perfetto", NULL, BT_NEED_SLICES | BT_NEED_PERFETTO, write_export };
