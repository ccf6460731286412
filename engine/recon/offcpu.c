/*
 * Off-CPU time by scheduler state (offcpu.h): one pass over the states,
 * thread by thread in time order, against the thread's top-level slices,
 * which never overlap one another, so a state's share is its overlap
 * with each slice it meets.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/db/rows.h"
#include "engine/recon/offcpu.h"

enum { NCLASS = 5 };   /* offcpu_states.sql's classes: 0 other, 1 runnable, 2 sleeping, 3 io, 4 D */

void bt_offcpu_init(struct bt_offcpu *o)
{
	o->top = NULL;
	o->n = o->cap = 0;
}

void bt_offcpu_release(struct bt_offcpu *o)
{
	if (!o)
		return;
	free(o->top);
	bt_offcpu_init(o);
}

void bt_offcpu_add(struct bt_offcpu *o, int64_t tid, int64_t ts, int64_t end)
{
	if (end <= ts)
		return;   /* covers nothing */
	BT_GROW(o->top, o->n + 1, o->cap);
	o->top[o->n].tid = tid;
	o->top[o->n].ts = ts;
	o->top[o->n].end = end;
	o->n++;
}

static int flush(struct bt_db *db, int64_t tid, const int64_t *sum, struct bt_err *err)
{
	return bt_db_exec(db, BT_SQL_UPDATE_THREAD_OFFCPU, err, "iiiii", tid, sum[1], sum[2], sum[3], sum[4]);
}

/* The first top-level slice of tid, or o->n if it has none: each
 * thread's slices are contiguous and threads come in ascending tid order,
 * so a binary search finds them. */
static size_t first_of(const struct bt_offcpu *o, int64_t tid)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->top[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int bt_offcpu_store(const struct bt_offcpu *o, struct bt_db *db, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t tid = 0, sum[NCLASS] = { 0 };
	size_t j = 0;
	int have = 0, has_slices = 0, rc;

	if ((rc = bt_rows_open(&r, db, BT_SQL_OFFCPU_STATES, err)))
		return rc;
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t t = bt_rows_int(r, 0), a = bt_rows_int(r, 1), b = bt_sat_add(a, bt_rows_int(r, 2));
		int64_t c = bt_rows_int(r, 3);
		size_t k;

		if (!have || t != tid) {
			if (have && has_slices && flush(db, tid, sum, err)) {
				rc = -1;
				break;
			}
			tid = t;
			have = 1;
			sum[0] = sum[1] = sum[2] = sum[3] = sum[4] = 0;
			j = first_of(o, tid);
			has_slices = j < o->n && o->top[j].tid == tid;
		}
		if (c <= 0 || c >= NCLASS)
			continue;
		while (j < o->n && o->top[j].tid == tid && o->top[j].end <= a)
			j++;   /* states come in time order: a slice ended before this one is done with */
		for (k = j; k < o->n && o->top[k].tid == tid && o->top[k].ts < b; k++) {
			int64_t from = a > o->top[k].ts ? a : o->top[k].ts, to = b < o->top[k].end ? b : o->top[k].end;
			if (to > from)
				sum[c] = bt_sat_add(sum[c], to - from);
		}
	}
	if (rc == 0 && have && has_slices && flush(db, tid, sum, err))
		rc = -1;
	bt_rows_close(r);
	return rc ? err->code : BT_OK;
}
