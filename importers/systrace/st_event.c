/*
 * What an ftrace line says, by its event: atrace's markers (st_marker.c),
 * the kernel's scheduler, task and binder events (st_kernel.c); here the
 * names (the task column, a process dump), the strings and frames they
 * intern, each thread's events into its store, and the trace's span.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
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

int st_add(struct st *s, int64_t tid, int64_t ts, int kind, uint32_t a, unsigned b, struct bt_err *err)
{
	struct st_ev e;

	e.ts = ts;
	e.a = a;
	e.kind = (uint16_t)kind;
	e.b = (uint16_t)b;
	return st_store_add(s, st_thread_of(s, tid), &e, err);
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
			return st_marker(s, l->pid, l->ts, l->args, l->args_len, err);
		break;
	case 5:
		if (is(l, "print", 5))
			return st_marker(s, l->pid, l->ts, l->args, l->args_len, err);
		break;
	case 12:
		if (is(l, "sched_switch", 12))
			return st_sched_switch(s, l, err);
		if (is(l, "sched_wakeup", 12))
			return st_sched_wakeup(s, l, ST_EV_WAKEUP, err);
		if (is(l, "sched_waking", 12))
			return st_sched_wakeup(s, l, ST_EV_WAKING, err);
		if (is(l, "task_newtask", 12)) {
			st_task_name(s, l, "comm=", " clone_flags=");
			return BT_OK;
		}
		break;
	case 11:
		if (is(l, "task_rename", 11)) {
			st_task_name(s, l, "newcomm=", " oom_score_adj=");
			return BT_OK;
		}
		break;
	case 16:
		if (is(l, "sched_wakeup_new", 16))
			return st_sched_wakeup(s, l, ST_EV_WAKEUP, err);
		break;
	case 18:
		if (is(l, "tracing_mark_write", 18))
			return st_marker(s, l->pid, l->ts, l->args, l->args_len, err);
		if (is(l, "binder_transaction", 18))
			return st_binder_event(s, l, 0);
		break;
	case 27:
		if (is(l, "binder_transaction_received", 27))
			return st_binder_event(s, l, 1);
		break;
	case 20:
		if (is(l, "sched_blocked_reason", 20))
			return st_blocked_reason(s, l, err);
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
	free(s->names);
	free(s->frames);
	free(s->strs);
	free(s->tracks);
	free(s->threads);
	free(s->frame_type);
	free(s->frame_obj);
	free(s->async);
	free(s->cpu_first);
	bt_bevents_free(s->binder);
	bt_map64_release(&s->thread_of);
	bt_map64_release(&s->process_of);
	bt_strmap_release(&s->name_of);
	bt_strmap_release(&s->frame_of);
	bt_strmap_release(&s->str_of);
	bt_strmap_release(&s->async_of);
}
