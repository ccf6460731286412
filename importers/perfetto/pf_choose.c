/*
 * Which process of a Perfetto trace is the app (issue 19): a system trace
 * holds hundreds. The one --process names; else the target of
 * system_server's "launching: PKG" async slice; else one whose main thread
 * ran bindApplication, activityStart or activityResume; else the one most
 * slices begin in. The choice, and why, go to meta.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"
#include "importers/process.h"

#define LAUNCH_PREFIX "launching: "
#define MAX_LAUNCHES 64   /* a hostile trace may announce a launch per event */
#define LISTED 5          /* candidates a diagnostic or an error names */

/* Strongest first: a cold start (bindApplication) is what a trace of a
 * start is most likely about. */
static const struct {
	const char *name;
	unsigned bit;
} marks[] = {
	{ "bindApplication", PF_MARK_BIND }, { "activityStart", PF_MARK_START }, { "activityResume", PF_MARK_RESUME },
};

void pf_mark(struct pf *p, int64_t pid, int64_t tid, const char *name, size_t len)
{
	size_t i;

	if (pid != tid || pid <= 0 || pid >= INT32_MAX || (name[0] != 'b' && name[0] != 'a'))
		return;
	for (i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (strlen(marks[i].name) == len && !memcmp(name, marks[i].name, len))
			bt_map64_put(&p->marks, (uint64_t)pid, bt_map64_get(&p->marks, (uint64_t)pid) | marks[i].bit);
}

int pf_is_launch(const char *name, size_t len)
{
	size_t n = sizeof LAUNCH_PREFIX - 1;

	return len > n && !memcmp(name, LAUNCH_PREFIX, n);
}

void pf_launch_begin(struct pf *p, const char *name, size_t len, int64_t ts, int64_t cookie, const uint64_t *uuid)
{
	size_t n = sizeof LAUNCH_PREFIX - 1;
	struct pf_launch *l;

	if (!pf_is_launch(name, len) || p->nlaunches >= MAX_LAUNCHES)
		return;
	BT_GROW(p->launches, p->nlaunches + 1, p->lcap);
	l = &p->launches[p->nlaunches++];
	memset(l, 0, sizeof *l);
	l->pkg = bt_xmalloc(len - n + 1);
	memcpy(l->pkg, name + n, len - n);
	l->pkg[len - n] = '\0';
	l->ts = ts;
	l->end_ts = -1;
	l->cookie = cookie;
	l->track = uuid != NULL;
	l->uuid = uuid ? *uuid : 0;
	l->open = 1;
	p->open_launches++;
}

static void launch_close(struct pf *p, struct pf_launch *l, int64_t ts)
{
	l->open = 0;
	l->end_ts = ts;
	p->open_launches--;
}

/* atrace's "F|tgid|launching: PKG|cookie": the open one of that name and cookie. */
void pf_launch_end(struct pf *p, const char *name, size_t len, int64_t cookie, int64_t ts)
{
	size_t i, n = sizeof LAUNCH_PREFIX - 1;

	if (!pf_is_launch(name, len))
		return;
	for (i = 0; i < p->nlaunches; i++) {
		struct pf_launch *l = &p->launches[i];
		if (l->open && !l->track && l->cookie == cookie && strlen(l->pkg) == len - n &&
		    !memcmp(l->pkg, name + n, len - n)) {
			launch_close(p, l, ts);
			return;
		}
	}
}

/* A track event on uuid: slices there nest inside an open launch, and the
 * end that matches none of them ends it. */
void pf_launch_track(struct pf *p, uint64_t uuid, int kind, int64_t ts)
{
	size_t i;

	for (i = p->nlaunches; i-- > 0 && p->open_launches;) {
		struct pf_launch *l = &p->launches[i];
		if (!l->open || !l->track || l->uuid != uuid)
			continue;
		if (kind == PF_EV_BEGIN)
			l->depth++;
		else if (l->depth)
			l->depth--;
		else
			launch_close(p, l, ts);
		return;   /* the innermost launch of the track */
	}
}

/* A process as people know it: its name, else its main thread's. */
static const char *label(const struct pf *p, int64_t pid)
{
	const char *n = pf_name(p, (struct bt_map64 *)&p->process_name, pid);

	return n ? n : pf_name(p, (struct bt_map64 *)&p->thread_name, pid);
}

struct cand {
	int64_t pid;
	uint32_t slices;
	unsigned marks;
};

static int by_slices(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->slices != y->slices)
		return x->slices > y->slices ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The processes slices begin in, most slices first. */
static struct cand *candidates(const struct pf *p, size_t *n)
{
	struct cand *c = bt_xmalloc((p->begins.len + 1) * sizeof *c);
	size_t i;

	*n = 0;
	for (i = 0; i < p->begins.cap; i++) {
		const struct bt_map64_slot *s = &p->begins.slots[i];
		if (!s->val)
			continue;
		c[*n].pid = (int64_t)s->key;
		c[*n].slices = s->val;
		c[(*n)++].marks = bt_map64_get(&p->marks, s->key);
	}
	qsort(c, *n, sizeof *c, by_slices);
	return c;
}

static void list(const struct pf *p, struct bt_buf *b, const struct cand *c, size_t n, int (*keep)(const struct pf *,
		 const struct cand *))
{
	size_t i, shown = 0;

	for (i = 0; i < n && shown < LISTED; i++) {
		const char *l = label(p, c[i].pid);
		if (keep && !keep(p, &c[i]))
			continue;
		bt_buf_addf(b, "%s%s (pid %lld, %u slices)", shown++ ? ", " : "", l ? l : "?", (long long)c[i].pid,
			    c[i].slices);
	}
}

static int by_process_opt(struct pf *p, const struct cand *c, size_t n, struct bt_err *err)
{
	const char *want = p->o->process;
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		if (bt_process_wanted(want, c[i].pid, label(p, c[i].pid))) {
			p->pid = c[i].pid;   /* several of one name: the one with most slices */
			p->choice = "--process";
			return BT_OK;
		}
	list(p, &b, c, n, NULL);
	bt_err_set(err, BT_EUSAGE, "no process '%s' with slices in '%s'; those with most: %s", want, p->path,
		   n ? b.buf : "none");
	bt_buf_release(&b);
	return err->code;
}

static int launched(const struct pf *p, const struct cand *c)
{
	size_t i;

	for (i = 0; i < p->nlaunches; i++)
		if (bt_process_named(label(p, c->pid), p->launches[i].pkg))
			return 1;
	return 0;
}

static int qualifies(const struct pf *p, const struct cand *c)
{
	return c->marks || launched(p, c);
}

/* The first launch whose target has slices. */
static int by_launch(struct pf *p, const struct cand *c, size_t n)
{
	size_t i, j;

	for (i = 0; i < p->nlaunches; i++)
		for (j = 0; j < n; j++)
			if (bt_process_named(label(p, c[j].pid), p->launches[i].pkg)) {
				p->pid = c[j].pid;
				p->launch = &p->launches[i];
				return 1;
			}
	return 0;
}

/* The strongest mark wins, then most slices (c is in that order). */
static int by_marks(struct pf *p, const struct cand *c, size_t n)
{
	size_t i, k;

	for (k = 0; k < sizeof marks / sizeof marks[0]; k++)
		for (i = 0; i < n; i++)
			if (c[i].marks & marks[k].bit) {
				p->pid = c[i].pid;
				p->choice = marks[k].name;
				return 1;
			}
	return 0;
}

static void tell(struct pf *p, const struct cand *c, size_t n, int all)
{
	struct bt_buf b = BT_BUF_INIT;
	const char *l = label(p, p->pid);
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += all || qualifies(p, &c[i]);
	if (k < 2)
		return;
	list(p, &b, c, n, all ? NULL : qualifies);
	bt_diag_warn(p->diag, "perfetto_app_process", "chose %s (pid %lld) by %s%s of %zu processes: %s; "
		     "--process NAME|PID picks another", l ? l : "?", (long long)p->pid, p->choice,
		     all ? ", no app start found," : "", k, b.buf);
	bt_buf_release(&b);
}

int pf_choose(struct pf *p, struct bt_err *err)
{
	size_t n;
	struct cand *c = candidates(p, &n);
	int rc = BT_OK;

	if (p->o->process && !p->all)
		rc = by_process_opt(p, c, n, err);
	else if (by_launch(p, c, n)) {
		free(p->choice_buf);
		p->choice_buf = bt_xmalloc(strlen(p->launch->pkg) + sizeof LAUNCH_PREFIX);
		strcpy(p->choice_buf, LAUNCH_PREFIX);
		strcat(p->choice_buf, p->launch->pkg);
		p->choice = p->choice_buf;
		tell(p, c, n, 0);
	} else if (by_marks(p, c, n)) {
		tell(p, c, n, 0);
	} else if (n) {
		p->pid = c[0].pid;
		p->choice = "most slices";
		tell(p, c, n, 1);
	}
	free(c);
	return rc;
}

/* The launch as meta: its bounds and the slice that gave them. */
static int launch_meta(struct pf *p, const char *source, int64_t ts, int64_t end_ts, struct bt_err *err)
{
	int rc = bt_db_set_meta_int(p->db, "launch_ts", ts, err);

	if (!rc && end_ts >= 0)
		rc = bt_db_set_meta_int(p->db, "launch_end_ts", end_ts, err);
	return rc ? rc : bt_db_set_meta_text(p->db, "launch_source", source, err);
}

/* Why the process, and the launch system_server saw (its start is a warm
 * or hot start's): its launchingActivity#N where the trace has it (from
 * the intent, as Perfetto and androidx measure), else its launching: PKG. */
void pf_wanted_index(struct pf *p)
{
	size_t i;

	free(p->wanted);
	p->wanted = bt_xcalloc((size_t)2 << PF_TID_BITS >> 6, sizeof *p->wanted);
	for (i = 0; i < p->tgid_of.cap; i++) {
		uint64_t tid = p->tgid_of.slots[i].key;
		uint32_t g = p->tgid_of.slots[i].val;
		if (!g || tid >= (uint64_t)1 << PF_TID_BITS)
			continue;
		p->wanted[(2 * tid) >> 6] |= (uint64_t)1 << ((2 * tid) & 63);   /* known */
		if (p->all || !p->pid || (int64_t)g - 1 == p->pid)
			p->wanted[(2 * tid + 1) >> 6] |= (uint64_t)1 << ((2 * tid + 1) & 63);
	}
}

/* pf_wanted past the bits (or before them). */
int pf_wanted_lookup(const struct pf *p, int64_t tid)
{
	uint32_t g = bt_map64_get(&p->tgid_of, (uint64_t)tid);

	return p->all || !g || !p->pid || (int64_t)g - 1 == p->pid;
}

int pf_choose_meta(struct pf *p, struct bt_err *err)
{
	const struct pf_launch *l = p->launch;
	const struct pf_alaunch *a = NULL;
	char src[sizeof "launchingActivity#" + 24];
	size_t i;
	int rc = BT_OK;

	for (i = 0; !l && p->pid > 0 && i < p->nlaunches; i++)
		if (bt_process_named(label(p, p->pid), p->launches[i].pkg))
			l = &p->launches[i];
	if (p->pid > 0)
		a = pf_alaunch_of(p, label(p, p->pid), l ? l->ts : -1);
	if (p->choice)
		rc = bt_db_set_meta_text(p->db, "process_choice", p->choice, err);
	if (!rc && a) {
		snprintf(src, sizeof src, "launchingActivity#%lld", (long long)a->id);
		rc = launch_meta(p, src, a->ts, a->end_ts, err);
	} else if (!rc && l) {
		struct bt_buf name = BT_BUF_INIT;
		bt_buf_addf(&name, "%s%s", LAUNCH_PREFIX, l->pkg);
		rc = launch_meta(p, name.buf, l->ts, l->end_ts, err);
		bt_buf_release(&name);
	}
	return rc;
}

void pf_choose_release(struct pf *p)
{
	free(p->wanted);
	p->wanted = NULL;
	size_t i;

	for (i = 0; i < p->nlaunches; i++)
		free(p->launches[i].pkg);
	free(p->launches);
	free(p->choice_buf);
	bt_map64_release(&p->marks);
	pf_alaunch_release(p);
}
