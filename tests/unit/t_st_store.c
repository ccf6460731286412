/*
 * The systrace importer's event store (importers/systrace/st_store.c, on
 * the importers' store, importers/spill.c), built here with chunks of
 * 4 KiB so that a few thousand events spill many times: each thread's
 * events come back in time order with ties in the order they came
 * (thread 0's came out of time order), its first switch the first in
 * time; the threads read in ascending tid order, one passed over not
 * read, and one with no events reading none.
 */
#define ST_CHUNK 4096
#include "importers/systrace/st_store.c"

#include <stdlib.h>

#include "tests/tap.h"

#define NT 5
#define NE 3000

static struct st_thread *thread(struct st *s, int64_t tid)
{
	BT_GROW(s->threads, s->nthreads + 1, s->tcap);
	memset(&s->threads[s->nthreads], 0, sizeof s->threads[0]);
	s->threads[s->nthreads].tid = tid;
	return &s->threads[s->nthreads++];
}

/* Sort w[0, n) by ts, ties as they came (insertion sort). */
static void stable_by_ts(struct st_ev *w, size_t n)
{
	size_t i, k;

	for (i = 1; i < n; i++)
		for (k = i; k > 0 && w[k].ts < w[k - 1].ts; k--) {
			struct st_ev tmp = w[k];
			w[k] = w[k - 1];
			w[k - 1] = tmp;
		}
}

int main(void)
{
	struct st s;
	struct bt_err err = BT_ERR_INIT;
	static struct st_ev want[NT][NE];
	size_t n[NT] = { 0 }, i;
	int t, rc = 0;
	unsigned x = 12345;

	memset(&s, 0, sizeof s);
	s.path = "t_st_store";
	for (t = NT - 1; t >= 0; t--)   /* the threads as the trace met them: not by tid */
		thread(&s, 100 + t);
	thread(&s, 50);                  /* no events */
	for (i = 0; i < NE * NT && !rc; i++) {
		struct st_ev e;
		x = x * 1103515245u + 12345u;
		t = (int)((x >> 16) % NT);
		if (n[t] == NE)
			continue;
		/* thread 0's times go back now and then; ties everywhere */
		e.ts = (int64_t)(i / 3) - (t == 0 && (x & 0x300) == 0 ? 50 : 0);
		e.a = (uint32_t)n[t];
		e.kind = (uint16_t)(n[t] % 3 == 0 ? ST_EV_RUN : n[t] % 3 == 1 ? ST_EV_STOP : ST_EV_BEGIN);
		e.b = (uint16_t)(n[t] % 3 == 1 ? BT_STATE_SLEEPING : 0);
		want[t][n[t]++] = e;
		rc = st_store_add(&s, &s.threads[NT - 1 - t], &e, &err);
	}
	ok(!rc, "3000 events a thread added");
	ok(bt_spill_runs(s.store) > 10, "spilled many times");
	ok(st_store_order(&s, &err) == BT_OK, "ordered");
	for (t = 0; t < NT; t++)
		stable_by_ts(want[t], n[t]);
	{   /* the thread with no events, before the others by tid */
		struct st_reader rd;
		const struct st_ev *e;
		ok(st_store_begin(&s, &s.threads[NT], &rd, &err) == BT_OK && st_store_next(&rd, &e, &err) == 0,
		   "a thread with no events reads none");
		is_int(rd.first_switch.kind, 0, "... and has no first switch");
		st_store_end(&rd);
	}
	for (t = 0; t < NT; t++) {
		struct st_reader rd;
		const struct st_ev *e;
		const struct st_ev *w = want[t];
		int bad = 0;
		size_t f = 0;
		while (f < n[t] && w[f].kind != ST_EV_RUN && w[f].kind != ST_EV_STOP)
			f++;
		if (t == 2)
			continue;   /* passed over: the next thread's events still all come */
		rc = st_store_begin(&s, &s.threads[NT - 1 - t], &rd, &err);
		i = 0;
		while (!rc && (rc = st_store_next(&rd, &e, &err)) == 1) {
			if (i >= n[t] || e->ts != w[i].ts || e->a != w[i].a || e->kind != w[i].kind || e->b != w[i].b)
				bad++;
			i++;
			rc = 0;
		}
		ok(rc == 0 && i == n[t], "a thread's events all came back");
		is_int(bad, 0, "in time order, ties as they came, each whole");
		ok(f < n[t] && rd.first_switch.kind == w[f].kind && rd.first_switch.ts == w[f].ts &&
		   rd.first_switch.a == w[f].a, "its first switch: the first in time, the first that came on a tie");
		st_store_end(&rd);
	}
	st_store_close(&s);
	free(s.threads);
	return done_testing();
}
