/*
 * Unit tests of the display matcher (engine/startup/display.c): a frame's
 * vsync number from its name, the draw of a UI frame by its number (the
 * first of that number at or after it) else by time (the first draw that
 * begins after it), frames added in any order, and the first frame to
 * end after a given time; on many frames and draws whose numbers repeat
 * or have no draw, the same draws as a walk through the later draws
 * finds (the matcher searches them by number).
 */
#include "engine/startup/display.h"
#include "tests/tap.h"

static struct bt_dframe fr(int64_t ts, int64_t dur, int64_t vsync, uint32_t frame)
{
	struct bt_dframe f = { ts, dur, vsync, frame };

	return f;
}

/* Random frames and draws, numbers from a small range (repeats; some with
 * no draw): each frame's draw as display.h defines it, found by walking. */
static void test_many(void)
{
	struct bt_display d;
	struct bt_display_hit h;
	uint64_t seed = 5;
	int i, k, good = 1;

	bt_display_init(&d);
	for (i = 0; i < 3000; i++) {
		bt_display_add_draw(&d, &(struct bt_dframe){ (int64_t)(tap_rand(&seed) % 100000), 10,
							     (int64_t)(tap_rand(&seed) % 700) - 50, (uint32_t)(i + 1) });
		bt_display_add_ui(&d, &(struct bt_dframe){ (int64_t)(tap_rand(&seed) % 100000), 5,
							   (int64_t)(tap_rand(&seed) % 900) - 50, (uint32_t)i });
	}
	for (i = 0; i < 3000 && good; i++) {
		const struct bt_dframe *u;
		int want = -1;
		bt_display_of(&d, &d.ui[i], &h);   /* sorts them first */
		u = &d.ui[i];
		for (k = 0; u->vsync >= 0 && k < (int)d.ndraw && want < 0; k++)
			if (d.draw[k].ts >= u->ts && d.draw[k].vsync == u->vsync)
				want = k;
		for (k = 0; want < 0 && k < (int)d.ndraw; k++)
			if (d.draw[k].ts > u->ts)
				want = k;
		good = want < 0 ? !h.drawn : h.drawn && h.draw.frame == d.draw[want].frame;
	}
	ok(good, "3000 frames and draws, numbers repeated or missing: each frame's draw as a walk finds it");
	bt_display_release(&d);
}

int main(void)
{
	struct bt_display d;
	struct bt_display_hit h;
	struct bt_dframe ui;

	is_int(bt_display_vsync("Choreographer#doFrame 191185"), 191185, "vsync: the number at the end");
	is_int(bt_display_vsync("DrawFrames 7"), 7, "vsync: DrawFrames N");
	is_int(bt_display_vsync("Choreographer#doFrame"), -1, "vsync: none");
	is_int(bt_display_vsync("doFrame 12a"), -1, "vsync: not a number");
	is_int(bt_display_vsync("doFrame "), -1, "vsync: nothing after the space");
	is_int(bt_display_vsync(NULL), -1, "vsync: no name");
	is_int(bt_display_vsync("doFrame 99999999999999999999999"), -1, "vsync: past int64 is none");

	bt_display_init(&d);
	/* draws out of order; one of N 10 before its UI frame (an older one) */
	bt_display_add_draw(&d, &(struct bt_dframe){ 2500, 100, 11, 21 });
	bt_display_add_draw(&d, &(struct bt_dframe){ 500, 100, 10, 20 });
	bt_display_add_draw(&d, &(struct bt_dframe){ 1800, 300, 10, 22 });
	bt_display_add_draw(&d, &(struct bt_dframe){ 1500, 100, 12, 23 });
	bt_display_add_ui(&d, &(struct bt_dframe){ 2000, 400, 11, 1 });
	bt_display_add_ui(&d, &(struct bt_dframe){ 1000, 700, 10, 2 });

	ui = fr(1000, 700, 10, 2);
	bt_display_of(&d, &ui, &h);
	ok(h.drawn && h.draw.frame == 22, "by number: the draw of its N at or after it, not an older one");
	is_int(h.end, 2100, "... ends at the draw's end");
	ui = fr(1000, 700, 13, 2);
	bt_display_of(&d, &ui, &h);
	ok(h.drawn && h.draw.frame == 23, "no draw of its N: the first draw that begins after it");
	ui = fr(1500, 100, -1, 3);
	bt_display_of(&d, &ui, &h);
	ok(h.drawn && h.draw.frame == 22, "no N: the first draw strictly after its begin");
	ui = fr(3000, 100, 14, 4);
	bt_display_of(&d, &ui, &h);
	ok(!h.drawn, "no draw after it: not drawn");
	is_int(h.end, 3100, "... ends at its own end");
	ok(h.ui.frame == 4, "the hit holds the UI frame");

	ok(bt_display_after(&d, 1700, &h) && h.ui.frame == 1, "after: a frame ending at the time does not count");
	is_int(h.end, 2600, "after: its draw of N 11 ends it");
	ok(bt_display_after(&d, 1699, &h) && h.ui.frame == 2, "after: one holding the time counts");
	ok(!bt_display_after(&d, 2400, &h), "after: none ends later");

	bt_display_add_ui(&d, &(struct bt_dframe){ 100, 50, -1, 5 });   /* added after sorting */
	ok(bt_display_after(&d, 0, &h) && h.ui.frame == 5, "a frame added late is sorted in");
	ok(h.drawn && h.draw.frame == 20, "... and drawn by the first draw after it");
	bt_display_release(&d);
	is_int(d.nui + d.ndraw, 0, "release empties it");
	ok(!bt_display_after(&d, 0, &h), "an empty display has no frame");
	test_many();
	return done_testing();
}
