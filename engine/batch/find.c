/*
 * Finding a batch's files: the inputs walked recursively into one sorted
 * list, each file once, and the shard a path belongs to.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/base/hash.h"
#include "engine/base/walk.h"
#include "engine/batch/batch_int.h"

static int add_file(void *ctx, const char *path, const struct stat *st, struct bt_err *err)
{
	struct bt_batch_list *l = ctx;
	struct bt_batch_item *it;

	(void)err;
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
	return BT_OK;
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
	struct bt_walk w = { add_file, l, NULL, 0 };
	struct stat st;
	int rc;

	if (skip && !stat(skip, &st))
		w.skip = &st;
	rc = bt_walk(&w, (const char *const *)inputs, ninputs, err);
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
