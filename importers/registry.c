/*
 * Recognising an input by its content: each importer's probe looks at the
 * first bytes (or at a directory's files) and the first to accept wins.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "importers/importer.h"
#include "importers/known.h"

#define ENTRY(v) &v,
static const struct bt_importer *const importers[] = { BT_IMPORTERS(ENTRY) };
#undef ENTRY

#define N_IMPORTERS (sizeof importers / sizeof importers[0])

int bt_importer_find(const char *path, const struct bt_importer **out, struct bt_err *err)
{
	unsigned char head[64];
	size_t n = 0, i;
	const char *known;
	int dir = bt_is_dir(path);
	FILE *f;

	*out = NULL;
	if (!dir) {
		f = fopen(path, "rb");
		if (!f)
			return bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, strerror(errno));
		n = fread(head, 1, sizeof head, f);
		fclose(f);
	}
	for (i = 0; i < N_IMPORTERS; i++) {
		if (importers[i]->probe(path, dir ? NULL : head, n)) {
			*out = importers[i];
			return BT_OK;
		}
	}
	if (dir)
		return bt_err_set(err, BT_EFORMAT, "no trace found in directory '%s' (looked for sampling, sampling.bin, appTrace.bin)", path);
	if ((known = bt_known_format(head, n)) || (known = bt_known_text(path)))
		return bt_err_set(err, BT_EFORMAT, "unrecognised input '%s': %s", path, known);
	if (n < 4)
		return bt_err_set(err, BT_EFORMAT, "unrecognised input '%s': only %zu bytes at offset 0", path, n);
	return bt_err_set(err, BT_EFORMAT,
			  "unrecognised input '%s': bytes %02x %02x %02x %02x at offset 0 match no supported format",
			  path, head[0], head[1], head[2], head[3]);
}

const struct bt_importer *bt_importer_named(const char *name)
{
	size_t i;

	for (i = 0; i < N_IMPORTERS; i++)
		if (name && !strcmp(importers[i]->name, name))
			return importers[i];
	return NULL;
}

void bt_importer_nouns(unsigned flag, int with, struct bt_buf *b)
{
	size_t i, n = 0, k = 0;

	for (i = 0; i < N_IMPORTERS; i++)
		n += ((importers[i]->brings & flag) != 0) == (with != 0);
	for (i = 0; i < N_IMPORTERS; i++) {
		if (((importers[i]->brings & flag) != 0) != (with != 0))
			continue;
		k++;
		bt_buf_adds(b, k == 1 ? "" : k == n ? " or " : ", ");
		bt_buf_adds(b, importers[i]->noun);
	}
}
