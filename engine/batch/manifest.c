/*
 * The batch's manifest: one JSON object per line (JSON Lines), one line
 * per file found, written as each trace ends and read back by a rerun to
 * carry over what an earlier run did.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "engine/base/hash.h"
#include "engine/base/jsonr.h"
#include "engine/base/jsonw.h"
#include "engine/batch/batch_int.h"

static const char *const status_names[] = { "todo", "ok", "failed", "skipped" };

void bt_manifest_line(const struct bt_batch_item *it, int db, struct bt_buf *b)
{
	struct bt_jsonw w;
	char *text = NULL, num[64];
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		bt_alloc_fail(4096);
	bt_jsonw_init(&w, fp, 0);
	bt_jsonw_begin_object(&w);
	bt_jsonw_key(&w, "path");
	bt_jsonw_cstr(&w, it->path);
	bt_jsonw_key(&w, "hash");
	bt_jsonw_cstr(&w, it->hash[0] ? it->hash : NULL);
	bt_jsonw_key(&w, "size");
	bt_jsonw_int(&w, (int64_t)it->size);
	bt_jsonw_key(&w, "format");
	bt_jsonw_cstr(&w, it->importer);
	bt_jsonw_key(&w, "status");
	bt_jsonw_cstr(&w, status_names[it->status]);
	bt_jsonw_key(&w, "exit");
	if (it->exit_code >= 0)
		bt_jsonw_int(&w, it->exit_code);
	else
		bt_jsonw_null(&w);
	bt_jsonw_key(&w, "error");
	bt_jsonw_cstr(&w, it->error);
	bt_jsonw_key(&w, "seconds");
	snprintf(num, sizeof num, "%.3f", it->seconds);
	bt_jsonw_raw(&w, it->seconds >= 0 ? num : "null");
	bt_jsonw_key(&w, "peak_rss_kb");
	if (it->peak_kb >= 0)
		bt_jsonw_int(&w, it->peak_kb);
	else
		bt_jsonw_null(&w);
	bt_jsonw_key(&w, "report");
	if (it->status == BT_BATCH_OK) {
		snprintf(num, sizeof num, "reports/%.32s.json", it->hash);
		bt_jsonw_cstr(&w, num);
	} else {
		bt_jsonw_null(&w);
	}
	if (db) {
		bt_jsonw_key(&w, "db");
		if (it->status == BT_BATCH_OK) {
			snprintf(num, sizeof num, "db/%.32s.db", it->hash);
			bt_jsonw_cstr(&w, num);
		} else {
			bt_jsonw_null(&w);
		}
	}
	bt_jsonw_end_object(&w);
	if (fclose(fp))
		bt_alloc_fail(len + 4096);
	bt_buf_add(b, text, len);
	bt_buf_addc(b, '\n');
	free(text);
}

static int status_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof status_names / sizeof status_names[0]; i++)
		if (!strcmp(s, status_names[i]))
			return (int)i;
	return -1;
}

/* A string or null member into *out (owned; NULL for null). */
static int str_or_null(struct bt_jr *r, struct bt_buf *tmp, char **out)
{
	free(*out);
	*out = NULL;
	if (bt_jr_peek(r) == BT_J_NULL)
		return bt_jr_skip(r);
	bt_buf_reset(tmp);
	if (bt_jr_string(r, tmp))
		return -1;
	*out = bt_xstrdup(tmp->buf);
	return 0;
}

/* An integer in [0, hi] or null member: *out -1 for null. A number past
 * int64 (1e999) is no record, not a cast out of range. */
static int int_or_null(struct bt_jr *r, int64_t hi, int64_t *out)
{
	int k;

	*out = -1;
	if (bt_jr_peek(r) == BT_J_NULL)
		return bt_jr_skip(r);
	if ((k = bt_jr_int(r, out)) < 0)
		return -1;
	if (!k || *out < 0 || *out > hi) {
		*out = -1;
		return bt_jr_fail(r, "not an exit status or a size in kB");
	}
	return 0;
}

/* One member of a manifest line into it. */
static int read_member(struct bt_jr *r, const char *key, struct bt_batch_item *it, int *st)
{
	struct bt_buf tmp = BT_BUF_INIT;
	char *s = NULL;
	int64_t v;
	double d = 0;   /* set when read; the whole-program build cannot tell */
	int rc;

	if (!strcmp(key, "hash") || !strcmp(key, "status")) {
		if (!(rc = str_or_null(r, &tmp, &s)) && s && key[0] == 'h')
			snprintf(it->hash, sizeof it->hash, "%s", s);
		else if (!rc && s)
			*st = status_parse(s);
	} else if (!strcmp(key, "error")) {
		rc = str_or_null(r, &tmp, &it->error);
	} else if (!strcmp(key, "exit") || !strcmp(key, "peak_rss_kb")) {
		if (!(rc = int_or_null(r, key[0] == 'e' ? 255 : LONG_MAX, &v)) && key[0] == 'e')
			it->exit_code = (int)v;
		else if (!rc)
			it->peak_kb = (long)v;
	} else if (!strcmp(key, "seconds") && bt_jr_peek(r) == BT_J_NUMBER) {
		if (!(rc = bt_jr_number(r, &d)) && !(d >= 0 && d < 1e12))   /* NaN, inf: no time */
			rc = bt_jr_fail(r, "not a number of seconds");
		else if (!rc)
			it->seconds = d;
	} else {
		rc = bt_jr_skip(r);
	}
	free(s);
	bt_buf_release(&tmp);
	return rc;
}

/* One manifest line into it; -1 (err set by the reader) if it is no record. */
static int read_record(struct bt_jr *r, struct bt_batch_item *it)
{
	struct bt_buf key = BT_BUF_INIT;
	int k = 0, rc = bt_jr_object(r), st = -1;

	while (!rc && (k = bt_jr_key(r, &key)) == 1)
		rc = read_member(r, key.buf, it, &st);
	if (!rc && k < 0)
		rc = -1;
	if (!rc && st <= BT_BATCH_TODO) {
		bt_jr_fail(r, "no \"status\" of ok, failed or skipped");
		rc = -1;
	}
	if (!rc)
		it->status = (enum bt_batch_status)st;
	bt_buf_release(&key);
	return rc;
}

/* it into l, or over the record of the same hash (a later line wins). */
static void add_record(struct bt_batch_list *l, struct bt_strmap *by_hash, struct bt_batch_item *it)
{
	uint32_t at = bt_strmap_get(by_hash, it->hash, strlen(it->hash));

	if (at) {
		free(l->v[at - 1].error);
		l->v[at - 1] = *it;
		return;
	}
	BT_GROW(l->v, l->n + 1, l->cap);
	l->v[l->n++] = *it;
	bt_strmap_put(by_hash, it->hash, strlen(it->hash), (uint32_t)l->n);
}

/* One of the batch's own lines (they all begin so) cut by a kill while it
 * was written: it ends before its object does, or (from runs before lines
 * began on their own) the next run's first record goes on inside it. Its
 * trace is run again; any other line that is no record is an error. */
static int cut_line(const char *p, const char *nl)
{
	static const char start[] = "{\"path\":";
	size_t n = sizeof start - 1;
	const char *q;

	if ((size_t)(nl - p) < n || memcmp(p, start, n))
		return 0;
	if (nl[-1] != '}')
		return 1;
	for (q = p + 1; q + n <= nl; q++)
		if (!memcmp(q, start, n))
			return 1;
	return 0;
}

int bt_manifest_load(const char *path, struct bt_batch_list *l, struct bt_err *err)
{
	struct bt_fmap m;
	struct bt_jr r;
	struct bt_buf where = BT_BUF_INIT;
	struct bt_strmap by_hash;
	const char *p, *end, *nl;
	size_t line = 0;
	int rc = BT_OK;

	if (!bt_is_file(path))
		return BT_OK;
	if ((rc = bt_fmap_open(&m, path, err)))
		return rc;
	bt_strmap_init(&by_hash);
	p = m.data ? (const char *)m.data : "";   /* an empty file maps nothing */
	end = p + m.len;
	for (; p && p < end && !rc; p = nl + 1) {
		struct bt_batch_item it;
		line++;
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			break;   /* cut by a kill while it was written */
		if (nl == p)
			continue;
		memset(&it, 0, sizeof it);
		it.exit_code = -1;
		it.seconds = -1;
		it.peak_kb = -1;
		bt_buf_reset(&where);
		bt_buf_addf(&where, "%s: line %zu", path, line);
		bt_jr_init(&r, p, (size_t)(nl - p), where.buf, err);
		if (read_record(&r, &it) || bt_jr_finish(&r)) {
			free(it.error);
			rc = cut_line(p, nl) ? BT_OK
			     : err->code ? err->code : bt_err_set(err, BT_EFORMAT, "%s: not a record", where.buf);
			if (!rc)
				bt_err_clear(err);
		} else if (it.hash[0] && it.status != BT_BATCH_SKIPPED) {
			add_record(l, &by_hash, &it);
		} else {
			free(it.error);
		}
	}
	bt_buf_release(&where);
	bt_strmap_release(&by_hash);
	bt_fmap_release(&m);
	return rc;
}
