/*
 * Stacks of an iOS database (format spec §5, §7): the call-stack trie and
 * the image list are loaded, and a sample's stack_id is interned into our
 * frames and nodes (parents first, ids dense). A frame is named by the
 * --symbols map when it covers the address, else "image+0xoffset".
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "importers/ios/ios_int.h"
#include "importers/reader.h"

#define MAX_DEPTH 4096   /* deeper than any unwinder walks: a cycle */

void bt_ios_stacks_init(struct bt_ios_stacks *s, struct bt_db *db, struct bt_diag *diag,
			const char *path)
{
	memset(s, 0, sizeof *s);
	s->db = db;
	s->diag = diag;
	s->path = path;
	bt_map64_init(&s->trie, 256);
	bt_map64_init(&s->trie_node, 256);
	bt_map64_init(&s->node_id, 256);
	bt_strmap_init(&s->frame_of);
	bt_buf_init(&s->strs);
	bt_buf_init(&s->name);
}

void bt_ios_stacks_release(struct bt_ios_stacks *s)
{
	bt_map64_release(&s->trie);
	bt_map64_release(&s->trie_node);
	bt_map64_release(&s->node_id);
	bt_strmap_release(&s->frame_of);
	bt_buf_release(&s->strs);
	bt_buf_release(&s->name);
	free(s->entries);
	free(s->images);
	free(s->syms);
	free(s->depth);
}

static size_t add_str(struct bt_ios_stacks *s, const char *p, size_t len)
{
	size_t off = s->strs.len;

	bt_buf_add(&s->strs, p, len);
	bt_buf_addc(&s->strs, '\0');
	return off;
}

static int load_trie_blob(struct bt_ios_stacks *s, int64_t row, const unsigned char *p,
			  size_t len, struct bt_err *err)
{
	struct bt_reader r;
	size_t cap = s->nentries;

	if (len % 16)
		return bt_err_set(err, BT_EFORMAT,
				  "truncated blob in '%s' table 'CallStackTableModel' row %lld at byte offset %zu: %zu bytes is not a whole number of 16-byte nodes",
				  s->path, (long long)row, len / 16 * 16, len);
	bt_rd_init(&r, p, len, s->path);
	while (bt_rd_left(&r)) {
		struct bt_ios_node n;
		size_t at = r.off;
		n.id = bt_rd_u32(&r);
		n.parent = bt_rd_u32(&r);
		n.addr = bt_rd_u64(&r);
		if (!n.id || bt_map64_get(&s->trie, n.id)) {
			bt_diag_warn(s->diag, n.id ? "duplicate_stack_node" : "zero_stack_node",
				     "call-stack node %u in '%s' table 'CallStackTableModel' row %lld at byte offset %zu is %s; ignored",
				     n.id, s->path, (long long)row, at, n.id ? "a duplicate" : "id 0");
			continue;
		}
		n.row = (uint32_t)row;
		n.off = (uint32_t)at;
		BT_GROW(s->entries, s->nentries + 1, cap);
		s->entries[s->nentries++] = n;
		bt_map64_put(&s->trie, n.id, (uint32_t)s->nentries);
	}
	return BT_OK;
}

static int load_trie(struct bt_ios_stacks *s, struct bt_ios_ctx *c, struct bt_err *err)
{
	static const char *const cols[] = { "trace_id,nodes", NULL };
	sqlite3_stmt *st = NULL;
	int64_t row = 0;
	int rc, step = SQLITE_DONE;

	if (!bt_ios_has_table(c, "CallStackTableModel")) {
		bt_diag_warn(s->diag, "no_stack_table", "'%s' has no CallStackTableModel table; every stack is unresolved", s->path);
		return BT_OK;
	}
	rc = bt_ios_check_columns(c, "CallStackTableModel", cols, err);
	if (!rc)
		rc = bt_ios_prepare(c, "CallStackTableModel",
				    "SELECT nodes FROM CallStackTableModel WHERE trace_id=?1 ORDER BY rowid", &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = load_trie_blob(s, row++, sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0), err);
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, "CallStackTableModel", row, err);
	sqlite3_finalize(st);
	if (!rc)
		bt_ios_count_other_traces(c, "CallStackTableModel");
	return rc;
}

static int load_images(struct bt_ios_stacks *s, struct bt_ios_ctx *c, struct bt_err *err)
{
	static const char *const cols[] = { "trace_id,address,type,name", NULL };
	struct bt_buf path = BT_BUF_INIT;
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int64_t row = 0;
	int rc, step = SQLITE_DONE;

	if (!bt_ios_has_table(c, "ImageInfoModel")) {
		bt_diag_warn(s->diag, "no_image_table", "'%s' has no ImageInfoModel table; frames are shown as addresses", s->path);
		return BT_OK;
	}
	rc = bt_ios_check_columns(c, "ImageInfoModel", cols, err);
	if (!rc)
		rc = bt_ios_prepare(c, "ImageInfoModel", "SELECT address, name FROM ImageInfoModel "
				    "WHERE type=0 AND trace_id=?1 ORDER BY address", &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = "?", *slash;
		struct bt_ios_image *im;
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER) {
			bt_diag_warn(s->diag, "bad_row_value", "'%s' table 'ImageInfoModel' row %lld column 'address' is not an integer; row skipped",
				     s->path, (long long)row++);
			continue;
		}
		if (bt_ios_column_text(c, st, 1, "ImageInfoModel", row++, &path))
			name = path.buf;   /* NULL when dladdr failed (§5) */
		slash = strrchr(name, '/');
		if (slash && slash[1])
			name = slash + 1;
		BT_GROW(s->images, s->nimages + 1, cap);
		im = &s->images[s->nimages++];
		im->addr = (uint64_t)sqlite3_column_int64(st, 0);
		im->off = add_str(s, name, strlen(name));
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, "ImageInfoModel", row, err);
	sqlite3_finalize(st);
	bt_buf_release(&path);
	if (!rc)
		bt_ios_count_other_traces(c, "ImageInfoModel");
	return rc;
}

int bt_ios_stacks_load(struct bt_ios_stacks *s, struct bt_ios_ctx *c, struct bt_err *err)
{
	int rc = load_trie(s, c, err);

	return rc ? rc : load_images(s, c, err);
}

/* Index + 1 of the image holding addr (greatest load address <= addr, as
 * the reference reader does), or 0. */
static size_t image_of(const struct bt_ios_stacks *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nimages;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->images[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The symbol naming addr: an exact entry, or the nearest one below it in
 * the same image (a return address lies inside its function). */
static const struct bt_ios_sym *symbol_of(const struct bt_ios_stacks *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (s->syms[lo - 1].addr == addr || image_of(s, s->syms[lo - 1].addr) == image_of(s, addr))
		return &s->syms[lo - 1];
	return NULL;
}

static void frame_name(struct bt_ios_stacks *s, uint64_t addr)
{
	const struct bt_ios_sym *sym = symbol_of(s, addr);
	size_t im;

	bt_buf_reset(&s->name);
	if (sym) {
		bt_buf_adds(&s->name, s->strs.buf + sym->off);
		s->symbolized++;
		return;
	}
	im = image_of(s, addr);
	if (im) {
		bt_buf_addf(&s->name, "%s+0x%llx", s->strs.buf + s->images[im - 1].off,
			    (unsigned long long)(addr - s->images[im - 1].addr));
		return;
	}
	bt_buf_addf(&s->name, "0x%llx", (unsigned long long)addr);
	bt_diag_warn(s->diag, "address_outside_images", "frame address 0x%llx lies below every image of '%s'; shown as an address",
		     (unsigned long long)addr, s->path);
}

static int frame_of(struct bt_ios_stacks *s, uint64_t addr, uint32_t *out, struct bt_err *err)
{
	uint32_t id = bt_strmap_get(&s->frame_of, s->name.buf, s->name.len);

	if (!id) {
		id = ++s->nframes;
		bt_strmap_put(&s->frame_of, s->name.buf, s->name.len, id);
		if (bt_db_exec(s->db, BT_SQL_INSERT_FRAME, err, "iisnnnn", (int64_t)id, (int64_t)addr,
			       s->name.buf, s->name.len))
			return err->code;
	}
	*out = id;
	return BT_OK;
}

/* Our node for (parent, frame named in s->name). */
static int node_of(struct bt_ios_stacks *s, uint32_t parent, uint64_t addr, uint32_t *out,
		   struct bt_err *err)
{
	uint32_t frame = 0, id;
	uint64_t key;

	if (frame_of(s, addr, &frame, err))
		return err->code;
	key = (uint64_t)parent << 32 | frame;
	id = bt_map64_get(&s->node_id, key);
	if (!id) {
		id = ++s->nnodes;
		bt_map64_put(&s->node_id, key, id);
		s->depth = bt_grow_zero(s->depth, sizeof *s->depth, &s->depth_cap, id);
		s->depth[id] = parent ? s->depth[parent] + 1 : 0;
		if (bt_db_insert_node(s->db, id, parent, frame, s->depth[id], err))
			return err->code;
	}
	*out = id;
	return BT_OK;
}

/* A one-frame stack standing for what the trie cannot give. */
static int placeholder(struct bt_ios_stacks *s, const char *what, uint32_t *cache, uint32_t *out,
		       struct bt_err *err)
{
	if (!*cache) {
		bt_buf_reset(&s->name);
		bt_buf_adds(&s->name, what);
		if (node_of(s, 0, 0, cache, err))
			return err->code;
	}
	*out = *cache;
	return BT_OK;
}

int bt_ios_stack_node(struct bt_ios_stacks *s, uint32_t stack_id, uint32_t *out, struct bt_err *err)
{
	uint32_t path[MAX_DEPTH], id = stack_id, parent = 0, idx;
	size_t n = 0;

	if (!stack_id) {
		bt_diag_warn(s->diag, "empty_stack", "samples with no stack (stack_id 0) in '%s'; shown as '<no stack>'", s->path);
		return placeholder(s, "<no stack>", &s->nostack, out, err);
	}
	while (id && !(parent = bt_map64_get(&s->trie_node, id))) {
		idx = bt_map64_get(&s->trie, id);
		if (!idx) {
			if (!n) {
				bt_diag_warn(s->diag, "unknown_stack", "stack_id %u of a sample is not in the call-stack table of '%s'; shown as '<unresolved stack>'",
					     id, s->path);
				return placeholder(s, "<unresolved stack>", &s->unresolved, out, err);
			}
			bt_diag_warn(s->diag, "unknown_parent", "call-stack node %u of '%s' names parent %u, which is not in the table; the stack starts below it",
				     s->entries[path[n - 1]].id, s->path, id);
			break;
		}
		if (n == MAX_DEPTH)
			return bt_err_set(err, BT_EFORMAT,
					  "call stack deeper than %d (a cycle?) at node %u in '%s' table 'CallStackTableModel' row %u at byte offset %u",
					  MAX_DEPTH, id, s->path, s->entries[idx - 1].row, s->entries[idx - 1].off);
		path[n++] = idx - 1;
		id = s->entries[idx - 1].parent;
	}
	while (n--) {
		const struct bt_ios_node *e = &s->entries[path[n]];
		frame_name(s, e->addr);
		if (node_of(s, parent, e->addr, &parent, err))
			return err->code;
		bt_map64_put(&s->trie_node, e->id, parent);
	}
	*out = parent;
	return BT_OK;
}
