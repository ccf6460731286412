/*
 * libFuzzer harness for the iOS database importer. An input describes a
 * database: byte 0 the version (1 + b % 4; bit 7: BTraceModel without
 * version and main_tid columns), then chunks [u8 kind][u16 len][len bytes]
 * that become rows of the spec's tables (blobs as they are, per-row
 * columns from little-endian u32s, text as it is), built in an in-memory
 * SQLite database and imported with bt_ios_import; a symbols chunk goes
 * through the --symbols parser. tests/fuzz/ios_seed.py writes seeds.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "importers/importer.h"
#include "importers/ios/ios_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Chunk kinds: the first five are fixed, then one per sample table. */
enum { K_TRIE, K_THREAD, K_IMAGE, K_SERIES, K_SYMBOLS, K_TABLES };
static const char *const tables[] = {
	"CPUSampleModel", "CPUIntervalSampleModel", "MemSampleModel", "DateSampleModel",
	"DispatchSampleModel", "AsyncSampleModel", "LockSampleModel", "ProfileSampleModel",
	"TimeRangeSampleModel", "CPUBatchSampleModel", "CPUBatchIntervalSampleModel",
	"MemBatchSampleModel", "DateBatchSampleModel", "DispatchBatchSampleModel",
	"AsyncBatchSampleModel", "LockBatchSampleModel", "ProfileBatchSampleModel",
	"TimeRangeBatchSampleModel",
};
#define N_TABLES (sizeof tables / sizeof tables[0])

static uint32_t u32(const uint8_t *p, size_t n)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < 4 && i < n; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		abort();
	return st;
}

static void run(sqlite3_stmt *st)
{
	sqlite3_step(st);
	sqlite3_finalize(st);
}

/* A row of a sample table (created on first use, with the version's
 * columns, or a batch table's): blob chunks as they are, columns from u32s
 * (0xFFFFFFFF in the first byte pair makes a column text). */
static void sample_row(sqlite3 *db, int version, const char *table, const uint8_t *p, size_t n)
{
	char sql[512];
	const char *cols = NULL, *c;
	int k, nparam = 1;
	size_t len;
	sqlite3_stmt *st;

	if (!bt_ios_layout(table, version, &cols))
		cols = NULL;   /* not of this version: created anyway, as a batch table */
	snprintf(sql, sizeof sql, "CREATE TABLE IF NOT EXISTS %s(trace_id INTEGER,%s)", table,
		 cols ? cols : "tid INTEGER,nodes BLOB");
	sqlite3_exec(db, sql, NULL, NULL, NULL);
	for (c = cols ? cols : "tid,nodes"; *c; c++)
		nparam += *c == ',';
	len = (size_t)snprintf(sql, sizeof sql, "INSERT INTO %s VALUES(1", table);
	for (k = 0; k < nparam; k++)
		len += (size_t)snprintf(sql + len, sizeof sql - len, ",?");
	snprintf(sql + len, sizeof sql - len, ")");
	st = prep(db, sql);
	if (cols && !strcmp(cols, "sample")) {
		sqlite3_bind_blob(st, 1, p, (int)n, SQLITE_TRANSIENT);
	} else if (!cols) {
		sqlite3_bind_int64(st, 1, (int32_t)u32(p, n));
		sqlite3_bind_blob(st, 2, n > 4 ? p + 4 : p, n > 4 ? (int)n - 4 : 0, SQLITE_TRANSIENT);
	} else {
		for (k = 1; k <= nparam; k++) {
			size_t at = (size_t)(k - 1) * 4;
			uint32_t v = at < n ? u32(p + at, n - at) : 0;
			if (v == 0xFFFFFFFFu)
				sqlite3_bind_text(st, k, "x", 1, SQLITE_STATIC);
			else
				sqlite3_bind_int64(st, k, (k & 1) ? (int64_t)v : (int32_t)v);
		}
	}
	run(st);
}

static void text_row(sqlite3 *db, const char *sql, int64_t a, const uint8_t *p, size_t n, int has_b,
		     const uint8_t *b, size_t bn)
{
	sqlite3_stmt *st = prep(db, sql);

	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_text(st, 2, (const char *)p, (int)n, SQLITE_TRANSIENT);
	if (has_b)
		sqlite3_bind_text(st, 3, (const char *)b, (int)bn, SQLITE_TRANSIENT);
	run(st);
}

static void chunk(sqlite3 *db, int version, int kind, const uint8_t *p, size_t n,
		  struct bt_ios_stacks *syms)
{
	struct bt_err err = BT_ERR_INIT;
	size_t tn;

	switch (kind) {
	case K_TRIE:
		run(prep(db, "CREATE TABLE IF NOT EXISTS CallStackTableModel(trace_id INTEGER,nodes BLOB)"));
		{
			sqlite3_stmt *st = prep(db, "INSERT INTO CallStackTableModel VALUES(1,?)");
			sqlite3_bind_blob(st, 1, p, (int)n, SQLITE_TRANSIENT);
			run(st);
		}
		break;
	case K_THREAD:
		text_row(db, "INSERT INTO ThreadInfoModel VALUES(1,?1,?2)", u32(p, n), n > 4 ? p + 4 : p,
			 n > 4 ? n - 4 : 0, 0, NULL, 0);
		break;
	case K_IMAGE:   /* address: 0x1_0000_0000 + u32 */
		text_row(db, "INSERT INTO ImageInfoModel VALUES(1,?1,4096,0,?2,'00')",
			 ((int64_t)1 << 32) + u32(p, n), n > 4 ? p + 4 : p, n > 4 ? n - 4 : 0, 0, NULL, 0);
		break;
	case K_SERIES:   /* timestamp offset (signed u32), type length byte, type, info */
		tn = n > 5 ? p[4] % (n - 5 + 1) : 0;
		text_row(db, "INSERT INTO TimeSeriesModel VALUES(1,259,1700000000000000+?1,?2,?3)",
			 (int32_t)u32(p, n), n > 5 ? p + 5 : p, tn, 1, n > 5 ? p + 5 + tn : p,
			 n > 5 ? n - 5 - tn : 0);
		break;
	case K_SYMBOLS:
		bt_ios_symbols_parse(syms, (const char *)p, n, "fuzz-symbols", &err);
		break;
	default:
		sample_row(db, version, tables[(kind - K_TABLES) % N_TABLES], p, n);
	}
}

static void schema(sqlite3 *db, int version, int legacy)
{
	char sql[2048];

	snprintf(sql, sizeof sql,
		 "CREATE TABLE BTraceModel(trace_id INTEGER,start_time INTEGER,end_time INTEGER,sdk_init_time REAL,"
		 "os_version TEXT,bundle_id TEXT,dump_time INTEGER,tag TEXT,info TEXT%s);"
		 "INSERT INTO BTraceModel VALUES(1,1700000000000000,1700000005000000,1.0,'17.0','com.fuzz',0,'',''%s);"
		 "CREATE TABLE ThreadInfoModel(trace_id INTEGER,tid INTEGER,name TEXT);"
		 "CREATE TABLE ImageInfoModel(trace_id INTEGER,address INTEGER,len INTEGER,type INTEGER,name TEXT,uuid TEXT);"
		 "INSERT INTO ImageInfoModel VALUES(1,4294967296,16384,0,'/x/App.app/App','00');"
		 "CREATE TABLE TimeSeriesModel(trace_id INTEGER,tid INTEGER,timestamp INTEGER,type TEXT,info TEXT);",
		 legacy ? "" : ",version INTEGER,main_tid INTEGER", legacy ? "" : (version == 1 ? ",1,259" :
		 version == 2 ? ",2,259" : version == 3 ? ",3,259" : ",4,259"));
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { 0 };
	struct bt_err err = BT_ERR_INIT;
	struct bt_ios_stacks syms;
	struct bt_ios_ctx c;
	struct bt_diag diag;
	struct bt_db *out = NULL;
	sqlite3 *db = NULL;
	int version, legacy;
	size_t i = 1;

	if (size < 1)
		return 0;
	version = 1 + data[0] % 4;
	legacy = data[0] >> 7;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		abort();
	schema(db, version, legacy);
	bt_diag_init(&diag);
	bt_ios_stacks_init(&syms, NULL, &diag, "fuzz-symbols");
	while (i + 3 <= size) {
		int kind = data[i] % (K_TABLES + (int)N_TABLES);
		size_t n = (size_t)data[i + 1] | (size_t)data[i + 2] << 8;
		i += 3;
		if (n > size - i)
			n = size - i;
		chunk(db, version, kind, data + i, n, &syms);
		i += n;
	}
	bt_ios_stacks_release(&syms);
	memset(&c, 0, sizeof c);
	c.path = "fuzz.db";
	c.conn = db;
	c.diag = &diag;
	if (bt_db_create(&out, ":memory:", &err))
		abort();
	if (!bt_db_begin(out, &err))
		bt_ios_import(&c, out, &o, 0, &err);
	bt_db_close(out);
	sqlite3_close(db);
	return 0;
}
