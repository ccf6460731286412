/*
 * Calling a run's taps in turn (tap.h).
 */
#include "engine/profile/stacks.h"
#include "engine/profile/tap.h"

int bt_taps_begin(const struct bt_taps *t, struct bt_db *db, struct bt_err *err)
{
	size_t k;

	for (k = 0; t && k < t->n; k++) {
		t->want[k].tid = -1;
		t->want[k].min_dur = INT64_MIN;
		if (t->v[k].begin && t->v[k].begin(t->v[k].ctx, db, &t->want[k], err))
			return err->code;
	}
	return BT_OK;
}

int bt_taps_slice(const struct bt_taps *t, int part, const struct bt_slice *s, struct bt_err *err)
{
	size_t k;

	for (k = 0; k < t->n; k++) {
		const struct bt_tap_filter *w = &t->want[k];
		if ((w->tid < 0 || w->tid == s->tid) && s->dur >= w->min_dur &&
		    t->v[k].slice(t->v[k].ctx, part, s, err))
			return err->code;
	}
	return BT_OK;
}

int bt_taps_thread(const struct bt_taps *t, int part, int64_t tid, int64_t n, struct bt_err *err)
{
	size_t k;

	for (k = 0; t && k < t->n; k++)
		if (t->v[k].thread && t->v[k].thread(t->v[k].ctx, part, tid, n, err))
			return err->code;
	return BT_OK;
}

void bt_taps_done(const struct bt_taps *t, struct bt_profile *p)
{
	if (t && t->stacks)
		bt_stacks_take(t->stacks, p);
}

int bt_taps_ready(const struct bt_taps *t, struct bt_db *db, struct bt_err *err)
{
	return t && t->ready ? t->ready(t->ctx, db, err) : BT_OK;
}
