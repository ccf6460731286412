/*
 * slice_totals: a database's time per (thread, method) from its slices,
 * for tests/fixtures/score_slices.py and score_threads.py, which summed
 * them in Python (300k slices of a 20k-record device dump: 0.3 s a
 * database, two or three a dump, 50-odd dumps a suite).
 *
 * usage: slice_totals TRACE.db
 *
 * Per (tid, frame name), one line
 *
 *     tid  wall_ns  cpu_ns  name
 *
 * the slices' dur and cpu_dur, nested slices of a name counted once (the
 * outermost, DESIGN §5), as score_slices.slice_totals had them: slices in
 * id order (preorder), the path from the root a stack popped back to each
 * slice's parent (to empty when the parent is not on it), a slice whose
 * frame has no name skipped. Lines in no set order. Exit 1 with a message
 * on a file it cannot read, a frame id below 0 or a counted slice's NULL
 * dur or cpu_dur.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/scoring/syms.h"

static void oom(void)
{
	fputs("slice_totals: out of memory\n", stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	if (!(p = realloc(p, n ? n : 1)))
		oom();
	return p;
}

static void die(sqlite3 *db, const char *path, const char *what)
{
	fprintf(stderr, "slice_totals: %s: %s%s%s\n", path, what, db ? ": " : "", db ? sqlite3_errmsg(db) : "");
	exit(1);
}

/* Sums by (tid, name), an open-addressing table. */
struct sum { int64_t tid, wall, cpu; uint32_t name, used; };
struct sums { struct sum *v; size_t n, mask; };

static size_t slot(const struct sums *t, int64_t tid, uint32_t name)
{
	return ((uint64_t)tid * 0x9e3779b97f4a7c15ULL ^ name) & t->mask;
}

static struct sum *sum_of(struct sums *t, int64_t tid, uint32_t name)
{
	size_t i, k;

	if (2 * (t->n + 1) > t->mask + 1) {
		struct sum *old = t->v;
		size_t m = old ? 2 * (t->mask + 1) : 4096, om = old ? t->mask + 1 : 0;
		t->v = xrealloc(NULL, m * sizeof *t->v);
		memset(t->v, 0, m * sizeof *t->v);
		t->mask = m - 1;
		for (k = 0; k < om; k++) {
			if (!old[k].used)
				continue;
			for (i = slot(t, old[k].tid, old[k].name); t->v[i].used; i = (i + 1) & t->mask)
				;
			t->v[i] = old[k];
		}
		free(old);
	}
	for (i = slot(t, tid, name); t->v[i].used; i = (i + 1) & t->mask)
		if (t->v[i].tid == tid && t->v[i].name == name)
			return &t->v[i];
	t->n++;
	t->v[i] = (struct sum){ tid, 0, 0, name, 1 };
	return &t->v[i];
}

int main(int argc, char **argv)
{
	struct syms names = { NULL, NULL, 0, 0, 0 };
	struct sums sums = { NULL, 0, 0 };
	struct open { int64_t id; uint32_t name; } *path = NULL;
	uint32_t *name_of = NULL, *open = NULL;   /* by frame id (UINT32_MAX: no name); by name */
	size_t nframes = 0, depth = 0, cap = 0, k;
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	const char *file;

	if (argc != 2) {
		fputs("usage: slice_totals TRACE.db\n", stderr);
		return 2;
	}
	file = argv[1];
	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(db, file, "cannot open");
	if (sqlite3_prepare_v2(db, "SELECT id, name FROM frames", -1, &st, NULL) != SQLITE_OK)
		die(db, file, "cannot read the frames");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *nm = (const char *)sqlite3_column_text(st, 1);
		if (id < 0 || id >= UINT32_MAX)
			die(NULL, file, "a frame id below 0 or past 2^32");
		if ((size_t)id >= nframes) {
			size_t n = (size_t)id + 1 > 2 * nframes ? (size_t)id + 1 : 2 * nframes;
			name_of = xrealloc(name_of, n * sizeof *name_of);
			memset(name_of + nframes, 0xff, (n - nframes) * sizeof *name_of);
			nframes = n;
		}
		if (nm) {
			int added;
			name_of[id] = intern(&names, (char *)nm, &added);
			if (added && !(names.name[name_of[id]] = strdup(nm)))   /* SQLite's text lasts a step */
				oom();
		} else {
			name_of[id] = UINT32_MAX;
		}
	}
	sqlite3_finalize(st);
	open = xrealloc(NULL, (names.n ? names.n : 1) * sizeof *open);
	memset(open, 0, (names.n ? names.n : 1) * sizeof *open);
	if (sqlite3_prepare_v2(db, "SELECT id, parent_id, tid, frame_id, dur, cpu_dur FROM slices ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		die(db, file, "cannot read the slices");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), fid = sqlite3_column_int64(st, 3);
		int has_parent = sqlite3_column_type(st, 1) != SQLITE_NULL;
		int64_t pid = sqlite3_column_int64(st, 1);
		uint32_t nm;
		if (sqlite3_column_type(st, 3) == SQLITE_NULL || fid < 0 || (size_t)fid >= nframes ||
		    (nm = name_of[fid]) == UINT32_MAX)
			continue;   /* no frame: not a method's */
		while (depth && (!has_parent || path[depth - 1].id != pid))
			open[path[--depth].name]--;
		if (depth == cap)
			path = xrealloc(path, (cap = cap ? 2 * cap : 256) * sizeof *path);
		path[depth++] = (struct open){ id, nm };
		if (open[nm]++)
			continue;   /* nested in a slice of its name */
		if (sqlite3_column_type(st, 4) == SQLITE_NULL || sqlite3_column_type(st, 5) == SQLITE_NULL)
			die(NULL, file, "a slice with a NULL dur or cpu_dur");
		{
			struct sum *s = sum_of(&sums, sqlite3_column_int64(st, 2), nm);
			s->wall += sqlite3_column_int64(st, 4);
			s->cpu += sqlite3_column_int64(st, 5);
		}
	}
	if (sqlite3_finalize(st) != SQLITE_OK)
		die(db, file, "cannot read the slices");
	for (k = 0; sums.v && k <= sums.mask; k++)
		if (sums.v[k].used)
			printf("%lld\t%lld\t%lld\t%s\n", (long long)sums.v[k].tid, (long long)sums.v[k].wall,
			       (long long)sums.v[k].cpu, names.name[sums.v[k].name]);
	sqlite3_close(db);
	for (k = 0; k < names.n; k++)
		free(names.name[k]);
	free(names.name);
	free(names.slot);
	free(sums.v);
	free(path);
	free(name_of);
	free(open);
	return ferror(stdout) ? 1 : 0;
}
