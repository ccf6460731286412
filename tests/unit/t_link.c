/*
 * Unit tests of the blocking-edge matcher: the latest wake not after the
 * wait's end, by key, the lock-id variant that also needs the wake within
 * the wait, and the notify variant that also needs another thread's.
 */
#include "engine/recon/link.h"
#include "tests/tap.h"

int main(void)
{
	struct bt_wait waits[] = {
		{ 1, 1, 100, 200, 100, "wait" },     /* two wakers: the later one in time */
		{ 2, 1, 300, 400, 300, "monitor" },  /* only a wake after the end */
		{ 3, 1, 500, 600, 500, "park" },     /* no waker at all */
	};
	struct bt_wake wakes[] = {
		{ 10, 2, 100, 190, 7 },
		{ 11, 3, 100, 150, 8 },
		{ 12, 2, 300, 450, 9 },
		{ 13, 4, 999, 10, 1 },   /* orphan */
		{ 14, 2, 100, 250, 5 },  /* after the end */
	};
	struct bt_wait locks[] = { { 4, 1, 1000, 2000, 0xabc, "lock" } };
	struct bt_wake rel[] = {
		{ 20, 5, 0xabc, 900, 1 },    /* before the wait: not its release */
		{ 21, 6, 0xabc, 1500, 2 },
		{ 22, 7, 0xabc, 1800, 3 },
		{ 23, 8, 0xabd, 1900, 4 },   /* another lock */
	};
	long match[3], one[1];

	bt_link_match(waits, 3, wakes, 5, 0, match);
	ok(match[0] >= 0 && wakes[match[0]].sample_id == 10, "latest wake not after the end wins");
	is_int(match[1], -1, "a wake after the end does not link");
	is_int(match[2], -1, "no wake, no link");
	bt_link_match(locks, 1, rel, 4, BT_LINK_WITHIN, one);
	ok(one[0] >= 0 && rel[one[0]].sample_id == 22, "lock id: last release within the wait");
	locks[0].end = 1400;
	bt_link_match(locks, 1, rel, 4, BT_LINK_WITHIN, one);
	is_int(one[0], -1, "lock id: a release before the wait does not count");
	bt_link_match(locks, 1, rel, 4, 0, one);
	ok(one[0] >= 0 && rel[one[0]].sample_id == 20, "without the window the earlier release links");
	bt_link_match(waits, 3, NULL, 0, 0, match);
	is_int(match[0], -1, "no wakes at all");

	/* Marker traces' notifies (bt_link_waits): within the wait, by
	 * another thread, of two at one time the one noted last. */
	{
		struct bt_wait obj[] = { { 1, 7, 100, 200, 0x51, "wait" } };
		struct bt_wake notes[] = {
			{ 0, 8, 0x51, 150, 0 },
			{ 1, 9, 0x51, 150, 0 },   /* at the same time, noted later */
			{ 2, 7, 0x51, 200, 0 },   /* the waiter's own, at its end */
			{ 3, 8, 0x51, 90, 0 },    /* before the wait */
		};
		bt_link_match(obj, 1, notes, 4, BT_LINK_WITHIN, one);
		ok(one[0] >= 0 && notes[one[0]].tid == 7, "without BT_LINK_OTHER the waiter's own notify at the end links");
		bt_link_match(obj, 1, notes, 4, BT_LINK_WITHIN | BT_LINK_OTHER, one);
		ok(one[0] >= 0 && notes[one[0]].sample_id == 1, "BT_LINK_OTHER: back past it, to the later-noted of two at once");
		obj[0].ts = 160;
		bt_link_match(obj, 1, notes, 4, BT_LINK_WITHIN | BT_LINK_OTHER, one);
		is_int(one[0], -1, "BT_LINK_OTHER stops at the wait's begin");
	}
	return done_testing();
}
