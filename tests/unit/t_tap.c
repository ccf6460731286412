/*
 * Unit tests of the slice taps (engine/profile/tap.c): begin resets each
 * tap's filter to every slice and lets the tap narrow it, a slice goes to
 * the taps that want it (a tap's error stops it), thread to those that
 * have the callback, ready to the owner; no taps, nothing to do.
 */
#include <string.h>

#include "engine/profile/tap.h"
#include "tests/tap.h"

/* The taps: each slice to the taps that want it, begin and thread to all. */
struct counts { int begins, slices, threads; int64_t tids; };

static int t_begin(void *ctx, struct bt_db *db, struct bt_tap_filter *want, struct bt_err *err)
{
	(void)db;
	((struct counts *)ctx)->begins++;
	if (want->tid != -1 || want->min_dur != INT64_MIN)
		return bt_err_set(err, BT_EFORMAT, "want not reset");
	want->tid = 7;
	return BT_OK;
}

static int t_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	(void)part;
	((struct counts *)ctx)->slices++;
	((struct counts *)ctx)->tids += s->tid;
	return s->dur == 666 ? bt_err_set(err, BT_EFORMAT, "refused") : BT_OK;
}

static int t_thread(void *ctx, int part, int64_t tid, int64_t n, struct bt_err *err)
{
	(void)part;
	(void)tid;
	(void)n;
	(void)err;
	((struct counts *)ctx)->threads++;
	return BT_OK;
}

static int t_ready(void *ctx, struct bt_db *db, struct bt_err *err)
{
	(void)db;
	(void)err;
	((struct counts *)ctx)->begins += 100;
	return BT_OK;
}

static void test_taps(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct counts a, b, owner;
	struct bt_slice_tap v[2] = { { t_begin, t_slice, t_thread, &a }, { NULL, t_slice, NULL, &b } };
	struct bt_tap_filter want[2] = { { 3, 3 }, { 3, 3 } };
	struct bt_taps taps = { v, want, 2, t_ready, &owner, NULL };
	struct bt_slice s;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&owner, 0, sizeof owner);
	memset(&s, 0, sizeof s);
	is_int(bt_taps_begin(&taps, NULL, &err), BT_OK, "taps: begin");
	ok(a.begins == 1 && want[1].tid == -1 && want[1].min_dur == INT64_MIN,
	   "taps: each filter reset to every slice, begin may narrow it");
	s.tid = 7;
	s.dur = -5;
	bt_taps_slice(&taps, 0, &s, &err);
	s.tid = 8;
	bt_taps_slice(&taps, 1, &s, &err);
	ok(a.slices == 1 && a.tids == 7 && b.slices == 2 && b.tids == 15, "taps: a slice to the taps that want it");
	s.dur = 666;
	is_int(bt_taps_slice(&taps, 0, &s, &err), BT_EFORMAT, "taps: a tap's error stops the slice");
	is_int(b.slices, 3, "... after the taps before it");
	is_int(bt_taps_thread(&taps, 0, 7, 3, &err), BT_OK, "taps: thread");
	ok(a.threads == 1, "taps: thread to those that have it");
	is_int(bt_taps_ready(&taps, NULL, &err), BT_OK, "taps: ready");
	is_int(owner.begins, 100, "taps: the owner's ready called");
	ok(!bt_taps_begin(NULL, NULL, &err) && !bt_taps_ready(NULL, NULL, &err) && !bt_taps_thread(NULL, 0, 1, 1, &err),
	   "no taps: nothing to do");
}

int main(void)
{
	test_taps();
	return done_testing();
}
