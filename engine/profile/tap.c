/*
 * Calling a run's taps in turn (tap.h).
 */
#include "engine/profile/stacks.h"
#include "engine/profile/tap.h"

int bt_taps_begin(const struct bt_taps *t, struct bt_db *db, struct bt_err *err)
{
	size_t k;

	for (k = 0; t && k < t->n; k++)
		if (t->v[k].begin && t->v[k].begin(t->v[k].ctx, db, err))
			return err->code;
	return BT_OK;
}

int bt_taps_done(const struct bt_taps *t, struct bt_profile *p, struct bt_err *err)
{
	size_t k;

	if (t && t->stacks)
		bt_stacks_take(t->stacks, p);

	for (k = 0; t && k < t->n; k++)
		if (t->v[k].done && t->v[k].done(t->v[k].ctx, p, err))
			return err->code;
	return BT_OK;
}

int bt_taps_ready(const struct bt_taps *t, struct bt_db *db, struct bt_err *err)
{
	return t && t->ready ? t->ready(t->ctx, db, err) : BT_OK;
}
