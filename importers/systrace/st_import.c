/*
 * The systrace importer: ftrace text as atrace and systrace write it
 * (with and without the TGID column; plain, gzip'd, atrace's zlib'd
 * "TRACE:" output, or inside a systrace HTML page). Every thread's atrace
 * B/E markers become its slices; counters, async slices and instants go
 * to counters, track_slices and instants; the scheduler's events, when the trace
 * has them, give the threads' states, the slices' CPU time and the waits'
 * kernel wakers (st_*.c, st_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/process.h"
#include "importers/symbol.h"
#include "importers/systrace/st_int.h"

#define PROBE_BYTES 4096

static int starts(const unsigned char *b, size_t n, const char *s)
{
	size_t k = strlen(s);

	return n >= k && !memcmp(b, s, k);
}

static int starts_nocase(const unsigned char *b, size_t n, const char *s)
{
	size_t k = strlen(s), i;

	if (n < k)
		return 0;
	for (i = 0; i < k; i++)
		if ((b[i] | 0x20) != (s[i] | 0x20))
			return 0;
	return 1;
}

/* ftrace text, atrace's output or a systrace page, by its first bytes. */
static int looks_like_systrace(const unsigned char *b, size_t n)
{
	struct st_line l;
	size_t i = 0, e;

	if (starts(b, n, "\xEF\xBB\xBF"))
		i = 3;
	for (e = i; e + 7 <= n && e < i + 2048; e++)
		if (b[e] == 'T' && !memcmp(b + e, "TRACE:", 6) && (b[e + 6] == '\n' || b[e + 6] == '\r') &&
		    (e == i || b[e - 1] == '\n' || b[e - 1] == ' ')) {
			/* atrace's output: zlib streams, or the text itself */
			for (e += 6; e < n && (b[e] == '\r' || b[e] == '\n'); e++)
				;
			return (n - e >= 2 && (b[e] & 0x0f) == 8 && ((unsigned)b[e] << 8 | b[e + 1]) % 31 == 0) ||
			       (e < n && b[e] != 'T' && looks_like_systrace(b + e, n - e));
		}
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
		i++;
	b += i;
	n -= i;
	if (starts(b, n, "# tracer:"))
		return 1;
	if (starts_nocase(b, n, "<!doctype html") || starts_nocase(b, n, "<html"))
		return 1;
	if (starts(b, n, "cpus=")) {   /* trace-cmd report */
		const unsigned char *nl = memchr(b, '\n', n);
		if (!nl)
			return 0;
		n -= (size_t)(nl + 1 - b);
		b = nl + 1;
	}
	while (n && b[0] == '#') {   /* comments, then the first event */
		const unsigned char *nl = memchr(b, '\n', n);
		if (!nl)
			return 0;
		n -= (size_t)(nl + 1 - b);
		b = nl + 1;
	}
	e = 0;
	while (e < n && b[e] != '\n')
		e++;
	return e < n && st_line_parse((const char *)b, e, &l) != ST_LINE_BAD;
}

static int probe(const char *path, const unsigned char *head, size_t n)
{
	unsigned char buf[PROBE_BYTES];
	int k = 0;

	if (!head)
		return 0;
	if (bt_inflate_is(head, n, BT_INFLATE_GZIP)) {
		k = bt_inflate_head(path, buf, sizeof buf, NULL);
	} else {
		FILE *f = fopen(path, "rb");
		if (!f)
			return 0;
		k = (int)fread(buf, 1, sizeof buf, f);
		fclose(f);
	}
	return k > 0 && looks_like_systrace(buf, (size_t)k);
}

/* ---- reading the lines */

static void bad_line(struct st *s, const char *line, size_t n)
{
	size_t i, k = n < sizeof s->first_bad - 1 ? n : sizeof s->first_bad - 1;

	if (s->bad_lines++)
		return;
	s->first_bad_off = s->in.line_off;
	for (i = 0; i < k; i++)
		s->first_bad[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
	s->first_bad[k] = '\0';
}

static int blank(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	return !n;
}

/* Where the text is cut, for messages: the file's offset, or the
 * inflated text's. */
static void where(const struct st *s, struct bt_buf *b, uint64_t off, int in_file)
{
	if (s->in.kind == ST_TEXT || in_file)
		bt_buf_addf(b, "byte offset %llu", (unsigned long long)off);
	else
		bt_buf_addf(b, "byte offset %llu of the inflated text", (unsigned long long)off);
}

/* The text ends early: a compressed stream cut, a page's trace data never
 * closed, a last line cut inside. --strict makes it an error. */
static int cut_short(struct st *s, const char *what, uint64_t off, int in_file, struct bt_err *err)
{
	struct bt_buf b = BT_BUF_INIT;
	int rc;

	where(s, &b, off, in_file);
	if (s->o->strict)
		rc = bt_err_set(err, BT_EFORMAT, "%s in '%s' at %s", what, s->path, b.buf);
	else
		rc = bt_diag_partial(s->diag, s->db, "truncated_trace", err,
				     "%s in '%s' at %s; the %llu events before it imported", what, s->path, b.buf,
				     (unsigned long long)s->events);
	bt_buf_release(&b);
	return rc;
}

static int read_lines(struct st *s, struct bt_err *err)
{
	const char *line;
	size_t n;
	int rc, last_cut = 0;
	uint64_t last_off = 0;
	struct st_line l;

	while ((rc = st_in_line(&s->in, &line, &n, err)) == 1) {
		s->lines++;
		if ((s->lines & 0xffff) == 0 && s->o->progress)
			s->o->progress(s->o->progress_ctx, s->in.pos, s->in.map.len);
		if (s->in.dump) {
			st_dump(s, line, n);
			continue;
		}
		if (!n || line[0] == '#') {
			if (n)
				st_header(s, line, n);
			continue;
		}
		if (s->in.last_unterminated) {
			last_cut = 1;   /* ftrace ends every line: this one was cut */
			last_off = s->in.line_off;
			break;
		}
		switch (st_line_parse(line, n, &l)) {
		case ST_LINE_OK:
			if ((rc = st_event(s, &l, err)) != 0)
				return rc;
			break;
		case ST_LINE_RANGE:
			s->range++;
			break;
		default:
			if (blank(line, n))
				break;
			if (n >= 6 && !memcmp(line, "TRACE:", 6) && !s->events) {
				s->bad_lines = 0;   /* atrace's chatter before its trace */
				break;
			}
			bad_line(s, line, n);
		}
	}
	if (rc < 0)
		return err->code;
	if (s->in.html != ST_HTML_NONE && !s->in.have_ftrace)
		return bt_err_set(err, BT_EFORMAT, "no systrace data in the HTML page '%s' (no <script class=\"trace-data\"> "
				  "block of ftrace text, no linuxPerfData)", s->path);
	if (s->in.z.cut)
		return cut_short(s, s->in.kind == ST_GZIP ? "truncated gzip stream" : "truncated zlib stream",
				 s->in.z.cut_at, 1, err);
	if (s->in.html == ST_HTML_BLOCK || s->in.html == ST_HTML_JS)
		return cut_short(s, "the page ends inside its trace data", s->in.line_off, 0, err);
	if (last_cut)
		return cut_short(s, "a line cut short", last_off, 0, err);
	return BT_OK;
}

/* ---- what the read found */

/* A process as people know it: its PROCESS DUMP name, else its main
 * thread's. */
static const char *process_label(const struct st *s, int64_t pid)
{
	uint32_t name = bt_map64_get(&s->process_of, (uint64_t)pid);
	uint32_t t = bt_map64_get(&s->thread_of, (uint64_t)pid);

	if (!name && t)
		name = s->threads[t - 1].name ? s->threads[t - 1].name : s->threads[t - 1].dump_name;
	return name ? s->names[name - 1] : NULL;
}

struct st_cand {
	int64_t pid;
	uint64_t slices;
};

static int by_slices(const void *a, const void *b)
{
	const struct st_cand *x = a, *y = b;

	if (x->slices != y->slices)
		return x->slices > y->slices ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The process --process names, else the one most slices began in (ties:
 * the lower pid); several of one name: the one with most slices. */
static int choose(struct st *s, struct bt_err *err)
{
	struct bt_map64 per;
	struct st_cand *c = NULL;
	size_t n = 0, cap = 0, i;
	const char *want = s->o ? s->o->process : NULL;
	int rc = BT_OK;

	if (want && !strcmp(want, BT_PROCESS_ALL))
		want = NULL;   /* every process is kept (as always): the app chosen to lead */
	bt_map64_init(&per, 64);
	s->pid = s->main_tid = -1;
	for (i = 0; i < s->nthreads; i++) {
		const struct st_thread *t = &s->threads[i];
		uint32_t k;
		if (!t->begins || t->tgid <= 0)
			continue;
		k = bt_map64_get(&per, (uint64_t)t->tgid);
		if (!k) {
			BT_GROW(c, n + 1, cap);
			c[n].pid = t->tgid;
			c[n].slices = 0;
			bt_map64_put(&per, (uint64_t)t->tgid, k = (uint32_t)++n);
		}
		c[k - 1].slices += t->begins;
	}
	if (n)
		qsort(c, n, sizeof *c, by_slices);
	for (i = 0; want && i < n; i++)
		if (bt_process_wanted(want, c[i].pid, process_label(s, c[i].pid)))
			break;
	if (want && i == n) {
		struct bt_buf b = BT_BUF_INIT;
		for (i = 0; i < n && i < 5; i++) {
			const char *l = process_label(s, c[i].pid);
			bt_buf_addf(&b, "%s%s (pid %lld, %llu slices)", i ? ", " : "", l ? l : "?",
				    (long long)c[i].pid, (unsigned long long)c[i].slices);
		}
		rc = bt_err_set(err, BT_EUSAGE, "no process '%s' with slices in '%s'; those with most: %s", want,
				s->path, n ? b.buf : "none");
		bt_buf_release(&b);
	} else if (n) {
		s->pid = c[want ? i : 0].pid;
		s->choice = want ? "--process" : "most slices";
		if (bt_map64_get(&s->thread_of, (uint64_t)s->pid))
			s->main_tid = s->pid;
	}
	free(c);
	bt_map64_release(&per);
	return rc;
}

static int write_frames(struct st *s, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < s->nframes; i++) {
		const char *n = s->frames[i];
		struct bt_symbol sym;
		bt_symbol_parse(n, strlen(n), &sym);
		if (bt_db_exec(s->db, BT_SQL_INSERT_FRAME, err, "intssss", (int64_t)i + 1, n, sym.ret.p, sym.ret.len,
			       sym.cls.p, sym.cls.len, sym.method.p, sym.method.len, sym.params.p, sym.params.len))
			return err->code;
	}
	return BT_OK;
}

static int write_threads(struct st *s, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < s->nthreads; i++) {
		const struct st_thread *t = &s->threads[i];
		uint32_t name = t->name ? t->name : t->dump_name;
		if (t->tid > 0 && bt_db_exec(s->db, BT_SQL_INSERT_THREAD, err, "iti", t->tid,
					     name ? s->names[name - 1] : NULL, (int64_t)(t->tid == s->main_tid)))
			return err->code;
	}
	return BT_OK;
}

/* --process all: each thread's process where the trace prints it, and
 * the processes, the app's the lead. */
static int write_processes(struct st *s, struct bt_err *err)
{
	struct bt_map64 count;   /* tgid -> its threads */
	size_t i;
	int64_t n = 0;
	int rc = BT_OK;

	bt_map64_init(&count, 64);
	for (i = 0; i < s->nthreads && !rc; i++) {
		const struct st_thread *t = &s->threads[i];
		if (t->tid <= 0 || t->tgid <= 0)
			continue;
		rc = bt_db_exec(s->db, BT_SQL_SET_THREAD_PID, err, "ii", t->tid, t->tgid);
		bt_map64_put(&count, (uint64_t)t->tgid, bt_map64_get(&count, (uint64_t)t->tgid) + 1);
	}
	for (i = 0; i < count.cap && !rc; i++) {
		int64_t pid = (int64_t)count.slots[i].key;
		if (!count.slots[i].val)
			continue;
		n++;
		rc = bt_db_exec(s->db, BT_SQL_INSERT_PROCESS, err, "itttmimmii", pid, process_label(s, pid), s->path,
				"systrace", bt_map64_get(&s->thread_of, (uint64_t)pid) ? pid : INT64_MIN,
				(int64_t)(pid == s->pid), INT64_MIN, INT64_MIN, (int64_t)0, (int64_t)count.slots[i].val);
	}
	bt_map64_release(&count);
	return rc ? rc : bt_db_set_meta_int(s->db, "processes", n, err);
}

/* meta other_processes: how many processes besides the app's have slices
 * here (ftrace text keeps every process's markers, and so do the slices,
 * threads and figures: the reports' header says so under the app's name). */
static int other_processes(struct st *s, struct bt_err *err)
{
	struct bt_map64 seen;
	size_t i;
	int64_t n = 0;

	bt_map64_init(&seen, 64);
	for (i = 0; i < s->nthreads; i++) {
		const struct st_thread *t = &s->threads[i];
		if (t->begins && t->tgid > 0 && t->tgid != s->pid && !bt_map64_get(&seen, (uint64_t)t->tgid)) {
			bt_map64_put(&seen, (uint64_t)t->tgid, 1);
			n++;
		}
	}
	bt_map64_release(&seen);
	return n ? bt_db_set_meta_int(s->db, "other_processes", n, err) : BT_OK;
}

static int write_meta(struct st *s, struct bt_err *err)
{
	const char *page = st_in_page(&s->in);
	size_t i, threads = 0;
	int rc = bt_db_set_meta_text(s->db, "format", "systrace", err);

	for (i = 0; i < s->nthreads; i++)
		threads += s->threads[i].tid > 0;   /* the threads table's rows */
	rc = rc ? rc : bt_db_set_meta_text(s->db, "source", s->path, err);
	rc = rc ? rc : bt_db_set_meta_text(s->db, "container", st_in_container(&s->in), err);
	if (page)
		rc = rc ? rc : bt_db_set_meta_text(s->db, "page", page, err);
	rc = rc ? rc : bt_db_set_meta_text(s->db, "clock", "ftrace timestamps", err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "lines", (int64_t)s->lines, err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "events", (int64_t)s->events, err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "markers", (int64_t)s->markers, err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "sched_switches", (int64_t)s->switches, err);
	rc = rc ? rc : bt_db_set_meta_text(s->db, "cpu_time", s->switches ? "sched_switch" : "unknown", err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "no_alloc", 1, err);   /* ftrace text has no such counters */
	rc = rc ? rc : bt_db_set_meta_int(s->db, "no_faults", 1, err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "no_csw", 1, err);
	rc = rc ? rc : bt_db_set_meta_int(s->db, "sampled_threads", (int64_t)threads, err);
	if (s->pid > 0)
		rc = rc ? rc : other_processes(s, err);
	if (s->pid > 0) {
		const char *name = process_label(s, s->pid);
		rc = rc ? rc : bt_db_set_meta_int(s->db, "pid", s->pid, err);
		rc = rc ? rc : bt_db_set_meta_text(s->db, "process_choice", s->choice, err);
		if (name)
			rc = rc ? rc : bt_db_set_meta_text(s->db, "process_name", name, err);
	}
	if (s->main_tid > 0)
		rc = rc ? rc : bt_db_set_meta_int(s->db, "main_tid", s->main_tid, err);
	if (s->spanned) {   /* the trace's span, not only its slices' (the feed's) */
		rc = rc ? rc : bt_db_set_meta_int(s->db, "first_ts", s->first_ts, err);
		rc = rc ? rc : bt_db_set_meta_int(s->db, "last_ts", s->last_ts, err);
	}
	return rc;
}

static void report(struct st *s)
{
	const char *p = s->path;

	if (s->bad_lines)
		bt_diag_count(s->diag, "systrace_unparsed_line", s->bad_lines,
			      "lines of '%s' that are no ftrace event, the first at byte offset %llu: '%s'; skipped", p,
			      (unsigned long long)s->first_bad_off, s->first_bad);
	if (s->bad_markers)
		bt_diag_count(s->diag, "systrace_bad_marker", s->bad_markers,
			      "tracing_mark_write texts in '%s' that are no atrace marker (B|pid|name, E, C|pid|name|value, ...); skipped", p);
	if (s->range)
		bt_diag_count(s->diag, "value_out_of_range", s->range,
			      "timestamps past 2^62 ns or counter values past 2^53 in '%s'; skipped", p);
	if (s->sched_bad)
		bt_diag_count(s->diag, "systrace_bad_sched", s->sched_bad,
			      "scheduler events in '%s' without the fields they need (pid, state); skipped", p);
	if (s->binder_bad)
		bt_diag_count(s->diag, "systrace_bad_binder", s->binder_bad,
			      "binder events in '%s' without their fields (transaction, dest_thread, reply, flags); skipped",
			      p);
	if (s->other_events)
		bt_diag_count(s->diag, "systrace_other_events", s->other_events,
			      "ftrace events in '%s' of kinds not imported (only atrace markers, sched_switch, sched_wakeup/waking, sched_blocked_reason, task names, and with --process all binder_transaction(_received))", p);
	if (s->unmatched_end)
		bt_diag_count(s->diag, "systrace_unmatched_end", s->unmatched_end,
			      "E markers in '%s' on a thread with no open slice; skipped", p);
	if (s->unfinished)
		bt_diag_count(s->diag, "systrace_unfinished_slices", s->unfinished,
			      "slices in '%s' never ended (did not finish); they end at the trace's end", p);
	if (s->unmatched_async)
		bt_diag_count(s->diag, "systrace_unmatched_async", s->unmatched_async,
			      "async ends (F/H) in '%s' with no open begin, or begins (S/G) of one already open; skipped", p);
	if (s->deep)
		bt_diag_count(s->diag, "systrace_too_deep", s->deep, "slices in '%s' nested deeper than 512; dropped", p);
	if (s->cpu_unknown && !s->switches)
		bt_diag_count(s->diag, "systrace_cpu_unknown", s->cpu_unknown,
			      "'%s' has no sched_switch events: the slices' CPU time is unknown (NULL)", p);
	else if (s->cpu_unknown)
		bt_diag_count(s->diag, "systrace_cpu_unknown", s->cpu_unknown,
			      "slices in '%s' began before their thread's first sched_switch: their CPU time is unknown (NULL)", p);
	if (s->not_running)
		bt_diag_count(s->diag, "systrace_not_running", s->not_running,
			      "markers in '%s' of a thread the scheduler events say was not running (events lost?)", p);
	if (s->unlinked)
		bt_diag_count(s->diag, "systrace_unlinked_wait", s->unlinked,
			      "wait markers in '%s' with no waker: no wakeup of their thread inside them, no owner named, no notify of their object", p);
	if (s->written > s->entries)
		bt_diag_count(s->diag, "systrace_buffer_overrun", s->written - s->entries,
			      "the kernel's trace buffer of '%s' dropped %llu of %llu events before the dump; the trace's start is lost",
			      p, (unsigned long long)(s->written - s->entries), (unsigned long long)s->written);
	if (s->in.z.trailing)
		bt_diag_count(s->diag, "systrace_trailing_bytes", 1,
			      "%llu bytes after the compressed trace in '%s' (from byte offset %llu) are no %s stream; ignored",
			      (unsigned long long)s->in.z.trailing, p, (unsigned long long)(s->in.map.len - s->in.z.trailing),
			      st_in_container(&s->in));
	if (s->in.blocks_extra)
		bt_diag_count(s->diag, "systrace_extra_blocks", (uint64_t)s->in.blocks_extra,
			      "trace-data blocks of ftrace text in '%s' after the first; not imported", p);
}

static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
	       struct bt_err *err)
{
	struct st s;
	int rc;

	memset(&s, 0, sizeof s);
	s.db = db;
	s.path = path;
	s.o = o;
	s.diag = diag;
	s.all = o && o->process && !strcmp(o->process, BT_PROCESS_ALL);
	bt_map64_init(&s.thread_of, 256);
	bt_map64_init(&s.process_of, 16);
	bt_strmap_init(&s.name_of);
	bt_strmap_init(&s.frame_of);
	bt_strmap_init(&s.str_of);
	bt_strmap_init(&s.async_of);
	rc = st_in_open(&s.in, path, err);
	if (!rc)
		rc = read_lines(&s, err);
	if (!rc && !s.events && s.bad_lines)
		rc = bt_err_set(err, BT_EFORMAT, "no ftrace event lines in '%s': %llu lines, the first at byte offset %llu: '%s'",
				path, (unsigned long long)s.bad_lines, (unsigned long long)s.first_bad_off, s.first_bad);
	if (!rc)
		rc = choose(&s, err);
	if (!rc)
		rc = st_async_finish(&s, err);
	if (!rc)
		rc = st_threads(&s, err);
	if (!rc)
		rc = write_frames(&s, err);
	if (!rc)
		rc = write_threads(&s, err);
	if (!rc && s.all)
		rc = write_processes(&s, err);
	if (!rc)   /* once the threads, their processes and states are in */
		rc = bt_bevents_save(s.binder, db, diag, "systrace_binder_unpaired", path, err);
	if (!rc)
		rc = write_meta(&s, err);
	if (!rc)
		report(&s);
	st_store_close(&s);
	st_event_release(&s);
	st_in_close(&s.in);
	return rc;
}

const struct bt_importer bt_imp_systrace = {
	.name = "systrace", .noun = "a systrace",
	.brings = BT_BRINGS_SLICES | BT_BRINGS_PROCESSES | BT_BRINGS_CPU,
	.probe = probe, .run = run
};
