/*
 * The importers' event store (importers/spill.h): records added in file
 * order come back by key, time and sequence number, their fields and
 * payloads of any length intact, whether they stay in one chunk or go to
 * many runs; keys interleaved record by record, one key, or a key a
 * record; pending keys resolved late, never, or not at all; and the same
 * again after a rewind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/spill.h"
#include "tests/tap.h"

struct want {
	struct bt_spill_rec r;
	unsigned char pay[BT_SPILL_MAX_REC];
	int name;     /* pending: its name (>= 0), else -1 */
	int drop;     /* its name is never resolved */
};

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void)
{
	return tap_rand(&rng);
}

static int cmp(const void *a, const void *b)
{
	const struct bt_spill_rec *x = &((const struct want *)a)->r, *y = &((const struct want *)b)->r;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The names resolved so far: name i has key -(i + 1) * 1000 once known[i]. */
static int known[8];

static int resolve(void *ctx, int64_t name, int64_t *k)
{
	(void)ctx;
	*k = -(name + 1) * 1000;
	return known[name];
}

/* Read s in order and compare with ref[0, n). */
static void read_back(struct bt_spill *s, const struct want *ref, size_t n, int rc, struct bt_err *err,
		      const char *what)
{
	const struct bt_spill_rec *r;
	size_t got = 0;
	int bad = 0;
	char msg[200];

	while (!rc && (rc = bt_spill_next(s, &r, err)) == 1) {
		const struct want *x = got < n ? &ref[got] : NULL;
		if (!x || r->k != x->r.k || r->ts != x->r.ts || r->seq != x->r.seq || r->a != x->r.a || r->c != x->r.c ||
		    r->flags != x->r.flags || r->len != x->r.len || memcmp(r + 1, x->pay, r->len))
			if (!bad++)
				printf("# %s: record %zu differs (seq %lld)\n", what, got, (long long)r->seq);
		got++;
		rc = 0;
	}
	if (rc < 0)
		printf("# %s\n", err->msg);
	snprintf(msg, sizeof msg, "%s: %zu records back in order, intact", what, n);
	ok(rc == 0 && !bad && got == n, msg);
}

/* n records on nkeys keys (interleaved as drawn), names pending as given. */
static void round_trip(size_t n, int nkeys, size_t chunk, int names, int runs, const char *what)
{
	struct want *w = bt_xcalloc(n + 1, sizeof *w), *ref = bt_xcalloc(n + 1, sizeof *ref);
	struct bt_err err = BT_ERR_INIT;
	struct bt_spill *s = bt_spill_new("test.trace", "t_spill", chunk, names ? resolve : NULL, NULL);
	size_t i, nref = 0, when[8];
	int64_t clock[64] = { 0 };
	int rc = 0, t;
	char msg[200];

	memset(known, 0, sizeof known);
	for (t = 0; t < names; t++)
		when[t] = t == names - 1 ? n + 1 : (size_t)(next() % (n + 1));
	for (i = 0; i < n && !rc; i++) {
		struct want *e = &w[i];
		int key = nkeys ? (int)(next() % (uint64_t)nkeys) : (int)i;
		size_t j;
		for (t = 0; t < names; t++)
			known[t] |= when[t] == i;
		clock[key % 64] += (int64_t)(next() % 3) - (next() % 9 == 0 ? 4 : 0);
		e->r.k = nkeys ? 7 - key * 3 : (int64_t)(next() % 100000);
		e->r.ts = clock[key % 64];
		e->r.seq = (int64_t)i;
		e->r.a = (uint32_t)next();
		e->r.c = (uint8_t)next();
		e->r.flags = (uint8_t)(next() % BT_SPILL_PENDING);
		e->r.len = (uint16_t)(next() % 4 ? next() % 40 : next() % (BT_SPILL_MAX_REC - sizeof e->r));
		for (j = 0; j < e->r.len; j++)
			e->pay[j] = (unsigned char)next();
		e->name = names && next() % 4 == 0 ? (int)(next() % (uint64_t)names) : -1;
		if (e->name >= 0 && !known[e->name]) {
			struct bt_spill_rec p = e->r;
			p.k = e->name;
			p.flags |= BT_SPILL_PENDING;
			e->r.k = -(e->name + 1) * 1000;
			e->drop = e->name == names - 1;
			rc = bt_spill_add(s, &p, e->pay, &err);
		} else {
			rc = bt_spill_add(s, &e->r, e->pay, &err);
		}
	}
	for (i = 0; i < n; i++)
		if (!w[i].drop)
			ref[nref++] = w[i];
	qsort(ref, nref, sizeof *ref, cmp);
	if (!rc)
		rc = bt_spill_order(s, &err);
	snprintf(msg, sizeof msg, "%s: %s", what, runs ? "sorted runs on disk" : "all in memory");
	ok(runs ? bt_spill_runs(s) > 1 : bt_spill_runs(s) == 0, msg);
	read_back(s, ref, nref, rc, &err, what);
	rc = bt_spill_rewind(s, &err);
	snprintf(msg, sizeof msg, "%s, read again", what);
	read_back(s, ref, nref, rc, &err, msg);
	bt_spill_free(s);
	free(w);
	free(ref);
}

int main(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_spill *s = bt_spill_new("empty", "t_spill", 0, NULL, NULL);
	const struct bt_spill_rec *r;

	is_int(bt_spill_runs(NULL), 0, "no store: no runs");
	ok(bt_spill_order(s, &err) == BT_OK && bt_spill_next(s, &r, &err) == 0, "an empty store reads back nothing");
	bt_spill_free(s);
	bt_spill_free(NULL);
	round_trip(5000, 12, 0, 0, 0, "12 keys interleaved, one chunk");
	round_trip(5000, 1, 0, 0, 0, "one key, one chunk");
	round_trip(5000, 0, 0, 0, 0, "a key a record, one chunk");
	round_trip(5000, 12, 0, 3, 0, "pending names, one chunk");
	round_trip(30000, 12, 8192, 0, 1, "12 keys interleaved, runs");
	round_trip(30000, 0, 8192, 0, 1, "a key a record, runs");
	round_trip(30000, 40, 8192, 5, 1, "pending names, runs");
	round_trip(3000, 5, 1, 2, 1, "a record a run");
	return done_testing();
}
