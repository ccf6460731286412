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

#ifndef ST_MEM_EVENTS
#define ST_MEM_EVENTS (4u << 20)   /* 64 MiB of events (tests/unit/t_st_store.c: fewer) */
#endif

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
	if (!t->first_switch.kind && (e->kind == ST_EV_RUN || e->kind == ST_EV_STOP))
		t->first_switch = *e;
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

#define BATCH (1u << 16)   /* events read back at a time */

/* Read n events of the spill at off into v. */
static int read_back(struct st *s, struct st_ev *v, uint64_t off, size_t n, struct bt_err *err)
{
	if (fseeko(s->spill, (off_t)off, SEEK_SET) || fread(v, sizeof *v, n, s->spill) != n)
		return bt_err_set(err, BT_EIO, "cannot read the spill file for '%s': %s", s->path,
				  ferror(s->spill) ? strerror(errno) : "cut short");
	return BT_OK;
}

int st_store_begin(struct st *s, struct st_thread *t, struct st_reader *rd, struct bt_err *err)
{
	size_t total = (size_t)t->spilled + t->nev, at = 0, i;
	uint32_t c;

	memset(rd, 0, sizeof *rd);
	rd->s = s;
	rd->t = t;
	rd->chunk = t->first_chunk;
	rd->first_switch = t->first_switch;
	if (!t->unsorted)
		return BT_OK;
	rd->all = bt_xmalloc((total ? total : 1) * sizeof *rd->all);
	for (c = t->first_chunk; c; c = s->chunks[c - 1].next) {
		const struct st_chunk *k = &s->chunks[c - 1];
		if (read_back(s, rd->all + at, k->off, k->n, err))
			return err->code;
		at += k->n;
	}
	if (t->nev)
		memcpy(rd->all + at, t->ev, t->nev * sizeof *rd->all);
	{
		struct st_ev *tmp = bt_xmalloc((total ? total : 1) * sizeof *tmp);
		stable_sort(rd->all, tmp, total);
		free(tmp);
	}
	rd->v = rd->all;
	rd->n = total;
	rd->chunk = 0;
	rd->tail = 1;
	memset(&rd->first_switch, 0, sizeof rd->first_switch);
	for (i = 0; i < total && !rd->first_switch.kind; i++)
		if (rd->all[i].kind == ST_EV_RUN || rd->all[i].kind == ST_EV_STOP)
			rd->first_switch = rd->all[i];
	return BT_OK;
}

int st_store_next(struct st_reader *rd, const struct st_ev **e, struct bt_err *err)
{
	struct st *s = rd->s;

	while (rd->i == rd->n) {
		if (rd->chunk) {
			const struct st_chunk *k = &s->chunks[rd->chunk - 1];
			size_t n = k->n - rd->done < BATCH ? k->n - rd->done : BATCH;
			if (!rd->buf)
				rd->buf = bt_xmalloc(BATCH * sizeof *rd->buf);
			if (read_back(s, rd->buf, k->off + (uint64_t)rd->done * sizeof *rd->buf, n, err))
				return err->code;
			rd->done += (uint32_t)n;
			if (rd->done == k->n) {
				rd->chunk = k->next;
				rd->done = 0;
			}
			rd->v = rd->buf;
			rd->n = n;
		} else if (!rd->tail) {
			rd->tail = 1;
			rd->v = rd->t->ev;
			rd->n = rd->t->nev;
		} else {
			return 0;
		}
		rd->i = 0;
	}
	*e = &rd->v[rd->i++];
	return 1;
}

void st_store_end(struct st_reader *rd)
{
	free(rd->buf);
	free(rd->all);
	memset(rd, 0, sizeof *rd);
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
