/*
 * Unit tests of the Android importer's stack interning
 * (importers/android/android_stack.c): a stack's nodes are its call
 * path's, one per path, numbered as the paths first appear, whichever
 * memo of a parent's last children answers.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/db/db.h"
#include "importers/android/android_int.h"
#include "tests/tap.h"

#define PATHS 4096

/* The reference: every path seen, its id the order it first appeared in. */
static uint64_t paths[PATHS][8];
static int plen[PATHS], npaths;

static int path_id(const uint64_t *p, int n)
{
	int i;

	for (i = 0; i < npaths; i++)
		if (plen[i] == n && !memcmp(paths[i], p, (size_t)n * sizeof *p))
			return i + 1;
	memcpy(paths[npaths], p, (size_t)n * sizeof *p);
	plen[npaths] = n;
	return ++npaths;
}

static void put_le64(unsigned char *b, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static struct bt_android_stacks s;   /* large: a last stack per tid */
static struct bt_diag diag;

/* Stacks drawn from a small tree (three children a frame, four deep) on
 * five threads: parents calling one child, then another, then the first
 * again, as loops do. Each leaf is its path's node. */
static void test_paths(uint64_t seed)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_db *db = NULL;
	uint64_t r = seed;
	int i, bad = 0, rc = 0;

	npaths = 0;
	bt_diag_init(&diag);
	bt_db_create(&db, ":memory:", &err);
	bt_db_begin(db, &err);
	bt_android_stacks_init(&s, db, NULL, NULL, &diag);
	for (i = 0; i < 20000 && !rc; i++) {
		uint64_t p[8], x = tap_rand(&r);
		unsigned char frames[8 * 8];
		int n = 1 + (int)(x % 4), j, want;
		uint32_t leaf = 0;
		for (j = 0; j < n; j++)   /* root first; a child among three, the first most often */
			p[j] = 0x1000 * (uint64_t)(j + 1) + (j ? p[j - 1] % 0x1000 * 3 : 0) +
			       ((x >> (8 + 4 * j) & 7) < 4 ? 0 : (x >> (8 + 4 * j) & 7) < 6 ? 1 : 2);
		for (j = 0; j < n; j++)   /* leaf first on disk */
			put_le64(frames + 8 * j, p[n - 1 - j]);
		for (j = 1; j <= n; j++)
			want = path_id(p, j);
		rc = bt_android_stacks_intern(&s, (uint16_t)(1 + (x >> 40 & 3)), frames, (uint32_t)n, &leaf, &err);
		bad += (int)leaf != want;
	}
	is_int(rc, BT_OK, "20,000 stacks interned");
	is_int(bad, 0, "each leaf is its path's node, numbered as the paths first appeared");
	is_int(s.nnodes, npaths, "one node a path");
	bt_android_stacks_release(&s);
	bt_db_close(db);
}

int main(void)
{
	test_paths(1);
	test_paths(77);
	return done_testing();
}
