/*
 * Threads of a Perfetto trace: their names and processes from every place
 * a trace puts them (a thread's own track descriptor, the process tree,
 * the kernel's comm in task_newtask, task_rename, sched_switch,
 * sched_waking/wakeup, compact sched and process exit/free), processes'
 * names also from their surfaces' frame timeline, and ART's names of
 * monitor owners resolved to the thread they name.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/rows.h"
#include "importers/perfetto/pf_int.h"

#define CLONE_THREAD 0x10000   /* <linux/sched.h>: the new task joins its creator's process */
#define COMM_LEN 15            /* the kernel keeps a thread's name to 15 bytes (TASK_COMM_LEN - 1) */
#define AMBIGUOUS UINT32_MAX   /* by_name: several threads of that name */
#define SURFACE "TX - "        /* an app's surface in SurfaceFlinger's frame timeline */

void pf_threads_init(struct pf *p)
{
	bt_map64_init(&p->name_of, 256);
	bt_strmap_init(&p->by_name);
	bt_map64_init(&p->layer_name, 16);
}

void pf_threads_release(struct pf *p)
{
	bt_map64_release(&p->name_of);
	bt_strmap_release(&p->by_name);
	bt_map64_release(&p->layer_name);
	free(p->tnames);
	free(p->name_seen);
}

/* Whether a name of kind at ts replaces what the thread has: a weaker kind
 * never does; of one kind the later does, by time where both have one
 * (ftrace bundles are per CPU: the file's order is not time's), else by
 * the file's order (a task_rename, a thread renaming itself). */
static int newer(const struct pf_tname *had, int kind, int64_t ts)
{
	if (had->kind != kind)
		return kind > had->kind;
	return ts < 0 || had->ts < 0 || ts >= had->ts;
}

static void set_name(struct pf *p, int64_t tid, const char *name, size_t len)
{
	uint32_t at = bt_map64_get(&p->thread_name, (uint64_t)tid);
	char *c;

	if (at && !strncmp(p->names[at - 1], name, len) && !p->names[at - 1][len])
		return;
	c = bt_xmalloc(len + 1);   /* replaced in place: a million sched_switch events keep one per thread */
	memcpy(c, name, len);
	c[len] = '\0';
	if (at) {
		free(p->names[at - 1]);
		p->names[at - 1] = c;
		return;
	}
	BT_GROW(p->names, p->nnames + 1, p->ncap);
	p->names[p->nnames++] = c;
	bt_map64_put(&p->thread_name, (uint64_t)tid, (uint32_t)p->nnames);
}

void pf_thread_name(struct pf *p, int64_t tid, const char *name, size_t len, int kind, int64_t ts)
{
	uint32_t i;
	struct pf_tname *t;

	if (tid <= 0 || !name)
		return;
	while (len && (name[len - 1] == '\n' || name[len - 1] == '\r'))
		len--;   /* comm's trailing newline */
	if (!len || memchr(name, '\0', len))
		return;
	i = bt_map64_get(&p->name_of, (uint64_t)tid);
	if (!i) {
		BT_GROW(p->tnames, p->ntnames + 1, p->tncap);
		i = (uint32_t)++p->ntnames;
		bt_map64_put(&p->name_of, (uint64_t)tid, i);
		p->tnames[i - 1].kind = 0;
	} else if (!newer(&p->tnames[i - 1], kind, ts)) {
		return;
	}
	t = &p->tnames[i - 1];
	t->kind = kind;
	t->ts = ts;
	set_name(p, tid, name, len);
	p->named_threads = 1;
}

void pf_thread_group(struct pf *p, int64_t tid, int64_t tgid)
{
	if (tid > 0 && tgid > 0 && tgid < INT32_MAX)
		bt_map64_put(&p->tgid_of, (uint64_t)tid, (uint32_t)tgid + 1);
}

static void comm(struct pf *p, int has, int32_t tid, const char *name, int64_t ts)
{
	if (has && name)
		pf_thread_name(p, tid, name, strlen(name), PF_NAME_KERNEL, ts);
}

/* A new task: its comm, and its process (a thread of its creator's, or a
 * process of its own). */
static void newtask(struct pf *p, int64_t creator, const Perfetto__Protos__TaskNewtaskFtraceEvent *t, int64_t ts)
{
	uint32_t g;

	if (!t->has_pid || t->pid <= 0)
		return;
	comm(p, 1, t->pid, t->comm, ts);
	if (!t->has_clone_flags)
		return;
	if (!(t->clone_flags & CLONE_THREAD))
		pf_thread_group(p, t->pid, t->pid);
	else if ((g = bt_map64_get(&p->tgid_of, (uint64_t)creator)))
		pf_thread_group(p, t->pid, (int64_t)g - 1);
}

void pf_threads_ftrace(struct pf *p, const Perfetto__Protos__FtraceEvent *e)
{
	int64_t ts = e->has_timestamp && e->timestamp < (uint64_t)BT_MAX_TIME_NS ? (int64_t)e->timestamp : -1;

	if (e->sched_switch) {
		const Perfetto__Protos__SchedSwitchFtraceEvent *s = e->sched_switch;
		comm(p, s->has_prev_pid, s->prev_pid, s->prev_comm, ts);
		comm(p, s->has_next_pid, s->next_pid, s->next_comm, ts);
	}
	if (e->sched_wakeup)
		comm(p, e->sched_wakeup->has_pid, e->sched_wakeup->pid, e->sched_wakeup->comm, ts);
	if (e->sched_waking)
		comm(p, e->sched_waking->has_pid, e->sched_waking->pid, e->sched_waking->comm, ts);
	if (e->task_newtask)
		newtask(p, e->has_pid ? e->pid : 0, e->task_newtask, ts);
	if (e->task_rename)
		comm(p, e->task_rename->has_pid, e->task_rename->pid, e->task_rename->newcomm, ts);
	if (e->sched_process_exit) {
		const Perfetto__Protos__SchedProcessExitFtraceEvent *x = e->sched_process_exit;
		comm(p, x->has_pid, x->pid, x->comm, ts);
		if (x->has_pid && x->has_tgid)
			pf_thread_group(p, x->pid, x->tgid);
	}
	if (e->sched_process_free)
		comm(p, e->sched_process_free->has_pid, e->sched_process_free->pid, e->sched_process_free->comm, ts);
}

#define SEEN_TIDS ((int64_t)1 << 22)   /* Linux's pid_max at most; others are never skipped */

/* Compact sched's events: times as deltas (the first absolute), comms as
 * indexes into the bundle's table. Times are known while the columns have
 * them and their sum stays below pipeline.h's bound. Of one column only
 * each thread's last name counts (its times only grow, so each name
 * replaces the one before), and a bundle holds thousands of events of a
 * few hundred threads: last[i] marks those, found from the end with the
 * bits of seen (cleared again after). */
static void column(struct pf_comms *out, uint64_t *seen, const uint64_t *dt, size_t ndt, const int32_t *pid,
		   size_t npid, const uint32_t *idx, size_t nidx, const Perfetto__Protos__CompactSched *c)
{
	size_t i, n = npid < nidx ? npid : nidx;
	uint64_t t = 0;
	uint8_t *last;

	if (!n)
		return;
	last = pf_arena_alloc(out->arena, n);
	for (i = n; i-- > 0;) {
		uint64_t tid = (uint32_t)pid[i], bit = (uint64_t)1 << (tid & 63);
		last[i] = tid >= (uint64_t)SEEN_TIDS || !(seen[tid >> 6] & bit);
		if (tid < (uint64_t)SEEN_TIDS)
			seen[tid >> 6] |= bit;
	}
	for (i = 0; i < n; i++) {
		uint64_t tid = (uint32_t)pid[i];
		if (tid < (uint64_t)SEEN_TIDS)
			seen[tid >> 6] = 0;
		if (i < ndt && t < (uint64_t)BT_MAX_TIME_NS && dt[i] < (uint64_t)BT_MAX_TIME_NS - t)
			t += dt[i];
		else
			t = (uint64_t)BT_MAX_TIME_NS;
		if (last[i] && idx[i] < c->n_intern_table && c->intern_table[idx[i]]) {
			struct pf_comm *m = &out->v[out->n++];
			m->tid = pid[i];
			m->ts = t < (uint64_t)BT_MAX_TIME_NS ? (int64_t)t : -1;
			m->name = c->intern_table[idx[i]];
			m->len = strlen(m->name);
		}
	}
}

uint64_t *pf_comms_seen(void)
{
	return bt_xcalloc((size_t)(SEEN_TIDS >> 6), sizeof(uint64_t));
}

void pf_comms_find(struct pf_comms *out, uint64_t *seen, const Perfetto__Protos__CompactSched *c)
{
	size_t ns = c->n_switch_next_pid < c->n_switch_next_comm_index ? c->n_switch_next_pid : c->n_switch_next_comm_index;
	size_t nw = c->n_waking_pid < c->n_waking_comm_index ? c->n_waking_pid : c->n_waking_comm_index;

	out->n = 0;
	out->v = ns + nw ? pf_arena_alloc(out->arena, (ns + nw) * sizeof *out->v) : NULL;
	column(out, seen, c->switch_timestamp, c->n_switch_timestamp, c->switch_next_pid, c->n_switch_next_pid,
	       c->switch_next_comm_index, c->n_switch_next_comm_index, c);
	column(out, seen, c->waking_timestamp, c->n_waking_timestamp, c->waking_pid, c->n_waking_pid,
	       c->waking_comm_index, c->n_waking_comm_index, c);
}

void pf_comms_apply(struct pf *p, const struct pf_comms *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		pf_thread_name(p, m->v[i].tid, m->v[i].name, m->v[i].len, PF_NAME_KERNEL, m->v[i].ts);
}

void pf_threads_compact(struct pf *p, const Perfetto__Protos__CompactSched *c)
{
	struct pf_comms m = { &p->arena, NULL, 0 };

	if (!p->name_seen)
		p->name_seen = pf_comms_seen();
	pf_comms_find(&m, p->name_seen, c);
	pf_comms_apply(p, &m);
}

/* "TX - PKG/ACTIVITY#N", an app's surface: the length of PKG, a Java
 * package name (two or more dotted words); 0 for other layers. */
static size_t package(const char *layer)
{
	const char *s = layer + sizeof SURFACE - 1, *c;
	int dots = 0, word = 0;

	if (strncmp(layer, SURFACE, sizeof SURFACE - 1))
		return 0;
	for (c = s; *c && *c != '/'; c++) {
		if (*c == '.' && word) {
			dots++;
			word = 0;
		} else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' ||
			   (word && *c >= '0' && *c <= '9')) {
			word = 1;
		} else {
			return 0;
		}
	}
	return *c == '/' && dots && word ? (size_t)(c - s) : 0;
}

static void surface(struct pf *p, const Perfetto__Protos__FrameTimelineEvent__SurfaceFrameStart *f)
{
	size_t n;

	if (!f || !f->has_pid || f->pid <= 0 || !f->layer_name || pf_name(p, &p->layer_name, f->pid))
		return;
	if ((n = package(f->layer_name)))
		pf_name_put(p, &p->layer_name, f->pid, f->layer_name + sizeof SURFACE - 1, n);
}

void pf_threads_frame(struct pf *p, const Perfetto__Protos__FrameTimelineEvent *e)
{
	surface(p, e->expected_surface_frame_start);
	surface(p, e->actual_surface_frame_start);
}

void pf_threads_done(struct pf *p)
{
	size_t i;

	for (i = 0; i < p->layer_name.cap; i++) {
		const struct bt_map64_slot *s = &p->layer_name.slots[i];
		if (s->val && !pf_name(p, &p->process_name, (int64_t)s->key))
			bt_map64_put(&p->process_name, s->key, s->val);
	}
}

/* "pid|name" keys of by_name. */
static void key(struct bt_buf *b, int64_t pid, const char *name, size_t len)
{
	bt_buf_reset(b);
	bt_buf_addf(b, "%lld|%.*s", (long long)pid, (int)len, name);
}

static void index_put(struct pf *p, struct bt_buf *b, int64_t pid, const char *name, int64_t tid)
{
	uint32_t had;

	key(b, pid, name, strlen(name));
	had = bt_strmap_get(&p->by_name, b->buf, b->len);
	if (!had)
		bt_strmap_put(&p->by_name, b->buf, b->len, (uint32_t)tid);
	else if (had != (uint32_t)tid)
		bt_strmap_put(&p->by_name, b->buf, b->len, AMBIGUOUS);
}

/* Threads by process and name, made when the first owner is looked up:
 * the names are final by then (pairing runs after the read). */
static void index_threads(struct pf *p)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t i;

	for (i = 0; i < p->thread_name.cap; i++) {
		const struct bt_map64_slot *s = &p->thread_name.slots[i];
		uint32_t g = s->val ? bt_map64_get(&p->tgid_of, s->key) : 0;
		if (g && s->key < AMBIGUOUS)
			index_put(p, &b, (int64_t)g - 1, p->names[s->val - 1], (int64_t)s->key);
	}
	bt_buf_release(&b);
	p->indexed = 1;
}

static uint32_t lookup(struct pf *p, struct bt_buf *b, int64_t pid, const char *name, size_t len)
{
	key(b, pid, name, len);
	return bt_strmap_get(&p->by_name, b->buf, b->len);
}

/*
 * ART's name of a thread is its java.lang.Thread name; the kernel keeps 15
 * bytes of it, the last 15 when the name is longer, has a '.' and no '@'
 * (ART's SetThreadName: "com.example.app" style names keep their end),
 * else the first 15. A trace may hold either.
 */
int64_t pf_threads_find(struct pf *p, int64_t pid, const char *name, size_t len)
{
	struct bt_buf b = BT_BUF_INIT;
	uint32_t t;

	if (!p->indexed)
		index_threads(p);
	t = lookup(p, &b, pid, name, len);
	if (!t && len > COMM_LEN) {
		int tail = memchr(name, '.', len) && !memchr(name, '@', len);
		t = lookup(p, &b, pid, tail ? name + len - COMM_LEN : name, COMM_LEN);
	}
	bt_buf_release(&b);
	return t == AMBIGUOUS ? -1 : (int64_t)t;
}

int pf_threads_report(struct pf *p, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int64_t n = 0;
	int rc;

	if (bt_rows_open(&r, p->db, BT_SQL_SCRATCH_PF_MONITOR_UNKNOWN, err))
		return err->code;
	if ((rc = bt_rows_next(r, err)) == 1)
		n = bt_rows_int(r, 0);
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	if (n > 0)
		bt_diag_count(p->diag, "perfetto_monitor_owner_unknown", (uint64_t)n,
			      "monitor waits in '%s' have no known owner: ART names it NAME (N), N being ART's thread id, not the kernel's, and no single thread of the waiter's process has that name", p->path);
	return BT_OK;
}
