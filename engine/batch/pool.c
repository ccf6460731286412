/*
 * The batch's worker pool: up to N processes at once, each forked and
 * exec'd (a worker ends with the batch: Linux's parent-death signal),
 * reaped with wait4 for its rusage, its stderr captured in a file of its
 * slot for the error line, its $TMPDIR a folder of its slot emptied after
 * it ends (what a worker killed with SIGKILL left there goes with it).
 */
#define _GNU_SOURCE   /* wait4, sched_getaffinity */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "engine/batch/batch.h"
#include "engine/batch/batch_int.h"

#define TAIL_MAX 8192
#define GRACE 5.0   /* seconds a worker told to stop (SIGTERM) has before SIGKILL */

struct pool_slot {
	pid_t pid;          /* 0: free */
	char *tmpdir;       /* its workers' $TMPDIR, or NULL (none could be made: the batch's) */
	size_t tag;
	int cap_fd;         /* the capture of its stderr */
	double started;
	int timed_out;      /* stopped for running past the timeout: 1 SIGTERM sent, 2 SIGKILL too */
	double termed;      /* when SIGTERM was sent */
};

struct bt_pool {
	struct pool_slot *slots;
	int n, running;
	int timeout;        /* seconds a worker may run; 0: no limit */
	char *tmproot;      /* $TMPDIR/btrace-batch-XXXXXX, the slots' folders in it */
};

extern char **environ;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (ftw->level > 0)   /* the folder itself stays */
		(flag == FTW_DP ? rmdir : unlink)(path);
	return 0;
}

/* Remove what dir holds (links not followed). */
static void empty_dir(const char *dir)
{
	if (dir)
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A folder per slot for its workers' $TMPDIR, in one of the batch's own;
 * named in the temporaries' registry (a signal to the batch removes them
 * once its workers, told to stop too, have emptied them). Without them
 * the workers use the batch's $TMPDIR. */
static void tmpdirs_open(struct bt_pool *p)
{
	const char *t = getenv("TMPDIR");
	struct bt_buf b = BT_BUF_INIT;
	int i;

	bt_buf_addf(&b, "%s/btrace-batch-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(b.buf)) {
		bt_buf_release(&b);
		return;
	}
	p->tmproot = bt_buf_detach(&b, NULL);
	bt_temps_add(p->tmproot);
	for (i = 0; i < p->n; i++) {
		bt_buf_reset(&b);
		bt_buf_addf(&b, "%s/w%d", p->tmproot, i);
		bt_temps_add(b.buf);
		if (mkdir(b.buf, 0700) == 0)
			p->slots[i].tmpdir = bt_buf_detach(&b, NULL);
		else
			bt_temps_forget(b.buf);
	}
	bt_buf_release(&b);
}

static void tmpdirs_close(struct bt_pool *p)
{
	int i;

	for (i = 0; i < p->n; i++) {
		if (!p->slots[i].tmpdir)
			continue;
		empty_dir(p->slots[i].tmpdir);
		rmdir(p->slots[i].tmpdir);
		bt_temps_forget(p->slots[i].tmpdir);
		free(p->slots[i].tmpdir);
	}
	if (p->tmproot) {
		rmdir(p->tmproot);
		bt_temps_forget(p->tmproot);
		free(p->tmproot);
	}
}

/* The environment with TMPDIR=dir (owned: free the array and its first
 * string); NULL: environ as it is. */
static char **env_with_tmpdir(const char *dir)
{
	size_t n = 0, k = 1, i;
	char **env;

	if (!dir)
		return NULL;
	while (environ[n])
		n++;
	env = bt_xcalloc(n + 2, sizeof *env);
	env[0] = bt_xmalloc(strlen(dir) + 8);
	strcpy(env[0], "TMPDIR=");
	strcat(env[0], dir);
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "TMPDIR=", 7))
			env[k++] = environ[i];
	return env;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bt_batch_cores(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof set, &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int bt_pool_new(struct bt_pool **out, int jobs, struct bt_err *err)
{
	struct bt_pool *p = bt_xcalloc(1, sizeof *p);
	struct bt_buf name = BT_BUF_INIT;
	int i;

	p->n = jobs;
	p->slots = bt_xcalloc((size_t)jobs, sizeof *p->slots);
	for (i = 0; i < jobs; i++)
		p->slots[i].cap_fd = -1;
	for (i = 0; i < jobs; i++) {
		/* close-on-exec: only the worker it is dup'ed into sees it */
		p->slots[i].cap_fd = bt_temp_file("btrace-analyze-worker", "a worker's error capture", &name, err);
		if (p->slots[i].cap_fd < 0) {
			bt_pool_free(p);
			*out = NULL;
			return err->code;
		}
		bt_temps_remove(name.buf);
	}
	bt_buf_release(&name);
	tmpdirs_open(p);
	*out = p;
	return BT_OK;
}

void bt_pool_free(struct bt_pool *p)
{
	int i, status;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		if (p->slots[i].pid > 0)
			kill(p->slots[i].pid, SIGTERM);
	for (i = 0; i < p->n; i++) {
		if (p->slots[i].pid > 0)
			while (waitpid(p->slots[i].pid, &status, 0) < 0 && errno == EINTR)
				;
		if (p->slots[i].cap_fd >= 0)
			close(p->slots[i].cap_fd);
	}
	tmpdirs_close(p);
	free(p->slots);
	free(p);
}

void bt_pool_timeout(struct bt_pool *p, int seconds)
{
	p->timeout = seconds;
}

int bt_pool_running(const struct bt_pool *p)
{
	return p->running;
}

int bt_pool_full(const struct bt_pool *p)
{
	return p->running >= p->n;
}

/* In the child, between fork and exec: only async-signal-safe calls. The
 * batch's handlers (which remove its temporaries) are reset before the
 * signals blocked around the fork are let in; SIGTERM comes when the batch
 * dies, so that no worker outlives it. */
static _Noreturn void child(char *const argv[], char *const env[], int cap_fd, const sigset_t *old)
{
	static const char msg[] = "btrace-analyze: error: cannot run the worker\n";
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT };
	size_t i;
	ssize_t n;
	int fd;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa;
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			signal(sigs[i], SIG_DFL);
	}
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	sigprocmask(SIG_SETMASK, old, NULL);
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		if (fd > 2)
			close(fd);
	}
	dup2(cap_fd, 2);
	execve(argv[0], argv, env ? env : environ);
	n = write(2, msg, sizeof msg - 1);
	(void)n;
	_exit(127);
}

int bt_pool_spawn(struct bt_pool *p, char *const argv[], size_t tag, struct bt_err *err)
{
	struct pool_slot *s = p->slots;
	sigset_t all, old;
	char **env;
	pid_t pid;

	while (s->pid)
		s++;
	if (ftruncate(s->cap_fd, 0) || lseek(s->cap_fd, 0, SEEK_SET) < 0)
		return bt_err_set(err, BT_EIO, "cannot reset a worker's error capture: %s", strerror(errno));
	env = env_with_tmpdir(s->tmpdir);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0)
		child(argv, env, s->cap_fd, &old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (env) {
		free(env[0]);
		free(env);
	}
	if (pid < 0)
		return bt_err_set(err, BT_EIO, "cannot start a worker: %s", strerror(errno));
	s->pid = pid;
	s->tag = tag;
	s->timed_out = 0;
	s->started = now();
	p->running++;
	return BT_OK;
}

/* The last TAIL_MAX bytes the worker wrote to its stderr. */
static void read_tail(int fd, struct bt_buf *tail)
{
	char buf[TAIL_MAX];
	struct stat st;
	off_t from;
	ssize_t got;

	if (fstat(fd, &st) || st.st_size <= 0)
		return;
	from = st.st_size > TAIL_MAX ? st.st_size - TAIL_MAX : 0;
	got = pread(fd, buf, (size_t)(st.st_size - from), from);
	if (got > 0)
		bt_buf_add(tail, buf, (size_t)got);
}

/* Stop the workers past the timeout: SIGTERM first, so that a worker
 * removes its temporaries (its database's, an inflated iOS trace in
 * $TMPDIR) as it goes; SIGKILL GRACE seconds later if it is still there. */
static void overdue(struct bt_pool *p)
{
	struct timespec tick = { 0, 20000000 };
	double t = now();
	int i;

	for (i = 0; i < p->n; i++) {
		struct pool_slot *s = &p->slots[i];
		if (s->pid > 0 && !s->timed_out && t - s->started > p->timeout) {
			kill(s->pid, SIGTERM);
			s->timed_out = 1;
			s->termed = t;
		} else if (s->pid > 0 && s->timed_out == 1 && t - s->termed > GRACE) {
			kill(s->pid, SIGKILL);
			s->timed_out = 2;
		}
	}
	nanosleep(&tick, NULL);
}

int bt_pool_reap(struct bt_pool *p, struct bt_pool_end *end, struct bt_err *err)
{
	struct rusage ru;
	int status, i;
	pid_t pid;

	bt_buf_reset(&end->tail);
	for (;;) {
		/* with a timeout, polled every 20 ms: the workers' clocks are checked */
		pid = wait4(-1, &status, p->timeout ? WNOHANG : 0, &ru);
		if (pid == 0) {
			overdue(p);
			continue;
		}
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return bt_err_set(err, BT_EIO, "cannot wait for the workers: %s", strerror(errno));
		for (i = 0; i < p->n && p->slots[i].pid != pid; i++)
			;
		if (i < p->n)
			break;   /* else a child that is no worker of ours */
	}
	end->tag = p->slots[i].tag;
	end->seconds = now() - p->slots[i].started;
	end->peak_kb = ru.ru_maxrss;   /* Linux: kilobytes */
	end->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	end->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	end->timed_out = p->slots[i].timed_out != 0;
	end->pid = pid;
	end->killed = p->slots[i].timed_out == 2;
	read_tail(p->slots[i].cap_fd, &end->tail);
	empty_dir(p->slots[i].tmpdir);   /* a worker killed with SIGKILL left its scratch */
	p->slots[i].pid = 0;
	p->running--;
	return BT_OK;
}
