/*
 * Folded-stack export (see folded.h): the entries of each (thread, path)
 * summed over messages, then one line each, root first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/export/folded.h"
#include "engine/base/hash.h"
#include "reports/report.h"

static const char *const metric_names[] = { "wall", "cpu", "offcpu", "alloc" };

int bt_folded_metric_parse(const char *name)
{
	int i;

	if (!name)
		return BT_FOLDED_WALL;
	for (i = 0; i < (int)(sizeof metric_names / sizeof metric_names[0]); i++)
		if (!strcmp(name, metric_names[i]))
			return i;
	return -1;
}

/* A name as one frame: no ';' (the separator) and no line break; an
 * empty name becomes "?". The caller frees it. */
static char *frame_text(const char *name)
{
	char *t = bt_xstrdup(*name ? name : "?"), *c;

	for (c = t; *c; c++)
		if (*c == ';')
			*c = ':';
		else if (*c == '\n' || *c == '\r')
			*c = ' ';
	return t;
}

static int64_t value_of(const struct bt_stacks_entry *e, enum bt_folded_metric m)
{
	switch (m) {
	case BT_FOLDED_CPU: return e->v[BT_SV_CPU];
	case BT_FOLDED_OFFCPU: return e->v[BT_SV_WALL] - e->v[BT_SV_CPU];
	case BT_FOLDED_ALLOC: return e->v[BT_SV_ABYTES];
	default: return e->v[BT_SV_WALL];
	}
}

struct line {
	uint32_t thread, path;
	int64_t v;
};

/* Sum the entries by (thread, path), in order of first appearance. */
static struct line *sum_lines(const struct bt_stacks *s, enum bt_folded_metric m, size_t *n)
{
	struct bt_map64 map;
	struct line *l = NULL;
	size_t cap = 0, i;

	*n = 0;
	bt_map64_init(&map, s->npaths);
	for (i = 0; i < s->n; i++) {
		const struct bt_stacks_entry *e = &s->e[i];
		uint32_t t = s->ctx[e->ctx].thread;
		uint64_t key = (uint64_t)t << 32 | e->path;
		uint32_t k = bt_map64_get(&map, key);
		if (!k) {
			BT_GROW(l, *n + 1, cap);
			l[*n].thread = t;
			l[*n].path = e->path;
			l[*n].v = 0;
			bt_map64_put(&map, key, (uint32_t)++*n);
			k = (uint32_t)*n;
		}
		l[k - 1].v += value_of(e, m);
	}
	bt_map64_release(&map);
	return l;
}

static void put_line(const struct bt_stacks *s, char **roots, char **names, const struct line *l,
		     uint32_t **frames, size_t *cap, FILE *fp)
{
	size_t n = 0;
	uint32_t p;

	for (p = l->path; p; p = s->parent[p]) {
		BT_GROW(*frames, n + 1, *cap);
		(*frames)[n++] = s->frame[p];
	}
	fputs(roots[l->thread], fp);
	while (n--) {
		uint32_t f = (*frames)[n];
		putc(';', fp);
		fputs(f < s->nframes && names[f] ? names[f] : "?", fp);
	}
	fprintf(fp, " %" PRId64 "\n", l->v);
}

int bt_folded_write(const struct bt_stacks *s, enum bt_folded_metric metric, FILE *fp,
		    struct bt_err *err)
{
	char **roots = bt_xcalloc(s->nthreads + 1, sizeof *roots);
	char **names = bt_xcalloc(s->nframes + 1, sizeof *names);
	uint32_t *frames = NULL;
	size_t nlines, cap = 0, i;
	struct line *lines = sum_lines(s, metric, &nlines);
	int rc = BT_OK;

	for (i = 0; i < s->nthreads; i++)
		roots[i] = frame_text(s->threads[i].root);
	for (i = 0; i < s->nframes; i++)
		if (s->frames[i])
			names[i] = frame_text(s->frames[i]);
	for (i = 0; i < nlines; i++)
		if (lines[i].v > 0)
			put_line(s, roots, names, &lines[i], &frames, &cap, fp);
	if (ferror(fp))
		rc = bt_err_set(err, BT_EIO, "cannot write the folded stacks: %s", strerror(errno));
	for (i = 0; i < s->nthreads; i++)
		free(roots[i]);
	for (i = 0; i < s->nframes; i++)
		free(names[i]);
	free(roots);
	free(names);
	free(frames);
	free(lines);
	return rc;
}

static int write_export(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	return bt_folded_write(x->stacks, (enum bt_folded_metric)x->folded_metric, out, err);
}

const struct bt_exporter bt_exp_folded = { "folded", NULL, BT_NEED_STACKS, write_export };
