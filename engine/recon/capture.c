/*
 * Sample capture (see capture.h).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/recon/capture.h"

static void observe(void *ctx, const struct bt_sample *s)
{
	struct bt_capture *c = ctx;
	struct bt_csample *d;

	BT_GROW(c->s, c->n + 1, c->cap);
	d = &c->s[c->n++];
	if (s->id != (int64_t)c->n && !c->bad_at) {
		c->bad_id = s->id;
		c->bad_at = c->n;
	}
	d->tid = s->tid;
	d->ts = s->ts;
	d->cpu = s->cpu_ns;
	bt_cends_add(&c->ends, c->n - 1, s->end_ts, s->end_cpu_ns);
	d->alloc_objects = s->alloc_objects;
	d->alloc_bytes = s->alloc_bytes;
	d->majflt = (uint32_t)s->majflt;
	d->nvcsw = (uint32_t)s->nvcsw;
	d->nivcsw = (uint32_t)s->nivcsw;
	d->node_id = (uint32_t)s->node_id;
	d->msg_id = (uint32_t)s->msg_id;
	d->type = (int32_t)s->type;
}

/* Nodes come with dense increasing ids; index 0 stays the empty stack. */
static void observe_node(void *ctx, int64_t id, int64_t parent_id, int64_t frame_id)
{
	struct bt_capture *c = ctx;
	size_t i = (size_t)id, old = c->ncap;

	if (id <= 0 || id > UINT32_MAX)
		return;
	if (i >= c->ncap) {
		BT_GROW(c->parent, i + 1, c->ncap);
		c->frame = bt_xrealloc(c->frame, c->ncap * sizeof *c->frame);
		memset(c->parent + old, 0, (c->ncap - old) * sizeof *c->parent);
		memset(c->frame + old, 0, (c->ncap - old) * sizeof *c->frame);
	}
	c->parent[i] = (uint32_t)parent_id;
	c->frame[i] = (uint32_t)frame_id;
	if (i > c->nnodes)
		c->nnodes = i;
}

void bt_capture_begin(struct bt_capture *c, struct bt_db *db)
{
	struct bt_observer o = { observe, observe_node, c };

	memset(c, 0, sizeof *c);
	c->db = db;
	bt_db_observe(db, &o);
}

void bt_capture_release(struct bt_capture *c)
{
	if (c->db)
		bt_db_observe(c->db, NULL);
	free(c->s);
	bt_cends_release(&c->ends);
	free(c->parent);
	free(c->frame);
	memset(c, 0, sizeof *c);
}
