/*
 * No command writes over one of its own inputs (issue 34 item 1): an
 * output that names an existing regular file which is also an input (the
 * same device and inode, by any path or link) is refused before any work.
 * An input directory (a dump's, a folder of runs) counts with the files
 * directly in it, and a mapping (found beside a trace, not named) by what
 * it holds: no output goes over one. Inputs are looked at only when some
 * output exists.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/base/alloc.h"
#include "engine/cli/opts.h"
#include "importers/known.h"

struct input {
	dev_t dev;
	ino_t ino;
	char *path;
};

struct inputs {
	struct input *v;
	size_t n, cap;
};

static void push(struct inputs *in, const struct stat *st, const char *path)
{
	BT_GROW(in->v, in->n + 1, in->cap);
	in->v[in->n].dev = st->st_dev;
	in->v[in->n].ino = st->st_ino;
	in->v[in->n++].path = bt_xstrdup(path);
}

static void add(struct inputs *in, const char *path)
{
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (!path || !strcmp(path, "-") || stat(path, &st))
		return;
	push(in, &st, path);
	if (!S_ISDIR(st.st_mode) || !(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		struct bt_buf p = BT_BUF_INIT;
		struct stat fs;
		if (e->d_name[0] == '.')
			continue;
		bt_buf_addf(&p, "%s/%s", path, e->d_name);
		if (!stat(p.buf, &fs) && S_ISREG(fs.st_mode))
			push(in, &fs, p.buf);
		bt_buf_release(&p);
	}
	closedir(d);
}

static void add_all(struct inputs *in, const char *const *paths, int n)
{
	int i;

	for (i = 0; i < n; i++)
		add(in, paths[i]);
}

/* The existing regular file among o's outputs that is an input, with the
 * input's path (NULL: a mapping); NULL if none. */
static const char *clobbered(const struct bt_opts *o, struct inputs *in, const char **which)
{
	const char *outs[] = { o->out, o->db, o->perfetto, o->pprof, o->folded, o->speedscope };
	const size_t nfixed = sizeof outs / sizeof outs[0];
	struct stat st;
	size_t k, i;
	int loaded = 0;

	for (k = 0; k < nfixed + (size_t)o->nouts; k++) {
		const char *out = k < nfixed ? outs[k] : o->outs[k - nfixed];
		if (!out || !strcmp(out, "-") || stat(out, &st) || !S_ISREG(st.st_mode))
			continue;
		if (bt_known_sidecar_file(out))   /* a mapping, found beside its trace */
			return out;
		if (!loaded++) {
			add_all(in, (const char *const *)o->inputs, o->ninputs);
			add(in, o->mapping);
			add(in, o->retrace);
			add(in, o->symbols);
			add(in, o->gates);
			add_all(in, o->rules, o->nrules);
			add_all(in, o->arules, o->narules);
			add_all(in, o->base, o->nbase);
			add_all(in, o->head, o->nhead);
			add_all(in, o->calib, o->ncalib);
		}
		for (i = 0; i < in->n; i++)
			if (in->v[i].dev == st.st_dev && in->v[i].ino == st.st_ino) {
				*which = in->v[i].path;
				return out;
			}
	}
	return NULL;
}

int bt_opts_check_clobber(const struct bt_opts *o, struct bt_err *err)
{
	struct inputs in = { NULL, 0, 0 };
	const char *which = NULL, *out = clobbered(o, &in, &which);
	int rc = !out ? BT_OK
		 : which ? bt_err_set(err, BT_EUSAGE, "refusing to write '%s': it is the input '%s' (the same file); "
				      "give the output another path", out, which)
			 : bt_err_set(err, BT_EUSAGE, "refusing to write '%s': it is a mapping, an input read beside "
				      "its trace; give the output another path", out);
	size_t i;

	for (i = 0; i < in.n; i++)
		free(in.v[i].path);
	free(in.v);
	return rc;
}
