/*
 * A streaming JSON writer with comma and nesting bookkeeping, used by every
 * JSON output (reports, query results).
 */
#ifndef BT_JSONW_H
#define BT_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BT_JSONW_DEPTH 32

struct bt_jsonw {
	FILE *fp;
	int depth;
	int first[BT_JSONW_DEPTH];   /* no member written yet at this level */
	int pretty;
	int after_key;               /* a key was written, its value is next */
	int html;                    /* escape < > & as \u00XX: the JSON sits in a <script> */
};

void bt_jsonw_init(struct bt_jsonw *w, FILE *fp, int pretty);
void bt_jsonw_begin_object(struct bt_jsonw *w);
void bt_jsonw_end_object(struct bt_jsonw *w);
void bt_jsonw_begin_array(struct bt_jsonw *w);
void bt_jsonw_end_array(struct bt_jsonw *w);
/* Member name inside an object; the value call follows. */
void bt_jsonw_key(struct bt_jsonw *w, const char *key);
void bt_jsonw_str(struct bt_jsonw *w, const char *s, size_t len);
void bt_jsonw_cstr(struct bt_jsonw *w, const char *s);   /* NULL writes null */
void bt_jsonw_int(struct bt_jsonw *w, int64_t v);
void bt_jsonw_real(struct bt_jsonw *w, double v);
void bt_jsonw_null(struct bt_jsonw *w);
/* v where there is one (have), else null. */
void bt_jsonw_int_or_null(struct bt_jsonw *w, int have, int64_t v);
void bt_jsonw_bool(struct bt_jsonw *w, int v);
/* A value that is already JSON text (compact). */
void bt_jsonw_raw(struct bt_jsonw *w, const char *json);

#endif
