/*
 * Pairing spilled events into slices (perfetto-subset.md §3.2, §4.2): per
 * thread in time order, a begin opens a slice and an end closes the
 * innermost open slice of the same source. A thread's app track and its
 * atrace markers nest into one tree, so a wait marker lands under the
 * method that waited. Tracks that are no thread's give track_slices and
 * counters. Marker slices leave their edges, binder calls and thread
 * creations behind as they close. A scratch analysis stores no slices:
 * the spill stays, and the same pairing runs again, storing only the
 * slices, when something reads the slices table (pf_pair_fill). A
 * thread's scheduler events (pf_sched.c) come in the same order: its
 * states, the CPU time of its slices and the wakers of its sleeps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/startup/startup.h"
#include "importers/perfetto/pf_int.h"

#define MAX_DEPTH 512   /* deeper begins are dropped (and counted) */

/* An open begin: a slice of the feed, or one dropped past MAX_DEPTH. */
struct tag {
	int src, real;
	uint32_t frame;
	int64_t flow_in;     /* terminating flow id, or 0 */
	int64_t wait_time;   /* the length of the wait it ends (WaitTime), or -1 */
	int64_t blocked_in, caller;   /* frames of the wait it ends, or 0 */
	int inner;           /* ART contention inside ART contention: one wait, the outer's */
	int64_t owner;       /* a monitor wait's owner, as contention inside it said; 0: none */
	uint32_t held;       /* and the frame of the method that owner locked in, as it said; 0: none */
	int64_t ts, run;     /* when it opened, and its thread's running time then (key_sched) */
	int cpu_given;       /* its begin's annotations gave its CPU time */
};

/* An open slice of a track that is no thread's. */
struct tslice {
	uint32_t frame;
	int64_t ts;
};

struct pair {
	struct pf *p;
	struct bt_feed *feed;
	struct tag *tags;
	size_t ntags, tcap;
	size_t open[2];             /* tags of each source (PF_SRC_*) */
	struct tslice *ts;
	size_t nts, tscap;
	int64_t key, last_ts;
	int have_key, skip_key;
	int key_nocpu;           /* none of the key's slices gives its CPU time */
	int key_sched;           /* the scheduler's events give the key's states and CPU time */
	struct bt_sched sc;      /* the key's replay of them */
	struct bt_map64 *threads;   /* tids with slices (NULL: a replay, which writes only slices) */
	int64_t total[PF__NARGS];   /* magnitudes of the values taken, by kind */
	uint64_t unmatched, overlaps, unterminated, deep, other, over;
};

static void unpack_args(const void *blob, size_t n, struct pf_args *a)
{
	const unsigned char *b = blob;
	size_t at = 4;
	uint32_t m;

	a->has = 0;   /* a value is read only where its bit is set */
	if (!b || n < 4)
		return;
	memcpy(&m, b, 4);
	m &= (1u << PF__NARGS) - 1;
	for (; m && at + 8 <= n; m &= m - 1, at += 8) {   /* the bits set, lowest first */
		int k = __builtin_ctz(m);
		memcpy(&a->v[k], b + at, 8);
		a->has |= 1u << k;
	}
}

static int has(const struct pf_args *a, enum pf_arg k)
{
	return (a->has >> k) & 1;
}

/* Values attribution adds up (ids are not) stay, all of a kind together,
 * within PF_MAX_VALUE: no sum of them, however taken, leaves int64. */
static void budget(struct pair *r, struct pf_args *a)
{
	static const enum pf_arg summed[] = { PF_CPU, PF_SELF_CPU, PF_BLOCK, PF_COUNT, PF_OBJS, PF_BYTES,
					      PF_MAJFLT, PF_NVCSW, PF_NIVCSW, PF_GAP, PF_GAP_CPU };
	size_t i;

	for (i = 0; i < sizeof summed / sizeof summed[0]; i++) {
		enum pf_arg k = summed[i];
		int64_t v;
		if (!has(a, k))
			continue;
		v = a->v[k] < 0 ? -a->v[k] : a->v[k];   /* |v| <= PF_MAX_VALUE (pf_names.c) */
		if (v > PF_MAX_VALUE - r->total[k]) {
			a->has &= ~(1u << k);
			r->over++;
		} else {
			r->total[k] += v;
		}
	}
}

/* A value of s by its annotation's kind (the ones inherit() hands on). */
static int64_t value(const struct bt_slice *s, enum pf_arg k)
{
	switch (k) {
	case PF_COUNT: return s->sample_count;
	case PF_OBJS: return s->alloc_objects;
	case PF_BYTES: return s->alloc_bytes;
	case PF_MAJFLT: return s->majflt;
	case PF_NVCSW: return s->nvcsw;
	case PF_NIVCSW: return s->nivcsw;
	case PF_GAP: return s->gap_dur;
	case PF_GAP_CPU: return s->gap_cpu_dur;
	default: return s->msg_id;
	}
}

/*
 * Our export leaves out of a slice what it shares with its parent
 * (reports/export/perfetto.c): the counts and the gap when one sample
 * opened both (they began together), the message id always. A track
 * event's slice below another takes them back; upstream's converter
 * writes every value on every slice, so its slices lack none.
 */
static void inherit(struct pair *r, int64_t ts, struct pf_args *a)
{
	static const enum pf_arg together[] = { PF_COUNT, PF_OBJS, PF_BYTES, PF_MAJFLT, PF_NVCSW, PF_NIVCSW,
						PF_GAP, PF_GAP_CPU };
	const struct tag *t = r->ntags ? &r->tags[r->ntags - 1] : NULL;
	const struct bt_slice *up;
	size_t i;

	if (!t || !t->real || t->src != PF_SRC_TRACK || !(up = bt_feed_top(r->feed)))
		return;
	if (!has(a, PF_MSG)) {
		a->has |= 1u << PF_MSG;
		a->v[PF_MSG] = up->msg_id;
	}
	for (i = 0; up->ts == ts && i < sizeof together / sizeof together[0]; i++)
		if (!has(a, together[i])) {
			a->has |= 1u << together[i];
			a->v[together[i]] = value(up, together[i]);
		}
}

/* An end's annotations are merged into the slice it closes (§3.2). */
static void apply_args(struct bt_slice *s, unsigned *known, const struct pf_args *a)
{
	if (has(a, PF_CPU))
		s->cpu_dur = a->v[PF_CPU], *known |= BT_FEED_CPU;
	if (has(a, PF_SELF_CPU))
		s->self_cpu_dur = a->v[PF_SELF_CPU], *known |= BT_FEED_SELF_CPU;
	if (has(a, PF_BLOCK))
		s->block_dur = a->v[PF_BLOCK], *known |= BT_FEED_BLOCK;
	if (has(a, PF_MSG))
		s->msg_id = a->v[PF_MSG];
	if (has(a, PF_COUNT))
		s->sample_count = a->v[PF_COUNT];
	if (has(a, PF_OBJS))
		s->alloc_objects = a->v[PF_OBJS];
	if (has(a, PF_BYTES))
		s->alloc_bytes = a->v[PF_BYTES];
	if (has(a, PF_MAJFLT))
		s->majflt = a->v[PF_MAJFLT];
	if (has(a, PF_NVCSW))
		s->nvcsw = a->v[PF_NVCSW];
	if (has(a, PF_NIVCSW))
		s->nivcsw = a->v[PF_NIVCSW];
	if (has(a, PF_TYPE))
		s->type = a->v[PF_TYPE];
	if (has(a, PF_WAKEUP))
		s->wakeup_tid = a->v[PF_WAKEUP];
	if (has(a, PF_GAP))
		s->gap_dur = a->v[PF_GAP];
	if (has(a, PF_GAP_CPU))
		s->gap_cpu_dur = a->v[PF_GAP_CPU];
	if (has(a, PF_IDLE))
		s->idle = a->v[PF_IDLE] != 0;
}

static int contention(enum pf_marker m)
{
	return m == PF_MONITOR || m == PF_LOCK;
}

/* Record types a marker stands for (engine/db/rtype.h numbering). */
static int64_t marker_type(enum pf_marker m)
{
	return m == PF_WAIT ? 6 : m == PF_PARK ? 7 : m == PF_MONITOR || m == PF_LOCK ? 8 : m == PF_MUTEX ? 12
	       : m == PF_BINDER ? 2 : -1;
}

static int begin(struct pair *r, int64_t ts, int src, uint32_t frame, const struct pf_args *a,
		 struct bt_err *err)
{
	static const struct bt_slice blank;
	struct pf_frame *f = &r->p->frames[frame - 1];
	struct bt_slice s;
	unsigned known = 0;
	struct tag *t;

	BT_GROW(r->tags, r->ntags + 1, r->tcap);
	t = &r->tags[r->ntags++];
	r->open[src]++;
	t->src = src;
	t->frame = frame;
	t->flow_in = has(a, PF_FLOW_IN) ? a->v[PF_FLOW_IN] : 0;
	t->wait_time = has(a, PF_WAIT_TIME) && a->v[PF_WAIT_TIME] >= 0 ? a->v[PF_WAIT_TIME] : -1;
	t->blocked_in = has(a, PF_BLOCKED_IN) ? a->v[PF_BLOCKED_IN] : 0;
	t->caller = has(a, PF_CALLER) ? a->v[PF_CALLER] : 0;
	t->real = 1;
	t->owner = 0;
	t->held = 0;
	t->ts = ts;
	t->run = bt_sched_ran(&r->sc);
	t->cpu_given = has(a, PF_CPU);
	t->inner = contention(f->marker) && r->ntags > 1 && r->tags[r->ntags - 2].real &&
		   contention(r->p->frames[r->tags[r->ntags - 2].frame - 1].marker);
	if (bt_feed_depth(r->feed) >= MAX_DEPTH) {
		t->real = 0;
		r->deep++;
		return BT_OK;
	}
	f->used = 1;
	s = blank;   /* vector moves; a memset of it was a rep stos, slow to start, on every slice */
	s.tid = r->key;
	s.ts = ts;
	s.frame_id = frame;
	s.type = marker_type(f->marker);
	apply_args(&s, &known, a);
	if (r->key_nocpu)   /* none of the thread's slices says: unknown, not 0 */
		known |= BT_FEED_CPU_UNKNOWN;
	if (r->threads && !bt_map64_get(r->threads, (uint64_t)r->key))
		bt_map64_put(r->threads, (uint64_t)r->key, 1);
	return bt_feed_open(r->feed, &s, known, marker_type(f->marker) >= 0, err);
}

/*
 * The owner of an ART monitor wait: the kernel tid a "Lock contention ...
 * (owner tid: T)" inside it (or it itself) gives, else the thread of the
 * waiter's process ART's NAME names (pf_threads_find); 0: unknown.
 */
static int64_t owner(struct pair *r, const struct bt_slice *s, const struct tag *t, const struct pf_frame *f)
{
	uint32_t g;
	int64_t tid;

	if (t->owner > 0)
		return t->owner;
	if (f->marker == PF_LOCK)
		return f->value > 0 ? f->value : 0;
	g = bt_map64_get(&r->p->tgid_of, (uint64_t)s->tid);
	tid = pf_threads_find(r->p, g ? (int64_t)g - 1 : r->p->pid, f->name + f->iface_off, f->iface_len);
	return tid > 0 ? tid : 0;
}

/* A wait's edge of kind, its owner who (0: unknown) the waker at its end. */
static int wait_edge(struct bt_db *db, const struct bt_slice *s, const char *kind, int64_t who, struct bt_err *err)
{
	if (who > 0)
		return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "intniiinin", s->tid, kind, s->ts, s->dur, who,
				  s->ts + s->dur);
	return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "intniinnnn", s->tid, kind, s->ts, s->dur);
}

/*
 * A monitor wait's edge; contention inside contention hands its owner to
 * the wait it is part of, which r->tags' top now is. The owner's release
 * is the wait's end, unless the owner's slice of the method it locked in
 * ends inside the wait: linked once all slices are read (pf_import.c).
 */
static int monitor_edge(struct pair *r, const struct bt_slice *s, const struct tag *t, const struct pf_frame *f,
			struct bt_err *err)
{
	int64_t who = owner(r, s, t, f);
	uint32_t held = t->owner > 0 && t->held ? t->held : f->held;

	if (t->inner) {
		struct tag *up = &r->tags[r->ntags - 1];
		if (!up->owner) {
			up->owner = who;
			up->held = held;
		}
		return BT_OK;
	}
	if (wait_edge(r->p->db, s, "monitor", who, err))
		return err->code;
	if (who > 0 && held)
		return bt_db_exec(r->p->db, BT_SQL_SCRATCH_PF_INSERT_MONITOR_AT, err, "iii", s->tid, s->ts, (int64_t)held);
	return BT_OK;
}

/* What a marker slice leaves besides itself. */
static int marker(struct pair *r, const struct bt_slice *s, const struct tag *t, struct bt_err *err)
{
	const struct pf_frame *f = &r->p->frames[t->frame - 1];
	struct bt_db *db = r->p->db;
	const char *edge = f->marker == PF_WAIT ? "wait" : f->marker == PF_PARK ? "park"
			   : contention(f->marker) ? "monitor" : f->marker == PF_MUTEX ? "lock" : NULL;

	if (t->flow_in && bt_db_exec(db, BT_SQL_SCRATCH_PF_INSERT_FLOW, err, "iiiiintii", t->flow_in, (int64_t)1,
				     s->tid, s->ts, t->wait_time >= 0 ? t->wait_time : s->dur, edge, t->blocked_in,
				     t->caller))
		return err->code;
	if (f->holds && bt_db_exec(db, BT_SQL_SCRATCH_PF_INSERT_HELD, err, "iii", s->tid, (int64_t)t->frame,
				   s->ts + s->dur))
		return err->code;
	switch (f->marker) {
	case PF_WAIT:
	case PF_PARK:   /* linked to its notify or unpark once all are read (pf_import.c) */
		return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "intiiinnnn", s->tid, edge, f->value, s->ts, s->dur);
	case PF_MONITOR:
	case PF_LOCK:
		return monitor_edge(r, s, t, f, err);
	case PF_MUTEX:   /* its own wait, inside a monitor's or not */
		return wait_edge(db, s, "lock", f->value, err);
	case PF_NOTIFY:
		bt_link_note(&r->p->notes, BT_LINK_NOTIFY, f->value, s->tid, s->ts);
		return BT_OK;
	case PF_UNPARK:
		bt_link_note(&r->p->notes, BT_LINK_UNPARK, f->value, s->tid, s->ts);
		return BT_OK;
	case PF_BINDER:
		return bt_db_exec(db, BT_SQL_INSERT_BINDER, err, f->has_code ? "iiiissi" : "iiiissn", s->id, s->tid,
				  s->ts, s->dur, f->name + f->iface_off, (size_t)f->iface_len,
				  f->has_method ? f->name + f->method_off : NULL, (size_t)f->method_len, f->value);
	case PF_PTHREAD:
		return bt_db_exec(db, BT_SQL_INSERT_THREAD_CREATE, err, "iiii", s->id, s->tid, s->ts, f->value);
	default:
		return BT_OK;
	}
}

/* The CPU time of the top slice, which opened as t: its thread's
 * running time since, where the scheduler knows it. */
static void sched_cpu(struct pair *r, const struct tag *t)
{
	if (bt_sched_known(&r->sc, t->ts)) {
		bt_feed_top(r->feed)->cpu_dur = bt_sched_ran(&r->sc) - t->run;
		bt_feed_known(r->feed, BT_FEED_CPU);
	} else {
		bt_feed_known(r->feed, BT_FEED_CPU_UNKNOWN);
	}
}

/* Pop the top tag, closing its slice at ts. */
static int pop(struct pair *r, int64_t ts, const struct pf_args *a, struct bt_err *err)
{
	struct tag t = r->tags[--r->ntags];
	struct bt_slice s;

	r->open[t.src]--;
	if (!t.real)
		return BT_OK;
	if (a && a->has) {
		unsigned known = 0;   /* the feed keeps what begin gave; an end adds to it */
		apply_args(bt_feed_top(r->feed), &known, a);
		bt_feed_known(r->feed, known);
	}
	if (r->key_sched && !t.cpu_given && !(a && has(a, PF_CPU)))   /* an annotation says better */
		sched_cpu(r, &t);
	if (bt_feed_close(r->feed, ts, &s, err))
		return err->code;
	return r->threads ? marker(r, &s, &t, err) : BT_OK;
}

static int end(struct pair *r, int64_t ts, int src, const struct pf_args *a, struct bt_err *err)
{
	size_t j = r->ntags;

	if (!r->open[src]) {   /* not by a scan: each unmatched end would walk the whole stack */
		r->unmatched++;
		return BT_OK;
	}
	while (r->tags[j - 1].src != src)
		j--;
	while (r->ntags > j) {   /* another source's slices still open inside: cut */
		r->overlaps++;
		if (pop(r, ts, NULL, err))
			return err->code;
	}
	return pop(r, ts, a, err);
}

/* The current key's track (a track of no thread), by name. */
static const char *track_name(const struct pair *r)
{
	const struct pf_track *t = &r->p->tracks[-r->key - 1];

	return t->name ? t->name : "?";
}

/* Close the innermost open slice of the current non-thread track at end. */
static int track_slice_end(struct pair *r, int64_t end, struct bt_err *err)
{
	const struct tslice *x = &r->ts[--r->nts];

	return bt_db_exec(r->p->db, BT_SQL_INSERT_TRACK_SLICE, err, "ttiii", track_name(r),
			  r->p->frames[x->frame - 1].name, x->ts, end - x->ts, (int64_t)r->nts);
}

/* pf_samples.c's frames open and close on the same stack as the rest. */
static int sample_open(void *ctx, int64_t ts, uint32_t frame, struct bt_err *err)
{
	static const struct pf_args none;

	return begin(ctx, ts, PF_SRC_TRACK, frame, &none, err);
}

static int sample_close(void *ctx, int64_t ts, struct bt_err *err)
{
	return pop(ctx, ts, NULL, err);
}

static int samples_close(struct pair *r, int64_t ts, struct bt_err *err)
{
	struct pf_samples_ops o = { sample_open, sample_close, r };
	int64_t at = r->last_ts;   /* unless samples were open */

	if (pf_samples_close(r->p, &o, ts, &at, err))
		return err->code;
	if (at > r->last_ts)   /* the run's end: what is still open ends no sooner */
		r->last_ts = at;
	return BT_OK;
}

static int end_key(struct pair *r, struct bt_err *err)
{
	if (!r->have_key)
		return BT_OK;
	if (r->key >= 0 && samples_close(r, INT64_MAX, err))
		return err->code;
	if (r->key >= 0) {
		int64_t end = r->p->end_ts > r->p->sched_end ? r->p->end_ts : r->p->sched_end;
		if (r->ntags)
			r->unterminated += r->ntags;
		while (r->ntags)
			if (pop(r, r->last_ts, NULL, err))
				return err->code;
		return r->key_sched ? bt_sched_end(&r->sc, end, err) : BT_OK;
	}
	r->unterminated += r->nts;
	while (r->nts)
		if (track_slice_end(r, r->last_ts, err))
			return err->code;
	return BT_OK;
}

/* An app thread's, or one of unknown process (a trace naming none). */
static int track_event(struct pair *r, int64_t ts, int kind, uint32_t frame, double v, struct bt_err *err)
{
	if (kind == PF_EV_COUNTER)
		return bt_db_exec(r->p->db, BT_SQL_INSERT_COUNTER, err, "tid", track_name(r), ts, v);
	if (kind == PF_EV_BEGIN) {
		BT_GROW(r->ts, r->nts + 1, r->tscap);
		r->ts[r->nts].frame = frame;
		r->ts[r->nts++].ts = ts;
		return BT_OK;
	}
	if (!r->nts) {
		r->unmatched++;
		return BT_OK;
	}
	return track_slice_end(r, ts, err);
}

static int row(struct pair *r, const struct pf_event *e, struct bt_err *err)
{
	int64_t key = e->k, ts = e->ts;
	int kind = e->kind, src = e->src;
	uint32_t frame = e->frame;
	struct pf_args a;

	if (!r->have_key || key != r->key) {
		if (end_key(r, err))
			return err->code;
		r->have_key = 1;
		r->key = key;
		r->skip_key = key >= 0 && !pf_wanted(r->p, key);
		r->key_nocpu = !bt_map64_get(&r->p->cpu_keys, (uint64_t)key);
		r->key_sched = key >= 0 && !r->skip_key && r->p->sched_switches + r->p->sched_wakings > 0;
		if (r->key_sched) {
			int64_t known;
			int running;
			pf_sched_known(r->p->sched, key, &known, &running);
			bt_sched_begin(&r->sc, key, known, running);
			r->key_nocpu = 0;   /* the scheduler says, where it knows */
		}
	}
	if (r->key_sched)
		bt_sched_advance(&r->sc, ts);
	if (kind > PF_EV_SCHED)   /* a thread's scheduling (pf_sched.c): not its slices' last event */
		return r->key_sched ? bt_sched_event(&r->sc, kind - PF_EV_SCHED, ts, frame, (uint32_t)src, err) : BT_OK;
	r->last_ts = ts;
	if (kind == PF_EV_SAMPLE) {
		struct pf_samples_ops o = { sample_open, sample_close, r };
		return r->skip_key ? BT_OK : pf_samples_pair(r->p, &o, key, ts, frame, err);
	}
	if ((kind == PF_EV_BEGIN || kind == PF_EV_END) && key >= 0 && samples_close(r, ts, err))
		return err->code;
	if (kind == PF_EV_INSTANT || kind >= PF_EV_ASYNC_BEGIN)   /* pf_kinds.c; not a replay's */
		return r->threads ? pf_kinds_pair(r->p, key, r->skip_key, ts, kind, frame, e->args, e->nargs, err) : BT_OK;
	if (r->skip_key) {
		r->other += kind == PF_EV_BEGIN;
		return BT_OK;
	}
	if (frame > r->p->nframes)
		frame = 0;
	if (key < 0)
		return r->threads ? track_event(r, ts, kind, frame, e->v, err) : BT_OK;
	unpack_args(e->args, e->nargs, &a);
	if (kind == PF_EV_BEGIN && src == PF_SRC_TRACK)
		inherit(r, ts, &a);
	budget(r, &a);
	if (kind == PF_EV_BEGIN && frame)
		return begin(r, ts, src, frame, &a, err);
	if (kind == PF_EV_END)
		return end(r, ts, src, &a, err);
	if (kind == PF_EV_COUNTER && r->threads) {
		char track[40];
		snprintf(track, sizeof track, "thread %lld", (long long)key);
		return bt_db_exec(r->p->db, BT_SQL_INSERT_COUNTER, err, "tid", track, ts, e->v);
	}
	return BT_OK;
}

static void report(const struct pair *r, const struct pf *p)
{
	if (r->unmatched)
		bt_diag_count(p->diag, "perfetto_unmatched_end", r->unmatched,
			      "slice ends in '%s' with no open slice of their source; skipped", p->path);
	if (r->overlaps)
		bt_diag_count(p->diag, "perfetto_overlapping_slices", r->overlaps,
			      "slices in '%s' were cut short where an enclosing slice of the other source (app track or atrace) ended", p->path);
	if (r->unterminated)
		bt_diag_count(p->diag, "perfetto_unterminated_slices", r->unterminated,
			      "slices in '%s' never ended; they end at their thread's or track's last event", p->path);
	if (r->deep)
		bt_diag_count(p->diag, "perfetto_too_deep", r->deep,
			      "slices in '%s' nested deeper than %d; dropped", p->path, MAX_DEPTH);
	if (r->over)
		bt_diag_count(p->diag, "perfetto_annotation_total", r->over,
			      "annotation values in '%s' past 2^60 in all (of one kind); ignored", p->path);
	if (r->other)
		bt_diag_count(p->diag, "perfetto_other_process", r->other,
			      "slices of processes other than pid %lld in '%s'; not imported", (long long)p->pid, p->path);
	if (pf_sched_bad(p->sched))
		bt_diag_count(p->diag, "perfetto_bad_sched", pf_sched_bad(p->sched),
			      "scheduler events in '%s' without the fields they need (pids, states) or past the time bound; skipped",
			      p->path);
}

/* Pair every spilled event in order (the spill ready: ordered or
 * rewound, unless rc) into r's feed, which is finished (or freed on
 * error). */
static int pair_all(struct pair *r, int rc, struct bt_err *err)
{
	struct pf *p = r->p;
	struct pf_event e;
	uint32_t i;

	for (i = 0; i < p->nframes; i++)
		bt_feed_frame(r->feed, i + 1, p->frames[i].name);
	pf_samples_reset(p);
	memset(&e, 0, sizeof e);
	while (!rc && (rc = pf_spill_next(p, &e, err)) == 1)
		rc = row(r, &e, err);
	rc = rc < 0 ? err->code : rc;
	if (!rc)
		rc = end_key(r, err);
	if (!rc && r->sc.db)
		rc = bt_sched_flush(&r->sc, err);
	if (!rc && r->threads)
		rc = pf_kinds_pair_end(p, err);
	if (!rc) {
		rc = bt_feed_finish(r->feed, err);
		r->feed = NULL;
	}
	bt_feed_free(r->feed);
	free(r->tags);
	free(r->ts);
	bt_spill_rest(p->spill);
	return rc;
}

/* What the deferred slices need of the import (pf_pair_keep). */
struct pf_kept {
	struct pf p;   /* the spill, frames, threads' processes and CPU known-ness, the app's pid */
	char *path;
};

/* The deferred slices (bt_feed_defer): the same pairing again, its slices
 * stored and nothing else written but the kernel wakers' slice stacks,
 * which needed them. */
static int fill(void *ctx, struct bt_db *db, struct bt_err *err)
{
	struct pf_kept *k = ctx;
	struct pair r;

	if (!k->p.spill)
		return bt_err_set(err, BT_EIO, "the slices of '%s' were deferred but not kept", k->path);
	memset(&r, 0, sizeof r);
	r.p = &k->p;
	r.sc.waking = k->p.sched_wakings > 0;   /* no db: CPU times only */
	r.feed = bt_feed_new_refill(db);
	if (pair_all(&r, bt_spill_rewind(k->p.spill, err), err) || bt_db_flush(db, err))   /* the rows in the table */
		return err->code;
	return bt_db_script(db, BT_SQL_SCRATCH_PF_WAKER_STACKS, err);
}

static void release(void *ctx)
{
	struct pf_kept *k = ctx;
	size_t i;

	bt_spill_free(k->p.spill);
	k->p.spill = NULL;
	for (i = 0; i < k->p.nframes; i++)
		free(k->p.frames[i].name);
	free(k->p.frames);
	bt_map64_release(&k->p.tgid_of);
	bt_map64_release(&k->p.cpu_keys);
	pf_samples_free(k->p.samples);
	pf_sched_release(k->p.sched);
	free(k->path);
	free(k);
}

void pf_pair_keep(struct pf_kept *k, struct pf *p)
{
	k->path = bt_xstrdup(p->path);
	k->p.path = k->path;
	k->p.pid = p->pid;
	k->p.all = p->all;
	k->p.spill = p->spill;
	k->p.frames = p->frames;
	k->p.nframes = p->nframes;
	k->p.fcap = p->fcap;
	k->p.tgid_of = p->tgid_of;
	k->p.cpu_keys = p->cpu_keys;
	k->p.samples = p->samples;
	p->samples = NULL;
	k->p.sched = p->sched;
	k->p.end_ts = p->end_ts;
	k->p.sched_end = p->sched_end;
	k->p.sched_switches = p->sched_switches;
	k->p.sched_wakings = p->sched_wakings;
	p->sched = NULL;
	p->spill = NULL;
	p->frames = NULL;
	p->nframes = p->fcap = 0;
	memset(&p->tgid_of, 0, sizeof p->tgid_of);
	memset(&p->cpu_keys, 0, sizeof p->cpu_keys);
}

/* Each monitor's frame to the frame of the method its owner locked in,
 * which then holds: a slice of it may be the owner's release. */
static void owner_methods(struct pf *p)
{
	size_t i;

	for (i = 0; i < p->nframes; i++) {
		struct pf_frame *f = &p->frames[i];
		if (f->marker == PF_MONITOR && f->has_method &&
		    (f->held = bt_strmap_get(&p->frame_of, f->name + f->method_off, f->method_len)))
			p->frames[f->held - 1].holds = 1;
	}
}

int pf_pair(struct pf *p, struct bt_map64 *threads, struct bt_startups *starts, struct pf_kept **kept,
	    struct bt_err *err)
{
	struct pair r;
	int rc;

	memset(&r, 0, sizeof r);
	r.p = p;
	r.threads = threads;
	r.sc.db = p->db;
	r.sc.waking = p->sched_wakings > 0;
	r.sc.main_tid = p->pid;
	r.sc.caller = pf_sched_caller;
	r.sc.ctx = p->sched;
	r.feed = bt_feed_new(p->db, p->o->taps);
	if (starts)
		bt_feed_startups(r.feed, starts);
	if (p->sched_switches + p->sched_wakings > 0)   /* each method's self time by state too */
		bt_feed_states(r.feed);
	owner_methods(p);
	for (rc = 0; rc < (int)p->ntracks; rc++)   /* a thread's tracks' CPU annotations are its */
		if (p->tracks[rc].tid > 0 && bt_map64_get(&p->cpu_tracks, p->tracks[rc].uuid))
			bt_map64_put(&p->cpu_keys, (uint64_t)p->tracks[rc].tid, 1);
	*kept = NULL;
	if (!p->o->keep) {   /* the feed's, then the database's: filled by pf_pair_keep */
		*kept = bt_xcalloc(1, sizeof **kept);
		bt_feed_defer(r.feed, fill, release, *kept);
	}
	rc = pair_all(&r, bt_spill_order(p->spill, err), err);
	p->sched_states = r.sc.states;
	p->states_first = r.sc.span_first;
	p->states_end = r.sc.span_end;
	p->sleep_edges = r.sc.sleep_edges;
	p->sleep_unwoken = r.sc.sleep_unwoken;
	if (!rc)
		report(&r, p);
	else
		*kept = NULL;
	return rc;
}
