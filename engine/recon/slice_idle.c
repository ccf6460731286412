/*
 * The idle policy's step (docs/slices.md, "The idle model"): where, in the gap
 * between two samples of a thread, its frames ended and began, and whether
 * the thread waited for work there, read from what the records physically
 * mean.
 *
 * The writer samples a thread when it passes a capture point, at most once
 * per throttle interval (format spec §4.4; a record's time is its end).
 * Running Java code passes capture points all the time (every allocation
 * is one), so after a sample it runs on unsampled for at most about one
 * interval, and Java code that resumes after a stretch no hook sees (native
 * code, a sleep) is sampled about one first capture later. Both figures
 * are measured in the trace itself (bt_gap_calibrate). A gap therefore
 * holds, in order: a head of at most one interval, in which frames that
 * ended returned; when it is longer, a stretch no hook saw; and a tail of
 * about one first capture before the later sample.
 *
 *   - The voluntary context switches say whether the thread slept in the
 *     gap (a duration record's own sleep left out: its counters are taken
 *     at its end), the CPU delta how long it ran.
 *   - No sleep, no unseen stretch: one boundary, somewhere in the gap: its
 *     middle (for two boundaries too: they are mostly a return and the
 *     next call, back to back).
 *   - An unseen stretch: the frames that ended did so in the head, unless
 *     the earlier sample is a native method's entry (kJNITrampoline), which
 *     then ran through it, or they hold a method the trace shows entering
 *     a native one (a kJNITrampoline record's caller: its entry was
 *     throttled this time) and the frames that began none: then they ran
 *     through it, at a message's end too. The frames that began did so before a stretch
 *     longer than an interval (the first capture after a native returns is
 *     in its Java caller, which the later sample shows), at the middle of
 *     the gap when the excess is shorter (the capture's own jitter).
 *   - A sleep is the thread's wait for work (idle) when its role says so:
 *     the Looper went back to its poll (a new message id, or a sample in
 *     the poll), or a worker's task changed (the stacks part at or above
 *     where its task begins: runWorker, a binder call's execTransact), or it
 *     slept longer than TASK_IDLE_NS with the same task frames. The work
 *     that ended ran until the thread went to sleep (the gap's CPU before
 *     it), the work that began from when it woke, one first capture before
 *     the later sample; the wait runs through the wait's frames.
 *   - Duration records are exact, and so is a native method's entry.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/rtype.h"
#include "engine/recon/slice_int.h"

#define JNI_ENTRY 10   /* kJNITrampoline: taken as a generic-JNI native method is entered */
/* Off-CPU time in one gap past which a sleeping worker with the same task
 * frames on both sides is taken to have finished its task: an unhooked
 * wait inside a task (disk, network, a lock without a record) is mostly
 * milliseconds, a worker's wait for work is unbounded (seconds between
 * binder calls, pool tasks, messages). */
#define TASK_IDLE_NS 10000000
/* Up to this many of a thread's in-message sleeps are kept for their median. */
#define SLEEP_SAMPLES 255

/* A point of the gap: wall and CPU time. */
struct pt {
	int64_t t, c;
};

/* What the records say about the gap before cur. */
struct gap {
	const struct bt_item *pre, *cur;
	int64_t g, d;        /* wall and CPU time, 0 <= d <= g */
	int64_t sleeps;      /* voluntary context switches in it */
	int64_t head;        /* how long Java code can have run on after pre: min(g, interval) */
	int64_t tail;        /* ... before cur, after a stretch no hook saw */
	int unseen;          /* longer than head and tail: a stretch no hook saw */
	int throttled;       /* the throttle, not the thread's waking, timed cur */
};

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Voluntary switches between pre and cur. cur's counters are its record's,
 * taken at the record's end: for a duration record's begin they include
 * the record's own sleep, which is not the gap's. A record that spent time
 * off the CPU slept (one switch at least); when the count rose by one only,
 * it goes to the longer of the two off-CPU stretches.
 */
static int64_t gap_sleeps(const struct bt_stacktab *t, const struct gap *gp)
{
	const struct bt_item *pre = gp->pre, *cur = gp->cur;
	int64_t v = (int64_t)cur->src->nvcsw - (int64_t)pre->src->nvcsw;

	if (cur->exact && v > 0) {
		const struct bt_csample *s = cur->src;
		const int64_t *end = bt_cends_of(t->ends, (size_t)(s - t->records));   /* an exact item's record has one */
		int64_t rec_off = (end[0] - s->ts) - (end[1] - s->cpu);
		if (rec_off > 0 && !(v == 1 && gp->g - gp->d > rec_off))
			v--;
	}
	return v < 0 ? 0 : v;
}

/* The gap before cur. A sample later than an interval and a few first
 * captures after pre was timed by the thread's own code (its first capture
 * once the throttle was open); an earlier one, by the throttle. Where the
 * trace's running code does not reach capture points soon after the
 * throttle opens (allocation tracking off, code that seldom allocates), a
 * gap's length says nothing of what ran in it: no unseen stretch, and a
 * sleep's CPU is split in half. */
static void gap_read(const struct bt_slice_run *r, const struct bt_item *pre, const struct bt_item *cur,
		     struct gap *gp)
{
	const struct bt_stacktab *t = r->tab;

	gp->pre = pre;
	gp->cur = cur;
	gp->g = cur->ts - pre->ts;
	gp->d = clamp64(cur->cpu - pre->cpu, 0, gp->g);
	gp->sleeps = gap_sleeps(t, gp);
	gp->head = t->interval ? min64(gp->g, t->interval) : gp->g;
	gp->tail = min64(t->first_capture, gp->g - gp->head);
	gp->unseen = t->dense && gp->g > gp->head + gp->tail;
	gp->throttled = !t->dense || gp->g <= t->interval + 3 * t->first_capture;
}

/* The middle of the gap, wall and CPU. */
static struct pt mid(const struct gap *gp)
{
	return (struct pt){ gp->pre->ts + gp->g / 2, gp->pre->cpu + gp->d / 2 };
}

/* Where frames that returned without leaving a sample ended: the middle
 * of the head (of the gap, when it is all head). */
static struct pt early(const struct gap *gp)
{
	int64_t ran = min64(gp->d - min64(gp->d, gp->tail), gp->head);   /* the head's CPU, at most */

	if (!gp->unseen)
		return mid(gp);
	return (struct pt){ gp->pre->ts + gp->head / 2, gp->pre->cpu + ran / 2 };
}

/* Where frames called after a stretch no hook saw began: the tail. */
static struct pt late(const struct gap *gp)
{
	int64_t e = min64(gp->tail, gp->g);

	return (struct pt){ gp->cur->ts - e, gp->cur->cpu - min64(gp->d, e) };
}

/* Where a thread that slept in the gap went to sleep: after the CPU time
 * the gap used, less what ran after it woke (its tail). Where the throttle
 * timed cur, what ran after waking is as unknown as what ran before: half. */
static struct pt asleep(const struct gap *gp)
{
	int64_t before = gp->throttled ? gp->d / 2 : gp->d - min64(gp->d, gp->tail);

	return (struct pt){ gp->pre->ts + before, gp->pre->cpu + before };
}

/* Where it woke: the frames that began did so then. */
static struct pt awake(const struct gap *gp)
{
	if (gp->throttled)
		return (struct pt){ gp->cur->ts - gp->d / 2, gp->cur->cpu - gp->d / 2 };
	return late(gp);
}

/* Whether item it's leaf was entered exactly at its time: a duration
 * record's begin, or a kJNITrampoline sample, which the writer takes as a
 * native method is entered (format spec §4.3). */
static int entered(const struct bt_item *it)
{
	return it->exact || (it->type == JNI_ENTRY && !it->dup);   /* a type with no synthetic leaf */
}

/* Whether frames f hold a worker's wait for work. */
static int in_wait(const struct bt_stacktab *t, const uint32_t *f, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (bt_slice_task_of(t, f[j]) == BT_TASK_WAIT)
			return 1;
	return 0;
}

void bt_slice_note_wait(struct bt_slice_run *r, size_t i, const uint32_t *cf, size_t nc)
{
	if (!r->items[i].dup && r->tab->has_wait && in_wait(r->tab, cf, nc))
		r->wait = &r->items[i];
}

/* Whether frames f[k..n) hold a method the trace shows entering a native
 * one (bt_gap_calibrate). */
static int calls_native(const struct bt_stacktab *t, const uint32_t *f, size_t k, size_t n)
{
	for (; k < n; k++)
		if (t->native && f[k] <= t->nframes && t->native[f[k]])
			return 1;
	return 0;
}

/* Whether a stretch no hook saw in the gap ran in the frames that ended
 * there (the earlier sample's own), not in those that began: the earlier
 * sample entered a native method, or its ended frames hold a method the
 * trace shows entering a native one and the begun ones none. */
static int unseen_is_pre(const struct bt_stacktab *t, const struct gap *gp, const uint32_t *pf, size_t np,
			 const uint32_t *cf, size_t nc, size_t k)
{
	if (!gp->unseen)
		return 0;
	if (gp->pre->type == JNI_ENTRY && !gp->pre->dup)
		return 1;
	return calls_native(t, pf, k, np) && !calls_native(t, cf, k, nc);
}

/* Whether it ran in the deepest frame both samples share, between the
 * ended frames and the begun ones: the trace shows that frame entering a
 * native method, and neither the ended nor the begun frames. */
static int unseen_is_shared(const struct bt_stacktab *t, const struct gap *gp, const uint32_t *pf, size_t np,
			    const uint32_t *cf, size_t nc, size_t k)
{
	return gp->unseen && k > 0 && calls_native(t, pf, k - 1, k) && !calls_native(t, pf, k, np) &&
	       !calls_native(t, cf, k, nc);
}

/* Where a worker's task begins on stack f: below its deepest runWorker,
 * or at a binder call's root; n when the stack has no boundary. */
static size_t task_cut(const struct bt_stacktab *t, const uint32_t *f, size_t n)
{
	size_t j;

	for (j = n; j > 0; j--)
		if (bt_slice_task_of(t, f[j - 1]) == BT_TASK_BELOW)
			return j;
	for (j = 0; j < n; j++)
		if (bt_slice_task_of(t, f[j]) == BT_TASK_ROOT)
			return j;
	return n;
}

/* Where a Looper thread is, below the loop frame at depth k of stack f:
 * at the loop itself, in its wait for the next message (MessageQueue.next),
 * in work the poll called back (input events, vsync), or in a message. */
enum { AT_LOOP, AT_WAIT, AT_CALLBACK, AT_WORK };
static int loop_place(const struct bt_stacktab *t, const uint32_t *f, size_t n, size_t k)
{
	size_t j;

	if (k >= n)
		return AT_LOOP;
	if ((size_t)f[k] > t->nframes || !t->idle[f[k]])
		return AT_WORK;
	for (j = k + 1; j < n; j++)
		if ((t->poll && f[j - 1] == t->poll) || bt_slice_task_of(t, f[j]) == BT_TASK_WORK)
			return AT_CALLBACK;
	return AT_WAIT;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* A bounded sample of values, for a median: every step-th value offered is
 * kept, and when full every other one is dropped and the step doubles. */
struct keep {
	int64_t v[SLEEP_SAMPLES];
	size_t m, seen, step;
};

static void keep_add(struct keep *k, int64_t x)
{
	size_t j;

	if (k->seen++ % k->step)
		return;
	if (k->m == SLEEP_SAMPLES) {
		for (j = 0; j < SLEEP_SAMPLES / 2; j++)
			k->v[j] = k->v[2 * j + 1];
		k->m = SLEEP_SAMPLES / 2;
		k->step *= 2;
	}
	k->v[k->m++] = x;
}

/*
 * What a thread's gaps that hold exactly one sleep (no record's bound in
 * them) say of its Looper, if it has one:
 *   - how long one unhooked sleep inside its work lasts (a RenderThread
 *     sync, disk, a lock without a record): their median off-CPU time where
 *     the same message is on both sides. A message that ends and slept more
 *     times than the loop's polls could did so before its end, about this
 *     long each (loop_plan);
 *   - whether its MessageQueue.next() polls once without a timeout before it
 *     sleeps, as AOSP's does: the message id then steps by two or more
 *     across a sleep between two messages, not by one. Read where the
 *     sleep is longer than TASK_IDLE_NS if the thread has such sleeps: a
 *     wait for work, not a message's own sleep (a frame's RenderThread
 *     sync followed by the next frame steps by one).
 */
/* Whether a sample was taken in the loop's wait itself (its leaf is
 * MessageQueue.next or nativePollOnce: a poll's own record). */
static int in_poll(const struct bt_stacktab *t, const struct bt_item *it)
{
	uint32_t f = it->node && it->node <= t->nnodes ? t->frame[it->node] : 0;

	return f && (f == t->poll || f == t->next);
}

static int64_t keep_median(struct keep *k)
{
	if (!k->m)
		return -1;
	qsort(k->v, k->m, sizeof *k->v, cmp64);
	return k->v[k->m / 2];
}

void bt_slice_idle_begin(struct bt_slice_run *r, size_t n)
{
	struct keep *k = bt_xcalloc(3, sizeof *k), *step = k + 1, *step_long = k + 2;
	int64_t med;
	size_t i;

	k->step = step->step = step_long->step = 1;
	for (i = 1; i < n; i++) {
		const struct bt_item *a = &r->items[i - 1], *b = &r->items[i];
		int64_t g = b->ts - a->ts, d = clamp64(b->cpu - a->cpu, 0, g);
		if (a->exact || b->exact || b->dup || !a->msg_id || (int64_t)b->src->nvcsw - a->src->nvcsw != 1)
			continue;
		if (a->msg_id == b->msg_id)
			keep_add(k, g - d);
		else if (b->msg_id > a->msg_id && !in_poll(r->tab, a) && !in_poll(r->tab, b))
			keep_add(g - d > TASK_IDLE_NS ? step_long : step, (int64_t)b->msg_id - a->msg_id);
	}
	r->work_sleep = (med = keep_median(k)) < 0 ? 0 : med;
	r->zero_poll = (step_long->m ? keep_median(step_long) : keep_median(step)) >= 2;
	free(k);
}

/* The plan for one gap: where the ended frames end (those above depth up
 * at end_up, those from up to sync at end_sync), where the begun ones
 * begin, how many frames stay, and what waited in between, from when to
 * when. */
enum { WAIT_NONE, WAIT_LOOP, WAIT_TASK };
struct plan {
	struct pt end, end_sync, end_up, begin;
	size_t up, sync, k;
	size_t draw;         /* one past a draw that waited for the RenderThread in the gap, or 0 */
	struct pt slept;     /* ... from when */
	uint32_t native;     /* a native method no sample shows that ran in the gap, or 0: */
	size_t native_under; /* ... under pf[native_under - 1] */
	struct pt native_from;   /* ... from then until that frame's end or the begun ones' begin */
	int wait;
	struct pt from, to;
	int to_wait;         /* a pool worker's wait: through its wait's stack, when known */
	int64_t unseen_msg;  /* a message no sample shows ran from unseen_at to from, or 0 */
	struct pt unseen_at;
};

/* The native method frame f (pf[under - 1]) ran in a stretch no hook saw,
 * from `from`: the one the trace shows f calling, unless it calls several
 * or the begun frames (cf[k..nc)) start with it. */
static void unseen_native(const struct bt_stacktab *t, uint32_t f, const uint32_t *cf, size_t nc, size_t under,
			  struct pt from, struct plan *p)
{
	uint32_t c = f <= t->nframes ? t->native[f] : 0;

	if (c == BT_NATIVE_MANY || (nc > under && cf[under] == c))
		return;
	p->native = c;
	p->native_under = under;
	p->native_from = from;
}

/* The ended frames ran through a stretch no hook saw (unseen_is_pre):
 * where the earlier sample is not the native's own entry, the native its
 * leaf calls ran it, from the head's middle. */
static void pre_native(const struct bt_stacktab *t, const struct gap *gp, const uint32_t *pf, size_t np,
		       struct plan *p)
{
	if (!entered(gp->pre))
		unseen_native(t, pf[np - 1], NULL, 0, np, early(gp), p);
}

/* One past the deepest of frames f[k..n) whose last call sleeps until
 * another thread is done with it (BT_TASK_SYNC), or 0. */
static size_t sync_depth(const struct bt_stacktab *t, const uint32_t *f, size_t k, size_t n)
{
	size_t j;

	for (j = n; j > k; j--)
		if (bt_slice_task_of(t, f[j - 1]) == BT_TASK_SYNC)
			return j;
	return 0;
}

/*
 * A message that ended after its draw's wait for the RenderThread (frames
 * up to sync), every sleep of the gap its own. The draw's Java code before
 * the wait would have been sampled had it run longer than a head: the
 * thread went to sleep at most a head's CPU after pre, the frames the draw
 * called having returned, and woke the gap's off-CPU time later, when the
 * draw returned. What ran after, unseen (native code), stays with the
 * message's older frames (p->up, until p->end_up).
 */
static void sync_plan(const struct gap *gp, size_t sync, struct plan *p)
{
	int64_t ran = min64(gp->head, gp->d - min64(gp->d, gp->tail));
	struct pt slept = { gp->pre->ts + ran, gp->pre->cpu + ran };

	p->end = slept;
	p->end_sync = (struct pt){ slept.t + (gp->g - gp->d), slept.c };
	if (p->up > sync)
		p->up = sync;
	p->sync = sync;
}

/*
 * A gap at the message loop (k frames in common, the last the loop frame)
 * where the loop went back to its poll: the message id changed, or one side
 * is in the poll (its wait, or work it called back). Each entry into the
 * poll bumps the id and sleeps at most once, and the first poll of a
 * MessageQueue.next() after a message has no timeout (it cannot sleep). If
 * the thread slept, the message that ended ran until it slept, and on for
 * each sleep more than the polls could take (its own: a RenderThread sync,
 * I/O), which its shallower half of frames holds (the deeper ones returned
 * first); the work that began did so when it woke. A callback the poll
 * made began when the thread woke and sampled it at once: the message it
 * posted follows it closely. Without a sleep one piece of work followed
 * the other: one boundary. Returns 0 when this does not apply.
 */
static int loop_plan(const struct bt_slice_run *r, const struct gap *gp, const uint32_t *pf, size_t np,
		     const uint32_t *cf, size_t nc, struct plan *p)
{
	const struct bt_item *pre = gp->pre, *cur = gp->cur;
	int64_t polls = (int64_t)cur->msg_id - (int64_t)pre->msg_id, own;
	int at_pre, at_cur, ended;
	size_t k = p->k, sync;

	if (k == 0 || !bt_slice_is_loop(r->tab, pf[k - 1]))
		return 0;
	at_pre = loop_place(r->tab, pf, np, k);
	at_cur = loop_place(r->tab, cf, nc, k);
	if (at_pre == AT_WAIT && at_cur == AT_WAIT)
		return 0;
	if (!polls && (at_pre == at_cur || at_pre == AT_LOOP))
		return 0;   /* the same message, or the same callback */
	if (polls < 0)
		polls = 0;
	/* the frames pre shared with the sample before it have lasted a gap at
	 * least: those are still open when the work sleeps before its end;
	 * the ones pre was first to show are young and returned first (else
	 * the shallower half) */
	p->up = r->pre_k > k && r->pre_k < np ? r->pre_k : k + (np - k + 1) / 2;
	sync = gp->sleeps ? sync_depth(r->tab, pf, k, np) : 0;
	if (at_cur == AT_WAIT && polls <= 1) {   /* into the poll at cur */
		p->begin = p->end_up = late(gp);
		p->end = early(gp);
		if (!r->tab->dense)   /* its tail says nothing: the work ran for the gap's CPU */
			p->begin = p->end_up = p->end = (struct pt){ pre->ts + gp->d, pre->cpu + gp->d };
		else if (sync) {      /* the sleep was the draw's wait; what followed it, unseen, ran to cur */
			sync_plan(gp, sync, p);
			p->draw = sync;
			p->slept = p->end;
		} else if (unseen_is_pre(r->tab, gp, pf, np, cf, nc, k)) {   /* it ran through it */
			p->end = p->begin;
			pre_native(r->tab, gp, pf, np, p);
		}
		return 1;
	}
	if (!gp->sleeps) {
		p->end = p->end_up = p->begin = early(gp);
		if (unseen_is_pre(r->tab, gp, pf, np, cf, nc, k)) {   /* the message that ended ran through it */
			p->end = p->end_up = p->begin = late(gp);
			pre_native(r->tab, gp, pf, np, p);
		}
		else if (at_pre == AT_CALLBACK && r->tab->dense) {
			int64_t e = min64(gp->tail, gp->g);
			p->end = p->end_up = p->begin = (struct pt){ pre->ts + e, pre->cpu + min64(gp->d, e) };
		}
		return 1;
	}
	p->begin = p->to = awake(gp);
	p->from = asleep(gp);
	ended = at_pre == AT_WORK || at_pre == AT_LOOP;
	own = gp->sleeps - (polls - (ended && polls > 0 && r->zero_poll));
	if (ended && own >= gp->sleeps) {
		/* the polls could not sleep (the first of a next() has no
		 * timeout): every sleep was the message's own (a RenderThread
		 * sync whose frame ran past the vsync the next one was for),
		 * held by its older frames (the young deep ones returned
		 * before it slept), and the next began as the thread woke */
		p->end = p->from;
		p->end_up = p->begin;
		if (sync)
			sync_plan(gp, sync, p);
		p->draw = sync;
		p->slept = p->end;
		return 1;
	}
	if (sync)
		p->up = p->draw = sync;   /* the sleep was the draw's wait, the frames it calls returned */
	if (at_pre != AT_WAIT && own > 0 && r->tab->dense)   /* sparse: the later work's too */
		p->from.t += min64(own * r->work_sleep, p->to.t - p->from.t);
	if (at_pre == AT_WAIT) {   /* asleep in its poll at pre: the gap's CPU ran after it woke */
		p->end = p->end_up = p->begin = (struct pt){ cur->ts - gp->d, cur->cpu - gp->d };
		return 1;
	}
	p->end = asleep(gp);
	p->end_up = p->from;
	if (at_pre == AT_CALLBACK && polls > 0) {
		/* the poll returned and its message ran, unsampled, until the sleep */
		p->end = p->end_up = early(gp);
		if (p->from.t > p->end.t) {
			p->unseen_msg = pre->msg_id;
			p->unseen_at = p->end;
		}
	}
	p->slept = p->end;
	p->wait = WAIT_LOOP;
	return 1;
}

/* The index of thread tid's first span (spans are sorted by tid, lo). */
static size_t first_span(const struct bt_stacktab *t, int64_t tid)
{
	size_t i = 0, hi = t->nspans;

	while (i < hi) {
		size_t mid = i + (hi - i) / 2;
		if (t->spans[mid].tid < tid)
			i = mid + 1;
		else
			hi = mid;
	}
	return i;
}

int64_t bt_slice_last_end(const struct bt_stacktab *t, int64_t tid, int64_t ts)
{
	size_t i;

	for (i = first_span(t, tid); i < t->nspans && t->spans[i].tid == tid && t->spans[i].lo <= ts; i++)
		if (ts < t->spans[i].hi)
			return t->spans[i].hi;
	return ts;
}

/* What the thread's spans (bt_slicer_spans) prove of the gap: the work
 * pre is in ended by *end_by (pre in a span, cur after it), the work cur
 * is in began from *begin_from (cur in a span, pre before it); left as
 * they are where no span says. Returns 1 when one span holds both: one
 * piece of work runs through the gap, however long the thread slept. */
static int span_bounds(const struct bt_stacktab *t, const struct gap *gp, int64_t *end_by, int64_t *begin_from,
		       int *exact)
{
	int within = 0;
	int64_t tid = gp->pre->src->tid, a = gp->pre->ts, b = gp->cur->ts;
	size_t i;

	for (i = first_span(t, tid); i < t->nspans && t->spans[i].tid == tid && t->spans[i].lo <= b; i++) {
		const struct bt_slice_span *s = &t->spans[i];
		if (s->lo <= a && a <= s->hi && s->hi < b && s->hi < *end_by) {
			*end_by = s->hi;
			*exact |= s->exact ? 1 : 0;
		}
		if (a < s->lo && s->lo <= b && b <= s->hi) {
			*begin_from = s->lo;
			*exact |= s->exact ? 2 : 0;
		}
		within |= s->lo <= a && b <= s->hi;
	}
	return within;
}

/*
 * A worker's sleep (not at a loop): its wait for work when the task
 * changed (the stacks part at or above where the earlier task began: a
 * worker runs one task at a time and fetches the next from its wait), or
 * when it slept more than TASK_IDLE_NS with the same task frames on both
 * sides (a duration record's own sleep is not the gap's, so one next to
 * the gap changes nothing). Then the task ran until the thread slept, and
 * the next one from when it woke. Returns 0 when the sleep was inside the
 * work.
 */
static int task_plan(const struct bt_slice_run *r, const struct gap *gp, const uint32_t *pf, size_t np,
		     struct plan *p)
{
	int64_t end_by = INT64_MAX, begin_from = INT64_MIN;
	size_t cut, k = p->k;
	int exact = 0, within = span_bounds(r->tab, gp, &end_by, &begin_from, &exact);
	int proven = end_by != INT64_MAX || begin_from != INT64_MIN;

	if ((!gp->sleeps && !proven) || (cut = task_cut(r->tab, pf, np)) >= np)
		return 0;
	if (within && k > cut)
		return 0;   /* a sleep inside the call it serves */
	if (!(k <= cut || gp->g - gp->d > TASK_IDLE_NS || proven))
		return 0;
	p->wait = WAIT_TASK;
	p->to_wait = cut <= k && cut > 0 && bt_slice_task_of(r->tab, pf[cut - 1]) == BT_TASK_BELOW;
	p->k = min64(cut, k);
	p->end = p->from = asleep(gp);
	p->begin = p->to = awake(gp);
	if (p->end.t > end_by || (exact & 1))   /* the call it served had ended: it had replied */
		p->end = p->from = (struct pt){ end_by, min64(p->end.c, gp->pre->cpu + (end_by - gp->pre->ts)) };
	if (p->begin.t < begin_from || (exact & 2)) {   /* the call it serves had not begun */
		int64_t c = gp->cur->cpu - (gp->cur->ts - begin_from);
		p->begin = p->to = (struct pt){ begin_from, p->begin.c > c ? p->begin.c : c };
	}
	return 1;
}

/*
 * A sleep inside one message after a sample in a frame's draw (frames up
 * to sync): the draw records its display list and ends in its wait for
 * the RenderThread, so the sleep is that wait. The frames the draw called
 * returned as the thread went to sleep, the draw as it woke, when the
 * frames that began did so. Not where cur shares a frame the draw called:
 * its wait came later. Still in the draw at cur, the thread had used the
 * gap's CPU before it slept. Past the draw, what ran before the sleep is
 * Java code, sampled had it run longer than a head, unless it entered a
 * native (pre_unseen); half where the throttle timed cur.
 */
static int draw_plan(const struct bt_slice_run *r, const struct gap *gp, const uint32_t *pf, size_t np,
		     int pre_unseen, struct plan *p)
{
	size_t sync = gp->sleeps ? sync_depth(r->tab, pf, 0, np) : 0;
	int64_t before = gp->d - min64(gp->d, gp->tail);

	if (!sync || p->k > sync)
		return 0;
	if (p->k < sync && !pre_unseen)
		before = min64(gp->throttled ? gp->d / 2 : before, gp->head);
	p->slept = (struct pt){ gp->pre->ts + before, gp->pre->cpu + before };
	p->begin = p->end_up = (struct pt){ p->slept.t + (gp->g - gp->d), p->slept.c };
	p->up = p->draw = sync;
	/* the callees pre shared with the sample before it have lasted a gap
	 * at least and ran until the wait; the ones pre was first to show are
	 * young and returned first */
	p->sync = r->pre_k > sync ? (r->pre_k < np ? r->pre_k : np) : sync;
	p->end_sync = p->slept;
	p->end = p->sync < np && !pre_unseen && early(gp).t < p->slept.t ? early(gp) : p->slept;
	return 1;
}

/* What work_plan needs beyond the gap: the trace's sampling and the
 * stacks' depths. */
struct slice_ctx {
	int dense;
	size_t np, nc;
	int pre_unseen;   /* the stretch no hook saw ran in the ended frames (unseen_is_pre) */
	int shared_unseen;   /* ... in the frame both samples share, after them (unseen_is_shared) */
};

/* Work on both sides, no wait for work between: the frames that ended
 * returned in the head, unless the earlier sample entered a native method
 * that ran through the gap; those that began did so at its middle, after
 * a stretch no hook saw that the frame both share ran (a native it calls),
 * or before one that is longer than an interval. Where
 * running code is not sampled soon after the throttle opens (not dense),
 * a gap without sleep in which frames end and others begin holds three
 * stretches the records cannot tell apart (the ended frames' end, the
 * shared frames' code, the begun ones' start): the ended frames run on for
 * its first third, the begun ones for its last (two ordered boundaries;
 * with dense sampling the return and the next call come back to back). */
static void work_plan(const struct slice_ctx *x, const struct gap *gp, struct plan *p)
{
	if (!x->dense && !gp->sleeps && x->np - p->k > (size_t)(gp->pre->dup != 0) &&
	    x->nc - p->k > (size_t)entered(gp->cur)) {
		p->end = (struct pt){ gp->pre->ts + gp->g / 3, gp->pre->cpu + gp->d / 3 };
		p->begin = (struct pt){ gp->cur->ts - gp->g / 3, gp->cur->cpu - gp->d / 3 };
		return;
	}
	p->end = early(gp);
	p->begin = mid(gp);
	if (x->pre_unseen)
		p->end = late(gp);
	else if (x->shared_unseen)
		p->begin = late(gp);   /* after the stretch, in the tail */
	else if (gp->unseen && gp->g - gp->head - gp->tail > gp->head)
		p->begin = p->end;   /* before the stretch, in the head */
	if (p->begin.t < p->end.t)
		p->begin = p->end;
}

/* The idle time no sample shows a frame of: a pool worker's wait stack
 * (getTask down to the park, as an earlier record showed it: the park that
 * began this sleep was usually not recorded), else the "(idle)" frame. */
static void task_wait(struct bt_slice_run *r, size_t i, const uint32_t *pf, const struct plan *p)
{
	uint32_t wf[BT_SLICE_MAX_FRAMES], wn[BT_SLICE_MAX_FRAMES];
	size_t nw, k = p->k;

	if (p->to_wait && r->wait) {
		nw = bt_item_frames(r->tab, r->wait, NULL, NULL, 0, wf, wn);
		if (nw > k && bt_slice_common(pf, k, wf, nw) >= k) {   /* under the same runWorker */
			bt_slice_stretch(r, i, wf + k, wn + k, nw - k, r->wait, p->from.t, p->from.c, p->to.t,
					 p->to.c);
			return;
		}
	}
	bt_slice_stretch(r, i, &r->tab->idle_frame, NULL, 1, &r->items[i - 1], p->from.t, p->from.c, p->to.t,
			 p->to.c);
}

/* A draw's wait for the RenderThread, below frame f (the draw, or the
 * wait's own frame a sample showed): the frames of the wait no sample
 * shows (no hook sees a boot native), from when the draw's callees ended
 * until the draw returned at e. */
static void sync_wait(struct bt_slice_run *r, size_t i, uint32_t f, const struct plan *p, struct pt e)
{
	const uint32_t *c = r->tab->sync_call;
	size_t k = f == c[1] ? 2 : f == c[0] ? 1 : 0, n;

	while (k < 2 && !c[k])   /* an older Android's: no wrapper */
		k++;
	n = 2 - k;
	if (n && e.t > p->slept.t &&
	    bt_slice_stretch(r, i, c + k, NULL, n, &r->items[i - 1], p->slept.t, p->slept.c, e.t, e.c) &&
	    r->tab->made && (r->tab->sync_synth >> k))
		*r->tab->made |= BT_MADE_SYNC;
}

/* The native method of the plan, no sample showing it, until e. */
static void native_stretch(struct bt_slice_run *r, size_t i, const struct plan *p, struct pt e)
{
	struct pt b = p->native_from;

	if (e.t > b.t && e.c >= b.c)
		bt_slice_stretch(r, i, &p->native, NULL, 1, &r->items[i - 1], b.t, b.c, e.t, e.c);
}

/* The loop's wait between two messages: MessageQueue.next and
 * nativePollOnce where the trace knows those frames (else "(idle)"). */
static void loop_wait(struct bt_slice_run *r, size_t i, const struct plan *p)
{
	const uint32_t f[2] = { r->tab->next, r->tab->poll };

	if (f[0])
		bt_slice_stretch(r, i, f, NULL, f[1] ? 2 : 1, &r->items[i - 1], p->from.t, p->from.c, p->to.t,
				 p->to.c);
	else
		bt_slice_stretch(r, i, &r->tab->idle_frame, NULL, 1, &r->items[i - 1], p->from.t, p->from.c,
				 p->to.t, p->to.c);
}

/* b, no earlier than a on the wall clock, and on the CPU clock between
 * what a thread running from a at most, and reaching hi at least, has used
 * (a slice's CPU time never exceeds its wall time). */
static struct pt after(struct pt a, struct pt b, struct pt hi)
{
	int64_t t = b.t < a.t ? a.t : b.t;

	return (struct pt){ t, clamp64(b.c, a.c > hi.c - (hi.t - t) ? a.c : hi.c - (hi.t - t),
					 min64(a.c + (t - a.t), hi.c)) };
}

/* The plan's points in the order things happened (the deeper frames end,
 * the shallower, a message no sample shows, the wait, the frames that
 * begin), each inside the gap on both clocks, so no slice runs backwards. */
static void order(const struct gap *gp, struct plan *p)
{
	struct pt lo = { gp->pre->ts, gp->pre->cpu }, hi = { gp->cur->ts, gp->pre->cpu + gp->d };
	struct pt *all[] = { &p->end, &p->end_sync, &p->end_up, &p->begin, &p->unseen_at, &p->from, &p->to };
	size_t i, n = p->wait != WAIT_NONE ? 7 : p->unseen_msg ? 5 : 4;

	for (i = 0; i < n; i++)
		*all[i] = (struct pt){ min64(all[i]->t, hi.t), min64(all[i]->c, hi.c) };
	p->end = after(lo, p->end, hi);
	p->end_sync = after(p->end, p->end_sync, hi);
	p->end_up = after(p->end_sync, p->end_up, hi);
	if (p->draw)
		p->slept = after(p->end, p->slept, hi);
	if (p->native)   /* in the shared frame, once the ended ones returned */
		p->native_from = p->native_under == p->k ? p->end : after(lo, p->native_from, hi);
	if (p->unseen_msg)
		p->unseen_at = after(p->end_up, p->unseen_at, hi);
	if (p->wait != WAIT_NONE) {
		p->from = after(p->unseen_msg ? p->unseen_at : p->end_up, p->from, hi);
		p->to = after(p->from, p->to, hi);
		p->begin = after(p->to, p->begin, hi);
	} else {
		p->begin = after(p->end_up, p->begin, hi);
	}
}

/* How many of the frames that begin in the gap began as it opened: a
 * display frame's doFrame, seen in its own code (a few microseconds of
 * it: before its first callback or between two), runs its callbacks back
 * to back, each phase's doCallbacks straight into its records. So where
 * the earlier sample shows doFrame's own code and the later one its
 * callbacks, doCallbacks and CallbackRecord.run began as the gap opened:
 * the phases no sample shows (an input batch, an animation step) ran in
 * them, not in doFrame's own code nor in the callback the later sample
 * shows. */
static size_t frame_callbacks(const struct bt_stacktab *t, const uint32_t *pf, size_t np, const uint32_t *cf,
			      size_t nc, size_t k)
{
	const uint32_t *c = t->frame_call;
	size_t n = 0;

	if (!c[0] || k != np || !k || pf[k - 1] != c[0])
		return 0;
	while (n < 2 && k + n < nc && c[n + 1] && cf[k + n] == c[n + 1])
		n++;
	return n;
}

void bt_slice_step_idle(struct bt_slice_run *r, size_t i, const uint32_t *pf, size_t np, const uint32_t *cf,
			const uint32_t *cn, size_t nc)
{
	const struct bt_item *cur = &r->items[i], *pre = &r->items[i - 1];
	struct gap gp;
	struct plan p;
	size_t j, shared, at_once;
	int into, out;

	gap_read(r, pre, cur, &gp);
	p.wait = WAIT_NONE;
	p.to_wait = 0;
	p.unseen_msg = 0;
	p.k = bt_slice_common(pf, np, cf, nc);
	shared = p.k;
	if (pre->msg_id != cur->msg_id)
		p.k = bt_slice_loop_cut(r->tab, pf, p.k);
	p.up = np;
	p.sync = p.draw = 0;
	p.native = 0;
	if (!loop_plan(r, &gp, pf, np, cf, nc, &p) && !task_plan(r, &gp, pf, np, &p)) {
		const struct slice_ctx x = { r->tab->dense, np, nc, unseen_is_pre(r->tab, &gp, pf, np, cf, nc, p.k),
					     unseen_is_shared(r->tab, &gp, pf, np, cf, nc, p.k) };
		if (!draw_plan(r, &gp, pf, np, x.pre_unseen, &p)) {
			work_plan(&x, &gp, &p);
			if (x.shared_unseen)
				unseen_native(r->tab, pf[p.k - 1], cf, nc, p.k, p.end, &p);
			else if (x.pre_unseen)
				pre_native(r->tab, &gp, pf, np, &p);
		}
	}
	if (p.up == np && !p.draw)
		p.end_up = p.end;
	if (!p.sync)   /* no draw's wait: those frames end with the deeper ones */
		p.end_sync = p.end;
	order(&gp, &p);
	if (p.k == np && np == nc && np && pre->dup)
		p.k = np - 1;   /* two calls with the same stack stay two slices */
	into = bt_slice_into_wait(r, i, p.k, np);
	out = bt_slice_out_of_wait(r, i, p.k, nc);
	if (into)
		p.begin = (struct pt){ pre->ts, pre->cpu };
	if (out)
		p.end = p.end_sync = p.end_up = (struct pt){ cur->ts, cur->cpu };
	for (j = np; j > p.k; j--) {
		int exact = pre->dup && j == np && !out;
		struct pt e = j - 1 < p.up ? p.end_up : j - 1 < p.sync ? p.end_sync : p.end;
		if (j == p.draw && !exact)
			sync_wait(r, i, pf[j - 1], &p, e);
		if (j == p.native_under && p.native && !exact)
			native_stretch(r, i, &p, e);
		bt_slice_pop(r, exact ? pre->ts : e.t, exact ? pre->cpu : e.c, (int64_t)i, pre);
	}
	if (p.native && p.native_under == p.k)
		native_stretch(r, i, &p, p.begin);
	if (p.draw && p.draw == p.k)   /* still in the draw at cur: its wait came between */
		sync_wait(r, i, pf[p.k - 1], &p, p.begin);
	if (p.unseen_msg)
		bt_slice_unseen_message(r, p.unseen_msg, p.unseen_at.t, p.from.t, p.from.c - p.unseen_at.c);
	if (p.wait == WAIT_TASK && p.to.t > p.from.t)
		task_wait(r, i, pf, &p);
	if (p.wait == WAIT_LOOP && p.to.t > p.from.t)
		loop_wait(r, i, &p);
	r->pre_k = shared;
	at_once = p.wait == WAIT_NONE && !into && !p.draw && !p.native ? frame_callbacks(r->tab, pf, np, cf, nc, p.k)
									 : 0;
	for (j = p.k; j < nc; j++) {
		int exact = j == nc - 1 && entered(cur) && !into;
		struct pt b = j < p.k + at_once ? (struct pt){ pre->ts, pre->cpu } : p.begin;
		bt_slice_push(r, cf[j], cn[j], exact ? cur->ts : b.t, exact ? cur->cpu : b.c, (int64_t)i,
			      pre->ts, pre->cpu, cur, pre);
	}
}

/* Whether a record of this type could be the first the throttle let by
 * after the previous one: a request that is not forced (format spec §4.3). */
static int throttled(const struct bt_item *it)
{
	if (it->dup)
		return it->type == 2 || it->type == 6 || it->type == 7 || it->type == 8 || it->type == 20;
	return !it->exact && (it->type == 9 || it->type == JNI_ENTRY || it->type == 21);
}

/* An item at the time its record was made: a point record, or a duration
 * record's end. */
static int made(const struct bt_item *it)
{
	return it->dup || (!it->exact && !bt_rtype_is_waker(it->type));
}

/* A kJNITrampoline record's item: its leaf, native, under the Java method
 * that called it (BT_NATIVE_MANY where one calls several). */
static void note_native(struct bt_stacktab *t, const struct bt_item *it)
{
	uint32_t up = it->node && it->node <= t->nnodes ? t->parent[it->node] : 0;
	uint32_t *c;

	if (!up || up > t->nnodes || t->frame[up] > t->nframes)
		return;
	c = &t->native[t->frame[up]];
	*c = !*c || *c == t->frame[it->node] ? t->frame[it->node] : BT_NATIVE_MANY;
}

void bt_gap_calibrate(struct bt_stacktab *t, struct bt_item *const *v, const size_t *cnt, size_t n)
{
	int64_t lo = INT64_MAX, sum = 0, m = 0;
	size_t i, j;

	t->dense = 0;
	/* the throttle's interval: consecutive records of a thread the throttle
	 * let by are more than an interval apart, and the closest nearly one;
	 * in the same pass, the Java methods the trace shows entering a native
	 * one (the caller of a kJNITrampoline record's leaf) */
	for (i = 0; i < n; i++)
		for (j = 0; j < cnt[i]; j++) {
			const struct bt_item *it = &v[i][j];
			if (j && throttled(it) && made(it - 1) && it->ts > it[-1].ts)
				lo = min64(lo, it->ts - it[-1].ts);
			if (it->type == JNI_ENTRY && !it->dup)
				note_native(t, it);
		}
	t->interval = lo == INT64_MAX ? 0 : lo;
	t->first_capture = 0;
	if (!t->interval) {   /* no throttle: the gaps say nothing of natives either */
		if (t->native)
			memset(t->native, 0, (t->nframes + 1) * sizeof *t->native);
		return;
	}
	/* how long running Java code takes to reach a capture point once the
	 * throttle opens: allocations after an interval, the thread not asleep */
	for (i = 0; i < n; i++)
		for (j = 1; j < cnt[i]; j++) {
			const struct bt_item *a = &v[i][j - 1], *b = &v[i][j];
			int64_t g = b->ts - a->ts;
			if (b->type == 9 && !b->dup && !b->exact && made(a) && g > t->interval &&
			    g <= 2 * t->interval && b->src->nvcsw == a->src->nvcsw) {
				sum += g - t->interval;
				m++;
			}
		}
	t->first_capture = m ? sum / m : 0;
	t->dense = m && 8 * t->first_capture <= t->interval;
}
