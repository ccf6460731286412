/*
 * The temporaries' registry (temps.h): slots of fixed size, claimed under
 * a mutex and published with an atomic flag, so the signal handler reads
 * them without locks or allocation.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/temps.h"

#define NSLOTS 32
#define SLOT_LEN 4096

struct slot {
	atomic_int live;            /* 1: path is complete and to be removed */
	char path[SLOT_LEN];
};

static struct slot slots[NSLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT };

void bt_temps_cleanup(void)
{
	int i, saved = errno;

	for (i = NSLOTS - 1; i >= 0; i--)   /* a folder's files, named after it, go first */
		if (atomic_exchange(&slots[i].live, 0) && unlink(slots[i].path) && errno == EISDIR)
			rmdir(slots[i].path);
	errno = saved;
}

static void on_signal(int sig)
{
	sigset_t set;

	bt_temps_cleanup();
	/* the default action gives the parent the real cause (exit 128+sig);
	 * the signal is blocked in its handler, so unblock it first */
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void at_exit(void)
{
	bt_temps_cleanup();
}

void bt_temps_install(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaddset(&sa.sa_mask, signals[i]);   /* one handler at a time */
	for (i = 0; i < sizeof signals / sizeof signals[0]; i++) {
		if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(signals[i], &sa, NULL);
	}
	atexit(at_exit);
}

int bt_temps_add(const char *path)
{
	size_t len = strlen(path);
	int i, rc = -1;

	if (len >= SLOT_LEN)
		return -1;
	pthread_mutex_lock(&lock);
	for (i = 0; i < NSLOTS; i++) {
		if (atomic_load(&slots[i].live))
			continue;
		memcpy(slots[i].path, path, len + 1);
		atomic_store(&slots[i].live, 1);
		rc = 0;
		break;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

void bt_temps_forget(const char *path)
{
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < NSLOTS; i++) {
		if (atomic_load(&slots[i].live) && !strcmp(slots[i].path, path)) {
			atomic_store(&slots[i].live, 0);
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

void bt_temps_remove(const char *path)
{
	unlink(path);
	bt_temps_forget(path);
}
