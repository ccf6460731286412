/*
 * atrace's markers in an ftrace line (st_event.c hands them over:
 * tracing_mark_write, or "0" and "print" on older kernels): B/E/C/S/F/I/N/G/H,
 * as Perfetto's systrace parser and catapult's importer read them. A
 * thread's slice markers go to its store (st_store.c) for later;
 * counters, async slices and instants belong to a process and are written
 * at once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/recon/pipeline.h"
#include "importers/systrace/st_int.h"

/* The next '|'-separated field of m[*i, n). */
static const char *field(const char *m, size_t n, size_t *i, size_t *len)
{
	const char *f = m + *i, *bar = *i < n ? memchr(f, '|', n - *i) : NULL;

	*len = bar ? (size_t)(bar - f) : *i < n ? n - *i : 0;
	*i = bar ? (size_t)(bar - m) + 1 : n;
	return f;
}

/* "NAME (pid TGID)": a process's track, counter or instants. */
static uint32_t track_of(struct st *s, const char *name, size_t len, int64_t tgid)
{
	char tail[40];
	struct bt_buf b = BT_BUF_INIT;
	uint32_t id;

	snprintf(tail, sizeof tail, " (pid %lld)", (long long)tgid);
	bt_buf_add(&b, name, len);
	bt_buf_adds(&b, tail);
	id = st_str(s, b.buf, b.len);
	bt_buf_release(&b);
	if (id > s->ntracks) {
		s->tracks = bt_grow_zero(s->tracks, sizeof *s->tracks, &s->trcap, id);
		s->ntracks = id;
	}
	return id;
}

/* The lowest free depth (a heap, so that a hostile trace's million open
 * slices cost log n each). */
static uint32_t take_slot(struct st_track *t)
{
	uint32_t top, last;
	size_t i = 0;

	if (!t->nfree)
		return t->used++;
	top = t->free[0];
	last = t->free[--t->nfree];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= t->nfree)
			break;
		if (c + 1 < t->nfree && t->free[c + 1] < t->free[c])
			c++;
		if (last <= t->free[c])
			break;
		t->free[i] = t->free[c];
		i = c;
	}
	if (t->nfree)
		t->free[i] = last;
	return top;
}

static void free_slot(struct st_track *t, uint32_t slot)
{
	size_t i;

	BT_GROW(t->free, t->nfree + 1, t->cap);
	for (i = t->nfree++; i > 0 && t->free[(i - 1) / 2] > slot; i = (i - 1) / 2)
		t->free[i] = t->free[(i - 1) / 2];
	t->free[i] = slot;
}

static int track_slice(struct st *s, uint32_t track, uint32_t name, int64_t ts, int64_t dur, int64_t depth,
		       struct bt_err *err)
{
	return bt_db_exec(s->db, BT_SQL_INSERT_TRACK_SLICE, err, "ttiii", s->strs[track - 1], s->strs[name - 1], ts,
			  dur, depth);
}

/* The async slice of (phase family, track, cookie). */
static struct st_async *async_of(struct st *s, int family, uint32_t track, int64_t cookie, int make)
{
	unsigned char key[13];
	uint32_t i;

	key[0] = (unsigned char)family;
	memcpy(key + 1, &track, 4);
	memcpy(key + 5, &cookie, 8);
	i = bt_strmap_get(&s->async_of, (const char *)key, sizeof key);
	if (i || !make)
		return i ? &s->async[i - 1] : NULL;
	BT_GROW(s->async, s->nasync + 1, s->acap);
	memset(&s->async[s->nasync], 0, sizeof s->async[0]);
	s->async[s->nasync].track = track;
	s->async[s->nasync].cookie = cookie;
	bt_strmap_put(&s->async_of, (const char *)key, sizeof key, (uint32_t)++s->nasync);
	return &s->async[s->nasync - 1];
}

static int async_begin(struct st *s, int family, uint32_t track, uint32_t name, int64_t cookie, int64_t ts)
{
	struct st_async *a = async_of(s, family, track, cookie, 1);

	if (a->open) {
		s->unmatched_async++;   /* begun again before it ended: the first stands */
		return BT_OK;
	}
	a->open = 1;
	a->name = name;
	a->ts = ts;
	a->slot = take_slot(&s->tracks[track - 1]);
	return BT_OK;
}

static int async_end(struct st *s, int family, uint32_t track, int64_t cookie, int64_t ts, struct bt_err *err)
{
	struct st_async *a = async_of(s, family, track, cookie, 0);

	if (!a || !a->open) {
		s->unmatched_async++;
		return BT_OK;
	}
	a->open = 0;
	free_slot(&s->tracks[track - 1], a->slot);
	return track_slice(s, track, a->name, a->ts, ts > a->ts ? ts - a->ts : 0, a->slot, err);
}

int st_async_finish(struct st *s, struct bt_err *err)
{
	size_t i;
	uint64_t n = 0;

	for (i = 0; i < s->nasync; i++) {
		struct st_async *a = &s->async[i];
		if (!a->open)
			continue;
		n++;
		a->open = 0;
		if (track_slice(s, a->track, a->name, a->ts, s->last_ts - a->ts, a->slot, err))
			return err->code;
	}
	if (n)
		bt_diag_count(s->diag, "systrace_unfinished_async", n,
			      "async slices (S/G markers) in '%s' never ended; they end at the trace's end", s->path);
	return BT_OK;
}

/* A counter's value: an integer or a decimal number, below 2^53. */
static int counter_value(const char *v, size_t n, double *out)
{
	char buf[64], *end;

	if (!n || n >= sizeof buf)
		return 0;
	memcpy(buf, v, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	return end == buf + n && isfinite(*out);
}

static int bad_marker(struct st *s)
{
	s->bad_markers++;
	return BT_OK;
}

/* A marker's phase, pid and up to four more '|' fields; rest: the text
 * after the pid (a B's name, which may hold '|'). */
struct st_mark {
	char ph;
	int64_t tgid;
	const char *f[4], *rest;
	size_t l[4], nrest;
};

/* 0 for a text that is no marker (or clock sync, *skip set). */
static int parse_mark(const char *m, size_t n, struct st_mark *k, int *skip)
{
	size_t i, j;

	*skip = 0;
	while (n && (m[n - 1] == '\0' || m[n - 1] == '\n' || m[n - 1] == ' '))
		n--;
	if (n > 20 && !memcmp(m, "tracing_mark_write: ", 20))
		m += 20, n -= 20;   /* trace-cmd's print events */
	if (n >= 23 && !memcmp(m, "trace_event_clock_sync", 22))
		return !(*skip = 1);
	if (!n || (n > 1 && m[1] != '|'))
		return 0;
	memset(k, 0, sizeof *k);
	k->ph = m[0];
	i = n > 1 ? 2 : n;
	k->f[0] = field(m, n, &i, &k->l[0]);
	k->rest = m + i;
	k->nrest = n - i;
	for (j = 1; j < 4; j++)
		k->f[j] = field(m, n, &i, &k->l[j]);
	if (!k->l[0] || !st_int(k->f[0], k->l[0], &k->tgid) || k->tgid < 0)
		k->tgid = -1;
	return k->ph == 'E' || k->tgid >= 0;
}

static int counter(struct st *s, const struct st_mark *k, int64_t ts, struct bt_err *err)
{
	double v;
	uint32_t track;

	if (!k->l[1] || !counter_value(k->f[2], k->l[2], &v))
		return bad_marker(s);
	if (fabs(v) >= (double)BT_MAX_COUNTER) {
		s->range++;
		return BT_OK;
	}
	s->markers++;
	track = track_of(s, k->f[1], k->l[1], k->tgid);
	return bt_db_exec(s->db, BT_SQL_INSERT_COUNTER, err, "tid", s->strs[track - 1], ts, v);
}

/* S|pid|name|cookie, F|pid|name|cookie; G|pid|track|name|cookie,
 * H|pid|track|name|cookie or H|pid|track|cookie. */
static int async_mark(struct st *s, const struct st_mark *k, int64_t ts, struct bt_err *err)
{
	int sf = k->ph == 'S' || k->ph == 'F', begin = k->ph == 'S' || k->ph == 'G';
	int c = sf ? 2 : k->ph == 'G' || k->l[3] ? 3 : 2;
	int64_t cookie;

	if (!k->l[1] || (k->ph == 'G' && !k->l[2]) || !st_int(k->f[c], k->l[c], &cookie))
		return bad_marker(s);
	s->markers++;
	if (begin)
		return async_begin(s, k->ph, track_of(s, k->f[1], k->l[1], k->tgid),
				   sf ? st_str(s, k->f[1], k->l[1]) : st_str(s, k->f[2], k->l[2]), cookie, ts);
	return async_end(s, sf ? 'S' : 'G', track_of(s, k->f[1], k->l[1], k->tgid), cookie, ts, err);
}

/* I|pid|name: an instant of the thread that wrote it; N|pid|track|name:
 * one on the track "TRACK (pid N)" (the instants table, as Perfetto's). */
static int instant(struct st *s, const struct st_mark *k, int64_t tid, int64_t ts, struct bt_err *err)
{
	int named = k->ph == 'N';
	uint32_t track, name;   /* ids first: each may grow s->strs */

	if (!k->l[1] || (named && !k->l[2]))
		return bad_marker(s);
	s->markers++;
	if (!named) {
		name = st_str(s, k->f[1], k->l[1]);
		return bt_db_exec(s->db, BT_SQL_INSERT_INSTANT, err, "inti", tid, s->strs[name - 1], ts);
	}
	track = track_of(s, k->f[1], k->l[1], k->tgid);
	name = st_str(s, k->f[2], k->l[2]);
	return bt_db_exec(s->db, BT_SQL_INSERT_INSTANT, err, "ntti", s->strs[track - 1], s->strs[name - 1], ts);
}

/* One tracing_mark_write text m[0, n) of thread tid at ts. */
int st_marker(struct st *s, int64_t tid, int64_t ts, const char *m, size_t n, struct bt_err *err)
{
	struct st_mark k;
	struct st_thread *t;
	const char *name;
	size_t len;
	int skip;

	if (!parse_mark(m, n, &k, &skip))
		return skip ? BT_OK : bad_marker(s);
	switch (k.ph) {
	case 'B':
		name = k.nrest ? k.rest : "[empty slice name]";
		len = k.nrest ? k.nrest : strlen(name);
		t = st_thread_of(s, tid);
		t->begins++;
		if (t->tgid < 0)
			t->tgid = k.tgid;
		s->markers++;
		return st_add(s, tid, ts, ST_EV_BEGIN, st_frame(s, name, len), 0, err);
	case 'E':
		st_thread_of(s, tid)->ends++;
		s->markers++;
		return st_add(s, tid, ts, ST_EV_END, 0, 0, err);
	case 'C':
		return counter(s, &k, ts, err);
	case 'S': case 'F': case 'G': case 'H':
		return async_mark(s, &k, ts, err);
	case 'I': case 'N':
		return instant(s, &k, tid, ts, err);
	default:
		return bad_marker(s);
	}
}
