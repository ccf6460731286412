/*
 * Unit tests of several processes of one capture (engine/recon/join.c),
 * through an importer of the test's own whose "files" are processes
 * described below (pid, main thread, records), so what is tested is the
 * joining alone:
 *   - each input's ids follow the ones before (frames, nodes, samples);
 *     its threads and frames get its pid; its meta is kept as its
 *     process's; the lead is the process whose name has no ":suffix",
 *     whose meta and main thread are the capture's;
 *   - inputs that cannot be one capture are refused with both files
 *     named: no pid, one process twice, a thread in two processes, spans
 *     that do not meet;
 *   - one input is its own process, with no joining.
 */
#include <string.h>

#include "engine/recon/capture.h"
#include "engine/recon/join.h"
#include "tests/tap.h"
#include "tests/tsql.h"

#define MAXREC 4

/* A process as its dump would give it. */
struct proc {
	const char *path;
	int64_t pid, main_tid;    /* pid < 0: the dump names none */
	const char *name;         /* its main thread's */
	int64_t rec[MAXREC][2];   /* tid, ts; tid 0 ends */
};

static const struct proc procs_ok[] = {
	{ "remote.bin", 200, 200, "com.app:remote", { { 200, 1500 }, { 201, 2600 } } },
	{ "main.bin", 100, 100, "com.app", { { 100, 1000 }, { 100, 2000 }, { 101, 1200 } } },
};

static const struct proc *given;
static size_t ngiven;

static const struct proc *proc_of(const char *path)
{
	size_t i;

	for (i = 0; i < ngiven; i++)
		if (!strcmp(given[i].path, path))
			return &given[i];
	return NULL;
}

/* The importer: a frame, a node and the records of path's process, each
 * id after the inputs' before (o's bases), its meta. */
static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
	       struct bt_err *err)
{
	const struct proc *p = proc_of(path);
	int64_t frame = o->frame_base + 1, node = o->node_base + 1, id = o->sample_base;
	size_t i;
	int rc;

	(void)diag;
	if (!p)
		return bt_err_set(err, BT_EIO, "no such test process '%s'", path);
	rc = bt_db_exec(db, BT_SQL_INSERT_FRAME, err, "iittttt", frame, (int64_t)0, p->name, NULL, NULL, NULL, NULL) ||
	     bt_db_insert_node(db, node, 0, frame, 0, err) ||
	     bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", p->main_tid, p->name, (int64_t)1) ||
	     bt_db_set_meta_int(db, "main_tid", p->main_tid, err) || bt_db_set_meta_text(db, "note", p->path, err);
	if (!rc && p->pid >= 0)
		rc = bt_db_set_meta_int(db, "pid", p->pid, err);
	for (i = 0; !rc && i < MAXREC && p->rec[i][0]; i++) {
		struct bt_sample s;
		memset(&s, 0, sizeof s);
		s.id = ++id;
		s.tid = p->rec[i][0];
		s.type = 5;
		s.ts = p->rec[i][1];
		s.node_id = node;
		if (s.tid != p->main_tid && i && s.tid != p->rec[i - 1][0])
			rc = bt_db_exec(db, BT_SQL_INSERT_THREAD, err, "iti", s.tid, "worker", (int64_t)0);
		rc = rc ? rc : bt_db_insert_sample(db, &s, err);
	}
	return rc ? err->code : BT_OK;
}

static const struct bt_importer imp = { "test-dump", "a test dump", BT_BRINGS_JOINS, NULL, run };

/* Import the processes ps (n of them) as one capture: its return code,
 * the database in *out, err's message. */
static int join(const struct proc *ps, size_t n, struct bt_db **out, struct bt_process **procs, struct bt_err *err)
{
	const char *inputs[4];
	struct bt_import_opts io;
	struct bt_capture cap;
	struct bt_diag diag;
	size_t i;
	int rc;

	given = ps, ngiven = n;
	for (i = 0; i < n; i++)
		inputs[i] = ps[i].path;
	memset(&io, 0, sizeof io);
	bt_diag_init(&diag);
	*out = NULL;
	*procs = NULL;
	if (bt_db_create(out, ":memory:", err) || bt_db_begin(*out, err))
		return err->code;
	bt_capture_begin(&cap, *out);
	rc = bt_join_import(*out, &imp, inputs, n, &io, &cap, &diag, procs, err);
	if (!rc)
		rc = bt_db_flush(*out, err);
	bt_capture_release(&cap);
	return rc;
}

static void test_two_processes(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_process *procs;
	struct bt_db *db;

	is_int(join(procs_ok, 2, &db, &procs, &err), BT_OK, "two processes joined");
	if (err.code)
		printf("# %s\n", err.msg);
	is_rows(db, "SELECT pid, name, source, format, main_tid, is_lead, first_ts, last_ts, samples, threads "
		    "FROM processes ORDER BY pid",
		"100|com.app|main.bin|test-dump|100|1|1000|2000|3|2;"
		"200|com.app:remote|remote.bin|test-dump|200|0|1500|2600|2|2",
		"each process's row: the one without a ':suffix' leads");
	is_rows(db, "SELECT id, pid FROM frames ORDER BY id", "1|200;2|100", "the second input's frame after the first's");
	is_rows(db, "SELECT id, frame_id FROM nodes ORDER BY id", "1|1;2|2", "its node too");
	is_rows(db, "SELECT id, tid FROM samples ORDER BY id", "1|200;2|201;3|100;4|100;5|101", "its samples too");
	is_rows(db, "SELECT tid, pid, is_main FROM threads ORDER BY tid", "100|100|1;101|100|0;200|200|0;201|200|0",
		"each thread its process's; the lead's main thread the capture's");
	is_rows(db, "SELECT pid, value FROM process_meta WHERE key = 'note' ORDER BY pid", "100|main.bin;200|remote.bin",
		"each input's meta kept as its process's");
	is_rows(db, "SELECT (SELECT value FROM meta WHERE key = 'note'), (SELECT value FROM meta WHERE key = 'pid'), "
		    "(SELECT value FROM meta WHERE key = 'processes')",
		"main.bin|100|2", "the capture's meta: the lead's, and how many processes");
	ok(procs && procs[1].lo == 2 && procs[1].hi == 5 && procs[0].lo == 0 && procs[0].hi == 2,
	   "where each process's records are in the capture");
	free(procs);
	bt_db_close(db);
}

/* A refused capture: its code and the message's words. */
static void refused(const struct proc *ps, size_t n, const char *want1, const char *want2, const char *what)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_process *procs;
	struct bt_db *db;

	is_int(join(ps, n, &db, &procs, &err), BT_EFORMAT, what);
	ok(strstr(err.msg, want1) && strstr(err.msg, want2), "... naming both");
	if (!strstr(err.msg, want1) || !strstr(err.msg, want2))
		printf("# %s\n", err.msg);
	free(procs);
	bt_db_close(db);
}

static void test_refused(void)
{
	static const struct proc no_pid[] = {
		{ "a.bin", 100, 100, "com.app", { { 100, 1000 } } },
		{ "b.bin", -1, 300, "com.app:x", { { 300, 1000 } } },
	};
	static const struct proc twice[] = {
		{ "a.bin", 100, 100, "com.app", { { 100, 1000 } } },
		{ "b.bin", 100, 300, "com.app:x", { { 300, 1000 } } },
	};
	static const struct proc shared[] = {
		{ "a.bin", 100, 100, "com.app", { { 100, 1000 }, { 150, 1100 } } },
		{ "b.bin", 200, 200, "com.app:x", { { 200, 1000 }, { 150, 1200 } } },
	};
	static const struct proc apart[] = {
		{ "a.bin", 100, 100, "com.app", { { 100, 1000 }, { 100, 2000 } } },
		{ "b.bin", 200, 200, "com.app:x", { { 200, 2500 }, { 200, 3000 } } },
	};

	refused(no_pid, 2, "b.bin", "no process id", "an input naming no process: refused");
	refused(twice, 2, "a.bin", "b.bin", "one process twice: refused");
	refused(shared, 2, "thread 150", "b.bin", "a thread in two processes: refused");
	refused(apart, 2, "b.bin", "does not overlap", "spans that do not meet: refused");
}

static void test_one_input(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_process *procs;
	struct bt_db *db;

	is_int(join(procs_ok + 1, 1, &db, &procs, &err), BT_OK, "one input");
	is_rows(db, "SELECT pid, is_lead, samples, threads FROM processes", "100|1|3|2", "its process, the lead");
	is_rows(db, "SELECT count(*) FROM process_meta", "0", "no meta moved: one process is the capture");
	is_rows(db, "SELECT value FROM meta WHERE key = 'note'", "main.bin", "its meta stays the capture's");
	free(procs);
	bt_db_close(db);
}

int main(void)
{
	test_two_processes();
	test_refused();
	test_one_input();
	return done_testing();
}
