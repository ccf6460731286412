/*
 * Binder calls followed across the processes of one capture (binder.h).
 *
 * A dump's binder record (type 2) says a thread waited in a binder call,
 * not who served it. The server is a binder thread of another process
 * of the capture running a transaction (its stack under
 * Binder.execTransact) inside the wait: of those, the thread sampled most
 * in it, the earliest on a tie. What the server ran is its most sampled
 * stack there; it is blocked if its own blocking records fall inside.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/base/search.h"
#include "engine/db/rows.h"
#include "engine/db/rtype.h"
#include "engine/recon/binder.h"

/* A server thread's records under a transaction, by time. */
struct served {
	int64_t tid, pid;
	struct rec { int64_t ts; size_t i; } *v;
	size_t n, cap;
	size_t *blk;   /* its blocking records (capture positions), in file order */
	size_t nblk, bcap;
};

struct servers {
	struct served *t;
	size_t n, cap;
	struct bt_map64 by_tid;   /* tid -> 1 + index */
	int64_t period;           /* the sampling interval of a running server thread, or 0: unknown */
};

/* What each stack node says of binder: whether its stack passes
 * through a server frame, and the interface its nearest proxy frame
 * (a client's) and stub frame (a server's) name, as interned ids (0:
 * none). An AIDL proxy IFoo$Stub$Proxy calls IFoo$Stub.onTransact in the
 * server: a call and a transaction of two interfaces are not one. */
struct stacks {
	unsigned char *in;
	uint32_t *proxy, *stub;
	struct bt_map64 served_by;   /* pid << 32 | interface -> 1: a stub of it is in the process's stacks */
};

static int read_frames(struct bt_db *db, struct bt_map64 *served, struct bt_map64 *proxy,
		       struct bt_map64 *stub, struct bt_map64 *served_by, struct bt_err *err)
{
	struct bt_strmap names;
	struct bt_rows *r;
	uint32_t next = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_BINDER_SERVER_FRAMES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1)
		bt_map64_put(served, (uint64_t)bt_rows_int(r, 0), 1);
	bt_rows_close(r);
	if (rc < 0 || bt_rows_open(&r, db, BT_SQL_BINDER_INTERFACE_FRAMES, err))
		return err->code;
	bt_strmap_init(&names);
	while ((rc = bt_rows_next(r, err)) == 1) {
		size_t len;
		const char *iface = bt_rows_text(r, 1, &len);
		uint32_t id = iface ? bt_strmap_get(&names, iface, len) : 0;
		if (iface && !id)
			bt_strmap_put(&names, iface, len, id = ++next);
		if (id)
			bt_map64_put(bt_rows_int(r, 2) ? stub : proxy, (uint64_t)bt_rows_int(r, 0), id);
		if (id && bt_rows_int(r, 2))
			bt_map64_put(served_by, (uint64_t)bt_rows_int(r, 3) << 32 | id, 1);
	}
	bt_rows_close(r);
	bt_strmap_release(&names);
	return rc < 0 ? err->code : BT_OK;
}

/* A node's facts from its frame's, else its parent's (parents come
 * first; where one does not, the walk up finds them). */
static void node_facts(const struct bt_capture *cap, const struct bt_map64 *served, const struct bt_map64 *proxy,
		       const struct bt_map64 *stub, struct stacks *st, size_t i)
{
	size_t p = cap->parent[i];
	uint32_t f = cap->frame[i];

	if (p && p >= i)
		p = 0;
	st->in[i] = bt_map64_get(served, f) ? 1 : p ? st->in[p] : 0;
	st->proxy[i] = bt_map64_get(proxy, f);
	if (!st->proxy[i] && p)
		st->proxy[i] = st->proxy[p];
	st->stub[i] = bt_map64_get(stub, f);
	if (!st->stub[i] && p)
		st->stub[i] = st->stub[p];
	for (p = cap->parent[i]; p >= i && p <= cap->nnodes; p = cap->parent[p]) {
		f = cap->frame[p];
		st->in[i] |= bt_map64_get(served, f) != 0;
		if (!st->proxy[i])
			st->proxy[i] = bt_map64_get(proxy, f);
		if (!st->stub[i])
			st->stub[i] = bt_map64_get(stub, f);
	}
}

static int read_stacks(const struct bt_capture *cap, struct bt_db *db, struct stacks *st, struct bt_err *err)
{
	struct bt_map64 served, proxy, stub;
	size_t i;
	int rc;

	st->in = bt_xcalloc(cap->nnodes + 1, 1);
	st->proxy = bt_xcalloc(cap->nnodes + 1, sizeof *st->proxy);
	st->stub = bt_xcalloc(cap->nnodes + 1, sizeof *st->stub);
	bt_map64_init(&served, 8);
	bt_map64_init(&proxy, 64);
	bt_map64_init(&stub, 64);
	bt_map64_init(&st->served_by, 64);
	rc = read_frames(db, &served, &proxy, &stub, &st->served_by, err);
	for (i = 1; !rc && i <= cap->nnodes; i++)
		node_facts(cap, &served, &proxy, &stub, st, i);
	bt_map64_release(&served);
	bt_map64_release(&proxy);
	bt_map64_release(&stub);
	return rc;
}

static void release_stacks(struct stacks *st)
{
	free(st->in);
	free(st->proxy);
	free(st->stub);
	bt_map64_release(&st->served_by);
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : (x->i > y->i) - (x->i < y->i);
}

/* Record i's end time (0: a point): binder works on its few calls and
 * blocking records, each found where the capture keeps the ends. */
static int64_t end_of(const struct bt_capture *cap, size_t i)
{
	return bt_cends_of(&cap->ends, i)[0];
}

static void collect_servers(const struct bt_capture *cap, const struct bt_process *procs, size_t np,
			    const struct stacks *st, struct servers *sv)
{
	size_t k, i;

	for (k = 0; k < np; k++)
		for (i = procs[k].lo; i < procs[k].hi; i++) {
			const struct bt_csample *s = &cap->s[i];
			struct served *t;
			uint32_t at;
			if (!st->in[s->node_id])
				continue;
			at = bt_map64_get(&sv->by_tid, (uint64_t)s->tid);
			if (!at) {
				BT_GROW(sv->t, sv->n + 1, sv->cap);
				memset(&sv->t[sv->n], 0, sizeof sv->t[sv->n]);
				sv->t[sv->n].tid = s->tid;
				sv->t[sv->n].pid = procs[k].pid;
				bt_map64_put(&sv->by_tid, (uint64_t)s->tid, (uint32_t)++sv->n);
				at = (uint32_t)sv->n;
			}
			t = &sv->t[at - 1];
			BT_GROW(t->v, t->n + 1, t->cap);
			t->v[t->n].ts = s->ts;
			t->v[t->n++].i = i;
		}
	for (k = 0; k < sv->n; k++)
		qsort(sv->t[k].v, sv->t[k].n, sizeof *sv->t[k].v, rec_cmp);
	for (k = 0; k < np; k++)   /* the server threads' own blocking, once for every call */
		for (i = procs[k].lo; i < procs[k].hi; i++) {
			const struct bt_csample *s = &cap->s[i];
			uint32_t at;
			struct served *t;
			if (!bt_rtype_is_blocking(s->type) || end_of(cap, i) <= s->ts ||
			    !(at = bt_map64_get(&sv->by_tid, (uint64_t)s->tid)))
				continue;
			t = &sv->t[at - 1];
			BT_GROW(t->blk, t->nblk + 1, t->bcap);
			t->blk[t->nblk++] = i;
		}
}

/* 1 if records j and j + 1 of t are one stretch of work: the thread
 * never slept between them (no voluntary context switch). A binder
 * thread waits for its next transaction asleep in the driver, so a
 * stretch that runs into a call's window from before it (or out of it
 * past the reply) is another client's transaction. */
static int continues(const struct bt_capture *cap, const struct served *t, size_t j)
{
	return cap->s[t->v[j + 1].i].nvcsw == cap->s[t->v[j].i].nvcsw;
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The median gap between two samples of a server thread that ran
 * between them (no sleep): the interval the recorder samples a running
 * thread at. Unknown (0) from fewer than 8 such gaps. */
static void sampling_period(const struct bt_capture *cap, struct servers *sv)
{
	int64_t *gap = NULL;
	size_t k, j, n = 0, cap_ = 0;

	for (k = 0; k < sv->n; k++)
		for (j = 0; j + 1 < sv->t[k].n; j++)
			if (continues(cap, &sv->t[k], j)) {
				BT_GROW(gap, n + 1, cap_);
				gap[n++] = sv->t[k].v[j + 1].ts - sv->t[k].v[j].ts;
			}
	if (n >= 8) {
		qsort(gap, n, sizeof *gap, i64_cmp);
		sv->period = gap[n / 2];
	}
	free(gap);
}

static void release_servers(struct servers *sv)
{
	size_t k;

	for (k = 0; k < sv->n; k++) {
		free(sv->t[k].v);
		free(sv->t[k].blk);
	}
	free(sv->t);
	bt_map64_release(&sv->by_tid);
}

/* 1 if records [lo, hi) of t may serve interface iface: one of them
 * names it, or none names an interface and the process serves iface
 * somewhere in its stacks. */
static int serves(const struct bt_capture *cap, const struct stacks *st, const struct served *t, size_t lo,
		  size_t hi, uint32_t iface)
{
	size_t j;
	int named = 0;

	for (j = lo; j < hi; j++) {
		uint32_t x = st->stub[cap->s[t->v[j].i].node_id];
		if (x == iface)
			return 1;
		named |= x != 0;
	}
	return !named && bt_map64_get(&st->served_by, (uint64_t)t->pid << 32 | iface);
}

/* The server of a call [ts, end] from process pid: its records [*a, *b)
 * in its list, or NULL. */
static const struct served *find_server(const struct bt_capture *cap, const struct stacks *st,
					const struct servers *sv, int64_t pid, uint32_t iface, int64_t ts, int64_t end,
					size_t *a, size_t *b)
{
	const struct served *best = NULL;
	size_t k, best_n = 0;

	for (k = 0; k < sv->n; k++) {
		const struct served *t = &sv->t[k];
		size_t lo, hi;
		if (t->pid == pid)
			continue;
		lo = bt_first_ge(t->v, t->n, sizeof *t->v, offsetof(struct rec, ts), ts);
		hi = bt_first_ge(t->v, t->n, sizeof *t->v, offsetof(struct rec, ts), end + 1);
		if (hi == lo || (lo > 0 && continues(cap, t, lo - 1)) || (hi < t->n && continues(cap, t, hi - 1)))
			continue;
		if (iface && !serves(cap, st, t, lo, hi, iface))
			continue;
		if (sv->period && t->v[lo].ts - ts > 2 * sv->period)
			continue;   /* an idle binder thread starts a call at once, sampled within a period */
		if (hi - lo > best_n || (hi - lo == best_n && t->v[lo].ts < best->v[*a].ts)) {
			best = t;
			best_n = hi - lo;
			*a = lo;
			*b = hi;
		}
	}
	return best;
}

/* The stack the server was sampled in most over records [a, b), the
 * one sampled last of equal counts (what it was doing as the reply neared). */
static uint32_t most_sampled(const struct bt_capture *cap, const struct served *t, size_t a, size_t b)
{
	struct bt_map64 count;
	uint32_t best = 0, best_n = 0;
	size_t i;

	bt_map64_init(&count, b - a);
	for (i = a; i < b; i++) {
		uint32_t node = cap->s[t->v[i].i].node_id;
		bt_map64_put(&count, node, bt_map64_get(&count, node) + 1);
	}
	for (i = a; i < b; i++) {
		uint32_t node = cap->s[t->v[i].i].node_id, n = bt_map64_get(&count, node);
		if (n >= best_n) {
			best = node;
			best_n = n;
		}
	}
	bt_map64_release(&count);
	return best;
}

/* Blocked time of the server's own blocking records inside [ts, end]. */
static int64_t server_blocked(const struct bt_capture *cap, const struct served *t, int64_t ts, int64_t end)
{
	int64_t sum = 0;
	size_t k;

	for (k = 0; k < t->nblk; k++) {
		const struct bt_csample *s = &cap->s[t->blk[k]];
		int64_t s_end = end_of(cap, t->blk[k]);
		int64_t b = s->ts > ts ? s->ts : ts, e = s_end < end ? s_end : end;
		if (e > b)
			sum += e - b;
	}
	return sum;
}

/* The calls followed so far: their spans on the server threads. */
struct spans {
	struct bt_slice_span *v;
	size_t n, cap;
};

static int follow(const struct bt_capture *cap, const struct stacks *st, const struct servers *sv,
		  const struct bt_process *client, size_t i, size_t *unserved, struct spans *out, struct bt_db *db,
		  struct bt_err *err)
{
	const struct bt_csample *c = &cap->s[i];
	const struct served *t;
	size_t a = 0, b = 0;
	int64_t id = (int64_t)i + 1, blocked, c_end = end_of(cap, i);
	const char *why;
	uint32_t node;

	t = find_server(cap, st, sv, client->pid, st->proxy[c->node_id], c->ts, c_end, &a, &b);
	if (!t) {
		++*unserved;
		return bt_db_exec(db, BT_SQL_INSERT_BINDER_CALL, err, "iiiiinnnnnnn", c->tid, id, c->ts,
				  c_end - c->ts, (int64_t)0);
	}
	node = most_sampled(cap, t, a, b);
	BT_GROW(out->v, out->n + 1, out->cap);
	out->v[out->n++] = (struct bt_slice_span){ t->tid, c->ts, c_end, 0 };
	blocked = server_blocked(cap, t, c->ts, c_end);
	/* slow because blocked when that is most of the server's transaction
	 * (its first sample in the call to the client's return), else busy:
	 * it ran, or waited for a CPU */
	why = 2 * blocked > c_end - t->v[a].ts ? "blocked" : "busy";
	if (bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "iitniiiiii", c->tid, id, "binder", c->ts,
		       c_end - c->ts, t->tid, (int64_t)t->v[b - 1].i + 1, t->v[b - 1].ts, (int64_t)node))
		return err->code;
	return bt_db_exec(db, BT_SQL_INSERT_BINDER_CALL, err, "iiiiiiiiiiit", c->tid, id, c->ts, c_end - c->ts,
			  (int64_t)0, t->pid, t->tid, t->v[a].ts, t->v[b - 1].ts, (int64_t)(b - a), blocked,
			  why);
}

/* ---------------------------------------------------------------- from a system trace */

/* The client's binder records (type 2), by thread and time: the one a
 * system trace's call is, where the throttle let it be written. */
struct recs {
	struct rec2 { int64_t tid, ts; size_t i; } *v;
	size_t n, cap;
};

static int rec2_cmp(const void *a, const void *b)
{
	const struct rec2 *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->ts > y->ts) - (x->ts < y->ts);
}

static void collect_calls(const struct bt_capture *cap, struct recs *r)
{
	size_t i;

	for (i = 0; i < cap->n; i++)
		if (cap->s[i].type == 2 && end_of(cap, i) > cap->s[i].ts) {
			BT_GROW(r->v, r->n + 1, r->cap);
			r->v[r->n++] = (struct rec2){ cap->s[i].tid, cap->s[i].ts, i };
		}
	qsort(r->v, r->n, sizeof *r->v, rec2_cmp);
}

/* The record of tid overlapping [ts, end] most, or -1. */
static int64_t record_of(const struct bt_capture *cap, const struct recs *r, int64_t tid, int64_t ts, int64_t end)
{
	size_t lo = 0, hi = r->n, best = SIZE_MAX;
	int64_t most = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->v[mid].tid < tid || (r->v[mid].tid == tid && end_of(cap, r->v[mid].i) <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < r->n && r->v[lo].tid == tid && r->v[lo].ts < end; lo++) {
		const struct bt_csample *s = &cap->s[r->v[lo].i];
		int64_t s_end = end_of(cap, r->v[lo].i);
		int64_t o = (s_end < end ? s_end : end) - (s->ts > ts ? s->ts : ts);
		if (o > most) {
			most = o;
			best = lo;
		}
	}
	return best == SIZE_MAX ? -1 : (int64_t)r->v[best].i;
}

/* One call the system trace gives: its row, its edge (the server's
 * stack where its dump sampled it serving), its span for the slicer. */
static int given(const struct bt_capture *cap, const struct servers *sv, const struct recs *r,
		 const struct bt_sys_call *c, struct spans *out, struct bt_db *db, struct bt_err *err)
{
	int64_t rec = record_of(cap, r, c->client, c->ts, c->end), id = rec >= 0 ? rec + 1 : INT64_MIN;
	uint32_t at = bt_map64_get(&sv->by_tid, (uint64_t)c->server);
	const struct served *t = at ? &sv->t[at - 1] : NULL;
	int64_t node = INT64_MIN, last = INT64_MIN, samples = 0;

	if (t && !c->oneway) {
		size_t a = bt_first_ge(t->v, t->n, sizeof *t->v, offsetof(struct rec, ts), c->recv);
		size_t b = bt_first_ge(t->v, t->n, sizeof *t->v, offsetof(struct rec, ts), c->reply + 1);
		samples = (int64_t)(b - a);
		if (b > a) {
			node = most_sampled(cap, t, a, b);
			last = (int64_t)t->v[b - 1].i + 1;
		}
		BT_GROW(out->v, out->n + 1, out->cap);
		out->v[out->n++] = (struct bt_slice_span){ c->server, c->recv, c->reply, 1 };
	}
	if (bt_db_exec(db, BT_SQL_INSERT_BINDER_CALL, err, "imiiimiimmit", c->client, id, c->ts, c->end - c->ts,
		       (int64_t)c->oneway, c->server_pid >= 0 ? c->server_pid : INT64_MIN, c->server, c->recv,
		       c->oneway ? INT64_MIN : c->reply, t ? samples : INT64_MIN, c->blocked,
		       c->why[0] ? c->why : NULL))
		return err->code;
	if (c->oneway)
		return BT_OK;
	return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "imtniiimim", c->client, id, "binder", c->ts, c->end - c->ts,
			  c->server, last, c->reply, node);
}

static int link_given(const struct bt_capture *cap, const struct servers *sv, const struct bt_sys_calls *calls,
		      struct spans *out, struct bt_db *db, struct bt_err *err)
{
	struct recs r = { NULL, 0, 0 };
	size_t i;
	int rc = BT_OK;

	collect_calls(cap, &r);
	for (i = 0; i < calls->n && !rc; i++)
		rc = given(cap, sv, &r, &calls->v[i], out, db, err);
	free(r.v);
	return rc;
}

int bt_binder_link(const struct bt_capture *cap, const struct bt_process *procs, size_t np,
		   const struct bt_sys_calls *sys, struct bt_db *db, struct bt_diag *diag,
		   struct bt_slice_span **spans, size_t *nspans, struct bt_err *err)
{
	struct spans out = { NULL, 0, 0 };
	struct servers sv;
	struct stacks st;
	size_t k, i, calls = 0, unserved = 0;
	int rc = read_stacks(cap, db, &st, err);

	memset(&sv, 0, sizeof sv);
	bt_map64_init(&sv.by_tid, 64);
	if (!rc) {
		collect_servers(cap, procs, np, &st, &sv);
		sampling_period(cap, &sv);
	}
	if (!rc && sys)   /* the system trace says who served each call */
		rc = link_given(cap, &sv, sys, &out, db, err);
	for (k = 0; k < np && !rc && !sys; k++)
		for (i = procs[k].lo; i < procs[k].hi && !rc; i++)
			if (cap->s[i].type == 2 && end_of(cap, i) > cap->s[i].ts) {
				calls++;
				rc = follow(cap, &st, &sv, &procs[k], i, &unserved, &out, db, err);
			}
	release_servers(&sv);
	release_stacks(&st);
	*spans = out.v;
	*nspans = out.n;
	if (!rc && unserved)
		bt_diag_count(diag, "binder_unserved", unserved,
			      "binder calls no other process of the capture was sampled serving: %zu of %zu "
			      "(a process not given, or a transaction shorter than the sampling interval)",
			      unserved, calls);
	return rc;
}
