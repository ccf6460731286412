/*
 * Finding a batch's files: the inputs walked recursively into one sorted
 * list, each file once, and the shard a path belongs to.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/base/hash.h"
#include "engine/batch/batch_int.h"

/* The directories walked so far, by device and inode (a link loop is
 * walked once), and the one to leave out. */
struct seen {
	struct bt_strmap dirs;
	dev_t skip_dev;
	ino_t skip_ino;
	int has_skip;
};

/* 1 if st's directory is new (now seen), 0 if walked before. */
static int seen_add(struct seen *s, const struct stat *st)
{
	uint64_t key[2];

	key[0] = (uint64_t)st->st_dev;
	key[1] = (uint64_t)st->st_ino;
	if (bt_strmap_get(&s->dirs, (const char *)key, sizeof key))
		return 0;
	bt_strmap_put(&s->dirs, (const char *)key, sizeof key, 1);
	return 1;
}

static void add_file(struct bt_batch_list *l, const char *path, const struct stat *st)
{
	struct bt_batch_item *it;

	BT_GROW(l->v, l->n + 1, l->cap);
	it = &l->v[l->n++];
	memset(it, 0, sizeof *it);
	it->path = bt_xstrdup(path);
	it->size = (uint64_t)st->st_size;
	it->dev = st->st_dev;
	it->ino = st->st_ino;
	it->exit_code = -1;
	it->seconds = -1;
	it->peak_kb = -1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(const char *path, struct seen *s, struct bt_batch_list *l, struct bt_err *err);

/* The entries of directory path, sorted, walked in turn. */
static int walk_dir(const char *path, struct seen *s, struct bt_batch_list *l, struct bt_err *err)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct bt_buf sub = BT_BUF_INIT;
	int rc = BT_OK;

	if (!d)
		return bt_err_set(err, BT_EIO, "cannot read directory '%s': %s", path, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		BT_GROW(names, n + 1, cap);
		names[n++] = bt_xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_name);
	for (i = 0; i < n; i++) {
		bt_buf_reset(&sub);
		bt_buf_addf(&sub, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
		if (!rc)
			rc = walk(sub.buf, s, l, err);
		free(names[i]);
	}
	free(names);
	bt_buf_release(&sub);
	return rc;
}

static int walk(const char *path, struct seen *s, struct bt_batch_list *l, struct bt_err *err)
{
	struct stat st;

	if (stat(path, &st))
		return bt_err_set(err, BT_EIO, "cannot read '%s': %s", path, strerror(errno));
	if (S_ISREG(st.st_mode)) {
		add_file(l, path, &st);
		return BT_OK;
	}
	if (!S_ISDIR(st.st_mode))
		return BT_OK;   /* FIFOs, devices, sockets: no trace */
	if (s->has_skip && st.st_dev == s->skip_dev && st.st_ino == s->skip_ino)
		return BT_OK;
	if (!seen_add(s, &st))
		return BT_OK;
	return walk_dir(path, s, l, err);
}

static int cmp_inode(const void *a, const void *b)
{
	const struct bt_batch_item *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct bt_batch_item *)a)->path, ((const struct bt_batch_item *)b)->path);
}

/* One item per file: of the paths reaching one inode, the first in order. */
static void unique(struct bt_batch_list *l)
{
	size_t i, k = 0;

	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof *l->v, cmp_inode);
	for (i = 0; i < l->n; i++) {
		if (k && l->v[k - 1].dev == l->v[i].dev && l->v[k - 1].ino == l->v[i].ino) {
			free(l->v[i].path);
			continue;
		}
		l->v[k++] = l->v[i];
	}
	l->n = k;
	qsort(l->v, l->n, sizeof *l->v, cmp_path);
}

int bt_batch_find(char *const *inputs, int ninputs, const char *skip, struct bt_batch_list *l,
		  struct bt_err *err)
{
	struct seen s;
	struct stat st;
	int i, rc = BT_OK;

	memset(&s, 0, sizeof s);
	bt_strmap_init(&s.dirs);
	if (skip && !stat(skip, &st)) {
		s.skip_dev = st.st_dev;
		s.skip_ino = st.st_ino;
		s.has_skip = 1;
	}
	for (i = 0; i < ninputs && !rc; i++)
		rc = walk(inputs[i], &s, l, err);
	bt_strmap_release(&s.dirs);
	unique(l);
	return rc;
}

/* A hash of the file's size and first SHARD_HEAD bytes: the same for two
 * copies of one trace wherever they are, so they fall in one shard, where
 * the second is told a duplicate of the first (batch.c's decide), not
 * analysed once per shard. Traces differ early (headers, clocks), so the
 * shards stay about even for the cost of one read of the head. */
#define SHARD_HEAD 65536

/* Up to cap bytes from fd's start; -1 on a read error. */
static ssize_t read_head(int fd, unsigned char *b, size_t cap)
{
	size_t n = 0;

	while (n < cap) {
		ssize_t k = read(fd, b + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (!k)
			break;
		n += (size_t)k;
	}
	return (ssize_t)n;
}

static int content_key(const char *path, uint64_t *key)
{
	unsigned char *buf;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);   /* a FIFO must not block */

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	buf = bt_xmalloc(SHARD_HEAD + sizeof st.st_size);
	memcpy(buf, &st.st_size, sizeof st.st_size);
	n = read_head(fd, buf + sizeof st.st_size, SHARD_HEAD);
	close(fd);
	if (n >= 0)
		*key = bt_hash_bytes(buf, sizeof st.st_size + (size_t)n);
	free(buf);
	return n < 0 ? -1 : 0;
}

int bt_batch_in_shard(const char *path, int shard, int nshards)
{
	uint64_t key;

	if (nshards <= 1)
		return 1;
	if (content_key(path, &key))   /* unreadable: its shard tells why */
		key = bt_hash_bytes(path, strlen(path));
	return key % (uint64_t)nshards == (uint64_t)shard;
}

void bt_batch_list_release(struct bt_batch_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].error);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}
