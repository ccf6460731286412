/*
 * Unit tests of the HTML timeline's packed slices (reports/html/html_tap.c):
 * random call trees fed through the tap as a run gives them (children
 * before their parent) unpack to the same slices in microseconds; the
 * lanes come main first, then by slice count; past the page's limit the
 * shortest slices are left out by powers of two, and what is kept is
 * exactly the slices at or above the limit's duration, re-packed.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/html/html_int.h"
#include "tests/tap.h"

static uint64_t seed = 42;

static int64_t rnd(int64_t n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return n > 0 ? (int64_t)((seed >> 33) % (uint64_t)n) : 0;
}

struct want {
	struct bt_html_slice *v;
	size_t n, cap;
};

static int64_t us(int64_t ns) { return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000); }

/* A subtree in [ts, ts + dur), children first; what the tap should keep
 * of each slice goes to w. */
static void tree(struct bt_slice_tap *t, struct want *w, int64_t tid, int64_t depth, int64_t ts, int64_t dur,
		 int64_t *id)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_slice s;
	int64_t at = ts + rnd(dur / 4 + 1), kids = depth < 12 ? rnd(4) : 0, k;

	for (k = 0; k < kids && at < ts + dur; k++) {
		int64_t d = rnd((ts + dur - at) / 2 + 1);
		tree(t, w, tid, depth + 1, at, d, id);
		at += d + rnd(50000);
	}
	memset(&s, 0, sizeof s);
	s.id = (*id)++;
	s.tid = tid;
	s.depth = depth;
	s.ts = ts;
	s.dur = dur;
	s.frame_id = rnd(5) ? rnd(300) : rnd((int64_t)1 << 40);
	s.cpu_dur = rnd(dur + 1);
	t->slice(t->ctx, 0, &s, &err);
	BT_GROW(w->v, w->n + 1, w->cap);
	w->v[w->n].start = us(ts);
	w->v[w->n].end = us(ts + dur);
	w->v[w->n].depth = depth;
	w->v[w->n].frame = s.frame_id;
	w->v[w->n].tenths = dur ? (s.cpu_dur * 10 + dur / 2) / dur : 0;
	w->n++;
}

/* Lane l unpacks to the slices of w of at least min_us, in order. */
static int same(const struct bt_html_lane *l, const struct want *w, int64_t min_us)
{
	struct bt_html_unpack u;
	struct bt_html_slice s;
	size_t i = 0;
	int good = 1;

	bt_html_unpack_init(&u, l);
	while (good && bt_html_unpack_next(&u, &s)) {
		while (i < w->n && w->v[i].end - w->v[i].start < min_us)
			i++;
		good = i < w->n && !memcmp(&s, &w->v[i], sizeof s);
		if (!good)
			printf("#   slice %zu: got %lld..%lld d%lld f%lld c%lld, want %lld..%lld d%lld f%lld c%lld\n", i,
			       (long long)s.start, (long long)s.end, (long long)s.depth, (long long)s.frame,
			       (long long)s.tenths, (long long)w->v[i].start, (long long)w->v[i].end,
			       (long long)w->v[i].depth, (long long)w->v[i].frame, (long long)w->v[i].tenths);
		i++;
	}
	while (i < w->n && w->v[i].end - w->v[i].start < min_us)
		i++;
	bt_html_unpack_release(&u);
	return good && i == w->n;
}

static int64_t depth_sum(const struct bt_html_lane *l)
{
	int64_t n = 0;
	size_t d;

	for (d = 0; d < l->ndepth; d++)
		n += l->depth[d];
	return n;
}

int main(void)
{
	struct bt_html_timeline *tl = bt_html_timeline_new();
	struct bt_slice_tap t = bt_html_timeline_tap(tl);
	struct bt_err err = BT_ERR_INIT;
	struct want w[3];
	static const int64_t tids[3] = { 7, 9, 12 }, roots[3] = { 40, 300, 120 };
	struct bt_html_lanes ls;
	int64_t id = 1, total = 0, kept = 0;
	size_t i, k;
	int all = 1;

	memset(w, 0, sizeof w);
	for (k = 0; k < 3; k++) {   /* threads in tid order, as a part gives them */
		int64_t ts = 1700000000123456789LL - 5000 * (int64_t)k, r;
		for (r = 0; r < roots[k]; r++) {
			int64_t dur = rnd(20000000);
			tree(&t, &w[k], tids[k], 0, ts, dur, &id);
			ts += dur + rnd(3000000);
		}
		t.thread(t.ctx, 0, tids[k], (int64_t)w[k].n, &err);
		total += (int64_t)w[k].n;
	}

	bt_html_lanes_pick(&ls, tl, 12, INT64_MAX, NULL);
	is_int(ls.n, 3, "three lanes");
	is_int(ls.total, total, "every slice packed");
	is_int(ls.min_us, 0, "under the limit: none left out");
	is_int(ls.v[0]->tid, 12, "the main thread's lane first");
	ok(ls.v[1]->kept >= ls.v[2]->kept, "then the lane with more slices");
	for (i = 0; i < ls.n; i++)
		for (k = 0; k < 3; k++)
			if (ls.v[i]->tid == tids[k]) {
				all &= same(ls.v[i], &w[k], 0);
				all &= depth_sum(ls.v[i]) == ls.v[i]->kept && ls.v[i]->count == (int64_t)w[k].n;
			}
	ok(all, "each lane unpacks to its thread's slices, in us, in the order they ended");
	ok((double)(ls.v[0]->len + ls.v[1]->len + ls.v[2]->len) / (double)total < 8,
	   "under 8 bytes a slice");
	bt_html_lanes_release(&ls);

	bt_html_lanes_pick(&ls, tl, 12, total / 3, NULL);
	ok(ls.min_us > 0 && !(ls.min_us & (ls.min_us - 1)), "past the limit: a power of two of us left out");
	ok(ls.kept <= total / 3 && ls.kept > 0, "at most the limit kept");
	all = 1;
	for (i = 0; i < ls.n; i++) {
		kept += ls.v[i]->kept;
		for (k = 0; k < 3; k++)
			if (ls.v[i]->tid == tids[k])
				all &= same(ls.v[i], &w[k], ls.min_us) && depth_sum(ls.v[i]) == ls.v[i]->kept &&
				       ls.v[i]->count == (int64_t)w[k].n;
	}
	ok(all, "what is kept: exactly the slices at least that long, re-packed");
	is_int(kept, ls.kept, "and the lanes' counts add up");
	bt_html_lanes_release(&ls);

	bt_html_lanes_pick(&ls, tl, 9, total / 3 / 2, NULL);
	ok(ls.kept <= total / 6, "a lower limit leaves out more");
	bt_html_lanes_release(&ls);
	bt_html_lanes_pick(&ls, NULL, -1, 10, NULL);
	is_int(ls.n, 0, "no tap: no lanes");
	bt_html_lanes_release(&ls);

	bt_html_timeline_free(tl);
	for (k = 0; k < 3; k++)
		free(w[k].v);
	return done_testing();
}
