/*
 * libFuzzer harness for merge's readers (engine/fleet/): each input, held
 * in memory at its exact size (a read past the end is ASan's), is read as
 * a summary and as a fleet summary; what reads is added to (or merged
 * into) a fleet twice, regrouped, written as the fleet JSON and read back
 * (the bytes must be equal: a fleet's JSON is a fixed point), and written
 * in every report format to /dev/null. Then the input, as a file, goes
 * through merge's input loader, which picks the reader by its schema.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet/fleet.h"
#include "engine/fleet/inputs.h"
#include "engine/fleet/summary.h"
#include "reports/fleet/fleet_report.h"
#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *json_of(struct bt_fleet *f, size_t *len)
{
	struct bt_err err = BT_ERR_INIT;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	if (!m)
		abort();
	(void)bt_fleet_write_json(f, m, &err);
	fclose(m);
	return buf;
}

/* The fleet's JSON read back writes the same bytes; every report format. */
static void exercise(struct bt_fleet *f)
{
	static const struct bt_fleetrep_reporter *const reps[] = { &bt_fleetrep_md, &bt_fleetrep_html, &bt_fleetrep_json };
	struct bt_err err = BT_ERR_INIT;
	struct bt_fleet back;
	struct bt_fleetrep_view v;
	struct bt_jr r;
	size_t len, len2, i;
	char *a = json_of(f, &len), *b;
	FILE *null = fopen("/dev/null", "w");

	bt_jr_init(&r, a, len, "fleet.json", &err);
	if (bt_fleet_read(&r, &back) || bt_jr_finish(&r))
		abort();   /* what merge writes, merge reads */
	b = json_of(&back, &len2);
	if (len != len2 || memcmp(a, b, len))
		abort();   /* and it is a fixed point */
	bt_fleet_release(&back);
	free(a);
	free(b);
	bt_fleetrep_view_build(&v, f, 5, 0);
	for (i = 0; null && i < sizeof reps / sizeof reps[0]; i++)
		(void)reps[i]->write(&v, null, &err);
	bt_fleetrep_view_release(&v);
	if (null)
		fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_fleet_stats st = { 0, 0, 0, 0 };
	struct bt_sum_kv g = { (char *)"version", (char *)"fuzz" };
	char *copy = bt_xmalloc(size ? size : 1);
	struct bt_summary s;
	struct bt_fleet f, o;
	struct bt_jr r;

	memcpy(copy, data, size);
	bt_fleet_init(&f);
	bt_jr_init(&r, copy, size, "fuzz.json", &err);
	if (!bt_summary_read(&r, &s)) {
		bt_fleet_add(&f, &s);
		bt_summary_set_group(&s, "version", "x");
		bt_fleet_add(&f, &s);
		bt_summary_release(&s);
	}
	bt_jr_init(&r, copy, size, "fuzz.json", &err);
	if (!bt_fleet_read(&r, &o)) {
		bt_fleet_merge(&f, &o);
		bt_fleet_regroup(&o, "version", "y");
		bt_fleet_merge(&f, &o);
		bt_fleet_release(&o);
	}
	exercise(&f);
	bt_fleet_release(&f);
	bt_fleet_init(&f);
	(void)bt_fleet_load(&f, fuzz_write_input("fuzz-fleet", data, size), &g, 1, &st, &err);
	bt_fleet_release(&f);
	free(copy);
	return 0;
}
