/*
 * The importers' event store (spill.h): records in a chunk of CHUNK
 * bytes; a full chunk is sorted (stably, by key and time) and written as
 * a run to a file in $TMPDIR, unlinked once open; the runs are merged
 * when the records are read back in order. Records whose key is not known
 * yet wait in a second file until it is. A trace whose records fit in one
 * chunk never touches the files. Memory stays flat however long the
 * trace: one chunk, its index, and a read buffer per run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/hash.h"
#include "engine/base/temps.h"
#include "importers/spill.h"

#define CHUNK ((size_t)32 << 20)   /* bytes of records sorted in memory at a time */
#define MERGE_BUF ((size_t)32 << 20)   /* read buffers of all runs together, at most */
#define MIN_BUF ((size_t)32 << 10)

/* A record of the chunk, by its sort key; stable sorting keeps file order
 * (seq) among equal keys. */
struct ent {
	int64_t k, ts;
	size_t off;
};

struct spill_run {
	uint64_t start, at, end;   /* its bytes in the run file; at: the next to read */
	unsigned char *buf;
	size_t len, pos, cap;
};

struct bt_spill {
	char *path, *stem;         /* for messages; the temporary files' */
	bt_spill_resolve_fn resolve;
	void *ctx;
	unsigned char *chunk;
	size_t len, cap, max;      /* max: bytes of a chunk */
	struct ent *ents, *tmp;
	size_t n, ecap;
	uint32_t *bidx;            /* the bucket of each record indexed (index_chunk) */
	size_t bidx_cap;
	int fd, pfd;               /* the run file; the file of events still pending */
	uint64_t fsize, psize;
	unsigned char *out;        /* write buffer */
	size_t olen;
	struct spill_run *runs;
	size_t nruns, rcap;
	/* reading */
	size_t next;               /* in memory: the next entry */
	int merging, taken;
	int ordered;               /* the events are in runs (not one chunk in memory) */
	size_t *heap, nheap;
};

/* The read buffers and the pending file's pieces hold at least
 * BT_SPILL_MAX_REC bytes: a record whole. */
_Static_assert(sizeof(struct bt_spill_rec) == 32, "a record's header is 32 bytes");

static int io_fail(struct bt_spill *s, const char *what, struct bt_err *err)
{
	return bt_err_set(err, BT_EIO, "%s the spill file for '%s' failed: %s", what, s->path, strerror(errno));
}

static int temp(struct bt_spill *s, int *fd, struct bt_err *err)
{
	struct bt_buf name = BT_BUF_INIT;

	*fd = bt_temp_file(s->stem, "a spill file", &name, err);
	if (*fd < 0)
		return err->code;
	bt_temps_remove(name.buf);   /* the open descriptor is all it needs */
	bt_buf_release(&name);
	return BT_OK;
}

struct bt_spill *bt_spill_new(const char *path, const char *stem, size_t chunk, bt_spill_resolve_fn resolve,
			      void *ctx)
{
	struct bt_spill *s = bt_xcalloc(1, sizeof *s);

	s->path = bt_xstrdup(path);
	s->stem = bt_xstrdup(stem);
	s->resolve = resolve;
	s->ctx = ctx;
	s->fd = s->pfd = -1;
	s->max = chunk ? chunk : CHUNK;
	return s;
}

void bt_spill_free(struct bt_spill *s)
{
	size_t i;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->pfd >= 0)
		close(s->pfd);
	for (i = 0; i < s->nruns; i++)
		free(s->runs[i].buf);
	free(s->runs);
	free(s->chunk);
	free(s->ents);
	free(s->tmp);
	free(s->bidx);
	free(s->out);
	free(s->heap);
	free(s->path);
	free(s->stem);
	free(s);
}

static int write_all(struct bt_spill *s, int fd, const void *b, size_t n, struct bt_err *err)
{
	return bt_write_all(fd, b, n) ? io_fail(s, "writing", err) : BT_OK;
}

/* Records go out through one buffer, to the run file or the pending one. */
static int put(struct bt_spill *s, int fd, const void *b, size_t n, struct bt_err *err)
{
	if (!s->out)
		s->out = bt_xmalloc(1u << 20);
	if (s->olen + n > (1u << 20)) {
		if (write_all(s, fd, s->out, s->olen, err))
			return err->code;
		s->olen = 0;
	}
	memcpy(s->out + s->olen, b, n);
	s->olen += n;
	return BT_OK;
}

static int flush_out(struct bt_spill *s, int fd, struct bt_err *err)
{
	int rc = s->olen ? write_all(s, fd, s->out, s->olen, err) : BT_OK;

	s->olen = 0;
	return rc;
}

int bt_spill_add(struct bt_spill *s, const struct bt_spill_rec *r, const void *payload, struct bt_err *err)
{
	size_t n = bt_spill_size(r);

	if (s->len + n > s->max && s->len && bt_spill_flush(s, err))
		return err->code;
	BT_GROW(s->chunk, s->len + n, s->cap);
	memcpy(s->chunk + s->len, r, sizeof *r);
	if (r->len) {
		memset(s->chunk + s->len + n - 8, 0, 8);   /* the padding */
		memcpy(s->chunk + s->len + sizeof *r, payload, r->len);
	}
	s->len += n;
	return BT_OK;
}

int64_t bt_spill_runs(const struct bt_spill *s)
{
	return s ? (int64_t)s->nruns : 0;
}

static int ent_less(const struct ent *a, const struct ent *b)
{
	return a->k < b->k || (a->k == b->k && a->ts < b->ts);
}

/* Stable merge sort; linear on input already in order (the usual case:
 * a writer emits a thread's events together, in time order). */
static void msort(struct ent *a, struct ent *t, size_t n)
{
	size_t h = n / 2, i, j, o;

	if (n <= 16) {
		for (i = 1; i < n; i++) {
			struct ent x = a[i];
			for (j = i; j > 0 && ent_less(&x, &a[j - 1]); j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	msort(a, t, h);
	msort(a + h, t, n - h);
	if (!ent_less(&a[h], &a[h - 1]))
		return;
	memcpy(t, a, h * sizeof *a);
	for (i = 0, j = h, o = 0; i < h && j < n; o++)
		a[o] = ent_less(&a[j], &t[i]) ? a[j++] : t[i++];
	while (i < h)
		a[o++] = t[i++];
}

/* A key's records in a chunk being indexed: dealt to [at - n, at) of
 * the entries once all are placed. */
struct spill_bucket {
	int64_t k, last;   /* last: the time of its latest record */
	size_t n, at;
	int unsorted;      /* a record came before an earlier one */
};

/* The buckets of a chunk being indexed, found by key: the last few in a
 * small table, the rest in a map. */
#define RECENT 64
struct spill_deal {
	struct bt_map64 of;   /* key -> bucket + 1 */
	struct spill_bucket *b;
	size_t nb, cap;
	struct { int64_t k; uint32_t b; } recent[RECENT];   /* b: bucket + 1, 0 none */
};

/* Buckets by key, for their order: the key and the bucket. */
struct spill_order {
	int64_t k;
	size_t b;
};

static int by_key(const void *a, const void *b)
{
	int64_t x = ((const struct spill_order *)a)->k, y = ((const struct spill_order *)b)->k;

	return x < y ? -1 : x > y;
}

/* A pending record takes its key if it is known now (1); else it stays
 * pending, written to the pending file unless keep. */
static int resolve(struct bt_spill *s, struct bt_spill_rec *r, int keep, struct bt_err *err)
{
	int64_t k;

	if (s->resolve && s->resolve(s->ctx, r->k, &k)) {
		r->k = k;
		r->flags &= (uint8_t)~BT_SPILL_PENDING;
		return BT_OK;
	}
	if (keep)
		return BT_OK;   /* never resolved: no key, not read back */
	if ((s->pfd < 0 && temp(s, &s->pfd, err)) || put(s, s->pfd, r, bt_spill_size(r), err))
		return err->code;
	s->psize += bt_spill_size(r);
	return BT_OK;
}

/* The bucket of key k, a new one the first time. */
static size_t bucket_of(struct spill_deal *d, int64_t k)
{
	size_t slot = (size_t)((uint64_t)k * 0x9E3779B97F4A7C15u >> 58);
	uint32_t i;

	if (d->recent[slot].b && d->recent[slot].k == k)
		return d->recent[slot].b - 1;
	i = bt_map64_get(&d->of, (uint64_t)k);
	if (!i) {
		BT_GROW(d->b, d->nb + 1, d->cap);
		memset(&d->b[d->nb], 0, sizeof d->b[d->nb]);
		d->b[d->nb].k = k;
		bt_map64_put(&d->of, (uint64_t)k, i = (uint32_t)++d->nb);
	}
	d->recent[slot].k = k;
	d->recent[slot].b = i;
	return i - 1;
}

/* Where each bucket's records go: one after another in key order. */
static void deal_order(struct spill_deal *d)
{
	struct spill_order *o = bt_xmalloc((d->nb ? d->nb : 1) * sizeof *o);
	size_t i, at = 0;

	for (i = 0; i < d->nb; i++) {
		o[i].k = d->b[i].k;
		o[i].b = i;
	}
	if (d->nb > 1)
		qsort(o, d->nb, sizeof *o, by_key);
	for (i = 0; i < d->nb; i++) {
		d->b[o[i].b].at = at;
		at += d->b[o[i].b].n;
	}
	free(o);
}

/* Index the chunk's records whose key is known (a pending one whose track
 * has been described since takes its key now), sorted by key and time,
 * stably. The others go to the pending file when keep is 0. The records
 * are dealt into one bucket a key, in key order, and each bucket sorted by
 * time (linear when in order): interleaved keys (threads' events in file order)
 * would cost a sort of the whole chunk log n merges. */
static int index_chunk(struct bt_spill *s, int keep, struct bt_err *err)
{
	struct spill_deal d;
	size_t off, n = 0, i;
	int rc = BT_OK;

	memset(&d, 0, sizeof d);
	bt_map64_init(&d.of, 64);
	BT_GROW(s->bidx, s->len / sizeof(struct bt_spill_rec) + 1, s->bidx_cap);
	for (off = 0; off < s->len && !rc; off += bt_spill_size((struct bt_spill_rec *)(s->chunk + off))) {
		struct bt_spill_rec *r = (struct bt_spill_rec *)(s->chunk + off);
		if ((r->flags & BT_SPILL_PENDING) && (rc = resolve(s, r, keep, err)) != 0)
			break;
		if (!(r->flags & BT_SPILL_PENDING)) {
			struct spill_bucket *b;
			i = bucket_of(&d, r->k);   /* d.b may move */
			b = &d.b[i];
			b->unsorted |= b->n && r->ts < b->last;
			b->last = r->ts;
			b->n++;
			s->bidx[n++] = (uint32_t)i;
		}
	}
	if (!rc && s->pfd >= 0)
		rc = flush_out(s, s->pfd, err);
	if (!rc && n > s->ecap) {
		free(s->ents);
		free(s->tmp);
		s->ents = bt_xmalloc(n * sizeof *s->ents);
		s->tmp = bt_xmalloc((n / 2 + 1) * sizeof *s->tmp);
		s->ecap = n;
	}
	if (!rc)
		deal_order(&d);
	for (off = 0, i = 0; !rc && off < s->len; off += bt_spill_size((struct bt_spill_rec *)(s->chunk + off))) {
		const struct bt_spill_rec *r = (const struct bt_spill_rec *)(s->chunk + off);
		struct ent *e;
		if (r->flags & BT_SPILL_PENDING)
			continue;
		e = &s->ents[d.b[s->bidx[i++]].at++];
		e->k = r->k;
		e->ts = r->ts;
		e->off = off;
	}
	for (i = 0; !rc && i < d.nb; i++)
		if (d.b[i].unsorted)
			msort(s->ents + d.b[i].at - d.b[i].n, s->tmp, d.b[i].n);
	s->n = rc ? 0 : n;
	bt_map64_release(&d.of);
	free(d.b);
	return rc;
}

/* The chunk, sorted, as a run of the run file. */
static int write_run(struct bt_spill *s, struct bt_err *err)
{
	struct spill_run *r;
	size_t i;

	if (!s->n)
		return BT_OK;
	if (s->fd < 0 && temp(s, &s->fd, err))
		return err->code;
	BT_GROW(s->runs, s->nruns + 1, s->rcap);
	r = &s->runs[s->nruns++];
	memset(r, 0, sizeof *r);
	r->start = r->at = s->fsize;
	for (i = 0; i < s->n; i++) {
		const struct bt_spill_rec *x = (const struct bt_spill_rec *)(s->chunk + s->ents[i].off);
		size_t n = bt_spill_size(x);
		if (put(s, s->fd, x, n, err))
			return err->code;
		s->fsize += n;
	}
	r->end = s->fsize;
	return flush_out(s, s->fd, err);
}

int bt_spill_flush(struct bt_spill *s, struct bt_err *err)
{
	if (index_chunk(s, 0, err) || write_run(s, err))
		return err->code;
	s->len = 0;
	return BT_OK;
}

/* The pending file's events, their tracks all resolved now, as runs. */
static int pending_runs(struct bt_spill *s, struct bt_err *err)
{
	uint64_t at = 0;

	while (at < s->psize) {
		size_t want = s->psize - at < s->max ? (size_t)(s->psize - at) : s->max, got = 0, off = 0;
		if (want < BT_SPILL_MAX_REC)   /* at least one record whole (a chunk holds at least one) */
			want = s->psize - at < BT_SPILL_MAX_REC ? (size_t)(s->psize - at) : BT_SPILL_MAX_REC;
		BT_GROW(s->chunk, want, s->cap);
		while (got < want) {
			ssize_t k = pread(s->pfd, s->chunk + got, want - got, (off_t)(at + got));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return io_fail(s, "reading", err);
			got += (size_t)k;
		}
		while (off + sizeof(struct bt_spill_rec) <= want && off + bt_spill_size((struct bt_spill_rec *)(s->chunk + off)) <= want)
			off += bt_spill_size((struct bt_spill_rec *)(s->chunk + off));
		s->len = off;   /* whole records; the rest is read again */
		at += off;
		if (index_chunk(s, 1, err) || write_run(s, err))
			return err->code;
	}
	s->len = 0;
	return BT_OK;
}

static int heap_less(const struct bt_spill *s, size_t a, size_t b)
{
	const struct bt_spill_rec *x = (const struct bt_spill_rec *)(s->runs[a].buf + s->runs[a].pos);
	const struct bt_spill_rec *y = (const struct bt_spill_rec *)(s->runs[b].buf + s->runs[b].pos);

	if (x->k != y->k)
		return x->k < y->k;
	return x->ts != y->ts ? x->ts < y->ts : x->seq < y->seq;
}

static void sift_down(struct bt_spill *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < s->nheap && heap_less(s, s->heap[l], s->heap[m]))
			m = l;
		if (l + 1 < s->nheap && heap_less(s, s->heap[l + 1], s->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t x = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = x;
		i = m;
	}
}

/* Make sure a whole record is at r->pos: 1 it is, 0 the run is done. */
static int fill(struct bt_spill *s, struct spill_run *r, struct bt_err *err)
{
	size_t have = r->len - r->pos;

	if (have >= sizeof(struct bt_spill_rec) && have >= bt_spill_size((const struct bt_spill_rec *)(r->buf + r->pos)))
		return 1;
	if (!have && r->at == r->end)
		return 0;
	memmove(r->buf, r->buf + r->pos, have);
	r->pos = 0;
	r->len = have;
	while (r->len < r->cap && r->at < r->end) {
		size_t want = r->cap - r->len;
		ssize_t k;
		if (want > r->end - r->at)
			want = (size_t)(r->end - r->at);
		k = pread(s->fd, r->buf + r->len, want, (off_t)r->at);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			io_fail(s, "reading", err);
			return -1;
		}
		r->len += (size_t)k;
		r->at += (uint64_t)k;
	}
	if (r->len < sizeof(struct bt_spill_rec) || r->len < bt_spill_size((const struct bt_spill_rec *)r->buf)) {
		bt_err_set(err, BT_EIO, "the spill file for '%s' ends inside a record", s->path);
		return -1;
	}
	return 1;
}

/* Read buffers for every run, each filled from its start, and the heap
 * over them. */
static int merge_begin(struct bt_spill *s, struct bt_err *err)
{
	size_t i, each;

	each = MERGE_BUF / (s->nruns ? s->nruns : 1);
	each = each < MIN_BUF ? MIN_BUF : each > s->max ? s->max : each;
	if (each < BT_SPILL_MAX_REC)
		each = BT_SPILL_MAX_REC;   /* a record whole */
	s->heap = bt_xmalloc((s->nruns + 1) * sizeof *s->heap);
	s->nheap = 0;
	s->taken = 0;
	for (i = 0; i < s->nruns; i++) {
		int rc;
		struct spill_run *r = &s->runs[i];
		r->cap = each;
		r->buf = bt_xmalloc(each);
		r->at = r->start;
		r->len = r->pos = 0;
		if ((rc = fill(s, r, err)) < 0)
			return err->code;
		if (rc)
			s->heap[s->nheap++] = i;
	}
	for (i = s->nheap / 2; i-- > 0;)
		sift_down(s, i);
	s->merging = 1;
	return BT_OK;
}

int bt_spill_order(struct bt_spill *s, struct bt_err *err)
{
	int rc;

	if (!s->nruns && s->pfd < 0) {   /* all in memory */
		rc = index_chunk(s, 1, err);
		s->resolve = NULL;
		return rc;
	}
	rc = bt_spill_flush(s, err) || pending_runs(s, err);
	s->resolve = NULL;   /* every key is known now, or never will be */
	if (rc)
		return err->code;
	free(s->ents);
	free(s->tmp);
	free(s->bidx);
	free(s->chunk);   /* the runs' buffers take their place */
	s->ents = s->tmp = NULL;
	s->bidx = NULL;
	s->chunk = NULL;
	s->ecap = s->n = s->cap = s->bidx_cap = 0;
	if (s->pfd >= 0)   /* its events are in runs now */
		close(s->pfd);
	s->pfd = -1;
	s->ordered = 1;
	return merge_begin(s, err);
}

void bt_spill_rest(struct bt_spill *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		free(s->runs[i].buf);
		s->runs[i].buf = NULL;
	}
	free(s->heap);
	free(s->tmp);   /* the sort's: the in-memory events stay sorted */
	free(s->bidx);
	free(s->out);
	s->heap = NULL;
	s->tmp = NULL;
	s->bidx = NULL;
	s->out = NULL;
	s->ecap = s->bidx_cap = 0;
	s->nheap = 0;
	s->merging = 0;
	s->next = s->n;   /* read to the end */
}

int bt_spill_rewind(struct bt_spill *s, struct bt_err *err)
{
	bt_spill_rest(s);
	s->next = 0;
	return s->ordered ? merge_begin(s, err) : BT_OK;
}

int bt_spill_next(struct bt_spill *s, const struct bt_spill_rec **e, struct bt_err *err)
{
	struct spill_run *r;

	if (!s->merging) {
		if (s->next == s->n)
			return 0;
		*e = (const struct bt_spill_rec *)(s->chunk + s->ents[s->next++].off);
		return 1;
	}
	if (s->taken && s->nheap) {   /* the record handed out last is done with */
		int rc;
		r = &s->runs[s->heap[0]];
		r->pos += bt_spill_size((const struct bt_spill_rec *)(r->buf + r->pos));
		if ((rc = fill(s, r, err)) < 0)
			return -1;
		if (!rc)
			s->heap[0] = s->heap[--s->nheap];
		sift_down(s, 0);
	}
	s->taken = 0;
	if (!s->nheap)
		return 0;
	r = &s->runs[s->heap[0]];
	*e = (const struct bt_spill_rec *)(r->buf + r->pos);
	s->taken = 1;
	return 1;
}
