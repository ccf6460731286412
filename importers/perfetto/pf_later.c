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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"
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
	unsigned char *buf;   /* a copy read back */
	size_t bcap;
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

/* A copied bundle's bytes, back from the file. */
static int read_back(struct pf *p, struct pf_later *l, const struct later *k, const uint8_t **out, struct bt_err *err)
{
	size_t got = 0;

	BT_GROW(l->buf, k->len, l->bcap);
	while (got < k->len) {
		ssize_t r = pread(l->fd, l->buf + got, k->len - got, (off_t)(k->off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? io_fail(p, "reading", err) : bt_err_set(err, BT_EIO, "the scheduler spill file for '%s' ended early", p->path);
		got += (size_t)r;
	}
	*out = l->buf;
	return BT_OK;
}

int pf_later_replay(struct pf *p, struct bt_err *err)
{
	struct pf_later *l = p->later;
	int64_t seq = p->seq;
	uint64_t dropped = 0;
	size_t i;
	int rc = BT_OK;

	if (!l)
		return BT_OK;
	for (i = 0; i < l->n && !rc; i++) {
		const struct later *k = &l->v[i];
		const uint8_t *data = NULL;
		if (k->copied) {
			if (read_back(p, l, k, &data, err))
				return err->code;
		} else {
			data = (const uint8_t *)p->fmap.data + k->off;
			if (k->off - dropped >= DROP_EVERY)
				bt_fmap_drop(&p->fmap, (size_t)(dropped = k->off));
		}
		p->seq = k->seq;
		rc = pf_packet_sched(p, data, k->len, err);
		p->seq_unused -= p->seq - k->seq;   /* the events it spilled */
	}
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
	free(l->buf);
	free(l);
}
