/*
 * The importer interface: one file per input format behind struct
 * bt_importer, recognised by content. Importers decode bytes into rows
 * through engine/db.h inside the caller's transaction; they never query,
 * print or call Lua.
 */
#ifndef BT_IMPORTER_H
#define BT_IMPORTER_H

#include <stddef.h>
#include <stdint.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/err.h"

struct bt_import_opts {
	const char *mapping;   /* explicit mapping file, or NULL to search */
	const char *retrace;   /* ProGuard/R8 mapping.txt, or NULL */
	const char *symbols;   /* iOS address -> name map ("0xADDR name" lines), or NULL */
	/* Called now and then during long imports (may be NULL). */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

struct bt_importer {
	const char *name;
	/* 1 if this importer reads path. head holds the file's first n bytes,
	 * or is NULL when path is a directory. */
	int (*probe)(const char *path, const unsigned char *head, size_t n);
	int (*run)(struct bt_db *db, const char *path, const struct bt_import_opts *o,
		   struct bt_diag *diag, struct bt_err *err);
};

/* The importer that recognises path, or BT_EFORMAT naming its first bytes. */
int bt_importer_find(const char *path, const struct bt_importer **out, struct bt_err *err);

extern const struct bt_importer bt_imp_android;
extern const struct bt_importer bt_imp_ios;
extern const struct bt_importer bt_imp_perfetto;

#endif
