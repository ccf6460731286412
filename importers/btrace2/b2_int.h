/*
 * Internals of the btrace 2.0 importer (btrace2.c): the record layout of
 * appTrace.bin, the method names of methodMapping.txt (b2_mapping.c) and
 * the nesting of each thread's records into slices (b2_tree.c).
 */
#ifndef BT_B2_INT_H
#define BT_B2_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/recon/feed.h"

#define B2_HEADER 32
#define B2_RECORD 16
#define B2_NMID (1u << 23)       /* method ids are 23 bits */
#define B2_NTID (1u << 15)       /* tids 15 */
#define B2_SPAN ((uint64_t)1 << 45)   /* starts and durations 45 */

/*
 * A record as the writer packs it: rhea-atrace's binary_trace.cpp
 * (bytedance/btrace, btrace-android/rhea-android/rhea-atrace/src/main/cpp),
 * JNI_CriticalTraceEnd, at each instrumented method's exit:
 *   a = startTime << 19 | dur >> 26
 *   b = (dur & 0x3FFFFFF) << 38 | tid << 23 | mid
 * startTime (45 bits) is the method's begin less the header's
 * monotonicTime, dur 45 bits (19 high in a, 26 low in b: the writer's
 * comment says 25 but its mask keeps 26), tid 15 bits, mid 23. Upstream's
 * reader (rhea-trace-processor's AppTraceProcessor.processBinary) undoes
 * it the same way: start a >>> 19, dur (a & 0x7FFFF) << 26 | b >>> 38,
 * tid (b >>> 23) & 0x7FFF, mid b & 0x7FFFFF.
 */
struct b2_rec {
	uint64_t a, b;
};

static inline uint64_t b2_start(const struct b2_rec *r)
{
	return r->a >> 19;
}

static inline uint64_t b2_dur(const struct b2_rec *r)
{
	return (r->a & 0x7FFFF) << 26 | r->b >> 38;
}

static inline uint64_t b2_end(const struct b2_rec *r)
{
	return b2_start(r) + b2_dur(r);
}

static inline uint32_t b2_tid(const struct b2_rec *r)
{
	return (uint32_t)(r->b >> 23) & 0x7FFF;
}

static inline uint32_t b2_mid(const struct b2_rec *r)
{
	return (uint32_t)r->b & 0x7FFFFF;
}

/* Once gathered (struct b2_trace), a record holds its frame id where the
 * method id was: frame ids are at most as many as method ids. */
static inline void b2_set_frame(struct b2_rec *r, uint32_t frame)
{
	r->b = (r->b & ~(uint64_t)0x7FFFFF) | frame;
}

/* Set start and duration (each below B2_SPAN), keeping tid and mid. */
static inline void b2_set(struct b2_rec *r, uint64_t start, uint64_t dur)
{
	r->a = start << 19 | dur >> 26;
	r->b = (dur & 0x3FFFFFF) << 38 | (r->b & (((uint64_t)1 << 38) - 1));
}

/* ---- b2_mapping.c: methodMapping.txt */

/* Method names by frame id: the methods the trace uses, each given a
 * dense frame id (1..n) in method id order. */
struct b2_names {
	uint64_t *used;          /* bitmap over method ids */
	uint32_t *rank;          /* used ids below each 64-id word */
	uint32_t top;            /* the largest used id + 1 */
	uint32_t n;              /* frames */
	uint32_t *name;          /* by frame id: offset + 1 into pool, 0 unnamed */
	struct bt_buf pool;
};

void b2_names_init(struct b2_names *nm);
void b2_names_release(struct b2_names *nm);
static inline void b2_names_use(struct b2_names *nm, uint32_t mid)
{
	nm->used[mid >> 6] |= (uint64_t)1 << (mid & 63);
	if (mid >= nm->top)
		nm->top = mid + 1;
}
/* After every b2_names_use: number the used ids. */
void b2_names_rank(struct b2_names *nm);
/* The frame id of a method id (0 if unused): its rank among the used. */
static inline uint32_t b2_frame(const struct b2_names *nm, uint32_t mid)
{
	uint64_t w = nm->used[mid >> 6];

	if (!(w >> (mid & 63) & 1))
		return 0;
	return nm->rank[mid >> 6] + (uint32_t)__builtin_popcountll(w & ((((uint64_t)1) << (mid & 63)) - 1)) + 1;
}

/*
 * Read the mapping text[0..len) of path: the names of the used methods,
 * as PrettyMethod prints them ("void com.foo.Bar.baz(java.lang.String,
 * int)"). Lines are "id,access,class method desc" (btrace 2.0 and Tencent
 * Matrix alike; desc absent for a native method), '#' comments and blank
 * lines. A malformed line, a second line for an id, an id beyond the
 * trace's 23 bits are counted in diag and skipped. Never fails.
 */
void b2_names_load(struct b2_names *nm, const char *text, size_t len, const char *path,
		   struct bt_diag *diag);
/* A frame's name, or NULL when the mapping gave none. */
const char *b2_names_get(const struct b2_names *nm, uint32_t frame);

/* PrettyMethod of a JVM method: "RET CLASS.METHOD(P1, P2)" from the
 * descriptor desc ('/' or '.' in class names), appended to b; 0 (and b
 * unchanged) if desc is no method descriptor. */
int b2_pretty(struct bt_buf *b, const char *cls, size_t clen, const char *method, size_t mlen,
	      const char *desc, size_t dlen);

/* ---- b2_tree.c: each thread's records nested into slices */

/* The records of every thread, grouped by tid in ascending order, each
 * thread's in file order (then as b2_tree_feed left them), with frame ids
 * for method ids (b2_set_frame). */
struct b2_trace {
	struct b2_rec *rec;
	size_t n;
	uint32_t *first;         /* by tid: index of its first record; first[B2_NTID] = n */
	int64_t base;            /* boot-clock ns of start 0 */
	/* work space, sized to the largest thread */
	uint32_t *size, *parent, *dep;
	struct b2_pending { uint64_t start, end; uint32_t i; } *stack;
	struct b2_rec *pre;
	size_t wcap;
};

/* What b2_tree_feed found and fixed (counted on its first run only). */
struct b2_fixes {
	uint64_t unordered_threads, unordered, overlaps, deep;
	int64_t deep_tid;
};

/* Give every slice to f, thread by thread, each thread's in preorder.
 * Sorts and clips t's records in place as fixes says, so a second run
 * gives the same slices. */
int b2_tree_feed(struct b2_trace *t, struct bt_feed *f, struct b2_fixes *fixes, struct bt_err *err);
/* Free the work space (b2_tree_feed makes it again). */
void b2_trace_drop_work(struct b2_trace *t);
void b2_trace_release(struct b2_trace *t);

#endif
