/*
 * system_server's launchingActivity#N (API 32+): the start as Perfetto's
 * android_startups and androidx's StartupTimingMetric measure it, from
 * the intent (before the launching: slice) to the activity drawn. The
 * async slice S|tgid|launchingActivity#N|cookie ... F|..., and the instant
 * I|tgid|launchingActivity#N:completed[-KIND]:PKG that names its package;
 * or the same as TrackEvents: a slice on an async track of system_server
 * and an instant.
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

static struct pf_alaunch *begin(struct pf *p, int64_t id, int64_t ts)
{
	struct pf_alaunch *a;

	BT_GROW(p->alaunches, p->nalaunches + 1, p->alcap);
	a = &p->alaunches[p->nalaunches++];
	memset(a, 0, sizeof *a);
	a->id = id;
	a->ts = ts;
	a->end_ts = -1;
	return a;
}

/* The completed instant's package, once. */
static void completed(struct pf_alaunch *a, const char *rest, const char *end)
{
	const char *pkg;

	if (a && !a->pkg && (pkg = completed_pkg(rest, end)) != NULL)
		a->pkg = bt_xstrndup(pkg, (size_t)(end - pkg));
}

void pf_alaunch_print(struct pf *p, int64_t ts, const char *buf, size_t len)
{
	const char *name = len > 2 ? memchr(buf + 2, '|', len - 2) : NULL, *end = buf + len, *rest;
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
	if (buf[0] == 'S' && rest == end && (!a || a->end_ts >= 0) && p->nalaunches < MAX_ALAUNCHES)
		begin(p, id, ts);
	else if (buf[0] == 'F' && rest == end && a && !a->track && a->end_ts < 0 && ts >= a->ts)
		a->end_ts = ts;
	else if (buf[0] == 'I')
		completed(a, rest, end);
}

void pf_alaunch_event(struct pf *p, uint64_t uuid, int kind, const char *name, int64_t ts)
{
	const char *rest, *end;
	struct pf_alaunch *a;
	size_t i;
	int64_t id;

	for (i = p->nalaunches; (kind == PF_EV_BEGIN || kind == PF_EV_END) && p->open_alaunches && i-- > 0;) {
		a = &p->alaunches[i];
		if (!a->track || a->end_ts >= 0 || a->uuid != uuid)
			continue;
		if (kind == PF_EV_BEGIN)
			a->depth++;
		else if (a->depth)
			a->depth--;
		else if (ts >= a->ts)
			a->end_ts = ts, p->open_alaunches--;
		break;   /* the innermost launch of the track */
	}
	if (!name || (id = parse_id(name, strlen(name), &rest)) < 0)
		return;
	end = rest + strlen(rest);
	a = latest(p, id);
	if (kind == PF_EV_BEGIN && rest == end && (!a || a->end_ts >= 0) && p->nalaunches < MAX_ALAUNCHES) {
		a = begin(p, id, ts);
		a->track = 1;
		a->uuid = uuid;
		p->open_alaunches++;
	} else if (kind == PF_EV_INSTANT) {
		completed(a, rest, end);
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
	p->nalaunches = p->alcap = p->open_alaunches = 0;
}
