/*
 * Blocking-edge linking (see link.h): the matcher, and the Android driver
 * that takes waits and wakers from the captured samples and writes
 * blocking_edges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/recon/capture.h"
#include "engine/recon/link.h"
#include "engine/db/rows.h"
#include "engine/db/rtype.h"

static int wake_cmp(const void *a, const void *b)
{
	const struct bt_wake *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->sample_id < y->sample_id ? -1 : x->sample_id > y->sample_id;
}

/* First index in [lo, hi) whose (key, ts) is greater than (key, ts). */
static size_t upper(const struct bt_wake *w, size_t lo, size_t hi, int64_t key, int64_t ts)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w[mid].key < key || (w[mid].key == key && w[mid].ts <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void bt_link_match(const struct bt_wait *waits, size_t nwaits, struct bt_wake *wakes,
		   size_t nwakes, int flags, long *match)
{
	size_t i, j;

	if (nwakes)
		qsort(wakes, nwakes, sizeof *wakes, wake_cmp);
	for (i = 0; i < nwaits; i++) {
		const struct bt_wait *w = &waits[i];
		/* the last wake at or before (key, end), back past the waiter's own */
		match[i] = -1;
		for (j = upper(wakes, 0, nwakes, w->key, w->end); j > 0 && wakes[j - 1].key == w->key; j--) {
			if ((flags & BT_LINK_WITHIN) && wakes[j - 1].ts < w->ts)
				break;
			if (!(flags & BT_LINK_OTHER) || wakes[j - 1].tid != w->tid) {
				match[i] = (long)(j - 1);
				break;
			}
		}
	}
}

static const char *android_kind(int64_t type)
{
	return type == 8 ? "monitor" : type == 6 ? "wait" : "park";
}

static int wait_cmp(const void *a, const void *b)
{
	const struct bt_wait *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->sample_id < y->sample_id ? -1 : x->sample_id > y->sample_id;
}

/* Pick out main-thread waits (sorted by ts) and wakers of records [lo, hi). */
static void split(const struct bt_capture *cap, size_t lo, size_t hi, int64_t main_tid, int wakers_too,
		  struct bt_wait *waits, size_t *nw, struct bt_wake *wakes, size_t *nk)
{
	size_t i, e = bt_cends_from(&cap->ends, lo);

	*nw = *nk = 0;
	for (i = lo; i < hi; i++) {
		const struct bt_csample *r = &cap->s[i];
		int64_t end_ts = bt_cends_next(&cap->ends, i, &e)[0];
		if (bt_rtype_is_wait(r->type) && r->tid == main_tid && end_ts > r->ts) {
			struct bt_wait *w = &waits[(*nw)++];
			w->sample_id = (int64_t)i + 1;
			w->tid = r->tid;
			w->kind = android_kind(r->type);
			w->ts = w->key = r->ts;
			w->end = end_ts;
		} else if (bt_rtype_is_waker(r->type) && wakers_too && end_ts) {
			struct bt_wake *k = &wakes[(*nk)++];
			k->sample_id = (int64_t)i + 1;
			k->tid = r->tid;
			k->key = r->ts;
			k->ts = end_ts;
			k->node_id = r->node_id;
		}
	}
	qsort(waits, *nw, sizeof *waits, wait_cmp);
}

static int insert_edge(struct bt_db *db, const struct bt_wait *w, const struct bt_wake *k,
		       struct bt_err *err)
{
	if (!k)
		return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "iitnii", w->tid, w->sample_id, w->kind,
				  w->ts, w->end - w->ts);
	return bt_db_exec(db, BT_SQL_INSERT_EDGE, err, "iitniiiiii", w->tid, w->sample_id, w->kind,
			  w->ts, w->end - w->ts, k->tid, k->sample_id, k->ts, k->node_id);
}

/* Count waits without a waker and wakers whose key no wait has. */
static void diagnose(struct bt_diag *d, const struct bt_wait *waits, size_t nw,
		     const struct bt_wake *wakes, size_t nk, const long *match)
{
	size_t i, unlinked = 0, orphans = 0, j = 0, first_w = 0, first_k = 0;

	for (i = 0; i < nw; i++)
		if (match[i] < 0 && !unlinked++)
			first_w = i;
	/* waits are sorted by ts (== key) and so are wakes: one merge pass */
	for (i = 0; i < nk; i++) {
		while (j < nw && waits[j].key < wakes[i].key)
			j++;
		if ((j == nw || waits[j].key != wakes[i].key) && !orphans++)
			first_k = i;
	}
	if (unlinked)
		bt_diag_count(d, "unlinked_wait", unlinked,
			      "main-thread waits without a waker record: %zu (e.g. %s at ts %lld); timed out, or the waker was not recorded",
			      unlinked, waits[first_w].kind, (long long)waits[first_w].ts);
	if (orphans)
		bt_diag_count(d, "orphan_waker", orphans,
			      "waker records that match no main-thread wait: %zu (e.g. tid %lld at %lld); the recorder's rate limit dropped the wait itself",
			      orphans, (long long)wakes[first_k].tid, (long long)wakes[first_k].ts);
}

static size_t count_candidates(const struct bt_capture *cap, size_t lo, size_t hi)
{
	size_t i, n = 0;

	for (i = lo; i < hi; i++)
		n += bt_rtype_is_wait(cap->s[i].type) || bt_rtype_is_waker(cap->s[i].type);
	return n ? n : 1;
}

int bt_link_range(const struct bt_capture *cap, size_t lo, size_t hi, int64_t main_tid, int64_t version,
		  struct bt_db *db, struct bt_diag *d, struct bt_err *err)
{
	size_t n = count_candidates(cap, lo, hi), nw, nk, i;
	struct bt_wait *waits = bt_xmalloc(n * sizeof *waits);
	struct bt_wake *wakes = bt_xmalloc(n * sizeof *wakes);
	long *match = bt_xmalloc(n * sizeof *match);
	int rc = BT_OK;

	/* only v5 readers treat types 17/22/23 as wakers (spec §4.2) */
	split(cap, lo, hi, main_tid, version >= 5, waits, &nw, wakes, &nk);
	bt_link_match(waits, nw, wakes, nk, 0, match);
	for (i = 0; i < nw && !rc; i++)
		rc = insert_edge(db, &waits[i], match[i] < 0 ? NULL : &wakes[match[i]], err);
	if (!rc && version >= 5)
		diagnose(d, waits, nw, wakes, nk, match);
	else if (!rc && nw)
		bt_diag_count(d, "wakers_unsupported", nw,
			      "version %lld dumps carry no waker records; main-thread waits left unlinked: %zu",
			      (long long)version, nw);
	free(waits);
	free(wakes);
	free(match);
	return rc;
}

int bt_link_run(const struct bt_capture *cap, struct bt_db *db, struct bt_diag *diag,
		struct bt_err *err)
{
	int64_t main_tid, version;

	if (bt_db_meta_int(db, "version", 0, &version, err) || bt_db_main_tid(db, &main_tid, err))
		return err->code;
	return bt_link_range(cap, 0, cap->n, main_tid, version, db, diag, err);
}

void bt_link_notes_init(struct bt_link_notes *n)
{
	memset(n, 0, sizeof *n);
}

void bt_link_notes_release(struct bt_link_notes *n)
{
	int k;

	for (k = 0; k < BT_LINK_KINDS; k++)
		free(n->v[k]);
	bt_link_notes_init(n);
}

void bt_link_note(struct bt_link_notes *n, enum bt_link_kind kind, int64_t obj, int64_t tid, int64_t ts)
{
	struct bt_wake *w;

	BT_GROW(n->v[kind], n->n[kind] + 1, n->cap[kind]);
	w = &n->v[kind][n->n[kind]];
	w->sample_id = (int64_t)n->n[kind]++;   /* the order noted: of two at one time, the later ends the wait */
	w->tid = tid;
	w->key = obj;
	w->ts = ts;
	w->node_id = 0;
}

/* Columns of link_open_waits.sql. */
enum { W_ID, W_TID, W_KIND, W_OBJ, W_TS, W_DUR };

/* The waits and parks without a waker (link_open_waits.sql), in id order. */
static int open_waits(struct bt_db *db, struct bt_wait **out, size_t *n, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (bt_rows_open(&r, db, BT_SQL_LINK_OPEN_WAITS, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct bt_wait *w;
		const char *kind = bt_rows_text(r, W_KIND, NULL);
		BT_GROW(*out, *n + 1, cap);
		w = &(*out)[(*n)++];
		w->sample_id = bt_rows_int(r, W_ID);
		w->tid = bt_rows_int(r, W_TID);
		w->kind = kind && !strcmp(kind, "park") ? "park" : "wait";
		w->key = bt_rows_int(r, W_OBJ);
		w->ts = bt_rows_int(r, W_TS);
		w->end = w->ts + bt_rows_int(r, W_DUR);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_link_waits(struct bt_link_notes *n, struct bt_db *db, struct bt_err *err)
{
	struct bt_wait *all = NULL, *w;
	long *match = NULL;
	size_t nall, i, k, nw;
	int rc = BT_OK;

	if (!n->n[BT_LINK_NOTIFY] && !n->n[BT_LINK_UNPARK])
		return BT_OK;   /* nothing could end a wait */
	if (open_waits(db, &all, &nall, err))
		return err->code;
	w = bt_xmalloc((nall ? nall : 1) * sizeof *w);
	match = bt_xmalloc((nall ? nall : 1) * sizeof *match);
	for (k = 0; k < BT_LINK_KINDS && !rc; k++) {
		const char *kind = k == BT_LINK_NOTIFY ? "wait" : "park";
		for (i = nw = 0; i < nall; i++)
			if (!strcmp(all[i].kind, kind))
				w[nw++] = all[i];
		bt_link_match(w, nw, n->v[k], n->n[k], BT_LINK_WITHIN | BT_LINK_OTHER, match);
		for (i = 0; i < nw && !rc; i++)
			if (match[i] >= 0)
				rc = bt_db_exec(db, BT_SQL_LINK_SET_WAKER, err, "iii", w[i].sample_id,
						n->v[k][match[i]].tid, n->v[k][match[i]].ts);
	}
	free(all);
	free(w);
	free(match);
	return rc;
}
