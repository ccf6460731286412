/*
 * Unit tests of the pipeline (engine/recon/pipeline.c) with two small
 * importers of the test's own, writing rows through engine/db/db.h as
 * real ones do: an Android-like trace of samples (reconstructed: a kept
 * database stores its slices, a scratch one makes them on two cores and
 * again when first read, the same), and a trace that brings its own
 * slices (through a feed). Every slice reaches the taps once, the owner's
 * ready comes once; a failing importer's error passes on; the stored slices
 * replay to taps, and a stored slice outside its parent is refused.
 */
#include <string.h>

#include "engine/recon/feed.h"
#include "engine/recon/pipeline.h"
#include "tests/tap.h"
#include "tests/tsql.h"

static const char *const frames[] = {
	NULL, "void android.os.Looper.loop()", "void A.a()", "void B.b()",
	"java.lang.Object android.os.MessageQueue.next()",
};
static const uint32_t nodes[][2] = { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 2, 3 }, { 1, 4 } };
/* tid, ts, cpu, msg, node */
static const int64_t records[][5] = {
	{ 100, 1000, 1000, 1, 2 }, { 100, 2000, 2000, 1, 3 }, { 200, 2500, 100, 0, 2 }, { 100, 3000, 2900, 1, 4 },
	{ 100, 6000, 3000, 2, 2 }, { 200, 4500, 300, 0, 3 }, { 100, 7000, 4000, 2, 3 },
};

static int frames_threads(struct bt_db *db, struct bt_err *err)
{
	size_t i;
	int rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", (int64_t)100, "main", (int64_t)1);

	for (i = 1; !rc && i < sizeof frames / sizeof frames[0]; i++)
		rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, err, "iittttt", (int64_t)i, (int64_t)i, frames[i], "void", NULL,
				NULL, "");
	return rc;
}

static int samples_run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
		       struct bt_err *err)
{
	size_t i;
	int rc;

	(void)o;
	(void)diag;
	rc = bt_db_set_meta_text(db, "format", "android-sampling", err) ||
	     bt_db_set_meta_int(db, "version", 5, err) || frames_threads(db, err);
	for (i = 1; !rc && i < sizeof nodes / sizeof nodes[0]; i++)
		rc = bt_db_insert_node(db, (int64_t)i, nodes[i][0], nodes[i][1], 0, err);
	for (i = 0; !rc && i < sizeof records / sizeof records[0]; i++) {
		struct bt_sample s;
		memset(&s, 0, sizeof s);
		s.id = (int64_t)i + 1;
		s.tid = records[i][0];
		s.type = 5;
		s.ts = records[i][1];
		s.cpu_ns = records[i][2];
		s.msg_id = records[i][3];
		s.node_id = records[i][4];
		rc = bt_db_insert_sample(db, &s, err);
	}
	if (!rc && !strcmp(path, "broken"))
		rc = bt_err_set(err, BT_EFORMAT, "truncated record in '%s' at offset %d", path, 42);
	return rc ? err->code : BT_OK;
}

/* Its own slices: A [10, 50) calls B [20, 30) on the main thread. */
static int slices_run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
		      struct bt_err *err)
{
	struct bt_feed *f;
	struct bt_slice s;
	uint32_t k;

	(void)path;
	(void)diag;
	if (bt_db_set_meta_text(db, "format", "unit-slices", err) || frames_threads(db, err))
		return err->code;
	f = bt_feed_new(db, o->taps);
	for (k = 1; k < sizeof frames / sizeof frames[0]; k++)
		bt_feed_frame(f, k, frames[k]);
	memset(&s, 0, sizeof s);
	s.tid = 100;
	s.frame_id = 2;
	s.ts = 10;
	if (bt_feed_open(f, &s, 0, 0, err))
		goto fail;
	s.frame_id = 3;
	s.ts = 20;
	if (bt_feed_open(f, &s, 0, 0, err) || bt_feed_close(f, 30, NULL, err) || bt_feed_close(f, 50, NULL, err))
		goto fail;
	return bt_feed_finish(f, err);
fail:
	bt_feed_free(f);
	return err->code;
}

static const struct bt_importer samples_imp = { "unit-samples", NULL, 0, NULL, samples_run };
static const struct bt_importer slices_imp = { "unit-slices", "the unit trace's", 0, NULL, slices_run };

struct seen { int slices, threads, ready; int64_t n; };

static int on_slice(void *ctx, int part, const struct bt_slice *s, struct bt_err *err)
{
	(void)part;
	(void)s;
	(void)err;
	((struct seen *)ctx)->slices++;
	return BT_OK;
}

static int on_thread(void *ctx, int part, int64_t tid, int64_t n, struct bt_err *err)
{
	(void)part;
	(void)tid;
	(void)err;
	((struct seen *)ctx)->threads++;
	((struct seen *)ctx)->n += n;
	return BT_OK;
}

static int on_ready(void *ctx, struct bt_db *db, struct bt_err *err)
{
	(void)db;
	(void)err;
	((struct seen *)ctx)->ready++;
	return BT_OK;
}

/* Run imp on input into a new database (kept or scratch), taps counting into *seen. */
static struct bt_db *run(const struct bt_importer *imp, const char *input, int keep, struct seen *seen, int *rc,
			 struct bt_err *err)
{
	static struct bt_slice_tap tap;
	static struct bt_tap_filter want;
	struct bt_pipeline pl;
	struct bt_diag diag;
	struct bt_db *db = NULL;

	memset(seen, 0, sizeof *seen);
	tap = (struct bt_slice_tap){ NULL, on_slice, on_thread, seen };
	memset(&pl, 0, sizeof pl);
	pl.imp = imp;
	pl.inputs = &input;
	pl.ninputs = 1;
	pl.policy = BT_SLICE_MIDPOINT;
	pl.keep = keep;
	pl.taps = (struct bt_taps){ &tap, &want, 1, on_ready, seen, NULL };
	bt_diag_init(&diag);
	*err = (struct bt_err)BT_ERR_INIT;
	if (bt_db_create(&db, ":memory:", err))
		printf("# %s\n", err->msg);
	*rc = bt_pipeline_run(db, &pl, &diag, err);
	return db;
}

#define SLICES "SELECT id, tid, depth, parent_id, frame_id, ts, dur, msg_id FROM slices ORDER BY id"

static void test_samples(void)
{
	struct bt_err err;
	struct seen kept, scratch, replayed;
	struct bt_slice_tap tap = { NULL, on_slice, on_thread, &replayed };
	struct bt_tap_filter want;
	struct bt_taps taps = { &tap, &want, 1, on_ready, &replayed, NULL };
	struct bt_db *a, *b;
	int rc;
	char *rows;

	a = run(&samples_imp, "in.bin", 1, &kept, &rc, &err);
	is_int(rc, BT_OK, "kept: the pipeline runs");
	is_int(tsql_int(a, "SELECT count(*) FROM slices", -1), tsql_int(a, "SELECT value FROM meta WHERE key = 'slices'", -2),
	       "kept: every slice stored, counted in meta");
	is_int(kept.slices, tsql_int(a, "SELECT count(*) FROM slices", -1), "kept: every slice to the tap");
	ok(kept.threads == 2 && kept.n == kept.slices, "kept: each thread to the tap with its count");
	is_int(kept.ready, 1, "kept: ready once");
	is_rows(a, "SELECT key, value FROM meta WHERE key IN ('importer', 'slice_policy', 'first_ts', 'last_ts', "
		"'sampled_threads') ORDER BY key",
		"first_ts|1000;importer|unit-samples;last_ts|7000;sampled_threads|2;slice_policy|midpoint",
		"kept: meta of the run");
	is_rows(a, "SELECT tid, msg_id FROM messages ORDER BY 1, 2", "100|1;100|2", "kept: the messages");
	is_int(tsql_int(a, "SELECT count(*) FROM samples", -1), 7, "kept: the samples stored");
	ok(tsql_int(a, "SELECT count(*) FROM calltree", -1) > 0 &&
	   tsql_int(a, "SELECT sum(self_ns) FROM calltree WHERE tid = 100", -1) ==
	   tsql_int(a, "SELECT sum(dur) FROM slices WHERE tid = 100 AND depth = 0", -2),
	   "kept: the attribution adds up to the slices");

	b = run(&samples_imp, "in.bin", 0, &scratch, &rc, &err);
	is_int(rc, BT_OK, "scratch: the pipeline runs");
	ok(bt_db_slices_deferred(b), "scratch: the slices deferred");
	is_int(scratch.slices, kept.slices, "scratch: the tap gets every slice from two cores");
	is_int(scratch.ready, 1, "scratch: ready once");
	rows = tsql_rows(a, SLICES);
	is_rows(b, SLICES, rows, "scratch: the slices made when read are the kept run's");
	free(rows);
	is_int(tsql_int(b, "SELECT count(*) FROM samples", -1), 7, "scratch: the samples read from memory");
	rows = tsql_rows(a, "SELECT * FROM calltree ORDER BY id");
	is_rows(b, "SELECT * FROM calltree ORDER BY id", rows, "scratch: the same call tree");
	free(rows);
	bt_db_close(b);

	/* the stored slices replayed */
	memset(&replayed, 0, sizeof replayed);
	is_int(bt_pipeline_replay(a, &taps, &err), BT_OK, "replay");
	ok(replayed.slices == kept.slices && replayed.threads == 2 && replayed.ready == 1,
	   "replay: every slice, each thread, ready once");
	bt_db_close(a);

	b = run(&samples_imp, "broken", 1, &scratch, &rc, &err);
	is_int(rc, BT_EFORMAT, "a failing importer: its error");
	is_str(err.msg, "truncated record in 'broken' at offset 42", "... and message passed on");
	/* what the importer wrote stays in this connection (journal_mode=OFF: no
	 * rollback); the database is never published, so nothing is kept */
	is_int(tsql_int(b, "SELECT count(*) FROM meta WHERE key = 'importer'", -1), 0,
	       "... and the run is not recorded as done");
	bt_db_close(b);
}

static void test_own_slices(void)
{
	struct bt_err err;
	struct seen seen;
	int rc;
	struct bt_db *db = run(&slices_imp, "t.pb", 1, &seen, &rc, &err);

	is_int(rc, BT_OK, "own slices: the pipeline runs");
	is_rows(db, SLICES, "1|100|0|-|2|10|40|0;2|100|1|1|3|20|10|0", "own slices: taken as they are");
	is_rows(db, "SELECT key, value FROM meta WHERE key IN ('importer', 'slice_policy') ORDER BY key",
		"importer|unit-slices;slice_policy|imported", "own slices: no reconstruction");
	ok(seen.slices == 2 && seen.ready == 1, "own slices: to the tap, ready once");
	bt_db_close(db);
}

/* A stored slice whose parent is not the slice enclosing it. */
static void test_replay_refused(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct seen seen;
	struct bt_slice_tap tap = { NULL, on_slice, NULL, &seen };
	struct bt_tap_filter want;
	struct bt_taps taps = { &tap, &want, 1, NULL, NULL, NULL };
	struct bt_db *db = NULL;
	struct bt_slice s;

	memset(&s, 0, sizeof s);
	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) || frames_threads(db, &err))
		printf("# %s\n", err.msg);
	s.id = 1, s.tid = 100, s.frame_id = 2, s.ts = 0, s.dur = 100;
	bt_db_insert_slice(db, &s, &err);
	s.id = 2, s.depth = 1, s.parent_id = 7, s.frame_id = 3, s.ts = 10, s.dur = 10;
	bt_db_insert_slice(db, &s, &err);
	bt_db_commit(db, &err);
	memset(&seen, 0, sizeof seen);
	is_int(bt_pipeline_replay(db, &taps, &err), BT_EFORMAT, "replay: a wrong parent refused");
	is_str(err.msg, "slice 2: parent 7 is not the enclosing slice", "... saying which");
	bt_db_close(db);
}

int main(void)
{
	test_samples();
	test_own_slices();
	test_replay_refused();
	return done_testing();
}
