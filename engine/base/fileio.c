/*
 * Input maps and atomic outputs (see fileio.h).
 */
#define _DEFAULT_SOURCE   /* madvise(MADV_DONTNEED): glibc's posix_madvise ignores it */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"

#define MAX_LINKS 40

const char *bt_file_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "not a regular file";
	}
}

/* Open path for reading without waiting: a FIFO would block until a
 * writer came. The flag is cleared again for the reads that follow. */
static int open_input(const char *path, struct stat *st, struct bt_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), fl;

	if (fd < 0)
		return bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, strerror(errno)), -1;
	if (fstat(fd, st) != 0) {
		bt_err_set(err, BT_EIO, "cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) != -1)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int bt_input_check(const char *path, int dir_ok, struct bt_err *err)
{
	struct stat st;
	int fd = open_input(path, &st, err);

	if (fd < 0)
		return err->code;
	close(fd);
	if (S_ISREG(st.st_mode) || (dir_ok && S_ISDIR(st.st_mode)))
		return BT_OK;
	return bt_err_set(err, BT_EIO, "cannot read '%s': it is %s, not a regular file", path,
			  bt_file_kind(st.st_mode));
}

int bt_fmap_open(struct bt_fmap *m, const char *path, struct bt_err *err)
{
	struct stat st;
	void *p;
	int fd;

	m->data = NULL;
	m->len = 0;
	if ((fd = open_input(path, &st, err)) < 0)
		return err->code;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return bt_err_set(err, BT_EIO, "cannot read '%s': it is %s, not a regular file", path,
				  bt_file_kind(st.st_mode));
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

/* A name nobody else is likely to pick: the pid, a counter and the clock. */
static unsigned long temp_salt(void)
{
	static unsigned long n;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((unsigned long)ts.tv_nsec * 2654435761u) ^ (++n * 40503u);
}

int bt_temp_file(const char *stem, const char *what, struct bt_buf *name, struct bt_err *err)
{
	const char *dir = getenv("TMPDIR");
	int fd = -1, tries;

	if (!dir || !*dir)
		dir = "/tmp";
	for (tries = 0; tries < 100 && fd < 0; tries++) {
		bt_buf_reset(name);
		bt_buf_addf(name, "%s/%s-%ld-%06lx", dir, stem, (long)getpid(), temp_salt() & 0xffffff);
		bt_temps_add(name->buf);   /* before it exists: a signal may come at once */
		fd = open(name->buf, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			bt_temps_forget(name->buf);
		if (fd < 0 && errno != EEXIST)
			break;
	}
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

/* All n bytes of b to fd at offset at, or where fd is when at < 0. */
static int write_at(int fd, const void *b, size_t n, off_t at)
{
	const unsigned char *c = b;

	while (n) {
		ssize_t w = at < 0 ? write(fd, c, n) : pwrite(fd, c, n, at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		c += w;
		n -= (size_t)w;
		if (at >= 0)
			at += w;
	}
	return 0;
}

int bt_write_all(int fd, const void *b, size_t n)
{
	return write_at(fd, b, n, -1);
}

int bt_pwrite_all(int fd, const void *b, size_t n, off_t at)
{
	return write_at(fd, b, n, at);
}

static int own_outputs;

void bt_out_own(int on)
{
	own_outputs = on;
}

int bt_out_create_temp(const char *tmp, int flags)
{
	int fd = open(tmp, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);

	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)   /* a leftover, or a link planted there */
		fd = open(tmp, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	return fd;
}

/* The file a link chain ends at (it may not exist yet): a report to a
 * symlink replaces the link's target, and the link stays. */
static int follow_links(const char *path, struct bt_buf *real, struct bt_err *err)
{
	struct bt_buf next = BT_BUF_INIT;
	struct stat st;
	char target[4096];
	ssize_t n;
	int hops;

	bt_buf_reset(real);
	bt_buf_addf(real, "%s", path);
	for (hops = 0; lstat(real->buf, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		if (hops == MAX_LINKS || (n = readlink(real->buf, target, sizeof target - 1)) < 0) {
			bt_buf_release(&next);
			return bt_err_set(err, BT_EIO, "cannot follow the link '%s': %s", path,
					  hops == MAX_LINKS ? strerror(ELOOP) : strerror(errno));
		}
		target[n] = 0;
		bt_buf_reset(&next);
		if (target[0] != '/' && strrchr(real->buf, '/'))
			bt_buf_addf(&next, "%.*s", (int)(strrchr(real->buf, '/') - real->buf + 1), real->buf);
		bt_buf_addf(&next, "%s", target);
		bt_buf_reset(real);
		bt_buf_addf(real, "%s", next.buf);
	}
	bt_buf_release(&next);
	return BT_OK;
}

int bt_out_target(const char *path, const char *need_file, struct bt_buf *real, int *stream,
		  struct bt_err *err)
{
	struct stat st;

	*stream = 0;
	if (own_outputs) {   /* whatever is there is replaced, a link itself */
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return bt_err_set(err, BT_EUSAGE, "cannot write '%s': it is a directory", path);
		bt_buf_reset(real);
		bt_buf_addf(real, "%s", path);
		return BT_OK;
	}
	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return bt_err_set(err, BT_EIO, "cannot write '%s': %s", path, strerror(errno));
	} else if ((S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) && !need_file) {
		*stream = 1;   /* a pipe, a terminal, /dev/stdout: it gets the bytes */
		bt_buf_reset(real);
		bt_buf_addf(real, "%s", path);
		return BT_OK;
	} else if (!S_ISREG(st.st_mode)) {
		if (need_file)
			return bt_err_set(err, BT_EUSAGE, "cannot write '%s': it is %s, and %s needs a regular file",
					  path, bt_file_kind(st.st_mode), need_file);
		return bt_err_set(err, BT_EUSAGE, "cannot write '%s': it is %s", path,
				  bt_file_kind(st.st_mode));
	}
	return follow_links(path, real, err);
}

int bt_out_open(struct bt_out *o, const char *path, struct bt_err *err)
{
	struct bt_buf real = BT_BUF_INIT;
	int stream, fd;

	memset(o, 0, sizeof *o);
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		return BT_OK;
	}
	if (bt_out_target(path, NULL, &real, &stream, err)) {
		bt_buf_release(&real);
		return err->code;
	}
	o->path = bt_buf_detach(&real, NULL);
	if (stream) {   /* written through: nothing to rename, nothing to remove */
		o->fp = fopen(o->path, "wb");
		if (!o->fp) {
			bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, strerror(errno));
			bt_out_abort(o);
			return err->code;
		}
		return BT_OK;
	}
	bt_buf_addf(&real, "%s.tmp-%ld", o->path, (long)getpid());
	o->tmp = bt_buf_detach(&real, NULL);
	bt_temps_add(o->tmp);
	fd = bt_out_create_temp(o->tmp, O_WRONLY | O_TRUNC);
	o->fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!o->fp) {
		if (fd >= 0)
			close(fd);
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
	errno = 0;
	bad = ferror(o->fp) | fclose(o->fp);
	o->fp = NULL;
	if (bad || (o->tmp && rename(o->tmp, o->path) != 0)) {
		bt_err_set(err, BT_EIO, "cannot write '%s': %s", o->path,
			   errno ? strerror(errno) : "write error");
		bt_out_abort(o);
		return err->code;
	}
	if (o->tmp)
		bt_temps_forget(o->tmp);
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
		bt_temps_remove(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

/* "DEV:INO/NAME" of a file to be made: two paths to one file (by a link
 * in the folder's path, "./x", "d/../x") read the same. */
static int canonical(const char *path, struct bt_buf *real, struct bt_err *err)
{
	char *slash = strrchr(real->buf, '/'), *name;
	struct stat st;
	int rc = BT_OK;

	name = bt_xstrdup(slash ? slash + 1 : real->buf);
	if (slash)
		slash[slash == real->buf] = '\0';   /* "/x" keeps its "/" */
	if (stat(slash ? real->buf : ".", &st) || access(slash ? real->buf : ".", W_OK | X_OK))
		rc = bt_err_set(err, BT_EIO, "cannot create '%s': %s", path, strerror(errno));
	bt_buf_reset(real);
	bt_buf_addf(real, "%llu:%llu/%s", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino, name);
	free(name);
	return rc;
}

int bt_out_distinct(const char *const *paths, size_t n, struct bt_err *err)
{
	struct bt_buf *real = bt_xcalloc(n + 1, sizeof *real);
	size_t k, i;
	int rc = BT_OK, stream;

	for (k = 0; k < n && !rc; k++) {
		const char *path = paths[k] ? paths[k] : "-";
		if (!*path)
			rc = bt_err_set(err, BT_EUSAGE, "an output path is empty");
		else if (!strcmp(path, "-"))
			bt_buf_adds(&real[k], "-");
		else if (!(rc = bt_out_target(path, NULL, &real[k], &stream, err)) && !stream)
			rc = canonical(path, &real[k], err);
		for (i = 0; i < k && !rc; i++)
			if (!strcmp(real[i].buf, real[k].buf))
				rc = bt_err_set(err, BT_EUSAGE, "'%s' and '%s' are one output",
						paths[i] ? paths[i] : "-", path);
	}
	for (k = 0; k < n; k++)
		bt_buf_release(&real[k]);
	free(real);
	return rc;
}
