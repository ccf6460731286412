/*
 * The HTML report's embedded data (see html_int.h): the frame names the
 * flame graph and the timeline share, and the object that holds them.
 * Names are written once, at the end, and referred to by index, since a
 * symbol repeats across thousands of call paths and slices.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/html/html_int.h"

int bt_html_names_load(struct bt_html_names *n, struct bt_db *db, struct bt_err *err)
{
	memset(n, 0, sizeof *n);
	bt_map64_init(&n->used, 256);
	return bt_frame_names_load(db, &n->by_id, &n->nid, err);
}

int64_t bt_html_names_ref(struct bt_html_names *n, int64_t frame_id)
{
	uint32_t k = bt_map64_get(&n->used, (uint64_t)frame_id);

	if (k)
		return (int64_t)k - 1;
	BT_GROW(n->order, n->nused + 1, n->cap);
	n->order[n->nused++] = frame_id;
	bt_map64_put(&n->used, (uint64_t)frame_id, (uint32_t)n->nused);
	return (int64_t)n->nused - 1;
}

static void names_write(const struct bt_html_names *n, struct bt_jsonw *w)
{
	size_t i;

	bt_jsonw_key(w, "names");
	bt_jsonw_begin_array(w);
	for (i = 0; i < n->nused; i++) {
		int64_t id = n->order[i];
		const char *s = id >= 0 && (size_t)id < n->nid ? n->by_id[id] : NULL;
		bt_jsonw_cstr(w, s ? s : "?");
	}
	bt_jsonw_end_array(w);
}

void bt_html_names_release(struct bt_html_names *n)
{
	bt_frame_names_free(n->by_id, n->nid);
	free(n->order);
	bt_map64_release(&n->used);
	memset(n, 0, sizeof *n);
}

int bt_html_data_write(struct bt_db *db, const struct bt_html_timeline *tl, const struct bt_facts *f,
		       int show_idle, FILE *out, struct bt_err *err)
{
	struct bt_html_names n;
	struct bt_jsonw w;
	int64_t tid = -1;
	int rc;

	bt_jsonw_init(&w, out, 0);
	w.html = 1;
	bt_jsonw_begin_object(&w);
	rc = bt_html_names_load(&n, db, err);
	if (!rc)
		rc = bt_html_flame_write(db, &n, &w, show_idle, &tid, err);
	if (!rc)
		rc = bt_html_timeline_write(db, tl, f, f->main_tid >= 0 ? f->main_tid : tid, &n, &w, err);
	if (!rc)
		names_write(&n, &w);
	bt_jsonw_end_object(&w);
	bt_html_names_release(&n);
	return rc;
}
