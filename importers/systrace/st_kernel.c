/*
 * The kernel's own events in an ftrace line (st_event.c hands them over):
 * the scheduler's switches, wakeups and blocked reasons, task names
 * (task_newtask, task_rename), and the binder driver's transactions. A
 * thread's scheduler events go to its store (st_store.c) for later.
 */
#include <string.h>

#include "importers/systrace/st_int.h"

static int tid_arg(const char *a, size_t n, const char *key, int64_t *tid)
{
	size_t len;
	const char *v = st_arg(a, n, key, NULL, &len);

	return v && st_int(v, len, tid) && *tid >= 0 && *tid <= INT32_MAX;
}

/* The text at a[*i, n) is key: skip it. */
static int expect(const char *a, size_t n, size_t *i, const char *key, size_t k)
{
	if (*i + k > n || memcmp(a + *i, key, k))
		return 0;
	*i += k;
	return 1;
}

/* A value up to the next space (or up to stop, which a comm may not
 * hold: " prev_pid="), from a[*i]. */
static const char *value(const char *a, size_t n, size_t *i, const char *stop, size_t k, size_t *len)
{
	size_t b = *i, j;

	if (!stop) {
		for (j = b; j < n && a[j] != ' '; j++)
			;
	} else {
		for (j = b; j + k <= n && (a[j] != ' ' || memcmp(a + j, stop, k)); j++)
			;
		if (j + k > n)
			return NULL;
	}
	*len = j - b;
	*i = j;
	return a + b;
}

/* sched_switch as the kernel prints it ("prev_comm=%s prev_pid=%d
 * prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d
 * next_prio=%d"), read in one pass; 0 if it is not that (then each field
 * is looked for on its own). */
static int switch_fast(const char *a, size_t n, const char **pc, size_t *pcl, int64_t *prev, const char **st,
		       size_t *stl, const char **nc, size_t *ncl, int64_t *next)
{
	size_t i = 0, len;
	const char *v;

	if (!expect(a, n, &i, "prev_comm=", 10) || !(*pc = value(a, n, &i, " prev_pid=", 10, pcl)) ||
	    !expect(a, n, &i, " prev_pid=", 10) || !(v = value(a, n, &i, NULL, 0, &len)) || !st_int(v, len, prev) ||
	    !expect(a, n, &i, " prev_prio=", 11) || !value(a, n, &i, NULL, 0, &len) ||
	    !expect(a, n, &i, " prev_state=", 12) || !(*st = value(a, n, &i, NULL, 0, stl)) ||
	    !expect(a, n, &i, " ==> next_comm=", 15) || !(*nc = value(a, n, &i, " next_pid=", 10, ncl)) ||
	    !expect(a, n, &i, " next_pid=", 10) || !(v = value(a, n, &i, NULL, 0, &len)) || !st_int(v, len, next))
		return 0;
	return *prev >= 0 && *prev <= INT32_MAX && *next >= 0 && *next <= INT32_MAX;
}

int st_sched_switch(struct st *s, const struct st_line *l, struct bt_err *err)
{
	const char *a = l->args, *pc, *nc, *st;
	size_t n = l->args_len, pcl, ncl, stl;
	int64_t prev, next;
	int state;

	if (!switch_fast(a, n, &pc, &pcl, &prev, &st, &stl, &nc, &ncl, &next)) {
		pc = st_arg(a, n, "prev_comm=", " prev_pid=", &pcl);
		nc = st_arg(a, n, "next_comm=", " next_pid=", &ncl);
		st = st_arg(a, n, "prev_state=", NULL, &stl);
		if (!pc || !nc || !st || !tid_arg(a, n, "prev_pid=", &prev) || !tid_arg(a, n, "next_pid=", &next))
			st = NULL;
	}
	if (!st || (state = bt_state_of_letter(st, stl)) < 0) {
		s->sched_bad++;
		return BT_OK;
	}
	s->switches++;
	st_thread_name(s, prev, pc, pcl);
	st_thread_name(s, next, nc, ncl);
	if (prev && st_add(s, prev, l->ts, ST_EV_STOP, (uint32_t)l->cpu, (unsigned)state, err))
		return err->code;
	return next ? st_add(s, next, l->ts, ST_EV_RUN, (uint32_t)l->cpu, 0, err) : BT_OK;
}

int st_sched_wakeup(struct st *s, const struct st_line *l, int kind, struct bt_err *err)
{
	const char *a = l->args, *c, *ok, *v;
	size_t n = l->args_len, cl, okl, i = 0, len;
	int64_t tid = -1;

	/* "comm=%s pid=%d prio=%d [success=%d] target_cpu=%03d" */
	if (!expect(a, n, &i, "comm=", 5) || !(c = value(a, n, &i, " pid=", 5, &cl)) || !expect(a, n, &i, " pid=", 5) ||
	    !(v = value(a, n, &i, NULL, 0, &len)) || !st_int(v, len, &tid) || tid < 0 || tid > INT32_MAX) {
		c = st_arg(a, n, "comm=", " pid=", &cl);
		if (!c || !tid_arg(a, n, "pid=", &tid)) {
			s->sched_bad++;
			return BT_OK;
		}
	}
	st_thread_name(s, tid, c, cl);
	ok = st_arg(a + i, n - i, "success=", NULL, &okl);
	if ((ok && okl == 1 && ok[0] == '0') || !tid)
		return BT_OK;   /* it was awake already */
	if (kind == ST_EV_WAKING)
		s->wakings++;
	else
		s->wakeups++;
	return st_add(s, tid, l->ts, kind, (uint32_t)l->pid, 0, err);
}

int st_blocked_reason(struct st *s, const struct st_line *l, struct bt_err *err)
{
	const char *a = l->args, *io, *caller;
	size_t n = l->args_len, iol, cl;
	int64_t tid;

	io = st_arg(a, n, "iowait=", NULL, &iol);
	caller = st_arg(a, n, "caller=", NULL, &cl);
	if (!tid_arg(a, n, "pid=", &tid) || !io || !iol || !tid) {
		s->sched_bad++;
		return BT_OK;
	}
	return st_add(s, tid, l->ts, ST_EV_BLOCKED, caller && cl ? st_str(s, caller, cl) : 0, io[0] != '0', err);
}

/* task_newtask: "pid=N comm=NAME clone_flags=..."; task_rename: "pid=N
 * oldcomm=OLD newcomm=NEW oom_score_adj=...". */
void st_task_name(struct st *s, const struct st_line *l, const char *key, const char *stop)
{
	const char *c;
	size_t cl;
	int64_t tid;

	if (tid_arg(l->args, l->args_len, "pid=", &tid) && (c = st_arg(l->args, l->args_len, key, stop, &cl)))
		st_thread_name(s, tid, c, cl);
}

/* Binder: "transaction=%d dest_node=%d dest_proc=%d dest_thread=%d
 * reply=%d flags=0x%x code=0x%x" and "transaction=%d" (received), as the
 * kernel prints them; kept with --process all only. */

static int hex_arg(const char *a, size_t n, const char *key, int64_t *out)
{
	size_t len, i;
	const char *v = st_arg(a, n, key, NULL, &len);
	uint64_t x = 0;

	if (!v || len < 3 || len > 18 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
		return 0;
	for (i = 2; i < len; i++) {
		int d = v[i] >= '0' && v[i] <= '9' ? v[i] - '0' : v[i] >= 'a' && v[i] <= 'f' ? v[i] - 'a' + 10
			: v[i] >= 'A' && v[i] <= 'F' ? v[i] - 'A' + 10 : -1;
		if (d < 0)
			return 0;
		x = x << 4 | (uint64_t)d;
	}
	*out = (int64_t)(x & INT64_MAX);
	return 1;
}

int st_binder_event(struct st *s, const struct st_line *l, int received)
{
	struct bt_bevent e = { 0 };
	int64_t id, thread = 0, reply = 0, flags = 0;
	size_t len;
	const char *v;

	if (!s->all) {
		s->other_events++;   /* not imported: no other process to serve or call */
		return BT_OK;
	}
	if (!(v = st_arg(l->args, l->args_len, "transaction=", NULL, &len)) || !st_int(v, len, &id) ||
	    id < INT32_MIN || id > INT32_MAX || l->pid <= 0 ||
	    (!received && (!tid_arg(l->args, l->args_len, "dest_thread=", &thread) ||
			   !(v = st_arg(l->args, l->args_len, "reply=", NULL, &len)) || !st_int(v, len, &reply) ||
			   !hex_arg(l->args, l->args_len, "flags=", &flags)))) {
		s->binder_bad++;
		return BT_OK;
	}
	e.ts = l->ts;
	e.tid = l->pid;
	e.debug_id = (int32_t)id;
	e.received = received;
	e.to_thread = (int32_t)thread;
	e.reply = reply != 0;
	e.oneway = (flags & 1) != 0;   /* TF_ONE_WAY */
	bt_bevents_add(&s->binder, &e);
	return BT_OK;
}
