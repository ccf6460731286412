/*
 * Binder calls of a system trace (binder.h). A thread sends a transaction
 * (binder_transaction, reply 0) to a process; the server thread that
 * takes it receives it (binder_transaction_received, same debug_id); that
 * thread's reply (binder_transaction, reply 1, to the client thread) is
 * received by the client, whose wait then ends. A oneway call (flags & 1)
 * has no reply. Each call is a binder_calls row and, where the client
 * waited, a blocking edge of kind binder ended by the server; why the
 * reply was slow comes from the server's scheduler states.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"
#include "engine/db/rows.h"
#include "importers/binder_events.h"

struct bt_bevents {
	struct bt_bevent *v;
	size_t n, cap;
};

/* A call as it is paired. */
struct tx_call {
	int64_t client, ts, server, recv, reply, end;
	int oneway;
	size_t below;   /* the call its server was serving before it (index + 1), or 0 */
};

void bt_bevents_add(struct bt_bevents **b, const struct bt_bevent *e)
{
	if (!*b)
		*b = bt_xcalloc(1, sizeof **b);
	BT_GROW((*b)->v, (*b)->n + 1, (*b)->cap);
	(*b)->v[(*b)->n] = *e;
	(*b)->v[(*b)->n].seq = (int64_t)(*b)->n;
	(*b)->n++;
}

void bt_bevents_free(struct bt_bevents *b)
{
	if (b)
		free(b->v);
	free(b);
}

static int bev_cmp(const void *a, const void *b)
{
	const struct bt_bevent *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The call a server thread is serving (its innermost), or 0. */
static size_t serving_top(const struct bt_map64 *serving, int64_t tid)
{
	uint32_t k = bt_map64_get(serving, (uint64_t)tid);

	return k == UINT32_MAX ? 0 : k;   /* UINT32_MAX: none any more (a map keeps its keys) */
}

static void serving_set(struct bt_map64 *serving, int64_t tid, size_t k)
{
	bt_map64_put(serving, (uint64_t)tid, k ? (uint32_t)k : UINT32_MAX);
}

/* The calls, paired in time order (bundles are per CPU). */
static struct tx_call *pair(struct bt_bevents *b, size_t *ncalls)
{
	struct bt_map64 sent, replies, serving;   /* debug_id -> call + 1; tid -> call + 1 */
	struct tx_call *c = NULL;
	size_t n = 0, cap = 0, i, k;

	qsort(b->v, b->n, sizeof *b->v, bev_cmp);
	bt_map64_init(&sent, 256);
	bt_map64_init(&replies, 256);
	bt_map64_init(&serving, 64);
	for (i = 0; i < b->n; i++) {
		const struct bt_bevent *e = &b->v[i];
		uint64_t id = (uint32_t)e->debug_id;
		if (!e->received && !e->reply) {   /* a call */
			BT_GROW(c, n + 1, cap);
			memset(&c[n], 0, sizeof c[n]);
			c[n].client = e->tid;
			c[n].ts = e->ts;
			c[n].oneway = e->oneway;
			bt_map64_put(&sent, id, (uint32_t)++n);
		} else if (!e->received) {   /* a reply, to the call its thread serves */
			k = serving_top(&serving, e->tid);
			if (k && c[k - 1].client == e->to_thread) {
				c[k - 1].reply = e->ts;
				bt_map64_put(&replies, id, (uint32_t)k);
				serving_set(&serving, e->tid, c[k - 1].below);
			}
		} else if ((k = bt_map64_get(&sent, id)) && !c[k - 1].server) {   /* a server takes a call */
			c[k - 1].server = e->tid;
			c[k - 1].recv = e->ts;
			if (!c[k - 1].oneway) {
				c[k - 1].below = serving_top(&serving, e->tid);
				serving_set(&serving, e->tid, k);
			}
		} else if ((k = bt_map64_get(&replies, id)) && !c[k - 1].end) {   /* the client gets its reply */
			c[k - 1].end = e->ts;
		}
	}
	bt_map64_release(&sent);
	bt_map64_release(&replies);
	bt_map64_release(&serving);
	*ncalls = n;
	return c;
}

/* Why the reply took the time it did: the largest of the call's wait for
 * a server thread and the server's time running, waiting for a CPU and
 * blocked while it served it. Without the server's states (a trace with
 * no scheduler data), queued if the wait was longer than the serving,
 * else unknown (NULL, and the blocked time INT64_MIN: NULL). */
static int why_of(struct bt_db *db, const struct tx_call *c, const char **why, int64_t *blocked, struct bt_err *err)
{
	struct bt_rows *r;
	int64_t run = 0, ready = 0, rc;

	*blocked = 0;
	if (bt_rows_open(&r, db, BT_SQL_BINDER_SERVER_STATES, err))
		return err->code;
	bt_rows_bind_int(r, 1, c->server);
	bt_rows_bind_int(r, 2, c->recv);
	bt_rows_bind_int(r, 3, c->reply);
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *s = bt_rows_text(r, 0, NULL);
		int64_t ns = bt_rows_int(r, 1);
		if (!strcmp(s, "running"))
			run += ns;
		else if (!strncmp(s, "runnable", 8))
			ready += ns;
		else if (!strcmp(s, "sleeping") || !strcmp(s, "uninterruptible"))
			*blocked += ns;
	}
	bt_rows_close(r);
	if (rc < 0)
		return err->code;
	if (!run && !ready && !*blocked) {   /* no states of the server (no scheduler data): unknown */
		*blocked = INT64_MIN;
		*why = c->recv - c->ts > c->reply - c->recv ? "queued" : NULL;
		return BT_OK;
	}
	*why = c->recv - c->ts > run && c->recv - c->ts > ready && c->recv - c->ts > *blocked ? "queued"
	       : *blocked > run && *blocked > ready ? "blocked" : ready > run ? "runnable" : "busy";
	return BT_OK;
}

static int save(struct bt_db *db, const struct tx_call *c, struct bt_err *err)
{
	int64_t pid, blocked = 0;
	const char *why = NULL;

	/* the threads table's pid (the trace's tgids may have gone to the kept slices) */
	if (bt_rows_one_int(db, BT_SQL_THREAD_PID, c->server, INT64_MIN, &pid, err))
		return err->code;
	if (c->oneway)
		return bt_db_exec(db, BT_SQL_INSERT_BINDER_CALL, err, "iniiimiimnnn", c->client, c->ts, (int64_t)0,
				  (int64_t)1, pid, c->server, c->recv, INT64_MIN);
	if (why_of(db, c, &why, &blocked, err))
		return err->code;
	if (bt_db_exec(db, BT_SQL_INSERT_BINDER_CALL, err, "iniiimiiinmt", c->client, c->ts, c->end - c->ts,
		       (int64_t)0, pid, c->server, c->recv, c->reply, blocked, why))
		return err->code;
	return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "intniiinin", c->client, "binder", c->ts, c->end - c->ts,
			  c->server, c->reply);
}

int bt_bevents_save(struct bt_bevents *b, struct bt_db *db, struct bt_diag *diag, const char *code,
			  const char *path, struct bt_err *err)
{
	struct tx_call *c;
	size_t n = 0, i, unpaired = 0;
	int rc = BT_OK;

	if (!b)
		return BT_OK;
	c = pair(b, &n);
	for (i = 0; i < n && !rc; i++) {
		if (!c[i].server || (!c[i].oneway && (!c[i].reply || !c[i].end))) {
			unpaired++;   /* cut by the trace's start or end */
			continue;
		}
		rc = save(db, &c[i], err);
	}
	free(c);
	if (!rc && unpaired)
		bt_diag_count(diag, code, unpaired,
			      "binder calls of '%s' without their server or reply (the trace began or ended inside them)",
			      path);
	return rc;
}
