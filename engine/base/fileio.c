/*
 * Input maps and atomic outputs (see fileio.h).
 */
#define _DEFAULT_SOURCE   /* madvise(MADV_DONTNEED): glibc's posix_madvise ignores it */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"

int bt_fmap_open(struct bt_fmap *m, const char *path, struct bt_err *err)
{
	struct stat st;
	void *p;
	int fd = open(path, O_RDONLY);

	m->data = NULL;
	m->len = 0;
	if (fd < 0)
		return bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return bt_err_set(err, BT_EIO, "cannot read '%s': not a regular file", path);
	}
	if (st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return bt_err_set(err, BT_EIO, "cannot map '%s': %s", path, strerror(errno));
		}
		posix_madvise(p, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
		m->data = p;
		m->len = (size_t)st.st_size;
	}
	close(fd);
	return BT_OK;
}

void bt_fmap_drop(struct bt_fmap *m, size_t upto)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = upto / page * page;

	if (m->data && n && n <= m->len)
		madvise((void *)m->data, n, MADV_DONTNEED);
}

void bt_fmap_release(struct bt_fmap *m)
{
	if (m->data)
		munmap((void *)m->data, m->len);
	m->data = NULL;
	m->len = 0;
}

int bt_temp_file(const char *stem, const char *what, struct bt_buf *name, struct bt_err *err)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	bt_buf_addf(name, "%s/%s-XXXXXX", dir, stem);
	fd = mkstemp(name->buf);
	if (fd < 0) {
		bt_err_set(err, BT_EIO, "cannot create %s in '%s': %s", what, dir, strerror(errno));
		bt_buf_release(name);
	}
	return fd;
}

int bt_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bt_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int bt_out_open(struct bt_out *o, const char *path, struct bt_err *err)
{
	struct bt_buf tmp = BT_BUF_INIT;

	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		return BT_OK;
	}
	bt_buf_addf(&tmp, "%s.tmp-%ld", path, (long)getpid());
	o->tmp = bt_buf_detach(&tmp, NULL);
	o->path = bt_xstrdup(path);
	o->fp = fopen(o->tmp, "wb");
	if (!o->fp) {
		bt_err_set(err, BT_EIO, "cannot create '%s': %s", path, strerror(errno));
		bt_out_abort(o);
		return err->code;
	}
	return BT_OK;
}

int bt_out_commit(struct bt_out *o, struct bt_err *err)
{
	int bad;

	if (!o->fp)
		return BT_OK;
	if (o->fp == stdout) {
		o->fp = NULL;
		return fflush(stdout) ? bt_err_set(err, BT_EIO, "cannot write to stdout: %s",
						   strerror(errno)) : BT_OK;
	}
	bad = ferror(o->fp) | fclose(o->fp);
	o->fp = NULL;
	if (bad || rename(o->tmp, o->path) != 0) {
		bt_err_set(err, BT_EIO, "cannot write '%s': %s", o->path, strerror(errno));
		bt_out_abort(o);
		return err->code;
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return BT_OK;
}

void bt_out_abort(struct bt_out *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
