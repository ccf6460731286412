/*
 * A validating scanner for small JSON objects (see json.h). Nesting is
 * limited so hostile input cannot exhaust the stack.
 */
#include <string.h>

#include "importers/android/json.h"

#define MAX_NEST 32

struct scan {
	const char *s;
	size_t len, i;
};

static void ws(struct scan *j)
{
	while (j->i < j->len && strchr(" \t\r\n", j->s[j->i]) && j->s[j->i])
		j->i++;
}

static int lit(struct scan *j, const char *w)
{
	size_t n = strlen(w);

	if (j->len - j->i < n || memcmp(j->s + j->i, w, n))
		return -1;
	j->i += n;
	return 0;
}

static int string(struct scan *j, size_t *b, size_t *e)
{
	if (j->i >= j->len || j->s[j->i] != '"')
		return -1;
	*b = ++j->i;
	while (j->i < j->len && j->s[j->i] != '"') {
		if ((unsigned char)j->s[j->i] < 0x20)
			return -1;
		if (j->s[j->i] == '\\' && ++j->i >= j->len)
			return -1;
		j->i++;
	}
	if (j->i >= j->len)
		return -1;
	*e = j->i++;
	return 0;
}

static int digits(struct scan *j)
{
	size_t b = j->i;

	while (j->i < j->len && j->s[j->i] >= '0' && j->s[j->i] <= '9')
		j->i++;
	return j->i > b ? 0 : -1;
}

/* Number; *is_int says whether it was a plain integer. */
static int number(struct scan *j, int *is_int)
{
	*is_int = 1;
	if (j->i < j->len && j->s[j->i] == '-')
		j->i++;
	if (digits(j))
		return -1;
	if (j->i < j->len && j->s[j->i] == '.') {
		j->i++;
		*is_int = 0;
		if (digits(j))
			return -1;
	}
	if (j->i < j->len && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
		j->i++;
		*is_int = 0;
		if (j->i < j->len && (j->s[j->i] == '+' || j->s[j->i] == '-'))
			j->i++;
		if (digits(j))
			return -1;
	}
	return 0;
}

static int value(struct scan *j, int nest);

static int container(struct scan *j, int nest, char close, int keyed)
{
	size_t b, e;

	if (nest > MAX_NEST)
		return -1;
	j->i++;
	ws(j);
	if (j->i < j->len && j->s[j->i] == close) {
		j->i++;
		return 0;
	}
	for (;;) {
		ws(j);
		if (keyed) {
			if (string(j, &b, &e))
				return -1;
			ws(j);
			if (lit(j, ":"))
				return -1;
		}
		if (value(j, nest + 1))
			return -1;
		ws(j);
		if (j->i < j->len && j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		return j->i < j->len && j->s[j->i] == close ? (j->i++, 0) : -1;
	}
}

static int value(struct scan *j, int nest)
{
	size_t b, e;
	int is_int;

	ws(j);
	if (j->i >= j->len)
		return -1;
	switch (j->s[j->i]) {
	case '{': return container(j, nest, '}', 1);
	case '[': return container(j, nest, ']', 0);
	case '"': return string(j, &b, &e);
	case 't': return lit(j, "true");
	case 'f': return lit(j, "false");
	case 'n': return lit(j, "null");
	default: return number(j, &is_int);
	}
}

static int parse_int(const char *s, size_t n, int64_t *out)
{
	int neg = n && *s == '-';
	uint64_t v = 0;
	size_t i;

	for (i = neg; i < n; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX + neg)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int bt_json_get_int(const char *s, size_t len, const char *key, int64_t *out, size_t *where)
{
	struct scan j = { s, len, 0 };
	size_t kb, ke, vb, klen = strlen(key);
	int found = BT_JSON_MISSING, is_int;

	ws(&j);
	if (j.i >= len || s[j.i] != '{')
		goto bad;
	j.i++;
	ws(&j);
	if (j.i < len && s[j.i] == '}') {
		j.i++;
		goto end;
	}
	for (;;) {
		ws(&j);
		if (string(&j, &kb, &ke))
			goto bad;
		ws(&j);
		if (lit(&j, ":"))
			goto bad;
		ws(&j);
		vb = j.i;
		if (ke - kb == klen && !memcmp(s + kb, key, klen) && j.i < len &&
		    (s[j.i] == '-' || (s[j.i] >= '0' && s[j.i] <= '9'))) {
			if (number(&j, &is_int))
				goto bad;
			found = is_int && !parse_int(s + vb, j.i - vb, out) ? BT_JSON_FOUND : BT_JSON_NOT_INT;
		} else if (value(&j, 1)) {
			goto bad;
		} else if (ke - kb == klen && !memcmp(s + kb, key, klen)) {
			found = BT_JSON_NOT_INT;
		}
		ws(&j);
		if (j.i < len && s[j.i] == ',') {
			j.i++;
			continue;
		}
		if (j.i < len && s[j.i] == '}') {
			j.i++;
			break;
		}
		goto bad;
	}
end:
	ws(&j);
	if (j.i != len)
		goto bad;
	return found;
bad:
	if (where)
		*where = j.i;
	return BT_JSON_BAD;
}
