/*
 * Unit tests of the Perfetto importer's spill (importers/perfetto/pf_spill.c
 * over the importers' store, importers/spill.c):
 * events given in file order come back in pairing order (thread or track,
 * then time, then file order), with their kind, source, frame, counter
 * value and annotations intact, whether they stay in one chunk in memory
 * or go to many sorted runs on disk and a pending file (tracks described
 * after their events), against a reference sort of the same events; and
 * the same again after a rewind (a scratch analysis's deferred slices).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"
#include "tests/tap.h"

struct want {
	int64_t k, ts, seq;
	int kind, src;
	uint32_t frame;
	double v;
	unsigned char args[4 + 8 * PF__NARGS];
	size_t nargs;
	int track;    /* pending: the track's index, else -1 */
	int drop;     /* its track is never resolved */
};

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	return tap_rand(&rng);
}

static int cmp(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* n events on a few threads and tracks, times mostly rising per thread
 * with ties and steps back; ntracks tracks pending until resolved (the
 * last of them never). */
static struct want *events(size_t n, int ntracks)
{
	struct want *w = bt_xcalloc(n, sizeof *w);
	int64_t clock[8] = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		struct want *e = &w[i];
		int th = (int)(next() % 8), j, nv;
		uint32_t has = 0;
		e->seq = (int64_t)i + 1;
		e->k = th < 6 ? 1000 + th * 7 % 5 : -(int64_t)th;
		clock[th] += (int64_t)(next() % 4) - (next() % 16 == 0 ? 3 : 0);
		e->ts = clock[th];
		e->kind = 1 + (int)(next() % 4);
		e->src = (int)(next() % 2);
		e->frame = (uint32_t)(next() % 1000);
		e->v = e->kind == PF_EV_COUNTER || next() % 7 == 0 ? (double)(next() % 100000) / 7 : 0;
		e->track = ntracks && next() % 5 == 0 ? (int)(next() % (uint64_t)ntracks) : -1;
		nv = (int)(next() % 4);
		for (j = 0; j < nv; j++)
			has |= 1u << (next() % PF__NARGS);
		if (has) {
			int64_t v;
			memcpy(e->args, &has, 4);
			e->nargs = 4;
			for (j = 0; j < PF__NARGS; j++)
				if (has & 1u << j) {
					v = (int64_t)next();
					memcpy(e->args + e->nargs, &v, 8);
					e->nargs += 8;
				}
		}
	}
	return w;
}

/* Read the spill in pairing order and compare with the reference. */
static void read_back(struct pf *p, const struct want *ref, size_t nref, int rc, const char *what)
{
	struct pf_event e;
	struct bt_err err;
	size_t got = 0;
	int bad = 0;
	char msg[200];

	memset(&err, 0, sizeof err);
	while (!rc && (rc = pf_spill_next(p, &e, &err)) == 1) {
		const struct want *x = got < nref ? &ref[got] : NULL;
		if (!x || e.k != x->k || e.ts != x->ts || e.seq != x->seq || e.kind != x->kind || e.src != x->src ||
		    e.frame != x->frame || e.v != x->v || e.nargs != x->nargs ||
		    (e.nargs && memcmp(e.args, x->args, e.nargs))) {
			if (!bad++)
				printf("# %s: event %zu differs (seq %lld, want %lld)\n", what, got, (long long)e.seq,
				       x ? (long long)x->seq : -1LL);
		}
		got++;
		rc = 0;
	}
	if (rc < 0)
		printf("# %s\n", err.msg);
	if (got != nref)
		printf("# %s: %zu events back, %zu spilled\n", what, got, nref);
	snprintf(msg, sizeof msg, "%s: %zu events back in order, intact", what, nref);
	ok(rc == 0 && !bad && got == nref, msg);
}

/* Spill w, resolving track i after spilled[i] events (pending ones take
 * the key -(i + 1) * 100), then read back and compare with the sorted
 * reference. */
static void round_trip(size_t n, size_t chunk, int ntracks, const char *what)
{
	struct want *w = events(n, ntracks), *ref;
	struct pf p;
	struct pf_event e;
	struct bt_err err;
	size_t i, nref = 0, *when = bt_xcalloc((size_t)ntracks + 1, sizeof *when);
	int rc = 0, t;
	char msg[160];

	memset(&p, 0, sizeof p);
	memset(&err, 0, sizeof err);
	p.path = "test.pb";
	p.ntracks = (size_t)ntracks;
	p.tracks = bt_xcalloc((size_t)ntracks + 1, sizeof *p.tracks);
	for (t = 0; t < ntracks; t++)
		when[t] = t == ntracks - 1 ? n + 1 : (size_t)(next() % (n + 1));
	pf_spill_open(&p, chunk);
	for (i = 0; i < n && !rc; i++) {
		for (t = 0; t < ntracks; t++)
			if (when[t] == i)
				pf_spill_resolve(&p, &p.tracks[t], -(int64_t)(t + 1) * 100);
		memset(&e, 0, sizeof e);
		e.seq = w[i].seq;
		e.ts = w[i].ts;
		e.kind = w[i].kind;
		e.src = w[i].src;
		e.frame = w[i].frame;
		e.v = w[i].v;
		e.args = w[i].args;
		e.nargs = w[i].nargs;
		e.pending = w[i].track >= 0 && !p.tracks[w[i].track].resolved;
		e.k = e.pending ? w[i].track : w[i].k;
		if (e.pending) {
			w[i].k = -(int64_t)(w[i].track + 1) * 100;
			w[i].drop = w[i].track == ntracks - 1;
		}
		rc = pf_spill_event(&p, &e, &err);
	}
	ref = bt_xcalloc(n + 1, sizeof *ref);
	for (i = 0; i < n; i++)
		if (!w[i].drop)
			ref[nref++] = w[i];
	qsort(ref, nref, sizeof *ref, cmp);
	if (!rc)
		rc = bt_spill_order(p.spill, &err);
	read_back(&p, ref, nref, rc, what);
	bt_spill_rest(p.spill);
	if (!rc)
		rc = bt_spill_rewind(p.spill, &err);
	snprintf(msg, sizeof msg, "%s, read again (a deferred fill's)", what);
	read_back(&p, ref, nref, rc, msg);
	bt_spill_rest(p.spill);
	if (!rc)
		rc = bt_spill_rewind(p.spill, &err);
	snprintf(msg, sizeof msg, "%s, a third time", what);
	read_back(&p, ref, nref, rc, msg);
	bt_spill_free(p.spill);
	free(p.tracks);
	free(w);
	free(ref);
	free(when);
}

int main(void)
{
	round_trip(0, 0, 0, "no events");
	round_trip(5000, 0, 0, "one chunk in memory");
	round_trip(5000, 0, 4, "one chunk, tracks described late");
	round_trip(20000, 4096, 0, "runs on disk");
	round_trip(20000, 4096, 5, "runs on disk, pending events");
	round_trip(20000, 1, 3, "a record per run");
	round_trip(300000, 1 << 20, 6, "many runs");
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
