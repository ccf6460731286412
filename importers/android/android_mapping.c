/*
 * Decoding of the Android sampling-mapping file (format spec §6): method
 * entries then thread-name entries up to EOF. Exact bounds replace the
 * upstream reader's "> 12 bytes left" test (quirk Q-3). A file cut inside
 * an entry keeps the entries before it (m->cut says where).
 */
#include <stdlib.h>
#include <string.h>

#include "importers/android/android_int.h"
#include "importers/reader.h"
#include "engine/base/utf8.h"

void bt_amap_init(struct bt_amap *m)
{
	memset(m, 0, sizeof *m);
	bt_map64_init(&m->index, 1024);
}

void bt_amap_release(struct bt_amap *m)
{
	size_t i;

	for (i = 0; i < m->nthreads; i++)
		free(m->threads[i].name);
	free(m->threads);
	free(m->entries);
	bt_map64_release(&m->index);
	memset(m, 0, sizeof *m);
}

const struct bt_amap_entry *bt_amap_find(const struct bt_amap *m, uint64_t ptr)
{
	uint32_t i = bt_map64_get(&m->index, ptr);

	return i ? &m->entries[i - 1] : NULL;
}

/* The file ends inside the entry of section starting at at. */
static int cut(struct bt_amap *m, const char *section, size_t at, size_t index, int code)
{
	m->cut.yes = 1;
	m->cut.section = section;
	m->cut.at = at;
	m->cut.index = (uint32_t)index;
	return code;
}

static int read_methods(struct bt_amap *m, struct bt_reader *r, struct bt_diag *diag,
			struct bt_err *err)
{
	uint32_t i;

	for (i = 0; i < m->declared; i++) {
		uint64_t ptr;
		uint16_t len;

		if (!bt_rd_left(r)) {
			/* the writer's SIGSEGV guard ends the file early */
			bt_diag_count(diag, "mapping_short", 1,
				      "mapping '%s' declares %u methods but holds %u; the rest of its frames get placeholder names",
				      r->path, m->declared, i);
			return BT_OK;
		}
		if (bt_rd_need(r, 10, "method entry", err))
			return cut(m, "method", r->off, i, err->code);
		ptr = bt_rd_u64(r);
		len = bt_rd_u16(r);
		if (bt_rd_need(r, len, "method symbol", err))
			return cut(m, "method", r->off - 10, i, err->code);
		if (bt_map64_get(&m->index, ptr)) {
			bt_diag_warn(diag, "mapping_duplicate", "method pointer 0x%llx listed twice in '%s' (offset %zu); the first entry is kept",
				     (unsigned long long)ptr, r->path, r->off - 10);
			bt_rd_bytes(r, len);
			continue;
		}
		BT_GROW(m->entries, m->n + 1, m->cap);
		m->entries[m->n].sym = (const char *)bt_rd_bytes(r, len);
		m->entries[m->n].len = len;
		bt_map64_put(&m->index, ptr, (uint32_t)++m->n);
	}
	return BT_OK;
}

static void add_thread(struct bt_amap *m, uint16_t tid, const char *name, size_t len,
		       const char *path, size_t off, struct bt_diag *diag)
{
	struct bt_buf b = BT_BUF_INIT;

	if (len && name[len - 1] == '\n')
		len--;
	if (!bt_utf8_valid(name, len))
		bt_diag_warn(diag, "invalid_utf8", "thread name of tid %u in '%s' at offset %zu is not UTF-8; bad bytes shown as U+FFFD",
			     tid, path, off);
	bt_utf8_sanitize(&b, name, len);
	BT_GROW(m->threads, m->nthreads + 1, m->threads_cap);
	m->threads[m->nthreads].tid = tid;
	m->threads[m->nthreads].name = bt_buf_detach(&b, NULL);
	m->nthreads++;
}

static int read_threads(struct bt_amap *m, struct bt_reader *r, struct bt_diag *diag,
			struct bt_err *err)
{
	while (bt_rd_left(r)) {
		size_t off = r->off;
		uint16_t tid;
		uint8_t len;

		if (bt_rd_need(r, 3, "thread-name entry", err))
			return cut(m, "thread-name", off, m->nthreads, err->code);
		tid = bt_rd_u16(r);
		len = bt_rd_u8(r);
		if (bt_rd_need(r, len, "thread name", err))
			return cut(m, "thread-name", off, m->nthreads, err->code);
		if (!len) {
			bt_diag_warn(diag, "empty_thread_name", "empty name for tid %u in '%s' at offset %zu",
				     tid, r->path, off);
			continue;
		}
		add_thread(m, tid, (const char *)bt_rd_bytes(r, len), len, r->path, off, diag);
	}
	return BT_OK;
}

int bt_amap_load(struct bt_amap *m, const unsigned char *p, size_t len, const char *path,
		 struct bt_diag *diag, struct bt_err *err)
{
	struct bt_reader r;
	uint64_t magic;
	uint32_t version;

	bt_rd_init(&r, p, len, path);
	if (bt_rd_need(&r, 16, "mapping header", err))
		return cut(m, "header", 0, 0, err->code);
	magic = bt_rd_u64(&r);
	version = bt_rd_u32(&r);
	m->declared = bt_rd_u32(&r);
	if (magic != 0 || version != 1)
		bt_diag_warn(diag, "mapping_header", "mapping '%s' has magic %llu and version %u (expected 0 and 1); read anyway",
			     path, (unsigned long long)magic, version);
	if (read_methods(m, &r, diag, err))
		return err->code;
	return read_threads(m, &r, diag, err);
}
