/*
 * Compare as Markdown for a pull-request comment, in the order a reviewer
 * reads: the verdict as a heading with the compact table, the causes of
 * each moved metric, then the details (the policy, the moved metrics with
 * their reasons, the diff lists, the unchanged metrics folded in a
 * <details> block). A comment holds 65,536 characters: the output stays
 * under MD_LIMIT bytes (at least as many characters), the least important
 * sections cut first, at a row, with a note saying what was left out.
 * Cells are escaped as in the Markdown report (bt_md_put).
 */
#include <stdlib.h>
#include <string.h>

#include "reports/compare/cmp_report.h"
#include "reports/markdown.h"
#include "reports/report.h"

#define MD_LIMIT 60000
#define SUMMARY_ROWS 40

static void summary(const struct bt_compare *c, struct bt_buf *cell, FILE *out)
{
	size_t *at = bt_xcalloc(c->nm + 1, sizeof *at), n, i, more;

	n = bt_cmprep_summary_rows(c, at, SUMMARY_ROWS, &more);
	bt_md_head(out, bt_cmprep_shead, BT_CMP_SCOLS, "lrrrrrl");
	for (i = 0; i < n; i++) {
		bt_cmprep_summary_cells(c, &c->m[at[i]], cell);
		bt_md_row(out, cell, BT_CMP_SCOLS);
	}
	if (more)
		fprintf(out, "\n%zu more moved; see the details.\n", more);
	free(at);
}

static void causes(const struct bt_compare *c, struct bt_buf *cell, FILE *out)
{
	struct bt_buf title = BT_BUF_INIT;
	size_t i, k;

	for (i = 0; i < c->nm; i++) {
		const struct bt_cmp_metric *m = &c->m[i];
		if (!m->gate.gated || !m->ncauses)
			continue;
		bt_buf_reset(&title);
		bt_cmprep_causes_title(m, &title);
		fputs("\n#### ", out);
		bt_md_put(out, title.buf);
		fputs("\n\n", out);
		bt_md_head(out, bt_cmprep_khead, BT_CMP_KCOLS, "lrrrr");
		for (k = 0; k < m->ncauses; k++) {
			bt_cmprep_cause_cells(c, &m->causes[k], cell);
			bt_md_row(out, cell, BT_CMP_KCOLS);
		}
	}
	bt_buf_release(&title);
}

/* The metrics whose verdict is (unchanged != 0) or is not unchanged. */
static void metrics(const struct bt_compare *c, struct bt_buf *cell, int unchanged, FILE *out)
{
	size_t i, n = 0;

	for (i = 0; i < c->nm; i++) {
		if ((c->m[i].verdict == BT_VD_UNCHANGED) != unchanged)
			continue;
		if (!n++)
			bt_md_head(out, bt_cmprep_mhead, BT_CMP_MCOLS, "llrrrrrl");
		bt_cmprep_metric_cells(&c->m[i], cell);
		bt_md_row(out, cell, BT_CMP_MCOLS);
	}
}

static void list(const struct bt_cmprep_view *v, const struct bt_cmp_list *l, int measure,
		 struct bt_buf *cell, FILE *out)
{
	enum bt_unit u;
	const char *title = bt_cmprep_list_title(measure, &u);
	size_t i, n = l->n < (size_t)v->top ? l->n : (size_t)v->top;

	if (!l->n)
		return;
	fprintf(out, "\n#### %s (%zu of %zu that moved)\n\n", title, n, l->n);
	bt_md_head(out, bt_cmprep_dhead, BT_CMP_DCOLS, "llrrrrrr");
	for (i = 0; i < n; i++) {
		bt_cmprep_change_cells(&l->rows[i], u, cell);
		bt_md_row(out, cell, BT_CMP_DCOLS);
	}
}

enum { S_SUMMARY, S_CAUSES, S_POLICY, S_MOVED, S_DIFF, S_UNCHANGED, S__COUNT };

static const char *const section_name[S__COUNT] = {
	"the summary", "the causes", "the policy", "the moved metrics' details", "the diff lists",
	"the unchanged metrics"
};

struct section {
	char *text;
	size_t len;
	const char *close;   /* closes what the text opened, written even when it is cut */
};

static void render(const struct bt_cmprep_view *v, struct bt_buf *cell, int k, struct section *s)
{
	const struct bt_compare *c = v->c;
	struct bt_buf b = BT_BUF_INIT;
	FILE *f = open_memstream(&s->text, &s->len);
	size_t i, unchanged = 0;

	s->close = "";
	if (!f) {
		s->text = NULL, s->len = 0;
		return;
	}
	if (k == S_SUMMARY) {
		bt_cmprep_headline(c, &b);
		fputs("## btrace-analyze compare: ", f);
		bt_md_put(f, b.buf);
		fputs("\n\n", f);
		summary(c, cell, f);
	} else if (k == S_CAUSES) {
		causes(c, cell, f);
	} else if (k == S_POLICY) {
		bt_cmprep_policy(v, &b);
		fputs("\n### Details\n\n", f);
		bt_md_put(f, b.buf);
		fputs("\n\n", f);
	} else if (k == S_MOVED) {
		metrics(c, cell, 0, f);
	} else if (k == S_DIFF) {
		list(v, &c->blocking, -1, cell, f);
		for (i = 0; i < BT_MS__COUNT; i++)
			list(v, &c->methods[i], (int)i, cell, f);
		fprintf(f, "\n%s\n", bt_cmprep_legend);
	} else {
		for (i = 0; i < c->nm; i++)
			unchanged += c->m[i].verdict == BT_VD_UNCHANGED;
		if (unchanged) {
			fprintf(f, "\n<details><summary>%zu unchanged metrics</summary>\n\n", unchanged);
			metrics(c, cell, 1, f);
			s->close = "\n</details>\n";
		}
	}
	fclose(f);
	bt_buf_release(&b);
}


static int write_md(const struct bt_cmprep_view *v, FILE *out, struct bt_err *err)
{
	struct bt_buf cell[BT_CMP_CELLS], note = BT_BUF_INIT;
	struct section s[S__COUNT];
	size_t used = 0, k, reserve = 600;   /* the note */
	int cut = -1;

	bt_cmprep_cells(cell, 1);
	for (k = 0; k < S__COUNT; k++)
		render(v, cell, (int)k, &s[k]);
	for (k = 0; k < S__COUNT; k++) {
		size_t whole = s[k].len + strlen(s[k].close), keep;
		if (cut < 0 && used + whole + reserve <= MD_LIMIT) {
			fwrite(s[k].text, 1, s[k].len, out);
			fputs(s[k].close, out);
			used += whole;
			continue;
		}
		if (cut < 0) {
			keep = bt_md_lines_within(s[k].text, s[k].len, MD_LIMIT - reserve - used - strlen(s[k].close));
			fwrite(s[k].text, 1, keep, out);
			fputs(s[k].close, out);
			bt_buf_addf(&note, "\n> Left out to stay under GitHub's comment limit (%d characters "
				    "here): %s (cut after %zu of %zu bytes)", MD_LIMIT, section_name[k], keep,
				    s[k].len);
			cut = (int)k;
		} else {
			bt_buf_addf(&note, ", %s", section_name[k]);
		}
	}
	if (cut >= 0)
		fprintf(out, "%s. The JSON and xlsx outputs (-o) have everything.\n", note.buf);
	for (k = 0; k < S__COUNT; k++)
		free(s[k].text);
	bt_cmprep_cells(cell, 0);
	bt_buf_release(&note);
	(void)err;
	return BT_OK;
}

const struct bt_cmprep_reporter bt_cmprep_md = { "md", ".md", write_md };
