/*
 * Callstack samples (perf_sample, StreamingProfilePacket) into slices of
 * their threads. A sequence interns function names, mappings, frames and
 * callstacks; a sample names its callstack, which is resolved once into
 * the importer's frames (outermost first) and spilled as one event on its
 * thread; pf_pair.c hands the events back in time order and this file
 * opens and closes the frames through it, as a sampling dump's slices
 * are made: a frame seen at the same depth under the same callers in
 * consecutive samples is one slice, and each sample stands for at most
 * one sampling interval (importers/README.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"

#define MAX_STACK 1024        /* frames of a callstack kept, outermost first */
#define MAX_GAPS 65536        /* gaps between a thread's samples kept to find the interval */
#define DEFAULT_INTERVAL 1000000   /* ns: a trace where no thread has two samples */

/* A frame as interned: its function name's and mapping's iids, its pc. */
struct iframe {
	uint64_t fn, map, rel_pc;
};

/* A sequence's interned profile data, valid for generation gen. */
struct sseq {
	uint32_t gen;
	int made;
	struct bt_map64 str;      /* (kind << 56 | iid) -> offset + 1 into pool */
	struct bt_map64 frame;    /* iid -> index + 1 into frames */
	struct bt_map64 map;      /* iid -> index + 1 into maps */
	struct bt_map64 cs;       /* iid -> index + 1 into cs_at */
	struct bt_map64 stack;    /* callstack iid -> resolved stack + 1 */
	char *pool;
	size_t plen, pcap;
	struct iframe *frames;
	size_t nframes, fcap;
	uint64_t (*maps)[2];      /* path (last component) and build id string iids */
	size_t nmaps, mcap;
	uint64_t *ids;            /* callstacks' frame iids, one after another */
	size_t nids, icap;
	size_t (*cs_at)[2];       /* a callstack's first id and count */
	size_t ncs, cscap;
};

enum { S_FN = 1, S_PATH = 2, S_BUILD = 3 };

struct pf_samples {
	struct sseq *seqs;        /* by sequence index */
	size_t nseqs;
	uint32_t *frames;         /* resolved stacks' frame ids, outermost first */
	size_t nframes, fcap;
	uint32_t (*stacks)[2];    /* a stack's first frame and count */
	size_t nstacks, scap;
	struct bt_map64 last;     /* tid -> index + 1 into lasts */
	int64_t *lasts;
	size_t nlasts, lcap;
	int64_t *gaps;
	size_t ngaps;
	int64_t interval;         /* after the read */
	uint64_t samples, no_stack, no_thread, bad_time;
	/* pairing: the samples' frames open on the current thread */
	int64_t key, run_end;
	uint32_t open[MAX_STACK];
	size_t nopen;
};

static struct pf_samples *state(struct pf *p)
{
	if (!p->samples) {
		p->samples = bt_xcalloc(1, sizeof *p->samples);
		bt_map64_init(&p->samples->last, 64);
	}
	return p->samples;
}

static void sseq_release(struct sseq *q)
{
	if (!q->made)
		return;
	bt_map64_release(&q->str);
	bt_map64_release(&q->frame);
	bt_map64_release(&q->map);
	bt_map64_release(&q->cs);
	bt_map64_release(&q->stack);
	q->plen = q->nframes = q->nmaps = q->nids = q->ncs = 0;
	q->made = 0;
}

/* The sequence's tables, emptied when its incremental state was cleared. */
static struct sseq *seq_of(struct pf_samples *s, const struct pf *p, const struct pf_seq *q)
{
	size_t i = (size_t)(q - p->seqs);
	struct sseq *x;

	if (i >= s->nseqs) {
		size_t n = i + 1 > 2 * s->nseqs ? i + 1 : 2 * s->nseqs;
		s->seqs = bt_xrealloc(s->seqs, n * sizeof *s->seqs);
		memset(s->seqs + s->nseqs, 0, (n - s->nseqs) * sizeof *s->seqs);
		s->nseqs = n;
	}
	x = &s->seqs[i];
	if (x->made && x->gen != q->gen)
		sseq_release(x);
	if (!x->made) {
		bt_map64_init(&x->str, 16);
		bt_map64_init(&x->frame, 16);
		bt_map64_init(&x->map, 16);
		bt_map64_init(&x->cs, 16);
		bt_map64_init(&x->stack, 16);
		x->gen = q->gen;
		x->made = 1;
	}
	return x;
}

static void put_str(struct sseq *x, int kind, const Perfetto__Protos__InternedString *s)
{
	if (!s->has_iid || !s->iid || s->iid >> 56 || !s->has_str || x->plen + s->str.len + 1 >= UINT32_MAX)
		return;
	BT_GROW(x->pool, x->plen + s->str.len + 1, x->pcap);
	if (s->str.len)
		memcpy(x->pool + x->plen, s->str.data, s->str.len);
	x->pool[x->plen + s->str.len] = '\0';
	bt_map64_put(&x->str, (uint64_t)kind << 56 | s->iid, (uint32_t)x->plen + 1);
	x->plen += s->str.len + 1;
}

static const char *get_str(const struct sseq *x, int kind, uint64_t iid)
{
	uint32_t at = iid && !(iid >> 56) ? bt_map64_get(&x->str, (uint64_t)kind << 56 | iid) : 0;

	return at ? x->pool + at - 1 : NULL;
}

void pf_samples_intern(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__InternedData *d)
{
	struct sseq *x;
	size_t i, j;

	if (!d->n_function_names && !d->n_frames && !d->n_callstacks && !d->n_mappings && !d->n_mapping_paths &&
	    !d->n_build_ids)
		return;
	x = seq_of(state(p), p, q);
	for (i = 0; i < d->n_function_names; i++)
		put_str(x, S_FN, d->function_names[i]);
	for (i = 0; i < d->n_mapping_paths; i++)
		put_str(x, S_PATH, d->mapping_paths[i]);
	for (i = 0; i < d->n_build_ids; i++)
		put_str(x, S_BUILD, d->build_ids[i]);
	for (i = 0; i < d->n_frames; i++) {
		const Perfetto__Protos__Frame *f = d->frames[i];
		if (!f->has_iid || !f->iid)
			continue;
		BT_GROW(x->frames, x->nframes + 1, x->fcap);
		x->frames[x->nframes].fn = f->function_name_id;
		x->frames[x->nframes].map = f->mapping_id;
		x->frames[x->nframes++].rel_pc = f->rel_pc;
		bt_map64_put(&x->frame, f->iid, (uint32_t)x->nframes);
	}
	for (i = 0; i < d->n_mappings; i++) {
		const Perfetto__Protos__Mapping *m = d->mappings[i];
		if (!m->has_iid || !m->iid)
			continue;
		BT_GROW(x->maps, x->nmaps + 1, x->mcap);
		x->maps[x->nmaps][0] = m->n_path_string_ids ? m->path_string_ids[m->n_path_string_ids - 1] : 0;
		x->maps[x->nmaps++][1] = m->build_id;
		bt_map64_put(&x->map, m->iid, (uint32_t)x->nmaps);
	}
	for (i = 0; i < d->n_callstacks; i++) {
		const Perfetto__Protos__Callstack *c = d->callstacks[i];
		size_t n = c->n_frame_ids < MAX_STACK ? c->n_frame_ids : MAX_STACK;   /* the outermost */
		if (!c->has_iid || !c->iid)
			continue;
		BT_GROW(x->ids, x->nids + n, x->icap);
		for (j = 0; j < n; j++)
			x->ids[x->nids + j] = c->frame_ids[j];
		BT_GROW(x->cs_at, x->ncs + 1, x->cscap);
		x->cs_at[x->ncs][0] = x->nids;
		x->cs_at[x->ncs++][1] = n;
		x->nids += n;
		bt_map64_put(&x->cs, c->iid, (uint32_t)x->ncs);   /* redefined: samples resolved before keep the first */
	}
}

/* A frame's name: its function's, else its mapping's file and pc
 * ("libc.so+0x1a2b"), else its build id's, else its pc alone. */
static uint32_t frame_name(struct pf *p, const struct sseq *x, uint64_t iid)
{
	uint32_t i = bt_map64_get(&x->frame, iid), m;
	const struct iframe *f;
	const char *name, *file = NULL, *slash;
	char buf[512];

	if (!i)
		return pf_frame(p, "[unknown frame]", 15);
	f = &x->frames[i - 1];
	if ((name = get_str(x, S_FN, f->fn)) && *name)
		return pf_frame(p, name, strlen(name));
	if ((m = bt_map64_get(&x->map, f->map))) {
		file = get_str(x, S_PATH, x->maps[m - 1][0]);
		if (!file || !*file)
			file = get_str(x, S_BUILD, x->maps[m - 1][1]);
		if (file && (slash = strrchr(file, '/')) && slash[1])
			file = slash + 1;
	}
	snprintf(buf, sizeof buf, "%.400s+0x%llx", file && *file ? file : "[unknown]", (unsigned long long)f->rel_pc);
	return pf_frame(p, buf, strlen(buf));
}

/* Callstack iid of sequence x as a stack of frames: its id + 1, 0 if the
 * sequence never interned it. */
static uint32_t stack_of(struct pf *p, struct pf_samples *s, struct sseq *x, uint64_t iid)
{
	uint32_t id = bt_map64_get(&x->stack, iid), c = bt_map64_get(&x->cs, iid);
	size_t i, n;

	if (id || !c || s->nstacks >= UINT32_MAX - 1)
		return id;
	n = x->cs_at[c - 1][1];
	BT_GROW(s->frames, s->nframes + n, s->fcap);
	for (i = 0; i < n; i++)   /* a frame's name may grow p->frames, not x */
		s->frames[s->nframes + i] = frame_name(p, x, x->ids[x->cs_at[c - 1][0] + i]);
	BT_GROW(s->stacks, s->nstacks + 1, s->scap);
	s->stacks[s->nstacks][0] = (uint32_t)s->nframes;
	s->stacks[s->nstacks++][1] = (uint32_t)n;
	s->nframes += n;
	bt_map64_put(&x->stack, iid, (uint32_t)s->nstacks);
	return (uint32_t)s->nstacks;
}

/* The gap since the thread's last sample, kept to find the interval. */
static void note_gap(struct pf_samples *s, int64_t tid, int64_t ts)
{
	uint32_t i = bt_map64_get(&s->last, (uint64_t)tid);

	if (!i) {
		BT_GROW(s->lasts, s->nlasts + 1, s->lcap);
		s->lasts[s->nlasts++] = ts;
		bt_map64_put(&s->last, (uint64_t)tid, (uint32_t)s->nlasts);
		return;
	}
	if (ts > s->lasts[i - 1] && s->ngaps < MAX_GAPS) {
		if (!s->gaps)
			s->gaps = bt_xmalloc(MAX_GAPS * sizeof *s->gaps);
		s->gaps[s->ngaps++] = ts - s->lasts[i - 1];
	}
	s->lasts[i - 1] = ts;
}

static int sample(struct pf *p, const struct pf_seq *q, int64_t tid, int64_t ts, uint64_t iid,
		  struct bt_err *err)
{
	struct pf_samples *s = state(p);
	struct sseq *x = seq_of(s, p, q);
	struct pf_event e;
	uint32_t id;

	s->samples++;
	if (tid <= 0) {   /* the idle task, or no thread said */
		s->no_thread++;
		return BT_OK;
	}
	if (ts < 0) {
		s->bad_time++;
		return BT_OK;
	}
	if (!(id = stack_of(p, s, x, iid))) {
		s->no_stack++;
		return BT_OK;
	}
	note_gap(s, tid, ts);
	memset(&e, 0, sizeof e);
	e.seq = ++p->seq;
	e.k = tid;
	e.ts = ts;
	e.kind = PF_EV_SAMPLE;
	e.frame = id;
	return pf_spill_event(p, &e, err);
}

int pf_samples_perf(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__PerfSample *ps, int64_t ts,
		    struct bt_err *err)
{
	if (ps->has_pid && ps->pid && ps->has_tid && ps->tid && ps->tid < INT32_MAX && ps->pid < INT32_MAX)
		pf_thread_group(p, ps->tid, ps->pid);
	return sample(p, q, ps->has_tid && ps->tid < INT32_MAX ? (int64_t)ps->tid : 0, ts, ps->callstack_iid, err);
}

/* Chrome's: the sequence's thread, at the packet's time plus the deltas. */
int pf_samples_streaming(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__StreamingProfilePacket *sp,
			 int64_t ts, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < sp->n_callstack_iid; i++) {
		int64_t d = i < sp->n_timestamp_delta_us ? sp->timestamp_delta_us[i] : 0;
		if (ts >= 0 && (d > (BT_MAX_TIME_NS - ts) / 1000 || d < -ts / 1000))
			ts = -1;
		else if (ts >= 0)
			ts += d * 1000;
		if (sample(p, q, q->legacy_tid, ts, sp->callstack_iid[i], err))
			return err->code;
	}
	return BT_OK;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* After the read: the sampling interval is the median gap between a
 * thread's consecutive samples (most come one interval apart); the
 * interned tables go. */
void pf_samples_done(struct pf *p)
{
	struct pf_samples *s = p->samples;
	size_t i;

	if (!s)
		return;
	s->interval = DEFAULT_INTERVAL;
	if (s->ngaps) {
		qsort(s->gaps, s->ngaps, sizeof *s->gaps, cmp64);
		s->interval = s->gaps[(s->ngaps - 1) / 2];
	}
	free(s->gaps);
	s->gaps = NULL;
	for (i = 0; i < s->nseqs; i++) {
		sseq_release(&s->seqs[i]);
		free(s->seqs[i].pool);
		free(s->seqs[i].frames);
		free(s->seqs[i].maps);
		free(s->seqs[i].ids);
		free(s->seqs[i].cs_at);
	}
	free(s->seqs);
	s->seqs = NULL;
	s->nseqs = 0;
	bt_map64_release(&s->last);
	free(s->lasts);
	s->lasts = NULL;
	s->nlasts = 0;
}

int pf_samples_save(struct pf *p, struct bt_err *err)
{
	struct pf_samples *s = p->samples;
	int rc = BT_OK;

	if (!s || !s->samples)
		return BT_OK;
	rc = bt_db_set_meta_int(p->db, "perfetto_samples", (int64_t)s->samples, err);
	if (!rc)
		rc = bt_db_set_meta_int(p->db, "sample_interval_ns", s->interval, err);
	bt_diag_count(p->diag, "perfetto_samples", s->samples,
		      "callstack samples of '%s' made into slices of their threads, each at most %lld ns long (the median gap between a thread's samples)",
		      p->path, (long long)s->interval);
	if (s->no_thread)
		bt_diag_count(p->diag, "perfetto_sample_no_thread", s->no_thread,
			      "callstack samples of '%s' are of the idle task or name no thread; not imported", p->path);
	if (s->no_stack)
		bt_diag_count(p->diag, "perfetto_sample_no_stack", s->no_stack,
			      "callstack samples of '%s' name a callstack their sequence never interned; not imported", p->path);
	if (s->bad_time)
		bt_diag_count(p->diag, "perfetto_sample_time", s->bad_time,
			      "callstack samples of '%s' have no usable timestamp; not imported", p->path);
	return rc;
}

void pf_samples_free(struct pf_samples *s)
{
	if (!s)
		return;
	free(s->frames);
	free(s->stacks);
	free(s);
}

/* Close the open sample frames deeper than depth at ts. */
static int close_to(struct pf_samples *s, const struct pf_samples_ops *o, size_t depth, int64_t ts,
		    struct bt_err *err)
{
	while (s->nopen > depth) {
		s->nopen--;
		if (o->close(o->ctx, ts, err))
			return err->code;
	}
	return BT_OK;
}

void pf_samples_reset(struct pf *p)
{
	if (p->samples)
		p->samples->nopen = 0;
}

int pf_samples_close(struct pf *p, const struct pf_samples_ops *o, int64_t ts, int64_t *at, struct bt_err *err)
{
	struct pf_samples *s = p->samples;
	int64_t end;

	if (!s || !s->nopen)
		return BT_OK;
	end = s->run_end < ts ? s->run_end : ts;
	if (at)
		*at = end;
	return close_to(s, o, 0, end, err);
}

/* A sample of stack id (+ 1) on thread key at ts: its frames under the
 * same callers as the last sample's stay open if it came within an
 * interval; the rest close (the gap's length, at most an interval, is the
 * last sample's) and its own open. */
int pf_samples_pair(struct pf *p, const struct pf_samples_ops *o, int64_t key, int64_t ts, uint32_t id,
		    struct bt_err *err)
{
	struct pf_samples *s = p->samples;
	const uint32_t *f;
	size_t n, c = 0;

	if (!s || !id || id > s->nstacks)
		return BT_OK;
	if (s->nopen && (s->key != key || ts > s->run_end) && close_to(s, o, 0, s->run_end, err))
		return err->code;
	s->key = key;
	f = s->frames + s->stacks[id - 1][0];
	n = s->stacks[id - 1][1];
	while (c < s->nopen && c < n && s->open[c] == f[c])
		c++;
	if (close_to(s, o, c, ts, err))
		return err->code;
	for (; c < n; c++) {
		if (o->open(o->ctx, ts, f[c], err))
			return err->code;
		s->open[s->nopen++] = f[c];
	}
	s->run_end = ts + s->interval;
	return BT_OK;
}
