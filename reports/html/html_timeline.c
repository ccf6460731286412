/*
 * The HTML report's timeline data (see html_int.h): a lane per thread,
 * main first, with its Looper messages, its waits and the waker of each
 * (a waker without slices gets a lane of its own, so every arrow has both
 * ends), its scheduler states where the trace has them (a band, as
 * Perfetto draws them), and where its packed slices sit in the base64 block that
 * follows; the display frames for the track above the main thread's lane
 * (html_frames.c); times from t0. timeline.js draws what is in view,
 * merging the slices narrower than a pixel.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "reports/html/html_int.h"

struct thread {
	int64_t tid, pid;   /* pid -1: not known */
	char *name;
};

/* The lanes being written: the slices' lanes, then the wakers' without. */
struct tl_out {
	int64_t *tid;
	size_t n, cap;
	struct bt_map64 seen;        /* tid -> 1 */
	struct thread *th;           /* the threads table */
	size_t nth;
	char **kind;                 /* the waits' kinds, by index */
	size_t nkind, kcap;
	char **state;                /* the states' names, by index */
	size_t nstate, scap;
	int64_t t0;
	int processes;               /* the capture's processes: with several, lanes say theirs */
};

static int64_t floor_us(int64_t ns)
{
	return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
}

static void lane_add(struct tl_out *o, int64_t tid)
{
	if (bt_map64_get(&o->seen, (uint64_t)tid))
		return;
	BT_GROW(o->tid, o->n + 1, o->cap);
	o->tid[o->n++] = tid;
	bt_map64_put(&o->seen, (uint64_t)tid, 1);
}

/* The index of name k among names (added if new). */
static int64_t name_of(char ***names, size_t *n, size_t *cap, const char *k)
{
	size_t i;

	k = k ? k : "?";
	for (i = 0; i < *n; i++)
		if (!strcmp((*names)[i], k))
			return (int64_t)i;
	BT_GROW(*names, *n + 1, *cap);
	(*names)[*n] = bt_xstrdup(k);
	return (int64_t)(*n)++;
}

static int64_t kind_of(struct tl_out *o, const char *k)
{
	return name_of(&o->kind, &o->nkind, &o->kcap, k);
}

static int load_threads(struct bt_db *db, struct tl_out *o, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_THREADS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *name = bt_rows_type(r, 1) == BT_ROWS_NULL ? NULL : bt_rows_text(r, 1, NULL);
		char tid[32];
		BT_GROW(o->th, o->nth + 1, cap);
		o->th[o->nth].tid = bt_rows_int(r, 0);
		o->th[o->nth].pid = bt_rows_type(r, 3) == BT_ROWS_NULL ? -1 : bt_rows_int(r, 3);
		snprintf(tid, sizeof tid, "tid %lld", (long long)o->th[o->nth].tid);   /* as every report names it */
		o->th[o->nth++].name = bt_xstrdup(name ? name : tid);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* "processes": [[pid, name, lead], ...], the lead first, for a capture
 * of several (a lane then says its pid); nothing for one. */
static int processes(struct bt_db *db, struct tl_out *o, struct bt_jsonw *w, struct bt_err *err)
{
	struct proc { int64_t pid, lead; char *name; } *v = NULL;
	struct bt_rows *r = NULL;
	size_t n = 0, cap = 0, i;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_HTML_PROCESSES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		BT_GROW(v, n + 1, cap);
		v[n].pid = bt_rows_int(r, 0);
		v[n].name = bt_rows_type(r, 1) == BT_ROWS_NULL ? NULL : bt_xstrdup(bt_rows_text(r, 1, NULL));
		v[n++].lead = bt_rows_int(r, 2);
	}
	bt_rows_close(r);
	o->processes = (int)n;
	if (n > 1) {
		bt_jsonw_key(w, "processes");
		bt_jsonw_begin_array(w);
		for (i = 0; i < n; i++) {
			bt_jsonw_begin_array(w);
			bt_jsonw_int(w, v[i].pid);
			if (v[i].name)
				bt_jsonw_cstr(w, v[i].name);
			else
				bt_jsonw_null(w);
			bt_jsonw_int(w, v[i].lead);
			bt_jsonw_end_array(w);
		}
		bt_jsonw_end_array(w);
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return rc < 0 ? err->code : BT_OK;
}

/* Thread tid of the threads table, or NULL. */
static const struct thread *thread_of(const struct tl_out *o, int64_t tid)
{
	size_t i;

	for (i = 0; i < o->nth; i++)
		if (o->th[i].tid == tid)
			return &o->th[i];
	return NULL;
}

static int64_t thread_pid(const struct tl_out *o, int64_t tid)
{
	const struct thread *t = thread_of(o, tid);

	return t ? t->pid : -1;
}

static const char *thread_name(const struct tl_out *o, int64_t tid, char *buf, size_t len)
{
	const struct thread *t = thread_of(o, tid);

	if (t)
		return t->name;
	snprintf(buf, len, "tid %lld", (long long)tid);   /* as every report names it */
	return buf;
}

/* "msgs": [ts, dur, cpu, msg id] per message, the first BT_HTML_MESSAGES. */
static int messages(struct bt_db *db, int64_t tid, const struct tl_out *o, struct bt_jsonw *w,
		    struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t n = 0;
	int rc, c;

	if (bt_rows_open(&r, db, BT_SQL_HTML_MESSAGES, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	bt_jsonw_key(w, "msgs");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1)
		if (n++ < BT_HTML_MESSAGES)
			for (c = 0; c < 4; c++)
				bt_jsonw_int(w, bt_rows_int(r, c) - (c == 0 ? o->t0 : 0));
	bt_jsonw_end_array(w);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	bt_jsonw_key(w, "msgs_total");
	bt_jsonw_int(w, n);
	return BT_OK;
}

/* "waits": [ts, dur, kind, waker tid, waker ts] per wait, longest first;
 * waker tid -1 (and ts 0) when unknown. */
static int waits(struct bt_db *db, int64_t tid, struct tl_out *o, struct bt_jsonw *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t n = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_HTML_EDGES, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	bt_jsonw_key(w, "waits");
	bt_jsonw_begin_array(w);
	while ((rc = bt_rows_next(r, err)) == 1) {
		int known = bt_rows_type(r, 3) != BT_ROWS_NULL && bt_rows_type(r, 4) != BT_ROWS_NULL;
		if (n++ >= BT_HTML_WAITS)
			continue;
		bt_jsonw_int(w, bt_rows_int(r, 0) - o->t0);
		bt_jsonw_int(w, bt_rows_int(r, 1));
		bt_jsonw_int(w, kind_of(o, bt_rows_text(r, 2, NULL)));
		bt_jsonw_int(w, known ? bt_rows_int(r, 3) : -1);
		bt_jsonw_int(w, known ? bt_rows_int(r, 4) - o->t0 : 0);
		if (known)
			lane_add(o, bt_rows_int(r, 3));
	}
	bt_jsonw_end_array(w);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	bt_jsonw_key(w, "waits_total");
	bt_jsonw_int(w, n);
	return BT_OK;
}

/* "states": [ts, dur, state] per scheduler state, the first
 * BT_HTML_STATES in time order; none (no key) for a thread without. */
static int states(struct bt_db *db, int64_t tid, struct tl_out *o, struct bt_jsonw *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t n = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_HTML_STATES, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	while ((rc = bt_rows_next(r, err)) == 1) {
		if (!n) {
			bt_jsonw_key(w, "states");
			bt_jsonw_begin_array(w);
		}
		if (n++ >= BT_HTML_STATES)
			continue;
		bt_jsonw_int(w, bt_rows_int(r, 0) - o->t0);
		bt_jsonw_int(w, bt_rows_int(r, 1));
		bt_jsonw_int(w, name_of(&o->state, &o->nstate, &o->scap, bt_rows_text(r, 2, NULL)));
	}
	bt_rows_close(r);
	if (n) {
		bt_jsonw_end_array(w);
		bt_jsonw_key(w, "states_total");
		bt_jsonw_int(w, n);
	}
	return rc < 0 ? err->code : BT_OK;
}

static void ints(struct bt_jsonw *w, const char *key, const int64_t *v, size_t n)
{
	size_t i;

	bt_jsonw_key(w, key);
	bt_jsonw_begin_array(w);
	for (i = 0; i < n; i++)
		bt_jsonw_int(w, v[i]);
	bt_jsonw_end_array(w);
}

/* Lane i: its thread, its slices' place in the block (l NULL: none). */
static int lane(struct bt_db *db, struct tl_out *o, size_t i, const struct bt_html_lane *l, int64_t main_tid,
		int64_t *off, struct bt_jsonw *w, struct bt_err *err)
{
	char buf[32];
	int64_t tid = o->tid[i];
	size_t nd;
	int rc;

	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "tid");
	bt_jsonw_int(w, tid);
	bt_jsonw_key(w, "name");
	bt_jsonw_cstr(w, thread_name(o, tid, buf, sizeof buf));
	bt_jsonw_key(w, "main");
	bt_jsonw_int(w, tid == main_tid);
	if (o->processes > 1) {
		bt_jsonw_key(w, "pid");
		bt_jsonw_int(w, thread_pid(o, tid));
	}
	bt_jsonw_key(w, "count");
	bt_jsonw_int(w, l ? l->count : 0);
	bt_jsonw_key(w, "kept");
	bt_jsonw_int(w, l ? l->kept : 0);
	bt_jsonw_key(w, "base");   /* us from t0 */
	bt_jsonw_int(w, l && l->kept ? l->base_us - floor_us(o->t0) : 0);
	bt_jsonw_key(w, "off");
	bt_jsonw_int(w, *off);
	bt_jsonw_key(w, "len");
	bt_jsonw_int(w, l ? (int64_t)l->len : 0);
	for (nd = l ? l->ndepth : 0; nd && !l->depth[nd - 1]; nd--)
		;
	ints(w, "depths", l ? l->depth : NULL, nd);
	*off += l ? (int64_t)l->len : 0;
	rc = messages(db, tid, o, w, err);
	if (!rc)
		rc = waits(db, tid, o, w, err);
	if (!rc)
		rc = states(db, tid, o, w, err);
	bt_jsonw_end_object(w);
	return rc;
}

static void out_release(struct tl_out *o)
{
	size_t i;

	for (i = 0; i < o->nth; i++)
		free(o->th[i].name);
	for (i = 0; i < o->nkind; i++)
		free(o->kind[i]);
	for (i = 0; i < o->nstate; i++)
		free(o->state[i]);
	free(o->th);
	free(o->kind);
	free(o->state);
	free(o->tid);
	bt_map64_release(&o->seen);
}

int bt_html_timeline_write(struct bt_db *db, const struct bt_html_lanes *ls, const struct bt_facts *f,
			   struct bt_jsonw *w, struct bt_err *err)
{
	struct tl_out o;
	char t0[32];
	int64_t off = 0;
	size_t i;
	int rc;

	memset(&o, 0, sizeof o);
	o.t0 = f->start_ns;
	bt_map64_init(&o.seen, 64);
	for (i = 0; i < ls->n; i++)
		lane_add(&o, ls->v[i]->tid);
	bt_jsonw_key(w, "timeline");
	bt_jsonw_begin_object(w);
	snprintf(t0, sizeof t0, "%lld", (long long)f->start_ns);
	bt_jsonw_key(w, "t0");   /* a string: epoch-based ns need more than a double's 53 bits */
	bt_jsonw_cstr(w, t0);
	bt_jsonw_key(w, "span_ns");
	bt_jsonw_int(w, f->end_ns - f->start_ns);
	bt_jsonw_key(w, "slices_total");
	bt_jsonw_int(w, ls->total);
	bt_jsonw_key(w, "slices_kept");
	bt_jsonw_int(w, ls->kept);
	bt_jsonw_key(w, "min_dur_ns");
	bt_jsonw_int(w, ls->min_us * 1000);
	rc = load_threads(db, &o, err);
	if (!rc)
		rc = processes(db, &o, w, err);
	bt_jsonw_key(w, "lanes");
	bt_jsonw_begin_array(w);
	for (i = 0; !rc && i < o.n; i++)   /* o.n grows as waits name new wakers */
		rc = lane(db, &o, i, i < ls->n ? ls->v[i] : NULL, f->main_tid, &off, w, err);
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "kinds");
	bt_jsonw_begin_array(w);
	for (i = 0; i < o.nkind; i++)
		bt_jsonw_cstr(w, o.kind[i]);
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "states");
	bt_jsonw_begin_array(w);
	for (i = 0; i < o.nstate; i++)
		bt_jsonw_cstr(w, o.state[i]);
	bt_jsonw_end_array(w);
	if (!rc)
		rc = bt_html_frames_write(db, f, w, err);
	bt_jsonw_end_object(w);
	out_release(&o);
	return rc;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 of bytes that come in pieces: a group of three may span two. */
struct b64 {
	unsigned char carry[3];
	int ncarry;
	char out[4096];
	size_t nout;
	FILE *fp;
};

static void quad(struct b64 *b, const unsigned char *s, int n)
{
	uint32_t v = (uint32_t)s[0] << 16 | (uint32_t)(n > 1 ? s[1] : 0) << 8 | (n > 2 ? s[2] : 0);

	if (b->nout + 4 > sizeof b->out) {
		fwrite(b->out, 1, b->nout, b->fp);
		b->nout = 0;
	}
	b->out[b->nout++] = B64[v >> 18 & 63];
	b->out[b->nout++] = B64[v >> 12 & 63];
	b->out[b->nout++] = n > 1 ? B64[v >> 6 & 63] : '=';
	b->out[b->nout++] = n > 2 ? B64[v & 63] : '=';
}

static void b64_add(struct b64 *b, const unsigned char *p, size_t len)
{
	while (len && b->ncarry) {
		b->carry[b->ncarry++] = *p++;
		len--;
		if (b->ncarry == 3) {
			quad(b, b->carry, 3);
			b->ncarry = 0;
		}
	}
	for (; len >= 3; p += 3, len -= 3)
		quad(b, p, 3);
	while (len--)
		b->carry[b->ncarry++] = *p++;
}

void bt_html_timeline_blob(const struct bt_html_lanes *ls, FILE *out, struct bt_html_progress *p)
{
	struct b64 b;
	size_t i;

	memset(&b, 0, sizeof b);
	b.fp = out;
	for (i = 0; i < ls->n; i++) {
		b64_add(&b, ls->v[i]->buf, ls->v[i]->len);
		if (p)
			bt_html_progress(p, (uint64_t)ls->v[i]->kept);
	}
	if (b.ncarry)
		quad(&b, b.carry, b.ncarry);
	fwrite(b.out, 1, b.nout, out);
}
