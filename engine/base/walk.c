/*
 * One walk of the inputs (see walk.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/walk.h"

struct walker {
	const struct bt_walk *w;
	struct bt_strmap dirs, files;   /* seen, by device and inode */
};

/* 1 if st is new in seen (now seen), 0 if met before. */
static int seen_add(struct bt_strmap *seen, const struct stat *st)
{
	uint64_t key[2] = { (uint64_t)st->st_dev, (uint64_t)st->st_ino };

	if (bt_strmap_get(seen, (const char *)key, sizeof key))
		return 0;
	bt_strmap_put(seen, (const char *)key, sizeof key, 1);
	return 1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(struct walker *k, const char *path, const struct stat *st, struct bt_err *err);

/* The entries of directory path, sorted, walked in turn. */
static int walk_dir(struct walker *k, const char *path, struct bt_err *err)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct bt_buf sub = BT_BUF_INIT;
	struct stat st;
	int rc = BT_OK;

	if (!d)
		return bt_err_set(err, BT_EIO, "cannot read the directory '%s': %s", path, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		BT_GROW(names, n + 1, cap);
		names[n++] = bt_xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		bt_buf_reset(&sub);
		bt_buf_addf(&sub, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
		if (!rc && !stat(sub.buf, &st))   /* else gone, or a dangling link */
			rc = walk(k, sub.buf, &st, err);
		free(names[i]);
	}
	free(names);
	bt_buf_release(&sub);
	return rc;
}

static int walk(struct walker *k, const char *path, const struct stat *st, struct bt_err *err)
{
	const struct stat *skip = k->w->skip;

	if (S_ISREG(st->st_mode))
		return k->w->files_once && !seen_add(&k->files, st) ? BT_OK : k->w->file(k->w->ctx, path, st, err);
	if (!S_ISDIR(st->st_mode))
		return BT_OK;
	if ((skip && st->st_dev == skip->st_dev && st->st_ino == skip->st_ino) || !seen_add(&k->dirs, st))
		return BT_OK;
	return walk_dir(k, path, err);
}

int bt_walk(const struct bt_walk *w, const char *const *paths, int npaths, struct bt_err *err)
{
	struct walker k;
	struct stat st;
	int i, rc = BT_OK;

	k.w = w;
	bt_strmap_init(&k.dirs);
	bt_strmap_init(&k.files);
	for (i = 0; i < npaths && !rc; i++) {
		if (stat(paths[i], &st))
			rc = bt_err_set(err, BT_EIO, "cannot read '%s': %s", paths[i], strerror(errno));
		else
			rc = walk(&k, paths[i], &st, err);
	}
	bt_strmap_release(&k.dirs);
	bt_strmap_release(&k.files);
	return rc;
}
