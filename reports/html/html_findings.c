/*
 * The HTML report's findings (see html_int.h): the headlines, then each
 * severity, and within it one folded group per rule with its count, so
 * two thousand findings take a few lines until opened. A finding with a
 * time links to its place on the timeline (report.js reads the data-*
 * attributes; without script the link goes to the timeline).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/names.h"
#include "reports/html/html_int.h"

/* Rows a rule's group shows; the JSON report has them all. */
#define GROUP_ROWS 500

void bt_html_name(FILE *out, const struct bt_namer *names, const char *s)
{
	const char *shown = bt_namer_get(names, s);

	if (shown == s || !strcmp(shown, s)) {
		bt_html_esc(out, s);
		return;
	}
	fputs("<span class=\"fn\" title=\"", out);
	bt_html_esc(out, s);
	fputs("\">", out);
	bt_html_esc(out, shown);
	fputs("</span>", out);
}

static void evidence(FILE *out, const struct bt_finding *f, int64_t t0, const struct bt_namer *names,
		     struct bt_buf *b)
{
	int k;

	for (k = 0; k < f->nev; k++) {
		fputs(k ? "; " : "", out);
		bt_html_esc(out, f->ev[k].key);
		fputs("=", out);
		if (f->ev[k].v.type == BT_V_TEXT) {
			bt_html_name(out, names, f->ev[k].v.u.s);
			continue;
		}
		bt_buf_reset(b);
		bt_format_evidence(f->ev[k].key, &f->ev[k].v, t0, names, b);
		bt_html_esc(out, b->buf);
	}
}

static void row(FILE *out, const struct bt_finding *f, int64_t t0, const struct bt_namer *names,
		struct bt_buf *b)
{
	fputs("<tr><td>", out);
	bt_html_esc(out, f->message ? f->message : "");
	fputs("</td><td class=\"n\">", out);
	if (f->has_tid)
		fprintf(out, "%lld", (long long)f->tid);
	fputs("</td><td class=\"n\">", out);
	if (f->has_ts) {
		fprintf(out, "<a class=\"jump\" href=\"#timeline\" data-ts=\"%lld\" data-dur=\"%lld\"",
			(long long)bt_sat_sub(f->ts, t0), (long long)(f->has_dur ? f->dur : 0));
		if (f->has_tid)
			fprintf(out, " data-tid=\"%lld\"", (long long)f->tid);
		fprintf(out, " title=\"show on the timeline\">%.1f</a>", (double)bt_sat_sub(f->ts, t0) / 1e6);
	}
	fputs("</td><td class=\"n\">", out);
	if (f->has_dur)
		fprintf(out, "%.1f", (double)f->dur / 1e6);
	fputs("</td><td>", out);
	evidence(out, f, t0, names, b);
	fputs("</td></tr>\n", out);
}

/* 1 if finding f is in severity group sev (-1: the headlines). */
static int in_group(const struct bt_finding *f, int sev)
{
	return sev < 0 ? f->headline : !f->headline && (int)f->severity == sev;
}

/* One rule's findings of a group, folded unless open. */
static void rule_group(FILE *out, const struct bt_result *res, int sev, const uint32_t *rule, uint32_t r,
		       size_t n, int open, int64_t t0, const struct bt_namer *names, struct bt_buf *b)
{
	size_t i, shown = 0;

	for (i = 0; i < res->nfindings && (rule[i] != r || !in_group(&res->findings[i], sev)); i++)
		;
	fprintf(out, "<details class=\"rule\"%s><summary><code>", open ? " open" : "");
	bt_html_esc(out, res->findings[i].rule ? res->findings[i].rule : "");
	fprintf(out, "</code> <span class=\"count\">%zu</span> <span class=\"note\" title=\"", n);
	bt_html_esc(out, res->findings[i].message ? res->findings[i].message : "");
	fputs("\">", out);
	bt_html_esc(out, res->findings[i].message ? res->findings[i].message : "");
	fputs("</span></summary>\n<table class=\"data\"><thead><tr><th>message</th><th>thread</th>"
	      "<th>at ms</th><th>for ms</th><th>evidence</th></tr></thead><tbody>\n", out);
	for (; i < res->nfindings && shown < GROUP_ROWS; i++)
		if (rule[i] == r && in_group(&res->findings[i], sev)) {
			row(out, &res->findings[i], t0, names, b);
			shown++;
		}
	fputs("</tbody></table>\n", out);
	if (shown < n)
		fprintf(out, "<p class=\"note\">%zu more not shown (the JSON report has them all).</p>\n", n - shown);
	fputs("</details>\n", out);
}

/* The headlines (sev < 0), or one severity's others, per rule in the
 * order the rules first reported. */
static void group(FILE *out, const struct bt_result *res, int sev, const uint32_t *rule, uint32_t nrules,
		  int64_t t0, const struct bt_namer *names, struct bt_buf *b)
{
	const char *name = sev < 0 ? "headline" : bt_severity_name[sev];
	size_t *count = bt_xcalloc(nrules + 1, sizeof *count), i, n = 0;
	uint32_t r;

	for (i = 0; i < res->nfindings; i++)
		if (in_group(&res->findings[i], sev)) {
			count[rule[i]]++;
			n++;
		}
	if (n) {
		fprintf(out, "<h3 id=\"findings-%s\" class=\"sev-%s\">%s (%zu)</h3>\n", name, sev < 0 ? "info" : name,
			name, n);
		for (r = 1; r <= nrules; r++)
			if (count[r])
				rule_group(out, res, sev, rule, r, count[r], sev < 0, t0, names, b);
	}
	free(count);
}

void bt_html_findings(FILE *out, const struct bt_result *res, int64_t t0, const struct bt_namer *names)
{
	struct bt_buf b = BT_BUF_INIT;
	struct bt_strmap by_rule;
	uint32_t *rule = bt_xcalloc(res->nfindings + 1, sizeof *rule), nrules = 0;
	size_t i;
	int sev;

	bt_strmap_init(&by_rule);
	for (i = 0; i < res->nfindings; i++) {   /* rules numbered in order of first finding */
		const char *id = res->findings[i].rule ? res->findings[i].rule : "";
		if (!(rule[i] = bt_strmap_get(&by_rule, id, strlen(id))))
			bt_strmap_put(&by_rule, id, strlen(id), rule[i] = ++nrules);
	}
	fprintf(out, "<section id=\"findings\">\n<h2>Findings (%zu)</h2>\n", res->nfindings);
	if (!res->nfindings)
		fputs("<p>No findings.</p>\n", out);
	else
		fputs("<p class=\"note\">Grouped per rule; open a rule to see its findings. A time links to "
		      "its place on the timeline.</p>\n", out);
	group(out, res, -1, rule, nrules, t0, names, &b);
	for (sev = BT_SEV__COUNT - 1; sev >= 0; sev--)
		group(out, res, sev, rule, nrules, t0, names, &b);
	fputs("</section>\n", out);
	bt_strmap_release(&by_rule);
	free(rule);
	bt_buf_release(&b);
}
