/*
 * Binder tracepoints of Perfetto's ftrace bundles (--process all), to the
 * common pairing (importers/binder_events.c).
 */
#include "importers/binder_events.h"
#include "importers/perfetto/pf_int.h"

#define TF_ONE_WAY 0x01

void pf_binder_ftrace(struct pf *p, const Perfetto__Protos__FtraceEvent *e)
{
	struct bt_bevent x = { 0 };

	if (!p->all || !(e->binder_transaction || e->binder_transaction_received) || !e->has_timestamp ||
	    !e->has_pid || e->timestamp >= (uint64_t)BT_MAX_TIME_NS)
		return;
	x.ts = (int64_t)e->timestamp;
	x.tid = e->pid;
	if (e->binder_transaction) {
		const Perfetto__Protos__BinderTransactionFtraceEvent *t = e->binder_transaction;
		x.debug_id = t->debug_id;
		x.to_thread = t->to_thread;
		x.reply = t->reply != 0;
		x.oneway = (t->flags & TF_ONE_WAY) != 0;
	} else {
		x.debug_id = e->binder_transaction_received->debug_id;
		x.received = 1;
	}
	bt_bevents_add(&p->binder, &x);
}
