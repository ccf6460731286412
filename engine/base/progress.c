/*
 * The progress line (see progress.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/progress.h"

#define TICK_NS 200000000L     /* redraw every 0.2 s */
#define QUIET_NS 500000000LL   /* a phase shorter than this draws nothing */

struct bt_progress {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char what[256];            /* the phase; "" for none */
	char detail[160];          /* after the percentage; "" for none */
	int pct;
	int64_t since;             /* when the phase began, monotonic ns */
	int drawn;                 /* the line shows something */
	int eager;                 /* its percentage shows at once */
	int stop;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The terminal's width less one (a line as wide as the terminal wraps on
 * some), or 79 when it does not say. */
static size_t room(void)
{
	struct winsize ws;

	return ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? (size_t)ws.ws_col - 1 : 79;
}

/* The first bytes of s that make at most n characters (UTF-8). */
static size_t fit(const char *s, size_t n)
{
	size_t i = 0, chars = 0;

	while (s[i] && chars < n) {
		i++;
		while (((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

/* One line that fits the terminal: a longer one wraps, and the next
 * redraw's \r would return to its last row only. The detail gives way,
 * the time stays. Called with mu held. */
static void draw(struct bt_progress *p)
{
	int64_t age = now_ns() - p->since;
	char head[512], tail[32];
	size_t w = room(), t;

	if (!p->what[0] || (age < QUIET_NS && !(p->eager && p->pct >= 0)))
		return;
	if (p->pct >= 0)
		snprintf(head, sizeof head, "btrace-analyze: %s: %3d%%%s%s", p->what, p->pct,
			 p->detail[0] ? ", " : "", p->detail);
	else
		snprintf(head, sizeof head, "btrace-analyze: %s%s%s", p->what, p->detail[0] ? ": " : "", p->detail);
	snprintf(tail, sizeof tail, " (%.1f s)", (double)age / 1e9);
	t = strlen(tail);
	fprintf(stderr, "\r%.*s%s\033[K", (int)fit(head, w > t ? w - t : 0), head, tail);
	fflush(stderr);
	p->drawn = 1;
}

static void clear(struct bt_progress *p)
{
	if (p->drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->drawn = 0;
	}
}

static void *run(void *arg)
{
	struct bt_progress *p = arg;
	struct timespec until;

	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += TICK_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->cv, &p->mu, &until);
		if (!p->stop)
			draw(p);
	}
	clear(p);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static struct bt_progress *line;   /* the process's one line, or NULL */

void bt_progress_start(int enabled)
{
	struct bt_progress *p;

	if (!enabled || line)
		return;
	p = bt_xcalloc(1, sizeof *p);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->pct = -1;
	if (pthread_create(&p->thread, NULL, run, p)) {   /* no thread: no line, the run goes on */
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->cv);
		free(p);
		return;
	}
	line = p;
}

static void phase(const char *what, int eager)
{
	struct bt_progress *p = line;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	if (strcmp(p->what, what ? what : "")) {   /* the same phase again keeps its clock */
		clear(p);
		snprintf(p->what, sizeof p->what, "%s", what ? what : "");
		p->pct = -1;
		p->detail[0] = 0;
		p->since = now_ns();
		p->eager = eager;
	}
	pthread_mutex_unlock(&p->mu);
}

void bt_progress_phase(const char *what)
{
	phase(what, 0);
}

void bt_progress_phase_eager(const char *what)
{
	phase(what, 1);
}

void bt_progress_pct(int pct)
{
	struct bt_progress *p = line;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	if (p->pct != pct) {
		p->pct = pct;
		draw(p);
	}
	pthread_mutex_unlock(&p->mu);
}

void bt_progress_detail(const char *detail)
{
	struct bt_progress *p = line;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	snprintf(p->detail, sizeof p->detail, "%s", detail ? detail : "");
	pthread_mutex_unlock(&p->mu);
}

void bt_progress_stop(void)
{
	struct bt_progress *p = line;

	if (!p)
		return;
	line = NULL;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
}
