/*
 * Method symbol parsing (see symbol.h).
 */
#include <string.h>

#include "importers/symbol.h"

static const char *last_of(const char *s, size_t len, char c)
{
	while (len--)
		if (s[len] == c)
			return s + len;
	return NULL;
}

int bt_symbol_parse(const char *s, size_t len, struct bt_symbol *out)
{
	const char *lp, *rp, *sp, *dot, *name;
	size_t head;

	memset(out, 0, sizeof *out);
	if (!len || s[0] == '<')
		return 0;
	lp = last_of(s, len, '(');
	rp = last_of(s, len, ')');
	if (!lp || !rp || rp < lp || lp == s)
		return 0;
	head = (size_t)(lp - s);
	sp = last_of(s, head, ' ');
	name = sp ? sp + 1 : s;
	if (name == lp)
		return 0;
	if (sp) {
		out->ret.p = s;
		out->ret.len = (size_t)(sp - s);
	}
	dot = last_of(name, (size_t)(lp - name), '.');
	if (dot && dot > name) {
		out->cls.p = name;
		out->cls.len = (size_t)(dot - name);
		name = dot + 1;
	}
	out->method.p = name;
	out->method.len = (size_t)(lp - name);
	out->params.p = lp + 1;
	out->params.len = (size_t)(rp - lp - 1);
	return out->method.len > 0;
}
