/*
 * Several processes of one capture (join.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/recon/join.h"

/* The one int or text a registered query gives (0 or "" without a row). */
static int query_one(struct bt_db *db, enum bt_sql_id id, int64_t arg, int64_t *v, char *text,
		     size_t len, struct bt_err *err)
{
	struct bt_rows *r;
	int rc;

	if (v)
		*v = 0;
	if (text)
		text[0] = '\0';
	if (bt_rows_open(&r, db, id, err))
		return err->code;
	if (bt_rows_nparams(r))
		bt_rows_bind_int(r, 1, arg);
	rc = bt_rows_next(r, err);
	if (rc == 1 && v)
		*v = bt_rows_int(r, 0);
	if (rc == 1 && text && bt_rows_text(r, 0, NULL)) {
		size_t n;
		const char *s = bt_rows_text(r, 0, &n);
		if (n >= len)
			n = len - 1;
		memcpy(text, s, n);
		text[n] = '\0';
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* What the importer said of its process, and its records' span. */
static int note_process(struct bt_db *db, const struct bt_capture *cap, struct bt_process *p,
			struct bt_err *err)
{
	size_t i;

	p->hi = cap->n;
	p->first = INT64_MAX;
	p->last = INT64_MIN;
	for (i = p->lo; i < p->hi; i++) {
		const struct bt_csample *s = &cap->s[i];
		int64_t end = s->end_ts > s->ts ? s->end_ts : s->ts;
		if (s->ts < p->first)
			p->first = s->ts;
		if (end > p->last)
			p->last = end;
	}
	if (p->lo == p->hi && (bt_db_meta_int(db, "first_ts", INT64_MAX, &p->first, err) ||
			       bt_db_meta_int(db, "last_ts", INT64_MIN, &p->last, err)))
		return err->code;
	if (bt_db_meta_int(db, "pid", -1, &p->pid, err) || bt_db_meta_int(db, "main_tid", -1, &p->main_tid, err) ||
	    bt_db_meta_int(db, "version", 0, &p->version, err))
		return err->code;
	return query_one(db, BT_SQL_THREAD_NAME, p->main_tid, NULL, p->name, sizeof p->name, err);
}

/* The threads and frames the input just wrote are its process's. */
static int own_rows(struct bt_db *db, struct bt_process *p, struct bt_err *err)
{
	if (bt_db_exec(db, BT_SQL_JOIN_THREAD_PID, err, "i", p->pid) ||
	    bt_db_exec(db, BT_SQL_JOIN_FRAME_PID, err, "i", p->pid))
		return err->code;
	return query_one(db, BT_SQL_PROCESS_THREADS, p->pid, &p->threads, NULL, 0, err);
}

/* BT_EFORMAT when a thread of process k has records in an earlier one
 * (by tid: a dump keeps 16 bits of it). */
static int check_tids(const struct bt_capture *cap, const struct bt_process *procs, size_t k,
		      struct bt_map64 *owner, struct bt_err *err)
{
	size_t i;

	for (i = procs[k].lo; i < procs[k].hi; i++) {
		uint64_t tid = (uint64_t)cap->s[i].tid;
		uint32_t o = bt_map64_get(owner, tid);
		if (!o)
			bt_map64_put(owner, tid, (uint32_t)k + 1);
		else if (o != k + 1)
			return bt_err_set(err, BT_EFORMAT, "thread %lld has records in '%s' (process %lld) and in '%s' "
					  "(process %lld): two processes of one capture cannot share a thread (dumps "
					  "of different boots, or tids that alias in the format's 16 bits)",
					  (long long)tid, procs[o - 1].path, (long long)procs[o - 1].pid,
					  procs[k].path, (long long)procs[k].pid);
	}
	return BT_OK;
}

static int check_pid(const struct bt_process *procs, size_t k, struct bt_err *err)
{
	size_t j;

	if (procs[k].pid < 0)
		return bt_err_set(err, BT_EFORMAT, "'%s' names no process id (its extra JSON has no processId): "
				  "it cannot join the other inputs as a process of their capture", procs[k].path);
	for (j = 0; j < k; j++)
		if (procs[j].pid == procs[k].pid)
			return bt_err_set(err, BT_EFORMAT, "'%s' and '%s' are both process %lld: give each "
					  "process of the capture once", procs[j].path, procs[k].path,
					  (long long)procs[k].pid);
	return BT_OK;
}

static int by_first(const void *a, const void *b)
{
	const struct bt_process *x = *(const struct bt_process *const *)a, *y = *(const struct bt_process *const *)b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* BT_EFORMAT unless the processes' spans on the boot clock make one
 * stretch: a dump that meets none of the others is another capture (or
 * another boot, whose clock began again). */
static int check_overlap(struct bt_process *procs, size_t n, struct bt_err *err)
{
	struct bt_process **v = bt_xmalloc(n * sizeof *v);
	int64_t end;
	size_t i;
	int rc = BT_OK;

	for (i = 0; i < n; i++)
		v[i] = &procs[i];
	qsort(v, n, sizeof *v, by_first);
	end = v[0]->last;
	for (i = 1; i < n && !rc; i++) {
		if (v[i]->first > v[i]->last)
			rc = bt_err_set(err, BT_EFORMAT, "'%s' holds no record: it cannot be placed on the "
					"capture's boot clock", v[i]->path);
		else if (v[i]->first > end)
			rc = bt_err_set(err, BT_EFORMAT, "'%s' (boot clock %.3f-%.3f s) does not overlap the "
					"inputs that begin before it, which end by %.3f s: not one capture (another session or "
					"another boot)", v[i]->path, v[i]->first / 1e9, v[i]->last / 1e9, end / 1e9);
		if (v[i]->last > end)
			end = v[i]->last;
	}
	free(v);
	return rc;
}

/* The lead: the first process whose name has no ":suffix" (the app's
 * main process; Android names the others "package:name"), else the first. */
static size_t pick_lead(const struct bt_process *procs, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (procs[k].name[0] && !strchr(procs[k].name, ':'))
			return k;
	return 0;
}

static int insert_process(struct bt_db *db, const struct bt_process *p, const char *format,
			  struct bt_err *err)
{
	int known = p->first <= p->last;

	return bt_db_exec(db, BT_SQL_INSERT_PROCESS, err, "itttiimmii", p->pid, p->name[0] ? p->name : NULL,
			  p->path, format, p->main_tid, (int64_t)p->lead, known ? p->first : INT64_MIN,
			  known ? p->last : INT64_MIN, (int64_t)(p->hi - p->lo), p->threads);
}

/* One input: its process noted, no joining to do. */
static int import_one(struct bt_db *db, const struct bt_importer *imp, const char *input,
		      struct bt_import_opts *io, struct bt_capture *cap, struct bt_diag *diag,
		      struct bt_process *p, struct bt_err *err)
{
	int64_t written;

	p->path = input;
	p->lead = 1;
	if (imp->run(db, input, io, diag, err) || note_process(db, cap, p, err) ||
	    bt_db_meta_int(db, "processes", 0, &written, err))
		return err->code;
	if (p->pid < 0 || written)
		return BT_OK;   /* the trace names no process, or wrote its processes (a system trace's all) */
	if (own_rows(db, p, err))
		return err->code;
	return insert_process(db, p, imp->name, err);
}

int bt_join_import(struct bt_db *db, const struct bt_importer *imp, const char *const *inputs, size_t n,
		   struct bt_import_opts *io, struct bt_capture *cap, struct bt_diag *diag,
		   struct bt_process **out, struct bt_err *err)
{
	struct bt_process *procs = bt_xcalloc(n, sizeof *procs);
	struct bt_map64 owner;
	size_t k, lead;
	int rc = BT_OK;

	*out = procs;
	if (n == 1)
		return import_one(db, imp, inputs[0], io, cap, diag, &procs[0], err);
	bt_map64_init(&owner, 256);
	rc = bt_db_cache_inputs(db, (int)n, err);
	for (k = 0; k < n && !rc; k++) {
		struct bt_process *p = &procs[k];
		p->path = inputs[k];
		p->lo = cap->n;
		io->sample_base = (int64_t)cap->n;
		io->node_base = (int64_t)cap->nnodes;
		rc = query_one(db, BT_SQL_MAX_FRAME_ID, 0, &io->frame_base, NULL, 0, err);
		rc = rc ? rc : imp->run(db, inputs[k], io, diag, err);
		rc = rc ? rc : note_process(db, cap, p, err);
		rc = rc ? rc : check_pid(procs, k, err);
		rc = rc ? rc : check_tids(cap, procs, k, &owner, err);
		rc = rc ? rc : own_rows(db, p, err);
		rc = rc ? rc : bt_db_exec(db, BT_SQL_JOIN_SAVE_META, err, "i", p->pid);
		rc = rc ? rc : bt_db_exec(db, BT_SQL_JOIN_CLEAR_META, err, "");
	}
	bt_map64_release(&owner);
	if (rc || (rc = check_overlap(procs, n, err)))
		return rc;
	lead = pick_lead(procs, n);
	procs[lead].lead = 1;
	for (k = 0; k < n && !rc; k++)
		rc = insert_process(db, &procs[k], imp->name, err);
	rc = rc ? rc : bt_db_exec(db, BT_SQL_JOIN_LEAD_META, err, "i", procs[lead].pid);
	rc = rc ? rc : bt_db_exec(db, BT_SQL_JOIN_LEAD_MAIN, err, "i", procs[lead].main_tid);
	return rc ? rc : bt_db_set_meta_int(db, "processes", (int64_t)n, err);
}
