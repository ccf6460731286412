/*
 * The scheduler's events of ftrace bundles (sched_switch, sched_waking,
 * sched_wakeup(_new), sched_blocked_reason, sched_process_free, full or
 * compact) spilled per thread as importers/sched.h's events, which
 * pf_pair.c replays with the thread's slices into states, CPU times and
 * kernel wakers. Compact sched leaves out what the CPU's previous switch
 * says: the task switched out is the one last switched in on that CPU,
 * and a waking's waker is the task running on it then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/recon/pipeline.h"
#include "importers/perfetto/pf_int.h"

#define MAX_CPUS 4096   /* a bundle's cpu past it is no CPU */

/* A thread's first switch in time: when its running time starts to be known. */
struct first {
	int64_t ts;
	uint32_t cpu;
	int out;   /* it was switched out (so it ran before) */
};

/* A blocked function: the kernel's address, or a symbol the trace names. */
struct caller {
	uint64_t addr;
	uint32_t sym;   /* index + 1 into ksyms, 0: an address */
};

struct pf_sched {
	int64_t cpu_first[MAX_CPUS];   /* ts of a CPU's first event, -1 none */
	int32_t cpu_task[MAX_CPUS];    /* the task last switched in on a CPU, -1 unknown */
	struct first *firsts;
	size_t nfirsts, fcap;
	struct bt_map64 first_of;      /* tid -> index + 1 into firsts */
	struct caller *callers;        /* blocked functions, by id - 1 */
	size_t ncallers, ccap;
	struct bt_map64 caller_of;     /* address -> id */
	struct bt_map64 ksym_caller;   /* ksyms' index + 1 -> id */
	char **ksyms;                  /* kernel symbols' names (InternedData.kernel_symbols) */
	size_t nksyms, kcap;
	struct bt_map64 ksym_of;       /* (sequence << 32 | iid) -> index + 1 into ksyms */
	char name[24];                 /* the last caller's name */
	uint64_t bad;                  /* events without the fields they need */
};

void pf_sched_init(struct pf *p)
{
	struct pf_sched *s = bt_xcalloc(1, sizeof *s);

	memset(s->cpu_first, 0xff, sizeof s->cpu_first);
	memset(s->cpu_task, 0xff, sizeof s->cpu_task);
	bt_map64_init(&s->first_of, 64);
	bt_map64_init(&s->caller_of, 16);
	bt_map64_init(&s->ksym_caller, 16);
	bt_map64_init(&s->ksym_of, 16);
	p->sched = s;
}

void pf_sched_release(struct pf_sched *s)
{
	size_t i;

	if (!s)
		return;
	free(s->firsts);
	bt_map64_release(&s->first_of);
	free(s->callers);
	bt_map64_release(&s->caller_of);
	bt_map64_release(&s->ksym_caller);
	for (i = 0; i < s->nksyms; i++)
		free(s->ksyms[i]);
	free(s->ksyms);
	bt_map64_release(&s->ksym_of);
	free(s);
}

static void cpu_seen(struct pf_sched *s, uint32_t cpu, int64_t ts)
{
	if (cpu < MAX_CPUS && (s->cpu_first[cpu] < 0 || ts < s->cpu_first[cpu]))
		s->cpu_first[cpu] = ts;
}

/* A switch of tid at ts: its first, if earliest (bundles come per CPU,
 * so the file's order is not time's). */
static void switch_seen(struct pf_sched *s, int64_t tid, int64_t ts, uint32_t cpu, int out)
{
	uint32_t i = bt_map64_get(&s->first_of, (uint64_t)tid);
	struct first *f;

	if (!i) {
		BT_GROW(s->firsts, s->nfirsts + 1, s->fcap);
		s->firsts[s->nfirsts].ts = INT64_MAX;
		bt_map64_put(&s->first_of, (uint64_t)tid, (uint32_t)++s->nfirsts);
		i = (uint32_t)s->nfirsts;
	}
	f = &s->firsts[i - 1];
	if (ts < f->ts) {
		f->ts = ts;
		f->cpu = cpu;
		f->out = out;
	}
}

/* One event of thread tid (0, the idle task, has none); another
 * process's is read only for what it says of the app's (a waker, the task
 * a CPU switched from). */
static int emit(struct pf *p, int64_t tid, int64_t ts, int kind, uint32_t a, uint32_t b, struct bt_err *err)
{
	struct pf_event e;

	if (ts > p->sched_end)
		p->sched_end = ts;
	if (tid <= 0 || !pf_wanted(p, tid))
		return BT_OK;
	memset(&e, 0, sizeof e);
	e.seq = ++p->seq;
	e.k = tid;
	e.ts = ts;
	e.kind = PF_EV_SCHED + kind;
	e.src = (int)b;
	e.frame = a;
	return pf_spill_event(p, &e, err);
}

/* A switch from prev (state: its prev_state's bits) to next; only the
 * app's threads' ends are spilled. */
static int switch_event(struct pf *p, uint32_t cpu, int64_t ts, int64_t prev, int64_t state, int has_state,
			int64_t next, struct bt_err *err)
{
	struct pf_sched *s = p->sched;
	int want_prev = prev > 0 && pf_wanted(p, prev), want_next = next > 0 && pf_wanted(p, next);

	p->sched_switches++;
	cpu_seen(s, cpu, ts);
	if (cpu < MAX_CPUS)
		s->cpu_task[cpu] = (int32_t)next;
	if (ts > p->sched_end)
		p->sched_end = ts;
	if (want_prev) {
		int st = has_state ? bt_state_of_bits(state) : -1;
		switch_seen(s, prev, ts, cpu, 1);   /* what pf_sched_known is asked of */
		if (emit(p, prev, ts, BT_SCHED_STOP, cpu, st < 0 ? BT_STATE_UNKNOWN : (uint32_t)st, err))
			return err->code;
	}
	if (!want_next)
		return BT_OK;
	switch_seen(s, next, ts, cpu, 0);
	return emit(p, next, ts, BT_SCHED_RUN, cpu, 0, err);
}

void pf_sched_ksyms(struct pf_sched *s, uint32_t seq, const Perfetto__Protos__InternedData *d)
{
	size_t i;

	for (i = 0; i < d->n_kernel_symbols; i++) {
		const Perfetto__Protos__InternedString *k = d->kernel_symbols[i];
		uint64_t key;
		if (!k->has_iid || !k->iid || k->iid > UINT32_MAX || !k->has_str || !k->str.len ||
		    memchr(k->str.data, '\0', k->str.len))
			continue;
		key = (uint64_t)seq << 32 | k->iid;
		if (bt_map64_get(&s->ksym_of, key))
			continue;   /* an iid names one symbol for the whole session */
		BT_GROW(s->ksyms, s->nksyms + 1, s->kcap);
		s->ksyms[s->nksyms] = bt_xstrndup((const char *)k->str.data, k->str.len);
		bt_map64_put(&s->ksym_of, key, (uint32_t)++s->nksyms);
	}
}

/* A blocked function's id: with symbolize_ksyms the caller is an iid of
 * the bundle's sequence's kernel symbols (Perfetto reads its low 32
 * bits), else the kernel's address. */
static uint32_t caller_id(struct pf_sched *s, uint32_t seq, uint64_t caller)
{
	uint32_t k = caller && caller <= UINT32_MAX ? bt_map64_get(&s->ksym_of, (uint64_t)seq << 32 | caller) : 0;
	struct bt_map64 *m = k ? &s->ksym_caller : &s->caller_of;
	uint64_t key = k ? k : caller;
	uint32_t id = bt_map64_get(m, key);

	if (id || !caller)
		return id;
	BT_GROW(s->callers, s->ncallers + 1, s->ccap);
	s->callers[s->ncallers].addr = caller;
	s->callers[s->ncallers++].sym = k;
	bt_map64_put(m, key, (uint32_t)s->ncallers);
	return (uint32_t)s->ncallers;
}

const char *pf_sched_caller(void *ctx, uint32_t id)
{
	struct pf_sched *s = ctx;
	const struct caller *c;

	if (!id || id > s->ncallers)
		return NULL;
	c = &s->callers[id - 1];
	if (c->sym)
		return s->ksyms[c->sym - 1];
	snprintf(s->name, sizeof s->name, "0x%llx", (unsigned long long)c->addr);
	return s->name;
}

static int tid_ok(int has, int32_t tid)
{
	return has && tid >= 0;
}

/* One full event of the bundle (CPU cpu). */
static int full(struct pf *p, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e, struct bt_err *err)
{
	struct pf_sched *s = p->sched;
	int64_t ts;

	if (!e->sched_switch && !e->sched_waking && !e->sched_wakeup && !e->sched_wakeup_new &&
	    !e->sched_blocked_reason && !e->sched_process_free)
		return BT_OK;
	if (!e->has_timestamp || e->timestamp >= (uint64_t)BT_MAX_TIME_NS) {
		s->bad++;
		return BT_OK;
	}
	ts = (int64_t)e->timestamp;
	if (e->sched_switch) {
		const Perfetto__Protos__SchedSwitchFtraceEvent *w = e->sched_switch;
		if (!tid_ok(w->has_prev_pid, w->prev_pid) || !tid_ok(w->has_next_pid, w->next_pid)) {
			s->bad++;
			return BT_OK;
		}
		return switch_event(p, cpu, ts, w->prev_pid, w->prev_state, w->has_prev_state, w->next_pid, err);
	}
	cpu_seen(s, cpu, ts);
	if (e->sched_waking || e->sched_wakeup || e->sched_wakeup_new) {
		const Perfetto__Protos__SchedWakeupFtraceEvent *w =
			e->sched_waking ? e->sched_waking : e->sched_wakeup ? e->sched_wakeup : e->sched_wakeup_new;
		if (!tid_ok(w->has_pid, w->pid)) {
			s->bad++;
			return BT_OK;
		}
		p->sched_wakings += e->sched_waking != NULL;
		return emit(p, w->pid, ts, e->sched_waking ? BT_SCHED_WAKING : BT_SCHED_WAKEUP,
			    e->has_pid ? e->pid : 0, 0, err);
	}
	if (e->sched_blocked_reason) {
		const Perfetto__Protos__SchedBlockedReasonFtraceEvent *w = e->sched_blocked_reason;
		if (!tid_ok(w->has_pid, w->pid)) {
			s->bad++;
			return BT_OK;
		}
		return emit(p, w->pid, ts, BT_SCHED_BLOCKED, w->has_caller ? caller_id(s, p->sched_seq, w->caller) : 0,
			    w->has_io_wait && w->io_wait, err);
	}
	if (!tid_ok(e->sched_process_free->has_pid, e->sched_process_free->pid)) {
		s->bad++;
		return BT_OK;
	}
	return emit(p, e->sched_process_free->pid, ts, BT_SCHED_DEAD, 0, 0, err);
}

/* The next time of a compact column: t plus the delta dt (the first is
 * absolute, t 0); 0 when past the bound. */
static int step(uint64_t *t, uint64_t dt)
{
	if (dt >= (uint64_t)BT_MAX_TIME_NS - *t)
		return 0;
	*t += dt;
	return 1;
}

/* Compact sched: the switches and wakings of one CPU, each column in time
 * order; a waking's waker is what ran on the CPU then, so both are walked
 * together (a switch first at the same time, as Perfetto sorts them). */
static int compact(struct pf *p, uint32_t cpu, const Perfetto__Protos__CompactSched *c, struct bt_err *err)
{
	struct pf_sched *s = p->sched;
	size_t ns = c->n_switch_timestamp, nw = c->n_waking_timestamp, i = 0, j = 0;
	uint64_t ts_s = 0, ts_w = 0;
	int more_s, more_w;

	if (c->n_switch_next_pid < ns || c->n_switch_prev_state < ns) {
		s->bad += ns;
		ns = 0;
	}
	if (c->n_waking_pid < nw) {
		s->bad += nw;
		nw = 0;
	}
	more_s = ns && step(&ts_s, c->switch_timestamp[0]);
	more_w = nw && step(&ts_w, c->waking_timestamp[0]);
	while (more_s || more_w) {
		if (more_s && (!more_w || ts_s <= ts_w)) {
			int64_t prev = cpu < MAX_CPUS ? s->cpu_task[cpu] : -1;
			if (switch_event(p, cpu, (int64_t)ts_s, prev, c->switch_prev_state[i], 1,
					 c->switch_next_pid[i] >= 0 ? c->switch_next_pid[i] : 0, err))
				return err->code;
			more_s = ++i < ns && step(&ts_s, c->switch_timestamp[i]);
		} else {
			int64_t waker = cpu < MAX_CPUS && s->cpu_task[cpu] > 0 ? s->cpu_task[cpu] : 0;
			cpu_seen(s, cpu, (int64_t)ts_w);
			p->sched_wakings++;
			if (c->waking_pid[j] >= 0 &&
			    emit(p, c->waking_pid[j], (int64_t)ts_w, BT_SCHED_WAKING, (uint32_t)waker, 0, err))
				return err->code;
			more_w = ++j < nw && step(&ts_w, c->waking_timestamp[j]);
		}
	}
	s->bad += (ns - i) + (nw - j);   /* past the time bound */
	return BT_OK;
}

int pf_sched_bundle(struct pf *p, const Perfetto__Protos__FtraceEventBundle *b, struct bt_err *err)
{
	uint32_t cpu = b->has_cpu && b->cpu < MAX_CPUS ? b->cpu : MAX_CPUS;
	size_t i;

	if (b->compact_sched && compact(p, cpu, b->compact_sched, err))
		return err->code;
	for (i = 0; i < b->n_event; i++)
		if (full(p, cpu, b->event[i], err))
			return err->code;
	return BT_OK;
}

void pf_sched_known(const struct pf_sched *s, int64_t tid, int64_t *known, int *running)
{
	uint32_t i = s ? bt_map64_get(&s->first_of, (uint64_t)tid) : 0;
	const struct first *f;

	*known = INT64_MAX;
	*running = 0;
	if (!i)
		return;
	f = &s->firsts[i - 1];
	*known = f->ts;
	*running = f->out;
	if (f->out && f->cpu < MAX_CPUS && s->cpu_first[f->cpu] >= 0)
		*known = s->cpu_first[f->cpu];   /* it ran there since the CPU's first event */
}

uint64_t pf_sched_bad(const struct pf_sched *s)
{
	return s ? s->bad : 0;
}
