/*
 * What a late frame waited behind (late.h): each main-thread message's
 * owning method (its time not blocked) as its slices stream by, and the
 * messages as they are stored, by end.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"
#include "engine/startup/late.h"

#define MAX_DEPTH BT_LATE_MAX_DEPTH
#define AHEAD 200000LL           /* a message ending this soon after a frame's sampled start
				  * still ran before it (a start is placed ~50 us off) */

struct msg_owner { int64_t msg_id, ns; uint32_t frame; };
struct msg_sum { int64_t own, self; uint32_t gen; };   /* gen: the message it is of */
struct msg_span { int64_t msg_id, ts, end; };

struct bt_late {
	struct msg_sum *sum;      /* by frame id, in the message at hand: the time the app method
				   * owned, and its self time */
	size_t scap;
	uint32_t gen;             /* the message at hand's number: older sums read as none */
	uint32_t app, any;        /* in it so far, the app method that owned the most of its time and
				   * the method with the most self time (the lower id on a tie), or
				   * 0: sums only grow, so the leader is kept as they do */
	int64_t msg;              /* the message at hand, or 0 */
	int64_t pass[MAX_DEPTH + 2];   /* by depth: ended slices' time no app method owns yet,
					* for their parent one level up */
	struct msg_owner *owner;  /* by message, sorted (stably: where a message's slices came
				   * back after another's, the first one counts) once ready */
	size_t nowner, owcap;
	struct msg_span *m;       /* the messages, by end once ready */
	size_t nm, mcap;
};

struct bt_late *bt_late_new(void)
{
	struct bt_late *l = bt_xcalloc(1, sizeof(struct bt_late));

	l->gen = 1;   /* the zeroed sums are of none */
	return l;
}

void bt_late_free(struct bt_late *l)
{
	if (!l)
		return;
	free(l->sum);
	free(l->owner);
	free(l->m);
	free(l);
}

static struct msg_sum *sum_of(struct bt_late *l, uint32_t id)
{
	struct msg_sum *x;

	if (id >= l->scap)
		l->sum = bt_grow_zero(l->sum, sizeof *l->sum, &l->scap, (size_t)id);
	x = &l->sum[id];
	if (x->gen != l->gen)
		*x = (struct msg_sum){ 0, 0, l->gen };
	return x;
}

/* The message at hand's owner: the app method that owned the most of its
 * time, else the method with the most self time. */
static void end_message(struct bt_late *l)
{
	if (l->msg && (l->app || l->any)) {
		BT_GROW(l->owner, l->nowner + 1, l->owcap);
		l->owner[l->nowner++] = l->app ? (struct msg_owner){ l->msg, l->sum[l->app].own, l->app }
					       : (struct msg_owner){ l->msg, l->sum[l->any].self, l->any };
	}
	l->app = l->any = 0;
	l->msg = 0;
	if (++l->gen == 0) {   /* 2^32 messages: the numbers start again on sums of none */
		memset(l->sum, 0, l->scap * sizeof *l->sum);
		l->gen = 1;
	}
}

/* The leader after id's sum grew to v: id where v > 0 beats the leader
 * cur's sum cur_v (the lower id on a tie), or there is none. Without a
 * branch: which way it goes follows the data. */
static uint32_t leader(uint32_t cur, int64_t cur_v, uint32_t id, int64_t v)
{
	int take = (v > 0) & ((cur == 0) | (v > cur_v) | ((v == cur_v) & (id < cur)));

	return take ? id : cur;
}

/* Self time ns of method id to the message at hand: the message's method
 * with the most so far (any) may change. */
static struct msg_sum *add_self(struct bt_late *l, uint32_t id, int64_t ns)
{
	struct msg_sum *x = sum_of(l, id);

	x->self = bt_sat_add(x->self, ns);
	l->any = leader(l->any, l->sum[l->any].self, id, x->self);   /* sum[0]: id > 0 is in */
	return x;
}

void bt_late_slice(struct bt_late *l, const struct bt_slice *s, int d, int64_t run, int is_app)
{
	int64_t self = run > 0 ? run : 0;
	int64_t up = bt_sat_add(self, l->pass[d + 1]);   /* its own and its children's unowned time */
	int work = !s->idle && s->frame_id > 0 && s->frame_id < UINT32_MAX;
	struct msg_sum *x;
	uint32_t id = (uint32_t)s->frame_id;

	l->pass[d + 1] = 0;
	if (!work || !s->msg_id)
		return;   /* the loop's wait and the frames above the messages: no message's */
	if (s->msg_id != l->msg) {
		end_message(l);
		l->msg = s->msg_id;
	}
	if (!is_app) {   /* its callees' time passed up to the app method above (most slices
			  * have nothing of their own: no sum) */
		if (self)
			add_self(l, id, self);
		l->pass[d] = bt_sat_add(l->pass[d], up);
		return;
	}
	x = add_self(l, id, self);
	x->own = bt_sat_add(x->own, up);
	l->app = leader(l->app, l->sum[l->app].own, id, x->own);
}

int bt_late_pass(struct bt_late *l, int depth, int64_t msg_id)
{
	if (msg_id != l->msg)
		return 0;
	l->pass[depth] = bt_sat_add(l->pass[depth], l->pass[depth + 1]);   /* its callees' unowned time up */
	l->pass[depth + 1] = 0;
	return 1;
}

static int by_end(const void *a, const void *b)
{
	const struct msg_span *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return (x->msg_id > y->msg_id) - (x->msg_id < y->msg_id);
}

void bt_late_message(struct bt_late *l, int64_t msg_id, int64_t ts, int64_t end)
{
	BT_GROW(l->m, l->nm + 1, l->mcap);
	l->m[l->nm++] = (struct msg_span){ msg_id, ts, end };
}

static int by_msg(const void *a, const void *b)
{
	const struct msg_owner *x = a, *y = b;

	return (x->msg_id > y->msg_id) - (x->msg_id < y->msg_id);
}

static int by_msg_span(const void *a, const void *b)
{
	const struct msg_span *x = a, *y = b;

	return (x->msg_id > y->msg_id) - (x->msg_id < y->msg_id);
}

/* The parts of one message id as one (they are adjacent once sorted). */
static void merge_parts(struct bt_late *l)
{
	size_t i, n = 0;

	bt_sort_unless_sorted(l->m, l->nm, sizeof *l->m, by_msg_span);
	for (i = 0; i < l->nm; i++) {
		if (n && l->m[n - 1].msg_id == l->m[i].msg_id) {
			struct msg_span *x = &l->m[n - 1];
			x->ts = l->m[i].ts < x->ts ? l->m[i].ts : x->ts;
			x->end = l->m[i].end > x->end ? l->m[i].end : x->end;
		} else {
			l->m[n++] = l->m[i];
		}
	}
	l->nm = n;
}

void bt_late_ready(struct bt_late *l)
{
	end_message(l);
	bt_sort_unless_sorted(l->owner, l->nowner, sizeof *l->owner, by_msg);   /* in time order, ids rise but
										 * where a slice of one message
										 * ended after another's */
	merge_parts(l);
	bt_sort_unless_sorted(l->m, l->nm, sizeof *l->m, by_end);   /* one thread's messages end in their order */
}

static const struct msg_owner *owner_of(const struct bt_late *l, int64_t msg_id)
{
	size_t lo = bt_first_ge(l->owner, l->nowner, sizeof *l->owner, offsetof(struct msg_owner, msg_id), msg_id);

	return lo < l->nowner && l->owner[lo].msg_id == msg_id ? &l->owner[lo] : NULL;
}

int bt_late_behind(const struct bt_late *l, int64_t vsync, int64_t start, struct bt_late_msg *out)
{
	const struct msg_owner *o;
	size_t i, best = SIZE_MAX;
	int64_t until = bt_sat_add(start, AHEAD);

	/* from the first message that ended after the vsync */
	for (i = bt_first_ge(l->m, l->nm, sizeof *l->m, offsetof(struct msg_span, end), bt_sat_add(vsync, 1));
	     i < l->nm && l->m[i].end <= until; i++)
		if (best == SIZE_MAX || l->m[i].end - l->m[i].ts > l->m[best].end - l->m[best].ts)
			best = i;
	if (best == SIZE_MAX)
		return 0;
	o = owner_of(l, l->m[best].msg_id);
	*out = (struct bt_late_msg){ l->m[best].msg_id, l->m[best].ts, l->m[best].end, o ? o->frame : 0,
				     o ? o->ns : 0 };
	return 1;
}

int bt_late_after(const struct bt_late *l, int64_t t, int64_t *ts, int64_t *end)
{
	/* by end is by start: one thread's messages do not overlap */
	size_t lo = bt_first_ge(l->m, l->nm, sizeof *l->m, offsetof(struct msg_span, ts), t);

	if (lo == l->nm)
		return 0;
	*ts = l->m[lo].ts;
	*end = l->m[lo].end;
	return 1;
}
