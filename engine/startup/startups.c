/*
 * The app start's collectors of the threads that may be the main one
 * (startup.h): the one the database names, or, for a trace that learns
 * its main thread only after its slices, each candidate's; every slice
 * that ends goes to each one that takes it.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/startup/startup.h"

struct bt_startups {
	int64_t tid[BT_STARTUPS_MAX];
	struct bt_startup *st[BT_STARTUPS_MAX];   /* NULL: no frame marks a start */
	size_t n;
	int over;                                 /* more candidates than kept: none is stored */
	int exact;
};

struct bt_startups *bt_startups_new(void)
{
	return bt_xcalloc(1, sizeof(struct bt_startups));
}

void bt_startups_free(struct bt_startups *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		bt_startup_free(c->st[i]);
	free(c);
}

int bt_startups_from_db(struct bt_startups *c, struct bt_db *db, int64_t *tid, struct bt_err *err)
{
	struct bt_startup *st;

	*tid = -1;
	if (bt_startup_new(&st, db, err))
		return err->code;
	if (st && c->n < BT_STARTUPS_MAX) {
		c->tid[c->n] = *tid = bt_startup_tid(st);
		c->st[c->n++] = st;
	} else {
		bt_startup_free(st);
	}
	return BT_OK;
}

void bt_startups_candidate(struct bt_startups *c, int64_t tid, size_t n,
			   const char *(*name)(const void *ctx, size_t id), const void *ctx)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->tid[i] == tid)
			return;
	if (c->n == BT_STARTUPS_MAX) {
		c->over = 1;
		return;
	}
	c->tid[c->n] = tid;
	c->st[c->n++] = bt_startup_new_frames(tid, n, name, ctx);
}

void bt_startups_exact(struct bt_startups *c, int exact)
{
	c->exact = exact != 0;
}

void bt_startups_add(struct bt_startups *c, const struct bt_slice *s)
{
	struct bt_slice x;
	size_t i;

	if (s->cpu_unknown && (s->cpu_dur || s->self_cpu_dur)) {   /* as the stored slice gives it */
		x = *s;
		x.cpu_dur = x.self_cpu_dur = 0;
		s = &x;
	}
	for (i = 0; i < c->n; i++)
		if (c->st[i])
			bt_startup_add(c->st[i], s);   /* its thread's; another's only if a draw */
}

void bt_startups_message(struct bt_startups *c, int64_t tid, int64_t msg_id, int64_t ts, int64_t end)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->st[i])
			bt_startup_message(c->st[i], tid, msg_id, ts, end);
}

int bt_startups_store(struct bt_startups *c, int64_t main_tid, struct bt_db *db, struct bt_diag *diag,
		      struct bt_err *err)
{
	size_t i;
	int rc;

	if (c->over)
		return BT_OK;
	for (i = 0; i < c->n && c->tid[i] != main_tid; i++)
		;
	if (main_tid >= 0 && i == c->n)
		return BT_OK;
	if (main_tid >= 0 && c->st[i]) {
		bt_startup_exact(c->st[i], c->exact);
		if ((rc = bt_startup_store(c->st[i], db, diag, err)))
			return rc;
	}
	return bt_db_set_meta_int(db, "startup_modeled", 1, err);
}
