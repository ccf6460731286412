/*
 * Each thread's records nested into slices (b2_int.h). A record is a
 * whole method call, written as the method returns, so a thread's records
 * come in the order their calls ended: a call tree in postorder. One pass
 * finds each call's subtree (its children are the calls that ended before
 * it and began no earlier), one more puts the records in preorder, and a
 * walk gives them to the feed; no sort, unless a thread's records do not
 * come in end order (then a stable merge sort puts them so first).
 */
#include <stdlib.h>
#include <string.h>

#include "importers/btrace2/b2_int.h"

#define MAX_DEPTH 512       /* deeper calls are counted, not given */
#define NONE UINT32_MAX

void b2_trace_drop_work(struct b2_trace *t)
{
	free(t->size);
	free(t->parent);
	free(t->stack);
	free(t->dep);
	free(t->pre);
	t->size = t->parent = t->dep = NULL;
	t->stack = NULL;
	t->pre = NULL;
	t->wcap = 0;
}

void b2_trace_release(struct b2_trace *t)
{
	b2_trace_drop_work(t);
	free(t->rec);
	free(t->first);
	memset(t, 0, sizeof *t);
}

/* a goes before b in postorder: it ends first, or as b does but begins
 * later (inside it). */
static int before(const struct b2_rec *a, const struct b2_rec *b)
{
	uint64_t ea = b2_end(a), eb = b2_end(b);

	return ea < eb || (ea == eb && b2_start(a) > b2_start(b));
}

/* Stable bottom-up merge sort of r[0..n) into postorder. */
static void sort_postorder(struct b2_rec *r, size_t n)
{
	struct b2_rec *tmp = bt_xmalloc(n * sizeof *tmp), *src = r, *dst = tmp, *x;
	size_t w, lo, mid, hi, i, j, k;

	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				dst[k] = j < hi && (i >= mid || before(&src[j], &src[i])) ? src[j++] : src[i++];
		}
		x = src, src = dst, dst = x;
	}
	if (src != r)
		memcpy(r, src, n * sizeof *r);
	free(tmp);
}

static void order(struct b2_rec *r, size_t n, struct b2_fixes *fx)
{
	size_t i, late = 0;

	for (i = 1; i < n; i++)
		late += b2_end(&r[i]) < b2_end(&r[i - 1]);
	if (!late)
		return;
	if (fx) {
		fx->unordered_threads++;
		fx->unordered += late;
	}
	sort_postorder(r, n);
}

/*
 * r[0..n) (postorder) into preorder: pre[] the records, dep[] each one's
 * depth. A call's children are the calls before it, not yet taken, that
 * began no earlier; its subtree is then the size[i] records ending at i,
 * and its place in preorder that subtree's first plus its depth. Calls
 * that did end in order but overlap one before them without holding it
 * (the trace's own clock or a damaged record) begin where that one ended
 * (counted in fx).
 */
static void preorder(struct b2_trace *t, struct b2_rec *r, size_t n, struct b2_fixes *fx)
{
	uint32_t *size = t->size, *parent = t->parent, d;
	struct b2_pending *stack = t->stack;
	size_t sp = 0, i, k;
	uint64_t s, e;

	for (i = 0; i < n; i++) {
		s = b2_start(&r[i]);
		e = b2_end(&r[i]);
		size[i] = 1;
		parent[i] = NONE;
		for (k = sp; k > 0 && stack[k - 1].start >= s; k--) {
			parent[stack[k - 1].i] = (uint32_t)i;
			size[i] += size[stack[k - 1].i];
		}
		sp = k;
		if (sp && stack[sp - 1].end > s) {
			s = stack[sp - 1].end;
			b2_set(&r[i], s, e - s);
			if (fx)
				fx->overlaps++;
		}
		stack[sp].start = s;
		stack[sp].end = e;
		stack[sp++].i = (uint32_t)i;
	}
	for (i = n; i-- > 0;) {   /* parents after their children: depths top-down */
		d = parent[i] == NONE ? 0 : size[parent[i]] + 1;   /* size[] of a done one holds its depth */
		k = i + 1 - size[i] + d;
		size[i] = d;
		t->pre[k] = r[i];
		t->dep[k] = d;
	}
}

struct b2_walk {
	struct bt_feed *f;
	struct bt_slice s;          /* the slice opened, its other fields 0 */
	int64_t base, end[MAX_DEPTH];
	size_t open;
};

static int close_to(struct b2_walk *w, size_t depth, struct bt_err *err)
{
	while (w->open > depth)
		if (bt_feed_close(w->f, w->end[--w->open], NULL, err))
			return err->code;
	return BT_OK;
}

/* Open and close the thread's n calls, in preorder. */
static int walk(struct b2_walk *w, const struct b2_rec *pre, const uint32_t *dep, size_t n,
		struct b2_fixes *fx, struct bt_err *err)
{
	size_t j;

	for (j = 0; j < n; j++) {
		if (dep[j] >= MAX_DEPTH) {
			if (fx && !fx->deep++)
				fx->deep_tid = w->s.tid;
			continue;
		}
		if (close_to(w, dep[j], err))
			return err->code;
		w->s.ts = w->base + (int64_t)b2_start(&pre[j]);
		w->s.frame_id = b2_mid(&pre[j]);   /* the frame id (b2_set_frame) */
		w->end[w->open++] = w->base + (int64_t)b2_end(&pre[j]);
		if (bt_feed_open(w->f, &w->s, BT_FEED_CPU_UNKNOWN, 0, err))   /* btrace 2.0 records wall time only */
			return err->code;
	}
	return close_to(w, 0, err);
}

static void workspace(struct b2_trace *t, size_t n)
{
	if (n <= t->wcap)
		return;
	b2_trace_drop_work(t);
	t->size = bt_xmalloc(n * sizeof *t->size);
	t->parent = bt_xmalloc(n * sizeof *t->parent);
	t->stack = bt_xmalloc(n * sizeof *t->stack);
	t->dep = bt_xmalloc(n * sizeof *t->dep);
	t->pre = bt_xmalloc(n * sizeof *t->pre);
	t->wcap = n;
}

int b2_tree_feed(struct b2_trace *t, struct bt_feed *f, struct b2_fixes *fixes, struct bt_err *err)
{
	struct b2_walk *w = bt_xcalloc(1, sizeof *w);
	uint32_t tid;
	size_t n;
	int rc = BT_OK;

	w->f = f;
	w->base = t->base;
	w->s.type = -1;
	for (tid = 1; tid < B2_NTID && !rc; tid++) {
		n = t->first[tid + 1] - t->first[tid];
		if (!n)
			continue;
		w->s.tid = tid;
		workspace(t, n);
		order(t->rec + t->first[tid], n, fixes);
		preorder(t, t->rec + t->first[tid], n, fixes);
		rc = walk(w, t->pre, t->dep, n, fixes, err);
	}
	free(w);
	return rc;
}
