/*
 * merge's inputs (inputs.h): which kind a JSON file is, read by its
 * "schema" (normally its first member, so only a report's summary is
 * parsed and the rest of it never read), and directories walked in a
 * fixed order so that errors and warnings come the same way every run.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/base/fileio.h"
#include "engine/base/jsonr.h"
#include "engine/base/walk.h"
#include "engine/fleet/inputs.h"

#define REPORT_SCHEMA "btrace-analyze/report@1"

enum kind { K_OTHER, K_REPORT, K_SUMMARY, K_FLEET };

/* The top-level "schema": K_OTHER for another or none, or for JSON that is
 * no object; -1 for text that is no JSON (err set). */
static int kind_of(struct bt_jr *r, struct bt_buf *key, struct bt_buf *val)
{
	int more = 0;

	if (bt_jr_peek(r) != BT_J_OBJECT)
		return bt_jr_skip(r) || bt_jr_finish(r) ? -1 : K_OTHER;
	if (bt_jr_object(r))
		return -1;
	while ((more = bt_jr_key(r, key)) == 1) {
		if (strcmp(key->buf, "schema") || bt_jr_peek(r) != BT_J_STRING) {
			if (bt_jr_skip(r))
				return -1;
			continue;
		}
		if (bt_jr_string(r, val))
			return -1;
		return !strcmp(val->buf, REPORT_SCHEMA) ? K_REPORT :
			!strcmp(val->buf, BT_SUMMARY_SCHEMA) ? K_SUMMARY :
			!strcmp(val->buf, BT_FLEET_SCHEMA) ? K_FLEET : K_OTHER;
	}
	return more < 0 ? -1 : K_OTHER;
}

static void add_summary(struct bt_fleet *f, struct bt_summary *s, const struct bt_sum_kv *groups, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		bt_summary_set_group(s, groups[i].key, groups[i].value);
	bt_fleet_add(f, s);
}

/* A report's "summary" member (the reader restarted at the top). */
static int read_report(struct bt_jr *r, struct bt_summary *s, struct bt_buf *key)
{
	int more, rc = bt_jr_object(r);

	while (!rc && (more = bt_jr_key(r, key)) == 1) {
		if (!strcmp(key->buf, "summary"))
			return bt_summary_read(r, s);
		rc = bt_jr_skip(r);
	}
	if (rc || more < 0)
		return r->err->code;
	return bt_jr_fail(r, "the report has no \"summary\" (written by an older btrace-analyze: "
			  "analyse the trace again)");
}

static int load_file(struct bt_fleet *f, const char *path, int in_dir, const struct bt_sum_kv *groups,
		     size_t n, struct bt_fleet_stats *st, struct bt_err *err)
{
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	struct bt_fmap m = { NULL, 0 };
	struct bt_summary s;
	struct bt_fleet o;
	struct bt_jr r;
	int rc, k;
	size_t i;

	bt_summary_init(&s);
	if (bt_fmap_open(&m, path, err))
		return err->code;
	bt_jr_init(&r, m.data, m.len, path, err);
	k = kind_of(&r, &key, &val);
	bt_jr_init(&r, m.data, m.len, path, err);
	if (k < 0)
		rc = err->code;
	else if (k == K_OTHER && in_dir)
		rc = (st->skipped++, BT_OK);
	else if (k == K_OTHER)
		rc = bt_err_set(err, BT_EFORMAT, "'%s' is no report, summary or fleet summary of "
				"btrace-analyze (its \"schema\" is none of report@1, summary@1, fleet@1)", path);
	else if (k == K_FLEET) {
		if (!(rc = bt_fleet_read(&r, &o))) {
			if (!(rc = bt_jr_finish(&r))) {
				for (i = 0; i < n; i++)
					bt_fleet_regroup(&o, groups[i].key, groups[i].value);
				bt_fleet_merge(f, &o);
				st->fleets++;
			}
			bt_fleet_release(&o);
		}
	} else {
		rc = k == K_REPORT ? read_report(&r, &s, &key) : bt_summary_read(&r, &s);
		if (!rc && k == K_SUMMARY)
			rc = bt_jr_finish(&r);
		if (!rc) {
			add_summary(f, &s, groups, n);
			*(k == K_REPORT ? &st->reports : &st->summaries) += 1;
		}
		bt_summary_release(&s);
	}
	bt_fmap_release(&m);
	bt_buf_release(&key);
	bt_buf_release(&val);
	return rc;
}

static int path_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_json(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

struct json_paths {
	char **paths;
	size_t n, cap;
};

/* Each *.json file under a directory (bt_walk: each file once however
 * many links reach it; a link back up walked once). */
static int add_json(void *ctx, const char *path, const struct stat *st, struct bt_err *err)
{
	struct json_paths *fd = ctx;
	const char *base = strrchr(path, '/');

	(void)st;
	(void)err;
	if (ends_json(base ? base + 1 : path)) {
		BT_GROW(fd->paths, fd->n + 1, fd->cap);
		fd->paths[fd->n++] = bt_xstrdup(path);
	}
	return BT_OK;
}

int bt_fleet_load(struct bt_fleet *f, const char *path, const struct bt_sum_kv *groups, size_t n,
		  struct bt_fleet_stats *st, struct bt_err *err)
{
	struct json_paths fd = { NULL, 0, 0 };
	struct bt_walk w = { add_json, &fd, NULL, 1 };
	size_t i;
	int rc;

	if (bt_input_check(path, 1, err))
		return err->code;
	if (!bt_is_dir(path))
		return load_file(f, path, 0, groups, n, st, err);
	rc = bt_walk(&w, &path, 1, err);
	if (fd.n > 1)
		qsort(fd.paths, fd.n, sizeof *fd.paths, path_order);
	for (i = 0; !rc && i < fd.n; i++)
		rc = load_file(f, fd.paths[i], 1, groups, n, st, err);
	for (i = 0; i < fd.n; i++)
		free(fd.paths[i]);
	free(fd.paths);
	return rc;
}
