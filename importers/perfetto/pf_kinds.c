/*
 * Every kind of Perfetto event besides thread slices (issue 22), as it is
 * read: instants, counters (atrace C|, TrackEvent counter tracks with their
 * units, incremental values and extra values), async slices (atrace S|/F|
 * and G|/H|, legacy phases b/e/S/F) and legacy phases B/E/X are spilled
 * for pf_pair.c; what is not imported is counted per kind. The rest is in
 * pf_kinds_out.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_kinds_int.h"

void pf_kinds_init(struct pf *p)
{
	struct pf_kinds *k = bt_xcalloc(1, sizeof *k);

	bt_strmap_init(&k->synth);
	bt_map64_init(&k->acc_of, 16);
	p->kinds = k;
}

void pf_kinds_release(struct pf *p)
{
	struct pf_kinds *k = p->kinds;
	size_t i;

	if (!k)
		return;
	bt_strmap_release(&k->synth);
	bt_map64_release(&k->acc_of);
	free(k->accs);
	for (i = 0; i < k->nextras; i++) {
		free(k->extras[i].u);
		free(k->extras[i].d);
	}
	free(k->extras);
	free(k->open);
	free(k);
	p->kinds = NULL;
}

/* ---------------------------------------------------------------- not imported */

/* Events pf_threads.c takes threads' names from and pf_sched.c does not
 * read: task_newtask and task_rename are names only, a process's exit
 * is its threads' switches (its tasks end at sched_process_free). */
void pf_kinds_ftrace(struct pf *p, const Perfetto__Protos__FtraceEvent *e)
{
	struct pf_kinds *k = p->kinds;

	k->ftr[238] += e->sched_process_exit != NULL;
	if (!p->all) {   /* binder calls: read with --process all only (pf_binder.c) */
		k->ftr[50] += e->binder_transaction != NULL;
		k->ftr[51] += e->binder_transaction_received != NULL;
	}
	if (e->base.n_unknown_fields)
		pf_kinds_unknown(p, PF_IN_FTRACE, &e->base);
}

void pf_kinds_packet(struct pf *p, unsigned field)
{
	p->kinds->pkt[field < NPKT ? field : NPKT]++;
}

void pf_kinds_unknown(struct pf *p, int where, const ProtobufCMessage *m)
{
	struct pf_kinds *k = p->kinds;
	unsigned i;

	for (i = 0; i < m->n_unknown_fields; i++) {
		const ProtobufCMessageUnknownField *f = &m->unknown_fields[i];
		if (where == PF_IN_PACKET)
			k->pkt[f->tag < NPKT ? f->tag : NPKT]++;
		else if (where == PF_IN_FTRACE && f->tag != 5)   /* 5: common_flags */
			k->ftr[f->tag < NFTRACE ? f->tag : NFTRACE]++;
	}
}

/* ---------------------------------------------------------------- spilling */

static int64_t key_of(const struct pf *p, const struct pf_track *t)
{
	return t->tid > 0 ? t->tid : -(int64_t)(t - p->tracks) - 1;
}

/* An event of kind on key k (known) or track uuid (not yet described). */
static int put(struct pf *p, int known, int64_t key, uint64_t uuid, int64_t ts, int kind, int src, uint32_t frame,
	       double v, const int64_t *cookie, struct bt_err *err)
{
	unsigned char buf[12];
	uint32_t has = 1u << PF_COOKIE;
	struct pf_event e;

	memset(&e, 0, sizeof e);
	e.seq = ++p->seq;
	e.pending = !known;   /* then k is the index of its track, resolved when described */
	e.k = known ? key : (int64_t)bt_map64_get(&p->track_of, uuid) - 1;
	e.ts = ts;
	e.kind = kind;
	e.src = src;
	e.frame = frame;
	e.v = v;
	if (cookie) {
		memcpy(buf, &has, 4);
		memcpy(buf + 4, cookie, 8);
		e.args = buf;
		e.nargs = sizeof buf;
	}
	return pf_spill_event(p, &e, err);
}

/* The track made for what a process names (class 'C' counter, 'A' async,
 * 'N' instants), or NULL past MAX_SYNTH (counted). */
static struct pf_track *synth(struct pf *p, char cls, int64_t pid, const char *name, size_t len)
{
	struct pf_kinds *k = p->kinds;
	struct bt_buf key = BT_BUF_INIT;
	struct pf_track *t = NULL;
	uint32_t i;

	bt_buf_addf(&key, "%c%lld|", cls, (long long)pid);
	bt_buf_add(&key, name, len);
	i = bt_strmap_get(&k->synth, key.buf, key.len);
	if (i) {
		t = &p->tracks[i - 1];
	} else if (k->synth.len < MAX_SYNTH) {
		BT_GROW(p->tracks, p->ntracks + 1, p->tcap);
		t = &p->tracks[p->ntracks++];
		memset(t, 0, sizeof *t);
		t->pid = pid;
		t->synth = cls;
		t->name = bt_xmalloc(len + 1);
		memcpy(t->name, name, len);
		t->name[len] = '\0';
		bt_strmap_put(&k->synth, key.buf, key.len, (uint32_t)p->ntracks);
	} else {
		k->synth_over++;
	}
	bt_buf_release(&key);
	return t;
}

/* ---------------------------------------------------------------- atrace */

/* The n-th '|'-separated field of buf[0..len) (0: the letter). */
static int field(const char *buf, size_t len, int n, const char **f, size_t *flen)
{
	const char *s = buf, *end = buf + len, *bar;

	while (n--) {
		bar = memchr(s, '|', (size_t)(end - s));
		if (!bar)
			return 0;
		s = bar + 1;
	}
	bar = memchr(s, '|', (size_t)(end - s));
	*f = s;
	*flen = (size_t)((bar ? bar : end) - s);
	return 1;
}

static int64_t digits(const char *s, size_t n, int *ok)
{
	int64_t v = 0;
	size_t i;

	*ok = n > 0 && n < 19;
	for (i = 0; *ok && i < n; i++) {
		*ok = s[i] >= '0' && s[i] <= '9';
		v = v * 10 + (s[i] - '0');
	}
	return *ok ? v : 0;
}

static int number(const char *s, size_t n, double *v)
{
	char tmp[64], *end;

	if (!n || n >= sizeof tmp)
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	*v = strtod(tmp, &end);
	return *end == '\0' && fabs(*v) < (double)BT_MAX_COUNTER;
}

/* The print's process (its pid field, else the thread's); noted as tid's
 * process for a marker of the thread's own (I|, as B| is): a thread that
 * only wrote a process's counter or async slice is not one of its threads
 * for the threads table. */
static int64_t print_pid(struct pf *p, int64_t tid, const char *buf, size_t len)
{
	const char *f;
	size_t n;
	int ok = 0;
	int64_t pid = field(buf, len, 1, &f, &n) ? digits(f, n, &ok) : 0;

	if (ok && pid > 0 && pid < INT32_MAX) {
		if (buf[0] == 'I' && !bt_map64_get(&p->tgid_of, (uint64_t)tid))
			bt_map64_put(&p->tgid_of, (uint64_t)tid, (uint32_t)pid + 1);
		return pid;
	}
	return (int64_t)bt_map64_get(&p->tgid_of, (uint64_t)tid) - 1;
}

/* C|pid|name|value: a value of the process's counter NAME. */
static int atrace_counter(struct pf *p, int64_t pid, int64_t ts, const char *buf, size_t len, struct bt_err *err)
{
	const char *name, *val;
	size_t nlen, vlen;
	struct pf_track *t;
	double v;

	if (!field(buf, len, 2, &name, &nlen) || !field(buf, len, 3, &val, &vlen) || !number(val, vlen, &v)) {
		p->kinds->bad_value++;
		return BT_OK;
	}
	if (!(t = synth(p, 'C', pid, name, nlen)))
		return BT_OK;
	return put(p, 1, key_of(p, t), 0, ts, PF_EV_COUNTER, PF_SRC_ATRACE, 0, v, NULL, err);
}

/* S|pid|name|cookie, F|pid|name|cookie (the name up to the last '|'),
 * G|pid|track|name|cookie, H|pid|track|cookie. */
static int atrace_async(struct pf *p, int64_t pid, int64_t ts, const char *buf, size_t len, struct bt_err *err)
{
	const char *name, *trk, *c = buf + len;
	size_t nlen, tlen;
	int64_t cookie;
	int ok, begin = buf[0] == 'S' || buf[0] == 'G';
	struct pf_track *t;

	while (c > buf && c[-1] != '|')
		c--;
	cookie = digits(c, (size_t)(buf + len - c), &ok);
	if (!ok || !field(buf, len, 2, &trk, &tlen) || c - 1 <= trk) {
		p->kinds->bad_value++;
		return BT_OK;
	}
	if (buf[0] == 'S' || buf[0] == 'F') {   /* the track is the name */
		tlen = (size_t)(c - 1 - trk);
		name = trk;
		nlen = tlen;
	} else if (buf[0] == 'G' && field(buf, len, 3, &name, &nlen) && name < c - 1) {
		nlen = (size_t)(c - 1 - name);
	} else if (buf[0] == 'G') {
		p->kinds->bad_value++;
		return BT_OK;
	} else {
		name = trk;
		nlen = 0;
	}
	if (!(t = synth(p, 'A', pid, trk, tlen)))
		return BT_OK;
	return put(p, 1, key_of(p, t), 0, ts, begin ? PF_EV_ASYNC_BEGIN : PF_EV_ASYNC_END, PF_SRC_ATRACE,
		   begin ? pf_frame(p, name, nlen) : 0, 0, &cookie, err);
}

int pf_kinds_atrace(struct pf *p, int64_t tid, int64_t ts, const char *buf, size_t len, struct bt_err *err)
{
	const char *name;
	size_t nlen;
	struct pf_track *t;
	int64_t pid;

	if (len < 3 || buf[1] != '|' || !strchr("CSFIGHN", buf[0])) {
		p->kinds->prints++;
		return BT_OK;
	}
	pid = print_pid(p, tid, buf, len);
	switch (buf[0]) {
	case 'C':
		return atrace_counter(p, pid, ts, buf, len, err);
	case 'I':   /* I|pid|name: on the thread */
		if (!field(buf, len, 2, &name, &nlen))
			break;
		return put(p, 1, tid, 0, ts, PF_EV_INSTANT, PF_SRC_ATRACE, pf_frame(p, name, nlen), 0, NULL, err);
	case 'N': { /* N|pid|track|name: on the process's track */
		const char *trk;
		size_t tlen;
		if (!field(buf, len, 2, &trk, &tlen) || !field(buf, len, 3, &name, &nlen))
			break;
		nlen = (size_t)(buf + len - name);
		if (!(t = synth(p, 'N', pid, trk, tlen)))
			return BT_OK;
		return put(p, 1, key_of(p, t), 0, ts, PF_EV_INSTANT, PF_SRC_ATRACE, pf_frame(p, name, nlen), 0, NULL,
			   err);
	}
	default:
		return atrace_async(p, pid, ts, buf, len, err);
	}
	p->kinds->bad_value++;
	return BT_OK;
}

/* ---------------------------------------------------------------- legacy phases */

int pf_kinds_phase(struct pf *p, const Perfetto__Protos__TrackEvent *ev)
{
	int ph = ev->legacy_event->has_phase ? ev->legacy_event->phase : 0;

	switch (ph) {
	case 'B': case 'X': return PF_EV_BEGIN;
	case 'E': return PF_EV_END;
	case 'i': case 'I': case 'n': return PF_EV_INSTANT;
	case 'b': case 'S': return PF_EV_ASYNC_BEGIN;
	case 'e': case 'F': return PF_EV_ASYNC_END;
	default:
		p->kinds->phase[ph > 0 && ph < 128 ? ph : 128]++;
		return 0;
	}
}

int pf_kinds_legacy_async(struct pf *p, const struct pf_track *t, const Perfetto__Protos__TrackEvent *ev,
			  const char *name, int kind, int64_t ts, struct bt_err *err)
{
	const Perfetto__Protos__TrackEvent__LegacyEvent *l = ev->legacy_event;
	int64_t pid = 0, cookie;
	struct pf_track *a;
	size_t len;

	if (t && !l->has_global_id)   /* a global id's slices are the trace's, not a process's */
		pid = t->pid > 0 ? t->pid : (int64_t)bt_map64_get(&p->tgid_of, (uint64_t)(t->tid > 0 ? t->tid : 0)) - 1;
	cookie = (int64_t)(l->has_global_id ? l->global_id : l->has_local_id ? l->local_id : l->unscoped_id);
	if (!name) {   /* the track is the name: an end without one matches nothing */
		p->kinds->unmatched++;
		return BT_OK;
	}
	len = strlen(name);
	if (!(a = synth(p, 'A', pid > 0 ? pid : 0, name, len)))
		return BT_OK;
	p->flavor_track = 1;
	return put(p, 1, key_of(p, a), 0, ts, kind, PF_SRC_TRACK, kind == PF_EV_ASYNC_BEGIN ? pf_frame(p, name, len) : 0,
		   0, &cookie, err);
}

int pf_kinds_complete(struct pf *p, const Perfetto__Protos__TrackEvent *ev, int known, int64_t k, uint64_t uuid,
		      int64_t ts, struct bt_err *err)
{
	const Perfetto__Protos__TrackEvent__LegacyEvent *l = ev->legacy_event;
	int64_t dur = l->has_duration_us && l->duration_us > 0 ? l->duration_us : 0;

	if (l->phase != 'X')
		return BT_OK;
	dur = dur < (BT_MAX_TIME_NS - ts) / 1000 ? dur * 1000 : BT_MAX_TIME_NS - 1 - ts;
	return put(p, known, k, uuid, ts + dur, PF_EV_END, PF_SRC_TRACK, 0, 0, NULL, err);
}

/* ---------------------------------------------------------------- counters */

void pf_kinds_describe(struct pf *p, struct pf_track *t, const Perfetto__Protos__TrackDescriptor *d)
{
	(void)p;
	t->has_parent = d->has_parent_uuid;
	t->parent = d->parent_uuid;
	if (!d->counter)
		return;
	t->counter = 1;
	t->ctype = d->counter->has_type ? d->counter->type : 0;
	t->incremental = d->counter->has_is_incremental && d->counter->is_incremental;
	t->mult = d->counter->has_unit_multiplier && d->counter->unit_multiplier > 0 &&
			  d->counter->unit_multiplier < ((int64_t)1 << 40) ? d->counter->unit_multiplier : 0;
}

static struct acc *acc_get(struct pf_kinds *k, size_t seq, const struct pf_seq *q, uint64_t uuid)
{
	uint64_t key[2] = { seq, uuid };
	uint64_t h = bt_hash_bytes(key, sizeof key);
	uint32_t i = bt_map64_get(&k->acc_of, h);
	struct acc *a;

	if (!i) {
		BT_GROW(k->accs, k->naccs + 1, k->acap);
		i = (uint32_t)++k->naccs;
		bt_map64_put(&k->acc_of, h, i);
		k->accs[i - 1].gen = q->gen + 1;   /* differs: starts at 0 below */
	}
	a = &k->accs[i - 1];
	if (a->gen != q->gen || a->seq != seq || a->uuid != uuid) {
		a->seq = seq;
		a->uuid = uuid;
		a->gen = q->gen;
		a->v = 0;
	}
	return a;
}

double pf_kinds_value(struct pf *p, const struct pf_seq *q, const struct pf_track *t, double v)
{
	struct acc *a;

	if (!t || !t->counter)
		return v;
	if (t->mult)
		v *= (double)t->mult;
	if (!t->incremental)
		return v;
	a = acc_get(p->kinds, (size_t)(q - p->seqs), q, t->uuid);
	a->v += v;
	return a->v;
}

static int extra_one(struct pf *p, const struct pf_seq *q, uint64_t uuid, double v, int64_t ts, struct bt_err *err)
{
	struct pf_track *t = pf_track_get(p, uuid);

	if (!t) {
		t = pf_track_add(p, uuid);
		t->pending = 1;
	}
	v = pf_kinds_value(p, q, t, v);
	if (!(fabs(v) < (double)BT_MAX_COUNTER)) {
		p->kinds->bad_value++;
		return BT_OK;
	}
	return put(p, !t->pending, key_of(p, t), uuid, ts, PF_EV_COUNTER, PF_SRC_TRACK, 0, v, NULL, err);
}

/* The defaults' extra counter tracks of q, kept as its sequence sets them. */
static struct extra *extras(struct pf *p, const struct pf_seq *q)
{
	struct pf_kinds *k = p->kinds;
	size_t i = (size_t)(q - p->seqs);

	if (i >= k->nextras) {
		size_t n = i + 1;
		k->extras = bt_xrealloc(k->extras, n * sizeof *k->extras);
		memset(k->extras + k->nextras, 0, (n - k->nextras) * sizeof *k->extras);
		k->nextras = n;
	}
	return &k->extras[i];
}

void pf_kinds_defaults(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__TrackEventDefaults *d)
{
	struct extra *x = extras(p, q);

	free(x->u);
	free(x->d);
	x->gen = q->gen;
	x->nu = d->n_extra_counter_track_uuids;
	x->nd = d->n_extra_double_counter_track_uuids;
	x->u = x->nu ? bt_xmalloc(x->nu * sizeof *x->u) : NULL;
	x->d = x->nd ? bt_xmalloc(x->nd * sizeof *x->d) : NULL;
	if (x->nu)
		memcpy(x->u, d->extra_counter_track_uuids, x->nu * sizeof *x->u);
	if (x->nd)
		memcpy(x->d, d->extra_double_counter_track_uuids, x->nd * sizeof *x->d);
}

int pf_kinds_extra(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__TrackEvent *ev, int64_t ts,
		   struct bt_err *err)
{
	const struct extra *x;
	const uint64_t *u, *d;
	size_t nu, nd, i;

	if (!ev->n_extra_counter_values && !ev->n_extra_double_counter_values)
		return BT_OK;
	x = (size_t)(q - p->seqs) < p->kinds->nextras ? &p->kinds->extras[q - p->seqs] : NULL;
	if (x && x->gen != q->gen)
		x = NULL;   /* set before the sequence was cleared */
	u = ev->n_extra_counter_track_uuids ? ev->extra_counter_track_uuids : x ? x->u : NULL;
	nu = ev->n_extra_counter_track_uuids ? ev->n_extra_counter_track_uuids : x ? x->nu : 0;
	d = ev->n_extra_double_counter_track_uuids ? ev->extra_double_counter_track_uuids : x ? x->d : NULL;
	nd = ev->n_extra_double_counter_track_uuids ? ev->n_extra_double_counter_track_uuids : x ? x->nd : 0;
	for (i = 0; i < ev->n_extra_counter_values; i++)
		if (i >= nu)
			p->kinds->bad_value++;
		else if (extra_one(p, q, u[i], (double)ev->extra_counter_values[i], ts, err))
			return err->code;
	for (i = 0; i < ev->n_extra_double_counter_values; i++)
		if (i >= nd)
			p->kinds->bad_value++;
		else if (extra_one(p, q, d[i], ev->extra_double_counter_values[i], ts, err))
			return err->code;
	return BT_OK;
}
