/*
 * What an ftrace line says: atrace's markers (tracing_mark_write, or "0"
 * and "print" on older kernels: B/E/C/S/F/I/N/G/H, as Perfetto's
 * systrace parser and catapult's importer read them), the scheduler's
 * switches, wakeups and blocked reasons, and names (the task column,
 * comm= fields, task_newtask and task_rename). A thread's slice markers
 * and scheduler events go to its store (st_store.c) for later; counters,
 * async slices and instants belong to a process and are written at once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/recon/pipeline.h"
#include "importers/systrace/st_int.h"

struct st_thread *st_thread_of(struct st *s, int64_t tid)
{
	uint32_t i;
	struct st_thread *t;

	if (s->last_thread && s->threads[s->last_thread - 1].tid == tid)
		return &s->threads[s->last_thread - 1];   /* a line asks three times */
	i = bt_map64_get(&s->thread_of, (uint64_t)tid);
	if (i) {
		s->last_thread = i;
		return &s->threads[i - 1];
	}
	BT_GROW(s->threads, s->nthreads + 1, s->tcap);
	t = &s->threads[s->nthreads++];
	memset(t, 0, sizeof *t);
	t->tid = tid;
	t->tgid = -1;
	t->last_ts = INT64_MIN;
	bt_map64_put(&s->thread_of, (uint64_t)tid, (uint32_t)s->nthreads);
	return t;
}

/* ftrace writes "<...>" for a task whose name it did not keep, and some
 * tools "<unknown>": no name. */
static int no_name(const char *name, size_t len)
{
	return !len || (name[0] == '<' && name[len - 1] == '>');
}

/* A name's text up to a NUL (a hostile trace's: the database keeps C strings). */
static size_t text_len(const char *s, size_t len)
{
	const char *z = memchr(s, '\0', len);

	return z ? (size_t)(z - s) : len;
}

uint32_t st_name_id(struct st *s, const char *name, size_t len)
{
	uint32_t id;

	len = text_len(name, len);
	id = bt_strmap_get(&s->name_of, name, len);

	if (!id) {
		BT_GROW(s->names, s->nnames + 1, s->ncap);
		s->names[s->nnames++] = bt_xstrndup(name, len);
		id = (uint32_t)s->nnames;
		bt_strmap_put(&s->name_of, name, len, id);
	}
	return id;
}

void st_thread_name(struct st *s, int64_t tid, const char *name, size_t len)
{
	struct st_thread *t;

	len = text_len(name, len);
	if (tid <= 0 || no_name(name, len))
		return;
	t = st_thread_of(s, tid);
	if (t->name) {
		const char *cur = s->names[t->name - 1];
		if (strlen(cur) == len && !memcmp(cur, name, len))
			return;
	}
	t->name = st_name_id(s, name, len);
}

/* The space-separated tokens of line (at most max), their count. */
static int tokens(const char *line, size_t n, const char **tok, size_t *len, int max)
{
	size_t i = 0;
	int k = 0;

	while (k < max) {
		while (i < n && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == n)
			break;
		tok[k] = line + i;
		while (i < n && line[i] != ' ' && line[i] != '\t')
			i++;
		len[k] = (size_t)(line + i - tok[k]);
		k++;
	}
	return k;
}

static int token_is(const char *t, size_t n, const char *what)
{
	return n == strlen(what) && !memcmp(t, what, n);
}

void st_dump(struct st *s, const char *line, size_t n)
{
	const char *tok[10];
	size_t len[10];
	int k = tokens(line, n, tok, len, 10);
	int64_t a, b;
	uint32_t t;

	if (k >= 4 && token_is(tok[0], len[0], "USER") && token_is(tok[1], len[1], "PID")) {
		s->dump_form = token_is(tok[2], len[2], "PPID") ? 1 : token_is(tok[2], len[2], "TID") ? 2 : 0;
		return;
	}
	if (k < 4 || !st_int(tok[1], len[1], &a) || !st_int(tok[2], len[2], &b) || a <= 0 || a > INT32_MAX ||
	    b < 0 || b > INT32_MAX)
		return;
	if (s->dump_form == 1 && k >= 9 && !no_name(tok[8], len[8])) {
		bt_map64_put(&s->process_of, (uint64_t)a, st_name_id(s, tok[8], len[8]));
	} else if (s->dump_form == 2 && b > 0 && (t = bt_map64_get(&s->thread_of, (uint64_t)b)) != 0) {
		const char *cmd = tok[3];
		size_t clen = (size_t)(line + n - cmd);
		while (clen && (cmd[clen - 1] == ' ' || cmd[clen - 1] == '\r'))
			clen--;
		if (!no_name(cmd, clen))
			s->threads[t - 1].dump_name = st_name_id(s, cmd, clen);
		if (s->threads[t - 1].tgid < 0)
			s->threads[t - 1].tgid = a;
	}
}

static uint32_t intern(struct bt_strmap *m, char ***v, size_t *n, size_t *cap, const char *str, size_t len)
{
	uint32_t id;

	len = text_len(str, len);
	id = bt_strmap_get(m, str, len);

	if (id)
		return id;
	BT_GROW(*v, *n + 1, *cap);
	(*v)[(*n)++] = bt_xstrndup(str, len);
	id = (uint32_t)*n;
	bt_strmap_put(m, str, len, id);
	return id;
}

uint32_t st_frame(struct st *s, const char *name, size_t len)
{
	size_t before = s->nframes;
	uint32_t id = intern(&s->frame_of, &s->frames, &s->nframes, &s->fcap, name, len);

	if (s->nframes != before) {
		int64_t obj = -1;
		size_t cap = s->ftcap;
		s->frame_type = bt_grow_zero(s->frame_type, 1, &cap, id);
		s->frame_obj = bt_grow_zero(s->frame_obj, sizeof *s->frame_obj, &s->ftcap, id);
		s->frame_type[id] = (unsigned char)st_wait_type(s->frames[id - 1], &obj);
		s->frame_obj[id] = obj;
	}
	return id;
}

uint32_t st_str(struct st *s, const char *str, size_t len)
{
	return intern(&s->str_of, &s->strs, &s->nstrs, &s->scap, str, len);
}

static int add(struct st *s, int64_t tid, int64_t ts, int kind, uint32_t a, unsigned b, struct bt_err *err)
{
	struct st_ev e;

	e.ts = ts;
	e.a = a;
	e.kind = (uint16_t)kind;
	e.b = (uint16_t)b;
	return st_store_add(s, st_thread_of(s, tid), &e, err);
}

/* ---- atrace markers */

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
static int marker(struct st *s, int64_t tid, int64_t ts, const char *m, size_t n, struct bt_err *err)
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
		return add(s, tid, ts, ST_EV_BEGIN, st_frame(s, name, len), 0, err);
	case 'E':
		st_thread_of(s, tid)->ends++;
		s->markers++;
		return add(s, tid, ts, ST_EV_END, 0, 0, err);
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

/* ---- the scheduler */

static int tid_arg(const char *a, size_t n, const char *key, int64_t *tid)
{
	size_t len;
	const char *v = st_arg(a, n, key, NULL, &len);

	return v && st_int(v, len, tid) && *tid >= 0 && *tid <= INT32_MAX;
}

/* The text at a[*i, n) is key: skip it. */
static int expect(const char *a, size_t n, size_t *i, const char *key, size_t k)
{
	if (*i + k > n || memcmp(a + *i, key, k))
		return 0;
	*i += k;
	return 1;
}

/* A value up to the next space (or up to stop, which a comm may not
 * hold: " prev_pid="), from a[*i]. */
static const char *value(const char *a, size_t n, size_t *i, const char *stop, size_t k, size_t *len)
{
	size_t b = *i, j;

	if (!stop) {
		for (j = b; j < n && a[j] != ' '; j++)
			;
	} else {
		for (j = b; j + k <= n && (a[j] != ' ' || memcmp(a + j, stop, k)); j++)
			;
		if (j + k > n)
			return NULL;
	}
	*len = j - b;
	*i = j;
	return a + b;
}

/* sched_switch as the kernel prints it ("prev_comm=%s prev_pid=%d
 * prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d
 * next_prio=%d"), read in one pass; 0 if it is not that (then each field
 * is looked for on its own). */
static int switch_fast(const char *a, size_t n, const char **pc, size_t *pcl, int64_t *prev, const char **st,
		       size_t *stl, const char **nc, size_t *ncl, int64_t *next)
{
	size_t i = 0, len;
	const char *v;

	if (!expect(a, n, &i, "prev_comm=", 10) || !(*pc = value(a, n, &i, " prev_pid=", 10, pcl)) ||
	    !expect(a, n, &i, " prev_pid=", 10) || !(v = value(a, n, &i, NULL, 0, &len)) || !st_int(v, len, prev) ||
	    !expect(a, n, &i, " prev_prio=", 11) || !value(a, n, &i, NULL, 0, &len) ||
	    !expect(a, n, &i, " prev_state=", 12) || !(*st = value(a, n, &i, NULL, 0, stl)) ||
	    !expect(a, n, &i, " ==> next_comm=", 15) || !(*nc = value(a, n, &i, " next_pid=", 10, ncl)) ||
	    !expect(a, n, &i, " next_pid=", 10) || !(v = value(a, n, &i, NULL, 0, &len)) || !st_int(v, len, next))
		return 0;
	return *prev >= 0 && *prev <= INT32_MAX && *next >= 0 && *next <= INT32_MAX;
}

static int sched_switch(struct st *s, const struct st_line *l, struct bt_err *err)
{
	const char *a = l->args, *pc, *nc, *st;
	size_t n = l->args_len, pcl, ncl, stl;
	int64_t prev, next;
	int state;

	if (!switch_fast(a, n, &pc, &pcl, &prev, &st, &stl, &nc, &ncl, &next)) {
		pc = st_arg(a, n, "prev_comm=", " prev_pid=", &pcl);
		nc = st_arg(a, n, "next_comm=", " next_pid=", &ncl);
		st = st_arg(a, n, "prev_state=", NULL, &stl);
		if (!pc || !nc || !st || !tid_arg(a, n, "prev_pid=", &prev) || !tid_arg(a, n, "next_pid=", &next))
			st = NULL;
	}
	if (!st || (state = bt_state_of_letter(st, stl)) < 0) {
		s->sched_bad++;
		return BT_OK;
	}
	s->switches++;
	st_thread_name(s, prev, pc, pcl);
	st_thread_name(s, next, nc, ncl);
	if (prev && add(s, prev, l->ts, ST_EV_STOP, (uint32_t)l->cpu, (unsigned)state, err))
		return err->code;
	return next ? add(s, next, l->ts, ST_EV_RUN, (uint32_t)l->cpu, 0, err) : BT_OK;
}

static int sched_wakeup(struct st *s, const struct st_line *l, int kind, struct bt_err *err)
{
	const char *a = l->args, *c, *ok, *v;
	size_t n = l->args_len, cl, okl, i = 0, len;
	int64_t tid = -1;

	/* "comm=%s pid=%d prio=%d [success=%d] target_cpu=%03d" */
	if (!expect(a, n, &i, "comm=", 5) || !(c = value(a, n, &i, " pid=", 5, &cl)) || !expect(a, n, &i, " pid=", 5) ||
	    !(v = value(a, n, &i, NULL, 0, &len)) || !st_int(v, len, &tid) || tid < 0 || tid > INT32_MAX) {
		c = st_arg(a, n, "comm=", " pid=", &cl);
		if (!c || !tid_arg(a, n, "pid=", &tid)) {
			s->sched_bad++;
			return BT_OK;
		}
	}
	st_thread_name(s, tid, c, cl);
	ok = st_arg(a + i, n - i, "success=", NULL, &okl);
	if ((ok && okl == 1 && ok[0] == '0') || !tid)
		return BT_OK;   /* it was awake already */
	if (kind == ST_EV_WAKING)
		s->wakings++;
	else
		s->wakeups++;
	return add(s, tid, l->ts, kind, (uint32_t)l->pid, 0, err);
}

static int blocked_reason(struct st *s, const struct st_line *l, struct bt_err *err)
{
	const char *a = l->args, *io, *caller;
	size_t n = l->args_len, iol, cl;
	int64_t tid;

	io = st_arg(a, n, "iowait=", NULL, &iol);
	caller = st_arg(a, n, "caller=", NULL, &cl);
	if (!tid_arg(a, n, "pid=", &tid) || !io || !iol || !tid) {
		s->sched_bad++;
		return BT_OK;
	}
	return add(s, tid, l->ts, ST_EV_BLOCKED, caller && cl ? st_str(s, caller, cl) : 0, io[0] != '0', err);
}

/* task_newtask: "pid=N comm=NAME clone_flags=..."; task_rename: "pid=N
 * oldcomm=OLD newcomm=NEW oom_score_adj=...". */
static void task_name(struct st *s, const struct st_line *l, const char *key, const char *stop)
{
	const char *c;
	size_t cl;
	int64_t tid;

	if (tid_arg(l->args, l->args_len, "pid=", &tid) && (c = st_arg(l->args, l->args_len, key, stop, &cl)))
		st_thread_name(s, tid, c, cl);
}

/* ---- binder: "transaction=%d dest_node=%d dest_proc=%d dest_thread=%d
 * reply=%d flags=0x%x code=0x%x" and "transaction=%d" (received), as the
 * kernel prints them; kept with --process all only. */

static int hex_arg(const char *a, size_t n, const char *key, int64_t *out)
{
	size_t len, i;
	const char *v = st_arg(a, n, key, NULL, &len);
	uint64_t x = 0;

	if (!v || len < 3 || len > 18 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
		return 0;
	for (i = 2; i < len; i++) {
		int d = v[i] >= '0' && v[i] <= '9' ? v[i] - '0' : v[i] >= 'a' && v[i] <= 'f' ? v[i] - 'a' + 10
			: v[i] >= 'A' && v[i] <= 'F' ? v[i] - 'A' + 10 : -1;
		if (d < 0)
			return 0;
		x = x << 4 | (uint64_t)d;
	}
	*out = (int64_t)(x & INT64_MAX);
	return 1;
}

static int binder_event(struct st *s, const struct st_line *l, int received)
{
	struct bt_binder_event e = { 0 };
	int64_t id, thread = 0, reply = 0, flags = 0;
	size_t len;
	const char *v;

	if (!s->all) {
		s->other_events++;   /* not imported: no other process to serve or call */
		return BT_OK;
	}
	if (!(v = st_arg(l->args, l->args_len, "transaction=", NULL, &len)) || !st_int(v, len, &id) ||
	    id < INT32_MIN || id > INT32_MAX || l->pid <= 0 ||
	    (!received && (!tid_arg(l->args, l->args_len, "dest_thread=", &thread) ||
			   !(v = st_arg(l->args, l->args_len, "reply=", NULL, &len)) || !st_int(v, len, &reply) ||
			   !hex_arg(l->args, l->args_len, "flags=", &flags)))) {
		s->binder_bad++;
		return BT_OK;
	}
	e.ts = l->ts;
	e.tid = l->pid;
	e.debug_id = (int32_t)id;
	e.received = received;
	e.to_thread = (int32_t)thread;
	e.reply = reply != 0;
	e.oneway = (flags & 1) != 0;   /* TF_ONE_WAY */
	bt_binder_events_add(&s->binder, &e);
	return BT_OK;
}

static int is(const struct st_line *l, const char *name, size_t len)
{
	return l->event_len == len && !memcmp(l->event, name, len);
}

/* The first event of each CPU: where its buffer's record begins. */
static void note_cpu(struct st *s, int64_t cpu, int64_t ts)
{
	if ((size_t)cpu >= s->ncpus) {
		size_t old = s->ncpus, i;
		s->cpu_first = bt_grow_zero(s->cpu_first, sizeof *s->cpu_first, &s->ncpus, (size_t)cpu);
		for (i = old; i < s->ncpus; i++)
			s->cpu_first[i] = -1;
	}
	if (s->cpu_first[cpu] < 0 || ts < s->cpu_first[cpu])
		s->cpu_first[cpu] = ts;
}

/* systrace appends a clock sync of its own at time 0 ("dummy-0000 [000]
 * 0.0: 0: trace_event_clock_sync: parent_ts=0.0"): no event of the
 * trace's, so not where it begins. */
static int clock_sync(const struct st_line *l)
{
	const char *a = l->args;
	size_t n = l->args_len;

	if (n > 20 && !memcmp(a, "tracing_mark_write: ", 20))
		a += 20, n -= 20;
	return n >= 22 && !memcmp(a, "trace_event_clock_sync", 22);
}

int st_event(struct st *s, const struct st_line *l, struct bt_err *err)
{
	s->events++;
	if (!clock_sync(l)) {
		note_cpu(s, l->cpu, l->ts);
		if (!s->spanned++ || l->ts < s->first_ts)
			s->first_ts = l->ts;
		if (l->ts > s->last_ts)
			s->last_ts = l->ts;
	}
	if (l->pid) {
		st_thread_name(s, l->pid, l->task, l->task_len);
		if (l->tgid >= 0)
			st_thread_of(s, l->pid)->tgid = l->tgid;
	}
	switch (l->event_len) {
	case 1:
		if (l->event[0] == '0')
			return marker(s, l->pid, l->ts, l->args, l->args_len, err);
		break;
	case 5:
		if (is(l, "print", 5))
			return marker(s, l->pid, l->ts, l->args, l->args_len, err);
		break;
	case 12:
		if (is(l, "sched_switch", 12))
			return sched_switch(s, l, err);
		if (is(l, "sched_wakeup", 12))
			return sched_wakeup(s, l, ST_EV_WAKEUP, err);
		if (is(l, "sched_waking", 12))
			return sched_wakeup(s, l, ST_EV_WAKING, err);
		if (is(l, "task_newtask", 12)) {
			task_name(s, l, "comm=", " clone_flags=");
			return BT_OK;
		}
		break;
	case 11:
		if (is(l, "task_rename", 11)) {
			task_name(s, l, "newcomm=", " oom_score_adj=");
			return BT_OK;
		}
		break;
	case 16:
		if (is(l, "sched_wakeup_new", 16))
			return sched_wakeup(s, l, ST_EV_WAKEUP, err);
		break;
	case 18:
		if (is(l, "tracing_mark_write", 18))
			return marker(s, l->pid, l->ts, l->args, l->args_len, err);
		if (is(l, "binder_transaction", 18))
			return binder_event(s, l, 0);
		break;
	case 27:
		if (is(l, "binder_transaction_received", 27))
			return binder_event(s, l, 1);
		break;
	case 20:
		if (is(l, "sched_blocked_reason", 20))
			return blocked_reason(s, l, err);
		break;
	default:
		break;
	}
	s->other_events++;
	return BT_OK;
}

/* "# entries-in-buffer/entries-written: 116/116   #P:1": what the
 * kernel's ring buffer lost before the dump. */
void st_header(struct st *s, const char *line, size_t n)
{
	static const char key[] = "entries-in-buffer/entries-written:";
	const char *k = n > sizeof key ? memchr(line, 'e', n) : NULL;
	char buf[128];
	unsigned long long a, b;

	if (!k || (size_t)(line + n - k) < sizeof key || memcmp(k, key, sizeof key - 1))
		return;
	n = (size_t)(line + n - k) - (sizeof key - 1);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, k + sizeof key - 1, n);
	buf[n] = '\0';
	if (sscanf(buf, " %llu/%llu", &a, &b) == 2) {
		s->entries += a;
		s->written += b;
	}
}

void st_event_release(struct st *s)
{
	size_t i;

	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	for (i = 0; i < s->nframes; i++)
		free(s->frames[i]);
	for (i = 0; i < s->nstrs; i++)
		free(s->strs[i]);
	for (i = 0; i < s->ntracks; i++)
		free(s->tracks[i].free);
	for (i = 0; i < s->nthreads; i++)
		free(s->threads[i].ev);
	free(s->names);
	free(s->frames);
	free(s->strs);
	free(s->tracks);
	free(s->threads);
	free(s->frame_type);
	free(s->frame_obj);
	free(s->async);
	free(s->cpu_first);
	bt_binder_events_free(s->binder);
	bt_map64_release(&s->thread_of);
	bt_map64_release(&s->process_of);
	bt_strmap_release(&s->name_of);
	bt_strmap_release(&s->frame_of);
	bt_strmap_release(&s->str_of);
	bt_strmap_release(&s->async_of);
}
