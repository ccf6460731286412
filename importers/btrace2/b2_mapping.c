/*
 * methodMapping.txt, the method names of a btrace 2.0 trace (b2_int.h).
 * The rhea gradle plugin writes it as Tencent Matrix does (both
 * TraceMethod.toString): "id,accessFlag,className methodName desc", the
 * class dotted, desc the JVM descriptor (slashed by btrace, dotted by
 * Matrix and by btrace's own Handler.dispatchMessage line), no desc for a
 * native method; btrace adds a "#UUID" first line. Only the names of
 * methods the trace uses are kept.
 */
#include <stdlib.h>
#include <string.h>

#include "importers/btrace2/b2_int.h"

#define NWORDS (B2_NMID / 64)

void b2_names_init(struct b2_names *nm)
{
	memset(nm, 0, sizeof *nm);
	nm->used = bt_xcalloc(NWORDS, sizeof *nm->used);
	nm->rank = bt_xcalloc(NWORDS, sizeof *nm->rank);
	bt_buf_init(&nm->pool);
}

void b2_names_release(struct b2_names *nm)
{
	free(nm->used);
	free(nm->rank);
	free(nm->name);
	bt_buf_release(&nm->pool);
	memset(nm, 0, sizeof *nm);
}

void b2_names_rank(struct b2_names *nm)
{
	uint32_t k, n = 0;

	for (k = 0; k < (nm->top + 63) / 64; k++) {
		nm->rank[k] = n;
		n += (uint32_t)__builtin_popcountll(nm->used[k]);
	}
	nm->n = n;
	free(nm->name);
	nm->name = bt_xcalloc((size_t)n + 1, sizeof *nm->name);
}

const char *b2_names_get(const struct b2_names *nm, uint32_t frame)
{
	return frame >= 1 && frame <= nm->n && nm->name[frame] ? nm->pool.buf + nm->name[frame] - 1 : NULL;
}

/* One type of a descriptor at *p into b ('.' for '/'); 0 if malformed. */
static int type(struct bt_buf *b, const char **p, const char *end, int ret)
{
	static const char prim[] = "BCDFIJSZV";
	static const char *const names[] = { "byte", "char", "double", "float", "int", "long", "short",
					     "boolean", "void" };
	const char *s = *p, *hit, *semi;
	size_t dims = 0;

	while (s < end && *s == '[')
		s++, dims++;
	if (s == end || dims > 255)
		return 0;
	if (*s == 'L') {
		semi = memchr(s, ';', (size_t)(end - s));
		if (!semi || semi == s + 1)
			return 0;
		for (s++; s < semi; s++)
			bt_buf_addc(b, *s == '/' ? '.' : *s);
		s = semi + 1;
	} else {
		hit = memchr(prim, *s, sizeof prim - 1);
		if (!hit || (*hit == 'V' && (!ret || dims)))
			return 0;
		bt_buf_adds(b, names[hit - prim]);
		s++;
	}
	while (dims--)
		bt_buf_adds(b, "[]");
	*p = s;
	return 1;
}

int b2_pretty(struct bt_buf *b, const char *cls, size_t clen, const char *method, size_t mlen,
	      const char *desc, size_t dlen)
{
	const char *p = desc, *end = desc + dlen, *close = NULL;
	struct bt_buf params = BT_BUF_INIT;
	size_t at = b->len, i;
	int ok = dlen > 2 && *p++ == '(' && (close = memchr(p, ')', dlen - 1)) != NULL;

	while (ok && p < close) {
		if (params.len)
			bt_buf_adds(&params, ", ");
		ok = type(&params, &p, close, 0) && p <= close;
	}
	if (ok) {
		p = close + 1;
		ok = type(b, &p, end, 1) && p == end;
	}
	if (ok) {
		bt_buf_addc(b, ' ');
		for (i = 0; i < clen; i++)
			bt_buf_addc(b, cls[i] == '/' ? '.' : cls[i]);
		bt_buf_addc(b, '.');
		bt_buf_add(b, method, mlen);
		bt_buf_addc(b, '(');
		bt_buf_add(b, params.buf, params.len);
		bt_buf_addc(b, ')');
	} else {
		bt_buf_setlen(b, at);
	}
	bt_buf_release(&params);
	return ok;
}

/* A line's parts: "id,access,class method[ desc]". */
struct b2_line {
	uint64_t id;
	const char *cls, *method, *desc;
	size_t clen, mlen, dlen;
};

static int number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	while (s < end && *s >= '0' && *s <= '9' && s - *p < 12)
		*v = *v * 10 + (uint64_t)(*s++ - '0');
	if (s == *p || s == end || *s != ',')
		return 0;
	*p = s + 1;
	return 1;
}

/* The next space-free word at *p (then past one space); 0 if empty. */
static int word(const char **p, const char *end, const char **w, size_t *len)
{
	const char *s = *p, *sp = memchr(s, ' ', (size_t)(end - s));

	*w = s;
	*len = (size_t)((sp ? sp : end) - s);
	*p = sp ? sp + 1 : end;
	return *len > 0;
}

static int parse(const char *s, const char *end, struct b2_line *l)
{
	uint64_t access;

	memset(l, 0, sizeof *l);
	if (!number(&s, end, &l->id) || !number(&s, end, &access))
		return 0;
	if (!word(&s, end, &l->cls, &l->clen) || !word(&s, end, &l->method, &l->mlen))
		return 0;
	if (s < end && !word(&s, end, &l->desc, &l->dlen))
		return 0;
	return s == end;
}

/* The name of line l into nm's pool for its frame. */
static void name(struct b2_names *nm, const struct b2_line *l, uint32_t frame, const char *path,
		 size_t lineno, struct bt_diag *diag)
{
	size_t at = nm->pool.len, i;

	if (!l->desc || !b2_pretty(&nm->pool, l->cls, l->clen, l->method, l->mlen, l->desc, l->dlen)) {
		if (l->desc)
			bt_diag_warn(diag, "bad_descriptor", "line %zu of '%s' gives method %llu the descriptor '%.*s', "
				     "no JVM method descriptor; named without its types", lineno, path,
				     (unsigned long long)l->id, (int)(l->dlen > 80 ? 80 : l->dlen), l->desc);
		/* a native method: its class and name, types unknown */
		for (i = 0; i < l->clen; i++)
			bt_buf_addc(&nm->pool, l->cls[i] == '/' ? '.' : l->cls[i]);
		bt_buf_addc(&nm->pool, '.');
		bt_buf_add(&nm->pool, l->method, l->mlen);
		bt_buf_adds(&nm->pool, "(?)");
	}
	bt_buf_addc(&nm->pool, '\0');
	nm->name[frame] = (uint32_t)at + 1;
}

static void one(struct b2_names *nm, const char *s, const char *end, const char *path, size_t lineno,
		size_t off, struct bt_diag *diag)
{
	struct b2_line l;
	uint32_t frame;

	if (!parse(s, end, &l)) {
		bt_diag_warn(diag, "bad_mapping_line", "line %zu of '%s' (offset %zu) is not 'id,access,class method desc'; skipped",
			     lineno, path, off);
		return;
	}
	if (l.id >= B2_NMID) {
		bt_diag_warn(diag, "mapping_id_range", "line %zu of '%s' names method id %llu, beyond the trace's 23 bits; skipped",
			     lineno, path, (unsigned long long)l.id);
		return;
	}
	frame = b2_frame(nm, (uint32_t)l.id);
	if (!frame)   /* a method the trace does not use */
		return;
	if (nm->name[frame]) {
		bt_diag_warn(diag, "duplicate_mapping_id", "line %zu of '%s' names method id %llu again; the first name kept",
			     lineno, path, (unsigned long long)l.id);
		return;
	}
	name(nm, &l, frame, path, lineno, diag);
}

void b2_names_load(struct b2_names *nm, const char *text, size_t len, const char *path,
		   struct bt_diag *diag)
{
	const char *s, *end, *nl, *e;
	size_t lineno = 0;

	if (!len)   /* an empty file (mapped as NULL) */
		return;
	s = text;
	end = text + len;

	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		e = nl > s && nl[-1] == '\r' ? nl - 1 : nl;
		lineno++;
		if (e > s && *s != '#')
			one(nm, s, e, path, lineno, (size_t)(s - text), diag);
	}
}
