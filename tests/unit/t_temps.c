/*
 * Unit tests of the temporaries' registry and the output targets: a
 * registered file goes on exit(), on SIGTERM and on abort(), a forgotten
 * one stays; an output through a symbolic link replaces its target, a
 * FIFO is written through (or refused where a file is needed), a
 * directory is refused; an input FIFO is refused without blocking.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "tests/tap.h"

static char dir[] = "/tmp/t_temps-XXXXXX";

static char *at(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A child that registers name, creates it and ends by how (0 exit(1),
 * else that signal); its wait status. */
static int child(const char *name, int how, int forget)
{
	struct rlimit no_core = { 0, 0 };
	int status = -1;
	pid_t pid;

	fflush(stdout);   /* or the child's exit() prints the lines so far again */
	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		/* the handler is what is tested, not the caller's disposition: a
		 * background job starts with SIGINT ignored, which install keeps */
		if (how)
			signal(how, SIG_DFL);
		bt_temps_install();
		bt_temps_add(at(name));
		put(at(name), "x");
		if (forget)
			bt_temps_forget(at(name));
		if (how == SIGABRT)
			abort();
		if (how)
			raise(how);
		exit(1);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void test_registry(void)
{
	int st;

	st = child("exit", 0, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "exit(1): the status is kept");
	ok(!exists(at("exit")), "exit(1) removes a registered temporary");
	st = child("term", SIGTERM, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "SIGTERM: killed by it, as without the handler");
	ok(!exists(at("term")), "SIGTERM removes a registered temporary");
	st = child("int", SIGINT, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "SIGINT: killed by it");
	ok(!exists(at("int")), "SIGINT removes a registered temporary");
	st = child("abort", SIGABRT, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "abort(): killed by SIGABRT");
	ok(!exists(at("abort")), "abort() (an out-of-memory abort) removes a registered temporary");
	child("kept", SIGTERM, 1);
	ok(exists(at("kept")), "a forgotten file stays");
}

static void test_temp_file(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf name = BT_BUF_INIT;
	int fd;

	setenv("TMPDIR", dir, 1);
	fd = bt_temp_file("btrace-t", "a test file", &name, &err);
	ok(fd >= 0 && !strncmp(name.buf, at("btrace-t-"), strlen(at("btrace-t-"))), "a temporary in $TMPDIR");
	if (fd >= 0)
		close(fd);
	bt_temps_cleanup();
	ok(!exists(name.buf), "bt_temp_file registers what it makes");
	bt_buf_release(&name);
	setenv("TMPDIR", at("missing"), 1);
	ok(bt_temp_file("btrace-t", "a test file", &name, &err) < 0 && strstr(err.msg, "missing") &&
	   strstr(err.msg, strerror(ENOENT)), "a missing $TMPDIR is named with the errno text");
	unsetenv("TMPDIR");
}

static void test_targets(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf real = BT_BUF_INIT;
	struct bt_out o;
	int stream = -1;
	char buf[16] = "";
	FILE *f;

	put(at("target.txt"), "old");
	symlink("target.txt", at("link.txt"));
	symlink("link.txt", at("link2.txt"));
	is_int(bt_out_target(at("link2.txt"), NULL, &real, &stream, &err), BT_OK, "a chain of links");
	is_str(real.buf, at("target.txt"), "ends at the regular file");
	is_int(stream, 0, "which is replaced, not written through");
	is_int(bt_out_open(&o, at("link2.txt"), &err), BT_OK, "open through the links");
	fputs("new", o.fp);
	is_int(bt_out_commit(&o, &err), BT_OK, "commit");
	ok(exists(at("link2.txt")) && readlink(at("link.txt"), buf, sizeof buf) > 0, "the links stay links");
	f = fopen(at("target.txt"), "r");
	memset(buf, 0, sizeof buf);
	if (f) {
		fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	is_str(buf, "new", "the target got the bytes");

	mkfifo(at("fifo"), 0600);
	is_int(bt_out_target(at("fifo"), NULL, &real, &stream, &err), BT_OK, "a FIFO is an output");
	is_int(stream, 1, "written through");
	is_int(bt_out_target(at("fifo"), "a trace database", &real, &stream, &err), BT_EUSAGE,
	       "a FIFO as a database: usage error");
	ok(strstr(err.msg, "it is a FIFO, and a trace database needs a regular file") != NULL,
	   "the message says what it is and why it cannot be");
	err = (struct bt_err)BT_ERR_INIT;
	is_int(bt_out_target(dir, NULL, &real, &stream, &err), BT_EUSAGE, "a directory: usage error");
	ok(strstr(err.msg, "it is a directory") != NULL, "the message says it is a directory");
	err = (struct bt_err)BT_ERR_INIT;
	is_int(bt_out_target("/dev/null", NULL, &real, &stream, &err), BT_OK, "a character device");
	is_int(stream, 1, "written through");
	is_int(bt_input_check(at("fifo"), 0, &err), BT_EIO, "an input FIFO is refused, without blocking");
	ok(strstr(err.msg, "it is a FIFO, not a regular file") && strstr(err.msg, "fifo'"),
	   "the message names the path and what it is");
	bt_buf_release(&real);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("not ok 1 - mkdtemp\n");
		return 1;
	}
	test_registry();
	test_temp_file();
	test_targets();
	bt_temps_cleanup();
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	wait(NULL);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
