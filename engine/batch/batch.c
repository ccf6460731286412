/*
 * A batch's run (batch.h): the files found and probed, what an earlier
 * run did carried over, the rest handed to the worker pool, biggest
 * first, and the manifest journaled as traces end and rewritten whole at
 * the end.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/base/fileio.h"
#include "engine/base/hash.h"
#include "engine/base/progress.h"
#include "engine/batch/batch.h"
#include "engine/batch/batch_int.h"
#include "engine/db/db.h"

struct batch_run {
	const struct bt_batch_opts *o;
	struct bt_batch_list items;     /* this shard's files, by path */
	const struct bt_batch_list *old;   /* an earlier run's records */
	struct bt_strmap seen, before;  /* hash -> item index + 1; -> old's index + 1 */
	size_t *todo;                   /* indexes of the traces, biggest first */
	size_t ntodo, next;             /* ... and the next to decide */
	size_t decided, ended;          /* traces needing no run; runs ended */
	uint64_t ok, failed;            /* of those run now */
	int journal;                    /* the manifest, appended to as traces end */
	char *manifest;
	double t0;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bt_batch_shard_parse(const char *s, int *shard, int *nshards)
{
	char *end;
	long i, n;

	i = strtol(s, &end, 10);
	if (end == s || *end != '/' || i < 0)
		return -1;
	s = end + 1;
	n = strtol(s, &end, 10);
	if (end == s || *end || n < 1 || n > 100000 || i >= n)
		return -1;
	*shard = (int)i;
	*nshards = (int)n;
	return 0;
}

/* path and its missing parents, as mkdir -p: "-o out/v1" needs no
 * mkdir first. */
static int make_dir(const char *path, struct bt_err *err)
{
	struct bt_buf b = BT_BUF_INIT;
	char *slash;
	int rc = BT_OK;

	bt_buf_addf(&b, "%s", path);
	for (slash = strchr(b.buf + 1, '/'); slash && !rc; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(b.buf, 0777) && !(errno == EEXIST && bt_is_dir(b.buf)))
			rc = bt_err_set(err, BT_EIO, "cannot create directory '%s': %s", b.buf, strerror(errno));
		*slash = '/';
	}
	if (!rc && mkdir(path, 0777) && !(errno == EEXIST && bt_is_dir(path)))
		rc = bt_err_set(err, BT_EIO, "cannot create directory '%s': %s", path, strerror(errno));
	bt_buf_release(&b);
	return rc;
}

/* OUTDIR and its folders. A folder of OUTDIR that is a link is refused:
 * it would send the batch's files elsewhere (a shared fleet folder). */
static int make_dirs(const struct bt_batch_opts *o, struct bt_err *err)
{
	static const char *const subs[] = { "reports", "logs", "db" };
	struct bt_buf p = BT_BUF_INIT;
	struct stat st;
	size_t i;
	int rc = make_dir(o->outdir, err);

	for (i = 0; i < sizeof subs / sizeof subs[0] && !rc; i++) {
		if (!o->db && !strcmp(subs[i], "db"))
			continue;
		bt_buf_reset(&p);
		bt_buf_addf(&p, "%s/%s", o->outdir, subs[i]);
		if (lstat(p.buf, &st) == 0 && S_ISLNK(st.st_mode))
			rc = bt_err_set(err, BT_EUSAGE, "'%s' is a symbolic link: the batch writes its files in "
					"OUTDIR's own folders only; remove it", p.buf);
		else
			rc = make_dir(p.buf, err);
	}
	bt_buf_release(&p);
	return rc;
}

/* The batch's own files in OUTDIR are replaced, never written through a
 * link planted there: for this process and, through the environment, its
 * workers (fileio.h's bt_out_own). A link where the manifest goes is
 * removed before it is read or appended to. */
static void own_outputs(const char *manifest)
{
	struct stat st;

	bt_out_own(1);
	setenv("BT_OWN_OUTPUTS", "1", 1);
	if (lstat(manifest, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		unlink(manifest);
}

/* A regular file of OUTDIR's, not a link to one: what an earlier run wrote. */
static int own_file(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* OUTDIR/SUB/HASH.EXT into b (reset first). */
static const char *out_path(struct batch_run *r, struct bt_buf *b, const char *sub, const char *hash,
			    const char *ext)
{
	bt_buf_reset(b);
	bt_buf_addf(b, "%s/%s/%s.%s", r->o->outdir, sub, hash, ext);
	return b->buf;
}

/* Probe each file; the traces are the candidates to run. */
static void classify(struct batch_run *r)
{
	struct bt_buf why = BT_BUF_INIT;
	size_t i;

	bt_progress_phase("finding the traces");
	for (i = 0; i < r->items.n; i++) {
		struct bt_batch_item *it = &r->items.v[i];
		bt_progress_pct((int)(i * 100 / r->items.n));
		bt_buf_reset(&why);
		it->importer = r->o->probe(it->path, &why, &it->sidecar);
		if (!it->importer) {
			it->status = BT_BATCH_SKIPPED;
			it->error = bt_xstrdup(why.buf);
		} else {
			r->todo[r->ntodo++] = i;
		}
	}
	bt_buf_release(&why);
}

/* it takes over what an earlier run recorded of its content (rec may be NULL). */
static void carry(struct bt_batch_item *it, const struct bt_batch_item *rec, enum bt_batch_status st)
{
	it->status = st;
	it->earlier = 1;
	if (!rec || rec->status != st)
		return;
	it->exit_code = rec->exit_code;
	it->seconds = rec->seconds;
	it->peak_kb = rec->peak_kb;
	free(it->error);
	it->error = rec->error ? bt_xstrdup(rec->error) : NULL;
}

/* Hash trace i and say whether it needs a run: not if its content came
 * before, if an earlier run's report of it is there, or if an earlier run
 * recorded it failed (without retry_failed); those are recorded now. */
static int decide(struct batch_run *r, size_t i)
{
	struct bt_batch_item *it = &r->items.v[i];
	struct bt_buf p = BT_BUF_INIT;
	struct bt_err e = BT_ERR_INIT;
	const struct bt_batch_item *rec = NULL;
	uint32_t at;
	int run = 0;

	if (bt_chash_file(it->path, it->hash, &it->size, &e)) {
		it->status = BT_BATCH_FAILED;
		it->error = bt_xstrdup(e.msg);
	} else if ((at = bt_strmap_get(&r->seen, it->hash, 32))) {
		bt_buf_addf(&p, "same content as '%s'", r->items.v[at - 1].path);
		it->status = BT_BATCH_SKIPPED;
		it->error = bt_buf_detach(&p, NULL);
	} else {
		bt_strmap_put(&r->seen, it->hash, 32, (uint32_t)i + 1);
		if ((at = bt_strmap_get(&r->before, it->hash, 32)))
			rec = &r->old->v[at - 1];
		if (own_file(out_path(r, &p, "reports", it->hash, "json")) &&
		    (!r->o->db || own_file(out_path(r, &p, "db", it->hash, "db"))))
			carry(it, rec, BT_BATCH_OK);
		else if (rec && rec->status == BT_BATCH_FAILED && !r->o->retry_failed)
			carry(it, rec, BT_BATCH_FAILED);
		else
			run = 1;
	}
	bt_buf_release(&p);
	return run;
}

static const struct bt_batch_list *sort_list;   /* what cmp_todo's indexes index */

/* Biggest first, so that no long trace starts last; then by path. */
static int cmp_todo(const void *a, const void *b)
{
	const struct bt_batch_item *x = &sort_list->v[*(const size_t *)a];
	const struct bt_batch_item *y = &sort_list->v[*(const size_t *)b];

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The worker's command line for item i: EXE analyze -q --format json -o
 * REPORT [--db DB] ARGS... FORMAT_ARGS... -- PATH. bufs hold the paths. */
static char **worker_argv(struct batch_run *r, size_t i, struct bt_buf bufs[2])
{
	const struct bt_batch_item *it = &r->items.v[i];
	const char *const *more = NULL;
	char **argv;
	int n = 0, k, nmore = 0;

	if (r->o->format_args)
		more = r->o->format_args(r->o->format_ctx, it->importer, &nmore);
	argv = bt_xcalloc((size_t)r->o->nargs + (size_t)nmore + 16, sizeof *argv);

	argv[n++] = (char *)r->o->exe;
	argv[n++] = (char *)"analyze";
	argv[n++] = (char *)"-q";
	argv[n++] = (char *)"--format";
	argv[n++] = (char *)"json";
	argv[n++] = (char *)"-o";
	argv[n++] = (char *)out_path(r, &bufs[0], "reports", it->hash, "json");
	if (r->o->db) {
		argv[n++] = (char *)"--db";
		argv[n++] = (char *)out_path(r, &bufs[1], "db", it->hash, "db");
	}
	for (k = 0; k < r->o->nargs; k++)
		argv[n++] = (char *)r->o->args[k];
	for (k = 0; k < nmore; k++)
		argv[n++] = (char *)more[k];
	argv[n++] = (char *)"--";
	argv[n++] = it->path;
	return argv;
}

/* The error line a worker left ("btrace-analyze: error: X" gives X), or
 * what its end says when it left none. */
static char *worker_error(const struct bt_pool_end *e)
{
	static const char tag[] = "btrace-analyze: error: ";
	const char *t = e->tail.buf, *line = NULL, *p, *nl;
	struct bt_buf b = BT_BUF_INIT;

	for (p = t; (p = strstr(p, tag)); p += sizeof tag - 1)
		if (p == t || p[-1] == '\n')
			line = p + sizeof tag - 1;
	if (e->timed_out)
		bt_buf_addf(&b, "timed out: killed after %.0f s", e->seconds);
	else if (e->sig)
		bt_buf_addf(&b, "killed by signal %d (%s)", e->sig, strsignal(e->sig));
	else if (!line)
		bt_buf_addf(&b, "exited with status %d", e->exit_code);
	if (line) {
		nl = strchr(line, '\n');
		bt_buf_addf(&b, "%s%.*s", b.len ? ": " : "", (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line);
	} else if (e->tail.len) {   /* the last line it wrote, whatever it is */
		size_t end = e->tail.len;
		while (end && t[end - 1] == '\n')
			end--;
		for (p = t + end; p > t && p[-1] != '\n'; p--)
			;
		if (t + end > p)
			bt_buf_addf(&b, ": %.*s", (int)(t + end - p), p);
	}
	return bt_buf_detach(&b, NULL);
}

/* A failed worker's stderr tail as OUTDIR/logs/HASH.log. */
static void keep_log(struct batch_run *r, const struct bt_batch_item *it, const struct bt_buf *tail)
{
	struct bt_buf p = BT_BUF_INIT;
	struct bt_out out;
	struct bt_err e = BT_ERR_INIT;

	if (!bt_out_open(&out, out_path(r, &p, "logs", it->hash, "log"), &e)) {
		fwrite(tail->buf, 1, tail->len, out.fp);
		if (bt_out_commit(&out, &e))
			bt_out_abort(&out);
	}
	bt_buf_release(&p);
}

/* The journal ends with a whole line before this run appends: a run
 * killed while writing left one cut short, which the next line must not
 * continue (bt_manifest_load skips the cut one). */
static void line_start(int fd)
{
	struct stat st;
	char c;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &c, 1, st.st_size - 1) == 1 && c != '\n')
		(void)!write(fd, "\n", 1);   /* failing, the manifest is written whole at the end all the same */
}

static void journal(struct batch_run *r, const struct bt_batch_item *it)
{
	struct bt_buf line = BT_BUF_INIT;

	bt_manifest_line(it, r->o->db, &line);
	if (r->journal >= 0 && write(r->journal, line.buf, line.len) != (ssize_t)line.len) {
		close(r->journal);   /* the manifest is written whole at the end all the same */
		r->journal = -1;
	}
	bt_buf_release(&line);
}

static void show(struct batch_run *r)
{
	char d[160];
	double t = now() - r->t0, rate = t > 0 ? (double)r->ended / t : 0;
	size_t left = r->ntodo - r->decided - r->ended;

	if (!r->ntodo)
		return;
	if (rate > 0)
		snprintf(d, sizeof d, "%llu ok, %llu failed, %zu left, %.1f/s, ETA %.0f s",
			 (unsigned long long)r->ok, (unsigned long long)r->failed, left, rate, (double)left / rate);
	else
		snprintf(d, sizeof d, "%zu left", left);
	bt_progress_detail(d);
	bt_progress_pct((int)((r->decided + r->ended) * 100 / r->ntodo));
}

/* A worker killed outright (SIGKILL: by the pool past its grace, or the
 * kernel out of memory) could not remove the temporaries of its outputs
 * in OUTDIR: the batch does (PATH.tmp-PID, fileio.c's and db.c's, and
 * the tables' pages beside the latter, db_pages.c's). */
static void leftovers(struct batch_run *r, const struct bt_batch_item *it, long pid)
{
	static const char *const sub[][2] = { { "reports", "json" }, { "db", "db" } };
	static const char *const paged[] = BT_DB_PAGED_TABLES;
	struct bt_buf p = BT_BUF_INIT;
	size_t k, t;

	for (k = 0; k < 2; k++) {
		out_path(r, &p, sub[k][0], it->hash, sub[k][1]);
		bt_buf_addf(&p, ".tmp-%ld", pid);
		unlink(p.buf);
		for (t = 0; k == 1 && t < sizeof paged / sizeof *paged; t++) {
			size_t at = p.len;
			bt_buf_addf(&p, "-%s", paged[t]);
			unlink(p.buf);
			bt_buf_setlen(&p, at);
		}
	}
	bt_buf_release(&p);
}

static void ended(struct batch_run *r, const struct bt_pool_end *e)
{
	struct bt_batch_item *it = &r->items.v[e->tag];

	if (e->sig == SIGKILL)
		leftovers(r, it, e->pid);
	it->exit_code = e->exit_code;
	it->seconds = e->seconds;
	it->peak_kb = e->peak_kb;
	if (e->exit_code == 0) {
		it->status = BT_BATCH_OK;
		r->ok++;
	} else {
		it->status = BT_BATCH_FAILED;
		it->error = worker_error(e);
		keep_log(r, it, &e->tail);
		r->failed++;
	}
	r->ended++;
	journal(r, it);
	show(r);
}

/* The next trace to run into *i, recording on the way those that need
 * none; 0 when no trace is left. */
static int next(struct batch_run *r, size_t *i)
{
	while (r->next < r->ntodo) {
		*i = r->todo[r->next++];
		if (decide(r, *i))
			return 1;
		r->decided++;
		journal(r, &r->items.v[*i]);
		show(r);
	}
	return 0;
}

static int run_all(struct batch_run *r, struct bt_err *err)
{
	struct bt_pool *pool = NULL;
	struct bt_pool_end e;
	struct bt_buf bufs[2] = { BT_BUF_INIT, BT_BUF_INIT };
	int rc;

	memset(&e, 0, sizeof e);
	bt_buf_init(&e.tail);
	sort_list = &r->items;
	qsort(r->todo, r->ntodo, sizeof *r->todo, cmp_todo);
	if ((rc = bt_pool_new(&pool, r->o->jobs, err)))
		return rc;
	bt_pool_timeout(pool, r->o->timeout);
	bt_progress_phase("analysing the traces");
	r->t0 = now();
	show(r);
	while (!rc) {
		size_t i;
		while (!rc && !bt_pool_full(pool) && next(r, &i)) {
			char **argv = worker_argv(r, i, bufs);
			rc = bt_pool_spawn(pool, argv, i, err);
			free(argv);
		}
		if (rc || !bt_pool_running(pool))
			break;
		if (!(rc = bt_pool_reap(pool, &e, err)))
			ended(r, &e);
	}
	bt_pool_free(pool);
	bt_buf_release(&e.tail);
	bt_buf_release(&bufs[0]);
	bt_buf_release(&bufs[1]);
	bt_progress_phase(NULL);
	return rc;
}

/* The manifest, one line per file in path order, replacing the journal. */
static int write_manifest(struct batch_run *r, struct bt_err *err)
{
	struct bt_out out;
	struct bt_buf line = BT_BUF_INIT;
	size_t i;
	int rc;

	if ((rc = bt_out_open(&out, r->manifest, err)))
		return rc;
	for (i = 0; i < r->items.n; i++) {
		bt_buf_reset(&line);
		bt_manifest_line(&r->items.v[i], r->o->db, &line);
		fwrite(line.buf, 1, line.len, out.fp);
	}
	bt_buf_release(&line);
	if ((rc = bt_out_commit(&out, err)))
		bt_out_abort(&out);
	return rc;
}

static void sum_up(struct batch_run *r, struct bt_batch_sum *sum)
{
	size_t i;

	for (i = 0; i < r->items.n; i++) {
		const struct bt_batch_item *it = &r->items.v[i];
		sum->traces += it->importer != NULL && it->status != BT_BATCH_SKIPPED;
		sum->ok += it->status == BT_BATCH_OK;
		sum->failed += it->status == BT_BATCH_FAILED;
		sum->earlier += it->earlier;
		sum->skipped += it->status == BT_BATCH_SKIPPED;
		sum->sidecars += it->status == BT_BATCH_SKIPPED && it->sidecar;
	}
	sum->ran = r->ended;
	sum->seconds = now() - r->t0;
}

/* This shard's files into r->items; the others' are dropped. */
static int find(struct batch_run *r, char *const *inputs, int ninputs, struct bt_err *err)
{
	size_t i, k = 0;
	int rc = bt_batch_find(inputs, ninputs, r->o->outdir, &r->items, err);

	for (i = 0; i < r->items.n; i++) {
		if (bt_batch_in_shard(r->items.v[i].path, r->o->shard, r->o->nshards))
			r->items.v[k++] = r->items.v[i];
		else
			free(r->items.v[i].path);
	}
	r->items.n = k;
	return rc;
}

int bt_batch_run(const struct bt_batch_opts *o, char *const *inputs, int ninputs,
		 struct bt_batch_sum *sum, struct bt_err *err)
{
	struct batch_run r;
	struct bt_batch_list old;
	struct bt_buf path = BT_BUF_INIT;
	int rc;

	memset(&r, 0, sizeof r);
	memset(&old, 0, sizeof old);
	memset(sum, 0, sizeof *sum);
	r.o = o;
	r.journal = -1;
	r.t0 = now();
	bt_strmap_init(&r.seen);
	bt_strmap_init(&r.before);
	if (o->nshards)
		bt_buf_addf(&path, "%s/manifest-%d-of-%d.jsonl", o->outdir, o->shard, o->nshards);
	else
		bt_buf_addf(&path, "%s/manifest.jsonl", o->outdir);
	r.manifest = bt_buf_detach(&path, NULL);
	sum->manifest = bt_xstrdup(r.manifest);
	bt_progress_start(o->progress);
	rc = make_dirs(o, err);
	if (!rc)
		own_outputs(r.manifest);
	if (!rc)
		rc = find(&r, inputs, ninputs, err);
	if (!rc)
		rc = bt_manifest_load(r.manifest, &old, err);
	if (!rc) {
		size_t i;
		for (i = 0; i < old.n; i++)
			bt_strmap_put(&r.before, old.v[i].hash, strlen(old.v[i].hash), (uint32_t)i + 1);
		r.old = &old;
		r.todo = bt_xcalloc(r.items.n + 1, sizeof *r.todo);
		classify(&r);
		r.journal = open(r.manifest, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
		line_start(r.journal);
		rc = run_all(&r, err);
	}
	if (r.journal >= 0)
		close(r.journal);
	if (!rc)
		rc = write_manifest(&r, err);
	sum_up(&r, sum);
	if (!rc && sum->failed)
		rc = bt_err_set(err, BT_EBATCH, "%llu of %llu traces failed (see '%s')",
				(unsigned long long)sum->failed, (unsigned long long)sum->traces, r.manifest);
	free(r.todo);
	free(r.manifest);
	bt_strmap_release(&r.seen);
	bt_strmap_release(&r.before);
	bt_batch_list_release(&r.items);
	bt_batch_list_release(&old);
	return rc;
}

void bt_batch_sum_release(struct bt_batch_sum *sum)
{
	free(sum->manifest);
	sum->manifest = NULL;
}
