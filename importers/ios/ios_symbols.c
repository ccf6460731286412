/*
 * The --symbols file for iOS imports: an address -> name map, one
 * "0xADDR NAME" per line (hex, "0x" optional; blank and '#' lines
 * skipped). atos output pasted after its address, "NAME (in IMAGE)
 * (FILE:LINE)", keeps only NAME, as the reference tool does (spec §11.2).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "importers/ios/ios_int.h"
#include "engine/base/utf8.h"

static int sym_cmp(const void *a, const void *b)
{
	const struct bt_ios_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Parse one line [p, end); 0 blank, 1 entry, -1 malformed. */
static int parse_line(const char *p, const char *end, uint64_t *addr, const char **name,
		      size_t *len)
{
	const char *q, *in;
	char *stop;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p == '#')
		return 0;
	if (!isxdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*addr = strtoull(p, &stop, 16);   /* accepts the 0x prefix */
	if (stop == p || stop >= end || errno || !isspace((unsigned char)*stop))
		return -1;
	for (q = stop; q < end && isspace((unsigned char)*q); q++)
		;
	while (end > q && isspace((unsigned char)end[-1]))
		end--;
	if (q == end)
		return -1;
	for (in = q; in + 5 <= end; in++)
		if (!memcmp(in, " (in ", 5) && in > q) {
			end = in;
			break;
		}
	*name = q;
	*len = (size_t)(end - q);
	return 1;
}

int bt_ios_symbols_parse(struct bt_ios_stacks *s, const char *data, size_t n, const char *file,
			 struct bt_err *err)
{
	const char *p = data, *end, *nl, *name;
	size_t cap = s->nsyms, len, line = 0;
	uint64_t addr;
	int k;

	if (!n)
		return BT_OK;
	for (end = data + n; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		line++;
		if (memchr(p, '\0', (size_t)(nl - p)))
			return bt_err_set(err, BT_EFORMAT, "NUL byte in line %zu of symbols file '%s'", line, file);
		k = parse_line(p, nl, &addr, &name, &len);
		if (k < 0)
			return bt_err_set(err, BT_EFORMAT, "bad line %zu in symbols file '%s': expected '0xADDR name'",
					  line, file);
		if (!k)
			continue;
		if (!bt_utf8_valid(name, len))
			bt_diag_warn(s->diag, "invalid_utf8", "name at line %zu of symbols file '%s' is not UTF-8; bad bytes shown as U+FFFD",
				     line, file);
		BT_GROW(s->syms, s->nsyms + 1, cap);
		s->syms[s->nsyms].addr = addr;
		s->syms[s->nsyms++].off = s->strs.len;
		bt_utf8_sanitize(&s->strs, name, len);
		bt_buf_addc(&s->strs, '\0');
	}
	if (s->nsyms)
		qsort(s->syms, s->nsyms, sizeof *s->syms, sym_cmp);
	return BT_OK;
}

int bt_ios_symbols_load(struct bt_ios_stacks *s, const char *file, struct bt_err *err)
{
	struct bt_fmap m = { NULL, 0 };
	int rc = bt_fmap_open(&m, file, err);

	if (!rc)
		rc = bt_ios_symbols_parse(s, (const char *)m.data, m.data ? m.len : 0, file, err);
	bt_fmap_release(&m);
	return rc;
}
