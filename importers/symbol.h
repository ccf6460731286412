/*
 * Parsing of method symbols as ART's PrettyMethod prints them,
 * "<return type> <package.Class>.<method>(<param>, <param>)", and as
 * retrace rewrites them (same without the return type).
 */
#ifndef BT_SYMBOL_H
#define BT_SYMBOL_H

#include <stddef.h>

struct bt_span {
	const char *p;   /* NULL when absent */
	size_t len;
};

struct bt_symbol {
	struct bt_span ret, cls, method, params;
};

/* Split s[0..len) into parts pointing into s. Returns 1 if it had a
 * method shape, 0 otherwise (e.g. "<runtime method>"; all parts absent). */
int bt_symbol_parse(const char *s, size_t len, struct bt_symbol *out);

#endif
