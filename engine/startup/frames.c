/*
 * The main thread's display frames (frames.h): per frame, its methods'
 * self time as its slices stream by; at the end, the period, the vsync
 * grid, each frame's deadline and jank, a janky frame's cause line, and
 * what filled the frames (methods, blocking by kind and holder) in all of
 * them and in the janky ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/names.h"
#include "engine/base/search.h"
#include "engine/db/rows.h"
#include "engine/profile/profile.h"
#include "engine/startup/frames.h"
#include "engine/startup/ui_frames_int.h"
#include "engine/startup/late.h"

#define TOP 2                    /* methods a cause line names */
#define KEEP 8                   /* methods kept per frame: a janky frame's in ui_frame_methods */
#define GAP_MIN 4000000LL        /* frame-to-frame gaps read for the cadence */
#define GAP_MAX 25000000LL
#define PHASE_BIN 100000LL       /* the grid's phase, to 0.1 ms */
#define PHASE_NEAR 300000LL      /* on-time starts: this close to the densest ones */
#define PHASE_LEAD 150000LL      /* the tick: this long before the on-time starts (a sampled start
				  * is placed ~50 us off its true one) */
#define CAUSE_MIN 1000000LL      /* a cause shorter than 1 ms is not named */
#define VSYNC_POST 1000000LL     /* the frame's message begins this soon after the vsync's
				  * callback (placed by the samples around them) */
#define START_SLACK 1000000LL    /* a sampled frame start this far before the vsync it could
				  * have had at the earliest is misplaced, not early */
#define PERIOD_MIN 2000000LL     /* a timeline's period: 500 Hz .. 10 Hz */
#define PERIOD_MAX 100000000LL

#if defined(__GNUC__)   /* the longer paths kept out of the per-slice one, whose entry then stays short */
#define RARE __attribute__((noinline))
#else
#define RARE
#endif

#define BUF_MAX 65536            /* main-thread slices kept between frames */
#define NIDLE 4                  /* waits for work kept after a frame */
#define MAX_DEPTH BT_LATE_MAX_DEPTH   /* deeper slices count as this deep */

struct idle_span { int64_t b, e; };

/* A frame as its slices came: its methods with the most self time, and
 * what the main thread did between the frame before and it. Kept as a
 * packed record (frame_put): a scroll has hundreds of thousands of
 * frames, read once, in order. */
struct frame_methods {
	int64_t ts;
	int64_t cns[TOP];
	int64_t sleep;            /* off the CPU, no record saying why (a RenderThread sync) */
	int64_t prev_end;         /* the frame before's end, or -1 */
	int64_t msg_ts;           /* its Looper message's start (a GC wait can come before it) */
	int64_t prev_ask;         /* the earliest the frame before asked for the next vsync, or -1 */
	uint32_t cframe[TOP];     /* the cause line's: by the innermost app method */
	uint32_t sleep_in;        /* the method that slept the most of it */
	int ntop, nidle;
	uint32_t top_id[KEEP];    /* its KEEP methods with the most self time (the janky
				   * frames' are read at the store) */
	int64_t top_ns[KEEP];
	struct idle_span idle[NIDLE];   /* the first waits for work after the frame before */
};

/* A main-thread slice's self time, kept until the frame that holds it. */
struct kept_slice {
	int64_t ts, end, self;
	int64_t off;              /* of self, the time off the CPU no record explains (a sleep) */
	uint32_t frame;
	uint16_t depth;           /* at most MAX_DEPTH */
	uint8_t app;              /* the app's method (engine/db/appcode.h) */
};

/* A method's sums, by its frame id: in the frame at hand its self time
 * not blocked (sum) and the time the cause line gives it (own), and its
 * self time in every frame so far (all). One record, so that a frame's
 * slices touch one line a method. */
struct id_sum { int64_t sum, own, all; };

/* Slices come as they end, children first: a frame's slices have come
 * just before it, after every slice that ended before it began. */
struct bt_frames {
	unsigned char *rec;       /* the frames' records (frame_put), as they closed */
	size_t rlen, rcap, nrec;
	int64_t rec_ts;           /* the last record's start */
	int unsorted;             /* a frame began before the one closed before it */
	struct kept_slice *buf;   /* the slices since the last frame with time of their own or
				   * an app method's */
	struct { int64_t ts, end; int depth; uint32_t app; } owner[MAX_DEPTH + 2];   /* a frame's
				   * slices read parents first: the kept ones above the one at hand,
				   * with the innermost app method at or above each (0: none) */
	size_t nbuf, bcap;
	/* by depth, the first slice to end since one a level up did (the
	 * first child of the one to come there), where keep[depth] ==
	 * f->nframes + 1: its start and duration */
	int64_t first_ts[MAX_DEPTH + 2], first_dur[MAX_DEPTH + 2];
	size_t keep[MAX_DEPTH + 2], nframes;
	struct id_sum *ids;       /* by method frame id */
	size_t icap;
	uint32_t *touched;        /* the ids with a sum or own in the frame at hand (to read and
				   * reset them) */
	size_t nt, tcap;
	int64_t last_end;         /* the last frame's end, or -1 */
	int64_t last_ask;         /* the earliest the last frame asked for the next vsync, or -1 */
	int64_t ask;              /* the same for the frame at hand, INT64_MAX: not seen */
	int64_t msg, msg_ts;      /* the Looper message of the last slice (0: none), its first start */
	int idle_any;             /* the trace has idle slices (the idle policy ran) */
	struct idle_span idle[NIDLE];   /* the waits for work since the last frame (the first) */
	int nidle;
	uint32_t *top_id;         /* the frame at hand's methods with self time, and that time */
	int64_t *top_ns;
	size_t ntop, tpcap;
	int64_t child_block[MAX_DEPTH + 2];   /* by depth: the blocked time of the slices
					       * ended there since their parent (its children's) */
	struct bt_late *late;     /* what a late frame waited behind */
	struct vsync_cb { int64_t ts, end; } *vs;   /* the vsync's callbacks (onVsync) */
	size_t nvs, vcap;
};

struct bt_frames *bt_frames_new(void)
{
	struct bt_frames *f = bt_xcalloc(1, sizeof(struct bt_frames));

	f->last_end = f->last_ask = -1;
	f->ask = INT64_MAX;
	f->late = bt_late_new();
	return f;
}

void bt_frames_free(struct bt_frames *f)
{
	if (!f)
		return;
	free(f->rec);
	free(f->buf);
	free(f->ids);
	free(f->touched);
	free(f->top_id);
	free(f->top_ns);
	bt_late_free(f->late);
	free(f->vs);
	free(f);
}

/* Method id's sums, listed as touched in the frame at hand (sums only
 * grow from 0: ns > 0 is added to them). */
static struct id_sum *sums_of(struct bt_frames *f, uint32_t id)
{
	struct id_sum *x;

	if (id >= f->icap)
		f->ids = bt_grow_zero(f->ids, sizeof *f->ids, &f->icap, (size_t)id);
	x = &f->ids[id];
	if (!(x->sum | x->own)) {
		BT_GROW(f->touched, f->nt + 1, f->tcap);
		f->touched[f->nt++] = id;
	}
	return x;
}

/* Method id with ns into the n largest so far (ids[], v[], largest first;
 * the lower id first on a tie). */
static void top_add(uint32_t *ids, int64_t *v, int n, uint32_t id, int64_t ns)
{
	int k;

	for (k = n; k > 0 && (ns > v[k - 1] || (ns == v[k - 1] && id < ids[k - 1])); k--)
		if (k < n)
			v[k] = v[k - 1], ids[k] = ids[k - 1];
	if (k < n)
		v[k] = ns, ids[k] = id;
}

static int depth_of(int64_t d)
{
	return d < 0 ? 0 : d > MAX_DEPTH ? MAX_DEPTH : (int)d;
}

/* Of a slice's time not blocked (run), the part off the CPU when it is a
 * millisecond or more: an unhooked sleep (a RenderThread sync, I/O). A
 * shorter one is mostly the thread waiting to run again, its method's
 * time; 0 where the trace has no CPU times. */
static int64_t off_cpu(const struct bt_slice *s, int64_t run)
{
	int64_t cpu = s->self_cpu_dur < 0 ? 0 : s->self_cpu_dur, off = run - cpu;

	/* without a branch: which way it would go follows the data */
	return off & -(int64_t)(!s->cpu_unknown & (off >= CAUSE_MIN));
}

/* The kept slices inside frame s, read once: each one's self time not
 * blocked to its method's sum (add), and for the cause line to the
 * innermost app method that holds it (itself if it is one: the app's code
 * and the platform code it called), else to itself, so a slow bind reads
 * as the adapter's method, not as the framework methods its time spreads
 * over (the sums; close_frame takes their tops). The slices came children
 * first: read backwards, a slice's nearest kept ancestor is the last one
 * seen above it that holds it in time (a parent with nothing of its own
 * and no app method is not kept; it passes its parent's owner on). */
static void frame_slices(struct bt_frames *f, struct frame_methods *a, const struct bt_slice *s, int64_t run)
{
	int64_t end = bt_sat_add(s->ts, s->dur), off = off_cpu(s, run), most = off;
	int d0 = depth_of(s->depth);
	size_t i, no = 0;

	a->sleep = off;
	a->sleep_in = off > 0 ? (uint32_t)s->frame_id : 0;
	if (run - off > 0 && s->frame_id > 0 && s->frame_id < UINT32_MAX) {
		struct id_sum *x = sums_of(f, (uint32_t)s->frame_id);
		x->own = bt_sat_add(x->own, run - off);
	}
	for (i = f->nbuf; i-- > 0;) {
		const struct kept_slice *ks = &f->buf[i];
		struct id_sum *x;
		uint32_t o;
		if (ks->ts < s->ts || ks->ts >= end || ks->depth <= d0)
			continue;
		x = NULL;
		if (ks->self > 0) {
			x = sums_of(f, ks->frame);
			x->sum = bt_sat_add(x->sum, ks->self);
		}
		while (no && (f->owner[no - 1].depth >= ks->depth || ks->ts < f->owner[no - 1].ts ||
			      ks->end > f->owner[no - 1].end))
			no--;   /* what it did not call (a sibling of a parent not kept, by time) */
		o = ks->app ? ks->frame : no ? f->owner[no - 1].app : 0;
		f->owner[no].ts = ks->ts;
		f->owner[no].end = ks->end;
		f->owner[no].depth = ks->depth;
		f->owner[no++].app = o;
		a->sleep = bt_sat_add(a->sleep, ks->off);
		if (ks->off > most)
			most = ks->off, a->sleep_in = ks->frame;
		if (ks->self - ks->off > 0) {   /* then self > 0: x is its method's */
			if (o && o != ks->frame)
				x = sums_of(f, o);
			x->own = bt_sat_add(x->own, ks->self - ks->off);
		}
	}
}

/* Of the frame's methods with self time, only the KEEP with the most
 * into a: the store reads no more of a janky frame (the lower id first
 * on a tie; a frame's ids are distinct). */
static void keep_top(const struct bt_frames *f, struct frame_methods *a)
{
	size_t i;

	if (f->ntop <= KEEP) {
		for (i = 0; i < f->ntop; i++)   /* (a frame with none: no array yet) */
			a->top_id[i] = f->top_id[i], a->top_ns[i] = f->top_ns[i];
		a->ntop = (int)f->ntop;
		return;
	}
	memset(a->top_id, 0, sizeof a->top_id);
	memset(a->top_ns, 0, sizeof a->top_ns);
	for (i = 0; i < f->ntop; i++)
		top_add(a->top_id, a->top_ns, KEEP, f->top_id[i], f->top_ns[i]);
	a->ntop = KEEP;
}

/*
 * A frame's record: a word of flags, a byte of counts, then its fields,
 * each 4 bytes where it fits in 32 bits (most: times from the frame's
 * start, durations, a frame id), else 8 with its flag set. Times are
 * from the frame's start and its start from the record before's,
 * wrapping, so any int64 comes back. Some 90 bytes where the struct is
 * 232; read with a load and a test a field.
 */
#define REC_INTS (5 + TOP + 2 * NIDLE + KEEP)   /* a record's fields that may take 8 bytes */
#define REC_MAX (4 + 1 + REC_INTS * 8 + (1 + TOP + KEEP) * 4)   /* a record's bytes at most */
_Static_assert(REC_INTS <= 32 && NIDLE < 8 && KEEP < 32, "a record's flags fit a word, its counts a byte");

#if defined(__GNUC__)   /* a field's few instructions, not a call's dozen */
#define INLINE inline __attribute__((always_inline))
#else
#define INLINE inline
#endif

struct rec_out { unsigned char *b; size_t n; uint32_t flags; int bit; };

static INLINE void put_i(struct rec_out *o, int64_t v)
{
	if (v >= INT32_MIN && v <= INT32_MAX) {
		int32_t x = (int32_t)v;
		memcpy(o->b + o->n, &x, 4);
		o->n += 4;
	} else {
		memcpy(o->b + o->n, &v, 8);
		o->n += 8;
		o->flags |= 1u << o->bit;
	}
	o->bit++;
}

static INLINE void put_u(struct rec_out *o, uint32_t v)
{
	memcpy(o->b + o->n, &v, 4);
	o->n += 4;
}

struct rec_in { const unsigned char *p; uint32_t flags; int bit; };

static INLINE int64_t get_i(struct rec_in *in)
{
	int64_t v;

	if (in->flags >> in->bit++ & 1) {
		memcpy(&v, in->p, 8);
		in->p += 8;
	} else {
		int32_t x;
		memcpy(&x, in->p, 4);
		in->p += 4;
		v = x;
	}
	return v;
}

static INLINE uint32_t get_u(struct rec_in *in)
{
	uint32_t v;

	memcpy(&v, in->p, 4);
	in->p += 4;
	return v;
}

#define REL(t, from) (int64_t)((uint64_t)(t) - (uint64_t)(from))
#define ABS(d, from) (int64_t)((uint64_t)(from) + (uint64_t)(d))

/* Frame a's record, after the frame's. */
static void frame_put(struct bt_frames *f, const struct frame_methods *a)
{
	struct rec_out o;
	int k;

	BT_GROW(f->rec, f->rlen + REC_MAX, f->rcap);
	o = (struct rec_out){ f->rec + f->rlen, 5, 0, 0 };
	f->rec[f->rlen + 4] = (unsigned char)(a->nidle | a->ntop << 3);
	put_i(&o, REL(a->ts, f->rec_ts));
	for (k = 0; k < TOP; k++)
		put_i(&o, a->cns[k]);
	put_i(&o, a->sleep);
	put_i(&o, REL(a->prev_end, a->ts));
	put_i(&o, REL(a->msg_ts, a->ts));
	put_i(&o, REL(a->prev_ask, a->ts));
	for (k = 0; k < TOP; k++)
		put_u(&o, a->cframe[k]);
	put_u(&o, a->sleep_in);
	for (k = 0; k < a->nidle; k++) {
		put_i(&o, REL(a->idle[k].b, a->ts));
		put_i(&o, REL(a->idle[k].e, a->idle[k].b));
	}
	for (k = 0; k < a->ntop; k++) {
		put_u(&o, a->top_id[k]);
		put_i(&o, a->top_ns[k]);
	}
	memcpy(f->rec + f->rlen, &o.flags, 4);
	f->unsorted |= f->nrec && a->ts < f->rec_ts;
	f->rec_ts = a->ts;
	f->rlen += o.n;
	f->nrec++;
}

/* The record at *p (after one that began at prev) into a, *p past it. */
static void frame_get(const unsigned char **p, int64_t prev, struct frame_methods *a)
{
	struct rec_in in = { *p + 5, 0, 0 };
	int k;

	memcpy(&in.flags, *p, 4);
	a->nidle = (*p)[4] & 7;
	a->ntop = (*p)[4] >> 3;
	a->ts = ABS(get_i(&in), prev);
	for (k = 0; k < TOP; k++)
		a->cns[k] = get_i(&in);
	a->sleep = get_i(&in);
	a->prev_end = ABS(get_i(&in), a->ts);
	a->msg_ts = ABS(get_i(&in), a->ts);
	a->prev_ask = ABS(get_i(&in), a->ts);
	for (k = 0; k < TOP; k++)
		a->cframe[k] = get_u(&in);
	a->sleep_in = get_u(&in);
	for (k = 0; k < a->nidle; k++) {
		a->idle[k].b = ABS(get_i(&in), a->ts);
		a->idle[k].e = ABS(get_i(&in), a->idle[k].b);
	}
	for (k = 0; k < a->ntop; k++) {
		a->top_id[k] = get_u(&in);
		a->top_ns[k] = get_i(&in);
	}
	*p = in.p;
}

/* Frame s: the self time not blocked of the kept slices inside it, by
 * method (its KEEP largest into its record, for the store's janky
 * frames), and its cause line's; the buffer emptied (what is left began
 * before it). */
static void close_frame(struct bt_frames *f, const struct bt_slice *s, int64_t run)
{
	struct frame_methods fm, *a = &fm;
	size_t i;

	memset(a->cns, 0, sizeof a->cns);   /* what top_add fills; the rest is set below */
	memset(a->cframe, 0, sizeof a->cframe);
	a->ts = s->ts;
	a->prev_end = f->last_end;
	a->prev_ask = f->last_ask;
	a->msg_ts = s->msg_id > 0 && s->msg_id == f->msg && f->msg_ts < s->ts ? f->msg_ts : s->ts;
	memcpy(a->idle, f->idle, (size_t)f->nidle * sizeof *f->idle);
	a->nidle = f->nidle;
	f->nidle = 0;
	f->last_end = bt_sat_add(s->ts, s->dur);
	/* no callback seen: it asked no later than it began (as the rule
	 * before this one had it) */
	f->last_ask = f->ask > s->ts && f->ask < f->last_end ? f->ask : s->ts;
	f->ask = INT64_MAX;
	frame_slices(f, a, s, run);
	if (run > 0 && s->frame_id > 0 && s->frame_id < UINT32_MAX) {
		struct id_sum *x = sums_of(f, (uint32_t)s->frame_id);
		x->sum = bt_sat_add(x->sum, run);
	}
	f->ntop = 0;
	for (i = 0; i < f->nt; i++) {   /* each id once: the tops do not depend on the order */
		uint32_t id = f->touched[i];
		struct id_sum *x = &f->ids[id];
		if (x->own)
			top_add(a->cframe, a->cns, TOP, id, x->own);
		if (x->sum) {
			x->all = bt_sat_add(x->all, x->sum);
			if (f->ntop == f->tpcap) {
				f->tpcap = f->tpcap ? 2 * f->tpcap : 64;
				f->top_id = bt_xrealloc(f->top_id, f->tpcap * sizeof *f->top_id);
				f->top_ns = bt_xrealloc(f->top_ns, f->tpcap * sizeof *f->top_ns);
			}
			f->top_id[f->ntop] = id;
			f->top_ns[f->ntop++] = x->sum;
		}
		x->sum = x->own = 0;
	}
	f->nt = 0;
	keep_top(f, a);
	frame_put(f, a);
	f->nbuf = 0;
	f->nframes++;   /* what came before it is no later frame's */
}

/* A slice's own blocked time: its blocked time (its children's included)
 * less its children's, who came just before it; d its depth. */
static int64_t own_block(struct bt_frames *f, int d, int64_t block)
{
	int64_t own;

	if (!(block | f->child_block[d + 1]))
		return 0;   /* most slices: nothing blocked, theirs or their children's */
	own = block - f->child_block[d + 1];

	f->child_block[d + 1] = 0;
	f->child_block[d] = bt_sat_add(f->child_block[d], block);
	return own > 0 ? own : 0;
}

/* A frame's callback record s (its slices came just before it): the
 * callbacks that ask for the next vsync run before the traversal and ask
 * as they end (the input's rest of a batch, a fling's or an animator's
 * next step), so the first callback's end is the earliest ask: the
 * frame's vsync is pending from the tick after it. */
static void first_callback(struct bt_frames *f, const struct bt_slice *s)
{
	int d = depth_of(s->depth) + 1;

	int64_t end = bt_sat_add(f->first_ts[d], f->first_dur[d]);

	if (f->keep[d] == f->nframes + 1 && f->first_ts[d] >= s->ts && end < f->ask)
		f->ask = end;
}

/* A slice that could be kept, at depth d: the first at its depth since
 * one a level up ended, in this frame, is the first child of the next
 * one there. */
static void first_child(struct bt_frames *f, const struct bt_slice *s, int d)
{
	if (f->keep[d] != f->nframes + 1) {
		f->keep[d] = f->nframes + 1;
		f->first_ts[d] = s->ts;
		f->first_dur[d] = s->dur;
	}
}

/* A slice with a role (all but a few): 1 when it was a frame, which
 * closes. Apart, so the common slice's path stays short. */
static RARE int role_slice(struct bt_frames *f, const struct bt_slice *s, int role, int64_t run)
{
	if (role == BT_FRAMES_VSYNC) {
		BT_GROW(f->vs, f->nvs + 1, f->vcap);
		f->vs[f->nvs++] = (struct vsync_cb){ s->ts, bt_sat_add(s->ts, s->dur) };
	}
	if (role == BT_FRAMES_UI) {
		close_frame(f, s, run);
		return 1;
	}
	if (role == BT_FRAMES_TRAVERSAL) {   /* the callbacks end before it: its first
					      * sample's gap says how early it may begin */
		int64_t from = bt_sat_add(s->ts, -s->gap_dur);
		f->ask = from < f->ask ? from : f->ask;
	}
	if (role == BT_FRAMES_CALLBACK)
		first_callback(f, s);
	return 0;
}

/* A wait for work: the first NIDLE after a frame are kept. */
static void idle_slice(struct bt_frames *f, const struct bt_slice *s)
{
	f->idle_any = 1;
	if (f->nidle < NIDLE)
		f->idle[f->nidle++] = (struct idle_span){ s->ts, s->ts + s->dur };
}

/* The common slice (most of a deep stack's): no role, nothing of its own
 * (no self time, not the app's, nothing blocked in it or below it), in
 * the message at hand, a method's. 1 when done: only what the full path
 * below does for it, the depths' bookkeeping; 0, nothing done, else. */
static int plain_slice(struct bt_frames *f, const struct bt_slice *s, int d, int role, int is_app)
{
	/* one test for what is mostly 0, one for the frame id's range */
	if ((role | is_app | s->idle | s->block_dur | f->child_block[d + 1]) || s->self_dur > 0 ||
	    (uint64_t)s->frame_id - 1 >= UINT32_MAX - 1 || s->msg_id != f->msg || s->msg_id <= 0 ||
	    s->ts < f->msg_ts || !bt_late_pass(f->late, d, s->msg_id))
		return 0;
	f->keep[d + 1] = 0;
	first_child(f, s, d);
	return 1;
}

/* The slices plain_slice does not do: apart, as the common one's path
 * then saves no registers. */
static RARE void full_slice(struct bt_frames *f, const struct bt_slice *s, int d, int role, int is_app)
{
	int64_t run;
	struct kept_slice *k;

	run = s->self_dur - own_block(f, d, s->block_dur);   /* its self time not blocked: the blocking
							      * is named by kind */
	bt_late_slice(f->late, s, d, run, is_app);
	if (role && role_slice(f, s, role, run))
		return;
	f->keep[d + 1] = 0;   /* the next one to end a level down is a new parent's first child */
	if (s->idle) {
		idle_slice(f, s);
		return;
	}
	if (s->msg_id > 0 && (s->msg_id != f->msg || s->ts < f->msg_ts))
		f->msg = s->msg_id, f->msg_ts = s->ts;   /* a new message, or an earlier start in it */
	if (s->frame_id <= 0 || s->frame_id >= UINT32_MAX)
		return;
	first_child(f, s, d);
	if (run <= 0 && !is_app)
		return;   /* nothing of its own (most slices): what it called reads the app method above */
	if (f->nbuf == BUF_MAX) {   /* a long stretch without frames: its older half goes */
		memmove(f->buf, f->buf + BUF_MAX / 2, (BUF_MAX - BUF_MAX / 2) * sizeof *f->buf);
		f->nbuf -= BUF_MAX / 2;
	}
	BT_GROW(f->buf, f->nbuf + 1, f->bcap);
	k = &f->buf[f->nbuf++];
	k->ts = s->ts;
	k->end = bt_sat_add(s->ts, s->dur);
	k->self = run > 0 ? run : 0;
	k->off = off_cpu(s, run);
	k->depth = (uint16_t)d;
	k->app = is_app != 0;
	k->frame = (uint32_t)s->frame_id;
}

void bt_frames_slice(struct bt_frames *f, const struct bt_slice *s, int role, int is_app)
{
	int d = depth_of(s->depth);

	if (!plain_slice(f, s, d, role, is_app))
		full_slice(f, s, d, role, is_app);
}

void bt_frames_message(struct bt_frames *f, int64_t msg_id, int64_t ts, int64_t end)
{
	bt_late_message(f->late, msg_id, ts, end);
}

static int by_methods_ts(const void *a, const void *b)
{
	const struct frame_methods *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

static int by_ts(const void *a, const void *b)
{
	const struct bt_dframe *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : (x->dur > y->dur) - (x->dur < y->dur);
}

/* The median of v[0..n), n > 0 (reorders v). */
static int64_t median(int64_t *v, size_t n)
{
	return bt_select_kth(v, n, (n - 1) / 2);
}

/* The period a Perfetto frame timeline expected, or 0: also when it is
 * no display's (a hostile trace's: the grid's bins are by 0.1 ms). */
static int timeline_period(struct bt_db *db, int64_t *out, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*out = 0;
	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_EXPECTED, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		BT_GROW(v, n + 1, cap);
		v[n++] = bt_rows_int(r, 0);
	}
	bt_rows_close(r);
	if (rc == 0 && n)
		*out = median(v, n);
	if (*out < PERIOD_MIN || *out > PERIOD_MAX)
		*out = 0;
	free(v);
	return rc < 0 ? err->code : BT_OK;
}

/* The cadence's period: the median gap between frames under GAP_MAX,
 * snapped to a display's refresh rate. */
static int64_t cadence_period(const struct bt_dframe *ui, size_t n)
{
	static const int64_t rates[] = { 6944444, 8333333, 11111111, 16666667 };   /* 144 .. 60 Hz */
	int64_t *gap = bt_xcalloc(n + 1, sizeof *gap), m, best = rates[3];
	size_t i, k = 0;
	double d = INFINITY;

	for (i = 1; i < n; i++) {   /* ascending: the gap fits in 64 bits unsigned */
		uint64_t g = (uint64_t)ui[i].ts - (uint64_t)ui[i - 1].ts;
		if (g >= GAP_MIN && g <= GAP_MAX)
			gap[k++] = (int64_t)g;
	}
	if (k) {
		m = median(gap, k);
		for (i = 0; i < sizeof rates / sizeof rates[0]; i++)
			if (fabs(log((double)m / (double)rates[i])) < d)
				d = fabs(log((double)m / (double)rates[i])), best = rates[i];
	}
	free(gap);
	return best;
}

/* The grid's tick at or before t (a hostile t near INT64_MIN: t); phase
 * in [0, period). One division: a frame asks for several ticks, and a
 * 64-bit division costs tens of cycles. */
static int64_t tick_at(int64_t t, int64_t phase, int64_t period)
{
	int64_t r;

	if (t < INT64_MIN + period)
		return t;
	r = (t - phase) % period;   /* t - phase fits: t >= INT64_MIN + period */
	return t - (r < 0 ? r + period : r);
}

/*
 * The ticks a frame asks for are a few periods from the last one found:
 * stepped to from it, not divided for (a 64-bit division costs tens of
 * cycles, as much as the rest of a frame's store; a frame asks for up to
 * five ticks).
 */
struct grid { int64_t phase, period, ref, lo, hi; };   /* a ref in (lo, hi) is a tick of the grid */

#define NEAR 4   /* periods a tick is stepped to */

static struct grid grid_new(int64_t phase, int64_t period)
{
	/* no ref yet: lo >= hi (a period is at most PERIOD_MAX: these fit) */
	return (struct grid){ phase, period, 0, INT64_MAX, INT64_MIN };
}

static inline int64_t grid_tick(struct grid *g, int64_t t)
{
	int64_t p = g->period, k = g->ref;

	/* |t - k| < NEAR periods; the difference wraps, but with k in (lo, hi) no
	 * far t lands in the window */
	if (k > g->lo && k < g->hi && (uint64_t)t - (uint64_t)k + (uint64_t)(NEAR * p) < (uint64_t)(2 * NEAR * p)) {
		while (t < k)
			k -= p;
		while (t - k >= p)
			k += p;
		return g->ref = k;   /* the one tick in (t - p, t] */
	}
	k = tick_at(t, g->phase, p);
	if (t >= INT64_MIN + p) {   /* a tick of the grid, not t itself */
		g->ref = k;
		g->lo = INT64_MIN + (NEAR + 1) * p;
		g->hi = INT64_MAX - (NEAR + 1) * p;
	}
	return k;
}

/* t mod period in [0, period) for ascending t, from the one before
 * (*last and *mod) where near it. */
static int64_t mod_next(int64_t t, int64_t period, int64_t *last, int64_t *mod, int *have)
{
	int64_t m;

	if (*have && t >= *last && (uint64_t)t - (uint64_t)*last < (uint64_t)(NEAR * period)) {
		m = *mod + (t - *last);   /* < (NEAR + 1) periods: fits */
		while (m >= period)
			m -= period;
	} else {
		m = t % period;
		m = m < 0 ? m + period : m;
	}
	*last = t, *mod = m, *have = 1;
	return m;
}

/* The grid's phase in [0, period): frames begin just after their vsync,
 * so the densest 0.3 ms of the frames' starts (modulo the period) holds
 * those that began on time; the tick is a little before the earliest of
 * them (their 5th percentile: a frame late by nearly a period lands
 * there too). */
static int64_t grid_phase(const struct bt_dframe *ui, size_t n, int64_t period)
{
	size_t nb = (size_t)((period + PHASE_BIN - 1) / PHASE_BIN), i, b, best = 0, bestn = 0, k = 0;
	size_t *count = bt_xcalloc(nb + 1, sizeof *count);
	int64_t mid, *off = bt_xcalloc(n + 1, sizeof *off), lo = 0, last = 0, mod = 0;
	int have = 0;

	for (i = 0; i < n; i++)   /* ui by time; an offset under the period is in a bin under nb */
		count[(size_t)(mod_next(ui[i].ts, period, &last, &mod, &have) / PHASE_BIN)]++;
	for (b = 0; b < nb; b++) {
		size_t c = count[(b + nb - 1) % nb] + count[b] + count[(b + 1) % nb];
		if (c > bestn)
			bestn = c, best = b;
	}
	mid = (int64_t)best * PHASE_BIN + PHASE_BIN / 2;   /* under period + PHASE_BIN / 2 */
	for (i = have = 0; i < n; i++) {   /* each start's offset from mid, in (-period / 2, period / 2] */
		int64_t o = mod_next(ui[i].ts, period, &last, &mod, &have) - mid;
		while (o < 0)
			o += period;
		if (o > period / 2)
			o -= period;
		if (o >= -PHASE_NEAR && o <= PHASE_NEAR)
			off[k++] = o;
	}
	if (k)
		lo = bt_select_kth(off, k, k / 20);
	free(count);
	free(off);
	return ((mid + lo - PHASE_LEAD) % period + period) % period;
}

/* The main thread's blocking records and waits, for the cause lines. */
struct frame_block { int64_t ts, end; int kind; };
struct frame_wait { int64_t ts, end; int kind; char *holder; };
struct frame_evidence {
	struct frame_block *b;
	size_t nb, bcap;
	struct frame_wait *w;
	size_t nw, wcap;
	int64_t bmax, wmax;       /* the longest record and wait: a sweep from a time starts
				   * that much earlier */
	char **names;             /* by frame id */
	size_t nnames;
	struct bt_map64 short_of; /* a name's pointer -> 1 + its short form's index (add_short) */
	struct bt_buf shorts;     /* the short forms, one after another */
	struct short_span { size_t at, len; } *short_span;
	size_t nshort, sscap;
};

static int load_evidence(struct frame_evidence *e, struct bt_db *db, int64_t tid, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if ((rc = bt_frame_names_load(db, &e->names, &e->nnames, err)))
		return rc;
	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_BLOCKS, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	while ((rc = bt_rows_next(r, err)) == 1) {
		int k = bt_block_kind_of(bt_rows_int(r, 0));
		if (k < 0 || bt_rows_int(r, 2) <= bt_rows_int(r, 1))
			continue;
		BT_GROW(e->b, e->nb + 1, e->bcap);
		e->b[e->nb].kind = k;
		e->b[e->nb].ts = bt_rows_int(r, 1);
		e->b[e->nb++].end = bt_rows_int(r, 2);
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_WAITS, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *h = bt_rows_text(r, 3, NULL);
		BT_GROW(e->w, e->nw + 1, e->wcap);
		e->w[e->nw].kind = bt_block_kind_named(bt_rows_text(r, 0, NULL));
		e->w[e->nw].ts = bt_rows_int(r, 1);
		e->w[e->nw].end = bt_rows_int(r, 2);
		e->w[e->nw++].holder = h ? bt_xstrdup(h) : NULL;
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	if (!e->nb) {   /* no duration records (a Perfetto or systrace trace): its waits are its blocking */
		size_t i;
		for (i = 0; i < e->nw; i++) {
			if (e->w[i].kind < 0 || e->w[i].end <= e->w[i].ts)
				continue;
			BT_GROW(e->b, e->nb + 1, e->bcap);
			e->b[e->nb++] = (struct frame_block){ e->w[i].ts, e->w[i].end, e->w[i].kind };
		}
	}
	return BT_OK;
}

static int block_order(const void *a, const void *b)
{
	const struct frame_block *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->end != y->end ? (x->end < y->end ? -1 : 1) : x->kind - y->kind;
}

static int wait_order(const void *a, const void *b)
{
	const struct frame_wait *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return strcmp(x->holder ? x->holder : "", y->holder ? y->holder : "");
}

/* The evidence in time order, for the sweep over the frames (frame_sums). */
static int load_evidence_sorted(struct frame_evidence *e, struct bt_db *db, int64_t tid, struct bt_err *err)
{
	int rc = load_evidence(e, db, tid, err);
	size_t i;

	if (e->nb)
		bt_sort_unless_sorted(e->b, e->nb, sizeof *e->b, block_order);
	if (e->nw)
		bt_sort_unless_sorted(e->w, e->nw, sizeof *e->w, wait_order);
	for (i = 0; i < e->nb; i++)
		e->bmax = e->b[i].end - e->b[i].ts > e->bmax ? e->b[i].end - e->b[i].ts : e->bmax;
	for (i = 0; i < e->nw; i++)
		e->wmax = e->w[i].end - e->w[i].ts > e->wmax ? e->w[i].end - e->w[i].ts : e->wmax;
	return rc;
}

/* The first record, and the first wait, that can reach into [t, ...). */
static size_t first_block(const struct frame_evidence *e, int64_t t)
{
	return bt_first_ge(e->b, e->nb, sizeof *e->b, offsetof(struct frame_block, ts), bt_sat_add(t, -e->bmax));
}

static size_t first_wait(const struct frame_evidence *e, int64_t t)
{
	return bt_first_ge(e->w, e->nw, sizeof *e->w, offsetof(struct frame_wait, ts), bt_sat_add(t, -e->wmax));
}

static void evidence_release(struct frame_evidence *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		free(e->w[i].holder);
	free(e->w);
	free(e->b);
	bt_frame_names_free(e->names, e->nnames);
	bt_map64_release(&e->short_of);
	bt_buf_release(&e->shorts);
	free(e->short_span);
}

static int64_t overlap(int64_t a, int64_t b, int64_t c, int64_t d)
{
	int64_t lo = a > c ? a : c, hi = b < d ? b : d;

	return hi > lo ? hi - lo : 0;
}

/* The main thread's blocked time by kind inside [ts, end), added to by. */
static void blocked_by_kind(const struct frame_evidence *e, int64_t ts, int64_t end, int64_t by[BT_BLOCK__COUNT])
{
	size_t i;

	for (i = first_block(e, ts); i < e->nb && e->b[i].ts < end; i++)
		by[e->b[i].kind] = bt_sat_add(by[e->b[i].kind], overlap(e->b[i].ts, e->b[i].end, ts, end));
}

/* " 12.3 ms": printf's "%.1f" of ns / 1e6, which rounds to the nearer
 * tenth; written here from the integers but for a tie, whose side the
 * double's rounding decides, and times so long that it could misjudge. */
static void amount(int64_t ns, struct bt_buf *b)
{
	char d[24];
	int64_t q = ns / 100000, r = ns % 100000;
	size_t n = sizeof d;

	if (ns < 0 || ns >= 1000000000000000LL || r == 50000) {
		bt_buf_addf(b, " %.1f ms", (double)ns / 1e6);
		return;
	}
	q += r > 50000;
	d[--n] = (char)('0' + q % 10);
	d[--n] = '.';
	q /= 10;
	do
		d[--n] = (char)('0' + q % 10);
	while ((q /= 10) > 0);
	d[--n] = ' ';
	bt_buf_add(b, d + n, sizeof d - n);
	bt_buf_adds(b, " ms");
}

/* name's short form (bt_name_short, level 1) to b: a name the cause lines
 * repeat is shortened once. */
static void add_short(struct frame_evidence *e, const char *name, struct bt_buf *b)
{
	uint64_t key = (uint64_t)(uintptr_t)name;
	uint32_t at = bt_map64_get(&e->short_of, key);

	if (!at) {
		size_t from = e->shorts.len;
		bt_name_short(name, strlen(name), 1, &e->shorts);
		BT_GROW(e->short_span, e->nshort + 1, e->sscap);
		e->short_span[e->nshort] = (struct short_span){ from, e->shorts.len - from };
		bt_map64_put(&e->short_of, key, at = (uint32_t)++e->nshort);
	}
	bt_buf_add(b, e->shorts.buf + e->short_span[at - 1].at, e->short_span[at - 1].len);
}

/* One line: the frame's top methods and its blocking by kind, largest
 * first, a kind with the holder of its longest wait where one is known. */
enum { METHOD = -1, SLEEP = -2, LATE = -3 };
struct cause_item {
	int64_t ns;
	int kind;                 /* a blocking kind, METHOD, SLEEP (off the CPU, no record) or
				   * LATE (began after its vsync: the main thread was busy) */
	const char *name;         /* the method, the holder, the sleeper, what a late frame
				   * waited behind (or NULL) */
	int64_t msg;              /* LATE: the message it waited behind, or 0 */
};

/* it[0..n) by ns, largest first, ties in their order (a handful). */
static void sort_items(struct cause_item *it, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct cause_item x = it[i];
		for (j = i; j > 0 && it[j - 1].ns < x.ns; j--)
			it[j] = it[j - 1];
		it[j] = x;
	}
}

/* What a message the main thread ran instead of a frame did: its largest
 * blocking kind, when it blocked longer than its owning method ran, else
 * that method (or NULL). */
static const char *behind_what(const struct frame_evidence *e, const struct bt_late_msg *m)
{
	int64_t by[BT_BLOCK__COUNT] = { 0 }, most = 0;
	int k, kind = -1;

	blocked_by_kind(e, m->ts, m->end, by);
	for (k = 0; k < BT_BLOCK__COUNT; k++)
		if (by[k] > most)
			most = by[k], kind = k;
	if (kind >= 0 && most >= m->ns)
		return bt_block_kind_name[kind];
	return m->frame && m->frame < e->nnames ? e->names[m->frame] : NULL;
}

static char *cause_line(struct frame_evidence *e, const struct frame_methods *a, const struct bt_late *behind,
			int64_t ts, int64_t end, int64_t vsync)
{
	int64_t late = bt_sat_add(ts, -vsync);
	struct bt_late_msg m = { 0, 0, 0, 0, 0 };
	struct bt_buf b = BT_BUF_INIT;
	struct cause_item it[TOP + BT_BLOCK__COUNT + 2];
	int64_t by[BT_BLOCK__COUNT] = { 0 }, wl[BT_BLOCK__COUNT] = { 0 };
	const char *holder[BT_BLOCK__COUNT] = { NULL };
	size_t i, n = 0;
	int k;

	for (k = 0; a && k < TOP; k++)
		if (a->cns[k] >= CAUSE_MIN && a->cframe[k] && a->cframe[k] < e->nnames && e->names[a->cframe[k]])
			it[n++] = (struct cause_item){ a->cns[k], METHOD, e->names[a->cframe[k]], 0 };
	blocked_by_kind(e, ts, end, by);
	for (i = first_wait(e, ts); i < e->nw && e->w[i].ts < end; i++) {
		int64_t o = overlap(e->w[i].ts, e->w[i].end, ts, end);
		int kw = e->w[i].kind;   /* < 0: a kernel sleep, no kind of ours */
		if (kw >= 0 && o > wl[kw] && e->w[i].holder)
			wl[kw] = o, holder[kw] = e->w[i].holder;
	}
	for (k = 0; k < BT_BLOCK__COUNT; k++)
		if (by[k] >= CAUSE_MIN)
			it[n++] = (struct cause_item){ by[k], k, holder[k], 0 };
	if (late >= CAUSE_MIN) {   /* the main thread was busy: with what */
		const char *what = NULL;
		if (behind && bt_late_behind(behind, vsync, ts, &m))
			what = behind_what(e, &m);
		it[n++] = (struct cause_item){ late, LATE, what, m.msg_id };
	}
	if (a && a->sleep >= CAUSE_MIN)   /* no record says why: a RenderThread sync, I/O */
		it[n++] = (struct cause_item){ a->sleep, SLEEP,
					       a->sleep_in < e->nnames ? e->names[a->sleep_in] : NULL, 0 };
	sort_items(it, n);
	for (i = 0; i < n; i++) {
		bt_buf_adds(&b, i ? ", " : "");
		if (it[i].kind == METHOD)
			add_short(e, it[i].name, &b);
		else
			bt_buf_adds(&b, it[i].kind == SLEEP ? "sleep" : it[i].kind == LATE ? "late" :
						bt_block_kind_name[it[i].kind]);
		amount(it[i].ns, &b);
		if (it[i].kind == LATE && it[i].msg) {
			bt_buf_adds(&b, " behind ");
			if (it[i].name)   /* a method, or the kind of blocking it was */
				add_short(e, it[i].name, &b);
			bt_buf_adds(&b, it[i].name ? " (msg " : "msg ");
			bt_buf_addi(&b, it[i].msg);
			if (it[i].name)
				bt_buf_addc(&b, ')');
		} else if (it[i].kind != METHOD && it[i].name) {
			bt_buf_adds(&b, it[i].kind == SLEEP ? " in " : " held by ");
			add_short(e, it[i].name, &b);
		}
	}
	if (!n)
		bt_buf_adds(&b, "no method or wait of 1 ms or more");
	return bt_buf_detach(&b, NULL);
}

/*
 * What filled the frames, for the gate (ui_frame_methods,
 * ui_frame_blocking): each method's self time not blocked in every frame
 * (bt_frames.all) and in the janky ones (each janky frame's KEEP methods),
 * and the main thread's blocked time inside each frame's doFrame by kind
 * (its blocking records) and by the holder of its waits, in every frame
 * and in the janky ones ([0] and [1]). The frames come in time order and
 * the evidence is sorted, so one sweep finds each frame's records.
 */
struct frame_held { int kind; const char *holder; int64_t ns[2]; };
struct frame_sums {
	int64_t *janky;           /* by method frame id */
	size_t jcap;
	int64_t kind[BT_BLOCK__COUNT][2];
	struct frame_held *h;     /* holders borrow the evidence's names */
	size_t nh, hcap;
	struct bt_strmap held;    /* kind and holder -> index in h + 1 */
	size_t bi, wi;            /* the first record and wait that can reach the frame at hand */
};

static void held_add(struct frame_sums *s, int kind, const char *holder, int64_t ns, int janky)
{
	struct bt_buf key = BT_BUF_INIT;
	uint32_t at;

	holder = holder ? holder : "(unknown)";   /* gate.lua's name for a wait no record ended */
	bt_buf_addi(&key, kind);
	bt_buf_addc(&key, ':');
	bt_buf_adds(&key, holder);
	if (!(at = bt_strmap_get(&s->held, key.buf, key.len))) {
		BT_GROW(s->h, s->nh + 1, s->hcap);
		s->h[s->nh] = (struct frame_held){ kind, holder, { 0, 0 } };
		bt_strmap_put(&s->held, key.buf, key.len, (uint32_t)++s->nh);
		at = (uint32_t)s->nh;
	}
	s->h[at - 1].ns[0] = bt_sat_add(s->h[at - 1].ns[0], ns);
	if (janky)
		s->h[at - 1].ns[1] = bt_sat_add(s->h[at - 1].ns[1], ns);
	bt_buf_release(&key);
}

/* The frame [ts, end) of the main thread, janky or not, into s. */
static void frame_sum(struct frame_sums *s, const struct frame_evidence *e, const struct frame_methods *a,
		      int64_t ts, int64_t end, int janky)
{
	uint32_t top[KEEP] = { 0 };
	int64_t ns[KEEP] = { 0 };
	size_t i;
	int k;

	for (i = 0; janky && a && i < (size_t)a->ntop; i++)   /* its KEEP methods with the most (> 0) */
		top_add(top, ns, KEEP, a->top_id[i], a->top_ns[i]);
	for (k = 0; k < KEEP && ns[k] > 0; k++) {
		s->janky = bt_grow_zero(s->janky, sizeof *s->janky, &s->jcap, top[k]);
		s->janky[top[k]] = bt_sat_add(s->janky[top[k]], ns[k]);
	}
	while (s->bi < e->nb && e->b[s->bi].end <= ts)
		s->bi++;
	for (i = s->bi; i < e->nb && e->b[i].ts < end; i++) {
		int64_t o = overlap(e->b[i].ts, e->b[i].end, ts, end);
		s->kind[e->b[i].kind][0] = bt_sat_add(s->kind[e->b[i].kind][0], o);
		if (janky)
			s->kind[e->b[i].kind][1] = bt_sat_add(s->kind[e->b[i].kind][1], o);
	}
	while (s->wi < e->nw && e->w[s->wi].end <= ts)
		s->wi++;
	for (i = s->wi; i < e->nw && e->w[i].ts < end; i++) {
		int64_t o = overlap(e->w[i].ts, e->w[i].end, ts, end);
		if (o > 0 && e->w[i].kind >= 0)
			held_add(s, e->w[i].kind, e->w[i].holder, o, janky);
	}
}

static int store_sums(const struct frame_sums *s, const struct bt_frames *f, int64_t tid, struct bt_db *db,
		      struct bt_err *err)
{
	size_t i;
	int rc = BT_OK, k;

	for (i = 1; f && i < f->icap && !rc; i++)
		if (f->ids[i].all > 0)
			rc = bt_db_exec(db, BT_SQL_INSERT_UI_FRAME_METHOD, err, "iiii", tid, (int64_t)i, f->ids[i].all,
					i < s->jcap ? s->janky[i] : 0);
	for (k = 0; k < BT_BLOCK__COUNT && !rc; k++)
		if (s->kind[k][0] > 0)
			rc = bt_db_exec(db, BT_SQL_INSERT_UI_FRAME_BLOCKING, err, "itnii", tid, bt_block_kind_name[k],
					s->kind[k][0], s->kind[k][1]);
	for (i = 0; i < s->nh && !rc; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_UI_FRAME_BLOCKING, err, "ittii", tid, bt_block_kind_name[s->h[i].kind],
				s->h[i].holder, s->h[i].ns[0], s->h[i].ns[1]);
	return rc;
}

static void sums_release(struct frame_sums *s)
{
	free(s->janky);
	free(s->h);
	bt_strmap_release(&s->held);
}

/* Whether, of the waits for work since the frame before, none begun by
 * until was still going on after t (and the first NIDLE kept say so): a
 * vsync pending at t runs as soon as the thread polls.
 *   - no_wait(a, t, t): the frame could have been pending at tick t (an
 *     animation or a scroll asks for the next vsync as a frame ends): not
 *     when the thread was waiting for work at t, as it would have run
 *     then; so a frame that begins after a busy stretch spanning t was
 *     for t, and late;
 *   - no_wait(a, t, INT64_MAX): no wait for work at all after t, as with
 *     a vsync pending since t. */
static int no_wait(const struct frame_methods *a, int64_t t, int64_t until)
{
	const struct idle_span *w = a->idle;
	int k;

	for (k = 0; k < a->nidle; k++)
		if (w[k].b <= until && t < w[k].e)
			return 0;
	return a->nidle < NIDLE || t < w[NIDLE - 1].e;
}

/*
 * Where a sampled trace's frames began: a frame runs on a vsync, and the
 * one a frame asks for comes after the tick it began on, so a frame can
 * begin no earlier than the tick after the one the frame before began on
 * (taken START_SLACK early: a sampled start can be that late). A slice
 * that begins well before that (START_SLACK) was placed at the
 * near end of a stretch no sample saw (unseen native code, which the idle
 * policy gives to the frames that began when neither side's frames are
 * known to call a native): the frame began on that tick, and the stretch
 * before it was the frame before's, which ran until then. A frame's
 * start from the one before's (prev, on grid g); *early: placed early,
 * the frame before ran till then. A trace with a frame timeline or exact
 * slices (not sampled) keeps its slices' starts. Frames in time order,
 * each asked once, as the store comes to the one before.
 */
static int64_t vsync_start(struct grid *g, const struct bt_dframe *ui, int64_t prev, int sampled, int *early)
{
	int64_t first = bt_sat_add(grid_tick(g, bt_sat_add(prev, -START_SLACK)), bt_sat_add(g->period, PHASE_LEAD));
	int64_t end = bt_sat_add(ui->ts, ui->dur);

	*early = sampled && ui->ts < bt_sat_add(first, -START_SLACK);
	return !*early ? ui->ts : first < end ? first : end;
}

/* ui[0..n) and ui[n..m), each sorted, as one sorted run: as a stable sort
 * of the whole has them (the added ones come in the vsyncs' order, which
 * is mostly time order; else they are sorted). Merged from the end, so
 * only the few added ones are copied aside. */
static void merge_frames(struct bt_dframe *ui, size_t n, size_t m)
{
	struct bt_dframe *right;
	size_t i = n, j, k = m;

	for (j = n + 1; j < m; j++)
		if (by_ts(&ui[j - 1], &ui[j]) > 0) {
			qsort(ui, m, sizeof *ui, by_ts);
			return;
		}
	if (m == n || !n || by_ts(&ui[n - 1], &ui[n]) <= 0)
		return;   /* in order already */
	right = bt_xmalloc((m - n) * sizeof *right);
	memcpy(right, ui + n, (m - n) * sizeof *right);
	for (j = m - n; j > 0;)   /* a tie: the earlier run's first, so last here */
		ui[--k] = i > 0 && by_ts(&ui[i - 1], &right[j - 1]) > 0 ? ui[--i] : right[--j];
	free(right);
}

/*
 * The frames a sampled trace shows no slice of: the vsync's callback in
 * the main thread's poll posts the frame's message at the front of the
 * queue, so the message that begins right after a callback (within
 * VSYNC_POST) is its frame when no frame's slice begins between them: a
 * frame shorter than the sampling interval often has no sample of its
 * own. It takes the message's span. ui (sorted, *n of them) grows by
 * those, merged in.
 */
static struct bt_dframe *unsampled_frames(const struct bt_frames *f, struct bt_dframe *ui, size_t *n)
{
	size_t i, j = 0, m = *n, cap = *n;
	uint32_t name = ui[0].frame;   /* the frames' method, for the rows' sake */

	for (i = 0; i < f->nvs; i++) {
		int64_t ts, end;
		if (!bt_late_after(f->late, f->vs[i].ts, &ts, &end) || ts > bt_sat_add(f->vs[i].end, VSYNC_POST))
			continue;
		while (j < *n && ui[j].ts < f->vs[i].ts)
			j++;
		if (j < *n && ui[j].ts < end)
			continue;   /* the frame was sampled */
		BT_GROW(ui, m + 1, cap);
		ui[m++] = (struct bt_dframe){ ts, end - ts, -1, name };
	}
	merge_frames(ui, *n, m);
	*n = m;
	return ui;
}

/* A frame timeline's expected frames by token (ascending). */
struct expected_frame { int64_t token, ts, dur; };

static int load_expected(struct bt_db *db, struct expected_frame **v, size_t *n, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	*v = NULL, *n = 0;
	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_EXPECTED_BY_TOKEN, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		BT_GROW(*v, *n + 1, cap);
		(*v)[*n].token = bt_rows_int(r, 0);
		(*v)[*n].ts = bt_rows_int(r, 1);
		(*v)[(*n)++].dur = bt_rows_int(r, 2);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static const struct expected_frame *expected_of(const struct expected_frame *v, size_t n, int64_t token)
{
	size_t lo = bt_first_ge(v, n, sizeof *v, offsetof(struct expected_frame, token), token);

	return token >= 0 && lo < n && v[lo].token == token ? &v[lo] : NULL;
}

/* The frames' records in time order: read one after another as they
 * closed, which is time order but where a frame began before the one
 * closed before it (a hostile trace's): then all read and sorted. */
struct frame_reader {
	const unsigned char *p;
	size_t left;              /* records not read */
	struct frame_methods cur; /* the one read last, where have */
	int have;
	struct frame_methods *all;   /* unsorted: every record, sorted, and the next one's index */
	size_t n, at;
};

static void reader_next(struct frame_reader *r)
{
	r->have = r->left > 0;
	if (r->have) {
		frame_get(&r->p, r->cur.ts, &r->cur);
		r->left--;
	}
}

static void reader_open(struct frame_reader *r, const struct bt_frames *f)
{
	size_t i;

	memset(r, 0, sizeof *r);
	r->p = f ? f->rec : NULL;
	r->left = f ? f->nrec : 0;
	if (!f || !f->unsorted) {
		reader_next(r);
		return;
	}
	r->all = bt_xmalloc((r->left ? r->left : 1) * sizeof *r->all);
	for (i = 0; r->left; i++) {
		reader_next(r);
		r->all[r->n++] = r->cur;
	}
	bt_sort_unless_sorted(r->all, r->n, sizeof *r->all, by_methods_ts);
}

/* The frame's methods, found by its start: the first record at or after
 * ts on, which the caller's frames, asked in order, move forward. */
static const struct frame_methods *methods_of(struct frame_reader *r, int64_t ts)
{
	if (r->all) {
		while (r->at < r->n && r->all[r->at].ts < ts)
			r->at++;
		return r->at < r->n && r->all[r->at].ts == ts ? &r->all[r->at] : NULL;
	}
	while (r->have && r->cur.ts < ts)
		reader_next(r);
	return r->have && r->cur.ts == ts ? &r->cur : NULL;
}

int bt_frames_store(struct bt_frames *f, struct bt_display *d, int64_t tid, struct bt_db *db,
		    struct bt_err *err)
{
	struct bt_dframe *ui;
	struct frame_evidence e;
	struct frame_sums sums;
	struct expected_frame *xv = NULL;
	struct bt_ui_frames *rows;
	int64_t period, phase, prev_exp = INT64_MIN, start = 0, after = 0;   /* after: the next frame's start */
	struct grid g, gs;   /* the ticks the frames asked for, and those their starts read */
	struct frame_reader fr;
	size_t i, n = d->nui, nx = 0;
	int rc, sampled;

	if (!d->nui)
		return BT_OK;
	reader_open(&fr, f);
	memset(&e, 0, sizeof e);
	bt_map64_init(&e.short_of, 64);
	bt_buf_init(&e.shorts);
	memset(&sums, 0, sizeof sums);
	bt_strmap_init(&sums.held);
	ui = bt_xmalloc(n * sizeof *ui);
	memcpy(ui, d->ui, n * sizeof *ui);
	bt_sort_unless_sorted(ui, n, sizeof *ui, by_ts);
	if ((rc = timeline_period(db, &period, err)) == BT_OK && !period)
		period = cadence_period(ui, n);
	phase = rc ? 0 : grid_phase(ui, n, period);
	if (!rc)
		rc = load_expected(db, &xv, &nx, err);
	if (!rc)
		rc = load_evidence_sorted(&e, db, tid, err);
	if (!rc && f)
		bt_late_ready(f->late);
	sampled = f && f->idle_any && !nx;   /* neither a timeline nor exact slices */
	if (!rc && sampled)
		ui = unsampled_frames(f, ui, &n);
	rows = bt_ui_frames_new(tid, period, n);   /* the frames are all here */
	g = grid_new(phase, period);
	gs = grid_new(phase, period);
	for (i = 0, after = n ? ui[0].ts : 0; i < n && !rc; i++) {
		struct bt_display_hit hit;
		int64_t exp, deadline, missed = 0;
		char *cause = NULL;
		const struct frame_methods *a = methods_of(&fr, ui[i].ts);
		const struct expected_frame *x = expected_of(xv, nx, ui[i].vsync);
		int64_t end = bt_sat_add(ui[i].ts, ui[i].dur);
		int early = 0;
		start = after;
		if (i + 1 < n)
			after = vsync_start(&gs, &ui[i + 1], start, sampled, &early);
		bt_display_of(d, &ui[i], &hit);
		if (early && after > hit.end)   /* the frame after began before its slice: this one ran till then */
			hit.end = after;
		exp = grid_tick(&g, start);
		/* its message began before it (a wait for a GC first): it was
		 * posted on a tick before that */
		if (sampled && a && start == ui[i].ts && a->msg_ts < start)
			exp = grid_tick(&g, a->msg_ts);
		if (f && f->idle_any && a && a->prev_end >= 0 && start == ui[i].ts) {
			int64_t next = bt_sat_add(grid_tick(&g, a->prev_end), period);
			if (next < exp && no_wait(a, next, next))
				exp = next;
			/* no wait for work since the tick after the frame before
			 * asked for the next vsync (first_callback): that vsync
			 * was pending since, and this frame is for it */
			if (a->prev_ask >= 0) {
				next = bt_sat_add(grid_tick(&g, a->prev_ask), period);
				if (next < exp && no_wait(a, next, INT64_MAX))
					exp = next;
			}
		}
		/* one frame a vsync: a start placed just before the tick after
		 * the frame before's (START_SLACK: in the gap before its first
		 * sample) was placed early, not on the same vsync; one placed
		 * well before says the frame before's vsync was earlier */
		if (sampled && i && exp < bt_sat_add(prev_exp, period) &&
		    start >= bt_sat_add(bt_sat_add(prev_exp, period), -START_SLACK))
			exp = bt_sat_add(prev_exp, period);
		prev_exp = exp;
		deadline = bt_sat_add(exp, period);
		if (x)   /* the frame timeline says when it should have started and ended */
			exp = x->ts, deadline = bt_sat_add(x->ts, x->dur);
		if (hit.end > deadline) {
			uint64_t late = (uint64_t)hit.end - (uint64_t)deadline;   /* fits: end > deadline */
			missed = (int64_t)(late / (uint64_t)period + (late % (uint64_t)period != 0));
			cause = cause_line(&e, a, f ? f->late : NULL, start, hit.end, exp);
		}
		frame_sum(&sums, &e, a, start, end, missed > 0);
		{
			const struct bt_ui_frame_row r = { start, ui[i].vsync, end - start, hit.end, exp,
							deadline, hit.drawn ? hit.draw.ts : 0,
							hit.drawn ? hit.draw.dur : 0, hit.drawn, cause };
			bt_ui_frames_add(rows, &r);
		}
	}
	if (!rc)
		rc = store_sums(&sums, f, tid, db, err);
	if (!rc)
		rc = bt_ui_frames_attach(rows, db, err);
	else
		bt_ui_frames_free(rows);
	evidence_release(&e);
	sums_release(&sums);
	free(xv);
	free(ui);
	free(fr.all);
	return rc;
}
