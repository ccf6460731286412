/*
 * One TracePacket at a time (perfetto-subset.md §2-§4): descriptors and
 * the process tree tell which thread a track is; sequences carry interned
 * names, default tracks and clocks of their own (an incremental one's
 * timestamps are deltas); track events and atrace prints are spilled
 * (pf_spill.c) with the thread they happened on, for pf_pair.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"

/* Legacy ThreadDescriptor sequences get a track of their own, keyed so
 * that no real uuid is likely to collide. */
#define LEGACY_UUID(tid) (0xB7AC000000000000ULL | (uint32_t)(tid))

/* The key events of a track are ordered under: the thread's tid, else
 * minus the track's index + 1. */
static int64_t track_key(const struct pf *p, const struct pf_track *t)
{
	return t->tid > 0 ? t->tid : -(int64_t)(t - p->tracks) - 1;
}

struct pf_track *pf_track_add(struct pf *p, uint64_t uuid)
{
	struct pf_track *t;

	BT_GROW(p->tracks, p->ntracks + 1, p->tcap);
	t = &p->tracks[p->ntracks++];
	memset(t, 0, sizeof *t);
	t->uuid = uuid;
	bt_map64_put(&p->track_of, uuid, (uint32_t)p->ntracks);
	return t;
}

struct pf_track *pf_track_get(struct pf *p, uint64_t uuid)
{
	uint32_t i = bt_map64_get(&p->track_of, uuid);

	return i ? &p->tracks[i - 1] : NULL;
}

/* By a map: a hostile trace may name a new sequence in every packet. */
static struct pf_seq *seq_get(struct pf *p, uint32_t id)
{
	uint32_t i = bt_map64_get(&p->seq_of, id);
	struct pf_seq *q;

	if (i)
		return &p->seqs[i - 1];
	BT_GROW(p->seqs, p->nseqs + 1, p->scap);
	q = &p->seqs[p->nseqs++];
	memset(q, 0, sizeof *q);
	bt_map64_put(&p->seq_of, id, (uint32_t)p->nseqs);
	return q;
}

/* The interning maps, made when a sequence first interns (most never do). */
static void seq_release(struct pf_seq *q)
{
	if (!q->interned)
		return;
	bt_map64_release(&q->names);
	bt_map64_release(&q->ann_names);
	bt_map64_release(&q->strings);
	bt_map64_release(&q->cats);
	q->interned = 0;
}

/* Incremental state starts afresh; the clocks' times go on (a snapshot
 * sets them again). */
static void seq_clear(struct pf_seq *q)
{
	seq_release(q);
	q->plen = 0;
	q->has_track = 0;
	q->clock_id = 0;
	q->legacy_tid = 0;
	q->cleared = 1;
	q->gen++;
}

static void seq_put(struct pf_seq *q, struct bt_map64 *m, uint64_t iid, const char *s, size_t len)
{
	if (!iid || !s)
		return;
	BT_GROW(q->pool, q->plen + len + 1, q->pcap);
	memcpy(q->pool + q->plen, s, len);
	q->pool[q->plen + len] = '\0';
	bt_map64_put(m, iid, (uint32_t)q->plen + 1);
	q->plen += len + 1;
}

static const char *seq_str(const struct pf_seq *q, const struct bt_map64 *m, uint64_t iid)
{
	uint32_t at = q->interned ? bt_map64_get(m, iid) : 0;

	return at ? q->pool + at - 1 : NULL;
}

static void intern(struct pf_seq *q, const Perfetto__Protos__InternedData *d)
{
	size_t i;

	if (!q->interned) {
		bt_map64_init(&q->names, 16);
		bt_map64_init(&q->ann_names, 16);
		bt_map64_init(&q->strings, 16);
		bt_map64_init(&q->cats, 16);
		q->interned = 1;
	}
	for (i = 0; i < d->n_event_categories; i++)
		if (d->event_categories[i]->name)
			seq_put(q, &q->cats, d->event_categories[i]->iid, d->event_categories[i]->name,
				strlen(d->event_categories[i]->name));

	for (i = 0; i < d->n_event_names; i++)
		if (d->event_names[i]->name)
			seq_put(q, &q->names, d->event_names[i]->iid, d->event_names[i]->name,
				strlen(d->event_names[i]->name));
	for (i = 0; i < d->n_debug_annotation_names; i++)
		if (d->debug_annotation_names[i]->name)
			seq_put(q, &q->ann_names, d->debug_annotation_names[i]->iid,
				d->debug_annotation_names[i]->name, strlen(d->debug_annotation_names[i]->name));
	for (i = 0; i < d->n_debug_annotation_string_values; i++) {
		const Perfetto__Protos__InternedString *s = d->debug_annotation_string_values[i];
		if (s->has_str)
			seq_put(q, &q->strings, s->iid, (const char *)s->str.data, s->str.len);
	}
}

static struct pf_clock *seq_clock(struct pf_seq *q, uint32_t id)
{
	int i;

	for (i = 0; i < q->nclocks; i++)
		if (q->clocks[i].id == id)
			return &q->clocks[i];
	return NULL;
}

/* A ClockSnapshot on q sets its sequence-scoped clocks (64-127), each tied
 * to the snapshot's BOOTTIME (the dump's clock), else to its first builtin
 * clock, else to none (its times taken as they are). */
static void snapshot(struct pf *p, struct pf_seq *q, const Perfetto__Protos__ClockSnapshot *s, uint64_t off)
{
	int64_t ref = 0;
	int has_ref = 0;
	size_t i;

	for (i = 0; i < s->n_clocks; i++) {
		const Perfetto__Protos__ClockSnapshot__Clock *c = s->clocks[i];
		if (c->has_clock_id && c->has_timestamp && c->clock_id && c->clock_id < 64 &&
		    c->timestamp < (uint64_t)BT_MAX_TIME_NS && (!has_ref || (c->clock_id == 6 && has_ref < 2))) {
			ref = (int64_t)c->timestamp;
			has_ref = c->clock_id == 6 ? 2 : 1;
		}
	}
	for (i = 0; i < s->n_clocks; i++) {
		const Perfetto__Protos__ClockSnapshot__Clock *c = s->clocks[i];
		uint64_t mult = c->has_unit_multiplier_ns && c->unit_multiplier_ns ? c->unit_multiplier_ns : 1;
		struct pf_clock *k;
		if (!c->has_clock_id || c->clock_id < 64 || c->clock_id > 127 || !c->has_timestamp)
			continue;
		if (mult >= (uint64_t)BT_MAX_TIME_NS || c->timestamp >= (uint64_t)BT_MAX_TIME_NS / mult) {
			bt_diag_warn(p->diag, "perfetto_clock", "a clock snapshot of '%s' at byte offset %llu puts clock %u beyond 2^62 ns; ignored",
				     p->path, (unsigned long long)off, c->clock_id);
			continue;
		}
		if (!(k = seq_clock(q, c->clock_id))) {
			if (q->nclocks == PF_SEQ_CLOCKS) {
				bt_diag_warn(p->diag, "perfetto_clock", "a sequence of '%s' has more than %d clocks of its own (byte offset %llu); the rest are ignored",
					     p->path, PF_SEQ_CLOCKS, (unsigned long long)off);
				continue;
			}
			k = &q->clocks[q->nclocks++];
		}
		k->id = c->clock_id;
		k->incremental = c->has_is_incremental && c->is_incremental;
		k->mult = (int64_t)mult;
		k->now = (int64_t)(c->timestamp * mult);
		k->offset = has_ref ? ref - k->now : 0;
	}
}

/* The packet's time on the trace clock: its timestamp, or, on a clock of
 * its sequence, that clock's time moved by it (an incremental clock's
 * timestamps are deltas: every packet on it moves it). -1: no usable time. */
static int64_t packet_time(struct pf_seq *q, const Perfetto__Protos__TracePacket *pk)
{
	uint32_t id = pk->has_timestamp_clock_id ? pk->timestamp_clock_id : q->clock_id;
	struct pf_clock *c;
	int64_t v;

	if (!pk->has_timestamp)
		return -1;
	if (id < 64 || id > 127)
		return pk->timestamp < (uint64_t)BT_MAX_TIME_NS ? (int64_t)pk->timestamp : -1;
	if (!(c = seq_clock(q, id)) || pk->timestamp >= (uint64_t)(BT_MAX_TIME_NS / c->mult))
		return -1;
	v = (int64_t)pk->timestamp * c->mult;
	if (c->incremental) {
		if (v >= BT_MAX_TIME_NS - c->now)
			return -1;
		v = c->now += v;
	}
	v += c->offset;
	return v >= 0 && v < BT_MAX_TIME_NS ? v : -1;
}

static void note_thread(struct pf *p, int64_t tid, int64_t pid, const char *name, int kind)
{
	if (tid <= 0)
		return;
	pf_thread_group(p, tid, pid);
	if (name)
		pf_thread_name(p, tid, name, strlen(name), kind, -1);
}

static void note_process(struct pf *p, int64_t pid, const char *name)
{
	if (pid > 0 && name && *name)
		pf_name_put(p, &p->process_name, pid, name, strlen(name));
}

/* A descriptor arrived: events spilled before it learn their thread. */
static int describe(struct pf *p, const Perfetto__Protos__TrackDescriptor *d, struct bt_err *err)
{
	struct pf_track *t;
	const char *name = d->name ? d->name : d->static_name ? d->static_name : d->atrace_name;
	int had = 0;

	if (!d->has_uuid)
		return BT_OK;
	t = pf_track_get(p, d->uuid);
	if (t)
		had = 1;
	else
		t = pf_track_add(p, d->uuid);
	if (d->thread && d->thread->has_tid && d->thread->tid > 0) {
		t->tid = d->thread->tid;
		t->pid = d->thread->has_pid ? d->thread->pid : 0;
		note_thread(p, t->tid, t->pid, d->thread->thread_name ? d->thread->thread_name : name, PF_NAME_OWN);
	} else if (d->process && d->process->has_pid) {
		t->pid = d->process->pid;
		note_process(p, t->pid, d->process->process_name ? d->process->process_name
				  : d->process->n_cmdline ? d->process->cmdline[0] : name);
	}
	if (had && t->pending)   /* its events so far get its key */
		pf_spill_resolve(p, t, track_key(p, t));
	t->pending = 0;
	if (name && (!t->name || strcmp(t->name, name))) {
		free(t->name);
		t->name = bt_xstrdup(name);
	}
	pf_kinds_describe(p, t, d);
	(void)err;
	return BT_OK;
}

static void process_tree(struct pf *p, const Perfetto__Protos__ProcessTree *pt)
{
	size_t i;

	for (i = 0; i < pt->n_processes; i++) {
		const Perfetto__Protos__ProcessTree__Process *x = pt->processes[i];
		if (x->has_pid && x->n_cmdline && !pf_name(p, &p->process_name, x->pid))
			note_process(p, x->pid, x->cmdline[0]);
		if (x->has_pid)
			pf_thread_group(p, x->pid, x->pid);   /* its main thread, which the tree's threads leave out */
	}
	for (i = 0; i < pt->n_threads; i++) {
		const Perfetto__Protos__ProcessTree__Thread *x = pt->threads[i];
		if (x->has_tid)
			note_thread(p, x->tid, x->has_tgid ? x->tgid : 0, x->name, PF_NAME_TREE);
	}
}

/* The annotations in the compact form the spill keeps: a bit mask, then
 * the values of the bits set, in order. */
static size_t pack_args(const struct pf_args *a, unsigned char *buf)
{
	size_t n = 4;
	uint32_t m;

	memcpy(buf, &a->has, 4);
	for (m = a->has; m; m &= m - 1, n += 8)   /* the bits set, lowest first */
		memcpy(buf + n, &a->v[__builtin_ctz(m)], 8);
	return n;
}

static int spill(struct pf *p, int pending, int64_t k, int64_t ts, int kind, int src, uint32_t frame,
		 double v, const struct pf_args *a, struct bt_err *err)
{
	unsigned char buf[4 + 8 * PF__NARGS];
	struct pf_event e;

	e.seq = ++p->seq;
	e.pending = pending;
	e.k = k;
	e.ts = ts;
	e.kind = kind;
	e.src = src;
	e.frame = frame;
	e.v = v;
	e.nargs = a && a->has ? pack_args(a, buf) : 0;
	e.args = buf;
	if (a && a->has & (1u << PF_CPU | 1u << PF_SELF_CPU)) {
		if (!pending && (!p->cpu_put || p->cpu_key != k)) {
			bt_map64_put(&p->cpu_keys, (uint64_t)k, 1);
			p->cpu_key = k;
			p->cpu_put = 1;
		}
		if (pending && p->cpu_track != p->tracks[k].uuid) {   /* its thread known when described */
			p->cpu_track = p->tracks[k].uuid;
			bt_map64_put(&p->cpu_tracks, p->cpu_track, 1);
		}
	}
	if (a)
		p->args_seen |= a->has;
	return pf_spill_event(p, &e, err);
}

static void count_begin(struct pf *p, int64_t pid)
{
	if (pid > 0 && pid < INT32_MAX)
		bt_map64_put(&p->begins, (uint64_t)pid, bt_map64_get(&p->begins, (uint64_t)pid) + 1);
}

/* "S|tgid|name|cookie" and "F|tgid|name|cookie", async slices: only
 * system_server's "launching: PKG" is kept, to choose the app by. */
static void async_print(struct pf *p, int64_t ts, const char *buf, size_t len)
{
	const char *name = memchr(buf + 2, '|', len - 2), *bar = buf + len, *c;
	int64_t cookie = 0;

	if (!name)
		return;
	name++;
	while (bar > name && bar[-1] != '|')
		bar--;
	if (bar-- == name || !pf_is_launch(name, (size_t)(bar - name)))
		return;
	for (c = bar + 1; c < buf + len && *c >= '0' && *c <= '9' && cookie < INT32_MAX; c++)
		cookie = cookie * 10 + (*c - '0');
	if (buf[0] == 'S')
		pf_launch_begin(p, name, (size_t)(bar - name), ts, cookie, NULL);
	else
		pf_launch_end(p, name, (size_t)(bar - name), cookie, ts);
}

/* "B|tgid|name", "E|tgid|" or "E" on thread tid (§4.2); S and F (above);
 * others skipped. */
static int atrace(struct pf *p, int64_t tid, int64_t ts, const char *buf, struct bt_err *err)
{
	size_t len = strlen(buf);
	const char *name, *bar;
	int64_t tgid = 0;

	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	if (len >= 1 && buf[0] == 'E' && (len == 1 || buf[1] == '|'))
		return spill(p, 0, tid, ts, PF_EV_END, PF_SRC_ATRACE, 0, 0, NULL, err);
	if (len > 2 && (buf[0] == 'S' || buf[0] == 'F' || buf[0] == 'I') && buf[1] == '|') {
		if (buf[0] != 'I')
			async_print(p, ts, buf, len);
		pf_alaunch_print(p, ts, buf, len);
		return pf_kinds_atrace(p, tid, ts, buf, len, err);
	}
	if (len < 2 || buf[0] != 'B' || buf[1] != '|')
		return pf_kinds_atrace(p, tid, ts, buf, len, err);
	bar = memchr(buf + 2, '|', len - 2);
	if (!bar)
		return BT_OK;
	for (name = buf + 2; name < bar && *name >= '0' && *name <= '9' && tgid < INT32_MAX; name++)
		tgid = tgid * 10 + (*name - '0');
	name = bar + 1;
	if (tgid > 0 && tgid < INT32_MAX) {
		if (!bt_map64_get(&p->tgid_of, (uint64_t)tid))
			bt_map64_put(&p->tgid_of, (uint64_t)tid, (uint32_t)tgid + 1);
		count_begin(p, tgid);
		pf_mark(p, tgid, tid, name, len - (size_t)(name - buf));
	}
	p->flavor_atrace = 1;
	return spill(p, 0, tid, ts, PF_EV_BEGIN, PF_SRC_ATRACE,
		     pf_frame(p, name, len - (size_t)(name - buf)), 0, NULL, err);
}

/* A bundle's prints and threads' names now (comms: its compact sched's,
 * found already, or NULL); its scheduling once the app is known
 * (pf_later.c: data, len are the packet's bytes). */
static int ftrace(struct pf *p, const Perfetto__Protos__FtraceEventBundle *b, const uint8_t *data, size_t len,
		  const struct pf_comms *comms, struct bt_err *err)
{
	size_t i;

	if (b->compact_sched && comms)
		pf_comms_apply(p, comms);
	else if (b->compact_sched)
		pf_threads_compact(p, b->compact_sched);
	if (pf_later_keep(p, data, len, b, err))
		return err->code;
	for (i = 0; i < b->n_event; i++) {
		const Perfetto__Protos__FtraceEvent *e = b->event[i];
		pf_threads_ftrace(p, e);
		pf_binder_ftrace(p, e);
		if (!e->print)
			pf_kinds_ftrace(p, e);
		if (!e->print || !e->print->buf || !e->has_timestamp || !e->has_pid || !e->pid)
			continue;
		if (e->timestamp >= (uint64_t)BT_MAX_TIME_NS) {   /* the bound of pipeline.h */
			bt_diag_warn(p->diag, "perfetto_bad_timestamp", "an ftrace event of '%s' has a timestamp beyond 2^62 ns; skipped",
				     p->path);
			continue;
		}
		if (atrace(p, e->pid, (int64_t)e->timestamp, e->print->buf, err))
			return err->code;
	}
	return BT_OK;
}

/* A flow's begin (role 0) or end (1) at an instant, or (2) a wait our
 * export says no one is known to have ended: an end or such a wait carries
 * its length (WaitTime) and the frames it waited in, a begin the frame that
 * ended it. */
static int flow(struct pf *p, const struct pf_track *t, uint64_t id, int role, int64_t ts,
		const char *name, const struct pf_args *a, struct bt_err *err)
{
	int64_t wait = role && (a->has >> PF_WAIT_TIME & 1) && a->v[PF_WAIT_TIME] > 0 ? a->v[PF_WAIT_TIME] : 0;
	int k1 = role ? PF_BLOCKED_IN : PF_WAKER_FRAME;
	int64_t f1 = a->has >> k1 & 1 ? a->v[k1] : 0;
	int64_t f2 = role && (a->has >> PF_CALLER & 1) ? a->v[PF_CALLER] : 0;

	if (!t || t->tid <= 0)
		return BT_OK;
	return bt_db_exec(p->db, BT_SQL_SCRATCH_PF_INSERT_FLOW, err, "iiiiitnii", (int64_t)id, (int64_t)role,
			  t->tid, ts, wait, name, f1, f2);
}

/* Our export's string annotations that name frames: the slice's full name
 * (its own name is the short one), and a wait's frames. */
static int frame_annotation(struct pf *p, struct pf_args *a, const char *name, const char *str, const char **sig)
{
	static const struct { const char *key; enum pf_arg arg; } keys[] = {
		{ "blocked_in", PF_BLOCKED_IN }, { "caller", PF_CALLER }, { "waker_method", PF_WAKER_FRAME }
	};
	uint32_t f;
	size_t i;

	if (!name || !str)
		return 0;
	if (name[0] == 's' && !strcmp(name, "signature")) {
		*sig = str;
		return 1;
	}
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (name[0] == keys[i].key[0] && !strcmp(name, keys[i].key)) {
			f = pf_frame(p, str, strlen(str));
			p->frames[f - 1].used = 1;
			a->has |= 1u << keys[i].arg;
			a->v[keys[i].arg] = f;
			return 1;
		}
	return 0;
}

/* What an event's annotations and category say, into a; its signature
 * (the frame's full name, when its own name is short), or NULL. */
static const char *args(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__TrackEvent *ev,
			struct pf_args *a)
{
	const char *sig = NULL, *cat;
	size_t i;

	a->has = 0;   /* a value is read only where its bit is set */
	for (i = 0; i < ev->n_debug_annotations; i++) {
		const Perfetto__Protos__DebugAnnotation *d = ev->debug_annotations[i];
		const char *an = d->name ? d->name : d->has_name_iid ? seq_str(q, &q->ann_names, d->name_iid) : NULL;
		const char *str = d->string_value ? d->string_value
				  : d->has_string_value_iid ? seq_str(q, &q->strings, d->string_value_iid) : NULL;
		if (!frame_annotation(p, a, an, str, &sig))
			pf_annotation(p, a, an, d, str);
	}
	cat = ev->n_categories ? ev->categories[0]
	      : ev->n_category_iids ? seq_str(q, &q->cats, ev->category_iids[0]) : NULL;
	if (cat && !(a->has >> PF_TYPE & 1))   /* our export's record type */
		pf_type(p, a, cat);
	return sig;
}

static int track_event(struct pf *p, struct pf_seq *q, const Perfetto__Protos__TracePacket *pk, int64_t ts,
		       uint64_t off, struct bt_err *err)
{
	const Perfetto__Protos__TrackEvent *ev = pk->track_event;
	struct pf_track *t;
	struct pf_args a;
	uint64_t uuid = 0;
	const char *name = ev->name, *sig, *frame;
	int kind = ev->has_type ? (int)ev->type : ev->legacy_event ? pf_kinds_phase(p, ev) : 0;
	double v = 0;
	size_t i;

	if (!kind && !ev->has_type && ev->legacy_event)
		return BT_OK;   /* a legacy phase not imported: counted */
	if (kind < PF_EV_BEGIN || kind > (ev->has_type ? PF_EV_COUNTER : PF_EV_ASYNC_END)) {
		bt_diag_warn(p->diag, "perfetto_event_type", "track events of '%s' with type %d (first at byte offset %llu) are not slices or counters; skipped",
			     p->path, kind, (unsigned long long)off);
		return BT_OK;
	}
	if (ts < 0) {   /* none, on an unknown clock, or beyond pipeline.h's bound */
		bt_diag_warn(p->diag, "perfetto_event_time", "a track event of '%s' at byte offset %llu has no usable timestamp; skipped",
			     p->path, (unsigned long long)off);
		return BT_OK;
	}
	if (pf_kinds_extra(p, q, ev, ts, err))
		return err->code;
	if (ev->has_track_uuid && ev->track_uuid)   /* 0 says none: the sequence's thread, as Perfetto reads it */
		uuid = ev->track_uuid;
	else if (q->has_track)
		uuid = q->track;
	else if (q->legacy_tid)
		uuid = LEGACY_UUID(q->legacy_tid);
	if (ev->legacy_event && ev->legacy_event->has_tid_override && ev->legacy_event->tid_override > 0) {
		uuid = LEGACY_UUID(ev->legacy_event->tid_override);
		if (!pf_track_get(p, uuid)) {
			t = pf_track_add(p, uuid);
			t->tid = ev->legacy_event->tid_override;
			t->pid = ev->legacy_event->has_pid_override ? ev->legacy_event->pid_override : 0;
		}
	}
	t = pf_track_get(p, uuid);
	if (!name && ev->has_name_iid)
		name = seq_str(q, &q->names, ev->name_iid);
	if (!name && ev->legacy_event && ev->legacy_event->has_name_iid)
		name = seq_str(q, &q->names, ev->legacy_event->name_iid);
	if (kind >= PF_EV_ASYNC_BEGIN)
		return pf_kinds_legacy_async(p, t, ev, name, kind, ts, err);
	sig = args(p, q, ev, &a);
	frame = sig ? sig : name;
	for (i = 0; i < ev->n_flow_ids; i++)
		if (flow(p, t, ev->flow_ids[i], 0, ts, name, &a, err))
			return err->code;
	if (ev->n_terminating_flow_ids) {
		if (kind == PF_EV_BEGIN) {
			a.has |= 1u << PF_FLOW_IN;
			a.v[PF_FLOW_IN] = (int64_t)ev->terminating_flow_ids[0];
		} else if (flow(p, t, ev->terminating_flow_ids[0], 1, ts, name, &a, err)) {
			return err->code;
		}
	}
	if (kind == PF_EV_INSTANT && !ev->n_flow_ids && !ev->n_terminating_flow_ids && (a.has >> PF_WAIT_TIME & 1))
		return flow(p, t, 0, 2, ts, name, &a, err);
	if (kind == PF_EV_INSTANT && (ev->n_flow_ids || ev->n_terminating_flow_ids))
		return BT_OK;   /* an arrow's end (our export's wakers): its flows are what count */
	if (kind == PF_EV_COUNTER)
		v = pf_kinds_value(p, q, t, ev->has_double_counter_value ? ev->double_counter_value
					     : (double)ev->counter_value);
	if (kind == PF_EV_COUNTER && !(fabs(v) < (double)BT_MAX_COUNTER)) {   /* NaN too */
		bt_diag_warn(p->diag, "perfetto_counter_range", "a counter value of '%s' at byte offset %llu is not a number below 2^53; skipped",
			     p->path, (unsigned long long)off);
		return BT_OK;
	}
	if (kind == PF_EV_BEGIN && t && t->tid > 0) {
		int64_t pid = t->pid > 0 ? t->pid : (int64_t)bt_map64_get(&p->tgid_of, (uint64_t)t->tid) - 1;
		count_begin(p, pid);
		if (name)
			pf_mark(p, pid, t->tid, name, strlen(name));
	}
	if (p->open_launches && kind != PF_EV_COUNTER && kind != PF_EV_INSTANT)
		pf_launch_track(p, uuid, kind, ts);
	if (kind == PF_EV_BEGIN && name && pf_is_launch(name, strlen(name)))
		pf_launch_begin(p, name, strlen(name), ts, 0, &uuid);
	if (kind != PF_EV_COUNTER && (p->open_alaunches || (name && name[0] == 'l')))
		pf_alaunch_event(p, uuid, kind, name, ts);
	if (!t) {
		t = pf_track_add(p, uuid);   /* described later, or never */
		t->pending = 1;
	}
	p->flavor_track = 1;
	if (spill(p, t->pending, t->pending ? (int64_t)(t - p->tracks) : track_key(p, t), ts, kind, PF_SRC_TRACK,
		  kind == PF_EV_BEGIN || kind == PF_EV_INSTANT ? pf_frame(p, frame ? frame : "?", frame ? strlen(frame) : 1)
							      : 0,
		  v, kind == PF_EV_INSTANT ? NULL : &a, err))
		return err->code;
	return kind == PF_EV_BEGIN && ev->legacy_event && !ev->has_type
	       ? pf_kinds_complete(p, ev, !t->pending, track_key(p, t), uuid, ts, err) : BT_OK;
}

/*
 * A packet's messages live in an arena (pf_wire.c): blocks kept from
 * packet to packet, taken back whole when the packet is done, so a packet
 * costs no malloc or free of its own. The usual packets are decoded by
 * hand (pf_wire.c); the rest by protobuf-c, allocating from the same
 * arena. Packets inside compressed_packets nest: each gives back only what
 * was taken after it began. Running out of memory aborts in bt_xmalloc
 * (exit 1), not a "malformed TracePacket".
 */
static void *pb_alloc(void *ctx, size_t n)
{
	return pf_arena_alloc(ctx, n);
}

static void pb_free(void *ctx, void *ptr)
{
	(void)ctx;
	(void)ptr;   /* all of it goes back when the packet is done */
}

/* The packet in the arena: by hand, else by protobuf-c; NULL if malformed. */
static Perfetto__Protos__TracePacket *decode(struct pf *p, const uint8_t *data, size_t len)
{
	ProtobufCAllocator al = { pb_alloc, pb_free, &p->arena };
	size_t cur = p->arena.cur, used = p->arena.used;
	Perfetto__Protos__TracePacket *pk = NULL;

	if (pf_wire_packet(&p->arena, data, len, &pk))
		return pk;
	pf_arena_back(&p->arena, cur, used);
	return perfetto__protos__trace_packet__unpack(&al, len, data);
}

int pf_packet_sched(struct pf *p, const uint8_t *data, size_t len, struct bt_err *err)
{
	Perfetto__Protos__FtraceEventBundle b = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__CompactSched c = PERFETTO__PROTOS__COMPACT_SCHED__INIT;
	size_t cur = p->arena.cur, used = p->arena.used;
	Perfetto__Protos__TracePacket *pk;
	int rc;

	if (pf_wire_sched(&p->arena, data, len, &b, &c)) {   /* the usual: compact sched only */
		rc = pf_sched_bundle(p, &b, err);
	} else {
		pf_arena_back(&p->arena, cur, used);
		pk = decode(p, data, len);
		p->sched_seq = pk && pk->has_trusted_packet_sequence_id ? pk->trusted_packet_sequence_id : 0;
		rc = pk && pk->ftrace_events ? pf_sched_bundle(p, pk->ftrace_events, err) : BT_OK;
	}
	pf_arena_back(&p->arena, cur, used);
	return rc;
}

int pf_packet(struct pf *p, const uint8_t *data, size_t len, uint64_t off, const struct pf_decoded *pre,
	      struct bt_err *err)
{
	size_t cur = p->arena.cur, used = p->arena.used;
	Perfetto__Protos__TracePacket *pk = pre && pre->pk ? pre->pk : decode(p, data, len);
	struct pf_seq *q;
	int64_t ts;
	int rc = BT_OK;

	if (!pk) {
		pf_arena_back(&p->arena, cur, used);
		return bt_err_set(err, BT_EFORMAT, "malformed TracePacket in '%s' at byte offset %llu (%zu bytes)",
				  p->path, (unsigned long long)off, len);
	}
	p->packets++;
	if (pk->base.n_unknown_fields)
		pf_kinds_unknown(p, PF_IN_PACKET, &pk->base);
	q = seq_get(p, pk->has_trusted_packet_sequence_id ? pk->trusted_packet_sequence_id : 0);
	if ((pk->has_sequence_flags && (pk->sequence_flags & 1)) ||
	    (pk->has_incremental_state_cleared && pk->incremental_state_cleared))
		seq_clear(q);
	if (pk->has_sequence_flags && (pk->sequence_flags & 2) && !q->cleared) {
		bt_diag_warn(p->diag, "perfetto_incremental_state", "packets of '%s' need interned data their sequence never set (first at byte offset %llu); skipped",
			     p->path, (unsigned long long)off);
		goto out;
	}
	if (pk->interned_data) {
		intern(q, pk->interned_data);
		pf_samples_intern(p, q, pk->interned_data);
		if (pk->interned_data->n_kernel_symbols)
			pf_sched_ksyms(p->sched, pk->has_trusted_packet_sequence_id ? pk->trusted_packet_sequence_id : 0,
				       pk->interned_data);
	}
	if (pk->trace_packet_defaults && pk->trace_packet_defaults->track_event_defaults &&
	    pk->trace_packet_defaults->track_event_defaults->has_track_uuid) {
		q->has_track = 1;
		q->track = pk->trace_packet_defaults->track_event_defaults->track_uuid;
	}
	if (pk->trace_packet_defaults && pk->trace_packet_defaults->track_event_defaults)
		pf_kinds_defaults(p, q, pk->trace_packet_defaults->track_event_defaults);
	if (pk->trace_packet_defaults && pk->trace_packet_defaults->has_timestamp_clock_id)
		q->clock_id = pk->trace_packet_defaults->timestamp_clock_id;
	if (pk->clock_snapshot)
		snapshot(p, q, pk->clock_snapshot, off);
	ts = packet_time(q, pk);   /* every packet moves an incremental clock */
	if (pk->thread_descriptor && pk->thread_descriptor->has_tid && pk->thread_descriptor->tid > 0) {
		const Perfetto__Protos__ThreadDescriptor *d = pk->thread_descriptor;
		Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		q->legacy_tid = d->tid;
		td.has_uuid = 1;
		td.uuid = LEGACY_UUID(d->tid);
		td.thread = (Perfetto__Protos__ThreadDescriptor *)d;
		rc = describe(p, &td, err);
	}
	if (!rc && pk->process_descriptor && pk->process_descriptor->has_pid)
		note_process(p, pk->process_descriptor->pid, pk->process_descriptor->process_name);
	if (!rc && pk->track_descriptor)
		rc = describe(p, pk->track_descriptor, err);
	if (!rc && pk->process_tree)
		process_tree(p, pk->process_tree);
	if (!rc && pk->frame_timeline_event) {
		pf_threads_frame(p, pk->frame_timeline_event);
		rc = pf_frametl_event(p, pk->frame_timeline_event, ts, off, err);
	}
	if (!rc && pk->perf_sample)
		rc = pf_samples_perf(p, q, pk->perf_sample, ts, err);
	if (!rc && pk->streaming_profile_packet)
		rc = pf_samples_streaming(p, q, pk->streaming_profile_packet, ts, err);
	if (!rc && pk->ftrace_events)
		rc = ftrace(p, pk->ftrace_events, data, len, pre && pre->pk ? &pre->comms : NULL, err);
	if (!rc && pk->track_event)
		rc = track_event(p, q, pk, ts, off, err);
	if (!rc && pk->has_compressed_packets)
		rc = pf_stream_inflate(p, pk->compressed_packets.data, pk->compressed_packets.len, off, err);
out:
	pf_arena_back(&p->arena, cur, used);
	return rc;
}

void pf_release(struct pf *p)
{
	size_t i;

	for (i = 0; i < p->ntracks; i++)
		free(p->tracks[i].name);
	free(p->tracks);
	bt_map64_release(&p->track_of);
	bt_map64_release(&p->tgid_of);
	bt_map64_release(&p->thread_name);
	bt_map64_release(&p->process_name);
	bt_map64_release(&p->begins);
	bt_map64_release(&p->cpu_keys);
	bt_map64_release(&p->cpu_tracks);
	for (i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	bt_strmap_release(&p->frame_of);
	for (i = 0; i < p->nframes; i++)
		free(p->frames[i].name);
	free(p->frames);
	for (i = 0; i < p->nseqs; i++) {
		seq_release(&p->seqs[i]);
		free(p->seqs[i].pool);
	}
	free(p->seqs);
	bt_map64_release(&p->seq_of);
	pf_arena_release(&p->arena);
	bt_strmap_release(&p->type_of);
	pf_threads_release(p);
}
