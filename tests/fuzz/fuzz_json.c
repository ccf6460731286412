/*
 * libFuzzer harness for the JSON report reader, compare's input: the pull
 * reader (engine/base/jsonr.c) walks each input held in memory at its
 * exact size, so a read past the end is ASan's; then the input, written
 * to one temporary file (made on the first call, removed at exit), is
 * loaded as a report by compare's runs (engine/compare/runs.c), twice a
 * side, sharing metric names; the runs are then compared (the family of
 * tests, the causes, the headline: hostile metric names reach them) and
 * written in every format to /dev/null, and calibrated. The same input
 * is also peeked (bt_runs_peek) and read as a fleet summary on both sides
 * (engine/compare/fleetcmp_sum.c: histograms dealt to runs), whose
 * comparison takes Holm's family.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/jsonr.h"
#include "engine/compare/calibrate.h"
#include "engine/compare/compare.h"
#include "engine/compare/fleetcmp.h"
#include "engine/compare/runs.h"
#include "reports/compare/cmp_report.h"
#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every value of the text through every reader call; the result of the
 * walk is not the point, only that no call misbehaves. */
static int walk(struct bt_jr *r, struct bt_buf *s)
{
	double d;
	int64_t i;
	int more = 0, rc = BT_OK;

	switch (bt_jr_peek(r)) {
	case BT_J_OBJECT:
		if (bt_jr_object(r))
			return 1;
		while (!rc && (more = bt_jr_key(r, s)) == 1)
			rc = walk(r, s);
		return rc || more < 0;
	case BT_J_ARRAY:
		if (bt_jr_array(r))
			return 1;
		while (!rc && (more = bt_jr_more(r)) == 1)
			rc = walk(r, s);
		return rc || more < 0;
	case BT_J_STRING:
		return bt_jr_string(r, s) != BT_OK;
	case BT_J_NUMBER: {
		struct bt_jr again = *r;
		if (bt_jr_int(&again, &i) < 0)
			return 1;
		return bt_jr_number(r, &d) != BT_OK;
	}
	default:
		return bt_jr_skip(r) != BT_OK;
	}
}

static void read_in_memory(const uint8_t *data, size_t size)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf s = BT_BUF_INIT;
	char *copy = bt_xmalloc(size ? size : 1);   /* exact size: overreads are caught */
	struct bt_jr r;

	memcpy(copy, data, size);
	bt_jr_init(&r, copy, size, "fuzz.json", &err);
	if (!walk(&r, &s))
		bt_jr_finish(&r);
	bt_jr_init(&r, copy, size, "fuzz.json", &err);
	if (!bt_jr_skip(&r))
		bt_jr_finish(&r);
	(void)bt_jr_offset(&r);
	bt_buf_release(&s);
	free(copy);
}

/* Compare, write, calibrate: whatever the names and values hold. */
static void judge(const struct bt_runs *rs, int holm)
{
	static const struct bt_cmprep_reporter *const reps[] = { &bt_cmprep_text, &bt_cmprep_md, &bt_cmprep_json,
							      &bt_cmprep_html };
	struct bt_err err = BT_ERR_INIT;
	struct bt_cmp_opts o;
	struct bt_compare c;
	struct bt_calibration cal;
	struct bt_cmprep_view v;
	FILE *null = fopen("/dev/null", "w");
	size_t i;

	memset(&o, 0, sizeof o);
	bt_gate_defaults(&o.def);
	o.holm = holm;
	if (null && !bt_compare_run(&c, rs, &o, &err)) {
		memset(&v, 0, sizeof v);
		v.c = &c;
		v.top = 10;
		for (i = 0; i < sizeof reps / sizeof reps[0]; i++)
			(void)reps[i]->write(&v, null, &err);
		bt_compare_release(&c);
	}
	if (null && !holm && !bt_calibrate(&cal, rs, &o, 2, 3, &err)) {
		(void)bt_cmprep_calibration_write(&cal, NULL, null, &err);
		bt_calibration_release(&cal);
	}
	if (null)
		fclose(null);
}

/* The input as a fleet summary on both sides, compared by Holm. */
static void fleet_summary(const char *path)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_runs rs;
	size_t traces;
	int report;
	double v;

	(void)bt_runs_peek(path, "startup.ttid_ns", &report, &v, &err);
	memset(&err, 0, sizeof err);
	(void)bt_fleetcmp_is_summary(path);
	bt_runs_init(&rs);
	if (!bt_fleetcmp_summary_runs(&rs, BT_BASE, path, &traces, &err) &&
	    !bt_fleetcmp_summary_runs(&rs, BT_HEAD, path, &traces, &err))
		judge(&rs, 1);
	bt_runs_release(&rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct bt_err err = BT_ERR_INIT;
	struct bt_runs rs;
	size_t r, id;
	double sum = 0;   /* read, so the lookups are not optimised away */

	read_in_memory(data, size);
	path = fuzz_write_input("fuzz-json", data, size);
	bt_runs_init(&rs);
	if (!bt_runs_add_report(&rs, BT_BASE, path, &err) && !bt_runs_add_report(&rs, BT_BASE, path, &err) &&
	    !bt_runs_add_report(&rs, BT_HEAD, path, &err) && !bt_runs_add_report(&rs, BT_HEAD, path, &err)) {
		judge(&rs, 0);
		for (r = 0; r < rs.nruns; r++)
			for (id = 0; id < rs.nnames; id++) {
				double v = bt_runs_value(&rs, r, id);
				if (!isnan(v))
					sum += v;
			}
	}
	bt_runs_release(&rs);
	fleet_summary(path);
	return isnan(sum) ? 0 : 0;
}
