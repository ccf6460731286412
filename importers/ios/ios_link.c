/*
 * Cross-thread links of an iOS trace (format spec §10.5, §10.6, DESIGN §6):
 * the main thread's lock-contention pairs become waits, linked by lock id
 * to the last unlock-contention sample of another thread inside the wait;
 * dispatch/async samples become dispatches rows (source -> target thread).
 */
#include <stdlib.h>

#include "importers/ios/ios_int.h"
#include "engine/recon/link.h"

/* LockAction values (§10.6). */
static int is_contention(unsigned a)
{
	return a == 15 || a == 17 || a == 18 || a == 21;
}

static int is_unlock_contention(unsigned a)
{
	return a == 16 || a == 19 || a == 22;
}

static const struct bt_ios_rec *sort_base;

/* One lock's contention samples of one thread in time order (ties in the
 * order read). The order read is time order only within one table: a
 * database with both per-row and batch tables (spec §10.1) holds a lock's
 * samples, and a pair's two halves, in either. */
static int pair_cmp(const void *a, const void *b)
{
	const struct bt_ios_rec *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->lock_id != y->lock_id)
		return x->lock_id < y->lock_id ? -1 : 1;
	if (x->action != y->action)
		return x->action < y->action ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The two halves of one wait: the same thread, lock, action, stack and
 * CPU time (spec §10.6: both samples are written at the acquisition with
 * the CPU time taken once). */
static int same_wait(const struct bt_ios_rec *a, const struct bt_ios_rec *b)
{
	return a->tid == b->tid && a->lock_id == b->lock_id && a->action == b->action &&
	       a->stack_id == b->stack_id && a->cpu == b->cpu;
}

/* Merge b into a: one wait over [min time, max time] (spec Q-6). */
static void merge(struct bt_ios_rec *a, struct bt_ios_rec *b)
{
	int64_t lo = a->ts < b->ts ? a->ts : b->ts, hi = a->ts < b->ts ? b->ts : a->ts;
	int64_t clo = a->cpu < b->cpu ? a->cpu : b->cpu, chi = a->cpu < b->cpu ? b->cpu : a->cpu;

	if (b->ts < a->ts)
		a->stack_id = b->stack_id;
	a->ts = lo;
	a->end_ts = hi;
	a->cpu = clo;
	a->end_cpu = chi;
	a->has |= BT_IOS_HAS_END | BT_IOS_HAS_END_CPU;
	a->type = hi > lo ? BT_IOS_LOCK_WAIT : BT_IOS_LOCK;
	b->type = 0;
}

/*
 * A thread waits for one lock at a time, so in time order a lock's
 * contention samples come as begin, end, begin, end: each is paired with
 * the next if that one is its other half (same_wait). One whose other
 * half is missing (a batch dump of a hitch window keeps only the records
 * inside it) stays a point; the CPU time tells it from the next wait's
 * begin, since the thread ran between two waits.
 */
void bt_ios_pair_locks(struct bt_ios_recs *r, struct bt_diag *diag)
{
	size_t *idx = bt_xmalloc((r->n ? r->n : 1) * sizeof *idx), n = 0, i, odd = 0;
	const struct bt_ios_rec *first = NULL;

	for (i = 0; i < r->n; i++)
		if (r->v[i].type == BT_IOS_LOCK && is_contention(r->v[i].action))
			idx[n++] = i;
	sort_base = r->v;
	qsort(idx, n, sizeof *idx, pair_cmp);
	for (i = 0; i < n; i++) {
		struct bt_ios_rec *a = &r->v[idx[i]], *b = i + 1 < n ? &r->v[idx[i + 1]] : NULL;
		if (b && same_wait(a, b)) {
			merge(a, b);
			i++;
		} else if (!odd++) {
			first = a;
		}
	}
	if (odd)
		bt_diag_count(diag, "unpaired_lock_contention", odd,
			      "lock-contention samples without the sample that ends or begins them: %zu (one: tid %lld, lock 0x%llx, action %u, at %lld ns); kept as points, no wait",
			      odd, (long long)first->tid, (unsigned long long)first->lock_id, (unsigned)first->action,
			      (long long)first->ts);
	free(idx);
}

static int link_locks(const struct bt_ios_recs *r, struct bt_db *db, struct bt_diag *diag,
		      struct bt_err *err)
{
	size_t n = r->n ? r->n : 1, nw = 0, nk = 0, i, unlinked = 0;
	struct bt_wait *waits = bt_xmalloc(n * sizeof *waits);
	struct bt_wake *wakes = bt_xmalloc(n * sizeof *wakes);
	long *match = bt_xmalloc(n * sizeof *match);
	int rc = BT_OK;

	for (i = 0; i < r->n; i++) {
		const struct bt_ios_rec *x = &r->v[i];
		if (x->type == BT_IOS_LOCK_WAIT) {
			struct bt_wait *w = &waits[nw++];
			w->sample_id = x->sample_id;
			w->tid = x->tid;
			w->ts = x->ts;
			w->end = x->end_ts;
			w->key = (int64_t)x->lock_id;
			w->kind = "lock";
		} else if (x->type == BT_IOS_LOCK && is_unlock_contention(x->action)) {
			struct bt_wake *k = &wakes[nk++];
			k->sample_id = x->sample_id;
			k->tid = x->tid;
			k->key = (int64_t)x->lock_id;
			k->ts = x->ts;
			k->node_id = x->node_id;
		}
	}
	bt_link_match(waits, nw, wakes, nk, BT_LINK_WITHIN, match);
	for (i = 0; i < nw && !rc; i++) {
		const struct bt_wait *w = &waits[i];
		const struct bt_wake *k = match[i] < 0 ? NULL : &wakes[match[i]];
		if (!k) {
			unlinked++;
			rc = bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "iitiii", w->tid, w->sample_id, w->kind,
					w->key, w->ts, w->end - w->ts);
		} else {
			rc = bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "iitiiiiiii", w->tid, w->sample_id, w->kind,
					w->key, w->ts, w->end - w->ts, k->tid, k->sample_id, k->ts, k->node_id);
		}
	}
	if (!rc && unlinked)
		bt_diag_count(diag, "unlinked_wait", unlinked,
			      "lock waits without an unlock-contention sample of the same lock inside them: %zu",
			      unlinked);
	free(waits);
	free(wakes);
	free(match);
	return rc;
}

static int link_dispatch(const struct bt_ios_recs *r, struct bt_db *db, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct bt_ios_rec *x = &r->v[i];
		if ((x->type != BT_IOS_DISPATCH && x->type != BT_IOS_ASYNC) || !x->sample_id)
			continue;
		if (bt_db_exec(db, BT_SQL_INSERT_DISPATCH, err, "tiiiiii",
			       x->type == BT_IOS_DISPATCH ? "dispatch" : "async", x->tid, x->sample_id, x->ts,
			       (int64_t)x->node_id, x->target_tid, x->target_ts))
			return err->code;
	}
	return BT_OK;
}

int bt_ios_link(const struct bt_ios_recs *r, struct bt_db *db, struct bt_diag *diag,
		struct bt_err *err)
{
	int rc = link_locks(r, db, diag, err);

	return rc ? rc : link_dispatch(r, db, err);
}
