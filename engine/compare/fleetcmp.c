/*
 * The sides of a fleet comparison (fleetcmp.h): the reports under a
 * directory, each checked to be a report of a trace with an app start by
 * reading it up to its metrics (bt_runs_peek), in a fixed order so that
 * the same directories give the same comparison.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/base/alloc.h"
#include "engine/compare/fleetcmp.h"
#include "engine/compare/runs.h"

#define MAX_DEPTH 16   /* folders below dir; deeper ones are not read */

const char *const bt_fleetcmp_globs[BT_FLEETCMP_NGLOBS] = {
	"startup.ttid_ns", "startup.phase.*.dur_ns", "startup.main.cpu_ns", "startup.main.blocked_ns.*",
	"startup.process.cpu_ns", "startup.process.offcpu_ns", "startup.main.method.*.self_cpu_ns",
	"startup.main.method.*.self_ns", "startup.main.method.*.incl_ns",
};

void bt_fleetcmp_add(struct bt_fleetcmp_side *s, const char *path)
{
	BT_GROW(s->paths, s->n + 1, s->cap);
	s->paths[s->n++] = bt_xstrdup(path);
}

void bt_fleetcmp_side_release(struct bt_fleetcmp_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->paths[i]);
	free(s->paths);
	memset(s, 0, sizeof *s);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int json_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* A .json file: counted, and added when it is a report with a start. */
static int take_file(struct bt_fleetcmp_side *s, const char *path, struct bt_err *err)
{
	int report;
	double v;

	s->json++;
	if (bt_runs_peek(path, BT_FLEETCMP_KEY, &report, &v, err))
		return err->code;
	if (!report)
		s->other++;
	else if (isnan(v))
		s->nostart++;
	else
		bt_fleetcmp_add(s, path);
	return BT_OK;
}

/* The entries of dir, sorted, as paths (owned by *names). */
static int entries(const char *dir, char ***names, size_t *n, struct bt_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	struct bt_buf p = BT_BUF_INIT;

	*names = NULL;
	*n = 0;
	if (!d)
		return bt_err_set(err, BT_EIO, "cannot read '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		bt_buf_reset(&p);
		bt_buf_addf(&p, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", e->d_name);
		BT_GROW(*names, *n + 1, cap);
		(*names)[(*n)++] = bt_buf_detach(&p, NULL);
	}
	closedir(d);
	bt_buf_release(&p);
	if (*n)
		qsort(*names, *n, sizeof **names, by_name);
	return BT_OK;
}

static int walk(struct bt_fleetcmp_side *s, const char *dir, int depth, struct bt_err *err)
{
	char **names;
	size_t n, i;
	int rc = entries(dir, &names, &n, err);
	struct stat st, lst;

	for (i = 0; i < n && !rc; i++) {
		if (stat(names[i], &st) || lstat(names[i], &lst))
			continue;   /* gone, or a dangling link */
		if (S_ISDIR(st.st_mode) && !S_ISLNK(lst.st_mode) && depth < MAX_DEPTH)
			rc = walk(s, names[i], depth + 1, err);
		else if (S_ISREG(st.st_mode) && json_name(names[i]))
			rc = take_file(s, names[i], err);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int bt_fleetcmp_list(struct bt_fleetcmp_side *s, const char *dir, struct bt_err *err)
{
	size_t before = s->n, json = s->json;
	int rc = walk(s, dir, 0, err);

	if (!rc && s->n == before)
		rc = bt_err_set(err, BT_EUSAGE, "'%s' holds no report of a trace with an app start "
				"(%zu .json file%s read; 'analyze -o DIR/NAME.json' or 'batch' writes them)",
				dir, s->json - json, s->json - json == 1 ? "" : "s");
	return rc;
}
