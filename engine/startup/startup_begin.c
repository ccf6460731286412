/*
 * Where the app start began and whose it is (startup_int.h): cold from
 * bindApplication or the main thread's first record, warm from the
 * launch, hot from the restart or resume, moved back to the intent where
 * a system trace's launch shows it; the app's package from its
 * Application class, else the process's or main thread's name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/rows.h"
#include "engine/startup/startup_int.h"

#define LAUNCH_LEAD_NS 10000000000LL /* a launching: slice this far before the app's first phase */

/* The app's package: that of the class whose onCreate
 * callApplicationOnCreate called ("void com.foo.App.onCreate()" gives
 * com.foo), else NULL. */
static char *app_package(const struct bt_startup *st, struct bt_db *db)
{
	const struct found *f = &st->ph[PH_APP_CREATE];
	const struct mslice *best = NULL;
	const char *name, *sp, *end;
	char **names = NULL;
	size_t i, n = 0;
	char *out = NULL;
	struct bt_err err = BT_ERR_INIT;

	for (i = 0; f->have && i < st->n; i++) {
		const struct mslice *m = &st->v[i];
		if ((int64_t)m->depth == st->app_depth + 1 && m->ts >= f->ts && m->ts < f->ts + f->dur &&
		    (!best || m->ts < best->ts))
			best = m;
	}
	if (!best || bt_frame_names_load(db, &names, &n, &err) || best->frame >= n || !(name = names[best->frame]))
		goto done;
	sp = strchr(name, ' ');
	name = sp && sp < strchr(name, '(') ? sp + 1 : name;
	if (!(end = strchr(name, '(')))
		goto done;
	while (end > name && end[-1] != '.')   /* the method */
		end--;
	if (end > name)
		end--;
	while (end > name && end[-1] != '.')   /* the class */
		end--;
	if (end > name + 1)
		out = bt_xstrndup(name, (size_t)(end - 1 - name));
done:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return out;
}

#define COMM_MAX 15   /* a thread name's characters the kernel keeps */

/* A dump's main thread of COMM_MAX characters may be named after the end
 * of a longer process name (ART keeps the last 15 characters of a dotted
 * one: "om.example.feed"): the class path of the first method that holds
 * it and a dot says where the package begins ("com.example.feed"). name
 * itself when no method holds it. */
static int uncut_package(struct bt_db *db, const char *name, char **out, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	const char *f, *at, *start;
	size_t n = strlen(name);
	int rc;

	*out = NULL;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_PACKAGE_CUT, err))
		return err->code;
	bt_rows_bind_text(r, 1, name, n);
	if ((rc = bt_rows_next(r, err)) == 1 && (f = bt_rows_text(r, 0, NULL)) != NULL &&
	    (at = strstr(f, name)) != NULL) {
		for (start = at; start > f && !strchr(" (,<", start[-1]); start--)
			;
		*out = bt_xstrndup(start, (size_t)(at - start) + n);
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	if (!*out)
		*out = bt_xstrdup(name);
	return BT_OK;
}

/* Without the Application class: the process's name (a trace's), else
 * the main thread's (a dump's main thread is named after its process,
 * uncut where it was cut), when it can be a package: one has a dot
 * (Android requires two segments), where the Java name of every app's
 * main thread, "main", which an ART trace gives, has none. */
static int fallback_package(const struct bt_startup *st, struct bt_db *db, char **out, struct bt_err *err)
{
	char name[256];
	struct bt_rows *r = NULL;
	const char *t;
	char *cut = NULL;
	int rc;

	*out = NULL;
	if (bt_db_meta_text(db, "process_name", name, sizeof name, err))
		return err->code;
	if (name[0]) {
		*out = bt_xstrdup(name);
		return BT_OK;
	}
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_THREAD_NAME, err))
		return err->code;
	bt_rows_bind_int(r, 1, st->tid);
	if ((rc = bt_rows_next(r, err)) == 1 && (t = bt_rows_text(r, 0, NULL)) != NULL && strchr(t, '.')) {
		if (strlen(t) == COMM_MAX)
			cut = bt_xstrdup(t);
		else
			*out = bt_xstrdup(t);
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	rc = cut ? uncut_package(db, cut, out, err) : BT_OK;
	free(cut);
	return rc;
}

/* The launch an importer chose (meta), else the one the trace's stored
 * async slices had in flight when the activity started at ts. */
static int launch_of(struct bt_db *db, int64_t ts, int64_t *launch, int64_t *end, char *src, size_t n,
		     struct bt_err *err)
{
	struct bt_rows *r = NULL;
	const char *name;
	int rc;

	if (bt_db_meta_int(db, "launch_ts", INT64_MIN, launch, err) ||
	    bt_db_meta_int(db, "launch_end_ts", INT64_MIN, end, err) ||
	    bt_db_meta_text(db, "launch_source", src, n, err))
		return err->code;
	if (*launch != INT64_MIN)
		return BT_OK;
	if (bt_rows_open(&r, db, BT_SQL_STARTUP_LAUNCH_TRACK, err))
		return err->code;
	bt_rows_bind_int(r, 1, ts);
	if ((rc = bt_rows_next(r, err)) == 1 && (name = bt_rows_text(r, 0, NULL)) != NULL) {
		snprintf(src, n, "%s", name);
		*launch = bt_rows_int(r, 1);
		*end = *launch + bt_rows_int(r, 2);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_startup_begin_of(const struct bt_startup *st, struct bt_db *db, struct begin *b, struct bt_err *err)
{
	const struct found *ph = st->ph;
	int64_t launch, launch_end;

	b->win_end = INT64_MIN;
	if (ph[PH_BIND].have || (!ph[PH_LAUNCH].have && !ph[PH_RESUME].have && !ph[PH_RESTART].have)) {
		const struct found *f = ph[PH_BIND].have ? &ph[PH_BIND] : &ph[PH_APP_CREATE];
		b->kind = "cold";   /* bindApplication, or an iOS app's didFinishLaunching */
		b->ts = st->first_ts < f->ts ? st->first_ts : f->ts;
		b->source = st->first_ts < f->ts ? "first main-thread record" : bt_startup_source_of(st, f);
		return BT_OK;
	}
	b->kind = ph[PH_LAUNCH].have ? "warm" : "hot";
	b->ts = ph[PH_LAUNCH].have ? ph[PH_LAUNCH].ts : ph[PH_RESTART].have ? ph[PH_RESTART].ts : ph[PH_RESUME].ts;
	b->source = bt_startup_source_of(st, ph[PH_LAUNCH].have ? &ph[PH_LAUNCH] : ph[PH_RESTART].have ? &ph[PH_RESTART] :
			      &ph[PH_RESUME]);
	/* a system trace's launch (system_server's launchingActivity#N or
	 * launching: slice, in meta) begins the start where the user does: at
	 * the intent, before the app ran; it ends when the system saw the
	 * activity drawn (Perfetto's android_startups) */
	if (launch_of(db, b->ts, &launch, &launch_end, b->launch_source, sizeof b->launch_source, err))
		return err->code;
	if (launch != INT64_MIN && launch <= b->ts && b->ts - launch < LAUNCH_LEAD_NS) {
		b->ts = launch;
		b->source = b->launch_source[0] ? b->launch_source : "launching";
		b->win_end = launch_end > launch ? launch_end : INT64_MIN;
	}
	return BT_OK;
}

int bt_startup_package(const struct bt_startup *st, struct bt_db *db, char **out, struct bt_err *err)
{
	return (*out = app_package(st, db)) != NULL ? BT_OK : fallback_package(st, db, out, err);
}
