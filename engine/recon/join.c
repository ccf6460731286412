/*
 * Several processes of one capture (join.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "engine/recon/join.h"

/* Thread tid's name into name (len bytes), or "" for none. */
static int thread_name(struct bt_db *db, int64_t tid, char *name, size_t len, struct bt_err *err)
{
	struct bt_rows *r;
	int rc;

	name[0] = '\0';
	if (bt_rows_open(&r, db, BT_SQL_THREAD_NAME, err))
		return err->code;
	bt_rows_bind_int(r, 1, tid);
	rc = bt_rows_next(r, err);
	if (rc == 1 && bt_rows_text(r, 0, NULL)) {
		size_t n;
		const char *s = bt_rows_text(r, 0, &n);
		if (n >= len)
			n = len - 1;
		memcpy(name, s, n);
		name[n] = '\0';
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* What the importer said of its process, and its records' span. */
static int note_process(struct bt_db *db, const struct bt_capture *cap, struct bt_process *p,
			struct bt_err *err)
{
	size_t i, e;

	p->hi = cap->n;
	p->first = INT64_MAX;
	p->last = INT64_MIN;
	for (i = p->lo, e = bt_cends_from(&cap->ends, p->lo); i < p->hi; i++) {
		const struct bt_csample *s = &cap->s[i];
		int64_t end_ts = bt_cends_next(&cap->ends, i, &e)[0], end = end_ts > s->ts ? end_ts : s->ts;
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
	return thread_name(db, p->main_tid, p->name, sizeof p->name, err);
}

/* The threads and frames the input just wrote are its process's. */
static int own_rows(struct bt_db *db, struct bt_process *p, struct bt_err *err)
{
	if (bt_db_exec(db, BT_SQL_JOIN_THREAD_PID, err, "i", p->pid) ||
	    bt_db_exec(db, BT_SQL_JOIN_FRAME_PID, err, "i", p->pid))
		return err->code;
	return bt_rows_one_int(db, BT_SQL_PROCESS_THREADS, p->pid, 0, &p->threads, err);
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
		rc = bt_rows_one_int(db, BT_SQL_MAX_FRAME_ID, 0, 0, &io->frame_base, err);
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

/* ---------------------------------------------------------------- a system trace */

/* The capture's tid of a system trace's thread tid of process pid: a
 * dump's tid is the low 16 bits of it (format spec I-4), a thread of
 * that process in the capture; -1 for another process's thread. */
static int64_t capture_tid(const struct bt_map64 *pid_of, int64_t tid, int64_t pid)
{
	uint32_t got = bt_map64_get(pid_of, (uint64_t)(tid & 0xFFFF));

	return got && (int64_t)got - 1 == pid ? (tid & 0xFFFF) : -1;
}

/* The trace's threads that are the capture's, mapped to its tids (tid ->
 * capture tid + 1), by their processes. */
static int map_tids(struct bt_db *db, struct bt_db *sys, struct bt_map64 *to, struct bt_err *err)
{
	struct bt_map64 pid_of;   /* the capture's tid -> pid + 1 */
	struct bt_rows *r;
	int rc;

	bt_map64_init(&pid_of, 256);
	if (bt_rows_open(&r, db, BT_SQL_PERFETTO_THREADS, err)) {
		bt_map64_release(&pid_of);
		return err->code;
	}
	while ((rc = bt_rows_next(r, err)) == 1)
		if (bt_rows_type(r, 3) != BT_ROWS_NULL)
			bt_map64_put(&pid_of, (uint64_t)bt_rows_int(r, 0), (uint32_t)bt_rows_int(r, 3) + 1);
	bt_rows_close(r);
	if (rc < 0 || bt_rows_open(&r, sys, BT_SQL_PERFETTO_THREADS, err)) {
		bt_map64_release(&pid_of);
		return err->code;
	}
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t tid = bt_rows_int(r, 0), c;
		if (bt_rows_type(r, 3) == BT_ROWS_NULL || tid <= 0 || tid >= UINT32_MAX)
			continue;
		if ((c = capture_tid(&pid_of, tid, bt_rows_int(r, 3))) >= 0)
			bt_map64_put(to, (uint64_t)tid, (uint32_t)c + 1);
	}
	bt_rows_close(r);
	bt_map64_release(&pid_of);
	return rc < 0 ? err->code : BT_OK;
}

/* tid's capture tid, or -1 for a thread of no process of the capture. */
static int64_t ours(const struct bt_map64 *to, int64_t tid)
{
	uint32_t v = tid > 0 && tid < UINT32_MAX ? bt_map64_get(to, (uint64_t)tid) : 0;

	return v ? (int64_t)v - 1 : -1;
}

/* tid as the capture names it: its own, or the trace's for another
 * process's thread. */
static int64_t mapped(const struct bt_map64 *to, int64_t tid)
{
	int64_t t = ours(to, tid);

	return t >= 0 ? t : tid;
}

/* The capture's threads' states (those the map sends to a capture
 * thread: threads.pid known in db). */
static int copy_states(struct bt_db *db, struct bt_db *sys, const struct bt_map64 *to, struct bt_err *err)
{
	struct bt_rows *r;
	int rc;

	if (bt_rows_open(&r, sys, BT_SQL_SYS_THREAD_STATES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t t = ours(to, bt_rows_int(r, 0));
		int64_t v[3];
		int c;
		if (t < 0)
			continue;   /* not a thread of the capture */
		for (c = 0; c < 3; c++)
			v[c] = bt_rows_type(r, 4 + c) == BT_ROWS_NULL ? INT64_MIN : bt_rows_int(r, 4 + c);
		if (v[1] != INT64_MIN)
			v[1] = mapped(to, v[1]);
		if (bt_db_exec(db, BT_SQL_INSERT_THREAD_STATE, err, "iiitmmmt", t, bt_rows_int(r, 1), bt_rows_int(r, 2),
			       bt_rows_text(r, 3, NULL), v[0], v[1], v[2],
			       bt_rows_type(r, 7) == BT_ROWS_NULL ? NULL : bt_rows_text(r, 7, NULL))) {
			rc = -1;
			break;
		}
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

/* The trace's binder calls whose client is a thread of the capture. */
static int read_calls(struct bt_db *sys, const struct bt_map64 *to, struct bt_sys_calls *out, struct bt_err *err)
{
	struct bt_rows *r;
	int rc;

	if (bt_rows_open(&r, sys, BT_SQL_SYS_BINDER_CALLS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		int64_t c = ours(to, bt_rows_int(r, 0));
		struct bt_sys_call *x;
		if (c < 0)
			continue;
		BT_GROW(out->v, out->n + 1, out->cap);
		x = &out->v[out->n++];
		memset(x, 0, sizeof *x);
		x->client = c;
		x->ts = bt_rows_int(r, 1);
		x->end = x->ts + bt_rows_int(r, 2);
		x->oneway = bt_rows_int(r, 3) != 0;
		x->server_pid = bt_rows_type(r, 4) == BT_ROWS_NULL ? -1 : bt_rows_int(r, 4);
		x->server = mapped(to, bt_rows_int(r, 5));
		x->recv = bt_rows_int(r, 6);
		x->reply = bt_rows_type(r, 7) == BT_ROWS_NULL ? x->recv : bt_rows_int(r, 7);
		x->blocked = bt_rows_type(r, 8) == BT_ROWS_NULL ? 0 : bt_rows_int(r, 8);
		if (bt_rows_type(r, 9) != BT_ROWS_NULL)
			snprintf(x->why, sizeof x->why, "%s", bt_rows_text(r, 9, NULL));
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_join_system(struct bt_db *db, const struct bt_importer *imp, const char *path, const struct bt_import_opts *io,
		   const struct bt_process *procs, size_t n, struct bt_diag *diag, struct bt_sys_calls *calls,
		   struct bt_err *err)
{
	struct bt_pipeline pl;
	struct bt_db *sys = NULL;
	struct bt_map64 to;
	int64_t first, last, cf = INT64_MAX, cl = INT64_MIN;
	size_t k;
	int rc;

	memset(&pl, 0, sizeof pl);
	pl.imp = imp;
	pl.inputs = &path;
	pl.ninputs = 1;
	pl.io = *io;
	pl.io.process = BT_PROCESS_ALL;
	pl.policy = BT_SLICE_IDLE;
	bt_map64_init(&to, 1024);
	rc = bt_db_create(&sys, NULL, err);
	rc = rc ? rc : bt_pipeline_run(sys, &pl, diag, err);
	rc = rc ? rc : bt_db_meta_int(sys, "first_ts", INT64_MAX, &first, err);
	rc = rc ? rc : bt_db_meta_int(sys, "last_ts", INT64_MIN, &last, err);
	for (k = 0; k < n; k++) {
		cf = procs[k].first < cf ? procs[k].first : cf;
		cl = procs[k].last > cl ? procs[k].last : cl;
	}
	if (!rc && (first > cl || last < cf))
		rc = bt_err_set(err, BT_EFORMAT, "'%s' (%.3f-%.3f s) does not overlap the dumps' capture (%.3f-%.3f s "
				"on the boot clock): not a trace of the same time (or not on the boot clock)", path,
				first / 1e9, last / 1e9, cf / 1e9, cl / 1e9);
	rc = rc ? rc : map_tids(db, sys, &to, err);
	rc = rc ? rc : copy_states(db, sys, &to, err);
	rc = rc ? rc : read_calls(sys, &to, calls, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "system_trace", path, err);
	bt_map64_release(&to);
	bt_db_close(sys);
	return rc;
}
