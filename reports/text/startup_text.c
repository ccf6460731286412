/*
 * The startup summary as the text report's lines (reports/report_startup.h):
 * the headline, where it began and ended, blocking by kind and the top
 * methods, wrapped to the width, then the phases as a table that fits.
 */
#include <string.h>

#include "engine/base/names.h"
#include "reports/report.h"
#include "reports/report_startup.h"
#include "reports/text/grid.h"
#include "reports/text/startup_text.h"

void bt_startsum_text(FILE *out, const struct bt_startsum *s, const struct bt_namer *names,
			 size_t width)
{
#define PAD "          "
	struct bt_buf b = BT_BUF_INIT, c[12];
	size_t i;
	int k;

	if (!s->found)
		return;
	bt_startsum_headline(s, &b);
	fputc('\n', out);
	bt_text_wrap(out, "Startup   ", PAD, b.buf, width);
	bt_buf_reset(&b);
	bt_buf_addf(&b, "from %s to %s (main thread tid %lld)", s->source ? bt_namer_get(names, s->source) : "?",
		    s->end_source ? bt_namer_get(names, s->end_source) : "?", (long long)s->tid);
	bt_text_wrap(out, PAD, PAD "  ", b.buf, width);
	if (s->nblocking) {
		bt_buf_reset(&b);
		bt_buf_adds(&b, "blocked: ");
		bt_startsum_kinds(s, &b);
		bt_text_wrap(out, PAD, PAD "  ", b.buf, width);
	}
	for (i = 0; i < s->nmethods; i++) {
		const struct bt_su_method *m = &s->methods[i];
		int wall = m->self_cpu == BT_NONE;   /* no CPU time in the trace (the header says): by wall */
		bt_buf_reset(&b);
		bt_buf_addf(&b, "top by %s: %s ", wall ? "wall" : "CPU", m->name ? bt_namer_get(names, m->name) : "?");
		bt_format_duration(wall ? (m->self == BT_NONE ? 0.0 : (double)m->self) : (double)m->self_cpu, &b);
		bt_text_wrap(out, PAD, PAD "  ", b.buf, width);
	}
	for (k = 0; k < 12; k++)
		bt_buf_init(&c[k]);
	if (s->nphases) {   /* the states' columns, if any, before the bounds */
		int n = s->have_states ? 12 : 8;
		struct bt_grid g;

		bt_grid_init(&g, n);
		g.numeric[0] = g.numeric[n - 1] = 0;
		for (k = 0; k < n; k++) {
			const char *h = k < 7 ? bt_startsum_cols[k] : k < n - 1 ? bt_startsum_state_cols[k - 7]
				: bt_startsum_cols[7];
			bt_grid_add(&g, h, strlen(h));
		}
		for (i = 0; i < s->nphases; i++) {
			bt_startsum_phase_cells(&s->phases[i], s->ts, c);
			if (s->have_states) {
				struct bt_buf t = c[7];
				c[7] = c[11];
				c[11] = t;   /* the bounds last */
				bt_startsum_state_cells(&s->phases[i], &c[7]);
			}
			for (k = 0; k < n; k++)
				bt_grid_add(&g, c[k].buf, c[k].len);
		}
		fputc('\n', out);
		bt_grid_print_fit(&g, out, width);
		bt_grid_release(&g);
	}
	for (k = 0; k < 12; k++)
		bt_buf_release(&c[k]);
	bt_buf_release(&b);
#undef PAD
}
