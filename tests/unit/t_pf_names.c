/*
 * Unit tests of the Perfetto importer's markers (importers/perfetto/pf_names.c):
 * monitor contention with its owner and the method its owner locked in,
 * ART's lock contention, park and unpark.
 */
#include <stdio.h>
#include <string.h>

#include "importers/perfetto/pf_int.h"
#include "tests/tap.h"

static void contention_markers(void)
{
	static const struct {
		const char *name;
		enum pf_marker m;
		int64_t v;
		const char *owner, *method;   /* a monitor's NAME and the method its owner locked in */
	} c[] = {
		{ "monitor contention with owner Signal Catcher (3) at void a.B.c()(B.java:1) waiters=0 blocking from x",
		  PF_MONITOR, 3, "Signal Catcher", "void a.B.c()" },
		{ "monitor contention with owner t (4) at void a.B.put(java.lang.Object, int)(B.java:88) blocking from x",
		  PF_MONITOR, 4, "t", "void a.B.put(java.lang.Object, int)" },
		{ "monitor contention with owner t (5) at void a.B.c(int", PF_MONITOR, 5, "t", NULL },
		{ "monitor contention with owner t (6) at void a.B.c() waiters=0", PF_MONITOR, 6, "t", NULL },
		{ "monitor contention with owner t (7) at x)(B.java:1)", PF_MONITOR, 7, "t", NULL },
		{ "monitor contention with owner pool (x) (12) waiters=1 blocking from y", PF_MONITOR, 12, "pool (x)", NULL },
		{ "monitor contention with owner binder:1858_20 (182)", PF_MONITOR, 182, "binder:1858_20", NULL },
		{ "monitor contention with owner nobody", PF_PLAIN, 0, NULL, NULL },
		{ "Lock contention on a monitor lock (owner tid: 2053)", PF_LOCK, 2053, NULL, NULL },
		{ "Lock contention on a monitor lock (owner tid: 0)", PF_LOCK, 0, NULL, NULL },
		{ "Lock contention on thread list lock (owner tid: 5)", PF_MUTEX, 5, NULL, NULL },
		{ "Lock contention on thread list lock (owner tid: 0)", PF_MUTEX, 0, NULL, NULL },
		{ "Lock contention on mutator lock", PF_MUTEX, 0, NULL, NULL },
		{ "Lock contention on thread suspend count lock (owner tid: 7x)", PF_MUTEX, 0, NULL, NULL },
		{ "Lock contention on ", PF_PLAIN, 0, NULL, NULL },
		{ "Lock contention on a monitor lock", PF_PLAIN, 0, NULL, NULL },
		{ "Unsafe#park(obj:0x6bbcb2d, time:0)", PF_PARK, 0x6bbcb2d, NULL, NULL },
		{ "Unsafe#park(obj:0xb542a65, time:-807049215)", PF_PARK, 0xb542a65, NULL, NULL },
		{ "Unsafe#unpark(obj:0x3F4375C)", PF_UNPARK, 0x3f4375c, NULL, NULL },
		{ "Unsafe#park(obj:, time:0)", PF_PLAIN, 0, NULL, NULL },
		{ "Unsafe#unpark(thread)", PF_PLAIN, 0, NULL, NULL },
	};
	struct pf p;
	size_t i;

	memset(&p, 0, sizeof p);
	bt_strmap_init(&p.frame_of);
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		uint32_t id = pf_frame(&p, c[i].name, strlen(c[i].name));   /* before p.frames: it may move */
		const struct pf_frame *f = &p.frames[id - 1];
		char what[160];
		snprintf(what, sizeof what, "markers: '%.60s'", c[i].name);
		ok(f->marker == c[i].m && (c[i].m == PF_PLAIN || f->value == c[i].v) &&
		   (!c[i].owner || (f->iface_len == strlen(c[i].owner) &&
				    !memcmp(f->name + f->iface_off, c[i].owner, f->iface_len))) &&
		   (c[i].m != PF_MONITOR || f->has_method == (c[i].method != NULL)) &&
		   (!c[i].method || (f->method_len == strlen(c[i].method) &&
				     !memcmp(f->name + f->method_off, c[i].method, f->method_len))), what);
	}
	pf_release(&p);
}

int main(void)
{
	contention_markers();
	return done_testing();
}
