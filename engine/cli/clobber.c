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

/* The files c's options of this role name in o, in the table's order: a
 * value's, each of a list's. */
struct paths {
	const char **v;
	size_t n, cap;
};

static void option_paths(const struct bt_opts *o, const struct bt_optcmd *c, int role, struct paths *out)
{
	const struct bt_opt *const *lists[2] = { c->opts, c->common };
	const struct bt_opt *const *p;
	size_t k;
	int i, n;

	for (k = 0; k < 2; k++)
		for (p = lists[k]; p && *p; p++) {
			const char *at = (const char *)o + (*p)->field;
			const char *const *v = (const char *const *)at;
			if ((*p)->files != role || !(*p)->field)
				continue;
			n = 1;
			if ((*p)->kind == BT_OPTK_LIST || (*p)->kind == BT_OPTK_RUNS) {
				v = *(const char *const *const *)at;
				n = *(const int *)((const char *)o + (*p)->count);
			}
			for (i = 0; v && i < n; i++) {
				BT_GROW(out->v, out->n + 1, out->cap);
				out->v[out->n++] = v[i];
			}
		}
}

/* The existing regular file among o's outputs that is an input, with the
 * input's path (NULL: a mapping); NULL if none. */
static const char *clobbered(const struct bt_opts *o, const struct bt_optcmd *c, struct inputs *in,
			     const char **which)
{
	struct paths outs = { NULL, 0, 0 }, ins = { NULL, 0, 0 };
	const char *found = NULL;
	struct stat st;
	size_t k, i;
	int loaded = 0;

	option_paths(o, c, BT_OPT_WRITES, &outs);
	for (k = 0; k < outs.n && !found; k++) {
		const char *out = outs.v[k];
		if (!out || !strcmp(out, "-") || stat(out, &st) || !S_ISREG(st.st_mode))
			continue;
		if (bt_known_sidecar_file(out)) {   /* a mapping, found beside its trace */
			found = out;
			break;
		}
		if (!loaded++) {
			for (i = 0; i < (size_t)o->ninputs; i++)
				add(in, o->inputs[i]);
			option_paths(o, c, BT_OPT_READS, &ins);
			for (i = 0; i < ins.n; i++)
				add(in, ins.v[i]);
		}
		for (i = 0; i < in->n && !found; i++)
			if (in->v[i].dev == st.st_dev && in->v[i].ino == st.st_ino) {
				*which = in->v[i].path;
				found = out;
			}
	}
	free(outs.v);
	free(ins.v);
	return found;
}

int bt_opts_check_clobber(const struct bt_opts *o, const struct bt_optcmd *c, struct bt_err *err)
{
	struct inputs in = { NULL, 0, 0 };
	const char *which = NULL, *out = clobbered(o, c, &in, &which);
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
