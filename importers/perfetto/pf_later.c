/*
 * Scheduler bundles read twice. A system trace's sched_switch and
 * sched_waking events are mostly other processes' (a phone runs hundreds),
 * and which process is the app is known only once the whole trace is read
 * (pf_choose.c). Spilling every thread's events to sort them and then
 * skipping most was three quarters of the import of such a trace; instead
 * the first pass keeps where each bundle with scheduler events is (in the
 * mapped file, or copied to a temporary file when its bytes are not there:
 * a gzip'd trace, compressed_packets) and the file-order numbers its events
 * take, and once the app is chosen the bundles are decoded again in file
 * order (compact sched's tasks switched out and wakers follow from the
 * CPU's previous switch) and only the app's threads' events are spilled.
 * The decoding runs ahead on the other core (pf_ahead.c): it reads only
 * the bundle's bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "importers/perfetto/pf_ahead.h"
#include "importers/perfetto/pf_int.h"

#define DROP_EVERY ((uint64_t)16 << 20)   /* mapped pages read go back this often */

struct later {
	uint64_t off;      /* in the map, or in the copies' file */
	uint32_t len;
	int copied;
	int64_t seq;       /* the file order of its first event */
};

struct pf_later {
	struct later *v;
	size_t n, cap;
	int fd;            /* the copies' file; -1 none yet */
	uint64_t fsize;
};

static int io_fail(struct pf *p, const char *what, struct bt_err *err)
{
	return bt_err_set(err, BT_EIO, "%s the scheduler spill file for '%s' failed: %s", what, p->path,
			  strerror(errno));
}

/* Events a bundle spills at most: a switch is two (out and in), a waking one. */
static int64_t most(const Perfetto__Protos__FtraceEventBundle *b)
{
	const Perfetto__Protos__CompactSched *c = b->compact_sched;

	return 2 * (int64_t)b->n_event + (c ? 2 * (int64_t)c->n_switch_timestamp + (int64_t)c->n_waking_timestamp : 0);
}

static int has_sched(const Perfetto__Protos__FtraceEventBundle *b)
{
	size_t i;

	if (b->compact_sched && (b->compact_sched->n_switch_timestamp || b->compact_sched->n_waking_timestamp))
		return 1;
	for (i = 0; i < b->n_event; i++) {
		const Perfetto__Protos__FtraceEvent *e = b->event[i];
		if (e->sched_switch || e->sched_waking || e->sched_wakeup || e->sched_wakeup_new ||
		    e->sched_blocked_reason || e->sched_process_free)
			return 1;
	}
	return 0;
}

static int copy(struct pf *p, struct pf_later *l, const uint8_t *data, size_t len, struct bt_err *err)
{
	if (l->fd < 0) {
		struct bt_buf name = BT_BUF_INIT;
		l->fd = bt_temp_file("btrace-analyze-sched", "a scheduler spill file", &name, err);
		if (l->fd < 0)
			return err->code;
		bt_temps_remove(name.buf);   /* the open descriptor is all it needs */
		bt_buf_release(&name);
	}
	if (bt_write_all(l->fd, data, len))
		return io_fail(p, "writing", err);
	l->fsize += len;
	return BT_OK;
}

int pf_later_keep(struct pf *p, const uint8_t *data, size_t len, const Perfetto__Protos__FtraceEventBundle *b,
		  struct bt_err *err)
{
	struct pf_later *l = p->later;
	const uint8_t *map = p->fmap.data;
	struct later *k;

	if (!has_sched(b))
		return BT_OK;
	if (!l) {
		l = p->later = bt_xcalloc(1, sizeof *l);
		l->fd = -1;
	}
	BT_GROW(l->v, l->n + 1, l->cap);
	k = &l->v[l->n];
	k->len = (uint32_t)len;   /* a packet is at most MAX_PACKET */
	k->seq = p->seq;
	k->copied = !(map && !p->inflating && data >= map && data + len <= map + p->fmap.len);
	k->off = k->copied ? l->fsize : (uint64_t)(data - map);
	if (k->copied && copy(p, l, data, len, err))
		return err->code;
	l->n++;
	p->seq += most(b);
	p->seq_unused += most(b);
	return BT_OK;
}

/* A copied bundle's bytes, back from the file into buf: 0, an errno, or
 * -1 if the file ended early. On the worker: touches only its slot. */
static int read_back(int fd, const struct later *k, unsigned char *buf)
{
	size_t got = 0;

	while (got < k->len) {
		ssize_t r = pread(fd, buf + got, k->len - got, (off_t)(k->off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? (errno ? errno : EIO) : -1;
		got += (size_t)r;
	}
	return 0;
}

/* A bundle as a worker leaves it: decoded (ok), else its bytes for the
 * importer's protobuf-c, or the errno of reading it back (-1: the file
 * ended early). */
struct decoded {
	const uint8_t *data;
	int ok, err_no;
	Perfetto__Protos__FtraceEventBundle b;
	Perfetto__Protos__CompactSched c;
};

#define GROUP 8   /* bundles an item: fewer handovers */

struct group {
	size_t first, n;
	struct decoded v[GROUP];
};

struct replay {
	const struct pf_later *l;
	const uint8_t *map;
	size_t next;   /* the first bundle not claimed */
};

/* The next GROUP bundles (pf_ahead_claim). */
static int claim(void *ctx, size_t i, struct pf_ahead_slot *s)
{
	struct replay *r = ctx;
	struct group *g;

	(void)i;
	if (r->next >= r->l->n)
		return 0;
	s->out = g = pf_arena_alloc(&s->arena, sizeof *g);
	g->first = r->next;
	g->n = r->l->n - r->next < GROUP ? r->l->n - r->next : GROUP;
	r->next += g->n;
	return 1;
}

/* Their bytes and columns (pf_ahead_work): copies read back in the slot's
 * buffer, one after another in it. */
static void work(void *ctx, struct pf_ahead_slot *s)
{
	static const Perfetto__Protos__FtraceEventBundle binit = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	static const Perfetto__Protos__CompactSched cinit = PERFETTO__PROTOS__COMPACT_SCHED__INIT;
	const struct replay *r = ctx;
	struct group *g = s->out;
	size_t j, copied = 0, at = 0;

	for (j = 0; j < g->n; j++)
		if (r->l->v[g->first + j].copied)
			copied += r->l->v[g->first + j].len;
	if (copied)
		BT_GROW(s->buf, copied, s->bcap);
	for (j = 0; j < g->n; j++) {
		const struct later *k = &r->l->v[g->first + j];
		struct decoded *d = &g->v[j];
		d->b = binit;
		d->c = cinit;
		d->ok = d->err_no = 0;
		if (k->copied) {
			unsigned char *to = s->buf + at;
			at += k->len;
			d->data = to;
			if ((d->err_no = read_back(r->l->fd, k, to)) != 0)
				continue;
		} else {
			d->data = r->map + k->off;
		}
		d->ok = pf_wire_sched(&s->arena, d->data, k->len, &d->b, &d->c);
	}
}

static int read_fail(struct pf *p, int err_no, struct bt_err *err)
{
	if (err_no < 0)
		return bt_err_set(err, BT_EIO, "the scheduler spill file for '%s' ended early", p->path);
	errno = err_no;
	return io_fail(p, "reading", err);
}

/* The bundles again, in file order; decoded on the other core while the
 * ones before are walked. */
int pf_later_replay(struct pf *p, struct bt_err *err)
{
	struct pf_later *l = p->later;
	struct replay r = { l, p->fmap.data, 0 };
	struct pf_ahead *a;
	struct pf_ahead_slot *s;
	int64_t seq = p->seq;
	uint64_t dropped = 0;
	size_t i, j;
	int rc = BT_OK;

	if (!l)
		return BT_OK;
	a = pf_ahead_start(claim, work, &r, 1);
	for (i = 0; !rc && (s = pf_ahead_take(a, i)) != NULL; i++) {
		const struct group *g = s->out;
		for (j = 0; j < g->n && !rc; j++) {
			const struct later *k = &l->v[g->first + j];
			const struct decoded *d = &g->v[j];
			if (d->err_no) {
				rc = read_fail(p, d->err_no, err);
				break;
			}
			if (!k->copied && k->off - dropped >= DROP_EVERY)
				bt_fmap_drop(&p->fmap, (size_t)(dropped = k->off));
			p->seq = k->seq;
			rc = d->ok ? pf_sched_bundle(p, &d->b, err) : pf_packet_sched(p, d->data, k->len, err);
			p->seq_unused -= p->seq - k->seq;   /* the events it spilled */
		}
		pf_ahead_give(a, s);
	}
	pf_ahead_stop(a);
	p->seq = seq;
	return rc;
}

void pf_later_free(struct pf_later *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	free(l->v);
	free(l);
}
