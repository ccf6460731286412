/*
 * The JSON pull reader (see jsonr.h). Strings are unescaped into the
 * caller's buffer, \u escapes and surrogate pairs included, and must be
 * valid UTF-8; numbers follow the JSON grammar exactly before strtod sees
 * them; nesting is capped so hostile input cannot exhaust the stack.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/jsonr.h"
#include "engine/base/utf8.h"

void bt_jr_init(struct bt_jr *r, const void *data, size_t len, const char *file, struct bt_err *err)
{
	memset(r, 0, sizeof *r);
	r->start = r->p = data ? data : "";
	r->end = r->p + (data ? len : 0);
	r->file = file;
	r->max_depth = BT_JR_MAX_DEPTH;
	r->err = err;
}

int bt_jr_fail(struct bt_jr *r, const char *what)
{
	return bt_err_set(r->err, BT_EFORMAT, "%s: byte %zu: %s", r->file, (size_t)(r->p - r->start),
			  what);
}

size_t bt_jr_offset(const struct bt_jr *r)
{
	return (size_t)(r->p - r->start);
}

static void skip_ws(struct bt_jr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
		r->p++;
}

enum bt_jtype bt_jr_peek(struct bt_jr *r)
{
	skip_ws(r);
	if (r->p == r->end)
		return BT_J_END;
	switch (*r->p) {
	case '{': return BT_J_OBJECT;
	case '[': return BT_J_ARRAY;
	case '"': return BT_J_STRING;
	case 't': case 'f': return BT_J_BOOL;
	case 'n': return BT_J_NULL;
	default:
		return (*r->p == '-' || (*r->p >= '0' && *r->p <= '9')) ? BT_J_NUMBER : BT_J_END;
	}
}

static int expect(struct bt_jr *r, char c, const char *what)
{
	skip_ws(r);
	if (r->p == r->end || *r->p != c)
		return bt_jr_fail(r, r->p == r->end ? "unexpected end of the JSON text" : what);
	r->p++;
	return BT_OK;
}

/* The bracket that would nest too deeply is the wrong byte: checked
 * before it is consumed. */
static int open_level(struct bt_jr *r, char c, const char *what)
{
	skip_ws(r);
	if (r->p < r->end && *r->p == c &&
	    (r->depth >= r->max_depth || r->depth >= BT_JR_MAX_DEPTH))
		return bt_jr_fail(r, "JSON nested too deeply");
	if (expect(r, c, what))
		return r->err->code;
	r->first[r->depth++] = 1;
	return BT_OK;
}

/* 1 if another member/element follows, 0 at the closing byte (consumed). */
static int next_member(struct bt_jr *r, char close, const char *what)
{
	unsigned char *first = &r->first[r->depth - 1];

	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		r->depth--;
		return 0;
	}
	if (!*first && expect(r, ',', what))
		return -1;
	*first = 0;
	skip_ws(r);
	return 1;
}

int bt_jr_object(struct bt_jr *r)
{
	return open_level(r, '{', "expected a JSON object");
}

int bt_jr_array(struct bt_jr *r)
{
	return open_level(r, '[', "expected a JSON array");
}

int bt_jr_key(struct bt_jr *r, struct bt_buf *key)
{
	int more = next_member(r, '}', "expected ',' or '}' in an object");

	if (more <= 0)
		return more;
	if (r->p == r->end || *r->p != '"')
		return bt_jr_fail(r, "expected a string key in an object"), -1;
	if (bt_jr_string(r, key) || expect(r, ':', "expected ':' after an object key"))
		return -1;
	return 1;
}

int bt_jr_more(struct bt_jr *r)
{
	return next_member(r, ']', "expected ',' or ']' in an array");
}

static int hex4(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct bt_buf *b, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	bt_buf_add(b, u, n);
}

/* The escape at r->p (after the backslash); advances past it. */
static int unescape(struct bt_jr *r, struct bt_buf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k = r->p < r->end ? strchr(from, *r->p) : NULL;
	unsigned cp, lo;

	if (k && *k) {
		bt_buf_addc(out, to[k - from]);
		r->p++;
		return BT_OK;
	}
	if (r->p == r->end || *r->p != 'u' || r->end - r->p < 5 || hex4(r->p + 1, &cp))
		return bt_jr_fail(r, "bad escape in a string");
	r->p += 5;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return bt_jr_fail(r, "lone low surrogate in a \\u escape");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u' || hex4(r->p + 2, &lo) ||
		    lo < 0xdc00 || lo > 0xdfff)
			return bt_jr_fail(r, "high surrogate without its low half in a \\u escape");
		r->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	add_utf8(out, cp);
	return BT_OK;
}

/* The string at r->p (its opening quote consumed) into out, or only
 * checked when out is NULL. Only text with bytes >= 0x80 (or escapes)
 * pays for the UTF-8 check. */
static int string_body(struct bt_jr *r, struct bt_buf *out)
{
	const char *from = r->p;
	unsigned char high = 0;
	struct bt_buf scratch = BT_BUF_INIT;
	int rc = BT_OK, escaped = 0;

	for (;;) {
		const char *run = r->p;
		while (r->p < r->end && *r->p != '"' && *r->p != '\\' && (unsigned char)*r->p >= 0x20)
			high |= (unsigned char)*r->p++;
		if (out)
			bt_buf_add(out, run, (size_t)(r->p - run));
		if (r->p == r->end) {   /* out of the loop, so scratch is freed */
			rc = bt_jr_fail(r, "unterminated string");
			break;
		}
		if (*r->p == '"')
			break;
		if (*r->p != '\\') {
			rc = bt_jr_fail(r, "control character in a string");
			break;
		}
		r->p++;
		escaped = 1;
		bt_buf_reset(&scratch);
		if ((rc = unescape(r, out ? out : &scratch)))
			break;
	}
	bt_buf_release(&scratch);
	if (rc)
		return rc;
	/* escapes are ASCII and checked as they decode; what they decode to
	 * (a NUL from \\u0000) is checked in a kept string */
	if (out ? ((high & 0x80) || escaped) && !bt_utf8_valid(out->buf, out->len) :
	    (high & 0x80) && !bt_utf8_valid(from, (size_t)(r->p - from)))
		return bt_jr_fail(r, "string is not valid UTF-8");
	r->p++;
	return BT_OK;
}

int bt_jr_string(struct bt_jr *r, struct bt_buf *out)
{
	int rc = expect(r, '"', "expected a string");

	if (rc)
		return rc;
	bt_buf_reset(out);
	return string_body(r, out);
}

static const char *digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/* Fail at p, the first byte the number's grammar refuses. */
static const char *bad_number(struct bt_jr *r, const char *p, const char *what)
{
	r->p = p;
	bt_jr_fail(r, what);
	return NULL;
}

/* The end of the number at r->p per the JSON grammar, or NULL (failed). */
static const char *scan_number(struct bt_jr *r)
{
	const char *p, *q, *end = r->end;

	skip_ws(r);
	p = r->p;
	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		p = digits(p, end);
	else
		return bad_number(r, p, "expected a number");
	if (p < end && *p == '.') {
		q = digits(p + 1, end);
		if (q == p + 1)
			return bad_number(r, q, "expected digits after '.' in a number");
		p = q;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		q = digits(p, end);
		if (q == p)
			return bad_number(r, p, "expected digits in a number's exponent");
		p = q;
	}
	return p;
}

int bt_jr_number(struct bt_jr *r, double *out)
{
	const char *p;
	char tmp[64];

	skip_ws(r);
	if (!(p = scan_number(r)))
		return r->err->code;
	if ((size_t)(p - r->p) >= sizeof tmp)
		return bt_jr_fail(r, "number too long");
	memcpy(tmp, r->p, (size_t)(p - r->p));
	tmp[p - r->p] = 0;
	*out = strtod(tmp, NULL);
	r->p = p;
	return BT_OK;
}

int bt_jr_int(struct bt_jr *r, int64_t *out)
{
	const char *p, *q;
	uint64_t v = 0;
	int neg;

	skip_ws(r);
	if (!(p = scan_number(r)))
		return -1;
	q = r->p;
	r->p = p;
	neg = *q == '-';
	for (q += neg; q < p; q++) {
		if (*q < '0' || *q > '9' || v > (UINT64_MAX - 9) / 10)
			return 0;   /* a fraction or an exponent, or far out of range */
		v = v * 10 + (uint64_t)(*q - '0');
	}
	if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
		return 0;
	*out = neg && v ? -(int64_t)(v - 1) - 1 : (int64_t)v;
	return 1;
}

static int literal(struct bt_jr *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return bt_jr_fail(r, "expected a JSON value");
	r->p += n;
	return BT_OK;
}

int bt_jr_skip(struct bt_jr *r)
{
	struct bt_buf tmp = BT_BUF_INIT;   /* object keys */
	const char *end;
	int rc = BT_OK, more;

	switch (bt_jr_peek(r)) {
	case BT_J_OBJECT:
		if ((rc = bt_jr_object(r)))
			break;
		while ((more = bt_jr_key(r, &tmp)) == 1)
			if ((rc = bt_jr_skip(r)))
				break;
		if (more < 0)
			rc = r->err->code ? r->err->code : BT_EFORMAT;
		break;
	case BT_J_ARRAY:
		if ((rc = bt_jr_array(r)))
			break;
		while ((more = bt_jr_more(r)) == 1)
			if ((rc = bt_jr_skip(r)))
				break;
		if (more < 0)
			rc = r->err->code ? r->err->code : BT_EFORMAT;
		break;
	case BT_J_STRING:
		r->p++;
		rc = string_body(r, NULL);
		break;
	case BT_J_NUMBER:
		if ((end = scan_number(r)))
			r->p = end;
		else
			rc = r->err->code;
		break;
	case BT_J_BOOL:
		rc = literal(r, *r->p == 't' ? "true" : "false");
		break;
	case BT_J_NULL:
		rc = literal(r, "null");
		break;
	case BT_J_END:
		rc = bt_jr_fail(r, r->p == r->end ? "unexpected end of the JSON text" : "expected a JSON value");
		break;
	}
	bt_buf_release(&tmp);
	return rc;
}

int bt_jr_finish(struct bt_jr *r)
{
	skip_ws(r);
	return r->p == r->end ? BT_OK : bt_jr_fail(r, "text after the JSON value");
}
