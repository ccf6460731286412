/*
 * The slice log (slice_log.h). A record is the slice's fields as zigzag
 * varints (a 1M-record trace's 3.5M slices take ~250 MB instead of ~600
 * MB as structs); a part's records go to its file in the order the
 * slices end, and an index by id finds them in preorder when read back.
 * Reading in preorder stays near where the slices ended (a subtree's
 * slices are together either way), so a few windows of the file, read
 * with pread (one offset per call: readers on several threads share the
 * file), serve each reader without mapping the whole log into memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "reports/export/slice_log.h"

#define NFIELDS 20
#define MAX_RECORD (NFIELDS * 10)
#define WINDOW (64 * 1024)
#define NWINDOWS 16

/* A part of the file read into memory. */
struct window {
	uint64_t start, used;        /* used: when last read from, to pick the one to reuse */
	size_t len;
	unsigned char *buf;
};

/* A thread of a part: its slices' ids [first, end). */
struct lthread {
	int64_t tid;
	uint64_t first, end;
};

struct log_part {
	FILE *fp;
	struct bt_buf path;          /* for messages: the file is unlinked at once */
	uint64_t size;               /* bytes written */
	uint64_t *off;               /* by id: its record's offset + 1 */
	size_t ocap;
	struct lthread *t;           /* in ascending tid order */
	size_t nt, tcap;
};

struct bt_slicelog {
	struct log_part p[2];
};

/* A reader's view of a part: its windows. */
struct reader_part {
	struct window win[NWINDOWS];
	uint64_t clock;
};

struct bt_slicelog_reader {
	const struct bt_slicelog *l;
	struct reader_part rp[2];
	size_t ti[2];                /* the next thread of each part */
	int cur;                     /* the part of the thread being read, or -1 */
	int one;                     /* one thread alone: its end is the end */
	size_t nfields;              /* the fields of a record read, from the first */
	int64_t tid;                 /* the thread being read */
	uint64_t id, end, next;      /* its next id and its end; slices given so far */
};

struct bt_slicelog *bt_slicelog_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_slicelog));
}

void bt_slicelog_free(struct bt_slicelog *l)
{
	int k;

	if (!l)
		return;
	for (k = 0; k < 2; k++) {
		struct log_part *p = &l->p[k];
		if (p->fp)
			fclose(p->fp);
		bt_buf_release(&p->path);
		free(p->off);
		free(p->t);
	}
	free(l);
}

static size_t put_varint(unsigned char *b, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;

	while (z >= 0x80) {
		b[n++] = (unsigned char)(z | 0x80);
		z >>= 7;
	}
	b[n++] = (unsigned char)z;
	return n;
}

static int open_part(struct log_part *p, struct bt_err *err)
{
	int fd = bt_temp_file("btrace-slices", "the slice log of the exports", &p->path, err);

	if (fd < 0)
		return err->code;
	bt_temps_remove(p->path.buf);
	if (!(p->fp = fdopen(fd, "w+b"))) {
		close(fd);
		return bt_err_set(err, BT_EIO, "cannot open the slice log '%s': %s", p->path.buf, strerror(errno));
	}
	setvbuf(p->fp, NULL, _IOFBF, 1 << 20);
	return BT_OK;
}

int bt_slicelog_add(struct bt_slicelog *l, int part, const struct bt_slice *s, struct bt_err *err)
{
	struct log_part *p = &l->p[part];
	const int64_t v[NFIELDS] = { s->depth, s->frame_id, s->ts, s->dur, s->cpu_dur, s->self_dur,
				     s->self_cpu_dur, s->block_dur, s->msg_id, s->sample_count,
				     s->alloc_objects, s->alloc_bytes, s->majflt, s->nvcsw, s->nivcsw,
				     s->type, s->wakeup_tid, s->gap_dur, s->gap_cpu_dur,
				     (s->idle != 0) | (s->cpu_unknown != 0) << 1 };   /* two flags, one field */
	unsigned char rec[MAX_RECORD];
	size_t n = 0, k;
	uint64_t id = (uint64_t)s->id;

	if (s->id <= 0)
		return bt_err_set(err, BT_EFORMAT, "slice id %lld out of range for the slice log", (long long)s->id);
	if (!p->fp && open_part(p, err))
		return err->code;
	if (!p->nt || p->t[p->nt - 1].tid != s->tid) {
		BT_GROW(p->t, p->nt + 1, p->tcap);
		p->t[p->nt].tid = s->tid;
		p->t[p->nt].first = id;
		p->t[p->nt++].end = id + 1;
	}
	if (id < p->t[p->nt - 1].first)
		p->t[p->nt - 1].first = id;
	if (id >= p->t[p->nt - 1].end)
		p->t[p->nt - 1].end = id + 1;
	for (k = 0; k < NFIELDS; k++)
		n += put_varint(rec + n, v[k]);
	p->off = bt_grow_zero(p->off, sizeof *p->off, &p->ocap, (size_t)id);
	p->off[id] = p->size + 1;
	if (fwrite(rec, 1, n, p->fp) != n)
		return bt_err_set(err, BT_EIO, "cannot write the slice log '%s': %s", p->path.buf, strerror(errno));
	p->size += n;
	return BT_OK;
}

static int tap_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	return bt_slicelog_add(ctx, part, s, err);
}

struct bt_slice_tap bt_slicelog_tap(struct bt_slicelog *l)
{
	struct bt_slice_tap t = { NULL, tap_slice, NULL, l };

	return t;
}

int bt_slicelog_seal(struct bt_slicelog *l, struct bt_err *err)
{
	int k;

	for (k = 0; k < 2; k++) {
		struct log_part *p = &l->p[k];
		if (p->fp && fflush(p->fp))
			return bt_err_set(err, BT_EIO, "cannot write the slice log '%s': %s", p->path.buf,
					  strerror(errno));
	}
	return BT_OK;
}

int64_t *bt_slicelog_tids(const struct bt_slicelog *l, size_t *n)
{
	const struct log_part *a = &l->p[0], *b = &l->p[1];
	int64_t *v = a->nt + b->nt ? bt_xmalloc((a->nt + b->nt) * sizeof *v) : NULL;
	size_t i = 0, j = 0;

	*n = 0;
	while (i < a->nt || j < b->nt)   /* the parts' threads are disjoint, each ascending */
		v[(*n)++] = j >= b->nt || (i < a->nt && a->t[i].tid < b->t[j].tid) ? a->t[i++].tid : b->t[j++].tid;
	return v;
}

struct bt_slicelog_reader *bt_slicelog_reader_new(const struct bt_slicelog *l)
{
	struct bt_slicelog_reader *r = bt_xcalloc(1, sizeof *r);

	r->l = l;
	r->cur = -1;
	r->nfields = NFIELDS;
	return r;
}

void bt_slicelog_reader_free(struct bt_slicelog_reader *r)
{
	int k, i;

	if (!r)
		return;
	for (k = 0; k < 2; k++)
		for (i = 0; i < NWINDOWS; i++)
			free(r->rp[k].win[i].buf);
	free(r);
}

/* The bytes of p's file from off on (at least MAX_RECORD of them, or to
 * its end) in one of rp's windows; *avail says how many. NULL with err
 * set when the file cannot be read. */
static const unsigned char *window_at(const struct log_part *p, struct reader_part *rp, uint64_t off,
				      size_t *avail, struct bt_err *err)
{
	struct window *w = NULL;
	uint64_t start;
	ssize_t got;
	int i;

	for (i = 0; i < NWINDOWS; i++) {
		struct window *c = &rp->win[i];
		if (c->len && off >= c->start && off < c->start + c->len &&
		    (off + MAX_RECORD <= c->start + c->len || c->start + c->len == p->size)) {
			c->used = ++rp->clock;
			*avail = (size_t)(c->start + c->len - off);
			return c->buf + (off - c->start);
		}
		if (!w || c->used < w->used)
			w = c;
	}
	start = off & ~(uint64_t)4095;
	if (start + WINDOW < off + MAX_RECORD)
		start = off;
	if (!w->buf)
		w->buf = bt_xmalloc(WINDOW);
	got = pread(fileno(p->fp), w->buf, WINDOW, (off_t)start);
	if (got < 0) {
		bt_err_set(err, BT_EIO, "cannot read the slice log '%s': %s", p->path.buf, strerror(errno));
		return NULL;
	}
	w->start = start;
	w->len = (size_t)got;
	w->used = ++rp->clock;
	*avail = off < start + w->len ? (size_t)(start + w->len - off) : 0;
	return w->buf + (off - start);
}

/* The next thread in tid order among the parts' (theirs are disjoint and
 * ascending): its part, or -1 at the end. */
static int next_thread(const struct bt_slicelog_reader *r)
{
	const struct bt_slicelog *l = r->l;
	int have0 = r->ti[0] < l->p[0].nt, have1 = r->ti[1] < l->p[1].nt;

	if (have0 && have1)
		return l->p[0].t[r->ti[0]].tid < l->p[1].t[r->ti[1]].tid ? 0 : 1;
	return have0 ? 0 : have1 ? 1 : -1;
}

static int damaged(const struct log_part *p, uint64_t id, struct bt_err *err)
{
	return bt_err_set(err, BT_EFORMAT, "the slice log '%s' has no whole record for slice %llu",
			  p->path.buf, (unsigned long long)id);
}

/* The first n fields of id's record into v. */
static int decode(const struct log_part *p, struct reader_part *rp, uint64_t id, int64_t v[NFIELDS], size_t n,
		  struct bt_err *err)
{
	const unsigned char *b;
	size_t at = 0, avail, k;

	if (id >= p->ocap || !p->off[id] || p->off[id] > p->size)
		return damaged(p, id, err);
	if (!(b = window_at(p, rp, p->off[id] - 1, &avail, err)))
		return err->code;
	for (k = 0; k < n; k++) {
		uint64_t z = 0;
		int shift = 0;
		do {
			if (at >= avail || shift > 63)
				return damaged(p, id, err);
			z |= (uint64_t)(b[at] & 0x7F) << shift;
			shift += 7;
		} while (b[at++] & 0x80);
		v[k] = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
	}
	return BT_OK;
}

/* Read thread t of part k next. */
static void start_thread(struct bt_slicelog_reader *r, int k, const struct lthread *t)
{
	r->cur = k;
	r->tid = t->tid;
	r->id = t->first;
	r->end = t->end;
}

void bt_slicelog_reader_brief(struct bt_slicelog_reader *r)
{
	r->nfields = 4;   /* depth, frame_id, ts, dur: bt_slicelog_add's first four */
}

int bt_slicelog_reader_thread(struct bt_slicelog_reader *r, int64_t tid)
{
	int k;
	size_t i;

	r->one = 1;
	r->cur = -1;
	for (k = 0; k < 2; k++)
		for (i = 0; i < r->l->p[k].nt; i++)
			if (r->l->p[k].t[i].tid == tid) {
				start_thread(r, k, &r->l->p[k].t[i]);
				return 1;
			}
	return 0;
}

/* The fields of a record, in bt_slicelog_add's order, as a slice. */
static void unpack(const int64_t v[NFIELDS], struct bt_slice *s)
{
	s->depth = v[0];
	s->frame_id = v[1];
	s->ts = v[2];
	s->dur = v[3];
	s->cpu_dur = v[4];
	s->self_dur = v[5];
	s->self_cpu_dur = v[6];
	s->block_dur = v[7];
	s->msg_id = v[8];
	s->sample_count = v[9];
	s->alloc_objects = v[10];
	s->alloc_bytes = v[11];
	s->majflt = v[12];
	s->nvcsw = v[13];
	s->nivcsw = v[14];
	s->type = v[15];
	s->wakeup_tid = v[16];
	s->gap_dur = v[17];
	s->gap_cpu_dur = v[18];
	s->idle = v[19] & 1;
	s->cpu_unknown = (v[19] >> 1) & 1;
}

int bt_slicelog_reader_next(struct bt_slicelog_reader *r, struct bt_slice *s, struct bt_err *err)
{
	int64_t v[NFIELDS] = { 0 };

	while (r->cur < 0 || r->id >= r->end) {
		int k;
		if (r->one || (k = next_thread(r)) < 0)
			return 0;
		start_thread(r, k, &r->l->p[k].t[r->ti[k]++]);
	}
	if (decode(&r->l->p[r->cur], &r->rp[r->cur], r->id, v, r->nfields, err))
		return -1;
	r->id++;
	memset(s, 0, sizeof *s);
	s->id = (int64_t)++r->next;
	s->tid = r->tid;
	unpack(v, s);
	return 1;
}
