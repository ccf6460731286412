/*
 * The systrace importer's event store (importers/systrace/st_store.c),
 * built here with a spill threshold of 100 events so that a few thousand
 * events spill many times: each thread's events come back in the order
 * they came, those of a thread whose events came out of time order sorted
 * by time with ties in their order, whether they were spilled or not.
 */
#define ST_MEM_EVENTS 100
#include "importers/systrace/st_store.c"

#include "tests/tap.h"

#define NT 5
#define NE 3000

static struct st_thread *thread(struct st *s, int64_t tid)
{
	BT_GROW(s->threads, s->nthreads + 1, s->tcap);
	memset(&s->threads[s->nthreads], 0, sizeof s->threads[0]);
	s->threads[s->nthreads].tid = tid;
	s->threads[s->nthreads].last_ts = INT64_MIN;
	return &s->threads[s->nthreads++];
}

int main(void)
{
	struct st s;
	struct bt_err err = BT_ERR_INIT;
	static struct st_ev want[NT][NE];
	size_t n[NT] = { 0 }, i, k;
	int t, bad = 0, rc = 0;
	unsigned x = 12345;

	memset(&s, 0, sizeof s);
	s.path = "t_st_store";
	for (t = 0; t < NT; t++)
		thread(&s, 100 + t);
	for (i = 0; i < NE * NT && !rc; i++) {
		struct st_ev e;
		x = x * 1103515245u + 12345u;
		t = (int)((x >> 16) % NT);
		if (n[t] == NE)
			continue;
		/* thread 0's times go back now and then; ties everywhere */
		e.ts = (int64_t)(i / 3) - (t == 0 && (x & 0x300) == 0 ? 50 : 0);
		e.a = (uint32_t)n[t];
		e.kind = (uint16_t)(n[t] % 3 == 0 ? ST_EV_RUN : ST_EV_BEGIN);
		e.b = (uint16_t)t;
		want[t][n[t]++] = e;
		rc = st_store_add(&s, &s.threads[t], &e, &err);
	}
	ok(!rc, "3000 events a thread added");
	ok(s.spill != NULL && s.nchunks > 10, "spilled many times");
	ok(s.threads[0].unsorted && !s.threads[1].unsorted, "thread 0's came out of time order, thread 1's did not");
	for (t = 0; t < NT; t++) {
		struct st_reader rd;
		const struct st_ev *e;
		struct st_ev *w = want[t];
		if (s.threads[t].unsorted)   /* expected: a stable sort by ts (insertion sort) */
			for (i = 1; i < n[t]; i++)
				for (k = i; k > 0 && w[k].ts < w[k - 1].ts; k--) {
					struct st_ev tmp = w[k];
					w[k] = w[k - 1];
					w[k - 1] = tmp;
				}
		rc = st_store_begin(&s, &s.threads[t], &rd, &err);
		i = 0;
		while (!rc && (rc = st_store_next(&rd, &e, &err)) == 1) {
			if (i >= n[t] || e->ts != w[i].ts || e->a != w[i].a)
				bad++;
			i++;
			rc = 0;
		}
		ok(rc == 0 && i == n[t], "a thread's events all came back");
		is_int(bad, 0, "in time order, ties as they came");
		is_int(rd.first_switch.kind, ST_EV_RUN, "its first switch");
		is_int(rd.first_switch.a, w[0].kind == ST_EV_RUN ? w[0].a : rd.first_switch.a, "the earliest one");
		st_store_end(&rd);
		bad = 0;
	}
	st_store_close(&s);
	for (t = 0; t < NT; t++)
		free(s.threads[t].ev);
	free(s.threads);
	return tap_failed != 0;
}
