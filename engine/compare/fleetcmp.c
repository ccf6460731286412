/*
 * The sides of a fleet comparison (fleetcmp.h): the reports under a
 * directory, each checked to be a report of a trace with an app start by
 * reading it up to its metrics (bt_runs_peek), in a fixed order so that
 * the same directories give the same comparison (bt_walk, as batch and
 * merge walk theirs).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/base/alloc.h"
#include "engine/base/walk.h"
#include "engine/compare/fleetcmp.h"
#include "engine/compare/runs.h"

const char *const bt_fleetcmp_globs[BT_FLEETCMP_NGLOBS] = {
	"startup.ttid_ns", "startup.phase.*.dur_ns", "startup.main.cpu_ns", "startup.main.blocked_ns.*",
	"startup.process.cpu_ns", "startup.process.offcpu_ns", "startup.main.method.*.self_cpu_ns",
	"startup.main.method.*.self_ns", "startup.main.method.*.incl_ns",
	"frames.janky_pct", "frames.p50_ns", "frames.p90_ns", "frames.p99_ns",
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

static int json_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* A .json file: counted, and added when it is a report with a start. */
static int take_file(void *ctx, const char *path, const struct stat *st, struct bt_err *err)
{
	struct bt_fleetcmp_side *s = ctx;
	const char *base = strrchr(path, '/');
	int report;
	double v;

	(void)st;
	if (!json_name(base ? base + 1 : path))
		return BT_OK;
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

int bt_fleetcmp_list(struct bt_fleetcmp_side *s, const char *dir, struct bt_err *err)
{
	struct bt_walk w = { take_file, s, NULL, 1 };
	size_t before = s->n, json = s->json;
	int rc = bt_walk(&w, &dir, 1, err);

	if (!rc && s->n == before)
		rc = bt_err_set(err, BT_EUSAGE, "'%s' holds no report of a trace with an app start "
				"(%zu .json file%s read; 'analyze -o DIR/NAME.json' or 'batch' writes them)",
				dir, s->json - json, s->json - json == 1 ? "" : "s");
	return rc;
}
