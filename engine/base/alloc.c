/*
 * Allocators that end the run on out-of-memory, and the bt_buf string
 * builder.
 */
#define _DEFAULT_SOURCE   /* madvise(MADV_HUGEPAGE) */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/base/alloc.h"

char bt_buf_empty[1];

/* Atomic: set on the main thread, read by whichever thread runs out. */
static _Atomic(const char *) doing_what, doing_subject;

void bt_alloc_doing(const char *what, const char *subject)
{
	atomic_store(&doing_subject, subject);
	atomic_store(&doing_what, what);
}

/* No allocation here: the message is printed with what is at hand. */
_Noreturn void bt_alloc_fail(size_t n)
{
	const char *what = atomic_load(&doing_what), *subject = atomic_load(&doing_subject);

	if (what && subject)
		fprintf(stderr, "btrace-analyze: error: out of memory allocating %zu bytes (%s '%s')\n", n, what,
			subject);
	else if (what)
		fprintf(stderr, "btrace-analyze: error: out of memory allocating %zu bytes (%s)\n", n, what);
	else
		fprintf(stderr, "btrace-analyze: error: out of memory allocating %zu bytes\n", n);
	exit(1);
}

static void oom(size_t n)
{
	bt_alloc_fail(n);
}

/*
 * Huge pages for the big arrays. A 1M-record analysis touched 280 MB of
 * fresh memory a 4 KiB page at a time: 72k page faults, a quarter of its
 * CPU on these VMs (~9.6 us each). An array of a huge page or more asks
 * the kernel for transparent huge pages (THP "madvise", the usual default;
 * "always" gives them anyway, "never" none), which it grants for each
 * whole, aligned 2 MiB inside the mapping. From ROUND_FROM on the request
 * is rounded up to whole huge pages less malloc's chunk header: glibc then
 * maps exactly that many, and the kernel (6.7 on) puts such a mapping, and
 * realloc's mremap of it, on a 2 MiB boundary, so that every huge page
 * counts and survives the array's growth (advice alone, without it: more
 * faults, BENCHMARKS.md). Below ROUND_FROM the rounding's partly used last
 * huge page cost more memory than it saved time (peak RSS +15 MiB when
 * rounding from 2 MiB).
 */
#define HUGE_PAGE ((size_t)2 << 20)
#define ROUND_FROM (8 * HUGE_PAGE)
#define CHUNK_HEAD 24   /* glibc's size field, and its 16-byte rounding */

size_t bt_grow_fit(size_t cap, size_t size, size_t need)
{
	size_t b = cap * size;

	if (b < ROUND_FROM || b % HUGE_PAGE || (b - CHUNK_HEAD) / size < need)
		return cap;
	return (b - CHUNK_HEAD) / size;   /* 2^k bytes would take one more huge page for its header */
}

static size_t huge_round(size_t n)
{
	if (n < ROUND_FROM || n > SIZE_MAX / 2)
		return n;
	return ((n + CHUNK_HEAD + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)) - CHUNK_HEAD;
}

/* Out of line: inlined, it changed what GCC's -Wstringop-overflow saw in
 * bt_buf_add's callers. */
__attribute__((noinline)) static void advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)4095;

	madvise((void *)a, (uintptr_t)p + n - a, MADV_HUGEPAGE);   /* only advice: a refusal changes nothing */
#else
	(void)p, (void)n;
#endif
}

void *bt_xmalloc(size_t n)
{
	void *p;

	n = huge_round(n);
	p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	if (n >= HUGE_PAGE)
		advise_huge(p, n);
	return p;
}

/* Zeroed by writing, not left to the kernel's zero page: a page first
 * read there and written later is copied on write, which flushes the
 * other cores' TLBs; with threads running (the reconstruction's helper,
 * the exports) each such fault stops them all (10 % of an export's time
 * on a VM). */
void *bt_xcalloc(size_t nmemb, size_t size)
{
	size_t n;
	void *p;

	if (!nmemb || !size)
		nmemb = size = 1;
	if (nmemb > (size_t)-1 / size)
		oom((size_t)-1);
	n = nmemb * size;
	p = bt_xmalloc(n);
	memset(p, 0, n);
	return p;
}

void *bt_xrealloc(void *p, size_t n)
{
	void *q;

	n = huge_round(n);
	q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	if (n >= HUGE_PAGE)
		advise_huge(q, n);
	return q;
}

char *bt_xstrndup(const char *s, size_t n)
{
	char *p = bt_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *bt_xstrdup(const char *s)
{
	return bt_xstrndup(s, strlen(s));
}

void bt_buf_init(struct bt_buf *b)
{
	b->buf = bt_buf_empty;
	b->len = b->cap = 0;
}

void bt_buf_release(struct bt_buf *b)
{
	if (b->cap)
		free(b->buf);
	bt_buf_init(b);
}

void bt_buf_reset(struct bt_buf *b)
{
	b->len = 0;
	if (b->cap)
		b->buf[0] = '\0';
}

void bt_buf_setlen(struct bt_buf *b, size_t len)
{
	b->len = len;
	if (b->cap)
		b->buf[len] = '\0';
}

void bt_buf_grow(struct bt_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->cap)
		return;
	if (!b->cap) {
		b->buf = NULL;
	}
	BT_GROW(b->buf, need, b->cap);
}

void bt_buf_add(struct bt_buf *b, const void *data, size_t len)
{
	bt_buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void bt_buf_adds(struct bt_buf *b, const char *s)
{
	bt_buf_add(b, s, strlen(s));
}

void bt_buf_addc(struct bt_buf *b, char c)
{
	bt_buf_add(b, &c, 1);
}

void bt_buf_addi(struct bt_buf *b, int64_t v)
{
	char d[24];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = sizeof d;

	do
		d[--n] = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		d[--n] = '-';
	bt_buf_add(b, d + n, sizeof d - n);
}

void bt_buf_vaddf(struct bt_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	bt_buf_grow(b, (size_t)n);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void bt_buf_addf(struct bt_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *bt_buf_detach(struct bt_buf *b, size_t *len)
{
	char *s = b->cap ? b->buf : bt_xstrdup("");

	if (len)
		*len = b->len;
	bt_buf_init(b);
	return s;
}

void *bt_grow_zero(void *p, size_t size, size_t *cap, size_t i)
{
	size_t nc = *cap ? *cap : 1024;

	if (i < *cap)
		return p;
	while (nc <= i)
		nc *= 2;
	nc = bt_grow_fit(nc, size, i + 1);
	p = bt_xrealloc(p, nc * size);
	memset((char *)p + *cap * size, 0, (nc - *cap) * size);
	*cap = nc;
	return p;
}

