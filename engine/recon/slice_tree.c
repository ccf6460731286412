/*
 * The node-stack algorithm that turns a thread's items into slices (format
 * spec §8.2-§8.3): a frame seen in consecutive items is one slice. Policies
 * differ in where a frame starts and ends inside the gap between samples:
 * btrace reproduces upstream exactly (ends at min(next item, last item +
 * 10 ns), its duration split and zero-length quirk Q-5); midpoint splits
 * the gap in half, is exact where duration records say so, and restarts
 * frames below the message loop when the message id changes (DESIGN §5);
 * idle is midpoint where the thread ran through the gap, and knows when a
 * thread was idle, waiting for work (README "The idle model"):
 *   - voluntary context switches: no rise, no sleep in the gap: the thread
 *     stayed in the frames both samples show (thirds: two boundaries);
 *   - the CPU delta: where it slept, the CPU it used is the only time it
 *     surely ran, half after the earlier sample, half before the later;
 *   - its role, from its frames (bt_frame_task): a worker that changed task
 *     or slept over TASK_IDLE_NS between plain samples went back to its
 *     wait for work (idle_gap), a pool worker's through its wait's stack
 *     (wait_stretch), a binder thread's through "(idle)";
 *   - duration records are exact, and so is a native method's entry
 *     (entered);
 *   - Looper message ids: a change means the loop waited in between
 *     (loop_gap, loop_wait).
 * A sample inside a recorded blocking wait (a timer sample of the blocked
 * thread, iOS) shows where the thread waited: its frames below the wait's
 * run from the wait's begin to its end, in every policy but btrace; in
 * all, the wait's blocked time goes to the frames innermost during it,
 * each for its share (wait_part), and waits that overlap block the thread
 * once, so no path's self blocked time exceeds its self time.
 * The wait's slices are idle slices (is_idle_slice): their off-CPU own time
 * is idle time, which no method's wall time includes (profile.h). The
 * residual bias: an unhooked wait over TASK_IDLE_NS inside a task splits
 * it and counts as idle; a short wait for work between two runs of the
 * same task stays in the worker's frames.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/profile/profile.h"
#include "engine/db/rtype.h"
#include "engine/recon/slice_int.h"

#define SINGLE_SAMPLING 10   /* ns, on the wall and the CPU clock alike */
#define JNI_ENTRY 10         /* kJNITrampoline: taken as a generic-JNI native method is entered */
/* Off-CPU time in one gap past which a sleeping worker is taken to have
 * finished its task: an unhooked wait inside a task (disk, network, a
 * lock without a record) is mostly milliseconds, a worker's wait for work
 * is unbounded (seconds between binder calls, pool tasks, messages). */
#define TASK_IDLE_NS 10000000

/* An open slice. The root (stack[0]) is never emitted. */
struct snode {
	struct bt_slice s;                   /* filled as far as known */
	int64_t begin_idx;
	int64_t child_dur, child_cpu;
	int64_t child_idle;                  /* the children's idle time (idle_in) */
	int64_t child_wait;                  /* the children's time blocked (run.blk) */
	int64_t child_ctr[BT_PROFILE_NCTR];  /* the children's counters, for self values */
	const struct bt_csample *base;       /* counters are deltas from this record */
	uint32_t path;                       /* in the sink's profile */
	unsigned char msg_root, in_msg;      /* a message's outermost slice, or inside one */
	unsigned char idle;                  /* an idle slice (is_idle_slice) */
};

/* The message being accumulated from consecutive message slices. */
struct msg {
	int64_t id, ts, end, cpu, block, idle, alloc;
};

struct run {
	const struct bt_stacktab *tab;
	enum bt_slice_policy policy;
	const struct bt_item *items;
	const struct bt_slice_sink *sink;
	struct snode stack[BT_SLICE_MAX_FRAMES + 2];
	size_t sp;
	int64_t next_id;
	struct msg msg;
	const struct bt_item *wait;          /* the idle policy: the thread's last sample in its
					      * wait for work (through getTask), or NULL */
	const struct bt_item *blk;           /* while the thread is in blocking records (between
					      * their begin and end items): the first's begin */
	uint32_t nblk;                       /* how many of them have begun and not ended */
	int rc;                              /* the sink's first error */
	struct bt_err *err;
};

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int is_loop(const struct bt_stacktab *t, int64_t frame)
{
	return frame >= 0 && (size_t)frame <= t->nframes && t->loop[frame];
}

/* A frame's task boundary (bt_frame_task), 0 when it has none. */
static int task_of(const struct bt_stacktab *t, uint32_t frame)
{
	return t->task && (size_t)frame <= t->nframes ? t->task[frame] : 0;
}

/*
 * An idle slice (the idle policy's): the thread waiting for work, which
 * is no method's time. A wait for work begins at the loop's wait for the
 * next message, a worker's wait for its next task, or the "(idle)" frame
 * that stands for a wait no sample shows; everything below it waits too,
 * except work run from inside the wait (BT_TASK_WORK), and what that calls.
 */
static int is_idle_slice(const struct bt_stacktab *t, uint32_t frame, int parent_idle)
{
	if (parent_idle)
		return task_of(t, frame) != BT_TASK_WORK;
	return frame == t->idle_frame || ((size_t)frame <= t->nframes && t->idle[frame]) ||
	       task_of(t, frame) == BT_TASK_WAIT;
}

/* Ids are given in preorder (a parent's is smaller than its children's),
 * while slices reach the sink as they end. */
static void push(struct run *r, uint32_t frame, uint32_t node, int64_t t, int64_t c, int64_t idx,
		 int64_t last_t, int64_t last_c, const struct bt_item *begin, const struct bt_item *base)
{
	struct snode *n = &r->stack[r->sp];
	struct bt_slice *s = &n->s;

	n->begin_idx = idx;          /* every field is set here or in pop() */
	n->child_dur = n->child_cpu = n->child_idle = n->child_wait = 0;
	n->idle = r->policy == BT_SLICE_IDLE && is_idle_slice(r->tab, frame, r->stack[r->sp - 1].idle);
	if (n->idle && r->tab->idle_seen)
		*r->tab->idle_seen = 1;
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
		n->msg_root = r->policy != BT_SLICE_BTRACE && r->sp > 1 && is_loop(r->tab, up->s.frame_id) &&
			      !is_loop(r->tab, frame) && !(frame <= r->tab->nframes && r->tab->idle[frame]);
		n->in_msg = n->msg_root || (r->sp > 1 && up->in_msg);
		n->path = bt_profile_enter(r->sink->profile, up->path, frame, node, n->in_msg, s->msg_id,
					   n->idle);
	}
	r->sp++;
}

/* A message slice: a child of a message-loop frame, other than the wait
 * for the next message (idle time belongs to the loop, DESIGN §5). */
static int is_message(const struct run *r, const struct bt_slice *s, const struct snode *parent)
{
	return s->parent_id && s->msg_id && !r->tab->idle[s->frame_id] &&
	       !r->tab->loop[s->frame_id] && r->tab->loop[parent->s.frame_id];
}

/* One message per run of consecutive message slices with the same id. */
static void end_message(struct run *r, int64_t tid)
{
	if (r->msg.id && !r->rc && r->sink->message) {
		const struct bt_message m = { tid, r->msg.id, r->msg.ts, r->msg.end - r->msg.ts, r->msg.cpu,
					      r->msg.block, r->msg.idle, r->msg.alloc };
		r->rc = r->sink->message(r->sink->ctx, &m, r->err);
	}
	r->msg.id = 0;
}

static void add_message(struct run *r, const struct bt_slice *s, int64_t idle)
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
static void wait_part(struct run *r, struct snode *n, struct snode *parent, int64_t t)
{
	int64_t from = n->s.ts > r->blk->ts ? n->s.ts : r->blk->ts, in = t > from ? t - from : 0;

	n->s.block_dur = bt_sat_add(n->s.block_dur, in);
	if (r->sink->profile)
		bt_profile_blocked(r->sink->profile, n->path, in - n->child_wait);
	n->child_wait = 0;
	if (parent)
		parent->child_wait = bt_sat_add(parent->child_wait, in);
}

/* Pop the top node, ending it at (t, c); counters run up to item end. */
static void pop(struct run *r, int64_t t, int64_t c, int64_t idx, const struct bt_item *end)
{
	struct snode *n = &r->stack[--r->sp], *parent = &r->stack[r->sp - 1];
	struct bt_slice *s = &n->s;
	const struct bt_csample *a = n->base, *b = end->src;
	int64_t idle;   /* the time in idle state inside the slice */

	s->dur = t - s->ts;
	s->cpu_dur = c - s->cpu_dur;
	s->self_dur = s->dur - n->child_dur;
	s->self_cpu_dur = s->cpu_dur - n->child_cpu;
	s->sample_count = idx - n->begin_idx;
	s->alloc_objects = b->alloc_objects - a->alloc_objects;
	s->alloc_bytes = b->alloc_bytes - a->alloc_bytes;
	s->majflt = (int64_t)b->majflt - a->majflt;
	s->nvcsw = (int64_t)b->nvcsw - a->nvcsw;
	s->nivcsw = (int64_t)b->nivcsw - a->nivcsw;
	parent->child_dur = bt_sat_add(parent->child_dur, s->dur);
	parent->child_cpu = bt_sat_add(parent->child_cpu, s->cpu_dur);
	idle = bt_sat_add(bt_slice_idle_part(s), n->child_idle);
	parent->child_idle = bt_sat_add(parent->child_idle, idle);
	if (r->blk)
		wait_part(r, n, parent, t);
	if (r->policy != BT_SLICE_BTRACE && is_message(r, s, parent))
		add_message(r, s, idle);
	if (r->sink->profile) {
		const int64_t ctr[BT_PROFILE_NCTR] = { s->alloc_bytes, s->alloc_objects, s->majflt, s->nvcsw,
						       s->nivcsw };
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
			const uint32_t *cf, const uint32_t *cn, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	size_t k = common(pf, np, cf, nc), j;

	for (j = k; j < np; j++)
		pop(r, min64(cur->ts, pre->ts + SINGLE_SAMPLING), min64(cur->cpu, pre->cpu + SINGLE_SAMPLING),
		    (int64_t)i, cur);
	for (j = k; j < nc; j++)
		push(r, cf[j], cn[j], cur->ts, cur->cpu, (int64_t)i, pre->ts, pre->cpu, cur, cur);
	/* upstream tests only the sizes here (its comment means "same stack"): Q-5 */
	if (np == nc && pre->dup && r->sp > 1) {
		uint32_t frame = (uint32_t)r->stack[r->sp - 1].s.frame_id;
		pop(r, cur->ts, cur->cpu, (int64_t)i - 1, cur);
		push(r, frame, 0, cur->ts, cur->cpu, (int64_t)i, cur->ts, cur->cpu, cur, cur);
	}
}

/* Keep the common prefix only down to the deepest message-loop frame. */
static size_t loop_cut(const struct bt_stacktab *t, const uint32_t *f, size_t k)
{
	size_t j;

	for (j = k; j > 0; j--)
		if (is_loop(t, f[j - 1]))
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
static int loop_gap(const struct run *r, const struct bt_item *pre, const struct bt_item *cur,
		    const uint32_t *pf, size_t np, const uint32_t *cf, size_t nc, size_t k,
		    int64_t *et, int64_t *ec, int64_t *st, int64_t *sc)
{
	int busy_pre, busy_cur;
	int64_t gap = cur->ts - pre->ts, d = cur->cpu - pre->cpu;

	if (k == 0 || !is_loop(r->tab, pf[k - 1]))
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

/* Where a worker's task begins on stack f: below its deepest runWorker,
 * or at a binder call's root; n when the stack has no boundary. */
static size_t task_cut(const struct bt_stacktab *t, const uint32_t *f, size_t n)
{
	size_t j;

	for (j = n; j > 0; j--)
		if (task_of(t, f[j - 1]) == BT_TASK_BELOW)
			return j;
	for (j = 0; j < n; j++)
		if (task_of(t, f[j]) == BT_TASK_ROOT)
			return j;
	return n;
}

/*
 * The idle policy's gap, where the thread slept in it (its voluntary
 * context switches rose) and the message loop did not decide (loop_gap):
 * the CPU it used is the only time it surely ran, so frames that end ran
 * on for half of it after the earlier sample and frames that begin ran
 * for half of it before the later one; the rest of the gap stays with the
 * frames both samples share, unless the worker went back for more work
 * in it: then that rest is idle (*between set; *to_wait too when it was a
 * pool worker's, whose wait_stretch follows). A worker went back when
 * its task changed (the stacks part at or above where the earlier one's
 * task began: a worker runs one task at a time and fetches the next one
 * from its wait), or when it slept longer than TASK_IDLE_NS between two
 * plain samples (duration records are exact about their sleep), even
 * with the same stack: the task ends there and begins again. Returns the
 * frames kept.
 * The residual bias: a long unhooked wait inside a task splits it, and a
 * task that slept just before its end gives that sleep to the wait.
 */
static size_t idle_gap(const struct run *r, const struct bt_item *pre, const struct bt_item *cur,
		       const uint32_t *pf, size_t np, size_t nc, size_t k, int64_t *et, int64_t *ec,
		       int64_t *st, int64_t *sc, int *to_wait, int *between)
{
	int64_t gap = cur->ts - pre->ts, d = cur->cpu - pre->cpu;
	size_t cut;

	*to_wait = *between = 0;
	if (cur->src->nvcsw <= pre->src->nvcsw)
		return k;   /* no sleep: off the CPU only by preemption, still in its frames */
	d = d < 0 ? 0 : d > gap ? gap : d;
	cut = task_cut(r->tab, pf, np);
	if (cut < np && (k <= cut || (!pre->dup && !cur->exact && gap - d > TASK_IDLE_NS))) {
		*between = 1;
		*to_wait = cut <= k && cut > 0 && task_of(r->tab, pf[cut - 1]) == BT_TASK_BELOW;
		k = cut < k ? cut : k;
	}
	if (k < np || k < nc) {
		*et = pre->ts + d / 2, *ec = pre->cpu + d / 2;
		*st = cur->ts - d / 2, *sc = cur->cpu - d / 2;
	}
	return k;
}

/*
 * The idle policy's gap where frames end, others begin and the thread did
 * not sleep (idle_gap left it as midpoint has it): the ended frames
 * returned before the begun ones were called, and the frames both samples
 * share ran in between (the return, their own code, the call). The gap
 * holds those three stretches in a row, and nothing in the records tells
 * their lengths apart: as the middle of a gap is the best guess for one
 * boundary in it, its thirds are for two (the expected places of two
 * ordered points in it). So the ended frames run on for the first third
 * of its wall and CPU time and the begun ones for the last; midpoint
 * gives them the shared frames' third too, and with it every deep frame
 * more than it ran (most of the main thread's CPU error, issue 18). The
 * residual bias: calls that began and ended between two samples are in
 * no slice either way; where capture points are dense, midpoint's larger
 * share had made up for them on average, and a method's total can now
 * come out a little short there.
 */
static void thirds(const struct bt_item *pre, const struct bt_item *cur, int64_t *et, int64_t *ec,
		   int64_t *st, int64_t *sc)
{
	int64_t gap = cur->ts - pre->ts, d = cur->cpu - pre->cpu;

	*et = pre->ts + gap / 3, *ec = pre->cpu + d / 3;
	*st = cur->ts - gap / 3, *sc = cur->cpu - d / 3;
}

/* Frames f (nodes, or none) open through the gap before item i, from
 * (et, ec) to (st, sc), with no counters; begin gives their record fields. */
static void stretch(struct run *r, size_t i, const uint32_t *f, const uint32_t *nodes, size_t n,
		    const struct bt_item *begin, int64_t et, int64_t ec, int64_t st, int64_t sc)
{
	const struct bt_item *pre = &r->items[i - 1];
	size_t m;

	for (m = 0; m < n; m++)
		push(r, f[m], nodes ? nodes[m] : 0, et, ec, (int64_t)i, pre->ts, pre->cpu, begin, pre);
	while (n--)
		pop(r, st, sc, (int64_t)i, pre);
}

/*
 * A pool worker's sleep between two tasks (idle_gap) is spent in its wait
 * for work: the stack of its last sample there (getTask down to the park,
 * as a rate-limited record of an earlier wait showed it) runs from et to
 * st, with no counters. The park that began this sleep was usually not
 * recorded (the 1 ms limiter drops it), but the stack is the same each
 * time. Returns 0, adding nothing, when the thread has not been seen
 * waiting.
 */
static int wait_stretch(struct run *r, size_t i, const uint32_t *pf, size_t k, int64_t et, int64_t ec,
			int64_t st, int64_t sc)
{
	uint32_t wf[BT_SLICE_MAX_FRAMES], wn[BT_SLICE_MAX_FRAMES];
	size_t nw;

	if (!r->wait)
		return 0;
	nw = bt_item_frames(r->tab, r->wait, NULL, NULL, 0, wf, wn);
	if (nw <= k || common(pf, k, wf, nw) < k)   /* not under the same runWorker */
		return 0;
	stretch(r, i, wf + k, wn + k, nw - k, r->wait, et, ec, st, sc);
	return 1;
}

/* An idle time no sample shows a frame of: the "(idle)" frame. */
static void idle_stretch(struct run *r, size_t i, int64_t et, int64_t ec, int64_t st, int64_t sc)
{
	stretch(r, i, &r->tab->idle_frame, NULL, 1, &r->items[i - 1], et, ec, st, sc);
}

/*
 * The idle policy's loop gap between two messages that both ran in it
 * (loop_gap's idle rest, from et to st): the loop waited in
 * MessageQueue.next and slept in nativePollOnce, which no sample shows
 * (a HandlerThread's poll leaves no record; the main thread's timer
 * catches few), so those frames run through it, where the trace knows
 * them, with no counters (else the "(idle)" frame does).
 */
static void loop_wait(struct run *r, size_t i, int64_t et, int64_t ec, int64_t st, int64_t sc)
{
	const uint32_t f[2] = { r->tab->next, r->tab->poll };

	if (f[0])
		stretch(r, i, f, NULL, f[1] ? 2 : 1, &r->items[i - 1], et, ec, st, sc);
	else
		idle_stretch(r, i, et, ec, st, sc);
}

/*
 * Whether the leaf of item it was entered exactly at its time: a duration
 * record's begin, and in the idle policy a kJNITrampoline sample, which
 * the writer takes when a native method is entered (format spec §4.3),
 * so that method, its leaf, began then, not halfway through the gap.
 */
static int entered(const struct run *r, const struct bt_item *it)
{
	return it->exact || (r->policy == BT_SLICE_IDLE && it->type == JNI_ENTRY && !it->dup && !it->synth);
}

/* Whether item it is the end of a blocking record (its end item has the
 * record's type: slice.c add_dup). */
static int is_wait_end(const struct bt_item *it)
{
	return it->dup && bt_rtype_is_blocking(it->type);
}

/* Whether item it ends the thread's blocked time: the end of the last
 * blocking record it is in (r->blk). */
static int ends_wait(const struct run *r, const struct bt_item *it)
{
	return r->blk && r->nblk == 1 && is_wait_end(it);
}

/* Whether frames f hold a worker's wait for work. */
static int in_wait(const struct bt_stacktab *t, const uint32_t *f, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (task_of(t, f[j]) == BT_TASK_WAIT)
			return 1;
	return 0;
}

/*
 * A midpoint step: frames change halfway through the gap, except the leaf
 * of a duration record's end (it returned exactly then), of a duration
 * record's begin or, in the idle policy, a native method's entry (it was
 * entered exactly then: entered), and at the message loop (loop_gap). Counter changes belong to the later sample's stack (DESIGN
 * §5), so a slice's counters run from the item before its first to its last.
 */
static void step_midpoint(struct run *r, size_t i, const uint32_t *pf, size_t np,
			  const uint32_t *cf, const uint32_t *cn, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	int64_t mt = pre->ts + (cur->ts - pre->ts) / 2, mc = pre->cpu + (cur->cpu - pre->cpu) / 2;
	int64_t et = mt, ec = mc, st = mt, sc = mc;   /* when popped frames end, pushed ones start */
	size_t k = common(pf, np, cf, nc), j;
	int to_wait = 0, between = 0, looped, into, out;

	if (pre->msg_id != cur->msg_id)
		k = loop_cut(r->tab, pf, k);
	if (!(looped = loop_gap(r, pre, cur, pf, np, cf, nc, k, &et, &ec, &st, &sc)) && r->policy == BT_SLICE_IDLE)
		k = idle_gap(r, pre, cur, pf, np, nc, k, &et, &ec, &st, &sc, &to_wait, &between);
	if (k == np && np == nc && np && pre->dup)
		k = np - 1;   /* two calls with the same stack stay two slices */
	/* two boundaries to place: with only an exact end (a duration record's)
	 * or an exact begin (entered) on one side, the middle stands for the other */
	if (r->policy == BT_SLICE_IDLE && !looped && cur->src->nvcsw <= pre->src->nvcsw &&
	    np - k > (size_t)(pre->dup != 0) && nc - k > (size_t)entered(r, cur))
		thirds(pre, cur, &et, &ec, &st, &sc);
	/* a sample inside a recorded wait that shows the wait's stack and
	 * frames below it (a timer sample of the blocked thread, iOS) was in
	 * those frames from the wait's begin, and stayed there to its end */
	into = pre == r->blk && !ends_wait(r, cur) && k == np;
	out = ends_wait(r, cur) && pre != r->blk && k == nc;
	if (into)
		st = pre->ts, sc = pre->cpu;
	if (out)
		et = cur->ts, ec = cur->cpu;
	for (j = np; j > k; j--) {
		int exact = pre->dup && j == np && !out;
		pop(r, exact ? pre->ts : et, exact ? pre->cpu : ec, (int64_t)i, pre);
	}
	if (between && st > et && !(to_wait && wait_stretch(r, i, pf, k, et, ec, st, sc)))
		idle_stretch(r, i, et, ec, st, sc);
	if (looped && st > et && r->policy == BT_SLICE_IDLE)
		loop_wait(r, i, et, ec, st, sc);
	for (j = k; j < nc; j++) {
		int exact = j == nc - 1 && entered(r, cur) && !into;
		push(r, cf[j], cn[j], exact ? cur->ts : st, exact ? cur->cpu : sc, (int64_t)i, pre->ts,
		     pre->cpu, cur, pre);
	}
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
static void end_wait(struct run *r, const struct bt_item *end)
{
	size_t j;

	if (r->sink->profile)
		bt_profile_block_record(r->sink->profile, r->stack[r->sp - 1].path, end->type, end->block);
	if (--r->nblk)
		return;
	for (j = r->sp; j-- > 0;)
		wait_part(r, &r->stack[j], j ? &r->stack[j - 1] : NULL, end->ts);
	r->blk = NULL;
}

int bt_slice_run_thread(const struct bt_stacktab *t, const struct bt_item *items, size_t n,
			enum bt_slice_policy policy, const struct bt_slice_sink *sink, int64_t *next_id,
			struct bt_err *err)
{
	struct run *r = bt_xcalloc(1, sizeof *r);
	uint32_t fa[BT_SLICE_MAX_FRAMES], fb[BT_SLICE_MAX_FRAMES], *pf = fa, *cf = fb, *tmp;
	uint32_t na[BT_SLICE_MAX_FRAMES], nb[BT_SLICE_MAX_FRAMES], *pn = na, *cn = nb;
	size_t np = 0, nc, i, j;
	int64_t tail;
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
	for (i = 0; i < n && !r->rc; i++) {
		if (i > 0 && items[i].node == items[i - 1].node && items[i].synth == items[i - 1].synth) {
			memcpy(cf, pf, np * sizeof *cf);   /* a duration record's end: same stack */
			memcpy(cn, pn, np * sizeof *cn);
			nc = np;
		} else {
			nc = bt_item_frames(t, &items[i], pf, pn, i ? np : 0, cf, cn);
		}
		if (i == 0)
			for (j = 0; j < nc; j++)
				push(r, cf[j], cn[j], items[0].ts, items[0].cpu, 0, items[0].ts, items[0].cpu,
				     &items[0], &items[0]);
		else if (policy == BT_SLICE_BTRACE)
			step_btrace(r, i, pf, np, cf, cn, nc);
		else
			step_midpoint(r, i, pf, np, cf, cn, nc);
		if (policy == BT_SLICE_IDLE && !items[i].dup && in_wait(t, cf, nc))
			r->wait = &items[i];
		if (r->blk && is_wait_end(&items[i])) {
			end_wait(r, &items[i]);
		} else {
			if (items[i].block && sink->profile)
				bt_profile_block(sink->profile, r->stack[r->sp - 1].path, items[i].type, items[i].block);
			if (items[i].block && bt_rtype_is_blocking(items[i].type))
				for (j = 1; j < r->sp; j++)
					r->stack[j].s.block_dur = bt_sat_add(r->stack[j].s.block_dur, items[i].block);
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
	tail = policy == BT_SLICE_BTRACE ? SINGLE_SAMPLING : 0;
	while (r->sp > 1 && !r->rc)
		pop(r, items[n - 1].ts + tail, items[n - 1].cpu + tail, (int64_t)n, &items[n - 1]);
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
