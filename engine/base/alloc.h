/*
 * Allocation wrappers that end the run on out-of-memory, so callers never
 * check for NULL (git's xmalloc, Redis's zmalloc), and a growable byte
 * buffer modelled on git's strbuf.
 */
#ifndef BT_ALLOC_H
#define BT_ALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"

/*
 * On allocation failure these print "btrace-analyze: error: out of memory
 * allocating N bytes (ACTIVITY)" and exit(1) (not abort: no core, and the
 * atexit handlers that remove temporary files run).
 */
void *bt_xmalloc(size_t n);
void *bt_xcalloc(size_t nmemb, size_t size);
void *bt_xrealloc(void *p, size_t n);
char *bt_xstrdup(const char *s);
char *bt_xstrndup(const char *s, size_t n);

/* Name what the run is doing for the out-of-memory message: "what
 * 'subject'" (e.g. "importing", a path), or nothing with NULL what. Both
 * strings are borrowed and must stay valid until the next call; set by
 * the big phases on the main thread, read by any thread. */
void bt_alloc_doing(const char *what, const char *subject);
/* Report an allocation of n bytes that failed elsewhere (SQLite,
 * libxlsxwriter, protobuf-c) as bt_xmalloc does, and exit(1). */
_Noreturn void bt_alloc_fail(size_t n);

/* The capacity to give an array of elements of size that needs need and
 * would get cap: cap, or a few elements fewer where its 2^k bytes and
 * malloc's header would start one more huge page (bt_xmalloc). */
size_t bt_grow_fit(size_t cap, size_t size, size_t need);

/* Grow *p (holding *cap elements of size) to at least need elements. */
#define BT_GROW(p, need, cap) \
	do { \
		if ((size_t)(need) > (cap)) { \
			size_t nc_ = (cap) ? (cap) * 2 : 16; \
			while (nc_ < (size_t)(need)) \
				nc_ *= 2; \
			nc_ = bt_grow_fit(nc_, sizeof *(p), (size_t)(need)); \
			(p) = bt_xrealloc((p), nc_ * sizeof *(p)); \
			(cap) = nc_; \
		} \
	} while (0)

/* Grow *p, holding *cap elements of size, to hold index i; the new
 * elements are zero. Returns the (possibly moved) array. */
void *bt_grow_zero(void *p, size_t size, size_t *cap, size_t i);

/* a + b, held at INT64_MAX or INT64_MIN instead of overflowing: sums of
 * many values (profile totals) stay defined whatever the input holds. */
static inline int64_t bt_sat_add(int64_t a, int64_t b)
{
#if defined(__GNUC__)   /* one add and a branch on its overflow flag: the slicer's sums run per slice */
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
#else
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
#endif
}

/* The bits n needs: 0 for 0, k + 1 for 2^k .. 2^(k+1) - 1. */
static inline uint32_t bt_bit_length(uint64_t n)
{
#if defined(__GNUC__)
	return n ? 64 - (uint32_t)__builtin_clzll(n) : 0;
#else
	uint32_t b = 0;

	while (b < 64 && n >> b)
		b++;
	return b;
#endif
}

/* a - b held the same way: a time since the start of a value the input
 * set (a finding's ts at INT64_MIN). */
static inline int64_t bt_sat_sub(int64_t a, int64_t b)
{
	if (b < 0 && a > INT64_MAX + b)
		return INT64_MAX;
	if (b > 0 && a < INT64_MIN + b)
		return INT64_MIN;
	return a - b;
}

/* A NUL-terminated growable string; buf is never NULL after init. */
struct bt_buf {
	char *buf;
	size_t len;
	size_t cap;
};

#define BT_BUF_INIT { bt_buf_empty, 0, 0 }
extern char bt_buf_empty[];

void bt_buf_init(struct bt_buf *b);
void bt_buf_release(struct bt_buf *b);
void bt_buf_reset(struct bt_buf *b);
/* Cut the string to its first len bytes (len <= b->len). */
void bt_buf_setlen(struct bt_buf *b, size_t len);
void bt_buf_grow(struct bt_buf *b, size_t extra);
void bt_buf_add(struct bt_buf *b, const void *data, size_t len);
void bt_buf_adds(struct bt_buf *b, const char *s);
void bt_buf_addc(struct bt_buf *b, char c);
/* v in decimal ("%lld" without printf's format parsing, which costs
 * more than the digits where a writer adds them by the hundred thousand). */
void bt_buf_addi(struct bt_buf *b, int64_t v);
void bt_buf_addf(struct bt_buf *b, const char *fmt, ...) BT_PRINTF(2, 3);
void bt_buf_vaddf(struct bt_buf *b, const char *fmt, va_list ap) BT_PRINTF(2, 0);
/* Hand the string to the caller, who frees it; b is reset. */
char *bt_buf_detach(struct bt_buf *b, size_t *len);

#endif
