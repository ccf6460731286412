/*
 * The Perfetto importer's hand decoder (importers/perfetto/pf_wire.c)
 * against protobuf-c on one TracePacket's bytes: whenever the decoder
 * accepts a packet, protobuf-c must accept it too and decode the same
 * values (both packed again by protobuf-c, protobuf-c's unknown fields
 * left out, must be the same bytes). Used by t_pf_wire and the Perfetto
 * fuzz target. Included by one program each (its functions are static).
 */
#ifndef BT_PF_WIRE_DIFF_H
#define BT_PF_WIRE_DIFF_H

#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"

/* Forget the unknown fields protobuf-c kept (the decoder skips them). */
static void pf_wire_diff_strip(ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	unsigned i;

	m->n_unknown_fields = 0;
	for (i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		char *at = (char *)m + f->offset;
		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(size_t *)((char *)m + f->quantifier_offset), j;
			ProtobufCMessage **v = *(ProtobufCMessage ***)at;
			for (j = 0; j < n; j++)
				pf_wire_diff_strip(v[j]);
		} else if (*(ProtobufCMessage **)at) {
			pf_wire_diff_strip(*(ProtobufCMessage **)at);
		}
	}
}

/* The two decodings' memory (the decoder's, protobuf-c's), kept from
 * packet to packet and taken again from its start, as the importer keeps
 * its arena (pf_arena_back): a fresh 1 MiB block each packet cost the ASan
 * build five minutes of mapping and unmapping over t_pf_wire's 120k. */
static struct pf_arena pf_wire_diff_mem[2];

static void pf_wire_diff_rewind(void)
{
	pf_arena_back(&pf_wire_diff_mem[0], 0, 0);
	pf_arena_back(&pf_wire_diff_mem[1], 0, 0);
}

static inline void pf_wire_diff_release(void)
{
	pf_arena_release(&pf_wire_diff_mem[0]);
	pf_arena_release(&pf_wire_diff_mem[1]);
}

static void *pf_wire_diff_alloc(void *ctx, size_t n)
{
	return pf_arena_alloc(ctx, n);
}

static void pf_wire_diff_free(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

/* -1 the decoder declined the packet, 1 it accepted it alike, 0 it
 * accepted it and protobuf-c did not, or decoded other values. */
static int pf_wire_diff(const uint8_t *data, size_t len)
{
	ProtobufCAllocator al = { pf_wire_diff_alloc, pf_wire_diff_free, &pf_wire_diff_mem[1] };
	Perfetto__Protos__TracePacket *a = NULL, *b;
	int rc = -1;

	pf_wire_diff_rewind();
	if (pf_wire_packet(&pf_wire_diff_mem[0], data, len, &a)) {
		b = perfetto__protos__trace_packet__unpack(&al, len, data);
		rc = 0;
		if (b) {
			size_t na = protobuf_c_message_get_packed_size(&a->base), nb;
			uint8_t *pa = bt_xmalloc(na + 1), *pb;
			pf_wire_diff_strip(&b->base);
			nb = protobuf_c_message_get_packed_size(&b->base);
			pb = bt_xmalloc(nb + 1);
			rc = protobuf_c_message_pack(&a->base, pa) == na && protobuf_c_message_pack(&b->base, pb) == nb &&
			     na == nb && !memcmp(pa, pb, na);
			free(pa);
			free(pb);
		}
	}
	return rc;
}

#endif
