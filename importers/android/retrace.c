/*
 * ProGuard/R8 retrace (see retrace.h, android-sampling.md §9): mapping.txt
 * is parsed into one string pool, a class table and per-(class, obfuscated
 * method) candidate lists found through two bt_strmaps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "engine/base/hash.h"
#include "importers/android/retrace.h"

/* Keeps every offset the strmaps store in a u32, with room to spare. */
#define MAX_MAPPING ((size_t)1 << 30)
#define MAX_ENTRIES ((size_t)UINT32_MAX - 1)
#define SYNTH_MARK "com.android.tools.r8.synthesized"

struct bt_retrace_class {
	size_t orig, orig_len;       /* original name in the pool */
	unsigned synthesized;        /* parsed but unused, as upstream */
};

struct bt_retrace_method {
	size_t name, name_len;       /* original name; "Other.m" when inlined */
	size_t params, params_len;   /* spaces removed, still ','-separated */
	uint32_t next;               /* next candidate's index + 1, or 0 */
	unsigned synthesized;
};

struct bt_retrace_list {
	uint32_t head, tail;         /* method index + 1 */
};

struct bt_retrace {
	char *pool;
	size_t pool_len, pool_cap;
	struct bt_retrace_class *cls;
	size_t ncls, cls_cap;
	struct bt_retrace_method *meth;
	size_t nmeth, meth_cap;
	struct bt_retrace_list *list;
	size_t nlist, list_cap;
	struct bt_strmap cls_map;    /* obfuscated class -> class index + 1 */
	struct bt_strmap meth_map;   /* u32 class value + obfuscated method -> list + 1 */
};

/* Bytes built on the stack, moved to the heap only when they outgrow it. */
struct scratch {
	char stack[256];
	struct bt_buf heap;
	size_t len;
	int spilled;
};

enum { LAST_NONE, LAST_CLASS, LAST_METHOD };

/* State carried from one mapping line to the next. */
struct parser {
	struct bt_retrace *rt;
	uint32_t cls;                /* current class index + 1, 0 if none */
	size_t orig, orig_len;       /* its original name on that class line */
	int last_kind;               /* what a synthesized marker applies to */
	size_t last;
	struct scratch key;
};

static void sc_init(struct scratch *sc)
{
	bt_buf_init(&sc->heap);
	sc->len = 0;
	sc->spilled = 0;
}

static const char *sc_data(const struct scratch *sc)
{
	return sc->spilled ? sc->heap.buf : sc->stack;
}

static void sc_trunc(struct scratch *sc, size_t n)
{
	sc->len = n;
	if (sc->spilled)
		sc->heap.len = n;
}

static void sc_add(struct scratch *sc, const void *p, size_t n)
{
	if (!sc->spilled && n > sizeof sc->stack - sc->len) {
		bt_buf_add(&sc->heap, sc->stack, sc->len);
		sc->spilled = 1;
	}
	if (sc->spilled)
		bt_buf_add(&sc->heap, p, n);
	else
		memcpy(sc->stack + sc->len, p, n);
	sc->len += n;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *last_of(const char *s, size_t len, char c)
{
	while (len--)
		if (s[len] == c)
			return s + len;
	return NULL;
}

static const char *find(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	const char *end = s + len, *p = s;

	while ((size_t)(end - p) >= n) {
		p = memchr(p, needle[0], (size_t)(end - p) - n + 1);
		if (!p)
			return NULL;
		if (!memcmp(p, needle, n))
			return p;
		p++;
	}
	return NULL;
}

static void trim(const char **s, size_t *len)
{
	while (*len && is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && is_blank((*s)[*len - 1]))
		(*len)--;
}

static size_t pool_add(struct bt_retrace *rt, const char *s, size_t n)
{
	size_t off = rt->pool_len;

	BT_GROW(rt->pool, off + n + 1, rt->pool_cap);
	memcpy(rt->pool + off, s, n);
	rt->pool_len += n;
	return off;
}

/* Parameter lists are stored with blanks removed, so lookups compare bytes. */
static size_t pool_add_unblanked(struct bt_retrace *rt, const char *s, size_t n, size_t *len)
{
	size_t off = rt->pool_len, i;

	BT_GROW(rt->pool, off + n + 1, rt->pool_cap);
	for (i = 0; i < n; i++)
		if (!is_blank(s[i]))
			rt->pool[rt->pool_len++] = s[i];
	*len = rt->pool_len - off;
	return off;
}

/* The key of a candidate list: the class's map value, then the method name.
 * A fixed-size prefix keeps keys unambiguous and as short as the name. */
static void method_key(struct scratch *sc, uint32_t cls, const char *name, size_t len)
{
	sc_trunc(sc, 0);
	sc_add(sc, &cls, sizeof cls);
	sc_add(sc, name, len);
}

static void mark_synthesized(struct parser *ps)
{
	if (ps->last_kind == LAST_CLASS)
		ps->rt->cls[ps->last].synthesized = 1;
	else if (ps->last_kind == LAST_METHOD)
		ps->rt->meth[ps->last].synthesized = 1;
}

/* "orig.Class -> obf.Class:"; a malformed one ends the current class so its
 * member lines are not credited to the class before it. */
static void class_line(struct parser *ps, const char *orig, size_t olen,
		       const char *obf, size_t blen)
{
	struct bt_retrace *rt = ps->rt;
	const char *colon = memchr(obf, ':', blen);
	uint32_t idx;

	ps->cls = 0;
	ps->last_kind = LAST_NONE;
	if (!colon)
		return;
	blen = (size_t)(colon - obf);
	trim(&orig, &olen);
	trim(&obf, &blen);
	if (!olen || !blen)
		return;
	idx = bt_strmap_get(&rt->cls_map, obf, blen);
	if (!idx) {
		if (rt->ncls >= MAX_ENTRIES)
			return;
		BT_GROW(rt->cls, rt->ncls + 1, rt->cls_cap);
		rt->cls[rt->ncls].synthesized = 0;
		idx = (uint32_t)++rt->ncls;
		bt_strmap_put(&rt->cls_map, obf, blen, idx);
	}
	rt->cls[idx - 1].orig = pool_add(rt, orig, olen);
	rt->cls[idx - 1].orig_len = olen;
	ps->cls = idx;
	ps->orig = rt->cls[idx - 1].orig;
	ps->orig_len = olen;
	ps->last_kind = LAST_CLASS;
	ps->last = idx - 1;
}

static uint32_t list_for(struct parser *ps, const char *obf, size_t blen)
{
	struct bt_retrace *rt = ps->rt;
	uint32_t li;

	method_key(&ps->key, ps->cls, obf, blen);
	li = bt_strmap_get(&rt->meth_map, sc_data(&ps->key), ps->key.len);
	if (li)
		return li;
	BT_GROW(rt->list, rt->nlist + 1, rt->list_cap);
	rt->list[rt->nlist].head = rt->list[rt->nlist].tail = 0;
	li = (uint32_t)++rt->nlist;
	bt_strmap_put(&rt->meth_map, sc_data(&ps->key), ps->key.len, li);
	return li;
}

static void add_method(struct parser *ps, const char *name, size_t nlen,
		       const char *params, size_t plen, const char *obf, size_t blen)
{
	struct bt_retrace *rt = ps->rt;
	struct bt_retrace_method *m;
	struct bt_retrace_list *l;
	uint32_t li, mi;

	if (rt->nmeth >= MAX_ENTRIES)
		return;
	li = list_for(ps, obf, blen);   /* may move rt->list */
	l = &rt->list[li - 1];
	BT_GROW(rt->meth, rt->nmeth + 1, rt->meth_cap);
	m = &rt->meth[rt->nmeth];
	m->name = pool_add(rt, name, nlen);
	m->name_len = nlen;
	m->params = pool_add_unblanked(rt, params, plen, &m->params_len);
	m->next = 0;
	m->synthesized = 0;
	mi = (uint32_t)++rt->nmeth;
	if (l->tail)
		rt->meth[l->tail - 1].next = mi;
	else
		l->head = mi;
	l->tail = mi;
	ps->last_kind = LAST_METHOD;
	ps->last = mi - 1;
}

/* "    1:2:ret [Other.]name(params):3:4 -> obf"; left is the text before
 * " -> " and starts with a space. Lines without '(' are fields. */
static void member_line(struct parser *ps, const char *left, size_t llen,
			const char *obf, size_t blen)
{
	const char *lp, *rp, *sp, *name, *dot;
	size_t nlen;

	ps->last_kind = LAST_NONE;
	lp = last_of(left, llen, '(');
	rp = last_of(left, llen, ')');
	if (!ps->cls || !lp || !rp || rp < lp)
		return;
	sp = last_of(left, (size_t)(lp - left), ' ');
	name = sp ? sp + 1 : left;
	nlen = (size_t)(lp - name);
	dot = last_of(name, nlen, '.');
	if (dot && (size_t)(dot - name) == ps->orig_len &&
	    !memcmp(name, ps->rt->pool + ps->orig, ps->orig_len)) {
		nlen -= (size_t)(dot + 1 - name);
		name = dot + 1;
	}
	trim(&obf, &blen);
	if (!nlen || !blen)
		return;
	add_method(ps, name, nlen, lp + 1, (size_t)(rp - lp - 1), obf, blen);
}

static void parse_line(struct parser *ps, const char *s, size_t len)
{
	const char *arrow;
	size_t k = 0, left;

	while (k < len && is_blank(s[k]))
		k++;
	if (k < len && s[k] == '#') {
		if (find(s, len, SYNTH_MARK))
			mark_synthesized(ps);
		return;
	}
	arrow = find(s, len, " -> ");
	if (!arrow)
		return;
	left = (size_t)(arrow - s);
	if (s[0] != ' ')
		class_line(ps, s, left, arrow + 4, len - left - 4);
	else
		member_line(ps, s, left, arrow + 4, len - left - 4);
}

/* Lines end at "\n", "\r\n" or a lone "\r", as Java's readLine has it. */
static void parse_text(struct bt_retrace *rt, const char *p, size_t n)
{
	struct parser ps;
	size_t i = 0, j;

	memset(&ps, 0, sizeof ps);
	ps.rt = rt;
	sc_init(&ps.key);
	while (i < n) {
		for (j = i; j < n && p[j] != '\n' && p[j] != '\r'; j++)
			;
		if (j > i)
			parse_line(&ps, p + i, j - i);
		if (j + 1 < n && p[j] == '\r' && p[j + 1] == '\n')
			j++;
		i = j + 1;
	}
	bt_buf_release(&ps.key.heap);
}

int bt_retrace_load(struct bt_retrace **out, const char *path, struct bt_err *err)
{
	struct bt_retrace *rt;
	struct bt_fmap m;
	int rc;

	*out = NULL;
	rc = bt_fmap_open(&m, path, err);
	if (rc != BT_OK)
		return rc;
	if (m.len > MAX_MAPPING) {
		rc = bt_err_set(err, BT_EFORMAT, "mapping '%s' is too large: %zu bytes, at most %zu",
				path, m.len, MAX_MAPPING);
		bt_fmap_release(&m);
		return rc;
	}
	rt = bt_xcalloc(1, sizeof *rt);
	bt_strmap_init(&rt->cls_map);
	bt_strmap_init(&rt->meth_map);
	parse_text(rt, (const char *)m.data, m.len);
	bt_fmap_release(&m);
	*out = rt;
	return BT_OK;
}

void bt_retrace_free(struct bt_retrace *rt)
{
	if (!rt)
		return;
	bt_strmap_release(&rt->cls_map);
	bt_strmap_release(&rt->meth_map);
	free(rt->pool);
	free(rt->cls);
	free(rt->meth);
	free(rt->list);
	free(rt);
}

size_t bt_retrace_classes(const struct bt_retrace *rt)
{
	return rt ? rt->ncls : 0;
}

size_t bt_retrace_methods(const struct bt_retrace *rt)
{
	return rt ? rt->nmeth : 0;
}

/* Append parameter e[0..n) with blanks removed and, when its type (minus
 * any "[]") is an obfuscated class, with the original name instead. The
 * spec, like upstream, keeps arrays and unknown names as they are; mapping
 * the element type too lets "a.d[]" find an overload taking "Baz[]". */
static void map_param(const struct bt_retrace *rt, struct scratch *sc, const char *e, size_t n)
{
	const struct bt_retrace_class *c;
	size_t start = sc->len, base, dims, i;
	const char *el;
	uint32_t ci;

	for (i = 0; i < n; i++)
		if (!is_blank(e[i]))
			sc_add(sc, e + i, 1);
	el = sc_data(sc) + start;
	base = sc->len - start;
	while (base >= 2 && el[base - 2] == '[' && el[base - 1] == ']')
		base -= 2;
	ci = base ? bt_strmap_get(&rt->cls_map, el, base) : 0;
	if (!ci)
		return;
	c = &rt->cls[ci - 1];
	dims = (sc->len - start - base) / 2;
	sc_trunc(sc, start);
	sc_add(sc, rt->pool + c->orig, c->orig_len);
	while (dims--)
		sc_add(sc, "[]", 2);
}

/* §9.2 step 4: the first candidate whose parameters equal the symbol's
 * p[0..n) mapped through the class table. Joined with ',' on both sides,
 * element-wise equality is byte equality. */
static const struct bt_retrace_method *pick_overload(const struct bt_retrace *rt,
						      const struct bt_retrace_method *m,
						      const char *p, size_t n)
{
	const char *rp = memchr(p, ')', n), *c;
	struct scratch sc;

	if (rp)
		n = (size_t)(rp - p);
	sc_init(&sc);
	for (;;) {
		c = memchr(p, ',', n);
		map_param(rt, &sc, p, c ? (size_t)(c - p) : n);
		if (!c)
			break;
		sc_add(&sc, ",", 1);
		n -= (size_t)(c + 1 - p);
		p = c + 1;
	}
	while (m && !(m->params_len == sc.len &&
		      (!sc.len || !memcmp(rt->pool + m->params, sc_data(&sc), sc.len))))
		m = m->next ? &rt->meth[m->next - 1] : NULL;
	bt_buf_release(&sc.heap);
	return m;
}

static const struct bt_retrace_method *find_method(const struct bt_retrace *rt, uint32_t ci,
						    const char *name, size_t len,
						    const char *params, size_t plen)
{
	const struct bt_retrace_method *m = NULL;
	struct scratch sc;
	uint32_t li;

	sc_init(&sc);
	method_key(&sc, ci, name, len);
	li = bt_strmap_get(&rt->meth_map, sc_data(&sc), sc.len);
	bt_buf_release(&sc.heap);
	if (!li)
		return NULL;
	m = &rt->meth[rt->list[li - 1].head - 1];
	return m->next ? pick_overload(rt, m, params, plen) : m;
}

/* Append the original form; take it back if it equals the input. */
static int emit(const struct bt_retrace *rt, const struct bt_retrace_class *c,
		const struct bt_retrace_method *m, const char *s, size_t len,
		struct bt_buf *out)
{
	const char *name = rt->pool + m->name, *p = rt->pool + m->params, *comma;
	size_t start = out->len, n = m->params_len;

	if (!memchr(name, '.', m->name_len)) {
		bt_buf_add(out, rt->pool + c->orig, c->orig_len);
		bt_buf_addc(out, '.');
	}
	bt_buf_add(out, name, m->name_len);
	bt_buf_addc(out, '(');
	while ((comma = memchr(p, ',', n))) {
		bt_buf_add(out, p, (size_t)(comma - p));
		bt_buf_add(out, ", ", 2);
		n -= (size_t)(comma + 1 - p);
		p = comma + 1;
	}
	bt_buf_add(out, p, n);
	bt_buf_addc(out, ')');
	if (out->len - start == len && !memcmp(out->buf + start, s, len)) {
		out->len = start;
		out->buf[start] = '\0';
		return 0;
	}
	return 1;
}

int bt_retrace_symbol(const struct bt_retrace *rt, const char *s, size_t len, struct bt_buf *out)
{
	const struct bt_retrace_method *m;
	const char *lp, *sp, *name, *dot;
	uint32_t ci;

	lp = rt && len ? last_of(s, len, '(') : NULL;
	if (!lp)
		return 0;
	sp = memchr(s, ' ', (size_t)(lp - s));
	name = sp ? sp + 1 : s;
	dot = last_of(name, (size_t)(lp - name), '.');
	if (!dot)
		return 0;
	ci = bt_strmap_get(&rt->cls_map, name, (size_t)(dot - name));
	if (!ci)
		return 0;
	m = find_method(rt, ci, dot + 1, (size_t)(lp - dot - 1), lp + 1, len - (size_t)(lp + 1 - s));
	if (!m)
		return 0;
	return emit(rt, &rt->cls[ci - 1], m, s, len, out);
}
