/*
 * When a frame of the start reached the screen (display.h): the frames
 * kept as they end, sorted once when asked, and the draw of a frame found
 * by its vsync number, else by time.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/search.h"
#include "engine/startup/display.h"

#define BT_DISPLAY_MAX (1u << 20)   /* frames of each kind kept: hours of 60 Hz */

void bt_display_init(struct bt_display *d)
{
	memset(d, 0, sizeof *d);
}

void bt_display_release(struct bt_display *d)
{
	free(d->ui);
	free(d->draw);
	free(d->by_vsync);
	memset(d, 0, sizeof *d);
}

int64_t bt_display_vsync(const char *name)
{
	const char *sp = name ? strrchr(name, ' ') : NULL;
	int64_t v = 0;

	if (!sp || !sp[1])
		return -1;
	for (sp++; *sp; sp++) {
		if (*sp < '0' || *sp > '9' || v > INT64_MAX / 10 - 10)
			return -1;
		v = v * 10 + (*sp - '0');
	}
	return v;
}

static void add(struct bt_display *d, struct bt_dframe **v, size_t *n, size_t *cap, const struct bt_dframe *f)
{
	if (*n == BT_DISPLAY_MAX) {
		d->full = 1;
		return;
	}
	BT_GROW(*v, *n + 1, *cap);
	(*v)[(*n)++] = *f;
	d->sorted = 0;
}

void bt_display_add_ui(struct bt_display *d, const struct bt_dframe *f)
{
	add(d, &d->ui, &d->nui, &d->ucap, f);
}

void bt_display_add_draw(struct bt_display *d, const struct bt_dframe *f)
{
	add(d, &d->draw, &d->ndraw, &d->dcap, f);
}

static int by_ts(const void *x, const void *y)
{
	const struct bt_dframe *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (a->dur > b->dur) - (a->dur < b->dur);
}

static int by_vsync_at(const void *x, const void *y)
{
	const struct bt_vsync_draw *a = x, *b = y;

	if (a->vsync != b->vsync)
		return a->vsync < b->vsync ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

/* The frames and draws by time, and the draws with an N by N, so a
 * frame's draw is a search, not a walk through every later draw (a
 * trace whose frames' Ns have no draw walked them all for each). */
static void sort(struct bt_display *d)
{
	size_t i;

	if (d->sorted)
		return;
	if (d->nui)
		bt_sort_unless_sorted(d->ui, d->nui, sizeof *d->ui, by_ts);
	if (d->ndraw)
		bt_sort_unless_sorted(d->draw, d->ndraw, sizeof *d->draw, by_ts);
	free(d->by_vsync);
	d->by_vsync = d->ndraw ? bt_xmalloc(d->ndraw * sizeof *d->by_vsync) : NULL;
	for (i = d->nbv = 0; i < d->ndraw; i++)
		if (d->draw[i].vsync >= 0)
			d->by_vsync[d->nbv++] = (struct bt_vsync_draw){ d->draw[i].vsync, i };
	bt_sort_unless_sorted(d->by_vsync, d->nbv, sizeof *d->by_vsync, by_vsync_at);
	d->sorted = 1;
}

/* The first draw of N vsync at index at or later, else d->ndraw. */
static size_t draw_of_vsync(const struct bt_display *d, int64_t vsync, size_t at)
{
	const struct bt_vsync_draw key = { vsync, at };
	size_t k = bt_first_not_before(d->by_vsync, d->nbv, sizeof *d->by_vsync, &key, by_vsync_at);

	return k < d->nbv && d->by_vsync[k].vsync == vsync ? d->by_vsync[k].at : d->ndraw;
}

/* The first draw beginning at or after ts (strictly after: after 1). */
static size_t first_draw(const struct bt_display *d, int64_t ts, int after)
{
	size_t lo = 0, hi = d->ndraw;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->draw[mid].ts < ts || (after && d->draw[mid].ts == ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void bt_display_of(struct bt_display *d, const struct bt_dframe *ui, struct bt_display_hit *out)
{
	size_t i, at;

	sort(d);
	memset(out, 0, sizeof *out);
	out->ui = *ui;
	out->end = ui->ts + ui->dur;
	at = first_draw(d, ui->ts, 0);
	if (ui->vsync >= 0 && (i = draw_of_vsync(d, ui->vsync, at)) < d->ndraw)
		out->draw = d->draw[i], out->drawn = 1;
	if (!out->drawn && (at = first_draw(d, ui->ts, 1)) < d->ndraw)
		out->draw = d->draw[at], out->drawn = 1;
	if (out->drawn)
		out->end = out->draw.ts + out->draw.dur;
}

int bt_display_after(struct bt_display *d, int64_t ts, struct bt_display_hit *out)
{
	size_t i;

	sort(d);
	for (i = 0; i < d->nui; i++)
		if (d->ui[i].ts + d->ui[i].dur > ts) {
			bt_display_of(d, &d->ui[i], out);
			return 1;
		}
	return 0;
}
