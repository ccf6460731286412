/*
 * Sample capture (see capture.h).
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "capture.h"
#include "rtype.h"

static void observe(void *ctx, const struct bt_sample *s)
{
	struct bt_capture *c = ctx;
	struct bt_csample *d;

	if (!c->all && !bt_rtype_is_wait(s->type) && !bt_rtype_is_waker(s->type))
		return;
	BT_GROW(c->s, c->n + 1, c->cap);
	d = &c->s[c->n++];
	d->id = s->id;
	d->tid = s->tid;
	d->ts = s->ts;
	d->end_ts = s->end_ts;
	d->cpu = s->cpu_ns;
	d->end_cpu = s->end_cpu_ns;
	d->alloc_objects = s->alloc_objects;
	d->alloc_bytes = s->alloc_bytes;
	d->majflt = s->majflt;
	d->nvcsw = s->nvcsw;
	d->nivcsw = s->nivcsw;
	d->node_id = (uint32_t)s->node_id;
	d->msg_id = (uint32_t)s->msg_id;
	d->type = (int32_t)s->type;
}

void bt_capture_begin(struct bt_capture *c, struct bt_db *db, int all)
{
	memset(c, 0, sizeof *c);
	c->db = db;
	c->all = all;
	bt_db_observe_samples(db, observe, c);
}

void bt_capture_release(struct bt_capture *c)
{
	if (c->db)
		bt_db_observe_samples(c->db, NULL, NULL);
	free(c->s);
	memset(c, 0, sizeof *c);
}
