/*
 * Each thread's events, kept until the whole trace is read: a thread's
 * slices must reach the feed together, and a systrace interleaves all
 * threads. They wait in per-thread arrays; past ST_MEM_EVENTS in all,
 * every array is appended to a spill file (unlinked at once, so nothing
 * outlives the run) as a chunk of that thread's, and memory stays flat
 * however long the trace. A thread's events are read back in the order
 * they came, sorted by time (stably) if they came out of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/temps.h"
#include "importers/systrace/st_int.h"

#define ST_MEM_EVENTS (4u << 20)   /* 64 MiB of events */

static int spill_open(struct st *s, struct bt_err *err)
{
	int fd = bt_temp_file("btrace-analyze-st", "a spill file", &s->spill_name, err);

	if (fd < 0)
		return err->code;
	s->spill = fdopen(fd, "w+b");
	if (!s->spill) {
		close(fd);
		bt_temps_remove(s->spill_name.buf);
		return bt_err_set(err, BT_EIO, "cannot open the spill file for '%s': %s", s->path, strerror(errno));
	}
	bt_temps_remove(s->spill_name.buf);   /* the open stream is all it needs */
	return BT_OK;
}

static int spill_all(struct st *s, struct bt_err *err)
{
	size_t i;

	if (!s->spill && spill_open(s, err))
		return err->code;
	if (fseeko(s->spill, (off_t)s->spill_off, SEEK_SET))
		return bt_err_set(err, BT_EIO, "cannot write the spill file for '%s': %s", s->path, strerror(errno));
	for (i = 0; i < s->nthreads; i++) {
		struct st_thread *t = &s->threads[i];
		struct st_chunk *c;
		if (!t->nev)
			continue;
		if (fwrite(t->ev, sizeof *t->ev, t->nev, s->spill) != t->nev)
			return bt_err_set(err, BT_EIO, "cannot write the spill file for '%s': %s", s->path,
					  strerror(errno));
		BT_GROW(s->chunks, s->nchunks + 1, s->ccap);
		c = &s->chunks[s->nchunks++];
		c->off = s->spill_off;
		c->n = (uint32_t)t->nev;
		c->next = 0;
		if (t->last_chunk)
			s->chunks[t->last_chunk - 1].next = (uint32_t)s->nchunks;
		else
			t->first_chunk = (uint32_t)s->nchunks;
		t->last_chunk = (uint32_t)s->nchunks;
		s->spill_off += t->nev * sizeof *t->ev;
		t->spilled += t->nev;
		free(t->ev);
		t->ev = NULL;
		t->nev = t->cap = 0;
	}
	s->in_memory = 0;
	return BT_OK;
}

int st_store_add(struct st *s, struct st_thread *t, const struct st_ev *e, struct bt_err *err)
{
	if (e->ts < t->last_ts)
		t->unsorted = 1;
	else
		t->last_ts = e->ts;
	BT_GROW(t->ev, t->nev + 1, t->cap);
	t->ev[t->nev++] = *e;
	return ++s->in_memory >= ST_MEM_EVENTS ? spill_all(s, err) : BT_OK;
}

/* Sort v[0, n) by ts, keeping the order of equal times (a merge sort). */
static void stable_sort(struct st_ev *v, struct st_ev *tmp, size_t n)
{
	size_t w, i;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t a = i, m = i + w < n ? i + w : n, b = m, e = i + 2 * w < n ? i + 2 * w : n, o = i;
			while (a < m && b < e)
				tmp[o++] = v[b].ts < v[a].ts ? v[b++] : v[a++];
			while (a < m)
				tmp[o++] = v[a++];
			while (b < e)
				tmp[o++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
}

int st_store_load(struct st *s, struct st_thread *t, struct st_ev **out, size_t *n, struct bt_err *err)
{
	size_t total = (size_t)t->spilled + t->nev, at = 0;
	struct st_ev *v = bt_xmalloc((total ? total : 1) * sizeof *v);
	uint32_t c;

	for (c = t->first_chunk; c; c = s->chunks[c - 1].next) {
		const struct st_chunk *k = &s->chunks[c - 1];
		if (fseeko(s->spill, (off_t)k->off, SEEK_SET) || fread(v + at, sizeof *v, k->n, s->spill) != k->n) {
			free(v);
			return bt_err_set(err, BT_EIO, "cannot read the spill file for '%s': %s", s->path,
					  ferror(s->spill) ? strerror(errno) : "cut short");
		}
		at += k->n;
	}
	if (t->nev)
		memcpy(v + at, t->ev, t->nev * sizeof *v);
	if (t->unsorted) {
		struct st_ev *tmp = bt_xmalloc(total * sizeof *tmp);
		stable_sort(v, tmp, total);
		free(tmp);
	}
	*out = v;
	*n = total;
	return BT_OK;
}

void st_store_close(struct st *s)
{
	if (s->spill)
		fclose(s->spill);
	s->spill = NULL;
	bt_buf_release(&s->spill_name);
	free(s->chunks);
	s->chunks = NULL;
}
