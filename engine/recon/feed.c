/*
 * Slices taken as a trace gives them (feed.h). The stack of open slices
 * plays the part the reconstruction's node stack does (slice_tree.c):
 * ids in preorder, children's totals for self values, the profile's path
 * per open slice, and messages from the slices right below a message-loop
 * frame.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/recon/feed.h"
#include "engine/recon/msg_order.h"
#include "engine/recon/offcpu.h"
#include "engine/profile/profile.h"
#include "engine/recon/slice.h"
#include "engine/startup/startup.h"

struct open {
	struct bt_slice s;
	unsigned known;
	int blocks;
	int64_t child_dur, child_cpu, child_block;
	int64_t cursor;            /* with states: where its self time goes on (its last child's end) */
	int64_t child_ctr[BT_PROFILE_NCTR];
	uint32_t path;
	unsigned char msg_root, in_msg;
};

/* The message being accumulated from consecutive message slices. */
struct feed_msg {
	int64_t id, ts, end, cpu, block, alloc;
	int nocpu;                 /* a slice of it did not say its CPU time */
};

struct bt_feed {
	struct bt_db *db;             /* NULL for a replay: nothing stored */
	struct bt_taps taps;
	struct bt_profile *profile;
	struct open *stack;        /* [0] is the thread's root, never stored */
	size_t sp, cap;
	int64_t tid, next_id, count, first_ts, last_ts;
	int64_t thread_first;      /* the current thread's first slice id */
	int have_thread, begun;
	unsigned char *flags;      /* by frame id: FRAME_* */
	size_t nflags;
	struct feed_msg msg;
	struct bt_offcpu offcpu;   /* top-level slices, for the off-CPU split by state */
	struct bt_msg_order order; /* of the messages stored */
	int states;                /* the trace has scheduler states: self segments for the methods' split */
	struct { bt_slices_fn fn; void (*release)(void *); void *ctx; } defer;
	struct {                   /* bt_feed_new_refill's: the tap that stores the slices */
		struct bt_slice_tap tap;
		struct bt_tap_filter want;
	} refill;
	struct {                   /* the start-up collectors the closed slices go to */
		struct bt_startups *c;   /* NULL: none */
		int own;                 /* bt_feed_find_startup's: stored at the finish */
		int64_t tid;             /* its main thread, or -1 */
		struct bt_diag *diag;
	} start;
};

enum { FRAME_LOOP = 1, FRAME_IDLE = 2 };

struct bt_feed *bt_feed_new(struct bt_db *db, const struct bt_taps *taps)
{
	struct bt_feed *f = bt_xcalloc(1, sizeof *f);

	f->db = db;
	if (taps)
		f->taps = *taps;
	f->profile = bt_profile_new();
	if (f->taps.stacks)
		bt_profile_keep_entries(f->profile);
	f->next_id = 1;
	bt_offcpu_init(&f->offcpu);
	bt_msg_order_init(&f->order);
	return f;
}

struct bt_feed *bt_feed_new_replay(const struct bt_taps *taps)
{
	return bt_feed_new(NULL, taps);
}

static int refill_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	(void)part;
	return bt_db_insert_slice(ctx, s, err);
}

struct bt_feed *bt_feed_new_refill(struct bt_db *db)
{
	struct bt_feed *f = bt_feed_new(NULL, NULL);

	f->refill.tap = (struct bt_slice_tap){ NULL, refill_slice, NULL, db };
	f->refill.want = (struct bt_tap_filter){ -1, INT64_MIN };
	f->taps = (struct bt_taps){ &f->refill.tap, &f->refill.want, 1, NULL, NULL, NULL };
	return f;
}

void bt_feed_defer(struct bt_feed *f, bt_slices_fn fn, void (*release)(void *), void *ctx)
{
	f->defer.fn = fn;
	f->defer.release = release;
	f->defer.ctx = ctx;
}

void bt_feed_free(struct bt_feed *f)
{
	if (!f)
		return;
	if (f->defer.release)
		f->defer.release(f->defer.ctx);
	bt_profile_free(f->profile);
	if (f->start.own)
		bt_startups_free(f->start.c);
	free(f->stack);
	free(f->flags);
	bt_offcpu_release(&f->offcpu);
	bt_msg_order_release(&f->order);
	free(f);
}

int bt_feed_find_startup(struct bt_feed *f, struct bt_diag *diag, struct bt_err *err)
{
	if (!f->db)
		return BT_OK;   /* a replay stores nothing */
	f->start.c = bt_startups_new();
	f->start.own = 1;
	f->start.diag = diag;
	return bt_startups_from_db(f->start.c, f->db, &f->start.tid, err);
}

void bt_feed_startups(struct bt_feed *f, struct bt_startups *c)
{
	f->start.c = c;
}

void bt_feed_startup_exact(struct bt_feed *f, int exact)
{
	if (f->start.c)
		bt_startups_exact(f->start.c, exact);
}

void bt_feed_frame(struct bt_feed *f, uint32_t frame, const char *name)
{
	f->flags = bt_grow_zero(f->flags, 1, &f->nflags, frame);
	f->flags[frame] = (unsigned char)((bt_frame_is_loop(name) ? FRAME_LOOP : 0) |
					  (bt_frame_is_idle(name) ? FRAME_IDLE : 0));
}

static int frame_is(const struct bt_feed *f, int64_t frame, int flag)
{
	return frame >= 0 && (size_t)frame < f->nflags && (f->flags[frame] & flag);
}

/* a + b, held at the int64 range: imported values are the trace's, and a
 * hostile trace's sums must not overflow (nested blocking markers each add
 * their children's blocked time). */
static int64_t add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static int64_t sub(int64_t a, int64_t b)
{
	return b == INT64_MIN ? add(add(a, INT64_MAX), 1) : add(a, -b);
}

static int end_message(struct bt_feed *f, struct bt_err *err)
{
	struct bt_message_row row;
	int64_t id = f->msg.id;

	f->msg.id = 0;
	if (!id || !f->db)
		return BT_OK;
	if (f->start.c)
		bt_startups_message(f->start.c, f->tid, id, f->msg.ts, f->msg.end);
	bt_msg_order_see(&f->order, f->tid, id, f->msg.ts);
	row.tid = f->tid;
	row.msg_id = id;
	row.ts = f->msg.ts;
	row.dur = f->msg.end - f->msg.ts;
	row.cpu = f->msg.nocpu ? BT_MEMTAB_NULL : f->msg.cpu;
	row.block = f->msg.block;
	row.idle = 0;
	row.alloc = f->msg.alloc;
	return bt_db_insert_message(f->db, &row, err);
}

static int add_message(struct bt_feed *f, const struct bt_slice *s, struct bt_err *err)
{
	if (f->msg.id != s->msg_id) {
		if (end_message(f, err))
			return err->code;
		f->msg.id = s->msg_id;
		f->msg.ts = s->ts;
		f->msg.cpu = f->msg.block = f->msg.alloc = 0;
		f->msg.nocpu = 0;
	}
	f->msg.nocpu |= s->cpu_unknown != 0;
	f->msg.end = s->ts + s->dur;
	f->msg.cpu = add(f->msg.cpu, s->cpu_dur);
	f->msg.block = add(f->msg.block, s->block_dur);
	f->msg.alloc = add(f->msg.alloc, s->alloc_bytes);
	return BT_OK;
}

static int close_one(struct bt_feed *f, int64_t end, struct bt_slice *closed, int to_start, struct bt_err *err);

static int end_thread(struct bt_feed *f, struct bt_err *err)
{
	while (f->sp > 1)
		if (close_one(f, f->stack[f->sp - 1].s.ts, NULL, 0, err))
			return err->code;
	if (!f->have_thread)
		return BT_OK;
	f->have_thread = 0;
	bt_profile_thread_end(f->profile);
	if (bt_taps_thread(&f->taps, 0, f->tid, f->next_id - f->thread_first, err))
		return err->code;
	return end_message(f, err);
}

static int begin_thread(struct bt_feed *f, int64_t tid, struct bt_err *err)
{
	if (f->have_thread && tid < f->tid)
		return bt_err_set(err, BT_EFORMAT, "imported slices of thread %lld came after thread %lld",
				  (long long)tid, (long long)f->tid);
	if (end_thread(f, err))
		return err->code;
	BT_GROW(f->stack, 1, f->cap);
	memset(&f->stack[0], 0, sizeof f->stack[0]);
	f->stack[0].path = bt_profile_thread(f->profile, tid);
	f->sp = 1;
	f->tid = tid;
	f->thread_first = f->next_id;
	f->have_thread = 1;
	return BT_OK;
}

void bt_feed_states(struct bt_feed *f)
{
	f->states = 1;
}

int bt_feed_open(struct bt_feed *f, const struct bt_slice *s, unsigned known, int blocks,
		 struct bt_err *err)
{
	struct open *n, *up;

	if (!f->begun && f->db && bt_taps_begin(&f->taps, f->db, err))
		return err->code;
	f->begun = 1;
	if ((!f->have_thread || s->tid != f->tid) && begin_thread(f, s->tid, err))
		return err->code;
	BT_GROW(f->stack, f->sp + 1, f->cap);
	n = &f->stack[f->sp];
	up = &f->stack[f->sp - 1];
	n->s = *s;   /* every field set here: no memset of the whole (it showed in profiles) */
	n->child_dur = n->child_cpu = n->child_block = 0;
	memset(n->child_ctr, 0, sizeof n->child_ctr);
	n->known = known;
	n->blocks = blocks;
	n->cursor = s->ts;
	/* the parent's self time up to here; an idle slice's is no method's (the profile's rule) */
	if (f->states && f->sp > 1 && s->ts > up->cursor && f->db && !up->s.idle) {
		bt_offcpu_self(&f->offcpu, up->s.tid, up->s.frame_id, up->cursor, s->ts);
		up->cursor = s->ts;
	}
	n->s.id = f->next_id++;
	n->s.depth = (int64_t)f->sp - 1;
	n->s.parent_id = f->sp > 1 ? up->s.id : 0;
	n->msg_root = f->sp > 1 && frame_is(f, up->s.frame_id, FRAME_LOOP) &&
		      !frame_is(f, s->frame_id, FRAME_LOOP | FRAME_IDLE) && !s->idle;   /* the loop's wait */
	n->in_msg = n->msg_root || (f->sp > 1 && up->in_msg);
	n->path = bt_profile_enter(f->profile, up->path, (uint32_t)s->frame_id, 0, n->in_msg, s->msg_id,
				   s->idle != 0);
	if (!f->count || s->ts < f->first_ts)
		f->first_ts = s->ts;
	f->count++;
	f->sp++;
	return BT_OK;
}

struct bt_slice *bt_feed_top(struct bt_feed *f)
{
	return f->sp > 1 ? &f->stack[f->sp - 1].s : NULL;
}

int64_t bt_feed_depth(const struct bt_feed *f)
{
	return f->sp > 1 ? (int64_t)f->sp - 1 : 0;
}

void bt_feed_known(struct bt_feed *f, unsigned known)
{
	if (f->sp > 1)
		f->stack[f->sp - 1].known |= known;
}

/* bt_feed_close's; to_start: the slice goes to the start-up collectors
 * (not those end_thread closes, which no importer closed). */
static int close_one(struct bt_feed *f, int64_t end, struct bt_slice *closed, int to_start, struct bt_err *err)
{
	struct open *n = &f->stack[--f->sp], *up = &f->stack[f->sp - 1];
	struct bt_slice *s = &n->s;
	const int64_t ctr[BT_PROFILE_NCTR] = { s->alloc_bytes, s->alloc_objects, s->majflt, s->nvcsw,
					       s->nivcsw };
	int64_t self[BT_PROFILE_NCTR], own_block;
	int k;

	s->dur = end > s->ts ? end - s->ts : 0;
	if (!(n->known & BT_FEED_CPU))
		s->cpu_dur = 0;
	s->cpu_unknown = (n->known & BT_FEED_CPU_UNKNOWN) != 0;
	if (!(n->known & BT_FEED_SELF))
		s->self_dur = s->dur - n->child_dur;
	if (!(n->known & BT_FEED_SELF_CPU))
		s->self_cpu_dur = sub(s->cpu_dur, n->child_cpu);
	if (!(n->known & BT_FEED_BLOCK))   /* a blocking slice's own part: its self time, no more */
		s->block_dur = add(n->child_block, n->blocks && s->self_dur > 0 ? s->self_dur : 0);
	own_block = sub(s->block_dur, n->child_block);
	if (f->sp == 1 && f->db)
		bt_offcpu_add(&f->offcpu, s->tid, s->ts, s->ts + s->dur);
	if (f->states && f->db) {   /* its self time after its last child; the parent's goes on from its end */
		if (s->ts + s->dur > n->cursor && !s->idle)
			bt_offcpu_self(&f->offcpu, s->tid, s->frame_id, n->cursor, s->ts + s->dur);
		if (s->ts + s->dur > up->cursor)
			up->cursor = s->ts + s->dur;
	}
	up->child_dur += s->dur;
	up->child_cpu = add(up->child_cpu, s->cpu_dur);
	up->child_block = add(up->child_block, s->block_dur);
	_Static_assert(BT_PROFILE_NCTR == 5, "the counters named one by one below");
	if (!(ctr[0] | ctr[1] | ctr[2] | ctr[3] | ctr[4] | n->child_ctr[0] | n->child_ctr[1] | n->child_ctr[2] |
	      n->child_ctr[3] | n->child_ctr[4]))   /* a trace without counters: nothing to add up */
		memset(self, 0, sizeof self);
	else
		for (k = 0; k < BT_PROFILE_NCTR; k++) {
			self[k] = sub(ctr[k], n->child_ctr[k]);
			up->child_ctr[k] = add(up->child_ctr[k], ctr[k]);
		}
	if (own_block > 0)
		bt_profile_block(f->profile, n->path, s->type, own_block);
	bt_profile_leave(f->profile, n->path, s, self, n->in_msg, n->msg_root);
	if (s->ts + s->dur > f->last_ts)
		f->last_ts = s->ts + s->dur;
	if (n->msg_root && s->msg_id && add_message(f, s, err))
		return err->code;
	if (closed)
		*closed = *s;
	if (f->taps.n && bt_taps_slice(&f->taps, 0, s, err))
		return err->code;
	if (f->db && !f->defer.fn && bt_db_insert_slice(f->db, s, err))
		return err->code;
	if (to_start && f->start.c)
		bt_startups_add(f->start.c, s);
	return BT_OK;
}

int bt_feed_close(struct bt_feed *f, int64_t end, struct bt_slice *closed, struct bt_err *err)
{
	return close_one(f, end, closed, 1, err);
}



int bt_feed_finish(struct bt_feed *f, struct bt_err *err)
{
	struct bt_profile *p = f->profile;
	int rc = end_thread(f, err);

	if (!rc)
		bt_taps_done(&f->taps, f->profile);
	if (!f->db) {
		bt_feed_free(f);
		return rc;
	}
	f->profile = NULL;
	if (!rc)
		rc = bt_profile_store(p, f->db, !f->defer.fn, err);   /* deferred: a scratch analysis, the call tree a view */
	else
		bt_profile_free(p);
	if (!rc)
		rc = bt_offcpu_store(&f->offcpu, f->db, err);
	if (!rc)
		rc = bt_msg_order_store(&f->order, f->db, err);
	if (!rc)
		rc = bt_db_set_meta_int(f->db, "slices", f->count, err);
	if (!rc)
		rc = bt_db_set_meta_text(f->db, "slice_policy", "imported", err);
	if (!rc && f->count)
		rc = bt_db_set_meta_int(f->db, "first_ts", f->first_ts, err);
	if (!rc && f->count)
		rc = bt_db_set_meta_int(f->db, "last_ts", f->last_ts, err);
	if (!rc && f->defer.fn) {   /* the database owns the maker from now on */
		bt_db_defer_slices(f->db, f->defer.fn, f->defer.release, f->defer.ctx);
		f->defer.release = NULL;
	}
	if (!rc && f->start.own)
		rc = bt_startups_store(f->start.c, f->start.tid, f->db, f->start.diag, err);
	bt_feed_free(f);
	return rc;
}
