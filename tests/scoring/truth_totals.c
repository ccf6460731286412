/*
 * truth_totals: a simulated dump's true time per (thread, method), for
 * tests/fixtures/score_threads.py, which used to read the 300k-line truth
 * of a 20k-record device dump itself (2 s of Python a dump, 50-odd dumps a
 * suite; this takes a fifth of that: 0.4 s).
 *
 * usage: truth_totals INTERVALS.tsv [IDLE.tsv]
 *
 * INTERVALS.tsv: the writers' truth activations (a header naming tid,
 * begin_ns, end_ns, symbol and cpu_ns among its columns, tab-separated).
 * Per (tid, symbol), one line
 *
 *     tid  wall_ns  cpu_ns  idle  symbol
 *
 * wall and CPU inclusive, nested activations of the symbol on the thread
 * counted once (the outermost, DESIGN §5); idle 1 when some activation of
 * it holds idle time of its thread (IDLE.tsv's rows of tid, begin_ns,
 * end_ns with end > begin): the last stretch beginning before the
 * activation's end ends after its start. Lines in no set order.
 * Exit 1 with a message on a file it cannot read or a line it cannot parse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/scoring/syms.h"

struct row { int64_t tid, b, e, cpu; uint32_t sym, line; };
struct span { int64_t tid, b, e; };
struct sum { int64_t wall, cpu; int open, idle, seen; };

static void die(const char *path, const char *what, size_t line)
{
	fprintf(stderr, "truth_totals: %s: %s (line %zu)\n", path, what, line);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	if (!(p = realloc(p, n ? n : 1))) {
		fputs("truth_totals: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

/* The whole file, NUL-terminated; *n its length. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0, got;
	struct stat st;

	if (!f)
		return NULL;
	if (!fstat(fileno(f), &st) && st.st_size > 0)   /* one block where the size is known */
		buf = xrealloc(NULL, cap = (size_t)st.st_size + 2);
	do {
		if (cap - len < 2)
			buf = xrealloc(buf, cap = 2 * cap + 65536);
		len += got = fread(buf + len, 1, cap - len - 1, f);
	} while (got > 0);
	if (ferror(f))
		die(path, "read error", 0);
	fclose(f);
	buf[len] = 0;
	*n = len;
	return buf;
}

/* The next line of *p cut into at most max tab-separated fields (the
 * last holds the rest); its field count, 0 at the end. */
static int fields(char **p, char **f, int max)
{
	char *s = *p, *eol;
	int n = 0;

	if (!*s)
		return 0;
	eol = strchr(s, '\n');
	if (eol)
		*eol = 0, *p = eol + 1;
	else
		*p = s + strlen(s);
	if (eol > s && eol[-1] == '\r')
		eol[-1] = 0;
	f[n++] = s;
	while (n < max && (s = strchr(s, '\t')))
		*s++ = 0, f[n++] = s;
	return n;
}

static int column(char **head, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(head[i], name))
			return i;
	return -1;
}

static int64_t num(const char *s, const char *path, size_t line)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || (*end && *end != '\t'))
		die(path, "not a number", line);
	return v;
}

#define MAX_COLS 64   /* a header's columns read */

/* A tab-separated file read whole: its header's columns found by name,
 * then its rows. */
struct tsv { const char *path; char *buf, *p; size_t line; int last; };

/* Open path and find each of the n names among its header's columns
 * (idx[i]; dies when one is missing): 1, or 0 when it cannot be opened. */
static int tsv_open(struct tsv *t, const char *path, const char *const *names, int *idx, int n)
{
	char *f[MAX_COLS];
	size_t len;
	int nh, i;

	if (!(t->buf = slurp(path, &len)))
		return 0;
	t->path = path;
	t->p = t->buf;
	t->line = 1;
	t->last = 0;
	nh = fields(&t->p, f, MAX_COLS);
	for (i = 0; i < n; i++) {
		if ((idx[i] = column(f, nh, names[i])) < 0) {
			fprintf(stderr, "truth_totals: %s: no %s column (line 1)\n", path, names[i]);
			exit(1);
		}
		t->last = idx[i] > t->last ? idx[i] : t->last;
	}
	return 1;
}

/* The next row's fields into f[0..last + 1] (those after the last column
 * asked for in one): 1, or 0 at the end; dies on a short row. */
static int tsv_row(struct tsv *t, char **f)
{
	int k = fields(&t->p, f, t->last + 2);

	if (!k)
		return 0;
	t->line++;
	if (k <= t->last)
		die(t->path, "too few fields", t->line);
	return 1;
}

/* By thread, then start, the longer first, then the file's order: a
 * thread's activations parents first. */
static int by_start(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

static int by_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return (a->e > b->e) - (a->e < b->e);
}

/* Whether [b, e) of thread tid holds idle time: the last stretch (by
 * start, then end) at or before (e, e) ends after b and starts before e.
 * v[lo, hi) are the thread's stretches. */
static int holds_idle(const struct span *v, size_t lo, size_t hi, int64_t b, int64_t e)
{
	while (lo < hi) {   /* the first stretch after (e, e) */
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].b < e || (v[mid].b == e && v[mid].e <= e))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && v[lo - 1].e > b && v[lo - 1].b < e;
}

static struct span *read_idle(const char *path, size_t *n)
{
	static const char *const names[] = { "tid", "begin_ns", "end_ns" };
	struct tsv t;
	struct span *v = NULL;
	char *f[MAX_COLS + 1];
	int c[3];
	size_t cap = 0;

	*n = 0;
	if (!tsv_open(&t, path, names, c, 3))
		return NULL;   /* no idle truth: none */
	while (tsv_row(&t, f)) {
		struct span s = { num(f[c[0]], path, t.line), num(f[c[1]], path, t.line),
				  num(f[c[2]], path, t.line) };
		if (s.e <= s.b)
			continue;
		if (*n == cap)
			v = xrealloc(v, (cap = cap ? 2 * cap : 4096) * sizeof *v);
		v[(*n)++] = s;
	}
	if (*n)
		qsort(v, *n, sizeof *v, by_span);
	free(t.buf);
	return v;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : NULL;
	struct syms syms = { 0 };
	struct row *rows = NULL, *stack = NULL;
	struct span *idle;
	struct sum *sum;
	uint32_t *touched;
	static const char *const names[] = { "tid", "begin_ns", "end_ns", "symbol", "cpu_ns" };
	struct tsv t;
	size_t nrows = 0, cap = 0, nidle, i, j, lo = 0, hi = 0, nt = 0, depth = 0;
	char *f[MAX_COLS + 1];
	int c[5];

	if (argc < 2 || argc > 3) {
		fputs("usage: truth_totals INTERVALS.tsv [IDLE.tsv]\n", stderr);
		return 2;
	}
	if (!tsv_open(&t, path, names, c, 5))
		die(path, "cannot open", 0);
	while (tsv_row(&t, f)) {
		struct row r = { num(f[c[0]], path, t.line), num(f[c[1]], path, t.line),
				 num(f[c[2]], path, t.line), num(f[c[4]], path, t.line), intern(&syms, f[c[3]], NULL),
				 (uint32_t)t.line };
		if (nrows == cap)
			rows = xrealloc(rows, (cap = cap ? 2 * cap : 65536) * sizeof *rows);
		rows[nrows++] = r;
	}
	if (nrows)   /* (no rows: no array) */
		qsort(rows, nrows, sizeof *rows, by_start);
	idle = argc > 2 ? read_idle(argv[2], &nidle) : (nidle = 0, NULL);
	sum = xrealloc(NULL, (syms.n ? syms.n : 1) * sizeof *sum);
	memset(sum, 0, (syms.n ? syms.n : 1) * sizeof *sum);
	touched = xrealloc(NULL, (syms.n ? syms.n : 1) * sizeof *touched);
	stack = xrealloc(NULL, (nrows ? nrows : 1) * sizeof *stack);
	for (i = 0; i <= nrows; i++) {
		const struct row *r = i < nrows ? &rows[i] : NULL;
		if (!r || !i || r->tid != rows[i - 1].tid) {   /* a thread's totals, then the next's */
			for (j = 0; j < nt; j++) {
				struct sum *s = &sum[touched[j]];
				printf("%lld\t%lld\t%lld\t%d\t%s\n", (long long)rows[i - 1].tid, (long long)s->wall,
				       (long long)s->cpu, s->idle, syms.name[touched[j]]);
				*s = (struct sum){ 0 };
			}
			nt = depth = 0;
			if (!r)
				break;
			while (lo < nidle && idle[lo].tid < r->tid)
				lo++;
			for (hi = lo; hi < nidle && idle[hi].tid == r->tid; hi++)
				;
		}
		while (depth && stack[depth - 1].e <= r->b)
			sum[stack[--depth].sym].open--;
		if (!sum[r->sym].seen)
			sum[r->sym].seen = 1, touched[nt++] = r->sym;
		if (!sum[r->sym].open) {
			sum[r->sym].wall += r->e - r->b;
			sum[r->sym].cpu += r->cpu;
		}
		if (!sum[r->sym].idle && hi > lo)
			sum[r->sym].idle = holds_idle(idle, lo, hi, r->b, r->e);
		stack[depth++] = *r;
		sum[r->sym].open++;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fputs("truth_totals: write error\n", stderr);
		return 1;
	}
	free(stack);
	free(touched);
	free(sum);
	free(idle);
	free(rows);
	free(syms.slot);
	free(syms.name);
	free(t.buf);
	return 0;
}
