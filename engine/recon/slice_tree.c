/*
 * The node-stack algorithm that turns a thread's items into slices (format
 * spec §8.2-§8.3): a frame seen in consecutive items is one slice. Policies
 * differ in where a frame starts and ends inside the gap between samples:
 * btrace reproduces upstream exactly (ends at min(next item, last item +
 * 10 ns), its duration split and zero-length quirk Q-5); midpoint splits
 * the gap in half, is exact where duration records say so, and restarts
 * frames below the message loop when the message id changes (DESIGN §5);
 * idle reads each gap from what the records physically mean and knows when
 * a thread waited for work (slice_idle.c). Idle slices' off-CPU own time
 * is idle time, which no method's wall time includes (profile.h).
 * A sample inside a recorded blocking wait (a timer sample of the blocked
 * thread, iOS) shows where the thread waited: its frames below the wait's
 * run from the wait's begin to its end, in every policy but btrace; in
 * all, the wait's blocked time goes to the frames innermost during it,
 * each for its share (wait_part), and waits that overlap block the thread
 * once, so no path's self blocked time exceeds its self time.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/profile/profile.h"
#include "engine/db/rtype.h"
#include "engine/recon/slice_int.h"

#define SINGLE_SAMPLING 10   /* ns, on the wall and the CPU clock alike */

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/*
 * An idle slice (the idle policy's): the thread waiting for work, which
 * is no method's time. A wait for work begins at the loop's wait for the
 * next message, a worker's wait for its next task, or the "(idle)" frame
 * that stands for a wait no sample shows; everything below it waits too,
 * except work run from inside the wait, and what that calls: a frame the
 * native poll calls (a callback of the Looper: input events, vsync, file
 * descriptors) or a BT_TASK_WORK frame (an IdleHandler).
 */
static int is_idle_slice(const struct bt_stacktab *t, uint32_t frame, int parent_idle, uint32_t parent)
{
	if (parent_idle)
		return bt_slice_task_of(t, frame) != BT_TASK_WORK && !(t->poll && parent == t->poll);
	return frame == t->idle_frame || ((size_t)frame <= t->nframes && t->idle[frame]) ||
	       bt_slice_task_of(t, frame) == BT_TASK_WAIT;
}

/* Ids are given in preorder (a parent's is smaller than its children's),
 * while slices reach the sink as they end. */
void bt_slice_push(struct bt_slice_run *r, uint32_t frame, uint32_t node, int64_t t, int64_t c, int64_t idx,
		 int64_t last_t, int64_t last_c, const struct bt_item *begin, const struct bt_item *base)
{
	struct snode *n = &r->stack[r->sp];
	struct bt_slice *s = &n->s;

	n->begin_idx = idx;          /* every field is set here or in pop() */
	n->child_dur = n->child_cpu = n->child_idle = n->child_wait = 0;
	n->idle = r->policy == BT_SLICE_IDLE && is_idle_slice(r->tab, frame, r->stack[r->sp - 1].idle,
								(uint32_t)r->stack[r->sp - 1].s.frame_id);
	if (n->idle && r->tab->made)
		*r->tab->made |= BT_MADE_IDLE;
	memset(n->child_ctr, 0, sizeof n->child_ctr);
	n->base = base->src;
	s->block_dur = 0;
	s->id = r->next_id++;
	s->tid = begin->src->tid;
	s->depth = (int64_t)r->sp - 1;
	s->parent_id = r->stack[r->sp - 1].s.id;
	s->frame_id = frame;
	s->ts = t;
	s->cpu_dur = c;              /* the begin CPU time until the end */
	s->msg_id = begin->msg_id;
	s->type = begin->type;
	s->wakeup_tid = begin->wakeup_tid;
	s->gap_dur = t - last_t;
	s->gap_cpu_dur = c - last_c;
	s->idle = n->idle;
	if (r->sink->profile) {
		const struct snode *up = &r->stack[r->sp - 1];
		n->msg_root = r->policy != BT_SLICE_BTRACE && r->sp > 1 && bt_slice_is_loop(r->tab, up->s.frame_id) &&
			      !bt_slice_is_loop(r->tab, frame) && !(frame <= r->tab->nframes && r->tab->idle[frame]);
		n->in_msg = n->msg_root || (r->sp > 1 && up->in_msg);
		n->path = bt_profile_enter(r->sink->profile, up->path, frame, node, n->in_msg, s->msg_id,
					   n->idle);
	}
	r->sp++;
}

/* A message slice: a child of a message-loop frame, other than the wait
 * for the next message (idle time belongs to the loop, DESIGN §5). */
static int is_message(const struct bt_slice_run *r, const struct bt_slice *s, const struct snode *parent)
{
	return s->parent_id && s->msg_id && !r->tab->idle[s->frame_id] &&
	       !r->tab->loop[s->frame_id] && r->tab->loop[parent->s.frame_id];
}

/* One message per run of consecutive message slices with the same id. */
static void end_message(struct bt_slice_run *r, int64_t tid)
{
	if (r->msg.id && !r->rc && r->sink->message) {
		const struct bt_message m = { tid, r->msg.id, r->msg.ts, r->msg.end - r->msg.ts, r->msg.cpu,
					      r->msg.block, r->msg.idle, r->msg.alloc };
		r->rc = r->sink->message(r->sink->ctx, &m, r->err);
	}
	r->msg.id = 0;
}

static void add_message(struct bt_slice_run *r, const struct bt_slice *s, int64_t idle)
{
	if (r->msg.id != s->msg_id) {
		end_message(r, s->tid);
		r->msg.id = s->msg_id;
		r->msg.ts = s->ts;
		r->msg.cpu = r->msg.block = r->msg.idle = r->msg.alloc = 0;
	}
	r->msg.end = s->ts + s->dur;
	r->msg.cpu = bt_sat_add(r->msg.cpu, s->cpu_dur);
	r->msg.block = bt_sat_add(r->msg.block, s->block_dur);
	r->msg.idle = bt_sat_add(r->msg.idle, idle);
	r->msg.alloc = bt_sat_add(r->msg.alloc, s->alloc_bytes);
}

/*
 * The part of node n (ending at t) since the thread began to block
 * (r->blk): blocked time in its slice, and where it was innermost its own
 * blocked time, so a wait's blocked time lies where its wall time does (no
 * path's self blocked time exceeds its self time) when samples inside the
 * wait showed other frames than its record.
 */
static void wait_part(struct bt_slice_run *r, struct snode *n, struct snode *parent, int64_t t)
{
	int64_t from = n->s.ts > r->blk->ts ? n->s.ts : r->blk->ts, in = t > from ? t - from : 0;

	n->s.block_dur = bt_sat_add(n->s.block_dur, in);
	if (r->sink->profile)
		bt_profile_blocked(r->sink->profile, n->path, in - n->child_wait);
	n->child_wait = 0;
	if (parent)
		parent->child_wait = bt_sat_add(parent->child_wait, in);
}

void bt_slice_unseen_message(struct bt_slice_run *r, int64_t id, int64_t ts, int64_t end, int64_t cpu)
{
	int64_t tid = r->items[0].src->tid;

	end_message(r, tid);
	if (!r->rc && r->sink->message && end > ts) {
		const struct bt_message m = { tid, id, ts, end - ts, cpu, 0, 0, 0 };
		r->rc = r->sink->message(r->sink->ctx, &m, r->err);
	}
}

/* Pop the top node, ending it at (t, c); counters run up to item end. */
void bt_slice_pop(struct bt_slice_run *r, int64_t t, int64_t c, int64_t idx, const struct bt_item *end)
{
	struct snode *n = &r->stack[--r->sp], *parent = &r->stack[r->sp - 1];
	struct bt_slice *s = &n->s;
	const struct bt_csample *a = n->base, *b = end->src;
	/* the counters, kept here too: read back from s as one wide load, the
	 * stores just made to it would not forward and the load would wait */
	const int64_t ctr[BT_PROFILE_NCTR] = { b->alloc_bytes - a->alloc_bytes, b->alloc_objects - a->alloc_objects,
					       (int64_t)b->majflt - a->majflt, (int64_t)b->nvcsw - a->nvcsw,
					       (int64_t)b->nivcsw - a->nivcsw };
	int64_t idle;   /* the time in idle state inside the slice */

	s->dur = t - s->ts;
	s->cpu_dur = c - s->cpu_dur;
	s->self_dur = s->dur - n->child_dur;
	s->self_cpu_dur = s->cpu_dur - n->child_cpu;
	s->sample_count = idx - n->begin_idx;
	s->alloc_bytes = ctr[0];
	s->alloc_objects = ctr[1];
	s->majflt = ctr[2];
	s->nvcsw = ctr[3];
	s->nivcsw = ctr[4];
	parent->child_dur = bt_sat_add(parent->child_dur, s->dur);
	parent->child_cpu = bt_sat_add(parent->child_cpu, s->cpu_dur);
	idle = bt_sat_add(bt_slice_idle_part(s), n->child_idle);
	parent->child_idle = bt_sat_add(parent->child_idle, idle);
	if (r->blk)
		wait_part(r, n, parent, t);
	if (r->policy != BT_SLICE_BTRACE && is_message(r, s, parent))
		add_message(r, s, idle);
	if (r->sink->profile) {
		int64_t self[BT_PROFILE_NCTR];
		int k;
		for (k = 0; k < BT_PROFILE_NCTR; k++) {
			self[k] = ctr[k] - n->child_ctr[k];
			parent->child_ctr[k] = bt_sat_add(parent->child_ctr[k], ctr[k]);
		}
		bt_profile_leave(r->sink->profile, n->path, s, self, n->in_msg, n->msg_root);
	}
	if (!r->rc)
		r->rc = r->sink->slice(r->sink->ctx, s, r->err);
}


/* One upstream step: close what disappeared, open what appeared (§8.2). */
static void step_btrace(struct bt_slice_run *r, size_t i, const uint32_t *pf, size_t np,
			const uint32_t *cf, const uint32_t *cn, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	size_t k = bt_slice_common(pf, np, cf, nc), j;

	for (j = k; j < np; j++)
		bt_slice_pop(r, min64(cur->ts, pre->ts + SINGLE_SAMPLING), min64(cur->cpu, pre->cpu + SINGLE_SAMPLING),
		    (int64_t)i, cur);
	for (j = k; j < nc; j++)
		bt_slice_push(r, cf[j], cn[j], cur->ts, cur->cpu, (int64_t)i, pre->ts, pre->cpu, cur, cur);
	/* upstream tests only the sizes here (its comment means "same stack"): Q-5 */
	if (np == nc && pre->dup && r->sp > 1) {
		uint32_t frame = (uint32_t)r->stack[r->sp - 1].s.frame_id;
		bt_slice_pop(r, cur->ts, cur->cpu, (int64_t)i - 1, cur);
		bt_slice_push(r, frame, 0, cur->ts, cur->cpu, (int64_t)i, cur->ts, cur->cpu, cur, cur);
	}
}

size_t bt_slice_loop_cut(const struct bt_stacktab *t, const uint32_t *f, size_t k)
{
	size_t j;

	for (j = k; j > 0; j--)
		if (bt_slice_is_loop(t, f[j - 1]))
			return j;
	return k;
}

static int is_idle(const struct bt_stacktab *t, const uint32_t *f, size_t n, size_t k)
{
	return k >= n || ((size_t)f[k] <= t->nframes && t->idle[f[k]]);
}

/*
 * A gap at the message loop (k frames in common, the last the loop frame):
 * the loop's wait for the next message uses no CPU, so a message ran on
 * after the earlier sample, or had begun before the later one, for the CPU
 * the gap used (half each when a message ends and another begins), and
 * the idle rest belongs to the loop frame. Returns 0 where that does not
 * apply (no loop frame, or no message on either side).
 */
static int loop_gap(const struct bt_slice_run *r, const struct bt_item *pre, const struct bt_item *cur,
		    const uint32_t *pf, size_t np, const uint32_t *cf, size_t nc, size_t k,
		    int64_t *et, int64_t *ec, int64_t *st, int64_t *sc)
{
	int busy_pre, busy_cur;
	int64_t gap = cur->ts - pre->ts, d = cur->cpu - pre->cpu;

	if (k == 0 || !bt_slice_is_loop(r->tab, pf[k - 1]))
		return 0;
	busy_pre = !is_idle(r->tab, pf, np, k);
	busy_cur = !is_idle(r->tab, cf, nc, k);
	if (!busy_pre && !busy_cur)
		return 0;
	if (!busy_pre || !busy_cur) {
		if (pre->msg_id == cur->msg_id && busy_pre)
			return 0;   /* into the loop's wait without a new message id */
	} else if (pre->msg_id == cur->msg_id) {
		return 0;
	}
	d = d < 0 ? 0 : d > gap ? gap : d;
	if (busy_pre && busy_cur) {
		*et = pre->ts + d / 2, *ec = pre->cpu + d / 2;
		*st = cur->ts - d / 2, *sc = cur->cpu - d / 2;
	} else if (busy_pre) {
		*et = *st = pre->ts + d;
		*ec = *sc = pre->cpu + d;
	} else {
		*et = *st = cur->ts - d;
		*ec = *sc = cur->cpu - d;
	}
	return 1;
}

/* Frames f (nodes, or none) open through the gap before item i, from
 * (et, ec) to (st, sc), with no counters; begin gives their record fields.
 * 0 (none made) where the stack has no room for them. */
int bt_slice_stretch(struct bt_slice_run *r, size_t i, const uint32_t *f, const uint32_t *nodes, size_t n,
		     const struct bt_item *begin, int64_t et, int64_t ec, int64_t st, int64_t sc)
{
	const struct bt_item *pre = &r->items[i - 1];
	size_t m;

	if (r->sp + n >= sizeof r->stack / sizeof r->stack[0])
		return 0;
	for (m = 0; m < n; m++)
		bt_slice_push(r, f[m], nodes ? nodes[m] : 0, et, ec, (int64_t)i, pre->ts, pre->cpu, begin, pre);
	while (n--)
		bt_slice_pop(r, st, sc, (int64_t)i, pre);
	return 1;
}

/* Whether item it is the end of a blocking record (its end item has the
 * record's type: slice.c add_dup). */
static int is_wait_end(const struct bt_item *it)
{
	return it->dup && bt_rtype_is_blocking(it->type);
}

/* Whether item it ends the thread's blocked time: the end of the last
 * blocking record it is in (r->blk). */
static int ends_wait(const struct bt_slice_run *r, const struct bt_item *it)
{
	return r->blk && r->nblk == 1 && is_wait_end(it);
}

/* A sample inside a recorded wait that shows the wait's stack and frames
 * below it (a timer sample of the blocked thread, iOS) was in those frames
 * from the wait's begin (into: the gap from the wait's begin, item i - 1,
 * keeps every earlier frame), and stayed there to its end (out). */
int bt_slice_into_wait(const struct bt_slice_run *r, size_t i, size_t k, size_t np)
{
	return &r->items[i - 1] == r->blk && !ends_wait(r, &r->items[i]) && k == np;
}

int bt_slice_out_of_wait(const struct bt_slice_run *r, size_t i, size_t k, size_t nc)
{
	return ends_wait(r, &r->items[i]) && &r->items[i - 1] != r->blk && k == nc;
}

/*
 * The end of a blocking record (item end), counted on the path it ends
 * on. When the thread is in no other, its blocked time ends: the slices
 * open now get their part of it (wait_part, as those that ended inside
 * it did), innermost first, and the root what no slice covered. Records
 * that overlap (data that contradicts itself: a thread waits for one
 * thing at a time) block it once, from the first's begin to the last's
 * end.
 */
static void end_wait(struct bt_slice_run *r, const struct bt_item *end)
{
	size_t j;

	if (r->sink->profile)
		bt_profile_block_record(r->sink->profile, r->stack[r->sp - 1].path, end->type,
					bt_item_block(r->tab, end));
	if (--r->nblk)
		return;
	for (j = r->sp; j-- > 0;)
		wait_part(r, &r->stack[j], j ? &r->stack[j - 1] : NULL, end->ts);
	r->blk = NULL;
}

/*
 * A midpoint step: frames change halfway through the gap, except the leaf
 * of a duration record's end (it returned exactly then) or begin (it was
 * entered exactly then), and at the message loop (loop_gap). Counter
 * changes belong to the later sample's stack (DESIGN §5), so a slice's
 * counters run from the item before its first to its last.
 */
static void step_midpoint(struct bt_slice_run *r, size_t i, const uint32_t *pf, size_t np,
			  const uint32_t *cf, const uint32_t *cn, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	int64_t mt = pre->ts + (cur->ts - pre->ts) / 2, mc = pre->cpu + (cur->cpu - pre->cpu) / 2;
	int64_t et = mt, ec = mc, st = mt, sc = mc;   /* when popped frames end, pushed ones start */
	size_t k = bt_slice_common(pf, np, cf, nc), j;
	int into, out;

	if (pre->msg_id != cur->msg_id)
		k = bt_slice_loop_cut(r->tab, pf, k);
	loop_gap(r, pre, cur, pf, np, cf, nc, k, &et, &ec, &st, &sc);
	if (k == np && np == nc && np && pre->dup)
		k = np - 1;   /* two calls with the same stack stay two slices */
	into = bt_slice_into_wait(r, i, k, np);
	out = bt_slice_out_of_wait(r, i, k, nc);
	if (into)
		st = pre->ts, sc = pre->cpu;
	if (out)
		et = cur->ts, ec = cur->cpu;
	for (j = np; j > k; j--) {
		int exact = pre->dup && j == np && !out;
		bt_slice_pop(r, exact ? pre->ts : et, exact ? pre->cpu : ec, (int64_t)i, pre);
	}
	for (j = k; j < nc; j++) {
		int exact = j == nc - 1 && cur->exact && !into;
		bt_slice_push(r, cf[j], cn[j], exact ? cur->ts : st, exact ? cur->cpu : sc, (int64_t)i, pre->ts,
			      pre->cpu, cur, pre);
	}
}

int bt_slice_run_thread(const struct bt_stacktab *t, const struct bt_item *items, size_t n,
			enum bt_slice_policy policy, const struct bt_slice_sink *sink, int64_t *next_id,
			struct bt_err *err)
{
	struct bt_slice_run *r = bt_xcalloc(1, sizeof *r);
	uint32_t fa[BT_SLICE_MAX_FRAMES], fb[BT_SLICE_MAX_FRAMES], *pf = fa, *cf = fb, *tmp;
	uint32_t na[BT_SLICE_MAX_FRAMES], nb[BT_SLICE_MAX_FRAMES], *pn = na, *cn = nb;
	size_t np = 0, nc, i, j;
	int64_t tail, cpu_tail;
	int rc;

	r->tab = t;
	r->policy = policy;
	r->items = items;
	r->sink = sink;
	r->err = err;
	r->next_id = *next_id;
	/* the root: never emitted, begins at the first item with CPU 0 */
	r->stack[0].s.ts = items[0].ts;
	if (sink->profile)
		r->stack[0].path = bt_profile_thread(sink->profile, items[0].src->tid);
	r->sp = 1;
	if (policy == BT_SLICE_IDLE)
		bt_slice_idle_begin(r, n);
	for (i = 0; i < n && !r->rc; i++) {
		if (i > 0 && items[i].node == items[i - 1].node &&
		    bt_item_synth(t, &items[i]) == bt_item_synth(t, &items[i - 1])) {
			memcpy(cf, pf, np * sizeof *cf);   /* a duration record's end: same stack */
			memcpy(cn, pn, np * sizeof *cn);
			nc = np;
		} else {
			nc = bt_item_frames(t, &items[i], pf, pn, i ? np : 0, cf, cn);
		}
		if (i == 0)
			for (j = 0; j < nc; j++)
				bt_slice_push(r, cf[j], cn[j], items[0].ts, items[0].cpu, 0, items[0].ts, items[0].cpu,
				     &items[0], &items[0]);
		else if (policy == BT_SLICE_BTRACE)
			step_btrace(r, i, pf, np, cf, cn, nc);
		else if (policy == BT_SLICE_MIDPOINT)
			step_midpoint(r, i, pf, np, cf, cn, nc);
		else
			bt_slice_step_idle(r, i, pf, np, cf, cn, nc);
		if (policy == BT_SLICE_IDLE)
			bt_slice_note_wait(r, i, cf, nc);
		if (r->blk && is_wait_end(&items[i])) {
			end_wait(r, &items[i]);
		} else {
			int64_t block = bt_item_block(t, &items[i]);   /* 0 unless an end item */
			if (block && sink->profile)
				bt_profile_block(sink->profile, r->stack[r->sp - 1].path, items[i].type, block);
			if (block && bt_rtype_is_blocking(items[i].type))
				for (j = 1; j < r->sp; j++)
					r->stack[j].s.block_dur = bt_sat_add(r->stack[j].s.block_dur, block);
		}
		if (items[i].exact && bt_rtype_is_blocking(items[i].type) && !r->nblk++)
			r->blk = &items[i];
		tmp = pf;
		pf = cf;
		cf = tmp;
		tmp = pn;
		pn = cn;
		cn = tmp;
		np = nc;
	}
	tail = cpu_tail = policy == BT_SLICE_BTRACE ? SINGLE_SAMPLING : 0;
	if (policy == BT_SLICE_IDLE)   /* a call being served: to its reply (its CPU unknown) */
		tail = bt_slice_last_end(t, items[n - 1].src->tid, items[n - 1].ts) - items[n - 1].ts;
	while (r->sp > 1 && !r->rc)
		bt_slice_pop(r, items[n - 1].ts + tail, items[n - 1].cpu + cpu_tail, (int64_t)n, &items[n - 1]);
	end_message(r, items[0].src->tid);
	if (sink->profile) {
		bt_profile_thread_span(sink->profile, items[n - 1].ts - items[0].ts, items[n - 1].cpu - items[0].cpu);
		bt_profile_thread_end(sink->profile);
	}
	if (!r->rc && sink->thread)
		r->rc = sink->thread(sink->ctx, items[0].src->tid, r->next_id - *next_id, err);
	*next_id = r->next_id;
	rc = r->rc;
	free(r);
	return rc;
}
