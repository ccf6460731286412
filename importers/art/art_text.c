/*
 * The text of an ART method trace: the key before a legacy trace's data
 * ("*version", options, "*threads", "*methods", "*end") and the summary
 * that ends a streaming one, in the layout ART's trace.cc and TraceView's
 * VmTraceParser share. Method lines become PrettyMethod-like names,
 * "void com.foo.Bar.baz(int, java.lang.String)", which the rest of the
 * tool reads as it reads a dump's symbols.
 */
#include <stdio.h>
#include <string.h>

#include "engine/base/utf8.h"
#include "importers/art/art_int.h"

size_t art_intern(struct art *a, const char *s, size_t len, size_t at, const char *what)
{
	size_t off = a->pool.len;

	if (!bt_utf8_valid(s, len))
		bt_diag_warn(a->diag, "invalid_utf8", "%s at offset %zu of '%s' is not UTF-8; bad bytes shown as U+FFFD",
			     what, at, a->path);
	bt_utf8_sanitize(&a->pool, s, len);
	bt_buf_addc(&a->pool, '\0');
	return off;
}

struct art_thread *art_thread_get(struct art *a, int64_t tid)
{
	uint32_t i = bt_map64_get(&a->thread_of, (uint64_t)tid);
	struct art_thread *t;

	if (i)
		return &a->threads[i - 1];
	BT_GROW(a->threads, a->nthreads + 1, a->tcap);
	t = &a->threads[a->nthreads++];
	memset(t, 0, sizeof *t);
	t->tid = tid;
	bt_map64_put(&a->thread_of, (uint64_t)tid, (uint32_t)a->nthreads);
	return t;
}

struct art_method *art_method_find(struct art *a, uint64_t id)
{
	uint32_t i = bt_map64_get(&a->method_of, id & ~(uint64_t)3);

	return i ? &a->methods[i - 1] : NULL;
}

static struct art_method *method_add(struct art *a, uint64_t id, size_t name)
{
	struct art_method *m;

	BT_GROW(a->methods, a->nmethods + 1, a->mcap);
	m = &a->methods[a->nmethods++];
	m->id = id & ~(uint64_t)3;
	m->name = name;
	m->frame = 0;
	bt_map64_put(&a->method_of, m->id, (uint32_t)a->nmethods);
	return m;
}

struct art_method *art_method_placeholder(struct art *a, uint64_t id)
{
	char name[48];
	int n = snprintf(name, sizeof name, "<unknown method 0x%llx>", (unsigned long long)(id & ~(uint64_t)3));

	return method_add(a, id, art_intern(a, name, (size_t)n, 0, "a placeholder"));
}

/* An unsigned number: decimal, or hex after 0x (as Long.decode reads
 * ART's and Dalvik's ids and tids). -1 unless all of s[0..len) is one. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	int base = 10, d;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, i = 2;
	if (i == len)
		return -1;
	for (; i < len; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* A class as Java prints it: "com/foo/Bar" and "Lcom/foo/Bar;" are
 * "com.foo.Bar". */
static void add_class(struct bt_buf *b, const char *s, size_t len)
{
	size_t i;

	if (len >= 2 && s[0] == 'L' && s[len - 1] == ';')
		s++, len -= 2;
	for (i = 0; i < len; i++)
		bt_buf_addc(b, s[i] == '/' ? '.' : s[i]);
}

/* One type of a descriptor at *p (before end), as Java prints it; 0 if
 * none is there. */
static int add_type(struct bt_buf *b, const char **p, const char *end)
{
	static const char prim[] = "BbyteCcharDdoubleFfloatIintJlongSshortZbooleanVvoid";
	const char *s = *p, *semi;
	size_t dims = 0, i;

	while (s < end && *s == '[')
		dims++, s++;
	if (s >= end)
		return 0;
	if (*s == 'L') {
		semi = memchr(s, ';', (size_t)(end - s));
		if (!semi || semi == s + 1)
			return 0;
		add_class(b, s + 1, (size_t)(semi - s - 1));
		s = semi + 1;
	} else {
		const char *k = strchr(prim, *s), *n;
		if (!k || *s < 'A' || *s > 'Z')
			return 0;
		for (n = k + 1; *n >= 'a'; n++)
			bt_buf_addc(b, *n);
		s++;
	}
	for (i = 0; i < dims; i++)
		bt_buf_adds(b, "[]");
	*p = s;
	return 1;
}

/* "ret class.name(params)" from a "(params)ret" signature; 0 if the
 * signature is no descriptor (b then holds garbage). */
static int pretty(struct bt_buf *b, const char *cls, size_t clen, const char *name, size_t nlen,
		  const char *sig, size_t slen)
{
	const char *p = sig + 1, *end = sig + slen, *close = memchr(sig, ')', slen);
	int first = 1;

	if (!slen || sig[0] != '(' || !close)
		return 0;
	p = close + 1;
	if (!add_type(b, &p, end) || p != end)
		return 0;
	bt_buf_addc(b, ' ');
	add_class(b, cls, clen);
	bt_buf_addc(b, '.');
	bt_buf_add(b, name, nlen);
	bt_buf_addc(b, '(');
	for (p = sig + 1; p < close; first = 0) {
		if (!first)
			bt_buf_adds(b, ", ");
		if (!add_type(b, &p, close))
			return 0;
	}
	bt_buf_addc(b, ')');
	return 1;
}

/* Split line[0..len) at tabs into at most n fields; returns how many. */
static size_t fields(const char *line, size_t len, const char **f, size_t *flen, size_t n)
{
	size_t k = 0;
	const char *s = line, *end = line + len, *tab;

	while (k < n) {
		tab = memchr(s, '\t', (size_t)(end - s));
		f[k] = s;
		flen[k] = tab ? (size_t)(tab - s) : (size_t)(end - s);
		k++;
		if (!tab)
			break;
		s = tab + 1;
	}
	return k;
}

/* A method line's name into b: with a method name and signature
 * ("0x..\tclass\tname\tsig[\tfile[\tline]]"), or a class alone. */
static void method_name(struct art *a, struct bt_buf *b, const char **f, const size_t *fl, size_t k,
			size_t at)
{
	add_class(b, f[1], fl[1]);
	if (k == 3 && fl[2]) {          /* no signature: "class.name" */
		bt_buf_addc(b, '.');
		bt_buf_add(b, f[2], fl[2]);
	}
	if (k < 4 || !fl[3] || f[3][0] != '(')
		return;                 /* "class\tfile\tline": the class alone, as TraceView reads it */
	bt_buf_reset(b);
	if (pretty(b, f[1], fl[1], f[2], fl[2], f[3], fl[3]))
		return;
	bt_diag_warn(a->diag, "art_bad_signature", "method line at offset %zu of '%s' has signature '%.*s', "
		     "which is no type descriptor; named without its parameters",
		     at, a->path, (int)(fl[3] > 80 ? 80 : fl[3]), f[3]);
	bt_buf_reset(b);
	add_class(b, f[1], fl[1]);
	bt_buf_addc(b, '.');
	bt_buf_add(b, f[2], fl[2]);
}

void art_text_method(struct art *a, const char *line, size_t len, size_t at, int with_id, uint64_t id)
{
	const char *f[7];
	size_t fl[7], k, skip = with_id ? 0 : 1;
	struct bt_buf name = BT_BUF_INIT;
	struct art_method *m;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	k = fields(line, len, f + skip, fl + skip, 7 - skip) + skip;
	if ((with_id && parse_u64(f[0], fl[0], &id)) || k < 2 || !fl[1]) {
		bt_diag_warn(a->diag, "art_bad_method_line", "method line at offset %zu of '%s' is not "
			     "\"id<TAB>class<TAB>method<TAB>signature...\"; skipped", at, a->path);
		return;
	}
	method_name(a, &name, f, fl, k, at);
	m = art_method_find(a, id);
	if (m) {
		if (strcmp(art_str(a, m->name), name.buf))
			bt_diag_warn(a->diag, "art_duplicate_method", "method 0x%llx is named again at offset %zu of '%s' "
				     "(\"%s\"); the first name kept", (unsigned long long)m->id, at, a->path,
				     art_str(a, m->name));
	} else {
		method_add(a, id, art_intern(a, name.buf, name.len, at, "a method name"));
	}
	bt_buf_release(&name);
}

void art_text_thread(struct art *a, int64_t tid, const char *name, size_t len, size_t at)
{
	uint64_t mask = a->tid_bits >= 32 ? UINT32_MAX : (1ull << a->tid_bits) - 1;
	struct art_thread *t;

	while (len && (name[len - 1] == ' ' || name[len - 1] == '\r' || name[len - 1] == '\n'))
		len--;
	while (len && name[0] == ' ')
		name++, len--;
	if ((uint64_t)tid > mask) {
		bt_diag_warn(a->diag, "tid_truncated", "thread %lld (\"%.*s\") at offset %zu of '%s' does not fit the "
			     "records' %d-bit tids: its records are those of tid %llu, which other threads may share",
			     (long long)tid, (int)(len > 60 ? 60 : len), name, at, a->path, a->tid_bits,
			     (unsigned long long)((uint64_t)tid & mask));
		tid = (int64_t)((uint64_t)tid & mask);
	}
	t = art_thread_get(a, tid);
	if (!t->name)
		t->name = art_intern(a, name, len, at, "a thread name") + 1;
}

/* A number of an option line; -1 and a warning if it is none. */
static int option_int(struct art *a, const char *v, size_t len, size_t at, int64_t *out)
{
	uint64_t u;

	if (parse_u64(v, len, &u) || u > (uint64_t)INT64_MAX) {
		bt_diag_warn(a->diag, "art_bad_key_line", "option at offset %zu of '%s' has no number: '%.*s'; ignored",
			     at, a->path, (int)(len > 40 ? 40 : len), v);
		return -1;
	}
	*out = (int64_t)u;
	return 0;
}

static int is(const char *s, size_t len, const char *lit)
{
	return len == strlen(lit) && !memcmp(s, lit, len);
}

static int option(struct art *a, const char *line, size_t len, size_t at, struct bt_err *err)
{
	const char *eq = memchr(line, '=', len), *v;
	size_t klen, vlen;
	int64_t n;

	if (!eq) {
		bt_diag_warn(a->diag, "art_bad_key_line", "line at offset %zu of '%s' is no \"key=value\" option; ignored",
			     at, a->path);
		return BT_OK;
	}
	klen = (size_t)(eq - line);
	v = eq + 1;
	vlen = len - klen - 1;
	if (is(line, klen, "clock")) {
		if (is(v, vlen, "dual"))
			a->clock = ART_CLOCK_DUAL;
		else if (is(v, vlen, "wall"))
			a->clock = ART_CLOCK_WALL;
		else if (is(v, vlen, "thread-cpu"))
			a->clock = ART_CLOCK_CPU;
		else
			return bt_err_set(err, BT_EFORMAT, "unknown clock '%.*s' in '%s' at offset %zu (known: dual, wall, thread-cpu)",
					  (int)(vlen > 40 ? 40 : vlen), v, a->path, at + klen + 1);
		a->clock_known = 1;
		a->clock_at = at;
	} else if (is(line, klen, "data-file-overflow")) {
		a->overflow = is(v, vlen, "true");
	} else if (is(line, klen, "vm")) {
		snprintf(a->vm, sizeof a->vm, "%.*s", (int)vlen, v);
	} else if (is(line, klen, "pid")) {
		if (!option_int(a, v, vlen, at, &n))
			a->pid = n, a->has_pid = 1;
	} else if (is(line, klen, "elapsed-time-usec") || is(line, klen, "elapsed-time-nsec")) {
		if (!option_int(a, v, vlen, at, &n) && n < BT_MAX_TIME_NS / 1000)
			a->elapsed_ns = line[13] == 'u' ? n * 1000 : n, a->has_elapsed = 1;
	} else if (is(line, klen, "num-method-calls")) {
		if (!option_int(a, v, vlen, at, &n))
			a->method_calls = n, a->has_method_calls = 1;
	}
	return BT_OK;
}

static int thread_line(struct art *a, const char *line, size_t len, size_t at)
{
	const char *tab = memchr(line, '\t', len);
	uint64_t tid;

	if (!tab || parse_u64(line, (size_t)(tab - line), &tid) || tid > (uint64_t)INT64_MAX) {
		bt_diag_warn(a->diag, "art_bad_thread_line", "thread line at offset %zu of '%s' is not \"tid<TAB>name\"; skipped",
			     at, a->path);
		return BT_OK;
	}
	art_text_thread(a, (int64_t)tid, tab + 1, len - (size_t)(tab + 1 - line), at + (size_t)(tab + 1 - line));
	return BT_OK;
}

enum { S_VERSION, S_OPTIONS, S_THREADS, S_METHODS };

/* A "*..." line: the section it opens; -1 for "*end", -2 unknown. */
static int section(const char *line, size_t len)
{
	if (is(line, len, "*version"))
		return S_VERSION;
	if (is(line, len, "*threads"))
		return S_THREADS;
	if (is(line, len, "*methods"))
		return S_METHODS;
	return is(line, len, "*end") ? -1 : -2;
}

static int version_line(struct art *a, const char *line, size_t len, size_t at, struct bt_err *err)
{
	uint64_t v;

	if (parse_u64(line, len, &v) || v < 1 || v > 5)
		return bt_err_set(err, BT_EFORMAT, "unknown method trace version '%.*s' in '%s' at offset %zu (known: 1 to 5)",
				  (int)(len > 20 ? 20 : len), line, a->path, at);
	if (a->version && (int)v != a->version)
		return bt_err_set(err, BT_EFORMAT, "version %d in the text of '%s' at offset %zu differs from its data header's %d",
				  (int)v, a->path, at, a->version);
	a->version = (int)v;
	if (!a->tid_bits)
		a->tid_bits = v == 1 ? 8 : 16;
	return BT_OK;
}

int art_text_key(struct art *a, const char *text, size_t len, size_t base, size_t *used,
		 struct bt_err *err)
{
	const char *s = text, *end = text + len, *nl;
	int mode = -3, sec;

	while (s < end) {
		size_t at = base + (size_t)(s - text), l;
		nl = memchr(s, '\n', (size_t)(end - s));
		l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		if (l && s[l - 1] == '\r')
			l--;
		if (mode == -3 && !is(s, l, "*version"))
			return bt_err_set(err, BT_EFORMAT, "no '*version' line at offset %zu of '%s'", at, a->path);
		if (l && s[0] == '*') {
			sec = section(s, l);
			if (sec == -1) {
				*used = (size_t)((nl ? nl + 1 : end) - text);
				return BT_OK;
			}
			if (sec == -2)
				bt_diag_warn(a->diag, "art_bad_key_line", "unknown section '%.*s' at offset %zu of '%s'; its lines skipped",
					     (int)(l > 40 ? 40 : l), s, at, a->path);
			mode = sec;
		} else if (mode == S_VERSION) {
			if (version_line(a, s, l, at, err))
				return err->code;
			mode = S_OPTIONS;
		} else if (l && mode == S_OPTIONS) {
			if (option(a, s, l, at, err))
				return err->code;
		} else if (l && mode == S_THREADS) {
			thread_line(a, s, l, at);
		} else if (l && mode == S_METHODS) {
			art_text_method(a, s, l, at, 1, 0);
		}
		s = nl ? nl + 1 : end;
	}
	return bt_err_set(err, BT_EFORMAT, "no '*end' line in the text of '%s' (from offset %zu to %zu)", a->path,
			  base, base + len);
}
