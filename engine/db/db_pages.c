/*
 * A kept database's slices, and its call tree, written as the pages of
 * their tables.
 *
 * Inserting them through SQL cost SQLite most of an import (3.85M slices
 * at 1M records: 3.3 s of CPU, per column: 23 read through a virtual
 * table, checked, made into a record). They come nearly in id order: the
 * writer sorts each chunk, and holds the last CARRY back to merge with the
 * next (at 1M records 15 slices come later than that). So the writer
 * encodes each as SQLite would (https://sqlite.org/fileformat2.html),
 * packs the cells into the leaf pages of the table's b-tree and writes
 * those far beyond SQLite's pages in the database file (in_place), or
 * to a file beside it.
 *
 * The call tree (a memtab: 513k rows at 1M records, 0.4 s of SQLite on the
 * main thread) goes the same way when it is stored, its rows in id order.
 *
 * At the commit SQLite gives up its lock; each table's leaves are moved
 * down (or copied) to the end of SQLite's pages, the late slices merged
 * into theirs, the interior pages built over them, the top one written
 * as the table's root, the file cut after the last, and the header's page
 * count and change counter set: SQLite rereads a file whose counter
 * changed, as when another process wrote it.
 */
#define _GNU_SOURCE   /* copy_file_range, fallocate */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/falloc.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "engine/db/db_int.h"

#define NBUF 16            /* leaves written at once */
#define LEAF 0x0d          /* a table b-tree's page types */
#define INTERIOR 0x05
#define MAX_COLS 32        /* a row's columns at most (a NULL mask of 32 bits) */
#define CELL_MAX (9 + 9 + 1 + MAX_COLS + MAX_COLS * 8)   /* a row's cell at most */
#define CARRY 1024         /* slices held back for the next chunk's */
#define REGION ((off_t)1 << 40)   /* where a table's leaves wait in the database file (times 1 or 2) */

static void put2(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put4(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get4(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* SQLite's varint: big-endian groups of 7 bits, a ninth byte of 8. */
static unsigned put_varint(unsigned char *p, uint64_t v)
{
	unsigned char t[9];
	unsigned n = 0, i;

	if (v >> 56) {
		p[8] = (unsigned char)v;
		v >>= 8;
		for (i = 8; i-- > 0; v >>= 7)
			p[i] = (unsigned char)(v & 0x7f) | 0x80;
		return 9;
	}
	do {
		t[n++] = (unsigned char)(v & 0x7f) | 0x80;
		v >>= 7;
	} while (v);
	t[0] &= 0x7f;
	for (i = 0; i < n; i++)
		p[i] = t[n - 1 - i];
	return n;
}

/* The serial type SQLite gives an integer by the bits it needs beyond its
 * sign (schema format 4; 0 and 1 apart, they take no bytes), and that
 * type's length in bytes. */
static const unsigned char type_of_bits[65] = {
	1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
	4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
	6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
};
static const unsigned char type_len[10] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0 };

static unsigned int_type(int64_t v)
{
	uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;

	if ((uint64_t)v <= 1)
		return 8 + (unsigned)v;
	return type_of_bits[bt_bit_length(u)];
}

static uint64_t big_endian(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_bswap64(v);
#else
	return v;
#endif
}

/* Row id, its columns col[1..ncol) (bit i of nulls: col[i] NULL), as a
 * table leaf's cell (payload size, rowid, record) into cell: its size.
 * Column 0 is the INTEGER PRIMARY KEY: the rowid, NULL in the record.
 * A value's bytes are written as a whole big-endian word and the record
 * advanced by its length (rec has the room): a byte loop was the import's
 * most expensive function. */
static unsigned encode(int64_t id, const int64_t *col, uint32_t nulls, unsigned ncol, unsigned char *cell)
{
	unsigned char rec[1 + MAX_COLS + MAX_COLS * 8 + 8];
	unsigned n = 1 + ncol, at, i;

	rec[0] = (unsigned char)(1 + ncol);   /* the header's size: every serial type is one byte */
	rec[1] = 0;
	for (i = 1; i < ncol; i++) {
		unsigned t = nulls >> i & 1 ? 0 : int_type(col[i]), len = type_len[t];
		uint64_t be;
		rec[1 + i] = (unsigned char)t;
		if (!len)
			continue;
		be = big_endian((uint64_t)col[i] << (64 - 8 * len));
		memcpy(rec + n, &be, 8);
		n += len;
	}
	at = put_varint(cell, n);
	at += put_varint(cell + at, (uint64_t)id);
	memcpy(cell + at, rec, n);
	return at + n;
}

static int io_fail(const char *what, const char *path, struct bt_err *err)
{
	return bt_err_set(err, BT_EIO, "cannot %s '%s': %s", what, path, strerror(errno));
}

/* n bytes of buf to fd at offset at, or the error naming path. */
static int write_all(int fd, const void *buf, size_t n, off_t at, const char *path, struct bt_err *err)
{
	return bt_pwrite_all(fd, buf, n, at) ? io_fail("write", path, err) : BT_OK;
}

static uint32_t get2(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static unsigned get_varint(const unsigned char *p, uint64_t *v)
{
	uint64_t x = 0;
	unsigned i;

	for (i = 0; i < 8; i++) {
		x = x << 7 | (p[i] & 0x7f);
		if (!(p[i] & 0x80))
			return *v = x, i + 1;
	}
	*v = x << 8 | p[8];
	return 9;
}

/* A table leaf being filled: cell pointers from its header on, cells
 * from its end back. */
static void leaf_open(struct bt_leaf *l, unsigned char *pg, uint32_t size)
{
	memset(pg, 0, size);
	l->pg = pg;
	l->ncell = 0;
	l->top = size;
}

static int leaf_fits(const struct bt_leaf *l, unsigned n)
{
	return 8 + 2 * (l->ncell + 1) + n <= l->top;
}

static void leaf_put(struct bt_leaf *l, const unsigned char *cell, unsigned n)
{
	l->top -= n;
	memcpy(l->pg + l->top, cell, n);
	put2(l->pg + 8 + 2 * l->ncell, l->top);
	l->ncell++;
}

static void leaf_seal(struct bt_leaf *l)
{
	l->pg[0] = LEAF;
	put2(l->pg + 3, l->ncell);
	put2(l->pg + 5, l->top == 65536 ? 0 : l->top);
}

/* Close table t's leaf being filled; write the leaves when the buffer is
 * full (or all, if flush). */
static int leaf_end(const struct bt_pages *p, struct bt_pagetab *t, int flush, struct bt_err *err)
{
	if (t->leaf.ncell) {
		leaf_seal(&t->leaf);
		if (t->nleaf == t->leafcap) {
			t->leafcap = t->leafcap ? 2 * t->leafcap : 1024;
			t->maxkey = bt_xrealloc(t->maxkey, t->leafcap * sizeof *t->maxkey);
		}
		t->maxkey[t->nleaf++] = t->last;
		t->nbuf++;
	}
	if (t->nbuf == NBUF || (flush && t->nbuf)) {
		off_t at = t->at + (off_t)(t->nleaf - t->nbuf) * p->size;
		if (write_all(t->fd, t->buf, t->nbuf * p->size, at, t->path, err))
			return err->code;
		t->nbuf = 0;
	}
	leaf_open(&t->leaf, t->buf + t->nbuf * p->size, p->size);
	return BT_OK;
}

/* Room for one more cell of CELL_MAX bytes at most: where it goes. */
static unsigned char *cells_room(struct bt_cells *c)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->v = bt_xrealloc(c->v, c->cap * sizeof *c->v);
	}
	if (c->nbytes + CELL_MAX > c->bcap) {
		c->bcap = c->bcap ? 2 * c->bcap : 64 * CELL_MAX;
		c->bytes = bt_xrealloc(c->bytes, c->bcap);
	}
	return c->bytes + c->nbytes;
}

/* The cell just written at cells_room's place. */
static void cells_took(struct bt_cells *c, int64_t id, unsigned len)
{
	c->v[c->n++] = (struct bt_cell){ id, (uint32_t)c->nbytes, len };
	c->nbytes += len;
}

static void cells_add(struct bt_cells *c, int64_t id, const unsigned char *cell, unsigned len)
{
	memcpy(cells_room(c), cell, len);
	cells_took(c, id, len);
}

/* A NULL where the table says NOT NULL: SQLite's error, as an insert
 * would have had it. */
static int null_fail(const struct bt_pagetab *t, uint32_t nulls, struct bt_err *err)
{
	unsigned c = 0;

	while (!((nulls & t->notnull) >> c & 1))
		c++;
	return bt_err_set(err, BT_ESQL, "NOT NULL constraint failed: %s column %u", t->name, c);
}

/* Table t's next cell in id order: into the leaf being filled, or among
 * the late ones if its place is in a leaf already made. */
static int emit(const struct bt_pages *p, struct bt_pagetab *t, int64_t id, const unsigned char *cell, unsigned len,
		struct bt_err *err)
{
	if (id <= t->last) {
		cells_add(&t->late, id, cell, len);
		return BT_OK;
	}
	if (!leaf_fits(&t->leaf, len) && leaf_end(p, t, 0, err))
		return err->code;
	leaf_put(&t->leaf, cell, len);
	t->last = id;
	return BT_OK;
}

/* Rows in id order, and those held back from the chunk before, as one
 * run: the last CARRY held back again (a slice late by a few goes in its
 * place: at 1M records 15 late instead of 8,722), the others emitted. */
int bt_pages_chunk(struct bt_pages *p, const struct bt_slice_row *rows, const struct bt_id_at *order, size_t n,
		   struct bt_err *err)
{
	struct bt_cells *c = &p->carry, *f = &p->fresh, *next = &p->spare, t;
	size_t i, j, k, total, out;

	f->n = f->nbytes = 0;
	for (i = 0; i < n; i++) {
		const struct bt_slice_row *r = &rows[order[i].at];
		bt_slice_fetch_ahead(rows, order, i, n);
		if (r->nulls & p->slices.notnull & ~1u)
			return null_fail(&p->slices, r->nulls & ~1u, err);
		cells_took(f, r->col[0], encode(r->col[0], r->col, r->nulls, 23, cells_room(f)));
	}
	total = c->n + f->n;
	out = total > CARRY ? total - CARRY : 0;
	next->n = next->nbytes = 0;
	for (i = j = k = 0; k < total; k++) {
		int fresh = i == c->n || (j < f->n && f->v[j].id < c->v[i].id);
		const struct bt_cells *from = fresh ? f : c;
		const struct bt_cell *e = fresh ? &f->v[j++] : &c->v[i++];
		if (k >= out)
			cells_add(next, e->id, from->bytes + e->at, e->len);
		else if (emit(p, &p->slices, e->id, from->bytes + e->at, e->len, err))
			return err->code;
	}
	t = *c, *c = *next, *next = t;
	return BT_OK;
}

/* One integer of a pragma or a query. */
static int query_int(struct bt_db *db, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->conn, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/*
 * Whether the leaves can wait in the database file itself, REGION bytes
 * and more beyond its pages, to be moved down at the commit by taking the
 * bytes between out of the file (FALLOC_FL_COLLAPSE_RANGE: the file's
 * extents renumbered, nothing copied, where the copy cost 0.5 s of CPU at
 * 1M records): on ext4 and XFS, which keep such a file sparse and can take
 * a range out, and where no limit on a file's size would stop the write.
 */
static int in_place(const char *path)
{
	struct statfs fs;
	struct rlimit lim;

	if (getrlimit(RLIMIT_FSIZE, &lim) || lim.rlim_cur != RLIM_INFINITY || statfs(path, &fs))
		return 0;
	return fs.f_type == EXT4_SUPER_MAGIC || fs.f_type == XFS_SUPER_MAGIC;
}

/* The database file at path, opened to write the leaves at offset at
 * (a page written there first, as a file system's limit on a file's size
 * would refuse it): -1 if it cannot. */
static int open_in_place(const char *path, off_t at, uint32_t size)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	void *zero;

	if (fd < 0)
		return -1;
	zero = bt_xcalloc(1, size);
	if (pwrite(fd, zero, size, at) != (ssize_t)size) {
		close(fd);
		fd = -1;
	}
	free(zero);
	return fd;
}

/* Table name's pages, into the database file or one beside it, if the
 * table is empty and as this run made it (a rowid table, column 0 its
 * INTEGER PRIMARY KEY, *ncol columns, or any number up to MAX_COLS if 0:
 * then set): 1 if so, 0 if its rows are left to SQL. */
static int tab_open(struct bt_db *db, struct bt_pagetab *t, const char *name, unsigned *ncol, struct bt_err *err)
{
	struct bt_pages *p = &db->pages;
	struct bt_buf sql = BT_BUF_INIT;
	int64_t root = -1, any = 1, n = -1, notnull = 0;
	int fd;

	bt_buf_addf(&sql, "SELECT rootpage FROM sqlite_schema WHERE name = '%s' AND type = 'table'", name);
	query_int(db, sql.buf, &root);
	bt_buf_reset(&sql);
	bt_buf_addf(&sql, "SELECT count(*) FROM (SELECT 1 FROM main.%s LIMIT 1)", name);
	query_int(db, sql.buf, &any);
	bt_buf_reset(&sql);
	bt_buf_addf(&sql, "SELECT count(*) FROM pragma_table_info('%s') i, pragma_table_list('%s') l"
		    " WHERE i.pk = 1 AND i.cid = 0 AND i.type = 'INTEGER' AND l.schema = 'main' AND NOT l.wr", name, name);
	query_int(db, sql.buf, &n);
	if (n == 1) {
		bt_buf_reset(&sql);
		bt_buf_addf(&sql, "SELECT count(*) FROM pragma_table_info('%s')", name);
		query_int(db, sql.buf, &n);
	}
	bt_buf_reset(&sql);
	if (root < 2 || any || n < 2 || n > MAX_COLS || (*ncol && n != *ncol)) {
		bt_buf_release(&sql);
		return 0;
	}
	*ncol = (unsigned)n;
	bt_buf_addf(&sql, "SELECT sum(1 << cid) FROM pragma_table_info('%s') WHERE \"notnull\"", name);
	query_int(db, sql.buf, &notnull);
	bt_buf_reset(&sql);
	t->notnull = (uint32_t)notnull;
	t->at = in_place(db->tmp_path) ? (t == &p->slices ? REGION : 2 * REGION) : 0;
	if (t->at && (fd = open_in_place(db->tmp_path, t->at, p->size)) >= 0) {
		bt_buf_adds(&sql, db->tmp_path);
	} else {
		t->at = 0;
		bt_buf_addf(&sql, "%s-%s", db->tmp_path, name);   /* as BT_DB_PAGED_TABLES says */
		bt_temps_add(sql.buf);
		fd = open(sql.buf, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		io_fail("create", sql.buf, err);
		bt_temps_forget(sql.buf);
		bt_buf_release(&sql);
		return -1;
	}
	t->name = name;
	t->fd = fd;
	t->path = bt_buf_detach(&sql, NULL);
	t->root = root;
	t->buf = bt_xmalloc((size_t)NBUF * p->size);
	t->last = 0;
	leaf_open(&t->leaf, t->buf, p->size);
	return 1;
}

int bt_db_slices_as_pages(struct bt_db *db, struct bt_err *err)
{
	struct bt_pages *p = &db->pages;
	int64_t size, vacuum;
	unsigned ncol = 23;   /* struct bt_slice_row's */
	int reserve = -1, rc;

	if (bt_db_bulk_idle(db, err))
		return err->code;
	if (!db->tmp_path || db->opened || p->on)
		return BT_OK;
	/* only where the file is as this run made it: pages without reserved
	 * bytes nor pointer maps */
	if (query_int(db, "PRAGMA page_size", &size) || size < 1024 || query_int(db, "PRAGMA auto_vacuum", &vacuum) ||
	    vacuum || sqlite3_file_control(db->conn, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve) != SQLITE_OK ||
	    reserve != 0)
		return BT_OK;
	p->size = (uint32_t)size;
	rc = tab_open(db, &p->slices, "slices", &ncol, err);
	p->on = rc > 0;
	return rc < 0 ? err->code : BT_OK;
}

int bt_pages_memtab(struct bt_db *db, const struct bt_memtab *m, int *done, struct bt_err *err)
{
	struct bt_pages *p = &db->pages;
	struct bt_pagetab *t = &p->calltree;
	unsigned char cell[CELL_MAX];
	int64_t col[MAX_COLS];
	size_t id, n;
	unsigned ncol = 0, c;
	int rc;

	*done = 0;
	if (!p->on || m->text_cols || strcmp(m->name, "calltree") || t->path)
		return BT_OK;
	if ((rc = tab_open(db, t, m->name, &ncol, err)) <= 0)
		return rc < 0 ? err->code : BT_OK;
	n = m->nrows(m->data);
	for (id = 1; id <= n; id++) {
		uint32_t nulls = 0;
		if (!m->exists(m->data, id))
			continue;
		for (c = 1; c < ncol; c++) {
			col[c] = m->column(m->data, id, (int)c);
			if (col[c] == BT_MEMTAB_NULL || (!col[c] && (m->zero_null >> c & 1)))
				nulls |= 1u << c;
		}
		if (nulls & t->notnull)
			return null_fail(t, nulls, err);
		if (emit(p, t, (int64_t)id, cell, encode((int64_t)id, col, nulls, ncol, cell), err))
			return err->code;
	}
	if (leaf_end(p, t, 1, err))
		return err->code;
	*done = 1;
	return BT_OK;
}

/* Table t's leaves, n bytes, to the database at offset to: moved down
 * where they wait in it, else copied. */
static int place_leaves(struct bt_pages *p, struct bt_pagetab *t, int db, off_t to, size_t n, const char *dbpath,
			struct bt_err *err)
{
	loff_t in = t->at ? t->at - p->moved : 0, out = to;
	char *buf;

	if (t->at && in < to + (off_t)n)
		return bt_err_set(err, BT_ESQL, "'%s' grew into its tables' pages", dbpath);
	if (t->at && fallocate(db, FALLOC_FL_COLLAPSE_RANGE, to, in - to) == 0) {
		p->moved += in - to;
		return BT_OK;
	}

	while (n) {   /* in the kernel, where it can */
		ssize_t k = copy_file_range(t->fd, &in, db, &out, n, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n -= (size_t)k;
	}
	if (!n)
		return BT_OK;
	buf = bt_xmalloc(1 << 20);
	while (n) {
		size_t m = n < (1 << 20) ? n : 1 << 20;
		ssize_t k = pread(t->fd, buf, m, in);
		if (k <= 0 || write_all(db, buf, (size_t)k, out, dbpath, err)) {
			free(buf);
			return err->code ? err->code : io_fail("read", t->path, err);
		}
		in += k;
		out += k;
		n -= (size_t)k;
	}
	free(buf);
	return BT_OK;
}

/* A b-tree node: its page and its largest key. */
struct node {
	uint32_t pgno;
	int64_t key;
};

/*
 * The interior pages over v[0..n) (n >= 2), level by level, children split
 * evenly (two at least to a page); new pages from *next on, the top one
 * written at the root.
 */
static int interior(const struct bt_pages *p, const struct bt_pagetab *t, int db, struct node *v, size_t n,
		    uint32_t *next, const char *dbpath, struct bt_err *err)
{
	size_t per = (p->size - 12) / (2 + 4 + 9) + 1;   /* children a page holds, the widest keys */
	unsigned char *pg = bt_xmalloc(p->size);
	int rc = BT_OK;

	while (n > 1 && !rc) {
		size_t npg = (n + per - 1) / per, g;
		for (g = 0; g < npg && !rc; g++) {
			size_t lo = g * n / npg, hi = (g + 1) * n / npg, i;
			uint32_t top = p->size, pgno = npg == 1 ? (uint32_t)t->root : (*next)++;
			memset(pg, 0, p->size);
			pg[0] = INTERIOR;
			for (i = lo; i + 1 < hi; i++) {
				unsigned char cell[13];
				unsigned k = 4;
				put4(cell, v[i].pgno);
				k += put_varint(cell + 4, (uint64_t)v[i].key);
				top -= k;
				memcpy(pg + top, cell, k);
				put2(pg + 12 + 2 * (i - lo), top);
			}
			put2(pg + 3, (uint32_t)(hi - lo - 1));
			put2(pg + 5, top == 65536 ? 0 : top);
			put4(pg + 8, v[hi - 1].pgno);
			rc = write_all(db, pg, p->size, (off_t)(pgno - 1) * p->size, dbpath, err);
			v[g] = (struct node){ pgno, v[hi - 1].key };   /* g <= lo: read already */
		}
		n = npg;
	}
	free(pg);
	return rc;
}

/* The nodes of the leaves as they will be, late slices merged in. */
struct nodes {
	struct node *v;
	size_t n, cap;
};

static void add_node(struct nodes *o, uint32_t pgno, int64_t key)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 1024;
		o->v = bt_xrealloc(o->v, o->cap * sizeof *o->v);
	}
	o->v[o->n++] = (struct node){ pgno, key };
}

static int by_id(const void *a, const void *b)
{
	int64_t x = ((const struct bt_cell *)a)->id, y = ((const struct bt_cell *)b)->id;

	return (x > y) - (x < y);
}

/*
 * The leaf at page pgno, with the late cells late[0..n) merged in by id: one
 * page or more, the first at pgno, the rest new from *next on, their nodes
 * added to o.
 */
static int merge_leaf(const struct bt_pages *p, struct bt_pagetab *t, int db, uint32_t pgno,
		      const struct bt_cell *late, size_t n, struct nodes *o, uint32_t *next, const char *dbpath,
		      struct bt_err *err)
{
	unsigned char *old = bt_xmalloc(2 * (size_t)p->size), *pg = old + p->size;
	uint32_t k = 0, nc;
	size_t i = 0;
	int64_t key = 0, last = 0;
	struct bt_leaf l;
	int rc = BT_OK;

	if (pread(db, old, p->size, (off_t)(pgno - 1) * p->size) != (ssize_t)p->size) {   /* placed already */
		free(old);
		return io_fail("read", dbpath, err);
	}
	nc = get2(old + 3);
	leaf_open(&l, pg, p->size);
	while ((k < nc || i < n) && !rc) {
		const unsigned char *c = NULL;
		unsigned len = 0;
		if (k < nc) {   /* the leaf's next cell: payload size, rowid, payload */
			uint64_t size, id;
			c = old + get2(old + 8 + 2 * k);
			len = get_varint(c, &size);
			len += get_varint(c + len, &id);
			len += (unsigned)size;
			key = (int64_t)id;
		}
		if (i < n && (k == nc || late[i].id < key)) {
			key = late[i].id;
			len = late[i].len;
			c = t->late.bytes + late[i++].at;
		} else if (i < n && late[i].id == key) {
			rc = bt_err_set(err, BT_ESQL, "%s id %lld stored twice", t->name, (long long)key);
			break;
		} else {
			k++;
		}
		if (!leaf_fits(&l, len)) {
			leaf_seal(&l);
			rc = write_all(db, pg, p->size, (off_t)(pgno - 1) * p->size, dbpath, err);
			add_node(o, pgno, last);
			pgno = (*next)++;
			leaf_open(&l, pg, p->size);
		}
		leaf_put(&l, c, len);
		last = key;
	}
	if (!rc) {
		leaf_seal(&l);
		rc = write_all(db, pg, p->size, (off_t)(pgno - 1) * p->size, dbpath, err);
		add_node(o, pgno, last);
	}
	free(old);
	return rc;
}

/* Table t's leaves after the npages pages of the database file db, the
 * late rows merged in: their nodes in o, *next the first page after them. */
static int leaves(struct bt_pages *p, struct bt_pagetab *t, int db, uint32_t npages, struct nodes *o,
		  uint32_t *next, const char *dbpath, struct bt_err *err)
{
	size_t j, a = 0, b;

	if (t->nleaf && place_leaves(p, t, db, (off_t)npages * p->size, t->nleaf * p->size, dbpath, err))
		return err->code;
	if (t->late.n)
		qsort(t->late.v, t->late.n, sizeof *t->late.v, by_id);
	*next = npages + 1 + (uint32_t)t->nleaf;
	for (j = 0; j < t->nleaf; j++) {
		uint32_t pgno = npages + 1 + (uint32_t)j;
		for (b = a; b < t->late.n && t->late.v[b].id <= t->maxkey[j]; b++)
			;
		if (b == a)
			add_node(o, pgno, t->maxkey[j]);
		else if (merge_leaf(p, t, db, pgno, t->late.v + a, b - a, o, next, dbpath, err))
			return err->code;
		a = b;
	}
	if (a < t->late.n)   /* ids below 1: none is a row's */
		return bt_err_set(err, BT_ESQL, "%s id %lld: ids start at 1", t->name, (long long)t->late.v[a].id);
	return BT_OK;
}

/* Put table t's pages into the database file db of *total pages, the
 * top one at the table's root: *total pages then. */
static int place(struct bt_pages *p, struct bt_pagetab *t, int db, uint32_t *total, const char *dbpath,
		 struct bt_err *err)
{
	struct nodes o = { NULL, 0, 0 };
	uint32_t next = *total + 1, npages = *total;
	unsigned char *pg = bt_xmalloc(p->size);
	int rc;

	rc = pread(db, pg, p->size, (off_t)(t->root - 1) * p->size) == (ssize_t)p->size ? BT_OK
		: io_fail("read", dbpath, err);
	if (!rc && (pg[0] != LEAF || get2(pg + 3)))
		rc = bt_err_set(err, BT_ESQL, "'%s': the %s table was written to beside its pages", dbpath, t->name);
	if (!rc && (t->nleaf || t->late.n))
		rc = leaves(p, t, db, npages, &o, &next, dbpath, err);
	if (!rc && o.n == 1) {   /* one leaf: it is the root */
		rc = pread(db, pg, p->size, (off_t)(o.v[0].pgno - 1) * p->size) == (ssize_t)p->size ? BT_OK
			: io_fail("read", dbpath, err);
		if (!rc)
			rc = write_all(db, pg, p->size, (off_t)(t->root - 1) * p->size, dbpath, err);
	} else if (!rc && o.n > 1) {
		rc = interior(p, t, db, o.v, o.n, &next, dbpath, err);
		*total = next - 1;
	}
	free(o.v);
	free(pg);
	return rc;
}

/* The file's header into head, as the pages were made for: the page
 * size, no reserved bytes, schema format 4 (0 and 1 in no bytes), its
 * page count (*npages) valid and inside the file's size. */
static int check_header(const struct bt_pages *p, int db, uint32_t *npages, unsigned char head[100],
			const char *dbpath, struct bt_err *err)
{
	struct stat st;
	uint32_t size;

	if (pread(db, head, 100, 0) != 100 || fstat(db, &st))
		return io_fail("read", dbpath, err);
	size = (uint32_t)head[16] << 8 | head[17];
	*npages = get4(head + 28);
	if ((size == 1 ? 65536 : size) != p->size || head[20] != 0 || get4(head + 44) != 4 ||
	    memcmp(head + 24, head + 92, 4) || !*npages || (off_t)*npages * p->size > st.st_size)
		return bt_err_set(err, BT_ESQL, "'%s' is not laid out as its tables' pages were made for", dbpath);
	return BT_OK;
}

/* The header (head, as check_header read it): the page count, and the
 * change counter moved on (and the count's "valid for" with it) so that
 * SQLite reads the file anew. */
static int stamp(int db, unsigned char head[100], uint32_t total, const char *dbpath, struct bt_err *err)
{
	put4(head + 24, get4(head + 24) + 1);
	memcpy(head + 92, head + 24, 4);
	put4(head + 28, total);
	return write_all(db, head, 100, 0, dbpath, err);
}

int bt_pages_commit(struct bt_db *db, struct bt_err *err)
{
	struct bt_pages *p = &db->pages;
	struct bt_pagetab *tab[] = { &p->slices, &p->calltree };
	unsigned char head[100];
	uint32_t total = 0;
	size_t i;
	int fd, rc;

	p->on = 0;
	for (i = 0; i < p->carry.n; i++)
		if (emit(p, &p->slices, p->carry.v[i].id, p->carry.bytes + p->carry.v[i].at, p->carry.v[i].len, err))
			return err->code;
	if (leaf_end(p, &p->slices, 1, err))
		return err->code;
	/* SQLite writes its pages and lets the file go */
	if (bt_db_run_sql(db, "PRAGMA locking_mode=NORMAL", err) || bt_db_run_sql(db, "COMMIT", err))
		return err->code;
	fd = open(db->tmp_path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return io_fail("open", db->tmp_path, err);
	rc = check_header(p, fd, &total, head, db->tmp_path, err);
	for (i = 0; i < sizeof tab / sizeof *tab && !rc; i++)
		if (tab[i]->path)
			rc = place(p, tab[i], fd, &total, db->tmp_path, err);
	/* what is left beyond the pages: a leaf made a table's root, the
	 * leaves' places in the file where they were copied from them */
	if (!rc && ftruncate(fd, (off_t)total * p->size))
		rc = io_fail("truncate", db->tmp_path, err);
	if (!rc)
		rc = stamp(fd, head, total, db->tmp_path, err);
	close(fd);
	if (!rc)
		rc = bt_db_run_sql(db, "PRAGMA locking_mode=EXCLUSIVE", err);
	return rc;
}

static void cells_release(struct bt_cells *c)
{
	free(c->bytes);
	free(c->v);
}

static void tab_release(struct bt_pagetab *t)
{
	if (t->path)
		close(t->fd);
	if (t->path && !t->at)
		bt_temps_remove(t->path);
	free(t->path);
	free(t->buf);
	free(t->maxkey);
	cells_release(&t->late);
}

void bt_pages_release(struct bt_pages *p)
{
	tab_release(&p->slices);
	tab_release(&p->calltree);
	cells_release(&p->fresh);
	cells_release(&p->carry);
	cells_release(&p->spare);
	memset(p, 0, sizeof *p);
}
