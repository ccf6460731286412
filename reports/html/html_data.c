/*
 * The HTML report's embedded data (see html_int.h): the frame names the
 * flame graph and the timeline share, by frame id, written once at the
 * end (a symbol repeats across thousands of call paths and millions of
 * slices), short for labels and in full for tooltips; the object that
 * holds them; and the packed slices' block after it.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/names.h"
#include "reports/html/html_int.h"

int bt_html_names_load(struct bt_html_names *n, struct bt_db *db, const struct bt_namer *namer,
		       struct bt_err *err)
{
	memset(n, 0, sizeof *n);
	n->namer = namer;
	return bt_frame_names_load(db, &n->by_id, &n->nid, err);
}

/* "names": as shown; "full": null where the full name reads the same. */
static void names_write(const struct bt_html_names *n, struct bt_jsonw *w)
{
	size_t i;

	bt_jsonw_key(w, "names");
	bt_jsonw_begin_array(w);
	for (i = 0; i < n->nid; i++)
		bt_jsonw_cstr(w, n->by_id[i] ? bt_namer_get(n->namer, n->by_id[i]) : "?");
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "full");
	bt_jsonw_begin_array(w);
	for (i = 0; i < n->nid; i++) {
		const char *s = n->by_id[i];
		if (s && strcmp(s, bt_namer_get(n->namer, s)))
			bt_jsonw_cstr(w, s);
		else
			bt_jsonw_null(w);
	}
	bt_jsonw_end_array(w);
}

void bt_html_names_release(struct bt_html_names *n)
{
	bt_frame_names_free(n->by_id, n->nid);
	memset(n, 0, sizeof *n);
}

/* The app's package: the process name up to any ":service" suffix; the
 * page tells the app's frames from the framework's by it. */
static void app_write(const struct bt_facts *f, struct bt_jsonw *w)
{
	const char *p = f->process;

	bt_jsonw_key(w, "app");
	if (p && *p)
		bt_jsonw_str(w, p, strcspn(p, ":"));
	else
		bt_jsonw_null(w);
}

void bt_html_progress(struct bt_html_progress *p, uint64_t n)
{
	if (!n && p->done < p->total)
		return;   /* 0 done tells the start, which rep_html.c told */
	p->done += n;
	if (p->x->progress && p->total)
		p->x->progress(p->x->progress_ctx, p->done < p->total ? p->done : p->total, p->total);
}

int bt_html_data_write(const struct bt_export *x, const struct bt_facts *f, FILE *out, struct bt_err *err)
{
	struct bt_html_progress p = { x, 0, 1 };   /* 1: the JSON */
	struct bt_html_names n;
	struct bt_html_lanes ls;
	struct bt_jsonw w;
	int64_t tid = -1;
	int rc;

	fputs("<script type=\"application/json\" id=\"bt-data\">", out);
	bt_jsonw_init(&w, out, 0);
	w.html = 1;
	bt_jsonw_begin_object(&w);
	rc = bt_html_names_load(&n, x->db, x->names, err);
	if (!rc)
		rc = bt_html_flame_write(x->db, &w, x->show_idle, &tid, err);
	bt_html_lanes_pick(&ls, x->timeline, f->main_tid >= 0 ? f->main_tid : tid, BT_HTML_SLICES, &p);
	if (!rc)
		rc = bt_html_timeline_write(x->db, &ls, f, &w, err);
	if (!rc) {
		app_write(f, &w);
		names_write(&n, &w);
	}
	bt_jsonw_end_object(&w);
	bt_html_progress(&p, 1);
	fputs("</script>\n", out);
	bt_html_scripts(out);
	fputs("<script type=\"application/octet-stream\" id=\"bt-slices\">", out);
	if (!rc)
		bt_html_timeline_blob(&ls, out, &p);
	fputs("</script>\n", out);
	bt_html_finish(out);
	p.done = p.total;
	bt_html_progress(&p, 0);
	bt_html_lanes_release(&ls);
	bt_html_names_release(&n);
	return rc;
}
