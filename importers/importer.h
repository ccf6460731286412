/*
 * The importers' registry: one folder per input format, each behind the
 * struct bt_importer the pipeline runs (engine/recon/pipeline.h), found
 * by content. A new format adds its folder and one line to the list below.
 */
#ifndef BT_IMPORTER_H
#define BT_IMPORTER_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"
#include "engine/recon/pipeline.h"

/* The importer that recognises path, or BT_EFORMAT naming its first bytes. */
int bt_importer_find(const char *path, const struct bt_importer **out, struct bt_err *err);

/* The importer whose name is name, or NULL. */
const struct bt_importer *bt_importer_named(const char *name);

/* Add to b, for people, the formats whose brings has flag set (with 1) or
 * clear (with 0), in the list's order: "a systrace or a Perfetto trace". */
void bt_importer_nouns(unsigned flag, int with, struct bt_buf *b);

/* Every importer, in the order their probes are tried: a new format is
 * one more X(bt_imp_NAME) here, defined in its folder. */
#define BT_IMPORTERS(X) \
	X(bt_imp_android) \
	X(bt_imp_ios) \
	X(bt_imp_systrace) \
	X(bt_imp_perfetto) \
	X(bt_imp_btrace2) \
	X(bt_imp_art)

#define BT_IMPORTER_DECLARE(v) extern const struct bt_importer v;
BT_IMPORTERS(BT_IMPORTER_DECLARE)

#endif
