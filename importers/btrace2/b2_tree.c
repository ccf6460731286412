/*
 * Each thread's records nested into slices (b2_int.h). A record is a
 * whole method call, written as the method returns, so a thread's records
 * come in the order their calls ended: a call tree in postorder. One pass
 * rebuilds the tree (a call's children are the calls that ended before it
 * and began after it), a walk gives it to the feed in preorder; no sort,
 * unless a thread's records do not come in end order (then a stable merge
 * sort puts them so first).
 */
#include <stdlib.h>
#include <string.h>

#include "importers/btrace2/b2_int.h"

#define MAX_DEPTH 512       /* deeper calls are counted, not given */
#define NONE UINT32_MAX

void b2_trace_release(struct b2_trace *t)
{
	free(t->rec);
	free(t->first);
	free(t->child);
	free(t->next);
	free(t->stack);
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
 * Link r[0..n) (postorder) as a tree: child[i] its first child, next[i]
 * its next sibling; returns the first root. Calls that did end in order
 * but overlap one before them without holding it (the trace's own clock
 * or a damaged record) begin where that one ended (counted in fx).
 */
static uint32_t nest(struct b2_trace *t, struct b2_rec *r, size_t n, struct b2_fixes *fx)
{
	uint32_t *child = t->child, *next = t->next, *stack = t->stack;
	size_t sp = 0, k, i, j;
	uint64_t s;

	for (i = 0; i < n; i++) {
		s = b2_start(&r[i]);
		for (k = sp; k > 0 && b2_start(&r[stack[k - 1]]) >= s; k--)
			;
		child[i] = k < sp ? stack[k] : NONE;
		for (j = k; j < sp; j++)
			next[stack[j]] = j + 1 < sp ? stack[j + 1] : NONE;
		sp = k;
		if (sp && b2_end(&r[stack[sp - 1]]) > s) {
			uint64_t at = b2_end(&r[stack[sp - 1]]);
			b2_set(&r[i], at, b2_end(&r[i]) - at);
			if (fx)
				fx->overlaps++;
		}
		stack[sp++] = (uint32_t)i;
	}
	for (j = 0; j < sp; j++)
		next[stack[j]] = j + 1 < sp ? stack[j + 1] : NONE;
	return sp ? stack[0] : NONE;
}

/* Calls in the subtrees of first and its next siblings. */
static uint64_t subtree_size(struct b2_trace *t, uint32_t first)
{
	uint32_t *stack = t->stack;
	size_t sp = 0;
	uint64_t n = 0;
	uint32_t x;

	for (x = first; x != NONE; x = t->next[x])
		stack[sp++] = x;
	while (sp) {
		x = stack[--sp];
		n++;
		for (x = t->child[x]; x != NONE; x = t->next[x])
			stack[sp++] = x;
	}
	return n;
}

struct walk {
	struct b2_trace *t;
	struct bt_feed *f;
	const struct b2_rec *r;
	int64_t tid;
	struct bt_startup *st;   /* the main thread's, or NULL */
};

static int open_one(struct walk *w, uint32_t i, struct bt_err *err)
{
	struct bt_slice s;

	memset(&s, 0, sizeof s);
	s.tid = w->tid;
	s.ts = w->t->base + (int64_t)b2_start(&w->r[i]);
	s.frame_id = b2_frame(w->t->names, b2_mid(&w->r[i]));
	s.type = -1;
	return bt_feed_open(w->f, &s, 0, 0, err);
}

static int close_one(struct walk *w, uint32_t i, struct bt_err *err)
{
	struct bt_slice s;

	if (bt_feed_close(w->f, w->t->base + (int64_t)b2_end(&w->r[i]), &s, err))
		return err->code;
	if (w->st)
		bt_startup_add(w->st, &s);
	return BT_OK;
}

/* Open and close every call from root on, in preorder. */
static int walk(struct walk *w, uint32_t root, struct b2_fixes *fx, struct bt_err *err)
{
	uint32_t path[MAX_DEPTH], node = root;
	size_t d = 0;

	while (node != NONE) {
		if (open_one(w, node, err))
			return err->code;
		path[d++] = node;
		if (w->t->child[node] != NONE) {
			if (d < MAX_DEPTH) {
				node = w->t->child[node];
				continue;
			}
			if (fx) {
				if (!fx->deep)
					fx->deep_tid = w->tid;
				fx->deep += subtree_size(w->t, w->t->child[node]);
			}
		}
		for (;;) {
			node = path[--d];
			if (close_one(w, node, err))
				return err->code;
			node = w->t->next[node];
			if (node != NONE || !d)
				break;
		}
	}
	return BT_OK;
}

static void workspace(struct b2_trace *t, size_t n)
{
	if (n <= t->wcap)
		return;
	free(t->child);
	free(t->next);
	free(t->stack);
	t->child = bt_xmalloc(n * sizeof *t->child);
	t->next = bt_xmalloc(n * sizeof *t->next);
	t->stack = bt_xmalloc(n * sizeof *t->stack);
	t->wcap = n;
}

int b2_tree_feed(struct b2_trace *t, struct bt_feed *f, int64_t main_tid, struct bt_startup *st,
		 struct b2_fixes *fixes, struct bt_err *err)
{
	struct walk w;
	uint32_t tid, root;
	size_t n;

	w.t = t;
	w.f = f;
	for (tid = 1; tid < B2_NTID; tid++) {
		n = t->first[tid + 1] - t->first[tid];
		if (!n)
			continue;
		w.r = t->rec + t->first[tid];
		w.tid = tid;
		w.st = tid == main_tid ? st : NULL;
		workspace(t, n);
		order(t->rec + t->first[tid], n, fixes);
		root = nest(t, t->rec + t->first[tid], n, fixes);
		if (walk(&w, root, fixes, err))
			return err->code;
	}
	return BT_OK;
}
