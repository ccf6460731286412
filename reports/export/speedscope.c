/*
 * speedscope export (see speedscope.h). The file is written front to back
 * through one buffer (and a gzip stream if asked): the frames by id, each
 * thread's timeline as its slices are read back from the slice log (only
 * the open ones are held), then the sampled profiles from the stacks'
 * call paths summed over messages.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/gzout.h"
#include "engine/base/names.h"
#include "engine/base/utf8.h"
#include "reports/export/speedscope.h"
#include "reports/report.h"

#define OUT_BUF (1u << 20)
#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

/* Where the bytes go: OUT_BUF at a time, to the file or through gzip. */
static void put(struct bt_gzout *o, const char *s, size_t len)
{
	bt_gzout_put(o, s, len);
}

static void puts_(struct bt_gzout *o, const char *s)
{
	put(o, s, strlen(s));
}

/* v in decimal at p (room for 20 characters), by hand: the events are
 * millions of them. Its length. */
static size_t int_text(char *p, int64_t v)
{
	char d[24];
	size_t n = sizeof d, len;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		d[--n] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		d[--n] = '-';
	len = sizeof d - n;
	memcpy(p, d + n, len);
	return len;
}

static void put_int(struct bt_gzout *o, int64_t v)
{
	char d[24];

	put(o, d, int_text(d, v));
}

/* s as a JSON string: valid UTF-8 (invalid sequences become U+FFFD),
 * quotes, backslashes and control characters escaped. */
static void put_str(struct bt_gzout *o, const char *s)
{
	struct bt_buf clean = BT_BUF_INIT;
	size_t len = strlen(s), i, run = 0;
	char esc[8];

	if (!bt_utf8_valid(s, len)) {
		bt_utf8_sanitize(&clean, s, len);
		s = clean.buf;
		len = clean.len;
	}
	put(o, "\"", 1);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(o, s + run, i - run);
		run = i + 1;
		if (c == '"' || c == '\\')
			snprintf(esc, sizeof esc, "\\%c", c);
		else if (c == '\n' || c == '\t' || c == '\r')
			snprintf(esc, sizeof esc, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			snprintf(esc, sizeof esc, "\\u%04x", c);
		puts_(o, esc);
	}
	put(o, s + run, len - run);
	put(o, "\"", 1);
	bt_buf_release(&clean);
}

/* A frame id's index in shared.frames: the id itself, 0 ("?") for one the
 * trace does not name. */
static uint32_t frame_index(const struct bt_stacks *s, int64_t id)
{
	return id > 0 && (size_t)id < s->nframes && s->frames[id] ? (uint32_t)id : 0;
}

static void frames(struct bt_gzout *o, const struct bt_stacks *s, const struct bt_namer *names)
{
	size_t i;

	puts_(o, "\"shared\":{\"frames\":[\n{\"name\":\"?\"}");
	for (i = 1; i < s->nframes; i++) {
		const char *full = s->frames[i], *shown = full ? bt_namer_get(names, full) : NULL;
		puts_(o, ",\n{\"name\":");
		put_str(o, shown && *shown ? shown : "?");
		if (shown && *shown && strcmp(shown, full)) {
			puts_(o, ",\"file\":");
			put_str(o, full);
		}
		puts_(o, "}");
	}
	puts_(o, "]},\n");
}

/* The threads the profiles are of, main first, then by tid: those with
 * slices and those of the stacks. */
static int64_t *thread_order(const struct bt_stacks *s, const struct bt_slicelog *log, size_t *n)
{
	size_t nlog, i, k = 0;
	int64_t *logged = bt_slicelog_tids(log, &nlog), main_tid = 0;
	int64_t *v = bt_xmalloc((nlog + s->nthreads + 1) * sizeof *v);
	int have_main = 0;

	for (i = 0; i < s->nthreads; i++)
		if (s->threads[i].is_main && !have_main) {
			have_main = 1;
			main_tid = v[k++] = s->threads[i].tid;
		}
	for (i = 0; i < nlog; i++)   /* ascending */
		if (!have_main || logged[i] != main_tid)
			v[k++] = logged[i];
	for (i = 0; i < s->nthreads; i++) {   /* a thread with no slices: at its place by tid */
		int64_t tid = s->threads[i].tid;
		size_t j, at = have_main;
		int known = 0;
		for (j = 0; j < k && !known; j++)
			known = v[j] == tid;
		if (known)
			continue;
		while (at < k && v[at] < tid)
			at++;
		memmove(v + at + 1, v + at, (k - at) * sizeof *v);
		v[at] = tid;
		k++;
	}
	free(logged);
	*n = k;
	return v;
}

/* The thread's name as every export gives it (stacks.h: its root). */
static void put_name(struct bt_gzout *o, const struct bt_stacks *s, int64_t tid, const char *what)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	for (i = 0; i < s->nthreads && s->threads[i].tid != tid; i++)
		;
	if (i < s->nthreads)
		bt_buf_adds(&b, s->threads[i].root);
	else
		bt_buf_addf(&b, "tid %" PRId64, tid);
	bt_buf_addf(&b, ": %s", what);
	put_str(o, b.buf);
	bt_buf_release(&b);
}

/* The open slices of a timeline, outermost first. */
struct open_slice {
	uint32_t frame;
	int64_t end;
};

struct timeline {
	struct bt_gzout *o;
	struct open_slice *open;
	size_t nopen, cap;
	int64_t t0, last, first;   /* the trace's start; the last event's time; the first's */
	int any;                   /* an event is written */
};

/* ',\n{"type":"O","frame":N,"at":T}', made in the buffer in place. */
#define EVENT_MAX 80

static void event(struct timeline *t, char type, uint32_t frame, int64_t at)
{
	static const char head[] = "{\"type\":\"O\",\"frame\":";
	struct bt_gzout *o = t->o;
	char *start = bt_gzout_room(o, EVENT_MAX), *p = start;

	if (t->any) {
		*p++ = ',';
		*p++ = '\n';
	} else {
		t->first = at;
	}
	t->any = 1;
	memcpy(p, head, sizeof head - 1);
	p[9] = type;
	p += sizeof head - 1;
	p += int_text(p, frame);
	memcpy(p, ",\"at\":", 6);
	p += 6;
	p += int_text(p, at);
	*p++ = '}';
	bt_gzout_used(o, (size_t)(p - start));
	t->last = at;
}

static void close_top(struct timeline *t)
{
	const struct open_slice *x = &t->open[--t->nopen];

	event(t, 'C', x->frame, x->end);
}

/*
 * Slice s opens, after the slices it follows close. In time order and
 * nested, as speedscope requires (it refuses a file otherwise), whatever
 * the slices: a reconstruction's are (a child within its parent, siblings
 * one after another), and a slice that is not is cut to fit.
 */
static void open_slice(struct timeline *t, const struct bt_stacks *s, const struct bt_slice *x)
{
	int64_t at, end, room = INT64_MAX;

	while (t->nopen && (int64_t)t->nopen > x->depth)
		close_top(t);
	if (t->nopen)
		room = t->open[t->nopen - 1].end;
	at = bt_sat_add(x->ts, -t->t0);
	end = bt_sat_add(at, x->dur);
	if (t->any && at < t->last)
		at = t->last;
	if (at > room)
		at = room;
	end = end < at ? at : end > room ? room : end;
	BT_GROW(t->open, t->nopen + 1, t->cap);
	t->open[t->nopen].frame = frame_index(s, x->frame_id);
	t->open[t->nopen++].end = end;
	event(t, 'O', t->open[t->nopen - 1].frame, at);
}

/* Thread tid's slices as an evented profile, if it has any. */
static int timeline(struct bt_gzout *o, const struct bt_stacks *s, struct bt_slicelog_reader *r, int64_t tid,
		    struct timeline *t, int *first, struct bt_err *err)
{
	struct bt_slice x;
	int64_t span = bt_sat_add(s->last_ts, -s->first_ts);
	int rc;

	if (!bt_slicelog_reader_thread(r, tid))
		return BT_OK;
	puts_(o, *first ? "{\"type\":\"evented\",\"name\":" : ",\n{\"type\":\"evented\",\"name\":");
	*first = 0;
	put_name(o, s, tid, "wall time");
	puts_(o, ",\"unit\":\"nanoseconds\",\"events\":[\n");
	t->nopen = 0;
	t->any = 0;
	t->first = t->last = 0;
	while ((rc = bt_slicelog_reader_next(r, &x, err)) == 1)
		open_slice(t, s, &x);
	while (t->nopen)
		close_top(t);
	puts_(o, "],\"startValue\":");   /* the trace's start, where every thread's timeline begins */
	put_int(o, t->first < 0 ? t->first : 0);
	puts_(o, ",\"endValue\":");
	put_int(o, t->last > span ? t->last : span);
	puts_(o, "}");
	return rc < 0 ? err->code : BT_OK;
}

/* A call path's self CPU ns and allocated bytes, summed over messages;
 * next: the thread's next path, in order of first appearance. */
struct path_sum {
	uint32_t path, next;
	int64_t cpu, bytes;
};

struct path_sums {
	struct path_sum *v;     /* from 1: 0 ends a chain */
	size_t n;
	uint32_t *head;         /* by stacks thread: its first path's sum */
};

static void sum_paths(const struct bt_stacks *s, struct path_sums *l)
{
	uint32_t *at = bt_xcalloc(s->npaths + 1, sizeof *at);   /* by path: its sum */
	uint32_t *tail = bt_xcalloc(s->nthreads + 1, sizeof *tail);
	size_t cap = 0, i;

	l->v = NULL;
	l->n = 1;
	BT_GROW(l->v, 1, cap);
	l->head = bt_xcalloc(s->nthreads + 1, sizeof *l->head);
	for (i = 0; i < s->n; i++) {
		const struct bt_stacks_entry *e = &s->e[i];
		uint32_t k = at[e->path], th = s->ctx[e->ctx].thread;
		if (!k) {
			BT_GROW(l->v, l->n + 1, cap);
			k = at[e->path] = (uint32_t)l->n++;
			memset(&l->v[k], 0, sizeof l->v[k]);
			l->v[k].path = e->path;
			if (tail[th])
				l->v[tail[th]].next = k;
			else
				l->head[th] = k;
			tail[th] = k;
		}
		l->v[k].cpu = bt_sat_add(l->v[k].cpu, bt_stacks_value(s, e, BT_SV_CPU));
		l->v[k].bytes = bt_sat_add(l->v[k].bytes, bt_stacks_value(s, e, BT_SV_ABYTES));
	}
	free(at);
	free(tail);
}

/* A path's frames, outermost first, as a JSON array. */
static void put_stack(struct bt_gzout *o, const struct bt_stacks *s, uint32_t p, uint32_t **buf, size_t *cap)
{
	size_t n = 0;

	for (; p; p = s->parent[p]) {
		BT_GROW(*buf, n + 1, *cap);
		(*buf)[n++] = frame_index(s, s->frame[p]);
	}
	put(o, "[", 1);
	while (n--) {
		put_int(o, (*buf)[n]);
		if (n)
			put(o, ",", 1);
	}
	put(o, "]", 1);
}

static int64_t path_value(const struct path_sum *x, int bytes)
{
	return bytes ? x->bytes : x->cpu;
}

/* Thread tid's self CPU time (bytes: allocated bytes) by call path as a
 * sampled profile, if any is positive. */
static void sampled(struct bt_gzout *o, const struct bt_stacks *s, const struct path_sums *l, int64_t tid, int bytes,
		    int *first, uint32_t **buf, size_t *cap)
{
	size_t th;
	uint32_t k;
	int64_t total = 0;
	int any = 0;

	for (th = 0; th < s->nthreads && s->threads[th].tid != tid; th++)
		;
	if (th == s->nthreads)
		return;
	for (k = l->head[th]; k; k = l->v[k].next)
		if (path_value(&l->v[k], bytes) > 0)
			total = bt_sat_add(total, path_value(&l->v[k], bytes));
	if (total <= 0)
		return;
	puts_(o, *first ? "{\"type\":\"sampled\",\"name\":" : ",\n{\"type\":\"sampled\",\"name\":");
	*first = 0;
	put_name(o, s, tid, bytes ? "allocated bytes" : "CPU time");
	puts_(o, bytes ? ",\"unit\":\"bytes\"" : ",\"unit\":\"nanoseconds\"");
	puts_(o, ",\"startValue\":0,\"endValue\":");
	put_int(o, total);
	puts_(o, ",\"samples\":[\n");
	for (k = l->head[th]; k; k = l->v[k].next)
		if (path_value(&l->v[k], bytes) > 0) {
			if (any++)
				put(o, ",\n", 2);
			put_stack(o, s, l->v[k].path, buf, cap);
		}
	puts_(o, "],\"weights\":[\n");
	any = 0;
	for (k = l->head[th]; k; k = l->v[k].next)
		if (path_value(&l->v[k], bytes) > 0) {
			if (any++)
				put(o, ",\n", 2);
			put_int(o, path_value(&l->v[k], bytes));
		}
	puts_(o, "]}");
}

static void header(struct bt_gzout *o, const struct bt_stacks *s)
{
	puts_(o, "{\"$schema\":\"" SCHEMA "\",\n\"exporter\":\"btrace-analyze\",\n");
	if (s->process) {   /* else speedscope names the file by its first profile */
		puts_(o, "\"name\":");
		put_str(o, s->process);
		puts_(o, ",\n");
	}
	puts_(o, "\"activeProfileIndex\":0,\n");   /* the main thread's timeline, first */
}

static int profiles(struct bt_gzout *o, const struct bt_stacks *s, const struct bt_slicelog *log, struct bt_err *err)
{
	struct bt_slicelog_reader *r = bt_slicelog_reader_new(log);
	struct timeline t;
	struct path_sums l;
	uint32_t *buf = NULL;
	size_t nt, i, cap = 0;
	int64_t *tids = thread_order(s, log, &nt);
	int first = 1, rc = BT_OK;

	bt_slicelog_reader_brief(r);
	memset(&t, 0, sizeof t);
	t.o = o;
	t.t0 = s->first_ts;
	sum_paths(s, &l);
	puts_(o, "\"profiles\":[\n");
	for (i = 0; i < nt && !rc && !o->rc; i++)
		rc = timeline(o, s, r, tids[i], &t, &first, err);
	for (i = 0; i < nt && !s->cpu_unknown; i++)
		sampled(o, s, &l, tids[i], 0, &first, &buf, &cap);
	for (i = 0; i < nt && !s->no_alloc; i++)
		sampled(o, s, &l, tids[i], 1, &first, &buf, &cap);
	puts_(o, "\n]}\n");
	bt_slicelog_reader_free(r);
	free(t.open);
	free(l.v);
	free(l.head);
	free(buf);
	free(tids);
	return rc;
}

int bt_speedscope_write(const struct bt_stacks *s, const struct bt_slicelog *log, const struct bt_namer *names,
			int gz, FILE *fp, struct bt_err *err)
{
	struct bt_gzout o;
	int rc, orc;

	if (bt_gzout_open(&o, fp, gz, OUT_BUF, "the speedscope file", err))
		return err->code;
	header(&o, s);
	frames(&o, s, names);
	rc = profiles(&o, s, log, err);
	orc = bt_gzout_close(&o);
	return rc ? rc : orc;
}

/* A path ending in ".gz" asks for the file gzip'd. */
static int gzip_path(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

static int write_export(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	return bt_speedscope_write(x->stacks, x->slices, x->names, gzip_path(x->path), out, err);
}

const struct bt_exporter bt_exp_speedscope = { "speedscope", NULL, BT_NEED_STACKS | BT_NEED_SLICES,
					       write_export };
