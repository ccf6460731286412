/*
 * The spill file of the Perfetto importer: every track event and atrace
 * print waits here until the whole trace is read, because a track's events
 * need not come in time order and a multi-GB trace's events cannot stay in
 * memory. It is a SQLite file of its own in $TMPDIR (the trace database
 * keeps its temp schema in memory), unlinked once open, with a small page
 * cache: memory stays flat however long the trace.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "importers/perfetto/pf_int.h"

static const char spill_pragmas[] =
	"PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
	"PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=FILE; PRAGMA cache_size=-16384;";

static int fail(struct pf *p, const char *what, struct bt_err *err)
{
	return bt_err_set(err, BT_ESQL, "%s of the spill file for '%s' failed: %s", what, p->path,
			  p->spill ? sqlite3_errmsg(p->spill) : "out of memory");
}

static int run(struct pf *p, const char *sql, const char *what, struct bt_err *err)
{
	return sqlite3_exec(p->spill, sql, NULL, NULL, NULL) == SQLITE_OK ? BT_OK : fail(p, what, err);
}

int pf_spill_open(struct pf *p, struct bt_err *err)
{
	struct bt_buf name = BT_BUF_INIT;
	int fd = bt_temp_file("btrace-analyze-pf", "a spill file", &name, err);
	int rc;

	if (fd < 0)
		return err->code;
	close(fd);
	rc = sqlite3_open_v2(name.buf, &p->spill, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK ? BT_OK
		: fail(p, "opening", err);
	if (!rc)
		rc = run(p, spill_pragmas, "setting up", err);
	if (!rc)   /* with the exclusive lock taken, the open descriptor is all it needs */
		rc = run(p, "BEGIN", "starting", err);
	if (!rc)
		rc = run(p, bt_sql_text[BT_SQL_SCRATCH_PF_SPILL], "creating", err);
	bt_temps_remove(name.buf);
	bt_buf_release(&name);
	if (!rc && (sqlite3_prepare_v2(p->spill, bt_sql_text[BT_SQL_SCRATCH_PF_INSERT_EVENT], -1, &p->ins,
				       NULL) != SQLITE_OK ||
		    sqlite3_prepare_v2(p->spill, bt_sql_text[BT_SQL_SCRATCH_PF_RESOLVE], -1, &p->res, NULL) !=
			    SQLITE_OK))
		rc = fail(p, "preparing", err);
	if (!rc)
		rc = bt_db_script(p->db, BT_SQL_SCRATCH_PF_TABLES, err);
	return rc;
}

void pf_spill_close(struct pf *p)
{
	struct bt_err ignored;

	sqlite3_finalize(p->ins);
	sqlite3_finalize(p->res);
	sqlite3_close(p->spill);
	p->ins = p->res = NULL;
	p->spill = NULL;
	bt_db_script(p->db, BT_SQL_SCRATCH_PF_DROP, &ignored);
}

static int step(struct pf *p, sqlite3_stmt *st, const char *what, struct bt_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? BT_OK : fail(p, what, err);
}

int pf_spill_event(struct pf *p, const struct pf_event *e, struct bt_err *err)
{
	sqlite3_stmt *st = p->ins;

	if (e->ts > p->end_ts)
		p->end_ts = e->ts;
	sqlite3_bind_int64(st, 1, e->seq);
	if (e->known)
		sqlite3_bind_int64(st, 2, e->k);
	else
		sqlite3_bind_null(st, 2);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)e->uuid);
	sqlite3_bind_int64(st, 4, e->ts);
	sqlite3_bind_int(st, 5, e->kind);
	sqlite3_bind_int(st, 6, e->src);
	sqlite3_bind_int64(st, 7, e->frame);
	sqlite3_bind_double(st, 8, e->v);
	if (e->nargs)
		sqlite3_bind_blob(st, 9, e->args, (int)e->nargs, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 9);
	return step(p, st, "writing", err);
}

int pf_spill_resolve(struct pf *p, uint64_t uuid, int64_t k, struct bt_err *err)
{
	sqlite3_bind_int64(p->res, 1, (sqlite3_int64)uuid);
	sqlite3_bind_int64(p->res, 2, k);
	return step(p, p->res, "updating", err);
}

int pf_spill_order(struct pf *p, sqlite3_stmt **out, struct bt_err *err)
{
	*out = NULL;
	if (run(p, bt_sql_text[BT_SQL_SCRATCH_PF_INDEX], "indexing", err))
		return err->code;
	if (sqlite3_prepare_v2(p->spill, bt_sql_text[BT_SQL_SCRATCH_PF_EVENTS], -1, out, NULL) != SQLITE_OK)
		return fail(p, "reading", err);
	return BT_OK;
}

int pf_spill_next(struct pf *p, sqlite3_stmt *st, struct bt_err *err)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	fail(p, "reading", err);
	return -1;
}
