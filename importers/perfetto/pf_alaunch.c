/*
 * system_server's launchingActivity#N (API 32+): the start as Perfetto's
 * android_startups and androidx's StartupTimingMetric measure it, from
 * the intent (before the launching: slice) to the activity drawn. The
 * async slice S|tgid|launchingActivity#N|cookie ... F|..., and the instant
 * I|tgid|launchingActivity#N:completed[-KIND]:PKG that names its package.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"
#include "importers/process.h"

#define PREFIX "launchingActivity#"
#define MAX_ALAUNCHES 64   /* a hostile trace may announce a launch per event */

/* N and what follows it ("" or ":completed...") of a name, -1: not ours. */
static int64_t parse_id(const char *name, size_t len, const char **rest)
{
	size_t n = sizeof PREFIX - 1, i;
	int64_t id = 0;

	if (len <= n || memcmp(name, PREFIX, n))
		return -1;
	for (i = n; i < len && name[i] >= '0' && name[i] <= '9' && id < INT32_MAX; i++)
		id = id * 10 + (name[i] - '0');
	if (i == n)
		return -1;
	*rest = name + i;
	return id;
}

static struct pf_alaunch *latest(struct pf *p, int64_t id)
{
	size_t i;

	for (i = p->nalaunches; i-- > 0;)
		if (p->alaunches[i].id == id)
			return &p->alaunches[i];
	return NULL;
}

/* "completed:PKG" or "completed-KIND:PKG": the package, else NULL. */
static const char *completed_pkg(const char *rest, const char *end)
{
	const char *c = ":completed", *colon;
	size_t n = strlen(c);

	if ((size_t)(end - rest) <= n || memcmp(rest, c, n))
		return NULL;
	colon = memchr(rest + n, ':', (size_t)(end - rest - n));
	return colon && colon + 1 < end ? colon + 1 : NULL;
}

void pf_alaunch_print(struct pf *p, int64_t ts, const char *buf, size_t len)
{
	const char *name = len > 2 ? memchr(buf + 2, '|', len - 2) : NULL, *end = buf + len, *rest, *pkg;
	struct pf_alaunch *a;
	int64_t id;

	if (!name || (buf[0] != 'S' && buf[0] != 'F' && buf[0] != 'I'))
		return;
	name++;
	if (buf[0] == 'I') {   /* I|tgid|name, maybe |args after it */
		if ((rest = memchr(name, '|', (size_t)(end - name))) != NULL)
			end = rest;
	} else {               /* S and F end in |cookie */
		while (end > name && end[-1] != '|')
			end--;
		if (end-- == name)
			return;
	}
	if ((id = parse_id(name, (size_t)(end - name), &rest)) < 0)
		return;
	a = latest(p, id);
	if (buf[0] == 'S' && rest == end && (!a || a->end_ts >= 0) && p->nalaunches < MAX_ALAUNCHES) {
		BT_GROW(p->alaunches, p->nalaunches + 1, p->alcap);
		a = &p->alaunches[p->nalaunches++];
		memset(a, 0, sizeof *a);
		a->id = id;
		a->ts = ts;
		a->end_ts = -1;
	} else if (buf[0] == 'F' && rest == end && a && a->end_ts < 0 && ts >= a->ts) {
		a->end_ts = ts;
	} else if (buf[0] == 'I' && a && !a->pkg && (pkg = completed_pkg(rest, end)) != NULL) {
		a->pkg = bt_xstrndup(pkg, (size_t)(end - pkg));
	}
}

const struct pf_alaunch *pf_alaunch_of(const struct pf *p, const char *lbl, int64_t at)
{
	size_t i;

	for (i = 0; lbl && i < p->nalaunches; i++) {
		const struct pf_alaunch *a = &p->alaunches[i];
		if (a->pkg && a->end_ts > a->ts && bt_process_named(lbl, a->pkg) &&
		    (at < 0 || (a->ts <= at && at <= a->end_ts)))
			return a;
	}
	return NULL;
}

void pf_alaunch_release(struct pf *p)
{
	size_t i;

	for (i = 0; i < p->nalaunches; i++)
		free(p->alaunches[i].pkg);
	free(p->alaunches);
	p->alaunches = NULL;
	p->nalaunches = p->alcap = 0;
}
