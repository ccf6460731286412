/*
 * Perfetto export (see perfetto.h). Each TracePacket is packed on its own
 * and written as one `packet` field of Trace (0x0A, length, bytes), so the
 * file is a valid Trace however many slices there are. The layout follows
 * upstream's converter (format spec §10), minus its quirks: the process
 * track gets a real uuid (not 0, Q-6) and thread names no newline.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "gen/perfetto_trace.pb-c.h"
#include "reports/export/perfetto.h"
#include "reports/export/slice_log.h"
#include "reports/report.h"
#include "reports/report.h"

typedef Perfetto__Protos__TracePacket Packet;
typedef Perfetto__Protos__TrackEvent Event;
typedef Perfetto__Protos__DebugAnnotation Annot;

#define PROCESS_UUID 1
#define THREAD_UUID(tid) ((uint64_t)0x100000000ULL + (uint64_t)(tid))
#define SEQ_ID 1
#define MAX_ANNOTS 24
#define NTYPES 256                /* record types: Android's below 32, iOS's from 101 */

/* A thread's track and its open slices' end times, by depth. */
struct track {
	int64_t tid;
	char *name;                 /* from the threads table; NULL for a thread only slices name */
	int described;
	int64_t *ends;
	size_t n, cap;
};

struct edge {
	int64_t id, waiter_tid, ts, waker_tid, waker_ts, dur;
	char kind[16];
	int used;
};

#define OUT_BUF (1u << 20)

struct bt_perfetto {
	struct bt_slice_log *log;   /* the run's slices */
	FILE *fp;
	uint8_t *out;               /* packets not yet written, OUT_BUF bytes */
	size_t nout;
	uint8_t *buf;               /* one packed packet */
	size_t cap;
	int first;                  /* no packet written yet */
	int64_t pid;
	char process[256];
	struct track *tracks;       /* by index in tmap */
	size_t ntracks, tcap;
	struct bt_map64 tmap;       /* tid -> index + 1 */
	char **names;               /* frame names by id */
	size_t nnames;
	char *types[NTYPES];        /* record type names by type */
	struct edge *edges;         /* sorted by waiter, ts */
	size_t nedges;
};

static int flush_out(struct bt_perfetto *w, struct bt_err *err)
{
	if (w->nout && fwrite(w->out, 1, w->nout, w->fp) != w->nout)
		return bt_err_set(err, BT_EIO, "cannot write the Perfetto trace: %s", strerror(errno));
	w->nout = 0;
	return BT_OK;
}

static int emit(struct bt_perfetto *w, const uint8_t *b, size_t n, struct bt_err *err)
{
	if (w->nout + n > OUT_BUF && flush_out(w, err))
		return err->code;
	if (n > OUT_BUF)
		return fwrite(b, 1, n, w->fp) == n ? BT_OK
			: bt_err_set(err, BT_EIO, "cannot write the Perfetto trace: %s", strerror(errno));
	memcpy(w->out + w->nout, b, n);
	w->nout += n;
	return BT_OK;
}

/* Append one packet as Trace.packet (field 1, length-delimited). */
static int put(struct bt_perfetto *w, Packet *p, struct bt_err *err)
{
	uint8_t hdr[11];
	size_t len, h = 0;
	uint64_t v;

	p->has_trusted_packet_sequence_id = p->has_timestamp;
	p->trusted_packet_sequence_id = SEQ_ID;
	if (w->first && p->has_timestamp) {
		p->has_sequence_flags = 1;   /* SEQ_INCREMENTAL_STATE_CLEARED: nothing interned */
		p->sequence_flags = 1;
		w->first = 0;
	}
	len = perfetto__protos__trace_packet__get_packed_size(p);
	BT_GROW(w->buf, len, w->cap);
	perfetto__protos__trace_packet__pack(p, w->buf);
	hdr[h++] = 0x0A;
	for (v = len; v >= 0x80; v >>= 7)
		hdr[h++] = (uint8_t)(v | 0x80);
	hdr[h++] = (uint8_t)v;
	if (emit(w, hdr, h, err) || emit(w, w->buf, len, err))
		return err->code;
	return BT_OK;
}

static struct track *track_of(struct bt_perfetto *w, int64_t tid)
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

static int describe_thread(struct bt_perfetto *w, struct track *t, struct bt_err *err)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	const char *name = t->name;
	char fallback[32];

	if (!name) {
		snprintf(fallback, sizeof fallback, "Thread-%lld", (long long)t->tid);
		name = fallback;
	}
	t->described = 1;
	d.has_uuid = d.has_parent_uuid = d.has_disallow_merging_with_system_tracks = 1;
	d.uuid = THREAD_UUID(t->tid);
	d.parent_uuid = PROCESS_UUID;
	d.disallow_merging_with_system_tracks = 1;
	d.name = (char *)name;
	th.has_pid = th.has_tid = 1;
	th.pid = (int32_t)w->pid;
	th.tid = (int32_t)t->tid;
	th.thread_name = (char *)name;
	d.thread = &th;
	p.track_descriptor = &d;
	return put(w, &p, err);
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
		struct track *t = track_of(w, bt_rows_int(r, 0));
		if (!t->name)
			t->name = bt_xstrdup(bt_rows_text(r, 1, NULL));
		if (w->ntracks == 1)
			*first_is_main = bt_rows_int(r, 2) != 0;
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int describe(struct bt_perfetto *w, struct bt_err *err)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	size_t i;

	d.has_uuid = 1;
	d.uuid = PROCESS_UUID;
	d.name = w->process;
	pd.has_pid = 1;
	pd.pid = (int32_t)w->pid;
	pd.process_name = w->process;
	d.process = &pd;
	p.track_descriptor = &d;
	if (put(w, &p, err))
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
		if (id < 0 && -id < NTYPES) {
			w->types[-id] = bt_xstrdup(name);
		} else if (id > 0 && id < INT32_MAX) {
			if ((size_t)id >= cap) {
				size_t old = cap;
				BT_GROW(w->names, (size_t)id + 1, cap);
				memset(w->names + old, 0, (cap - old) * sizeof *w->names);
			}
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
		struct edge *e;
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
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* The first unused edge ending at a wait of tid that began at ts. */
static struct edge *edge_at(struct bt_perfetto *w, int64_t tid, int64_t ts)
{
	size_t lo = 0, hi = w->nedges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct edge *e = &w->edges[mid];
		if (e->waiter_tid < tid || (e->waiter_tid == tid && e->ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->nedges && w->edges[lo].waiter_tid == tid && w->edges[lo].ts == ts; lo++)
		if (!w->edges[lo].used)
			return &w->edges[lo];
	return NULL;
}

static int end_slice(struct bt_perfetto *w, struct track *t, struct bt_err *err)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Event ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	ev.has_type = ev.has_track_uuid = 1;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END;
	ev.track_uuid = THREAD_UUID(t->tid);
	p.has_timestamp = 1;
	p.timestamp = (uint64_t)t->ends[--t->n];
	p.track_event = &ev;
	return put(w, &p, err);
}

/* The byte count for people, as every report writes it (binary units;
 * upstream wrote "25.04 MB" for 1024^2 bytes); AllocatedBytesNum keeps the
 * number. */
static void human_bytes(int64_t n, char *buf, size_t len)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_format_bytes((double)n, &b);
	snprintf(buf, len, "%s", b.buf ? b.buf : "0 B");
	bt_buf_release(&b);
}

struct annots {
	Annot a[MAX_ANNOTS];
	Annot *p[MAX_ANNOTS];
	size_t n;
};

/* The next annotation, named, its value for the caller to set. */
static Annot *annot(struct annots *s, const char *name)
{
	Annot *a = &s->a[s->n];

	perfetto__protos__debug_annotation__init(a);
	a->name = (char *)name;
	s->p[s->n++] = a;
	return a;
}

static void add_int(struct annots *s, const char *name, int64_t v)
{
	Annot *a = annot(s, name);

	a->has_int_value = 1;
	a->int_value = v;
}

/* A duration in ns as upstream's double milliseconds. */
static void add_ms(struct annots *s, const char *name, int64_t ns)
{
	Annot *a = annot(s, name);

	a->has_double_value = 1;
	a->double_value = (double)ns / 1e6;
}

static void add_str(struct annots *s, const char *name, const char *v)
{
	annot(s, name)->string_value = (char *)v;
}

/* A slice's SLICE_BEGIN; the ends of the slices it follows on its track
 * come first. type < 0 and wakeup_tid 0 are none (NULL when stored). */
static int begin_slice(struct bt_perfetto *w, const struct bt_slice *s, struct bt_err *err)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Event ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	struct annots an;
	struct track *t = track_of(w, s->tid);
	int64_t depth = s->depth, ts = s->ts, frame = s->frame_id;
	int64_t type = s->type, end = ts + s->dur;
	char bytes[32], unknown[32];
	struct edge *e;
	uint64_t flow;

	if (!t->described && describe_thread(w, t, err))
		return err->code;
	while (t->n > 0 && (int64_t)t->n > depth)
		if (end_slice(w, t, err))
			return err->code;
	an.n = 0;
	if (s->wakeup_tid)
		add_int(&an, "WakeUpBy", s->wakeup_tid);
	add_ms(&an, "BlockTime", s->block_dur);
	add_ms(&an, "CPUTime", s->cpu_dur);
	add_int(&an, "Count", s->sample_count);
	add_ms(&an, "Gap", s->gap_dur);
	add_ms(&an, "Gap.CPU", s->gap_cpu_dur);
	add_ms(&an, "SelfTime", s->self_dur);
	add_ms(&an, "SelfCpuTime", s->self_cpu_dur);
	if (s->idle)
		add_int(&an, "Idle", 1);   /* only there: other policies' exports stay as they were */
	if (type >= 0)
		add_str(&an, "Type", type > 0 && type < NTYPES && w->types[type] ? w->types[type]
				     : (snprintf(unknown, sizeof unknown, "%lld", (long long)type), unknown));
	add_int(&an, "MessageId", s->msg_id);
	add_int(&an, "AllocatedObjects", s->alloc_objects);
	human_bytes(s->alloc_bytes, bytes, sizeof bytes);
	add_str(&an, "AllocatedBytes", bytes);
	add_int(&an, "AllocatedBytesNum", s->alloc_bytes);
	add_int(&an, "MajFlt", s->majflt);
	add_int(&an, "NvCsw", s->nvcsw);
	add_int(&an, "NivCsw", s->nivcsw);
	add_ms(&an, "_Begin", ts);
	add_ms(&an, "_End", end);
	if ((e = edge_at(w, t->tid, ts)) != NULL)   /* the wait's own length: the arrow ends on its
						     * record's outermost slice, which may be longer */
		add_ms(&an, "WaitTime", e->dur);
	ev.has_type = ev.has_track_uuid = 1;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN;
	ev.track_uuid = THREAD_UUID(t->tid);
	ev.name = frame > 0 && (size_t)frame < w->nnames && w->names[frame] ? w->names[frame] : (char *)"?";
	ev.n_debug_annotations = an.n;
	ev.debug_annotations = an.p;
	if (e) {
		e->used = 1;
		flow = (uint64_t)e->id;
		ev.n_terminating_flow_ids = 1;
		ev.terminating_flow_ids = &flow;
	}
	p.has_timestamp = 1;
	p.timestamp = (uint64_t)ts;
	p.track_event = &ev;
	BT_GROW(t->ends, t->n + 1, t->cap);
	t->ends[t->n++] = end;
	return put(w, &p, err);
}

static int slices(struct bt_perfetto *w, struct bt_err *err)
{
	struct bt_slice s;
	size_t i;
	int rc;

	if (bt_slice_log_seal(w->log, err))
		return err->code;
	while ((rc = bt_slice_log_next(w->log, &s, err)) == 1)
		if (begin_slice(w, &s, err))
			return err->code;
	if (rc < 0)
		return err->code;
	for (i = 0; i < w->ntracks; i++)
		while (w->tracks[i].n)
			if (end_slice(w, &w->tracks[i], err))
				return err->code;
	return BT_OK;
}

/* An instant on tid's track at ts, starting or ending flow id; an ending
 * one carries the length of the wait it stands for (wait >= 0). */
static int instant(struct bt_perfetto *w, int64_t tid, int64_t ts, const char *name, uint64_t id,
		   int terminating, int64_t wait, struct bt_err *err)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Event ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	struct track *t = track_of(w, tid);
	struct annots an;

	if (!t->described && describe_thread(w, t, err))
		return err->code;
	ev.has_type = ev.has_track_uuid = 1;
	ev.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	ev.track_uuid = THREAD_UUID(tid);
	ev.name = (char *)name;
	an.n = 0;
	if (terminating) {
		ev.n_terminating_flow_ids = 1;
		ev.terminating_flow_ids = &id;
		if (wait >= 0) {
			add_ms(&an, "WaitTime", wait);
			ev.n_debug_annotations = an.n;
			ev.debug_annotations = an.p;
		}
	} else {
		ev.n_flow_ids = 1;
		ev.flow_ids = &id;
	}
	p.has_timestamp = 1;
	p.timestamp = (uint64_t)ts;
	p.track_event = &ev;
	return put(w, &p, err);
}

/* Each waker's instant starts a flow; a wait no slice began at gets an
 * instant of its own to end it. */
static int flows(struct bt_perfetto *w, struct bt_err *err)
{
	char name[64];
	size_t i;

	for (i = 0; i < w->nedges; i++) {
		const struct edge *e = &w->edges[i];
		snprintf(name, sizeof name, "wakes %s wait of %lld", e->kind, (long long)e->waiter_tid);
		if (instant(w, e->waker_tid, e->waker_ts, name, (uint64_t)e->id, 0, -1, err))
			return err->code;
		if (!e->used && instant(w, e->waiter_tid, e->ts, e->kind, (uint64_t)e->id, 1, e->dur, err))
			return err->code;
	}
	return BT_OK;
}

/* The process and the threads of the threads table. */
static int process_tree(struct bt_perfetto *w, struct bt_err *err)
{
	Packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__ProcessTree tree = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Process proc = PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT;
	Perfetto__Protos__ProcessTree__Process *procs[1] = { &proc };
	Perfetto__Protos__ProcessTree__Thread *th = bt_xcalloc(w->ntracks + 1, sizeof *th);
	Perfetto__Protos__ProcessTree__Thread **thp = bt_xcalloc(w->ntracks + 1, sizeof *thp);
	char *cmdline[1] = { w->process };
	size_t n = 0, i;
	int rc;

	proc.has_pid = 1;
	proc.pid = (int32_t)w->pid;
	proc.n_cmdline = 1;
	proc.cmdline = cmdline;
	for (i = 0; i < w->ntracks; i++) {
		if (!w->tracks[i].name)
			continue;
		perfetto__protos__process_tree__thread__init(&th[n]);
		th[n].has_tid = th[n].has_tgid = 1;
		th[n].tid = (int32_t)w->tracks[i].tid;
		th[n].tgid = (int32_t)w->pid;
		th[n].name = w->tracks[i].name;
		thp[n] = &th[n];
		n++;
	}
	tree.n_processes = 1;
	tree.processes = procs;
	tree.n_threads = n;
	tree.threads = thp;
	p.process_tree = &tree;
	rc = put(w, &p, err);
	free(th);
	free(thp);
	return rc;
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

static int tap_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	struct bt_perfetto *w = ctx;

	return bt_slice_log_add(w->log, part, s, err);
}

struct bt_perfetto *bt_perfetto_new(void)
{
	struct bt_perfetto *w = bt_xcalloc(1, sizeof *w);

	w->first = 1;
	w->log = bt_slice_log_new();
	bt_map64_init(&w->tmap, 64);
	return w;
}

struct bt_slice_tap bt_perfetto_tap(struct bt_perfetto *x)
{
	struct bt_slice_tap t = { NULL, tap_slice, NULL, x };

	return t;
}

void bt_perfetto_free(struct bt_perfetto *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->ntracks; i++) {
		free(w->tracks[i].ends);
		free(w->tracks[i].name);
	}
	free(w->tracks);
	for (i = 0; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	for (i = 0; i < NTYPES; i++)
		free(w->types[i]);
	free(w->edges);
	free(w->buf);
	free(w->out);
	bt_map64_release(&w->tmap);
	bt_slice_log_free(w->log);
	free(w);
}

int bt_perfetto_load(struct bt_perfetto *w, struct bt_db *db, struct bt_err *err)
{
	int first_is_main = 0, rc = load_threads(db, w, &first_is_main, err);

	if (!rc)
		rc = process_facts(db, w, first_is_main, err);
	if (!rc)
		rc = load_names(db, w, err);
	if (!rc)
		rc = load_edges(db, w, err);
	return rc;
}

int bt_perfetto_write(struct bt_perfetto *w, FILE *fp, struct bt_err *err)
{
	int rc;

	w->fp = fp;
	w->out = bt_xmalloc(OUT_BUF);
	w->nout = 0;
	rc = describe(w, err);
	if (!rc)
		rc = slices(w, err);
	if (!rc)
		rc = flows(w, err);
	if (!rc)
		rc = process_tree(w, err);
	if (!rc)
		rc = flush_out(w, err);
	return rc;
}

static int write_export(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	return bt_perfetto_write(x->perfetto, out, err);
}

const struct bt_exporter bt_exp_perfetto = { "perfetto", NULL, BT_NEED_SLICES, write_export };
