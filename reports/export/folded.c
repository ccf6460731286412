/*
 * Folded-stack export (see folded.h): the entries of each (thread, path)
 * summed over messages, then one line each, root first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/names.h"
#include "reports/export/folded.h"
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

static int64_t value_of(const struct bt_stacks *s, const struct bt_stacks_entry *e, enum bt_folded_metric m)
{
	switch (m) {
	case BT_FOLDED_CPU: return bt_stacks_value(s, e, BT_SV_CPU);
	case BT_FOLDED_OFFCPU: return bt_stacks_value(s, e, BT_SV_WALL) - bt_stacks_value(s, e, BT_SV_CPU);
	case BT_FOLDED_ALLOC: return bt_stacks_value(s, e, BT_SV_ABYTES);
	default: return bt_stacks_value(s, e, BT_SV_WALL);
	}
}

struct line {
	uint32_t thread, path;
	int64_t v;
};

/* Sum the entries by (thread, path), in order of first appearance. A path
 * is of one thread (stacks.h), so the path alone finds its line. */
static struct line *sum_lines(const struct bt_stacks *s, enum bt_folded_metric m, size_t *n)
{
	struct line *l = NULL;
	uint32_t *line = bt_xcalloc(s->npaths + 1, sizeof *line);   /* by path: its line + 1 */
	size_t cap = 0, i;

	*n = 0;
	for (i = 0; i < s->n; i++) {
		const struct bt_stacks_entry *e = &s->e[i];
		uint32_t k = line[e->path];
		if (!k) {
			BT_GROW(l, *n + 1, cap);
			l[*n].thread = s->ctx[e->ctx].thread;
			l[*n].path = e->path;
			l[*n].v = 0;
			k = line[e->path] = (uint32_t)++*n;
		}
		l[k - 1].v += value_of(s, e, m);
	}
	free(line);
	return l;
}

/* A frame's text as the lines show it. */
struct text {
	char *s;
	size_t len;
};

static struct text text_of(const char *name)
{
	struct text t;

	t.s = frame_text(name);
	t.len = strlen(t.s);
	return t;
}

#define OUT_BUF (1u << 20)

/* Lines are written OUT_BUF bytes at a time. */
struct out {
	FILE *fp;
	char *buf;
	size_t n, cap;
};

static void put(struct out *o, const char *s, size_t len)
{
	if (o->n + len > o->cap) {
		if (o->n)
			fwrite(o->buf, 1, o->n, o->fp);
		o->n = 0;
		if (len > o->cap) {
			fwrite(s, 1, len, o->fp);
			return;
		}
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

/* The text of the last line built, as a stack of its paths and the text's
 * length after each: the next line keeps what it shares (the lines of a
 * thread are mostly neighbours in its call tree) and appends the rest. */
struct line_text {
	struct bt_buf b;
	uint32_t thread;
	int have;
	size_t root;              /* the text's length after the thread's name */
	uint32_t *path;           /* the stack: paths, outermost first */
	size_t *len;              /* the text's length after each */
	size_t n, cap;
	uint32_t *pos;            /* by path: its place in the stack + 1, if still there */
	uint32_t *chain;
	size_t ccap;
};

static void build(struct line_text *t, const struct bt_stacks *s, const struct text *roots,
		  const struct text *names, const struct line *l)
{
	static const struct text unknown = { (char *)"?", 1 };
	uint32_t p = l->path;
	size_t nc = 0, keep;

	if (!t->have || t->thread != l->thread) {
		t->have = 1;
		t->thread = l->thread;
		t->n = 0;
		bt_buf_reset(&t->b);
		bt_buf_add(&t->b, roots[l->thread].s, roots[l->thread].len);
		t->root = t->b.len;
	}
	while (p && !(t->pos[p] && t->pos[p] <= t->n && t->path[t->pos[p] - 1] == p)) {
		BT_GROW(t->chain, nc + 1, t->ccap);
		t->chain[nc++] = p;
		p = s->parent[p];
	}
	keep = p ? t->pos[p] : 0;
	t->n = keep;
	bt_buf_setlen(&t->b, keep ? t->len[keep - 1] : t->root);
	while (nc--) {
		uint32_t f;
		const struct text *x;
		p = t->chain[nc];
		f = s->frame[p];
		x = f < s->nframes && names[f].s ? &names[f] : &unknown;
		bt_buf_add(&t->b, ";", 1);
		bt_buf_add(&t->b, x->s, x->len);
		if (t->n == t->cap) {
			BT_GROW(t->path, t->n + 1, t->cap);
			t->len = bt_xrealloc(t->len, t->cap * sizeof *t->len);
		}
		t->path[t->n] = p;
		t->len[t->n] = t->b.len;
		t->pos[p] = (uint32_t)++t->n;
	}
}

/* " VALUE\n" for a positive value into b (at least 24 bytes); its length. */
static size_t value_text(char *b, int64_t v)
{
	char d[24];
	size_t n = 0, k = 0;
	uint64_t u = (uint64_t)v;

	do
		d[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	b[k++] = ' ';
	while (n)
		b[k++] = d[--n];
	b[k++] = '\n';
	return k;
}

int bt_folded_write(const struct bt_stacks *s, enum bt_folded_metric metric, const struct bt_namer *n,
		    FILE *fp, struct bt_err *err)
{
	if (s->cpu_unknown && (metric == BT_FOLDED_CPU || metric == BT_FOLDED_OFFCPU))   /* not 0: unknown */
		return bt_err_set(err, BT_EFORMAT, "cannot write '%s' stacks: the trace does not give its threads' "
				  "CPU time (--folded-metric wall or alloc can)", metric_names[metric]);
	struct text *roots = bt_xcalloc(s->nthreads + 1, sizeof *roots);
	struct text *names = bt_xcalloc(s->nframes + 1, sizeof *names);
	struct out o = { fp, bt_xmalloc(OUT_BUF), 0, OUT_BUF };
	struct line_text t;
	size_t nlines, i;
	struct line *lines = sum_lines(s, metric, &nlines);
	char num[32];
	int rc = BT_OK;

	memset(&t, 0, sizeof t);
	t.b = (struct bt_buf)BT_BUF_INIT;
	t.pos = bt_xcalloc(s->npaths + 1, sizeof *t.pos);
	for (i = 0; i < s->nthreads; i++)
		roots[i] = text_of(s->threads[i].root);
	for (i = 0; i < s->nframes; i++)
		if (s->frames[i])
			names[i] = text_of(bt_namer_get(n, s->frames[i]));
	for (i = 0; i < nlines; i++) {
		if (lines[i].v <= 0)
			continue;
		build(&t, s, roots, names, &lines[i]);
		put(&o, t.b.buf, t.b.len);
		put(&o, num, value_text(num, lines[i].v));
	}
	if (o.n)
		fwrite(o.buf, 1, o.n, fp);
	if (ferror(fp))
		rc = bt_err_set(err, BT_EIO, "cannot write the folded stacks: %s", strerror(errno));
	for (i = 0; i < s->nthreads; i++)
		free(roots[i].s);
	for (i = 0; i < s->nframes; i++)
		free(names[i].s);
	free(roots);
	free(names);
	free(o.buf);
	bt_buf_release(&t.b);
	free(t.path);
	free(t.len);
	free(t.pos);
	free(t.chain);
	free(lines);
	return rc;
}

static int write_export(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	return bt_folded_write(x->stacks, (enum bt_folded_metric)x->folded_metric, x->names, out, err);
}

const struct bt_exporter bt_exp_folded = { "folded", NULL, BT_NEED_STACKS, write_export };
