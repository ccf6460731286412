/*
 * Short method names (see names.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/names.h"

#define TOP_LEVEL 3

/* Where the qualified name before the parameter list starts: back from
 * paren to a space outside template brackets ("void std::vector<int,
 * A>::push_back(int)"). */
static const char *qualified_start(const char *name, const char *paren)
{
	const char *p = paren;
	int depth = 0;

	while (p > name) {
		char ch = p[-1];

		if (ch == '>')
			depth++;
		else if (ch == '<' && depth > 0)
			depth--;
		else if (ch == ' ' && depth == 0)
			break;
		p--;
	}
	return p;
}

/* Start of the last component of s[0..len) split by sep ("." or "::")
 * outside template brackets, skipping `skip` more components. */
static const char *last_parts(const char *s, size_t len, const char *sep, int keep)
{
	size_t k = strlen(sep);
	const char *p = s + len;
	int depth = 0;

	while (p > s) {
		char ch = p[-1];

		if (ch == '>')
			depth++;
		else if (ch == '<' && depth > 0)
			depth--;
		else if (depth == 0 && (size_t)(p - s) >= k && !memcmp(p - k, sep, k)) {
			if (--keep == 0)
				return p;
			p -= k;
			continue;
		}
		p--;
	}
	return s;
}

/* "(android.view.ViewGroup, int)" -> "(ViewGroup, int)". */
static void short_params(const char *p, const char *end, const char *sep, struct bt_buf *b)
{
	bt_buf_addc(b, '(');
	while (p < end) {
		const char *q = p;
		int depth = 0;

		while (q < end && (depth > 0 || *q != ',')) {
			if (*q == '<')
				depth++;
			else if (*q == '>' && depth > 0)
				depth--;
			q++;
		}
		while (p < q && *p == ' ')
			p++;
		if (p < q) {
			const char *s = last_parts(p, (size_t)(q - p), sep, 1);

			bt_buf_add(b, s, (size_t)(q - s));
		}
		if (q < end)
			bt_buf_adds(b, ", ");
		p = q + 1;
	}
	bt_buf_addc(b, ')');
}

static int has_colons(const char *p, const char *end)
{
	for (; p + 1 < end; p++)
		if (p[0] == ':' && p[1] == ':')
			return 1;
	return 0;
}

void bt_name_short(const char *name, size_t len, int level, struct bt_buf *b)
{
	const char *paren = memchr(name, '(', len), *close, *start, *sep;

	/* "inflate (activity_main)", "monitor contention with owner T (12) at ...":
	 * a space before the list makes it words, no signature */
	if (level >= TOP_LEVEL || !paren || paren == name || paren[-1] == ' ' || name[0] == '-' ||
	    name[0] == '+' || !(close = memchr(paren, ')', len - (size_t)(paren - name)))) {
		bt_buf_add(b, name, len);
		return;
	}
	start = qualified_start(name, paren);
	sep = has_colons(start, paren) ? "::" : ".";
	if (level < 2)
		start = last_parts(start, (size_t)(paren - start), sep, 2);
	bt_buf_add(b, start, (size_t)(paren - start));
	if (level >= 1) {
		/* the last ')' closes the list: "(int (*)(int))" keeps its inner pair */
		const char *end = name + len;

		while (end > close && end[-1] != ')')
			end--;
		short_params(paren + 1, end - 1, sep, b);
	}
}

struct bt_namer {
	struct bt_strmap index;     /* full name -> 1 + its slot */
	char **full, **shown;
	unsigned char *level;
	size_t n, cap;
	int resolved;
};

struct bt_namer *bt_namer_new(void)
{
	struct bt_namer *n = bt_xcalloc(1, sizeof *n);

	bt_strmap_init(&n->index);
	return n;
}

void bt_namer_free(struct bt_namer *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		free(n->full[i]);
		free(n->shown[i]);
	}
	free(n->full);
	free(n->shown);
	free(n->level);
	bt_strmap_release(&n->index);
	free(n);
}

void bt_namer_add(struct bt_namer *n, const char *name)
{
	size_t len;

	if (!n || !name || n->resolved)
		return;
	len = strlen(name);
	if (bt_strmap_get(&n->index, name, len))
		return;
	if (n->n == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 64;
		n->full = bt_xrealloc(n->full, n->cap * sizeof *n->full);
		n->shown = bt_xrealloc(n->shown, n->cap * sizeof *n->shown);
		n->level = bt_xrealloc(n->level, n->cap);
	}
	n->full[n->n] = bt_xstrndup(name, len);
	n->shown[n->n] = NULL;
	n->level[n->n] = 0;
	bt_strmap_put(&n->index, name, len, (uint32_t)(n->n + 1));
	n->n++;
}

static void show(struct bt_namer *n, size_t i, struct bt_buf *b)
{
	bt_buf_reset(b);
	bt_name_short(n->full[i], strlen(n->full[i]), n->level[i], b);
	free(n->shown[i]);
	n->shown[i] = bt_xstrndup(b->buf, b->len);
}

/* Lengthen every name whose short form another shares, until none does:
 * at most TOP_LEVEL rounds, as the full names differ. */
static void resolve(struct bt_namer *n)
{
	struct bt_buf b;
	size_t i, rounds;

	bt_buf_init(&b);
	for (i = 0; i < n->n; i++)
		show(n, i, &b);
	for (rounds = 0; rounds < TOP_LEVEL; rounds++) {
		struct bt_strmap seen;
		uint32_t *count = bt_xcalloc(n->n + 1, sizeof *count);
		int changed = 0;

		bt_strmap_init(&seen);
		for (i = 0; i < n->n; i++) {
			size_t len = strlen(n->shown[i]);
			uint32_t k = bt_strmap_get(&seen, n->shown[i], len);

			if (!k)
				bt_strmap_put(&seen, n->shown[i], len, k = (uint32_t)(i + 1));
			count[k]++;
		}
		for (i = 0; i < n->n; i++) {
			uint32_t k = bt_strmap_get(&seen, n->shown[i], strlen(n->shown[i]));

			if (count[k] > 1 && n->level[i] < TOP_LEVEL) {
				n->level[i]++;
				changed = 1;
			}
		}
		bt_strmap_release(&seen);
		free(count);
		if (!changed)
			break;
		for (i = 0; i < n->n; i++)
			show(n, i, &b);
	}
	bt_buf_release(&b);
	n->resolved = 1;
}

void bt_namer_done(struct bt_namer *n)
{
	if (n && !n->resolved)
		resolve(n);
}

const char *bt_namer_get(const struct bt_namer *n, const char *name)
{
	uint32_t v;

	if (!n || !name || !n->resolved)
		return name;
	v = bt_strmap_get(&n->index, name, strlen(name));
	return v ? n->shown[v - 1] : name;
}
