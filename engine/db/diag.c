/*
 * Diagnostic counting (see diag.h). A fixed table: the number of distinct
 * classes is small and known, so a full table means a programming error.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/diag.h"

int bt_diag_routine(const char *code)
{
	static const char *const routine[] = { "unlinked_wait", "orphan_waker",
					       "art_exit_without_entry", "art_open_at_end",
					       "perfetto_frame_timeline", "perfetto_samples" };
	size_t i;

	for (i = 0; i < sizeof routine / sizeof routine[0]; i++)
		if (!strcmp(code, routine[i]))
			return 1;
	return 0;
}

void bt_diag_init(struct bt_diag *d)
{
	memset(d, 0, sizeof *d);
}

static struct bt_diag_item *find(struct bt_diag *d, const char *code, int *fresh)
{
	int i;

	*fresh = 0;
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->items[i].code, code))
			return &d->items[i];
	assert(d->n < BT_DIAG_MAX);
	*fresh = 1;
	snprintf(d->items[d->n].code, sizeof d->items[0].code, "%s", code);
	return &d->items[d->n++];
}

void bt_diag_warn(struct bt_diag *d, const char *code, const char *fmt, ...)
{
	int fresh;
	struct bt_diag_item *it = find(d, code, &fresh);
	va_list ap;

	it->count++;
	if (!fresh)
		return;
	va_start(ap, fmt);
	vsnprintf(it->detail, sizeof it->detail, fmt, ap);
	va_end(ap);
}

void bt_diag_count(struct bt_diag *d, const char *code, uint64_t n, const char *fmt, ...)
{
	int fresh;
	struct bt_diag_item *it = find(d, code, &fresh);
	va_list ap;

	it->count += n;
	va_start(ap, fmt);
	vsnprintf(it->detail, sizeof it->detail, fmt, ap);
	va_end(ap);
}

int bt_diag_partial(struct bt_diag *d, struct bt_db *db, const char *code, struct bt_err *err,
		    const char *fmt, ...)
{
	struct bt_buf now = BT_BUF_INIT, all = BT_BUF_INIT;
	char before[2048];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	bt_buf_vaddf(&now, fmt, ap);
	va_end(ap);
	bt_diag_count(d, code, 1, "%s", now.buf);
	rc = bt_db_meta_text(db, "partial_reason", before, sizeof before, err);
	if (before[0])   /* a dump and its mapping may both be cut */
		bt_buf_addf(&all, "%s; ", before);
	bt_buf_adds(&all, now.buf);
	rc = rc ? rc : bt_db_set_meta_int(db, "partial", 1, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "partial_reason", all.buf, err);
	bt_buf_release(&now);
	bt_buf_release(&all);
	return rc;
}

int bt_diag_save(const struct bt_diag *d, struct bt_db *db, struct bt_err *err)
{
	int i, rc;

	for (i = 0; i < d->n; i++) {
		rc = bt_db_exec(db, BT_SQL_INSERT_DIAGNOSTIC, err, "tit", d->items[i].code,
				(int64_t)d->items[i].count, d->items[i].detail);
		if (rc)
			return rc;
	}
	return BT_OK;
}
