/*
 * The node-stack algorithm that turns a thread's items into slices (format
 * spec §8.2-§8.3): a frame seen in consecutive items is one slice. Policies
 * differ in where a frame starts and ends inside the gap between samples:
 * btrace reproduces upstream exactly (ends at min(next item, last item +
 * 10 ns), its duration split and zero-length quirk Q-5); midpoint splits
 * the gap in half, is exact where duration records say so, and restarts
 * frames below the message loop when the message id changes (DESIGN §5).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "slice_int.h"

#define SINGLE_SAMPLING 10   /* ns, on the wall and the CPU clock alike */

struct snode {
	uint32_t frame;
	int64_t slot;                        /* index into the thread's slices, -1 for the root */
	int64_t begin_t, begin_c, begin_idx;
	int64_t block, child_dur, child_cpu;
	const struct bt_item *begin;         /* opened it: type, message, wakeup */
	const struct bt_item *base;          /* counters are deltas from this item */
};

struct run {
	const struct bt_stacktab *tab;
	enum bt_slice_policy policy;
	const struct bt_item *items;
	struct snode stack[BT_SLICE_MAX_FRAMES + 2];
	size_t sp;
	struct bt_slice *out;                /* the thread's slices, in id order */
	size_t nout, cap;
	int64_t first_id;
};

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static void push(struct run *r, uint32_t frame, int64_t t, int64_t c, int64_t idx, int64_t last_t,
		 int64_t last_c, const struct bt_item *begin, const struct bt_item *base)
{
	struct snode *n = &r->stack[r->sp];
	struct bt_slice *s;

	memset(n, 0, sizeof *n);
	n->frame = frame;
	n->begin_t = t;
	n->begin_c = c;
	n->begin_idx = idx;
	n->begin = begin;
	n->base = base;
	BT_GROW(r->out, r->nout + 1, r->cap);
	n->slot = (int64_t)r->nout++;
	s = &r->out[n->slot];
	memset(s, 0, sizeof *s);
	s->id = r->first_id + n->slot;
	s->tid = begin->src->tid;
	s->depth = (int64_t)r->sp - 1;
	s->parent_id = r->sp > 1 ? r->first_id + r->stack[r->sp - 1].slot : 0;
	s->frame_id = frame;
	s->ts = t;
	s->msg_id = begin->msg_id;
	s->type = begin->type;
	s->wakeup_tid = begin->wakeup_tid;
	s->gap_dur = t - last_t;
	s->gap_cpu_dur = c - last_c;
	r->sp++;
}

/* Pop the top node, ending it at (t, c); counters run up to item end. */
static void pop(struct run *r, int64_t t, int64_t c, int64_t idx, const struct bt_item *end)
{
	struct snode *n = &r->stack[--r->sp], *parent = &r->stack[r->sp - 1];
	int64_t dur = t - n->begin_t, cpu = c - n->begin_c;

	if (n->slot >= 0) {
		struct bt_slice *s = &r->out[n->slot];
		s->dur = dur;
		s->cpu_dur = cpu;
		s->self_dur = dur - n->child_dur;
		s->self_cpu_dur = cpu - n->child_cpu;
		s->block_dur = n->block;
		s->sample_count = idx - n->begin_idx;
		const struct bt_csample *a = n->base->src, *b = end->src;
		s->alloc_objects = b->alloc_objects - a->alloc_objects;
		s->alloc_bytes = b->alloc_bytes - a->alloc_bytes;
		s->majflt = b->majflt - a->majflt;
		s->nvcsw = b->nvcsw - a->nvcsw;
		s->nivcsw = b->nivcsw - a->nivcsw;
	}
	if (r->sp > 0) {
		parent->child_dur += dur;
		parent->child_cpu += cpu;
	}
}

/* Length of the common prefix of two frame lists. */
static size_t common(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t k = 0;

	while (k < na && k < nb && a[k] == b[k])
		k++;
	return k;
}

/* One upstream step: close what disappeared, open what appeared (§8.2). */
static void step_btrace(struct run *r, size_t i, const uint32_t *pf, size_t np,
			const uint32_t *cf, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	size_t k = common(pf, np, cf, nc), j;

	for (j = k; j < np; j++)
		pop(r, min64(cur->ts, pre->ts + SINGLE_SAMPLING), min64(cur->cpu, pre->cpu + SINGLE_SAMPLING),
		    (int64_t)i, cur);
	for (j = k; j < nc; j++)
		push(r, cf[j], cur->ts, cur->cpu, (int64_t)i, pre->ts, pre->cpu, cur, cur);
	/* upstream tests only the sizes here (its comment means "same stack"): Q-5 */
	if (np == nc && pre->dup && r->sp > 1) {
		uint32_t frame = r->stack[r->sp - 1].frame;
		pop(r, cur->ts, cur->cpu, (int64_t)i - 1, cur);
		push(r, frame, cur->ts, cur->cpu, (int64_t)i, cur->ts, cur->cpu, cur, cur);
	}
}

/* Keep the common prefix only down to the deepest message-loop frame. */
static size_t loop_cut(const struct bt_stacktab *t, const uint32_t *f, size_t k)
{
	size_t j;

	for (j = k; j > 0; j--)
		if (f[j - 1] <= t->nframes && t->loop[f[j - 1]])
			return j;
	return k;
}

/*
 * A midpoint step: frames change halfway through the gap, except the leaf
 * of a duration record's end (it returned exactly then) and of a duration
 * record's begin (it was entered exactly then). Counter changes belong to
 * the later sample's stack (DESIGN §5), so a slice's counters run from the
 * item before its first to its last.
 */
static void step_midpoint(struct run *r, size_t i, const uint32_t *pf, size_t np,
			  const uint32_t *cf, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	int64_t mt = pre->ts + (cur->ts - pre->ts) / 2, mc = pre->cpu + (cur->cpu - pre->cpu) / 2;
	size_t k = common(pf, np, cf, nc), j;

	if (pre->msg_id != cur->msg_id)
		k = loop_cut(r->tab, pf, k);
	if (k == np && np == nc && np && pre->dup)
		k = np - 1;   /* two calls with the same stack stay two slices */
	for (j = np; j > k; j--) {
		int exact = pre->dup && j == np;
		pop(r, exact ? pre->ts : mt, exact ? pre->cpu : mc, (int64_t)i, pre);
	}
	for (j = k; j < nc; j++) {
		int exact = cur->exact && j == nc - 1;
		push(r, cf[j], exact ? cur->ts : mt, exact ? cur->cpu : mc, (int64_t)i, pre->ts, pre->cpu,
		     cur, pre);
	}
}

static int emit(struct run *r, struct bt_db *db, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < r->nout; i++)
		if (bt_db_insert_slice(db, &r->out[i], err))
			return err->code;
	return BT_OK;
}

/* A message slice: a child of the (deepest) message-loop frame, other than
 * the wait for the next message (idle time belongs to the loop, DESIGN §5). */
static int is_message(const struct run *r, const struct bt_slice *s)
{
	const struct bt_slice *p;

	if (!s->parent_id || !s->msg_id || r->tab->idle[s->frame_id] || r->tab->loop[s->frame_id])
		return 0;
	p = &r->out[s->parent_id - r->first_id];
	return r->tab->loop[p->frame_id];
}

/* One messages row per message id: from the first to the last of its slices. */
static int emit_messages(struct run *r, struct bt_db *db, struct bt_err *err)
{
	size_t i = 0, j;

	while (i < r->nout) {
		const struct bt_slice *s = &r->out[i];
		int64_t ts, end, cpu;
		if (!is_message(r, s)) {
			i++;
			continue;
		}
		ts = s->ts;
		end = s->ts + s->dur;
		cpu = s->cpu_dur;
		for (j = i + 1; j < r->nout; j++) {
			const struct bt_slice *x = &r->out[j];
			if (!is_message(r, x))
				continue;
			if (x->msg_id != s->msg_id)
				break;
			end = x->ts + x->dur;
			cpu += x->cpu_dur;
		}
		if (bt_db_exec(db, BT_SQL_INSERT_MESSAGE, err, "iiiii", s->tid, s->msg_id, ts, end - ts, cpu))
			return err->code;
		i = j;
	}
	return BT_OK;
}

int bt_slice_run_thread(const struct bt_stacktab *t, const struct bt_item *items, size_t n,
			   enum bt_slice_policy policy, struct bt_db *db, int64_t *next_id,
			   struct bt_err *err)
{
	struct run *r = bt_xcalloc(1, sizeof *r);
	uint32_t fa[BT_SLICE_MAX_FRAMES], fb[BT_SLICE_MAX_FRAMES], *pf = fa, *cf = fb, *tmp;
	size_t np = 0, nc, i, j;
	int64_t tail;
	int rc;

	r->tab = t;
	r->policy = policy;
	r->items = items;
	r->first_id = *next_id;
	/* the root: never emitted, begins at the first item with CPU 0 */
	r->stack[0].slot = -1;
	r->stack[0].begin_t = items[0].ts;
	r->stack[0].begin = r->stack[0].base = &items[0];
	r->sp = 1;
	for (i = 0; i < n; i++) {
		nc = bt_item_frames(t, &items[i], cf);
		if (i == 0)
			for (j = 0; j < nc; j++)
				push(r, cf[j], items[0].ts, items[0].cpu, 0, items[0].ts, items[0].cpu, &items[0],
				     &items[0]);
		else if (policy == BT_SLICE_BTRACE)
			step_btrace(r, i, pf, np, cf, nc);
		else
			step_midpoint(r, i, pf, np, cf, nc);
		if (items[i].block)
			for (j = 0; j < r->sp; j++)
				r->stack[j].block += items[i].block;
		tmp = pf;
		pf = cf;
		cf = tmp;
		np = nc;
	}
	tail = policy == BT_SLICE_BTRACE ? SINGLE_SAMPLING : 0;
	while (r->sp > 1)
		pop(r, items[n - 1].ts + tail, items[n - 1].cpu + tail, (int64_t)n, &items[n - 1]);
	rc = emit(r, db, err);
	if (!rc && policy == BT_SLICE_MIDPOINT)
		rc = emit_messages(r, db, err);
	*next_id += (int64_t)r->nout;
	free(r->out);
	free(r);
	return rc;
}
