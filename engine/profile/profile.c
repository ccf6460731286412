/*
 * Profile accumulation (see profile.h): paths are interned as slices
 * begin, and each slice's values go to its path when it ends: its own
 * minus its children's, so a path holds self values whatever order the
 * slices end in. Looper messages keep per-frame sums while they run; the
 * longest ones keep their top methods.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/profile/profile_int.h"
#include "engine/db/rtype.h"

const char *const bt_block_kind_name[BT_BLOCK__COUNT] = {
	"monitor", "wait", "park", "gc", "binder", "loadlibrary", "lock"
};

int bt_block_kind_named(const char *name)
{
	int k;

	for (k = 0; name && k < BT_BLOCK__COUNT; k++)
		if (!strcmp(name, bt_block_kind_name[k]))
			return k;
	return -1;
}

int bt_block_kind_of(int64_t type)
{
	switch (type) {
	case 8: return BT_BLOCK_MONITOR;
	case 6: return BT_BLOCK_WAIT;
	case 7: return BT_BLOCK_PARK;
	case 11: return BT_BLOCK_GC;
	case 2: return BT_BLOCK_BINDER;
	case 20: return BT_BLOCK_LOADLIBRARY;
	case 12: return BT_BLOCK_LOCK;
	case BT_RTYPE_IOS_LOCK_WAIT: return BT_BLOCK_LOCK;
	default: return -1;
	}
}

struct bt_profile *bt_profile_new(void)
{
	struct bt_profile *p = bt_xcalloc(1, sizeof *p);

	p->npaths = 1;   /* path 0 means "none" */
	p->cap = 4096;
	p->paths = bt_xcalloc(p->cap, sizeof *p->paths);
	bt_map64_init(&p->child_of, 16);
	return p;
}

void bt_profile_free(struct bt_profile *p)
{
	if (!p)
		return;
	free(p->paths);
	free(p->rows);
	bt_map64_release(&p->child_of);
	free(p->tids);
	free(p->span);
	free(p->roots);
	free(p->node_path);
	free(p->open);
	free(p->blocks);
	free(p->msg.v);
	free(p->msg.open);
	free(p->msg.touched);
	free(p->msg.listed);
	free(p->kept);
	free(p->win);
	free(p->nmsgs);
	free(p->bsum);
	free(p->btouched);
	free(p->incl);
	bt_wide_release(&p->wide);
	free(p->ent);
	bt_wide_release(&p->ewide);
	free(p->oe);
	free(p->oebase);
	free(p->links);
	free(p->efirst);
	free(p);
}

void bt_profile_keep_entries(struct bt_profile *p)
{
	p->keep_entries = 1;
}

static uint32_t new_path(struct bt_profile *p, uint32_t parent, uint32_t frame, uint32_t thread,
			 int depth)
{
	struct path *x;

	BT_GROW(p->paths, p->npaths + 1, p->cap);
	x = &p->paths[p->npaths];
	memset(x, 0, sizeof *x);
	x->parent = parent;
	x->frame = frame;
	x->thread = thread;
	x->depth = (int16_t)depth;
	BT_GROW(p->links, p->npaths - p->root + 1, p->lcap);
	p->links[p->npaths - p->root] = (struct path_links){ 0, 0 };
	return p->npaths++;
}

uint32_t bt_profile_thread(struct bt_profile *p, int64_t tid)
{
	size_t cap = p->tcap;

	BT_GROW(p->tids, p->nthreads + 1, p->tcap);
	if (p->tcap != cap || !p->roots) {   /* grown with tids: not at every thread (a realloc may copy) */
		p->roots = bt_xrealloc(p->roots, p->tcap * sizeof *p->roots);
		p->span = bt_xrealloc(p->span, p->tcap * sizeof *p->span);
		p->efirst = bt_xrealloc(p->efirst, p->tcap * sizeof *p->efirst);
		p->nmsgs = bt_xrealloc(p->nmsgs, p->tcap * sizeof *p->nmsgs);
	}
	p->nmsgs[p->nthreads] = 0;
	p->span[p->nthreads][0] = p->span[p->nthreads][1] = -1;
	p->span[p->nthreads][2] = 0;
	p->efirst[p->nthreads] = p->nent;
	p->tids[p->nthreads] = tid;
	p->roots[p->nthreads] = p->root = p->npaths;
	p->oeused = 0;   /* the open entries are the thread's */
	p->kept_from = p->nkept;
	bt_map64_release(&p->child_of);   /* a thread's paths are its own */
	bt_map64_init(&p->child_of, 16);
	p->bucket = 0;
	return new_path(p, 0, 0, p->nthreads++, -1);
}

int bt_profile_thread_paths(const struct bt_profile *p, int64_t tid, uint32_t *first, uint32_t *end)
{
	uint32_t t;

	for (t = 0; t < p->nthreads; t++) {
		if (p->tids[t] != tid)
			continue;
		*first = p->roots[t];
		*end = t + 1 < p->nthreads ? p->roots[t + 1] : p->npaths;
		return 1;
	}
	return 0;
}

/* Per-frame message sums are indexed by frame id. */
static void msg_frames(struct cur_msg *m, uint32_t frame)
{
	m->v = bt_grow_zero(m->v, 4 * sizeof *m->v, &m->nframes, frame);
	m->open = bt_grow_zero(m->open, sizeof *m->open, &m->ocap, frame);
	m->listed = bt_grow_zero(m->listed, 1, &m->lcap, frame);
}

/* The parent's children into the thread's map, once: from then on its
 * new children go there as they are made. */
static void map_children(struct bt_profile *p, uint32_t parent)
{
	uint32_t id;

	p->paths[parent].mapped = 1;
	for (id = p->links[parent - p->root].child; id; id = p->links[id - p->root].sibling)
		bt_map64_put(&p->child_of, (uint64_t)parent << 32 | p->paths[id].frame, id);
}

/* The path of (parent, frame): a stack node always leads to the same
 * path within a thread, so most lookups skip the walk of the parent's
 * children (usually a new path's first encounter anyway). A walk of more
 * than WALK children asks the thread's map instead, which holds the
 * children of every parent that had that many (most have a few: a map of
 * every path cost a tenth of the profile's memory and its inserts). */
#define WALK 8
static uint32_t intern(struct bt_profile *p, uint32_t parent, uint32_t frame, uint32_t node, int idle)
{
	uint64_t key = (uint64_t)parent << 32 | frame;
	uint32_t id;
	struct path *x;
	int k = 0;

	if (node && node < p->nnodes && p->node_path[node] > p->root)
		return p->node_path[node];
	for (id = p->links[parent - p->root].child; id && p->paths[id].frame != frame && k < WALK;
	     id = p->links[id - p->root].sibling)
		k++;
	if (id && p->paths[id].frame != frame) {
		if (!p->paths[parent].mapped)
			map_children(p, parent);
		id = bt_map64_get(&p->child_of, key);
	}
	if (!id) {
		id = new_path(p, parent, frame, p->paths[parent].thread, p->paths[parent].depth + 1);
		x = &p->paths[id];
		x->nested = p->open[frame] > 0;
		x->idle = idle != 0;
		p->links[id - p->root].sibling = p->links[parent - p->root].child;
		p->links[parent - p->root].child = id;
		if (p->paths[parent].mapped)
			bt_map64_put(&p->child_of, key, id);
	}
	if (node) {
		p->node_path = bt_grow_zero(p->node_path, sizeof *p->node_path, &p->nnodes, node);
		p->node_path[node] = id;
	}
	return id;
}

/* The values an entry takes from its path's totals (the path's self
 * values, in entries' order). */
static const int entry_value[BT_SV__COUNT] = { V_WALL, V_CPU, V_ABYTES, V_AOBJS, V_MAJFLT, V_IDLE };

/* A path's open entry and its totals when it began are kept aside for
 * the thread being made (oe, by id - root: a run without entries has
 * none); when the next entry begins (or the thread ends) the entry gets
 * the totals then minus those, what its slices added: a path's slices
 * never nest, so they all ended by then. No slice has to find its entry
 * (a cache miss each), and an entry holds only its final values, small
 * ones in narrow slots. */
static void close_entry(struct bt_profile *p, uint32_t id)
{
	const struct path *x = &p->paths[id];
	struct bt_stacks_entry *e = &p->ent[p->oe[id - p->root].entry - 1];
	const int64_t *base = p->oebase[id - p->root];
	int k;

	for (k = 0; k < BT_SV__COUNT; k++)
		bt_narrow_set(&p->ewide, &e->v[k], bt_sat_add(-base[k], pv(p, x->self[entry_value[k]])));
}

/* The entry of path id for a slice in message msg: the path's last one
 * while the message is the same, else a new one. Slices reach here in
 * preorder, so entries come in order of first appearance. */
static void enter_entry(struct bt_profile *p, uint32_t id, int64_t msg)
{
	const struct path *x = &p->paths[id];
	uint32_t key = msg >= 0 && msg < UINT32_MAX ? (uint32_t)msg : UINT32_MAX, at = id - p->root;
	struct open_entry *o;
	int k;

	if (at >= p->oeused) {   /* a path new to the thread: no entry yet */
		BT_GROW(p->oe, at + 1, p->oecap);
		BT_GROW(p->oebase, at + 1, p->obcap);
		memset(&p->oe[p->oeused], 0, (at + 1 - p->oeused) * sizeof *p->oe);
		p->oeused = at + 1;
	}
	o = &p->oe[at];
	/* the message is compared here, the entry seldom read */
	if (o->entry && o->msg == key && (key != UINT32_MAX || p->ent[o->entry - 1].msg == msg))
		return;
	if (o->entry)
		close_entry(p, id);
	o->msg = key;
	BT_GROW(p->ent, p->nent + 1, p->ecap);
	memset(&p->ent[p->nent], 0, sizeof p->ent[0]);
	p->ent[p->nent].path = id;
	p->ent[p->nent].msg = msg;
	for (k = 0; k < BT_SV__COUNT; k++)
		p->oebase[at][k] = pv(p, x->self[entry_value[k]]);
	o->entry = (uint32_t)++p->nent;
}

uint32_t bt_profile_enter(struct bt_profile *p, uint32_t parent, uint32_t frame, uint32_t node,
			  int in_msg, int64_t msg, int idle)
{
	uint32_t id;

	if (frame >= p->nframes)   /* checked here: this runs for every slice */
		p->open = bt_grow_zero(p->open, sizeof *p->open, &p->nframes, frame);
	id = intern(p, parent, frame, node, idle);
	p->open[frame]++;
	if (p->keep_entries)
		enter_entry(p, id, msg);
#if defined(__GNUC__)
	__builtin_prefetch(&p->paths[id], 1);   /* bt_profile_leave writes it */
#endif
	if (in_msg) {
		if (frame >= p->msg.nframes || frame >= p->msg.ocap || frame >= p->msg.lcap)
			msg_frames(&p->msg, frame);
		p->msg.open[frame]++;
	}
	return id;
}

/* Keep the current message if it is among the thread's longest, with
 * its top methods by self time. */
static void keep_message(struct bt_profile *p)
{
	struct cur_msg *m = &p->msg;
	struct kept_msg *k = NULL;
	int64_t dur = m->end - m->ts;
	int full = p->nkept - p->kept_from >= MSG_KEEP;
	size_t i, slot = full ? p->kept_min : p->nkept;
	int j, n = 0;

	if (full && p->kept[slot].dur >= dur)
		return;   /* most messages: not among the longest */
	if (!full) {
		BT_GROW(p->kept, p->nkept + 1, p->kcap);
		p->nkept++;
	}
	k = &p->kept[slot];
	k->tid = p->tids[p->nthreads - 1];
	k->msg_id = m->id;
	k->ts = m->ts;
	k->dur = dur;
	for (i = 0; i < m->ntouched; i++) {
		uint32_t f = m->touched[i];
		const int64_t *v = &m->v[(size_t)f * 4];
		if (v[0] <= 0 || (n == MSG_TOP_METHODS && v[0] <= k->m[n - 1].self_ns))
			continue;
		if (n < MSG_TOP_METHODS)
			n++;
		for (j = n - 1; j > 0 && k->m[j - 1].self_ns < v[0]; j--)
			k->m[j] = k->m[j - 1];
		k->m[j].frame = f;
		k->m[j].self_ns = v[0];
		k->m[j].self_cpu = v[1];
		k->m[j].incl_ns = v[2];
		k->m[j].incl_cpu = v[3];
	}
	k->n = n;
	if (p->nkept - p->kept_from < MSG_KEEP)
		return;
	for (i = p->kept_from, slot = p->kept_from; i < p->nkept; i++)   /* changed: the least again */
		if (p->kept[i].dur < p->kept[slot].dur)
			slot = i;
	p->kept_min = slot;
}

/* The current bucket's sums to win, cleared for the next. */
static void end_bucket(struct bt_profile *p)
{
	size_t i;

	BT_GROW(p->win, p->nwin + p->nbtouched + 1, p->wcap);
	for (i = 0; i < p->nbtouched; i++) {
		uint32_t frame = p->btouched[i];
		int64_t *s = &p->bsum[(size_t)frame * 2];
		p->win[p->nwin++] = (struct win_method){ p->tids[p->nthreads - 1], frame, p->bucket, s[0], s[1] };
		s[0] = s[1] = 0;
	}
	p->nbtouched = 0;
}

/* The message's methods' self time added to its bucket (win_method). */
static void window_sums(struct bt_profile *p)
{
	struct cur_msg *m = &p->msg;
	int64_t n = p->nmsgs[p->nthreads - 1]++;
	uint32_t bucket = bt_bit_length((uint64_t)n);   /* the smallest b with n >> b == 0 */
	size_t i;

	if (bucket > 63)
		bucket = 63;
	if (bucket != p->bucket) {
		end_bucket(p);
		p->bucket = bucket;
	}
	for (i = 0; i < m->ntouched; i++) {
		uint32_t frame = m->touched[i];
		const int64_t *v = &m->v[(size_t)frame * 4];
		int64_t *s;
		if (!v[0] && !v[1])
			continue;   /* inclusive time only */
		p->bsum = bt_grow_zero(p->bsum, 2 * sizeof *p->bsum, &p->bscap, frame);
		s = &p->bsum[(size_t)frame * 2];
		if (!s[0] && !s[1]) {
			BT_GROW(p->btouched, p->nbtouched + 1, p->btcap);
			p->btouched[p->nbtouched++] = frame;
		}
		s[0] = bt_sat_add(s[0], v[0]);
		s[1] = bt_sat_add(s[1], v[1]);
	}
}

static void end_message(struct bt_profile *p)
{
	struct cur_msg *m = &p->msg;
	size_t i;

	if (m->id) {
		keep_message(p);
		window_sums(p);
	}
	for (i = 0; i < m->ntouched; i++)
		memset(&m->v[(size_t)m->touched[i] * 4], 0, 4 * sizeof *m->v), m->listed[m->touched[i]] = 0;
	m->ntouched = 0;
	m->id = 0;
}

static void add_to_message(struct bt_profile *p, uint32_t frame, const struct bt_slice *s, int msg_root)
{
	struct cur_msg *m = &p->msg;
	int64_t *v = &m->v[(size_t)frame * 4];

	if (s->msg_id != m->id) {
		end_message(p);
		m->id = s->msg_id;
		m->ts = s->ts;
		m->end = s->ts + s->dur;
	}
	if (msg_root) {
		if (s->ts < m->ts)
			m->ts = s->ts;
		if (s->ts + s->dur > m->end)
			m->end = s->ts + s->dur;
	}
	if (!m->listed[frame]) {   /* once: its first slice may add nothing (a recursive frame's inner one) */
		m->listed[frame] = 1;
		BT_GROW(m->touched, m->ntouched + 1, m->tcap);
		m->touched[m->ntouched++] = frame;
	}
	v[0] = bt_sat_add(v[0], s->self_dur);
	v[1] = bt_sat_add(v[1], s->self_cpu_dur);
	if (--m->open[frame] == 0) {   /* outermost activation in the message */
		v[2] = bt_sat_add(v[2], s->dur);
		v[3] = bt_sat_add(v[3], s->cpu_dur);
	}
}

void bt_profile_leave(struct bt_profile *p, uint32_t path, const struct bt_slice *s,
		      const int64_t self[BT_PROFILE_NCTR], int in_msg, int msg_root)
{
	struct path *x = &p->paths[path];
	int64_t idle;
	int k;

	p->open[x->frame]--;
	p->span[x->thread][2]++;
	if (s->cpu_unknown)
		p->paths[p->roots[x->thread]].nocpu = 1;
	idle = x->idle ? bt_slice_idle_part(s) : 0;
	pv_add(p, &x->self[V_WALL], s->self_dur - idle);
	pv_add(p, &x->self[V_CPU], s->self_cpu_dur);
	if (idle)
		pv_add(p, &x->self[V_IDLE], idle);
	_Static_assert(BT_PROFILE_NCTR == 5, "the counters named one by one below");
	if (self[0] | self[1] | self[2] | self[3] | self[4])   /* most slices of a trace without counters: none */
		for (k = 0; k < BT_PROFILE_NCTR; k++)
			pv_add(p, &x->self[V_ABYTES + k], self[k]);
	if (in_msg) {
		if (s->msg_id)
			add_to_message(p, x->frame, s, msg_root);
		else
			p->msg.open[x->frame]--;
	}
}

/* A record's blocked time where the thread waits for work (an idle path:
 * a daemon's ReferenceQueue.remove in Object.wait) is that wait, idle
 * time, which the path's own off-CPU time already counts: not blocked. */
void bt_profile_blocked(struct bt_profile *p, uint32_t path, int64_t dur)
{
	if (dur > 0 && path && !p->paths[path].idle)
		pv_add(p, &p->paths[path].self[V_BLOCK], dur);
}

void bt_profile_block(struct bt_profile *p, uint32_t path, int64_t type, int64_t dur)
{
	bt_profile_blocked(p, path, dur);
	bt_profile_block_record(p, path, type, dur);
}

void bt_profile_block_record(struct bt_profile *p, uint32_t path, int64_t type, int64_t dur)
{
	int kind = bt_block_kind_of(type);
	struct block_event *e;

	if (dur <= 0 || !path || kind < 0 || p->paths[path].idle)
		return;   /* of no known kind: its blocked time is in the totals only; or idle */
	BT_GROW(p->blocks, p->nblocks + 1, p->bcap);
	e = &p->blocks[p->nblocks++];
	e->path = path;
	e->kind = kind;
	e->dur = dur;
}

void bt_profile_thread_span(struct bt_profile *p, int64_t wall, int64_t cpu)
{
	if (p->nthreads) {
		p->span[p->nthreads - 1][0] = wall;
		p->span[p->nthreads - 1][1] = cpu;
	}
}

void bt_profile_thread_end(struct bt_profile *p)
{
	uint32_t id;

	end_message(p);
	end_bucket(p);
	for (id = p->root + 1; id - p->root < p->oeused; id++) {   /* the thread's paths with entries */
#if defined(__GNUC__)
		if (id + 8 - p->root < p->oeused && p->oe[id + 8 - p->root].entry)   /* their entries are far apart */
			__builtin_prefetch(&p->ent[p->oe[id + 8 - p->root].entry - 1], 1);
#endif
		if (p->oe[id - p->root].entry)
			close_entry(p, id);
	}
	p->oeused = 0;
}

uint32_t bt_profile_npaths(const struct bt_profile *p)
{
	return p->npaths - 1;
}

/* The next thread (in ascending tid order) among two profiles' threads,
 * each list already ascending; returns the profile's index or -1. */
static int next_thread(struct bt_profile *const src[2], const uint32_t ti[2])
{
	int have0 = ti[0] < src[0]->nthreads, have1 = ti[1] < src[1]->nthreads;

	if (have0 && have1)
		return src[0]->tids[ti[0]] <= src[1]->tids[ti[1]] ? 0 : 1;
	return have0 ? 0 : have1 ? 1 : -1;
}

struct span { int w; uint32_t old, first, end, base; };   /* a thread's paths, moved */

/* The entries of a's and b's threads in the merged order, in a's array as
 * the paths are: a's only move up (last first), b's fill the gaps; each
 * thread's paths renumbered as sp says. */
static void merge_entries(struct bt_profile *a, struct bt_profile *b, const struct span *sp, uint32_t nt)
{
	struct bt_profile *const src[2] = { a, b };
	size_t *first = bt_xcalloc(nt + 1, sizeof *first), *from = bt_xcalloc(nt + 1, sizeof *from);
	size_t n = 0, t, i, len, eoff = bt_wide_append(&a->ewide, &b->ewide);

	for (t = 0; t < nt; t++) {   /* where each thread's entries go */
		const struct bt_profile *p = src[sp[t].w];
		size_t end = sp[t].old + 1 < p->nthreads ? p->efirst[sp[t].old + 1] : p->nent;
		from[t] = p->efirst[sp[t].old];
		first[t] = n;
		n += end - from[t];
	}
	first[nt] = n;
	if (n + 1 > a->ecap) {   /* exactly: doubling the largest array of an export's run left a third unused */
		a->ent = bt_xrealloc(a->ent, (n + 1) * sizeof *a->ent);
		a->ecap = n + 1;
	}
	for (t = nt; t-- > 0;)
		if (sp[t].w == 0) {
			len = first[t + 1] - first[t];
			memmove(&a->ent[first[t]], &a->ent[from[t]], len * sizeof *a->ent);
		}
	for (t = 0; t < nt; t++) {
		len = first[t + 1] - first[t];
		if (sp[t].w == 1)
			memcpy(&a->ent[first[t]], &b->ent[from[t]], len * sizeof *a->ent);
		for (i = first[t]; i < first[t + 1]; i++) {
			a->ent[i].path = a->ent[i].path - sp[t].first + sp[t].base;
			if (sp[t].w == 1)
				bt_narrow_rebase(a->ent[i].v, BT_SV__COUNT, eoff);
		}
	}
	a->nent = n;
	free(a->efirst);
	a->efirst = bt_xrealloc(first, (nt + 1) * sizeof *first);
	free(from);
}

/* b's windows after a's (the store sorts them), and each thread's count
 * of messages in the merged order of threads (sp: where each came from). */
static void merge_windows(struct bt_profile *a, struct bt_profile *b, const struct span *sp, uint32_t nt)
{
	int64_t *n = bt_xcalloc(nt + 1, sizeof *n);
	const struct bt_profile *const src[2] = { a, b };
	uint32_t t;

	BT_GROW(a->win, a->nwin + b->nwin + 1, a->wcap);
	if (b->nwin)
		memcpy(a->win + a->nwin, b->win, b->nwin * sizeof *b->win);
	a->nwin += b->nwin;
	for (t = 0; t < nt; t++)
		n[t] = src[sp[t].w]->nmsgs[sp[t].old];
	free(a->nmsgs);
	a->nmsgs = n;
}

void bt_profile_merge(struct bt_profile *a, struct bt_profile *b)
{
	struct bt_profile *const src[2] = { a, b };
	uint32_t ti[2] = { 0, 0 }, nt = a->nthreads + b->nthreads, t, i, n = 1;
	size_t bi[2] = { 0, 0 }, ki[2] = { 0, 0 }, nb = 0, nk = 0;
	size_t bcap = a->nblocks + b->nblocks + 1, kcap = a->nkept + b->nkept + 1;
	size_t woff;
	struct span *sp = bt_xcalloc(nt + 1, sizeof *sp);
	int64_t *tids = bt_xcalloc(nt + 1, sizeof *tids);
	int64_t (*span)[3] = bt_xcalloc(nt + 1, sizeof *span);
	uint32_t *roots = bt_xcalloc(nt + 1, sizeof *roots);
	struct block_event *blocks = bt_xcalloc(bcap, sizeof *blocks);
	struct kept_msg *kept = bt_xcalloc(kcap, sizeof *kept);
	int w;

	/* Each profile made its threads one after the other, so a thread's
	 * paths, blocks and kept messages are contiguous there: the merged
	 * profile takes them thread by thread in tid order. */
	for (t = 0; (w = next_thread(src, ti)) >= 0; t++) {
		struct bt_profile *p = src[w];
		struct span *x = &sp[t];

		x->w = w;
		x->old = ti[w]++;
		x->first = p->roots[x->old];
		x->end = x->old + 1 < p->nthreads ? p->roots[x->old + 1] : p->npaths;
		x->base = n;
		n += x->end - x->first;
		tids[t] = p->tids[x->old];
		memcpy(span[t], p->span[x->old], sizeof span[t]);
		roots[t] = x->base;
		for (; bi[w] < p->nblocks && p->paths[p->blocks[bi[w]].path].thread == x->old; bi[w]++) {
			blocks[nb] = p->blocks[bi[w]];
			blocks[nb++].path = p->blocks[bi[w]].path - x->first + x->base;
		}
		for (; ki[w] < p->nkept && p->kept[ki[w]].tid == tids[t]; ki[w]++)
			kept[nk++] = p->kept[ki[w]];
	}
	/* Paths in place in a (no second copy of the largest array): a's
	 * threads only move up, so last first; then b's fill the gaps, last
	 * first too, b's array given back behind each (both whole at once
	 * held a third more than the merged profile). */
	if (n > a->cap) {   /* exactly, as the entries */
		a->paths = bt_xrealloc(a->paths, (size_t)n * sizeof *a->paths);
		a->cap = n;
	}
	for (t = nt; t-- > 0;)
		if (sp[t].w == 0)
			memmove(&a->paths[sp[t].base], &a->paths[sp[t].first],
				(sp[t].end - sp[t].first) * sizeof *a->paths);
	for (t = nt; t-- > 0;)
		if (sp[t].w == 1) {
			memcpy(&a->paths[sp[t].base], &b->paths[sp[t].first],
			       (sp[t].end - sp[t].first) * sizeof *a->paths);
			b->paths = bt_xrealloc(b->paths, ((size_t)sp[t].first + 1) * sizeof *b->paths);
			b->cap = (size_t)sp[t].first + 1;
		}
	woff = bt_wide_append(&a->wide, &b->wide);
	for (t = 0; t < nt; t++) {
		for (i = sp[t].base; i < sp[t].base + (sp[t].end - sp[t].first); i++) {
			struct path *x = &a->paths[i];
			if (sp[t].w == 1)
				bt_narrow_rebase(x->self, NV, woff);
			x->thread = t;
			x->parent = x->parent ? x->parent - sp[t].first + sp[t].base : 0;
		}
	}
	if (a->keep_entries) {
		merge_entries(a, b, sp, nt);
	} else {
		free(a->efirst);
		a->efirst = bt_xcalloc(nt + 1, sizeof *a->efirst);
	}
	merge_windows(a, b, sp, nt);
	free(sp);
	free(a->tids);
	free(a->span);
	free(a->roots);
	free(a->blocks);
	free(a->kept);
	a->npaths = n;
	a->tids = tids;
	a->span = span;
	a->roots = roots;
	a->nthreads = nt;
	a->tcap = nt + 1;
	a->blocks = blocks;
	a->nblocks = nb;
	a->bcap = bcap;
	a->kept = kept;
	a->nkept = nk;
	a->kcap = kcap;
	bt_profile_free(b);
}
