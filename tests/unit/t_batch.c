/*
 * Unit tests of the batch's parts (engine/batch/batch_int.h): the content
 * hash (pinned values, a file read in chunks hashes as its bytes do),
 * shards that partition, the walk over a tree (sorted, hidden names, the
 * skipped directory, a link loop, one file by two names), and manifest
 * lines read back (a later line wins, a cut last line is ignored, a bad
 * one named by its line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/batch/batch.h"
#include "engine/batch/batch_int.h"
#include "tests/tap.h"

static char dir[] = "/tmp/t_batch-XXXXXX";

static char *at(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *name, const void *p, size_t n)
{
	FILE *f = fopen(at(name), "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		abort();
}

static void test_chash(void)
{
	static const size_t lens[] = { 0, 1, 31, 32, 33, 64, 100000, 262143, 262144, 262145, 600001 };
	char a[BT_CHASH_HEX], b[BT_CHASH_HEX];
	unsigned char *data = malloc(600001);
	struct bt_err err = BT_ERR_INIT;
	uint64_t size = 0;
	size_t i, same = 1, sized = 1;

	for (i = 0; i < 600001; i++)
		data[i] = (unsigned char)(i * 2654435761u >> 13);
	bt_chash_bytes("", 0, a);
	is_str(a, "517b346c5b231e2b06437ed78f965b79", "the hash of nothing is pinned (outputs keep their names)");
	bt_chash_bytes("abc", 3, b);
	is_str(b, "033f13f92c8e1052ec687e97e73b634d", "the hash of 'abc' is pinned");
	bt_chash_bytes("abc\0", 4, a);
	ok(strcmp(a, b), "a trailing zero byte changes the hash");
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		put("h", data, lens[i]);
		bt_chash_bytes(data, lens[i], a);
		if (bt_chash_file(at("h"), b, &size, &err) || strcmp(a, b))
			same = 0;
		sized &= size == lens[i];
	}
	ok(same, "a file read in chunks hashes as its bytes do, at every chunk boundary");
	ok(sized, "... and its size is told");
	bt_chash_bytes(data, 100000, a);
	data[50000] ^= 1;
	bt_chash_bytes(data, 100000, b);
	ok(strcmp(a, b), "one bit flipped changes the hash");
	is_int(strlen(a), 32, "32 hex digits");
	ok(bt_chash_file(at("nosuch"), a, &size, &err) == BT_EIO && strstr(err.msg, "nosuch"),
	   "a missing file is BT_EIO naming it");
	free(data);
}

static void test_shards(void)
{
	int s, n, i, k, in[7] = { 0 }, twice = 0, none = 0, lo = 1000, hi = 0;
	char path[64];

	ok(!bt_batch_shard_parse("0/1", &s, &n) && s == 0 && n == 1, "0/1 parses");
	ok(!bt_batch_shard_parse("6/7", &s, &n) && s == 6 && n == 7, "6/7 parses");
	ok(bt_batch_shard_parse("7/7", &s, &n) && bt_batch_shard_parse("-1/3", &s, &n) &&
	   bt_batch_shard_parse("1/0", &s, &n) && bt_batch_shard_parse("1", &s, &n) &&
	   bt_batch_shard_parse("1/2x", &s, &n) && bt_batch_shard_parse("/2", &s, &n),
	   "7/7, -1/3, 1/0, 1, 1/2x and /2 are refused");
	for (i = 0; i < 1400; i++) {
		int hits = 0;
		snprintf(path, sizeof path, "dumps/device-%d/sampling.bin", i);
		for (k = 0; k < 7; k++) {
			if (bt_batch_in_shard(path, k, 7)) {
				hits++;
				in[k]++;
			}
		}
		twice += hits > 1;
		none += hits == 0;
	}
	for (k = 0; k < 7; k++) {
		lo = in[k] < lo ? in[k] : lo;
		hi = in[k] > hi ? in[k] : hi;
	}
	ok(!twice && !none, "every path is in exactly one of 7 shards");
	ok(lo > 140 && hi < 260, "the shards are about even (200 each of 1400)");
	ok(bt_batch_in_shard("x", 0, 0) && bt_batch_in_shard("x", 0, 1), "no shards: every path");
}

static void test_find(void)
{
	struct bt_batch_list l = { 0 };
	struct bt_err err = BT_ERR_INIT;
	char *inputs[2];
	struct bt_buf got = BT_BUF_INIT;
	size_t i;

	mkdir(at("t"), 0777);
	mkdir(at("t/b"), 0777);
	mkdir(at("t/a"), 0777);
	mkdir(at("t/.git"), 0777);
	mkdir(at("t/out"), 0777);
	put("t/b/2", "x", 1);
	put("t/a/1", "y", 1);
	put("t/.git/h", "z", 1);
	put("t/.dot", "z", 1);
	put("t/out/r", "z", 1);
	if (link(at("t/a/1"), at("t/b/same")) || symlink("..", at("t/a/up")))
		abort();
	inputs[0] = at("t");
	inputs[1] = at("t/b/2");
	ok(!bt_batch_find(inputs, 2, at("t/out"), &l, &err), "a tree is walked");
	for (i = 0; i < l.n; i++)
		bt_buf_addf(&got, "%s ", l.v[i].path + strlen(dir) + 1);
	is_str(got.buf, "t/a/1 t/b/2 ", "sorted, each file once (a link loop, a second name and an "
	       "input given twice aside), no hidden names, no skipped directory");
	ok(l.n == 2 && l.v[0].size == 1 && l.v[0].exit_code == -1 && l.v[0].seconds < 0,
	   "sizes, and nothing run yet");
	bt_batch_list_release(&l);
	inputs[0] = at("nosuch");
	ok(bt_batch_find(inputs, 1, NULL, &l, &err) == BT_EIO && strstr(err.msg, "nosuch"),
	   "a missing input is BT_EIO naming it");
	bt_batch_list_release(&l);
	bt_buf_release(&got);
}

static void item(struct bt_batch_item *it, const char *path, const char *hash, enum bt_batch_status st)
{
	memset(it, 0, sizeof *it);
	it->path = (char *)path;
	snprintf(it->hash, sizeof it->hash, "%s", hash);
	it->status = st;
	it->exit_code = -1;
	it->seconds = -1;
	it->peak_kb = -1;
}

static void test_manifest(void)
{
	struct bt_batch_item a, b, c;
	struct bt_batch_list l = { 0 };
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf text = BT_BUF_INIT;
	const char *h1 = "00112233445566778899aabbccddeeff", *h2 = "ffeeddccbbaa99887766554433221100";

	item(&a, "d/\"q\".bin", h1, BT_BATCH_FAILED);
	a.exit_code = 1;
	a.error = (char *)"truncated header in 'x' at offset 0";
	a.seconds = 0.25;
	a.peak_kb = 7000;
	a.importer = "android-sampling";
	item(&b, "d/map.bin", "", BT_BATCH_SKIPPED);
	b.error = (char *)"a mapping";
	item(&c, "d/ok.bin", h2, BT_BATCH_OK);
	c.exit_code = 0;
	bt_manifest_line(&a, 0, &text);
	bt_manifest_line(&b, 0, &text);
	bt_manifest_line(&c, 1, &text);
	ok(strstr(text.buf, "\"report\":\"reports/ffeeddccbbaa99887766554433221100.json\",\"db\":\"db/"),
	   "an ok line names its report and database");
	ok(strstr(text.buf, "\"path\":\"d/\\\"q\\\".bin\""), "paths are JSON strings");
	a.error = (char *)"second try";
	bt_manifest_line(&a, 0, &text);
	bt_buf_adds(&text, "{\"path\":\"cut");
	put("m.jsonl", text.buf, text.len);
	ok(!bt_manifest_load(at("m.jsonl"), &l, &err), "read back");
	is_int(l.n, 2, "the traces' records (not the skipped file's), one per hash");
	ok(l.n == 2 && !strcmp(l.v[0].hash, h1) && l.v[0].status == BT_BATCH_FAILED && l.v[0].exit_code == 1 &&
	   l.v[0].peak_kb == 7000 && l.v[0].seconds == 0.25, "a failed record's fields");
	is_str(l.n ? l.v[0].error : NULL, "second try", "a later line of the same trace wins");
	ok(l.n == 2 && l.v[1].status == BT_BATCH_OK && !l.v[1].error, "an ok record");
	bt_batch_list_release(&l);
	bt_buf_adds(&text, "\n{\"path\":1}\n");
	put("m.jsonl", text.buf, text.len);
	ok(bt_manifest_load(at("m.jsonl"), &l, &err) == BT_EFORMAT && strstr(err.msg, "m.jsonl: line 6"),
	   "a line that is no record: BT_EFORMAT naming its line (the cut line before it skipped)");
	bt_batch_list_release(&l);
	bt_buf_reset(&text);
	bt_buf_adds(&text, "{\"path\":\"cut");   /* a run killed while writing, the next one's line after it */
	bt_manifest_line(&a, 0, &text);
	put("m.jsonl", text.buf, text.len);
	ok(!bt_manifest_load(at("m.jsonl"), &l, &err) && l.n == 0,
	   "a cut line a later run went on in: skipped (its traces run again)");
	bt_batch_list_release(&l);
	ok(!bt_manifest_load(at("none.jsonl"), &l, &err) && l.n == 0, "no manifest: no records");
	{   /* numbers past what the fields hold (found by fuzz_manifest: an inf cast to long, UB) */
		static const char *const bad[] = {
			"{\"path\":\"a\",\"hash\":\"00112233445566778899aabbccddeeff\",\"status\":\"failed\",\"exit\":1e999}\n",
			"{\"path\":\"a\",\"hash\":\"00112233445566778899aabbccddeeff\",\"status\":\"failed\",\"peak_rss_kb\":-5}\n",
			"{\"path\":\"a\",\"hash\":\"00112233445566778899aabbccddeeff\",\"status\":\"failed\",\"seconds\":1e999}\n",
		};
		size_t i;
		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			put("bad.jsonl", bad[i], strlen(bad[i]));
			ok(bt_manifest_load(at("bad.jsonl"), &l, &err) == BT_EFORMAT && strstr(err.msg, "line 1"),
			   "a count or time past its field's range: no record, BT_EFORMAT naming the line");
			bt_batch_list_release(&l);
			bt_err_clear(&err);
		}
	}
	put("empty.jsonl", "", 0);   /* a batch killed before its first line (found by fuzz_manifest: UB) */
	ok(!bt_manifest_load(at("empty.jsonl"), &l, &err) && l.n == 0, "an empty manifest: no records");
	bt_buf_release(&text);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_chash();
	test_shards();
	test_find();
	test_manifest();
	{
		char cmd[64];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return done_testing();
}
