/*
 * Diagnostics: data-quality oddities an importer recovered from. Each class
 * (code) is counted with its first example, saved to the diagnostics table
 * and shown in the report; none is dropped silently.
 */
#ifndef BT_DIAG_H
#define BT_DIAG_H

#include <stdint.h>

#include "engine/db/db.h"
#include "engine/base/err.h"

#define BT_DIAG_MAX 48

struct bt_diag {
	struct bt_diag_item {
		char code[40];
		uint64_t count;
		char detail[240];
	} items[BT_DIAG_MAX];
	int n;
};

void bt_diag_init(struct bt_diag *d);

/* 1 for a code every healthy trace has some of (a main-thread wait whose
 * waker was not recorded, a waker record whose wait the rate limit
 * dropped): counted in the report's diagnostics, printed only with -v. */
int bt_diag_routine(const char *code);

/* Count one occurrence of code; the message is formatted for the first only. */
void bt_diag_warn(struct bt_diag *d, const char *code, const char *fmt, ...) BT_PRINTF(3, 4);

/* Count n occurrences at once with a detail (replaces an earlier detail). */
void bt_diag_count(struct bt_diag *d, const char *code, uint64_t n, const char *fmt, ...) BT_PRINTF(4, 5);

/*
 * An input cut short and imported up to its last intact part: counts
 * code with the formatted text as its detail, and marks the trace partial
 * in meta (partial = 1, partial_reason = the texts of every cut, joined
 * by "; "), which the reports show at their top. Inside the import's
 * transaction; BT_ESQL if meta cannot be written.
 */
int bt_diag_partial(struct bt_diag *d, struct bt_db *db, const char *code, struct bt_err *err,
		    const char *fmt, ...) BT_PRINTF(5, 6);

/* Write every class to the diagnostics table (inside the caller's transaction). */
int bt_diag_save(const struct bt_diag *d, struct bt_db *db, struct bt_err *err);

#endif
