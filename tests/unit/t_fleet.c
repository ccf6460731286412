/*
 * Unit tests of the fleet summary (engine/fleet/): the sketch's quantiles
 * against exact ones on many random values (the stated 1 % bound), its
 * merge exact in any order; a fleet built from random summaries (enough
 * methods and group values to fold past the limits, mid-way too) written
 * to the same bytes however the summaries are ordered, partitioned and
 * merged through files; the "other" sums exact; bad input refused.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet/fleet.h"
#include "engine/fleet/sketch.h"
#include "engine/fleet/summary.h"
#include "tests/tap.h"

static uint64_t rng = 88172645463325252u;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double unif(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* ---- the sketch -------------------------------------------------------- */

static void sketch_bounds(void)
{
	enum { N = 200000, PARTS = 7 };
	int64_t *v = malloc(N * sizeof *v);
	struct bt_dist all, part[PARTS], merged;
	double worst = 0;
	int bad = 0, same, pm, i, k;

	bt_dist_init(&all);
	bt_dist_init(&merged);
	for (k = 0; k < PARTS; k++)
		bt_dist_init(&part[k]);
	for (i = 0; i < N; i++) {   /* log-uniform over 1 ns .. 100 s, some zeros, some ones */
		double u = unif();
		v[i] = u < 0.01 ? 0 : u < 0.02 ? 1 : (int64_t)exp(unif() * log(1e11));
		bt_dist_add(&all, v[i]);
		bt_dist_add(&part[rnd() % PARTS], v[i]);
	}
	qsort(v, N, sizeof *v, cmp_i64);
	for (pm = 1; pm <= 1000; pm++) {
		int64_t r = ((int64_t)pm * N + 999) / 1000, exact = v[(r < 1 ? 1 : r) - 1];
		int64_t est = bt_dist_quantile(&all, pm);
		double err = fabs((double)est - (double)exact);
		if (err > BT_DIST_ALPHA * (double)exact + 0.5)
			bad++;
		if (exact > 0 && (err - 0.5) / (double)exact > worst)   /* past rounding's 0.5 */
			worst = (err - 0.5) / (double)exact;
	}
	ok(!bad, "every permille quantile of 200,000 log-uniform values within 1 % of the exact one");
	printf("# worst relative error (past rounding) %.5f (bound %.2f)\n", worst, BT_DIST_ALPHA);
	ok(worst <= BT_DIST_ALPHA, "the worst relative error is within the bound");
	for (k = PARTS - 1; k >= 0; k--)   /* merged in another order */
		bt_dist_merge(&merged, &part[k]);
	same = merged.n == all.n && merged.sum == all.sum && merged.zeros == all.zeros && merged.min == all.min &&
	       merged.max == all.max && merged.lo == all.lo && merged.nc == all.nc;
	for (i = 0; same && i < (int)all.nc; i++)
		same = merged.c[i] == all.c[i];
	ok(same, "7 parts merged in reverse equal the whole, bucket by bucket");
	is_int(bt_dist_index(1), 0, "1 is bucket 0");
	is_int(bt_dist_quantile(&all, 0) >= 0, 1, "p0 is defined");
	for (i = 1, bad = 0; i < 2000000; i = i * 3 / 2 + 1) {
		double r = bt_dist_rep(bt_dist_index(i));
		if (fabs(r - i) > BT_DIST_ALPHA * i)
			bad++;
	}
	ok(!bad, "each value's bucket stands for it within 1 %");
	is_int(bt_dist_index(INT64_MAX) < BT_DIST_NBUCKETS, 1, "INT64_MAX has a bucket");
	/* around every bound the int64 range reaches: the first bucket whose
	 * bound gamma^i is not below the value, whatever the logarithm said */
	for (i = 1, bad = 0; i < BT_DIST_NBUCKETS && pow(bt_dist_gamma(), i) < 9e18; i++) {
		int d;
		for (d = -2; d <= 2; d++) {
			int64_t x = (int64_t)pow(bt_dist_gamma(), i) + d;
			int b = bt_dist_index(x);
			if (x > 1 && !(pow(bt_dist_gamma(), b) >= (double)x && pow(bt_dist_gamma(), b - 1) < (double)x))
				bad++;
		}
	}
	ok(!bad, "values next to every bound land in the first bucket whose bound holds them");
	for (k = 0, bad = 0; k < 1000000; k++) {   /* and values anywhere: most skip the bounds */
		int64_t x = (int64_t)exp((double)(rand() % 1000000) * 4.3e-5) + rand() % 1000;
		int b = bt_dist_index(x);
		if (x > 1 && !(pow(bt_dist_gamma(), b) >= (double)x && pow(bt_dist_gamma(), b - 1) < (double)x))
			bad++;
	}
	ok(!bad, "a million values spread over 1 .. 2e18 land in the first bucket whose bound holds them");
	bt_dist_release(&all);
	bt_dist_release(&merged);
	for (k = 0; k < PARTS; k++)
		bt_dist_release(&part[k]);
	free(v);
}

static void sketch_small(void)
{
	struct bt_dist d;

	bt_dist_init(&d);
	is_int(bt_dist_quantile(&d, 500), 0, "an empty distribution's p50 is 0");
	bt_dist_add(&d, 1000000);
	is_int(bt_dist_quantile(&d, 500), 1000000, "one value: every quantile is it (clamped to min and max)");
	bt_dist_add(&d, 0);
	is_int(bt_dist_quantile(&d, 500), 0, "rank 1 of {0, 1e6} is 0");
	ok(fabs((double)bt_dist_quantile(&d, 990) - 1e6) <= 1e4, "rank 2 of {0, 1e6} is 1e6 within 1 %");
	bt_dist_add(&d, -5);
	is_int(d.zeros, 2, "a negative value counts as 0");
	bt_dist_release(&d);
}

/* ---- fleets ------------------------------------------------------------ */

enum { TRACES = 2400, METHODS = 4, METHOD_POOL = 12000, DEVICES = 700 };

static void random_summary(struct bt_summary *s, int t)
{
	static const char *const kinds[] = { "monitor", "wait", "park", "gc", "binder" };
	static const char *const vnames[] = { "startup.ttid_ns", "startup.phase.bind_application_ns",
					      "main.blocked_ns.monitor", "process.cpu_ns" };
	char b[96];
	size_t i;

	bt_summary_init(s);
	snprintf(b, sizeof b, "%d.0", t % 3);
	bt_summary_set_group(s, "app_version", b);
	snprintf(b, sizeof b, "Phone %d", (int)(rnd() % DEVICES));
	bt_summary_set_group(s, "device_model", b);
	bt_summary_set_group(s, "startup", rnd() % 4 ? "cold" : "warm");
	s->values = calloc(4, sizeof *s->values);
	for (i = 0; i < 4; i++) {
		if (i == 2 && t % 5 == 0)
			continue;   /* unknown stays absent */
		s->values[s->nvalues].name = strdup(vnames[i]);
		s->values[s->nvalues++].v = (int64_t)(exp(unif() * 8) * 1e6);
	}
	s->has_methods = s->has_waits = 1;
	s->methods = calloc(METHODS, sizeof *s->methods);
	for (i = 0; i < METHODS; i++) {
		snprintf(b, sizeof b, "void com.example.app.C%d.m(int)", (int)(rnd() % METHOD_POOL));
		s->methods[i].name = strdup(b);
		s->methods[i].self_cpu = (int64_t)(rnd() % 50000000);
		s->methods[i].self = s->methods[i].self_cpu + (int64_t)(rnd() % 1000000);
		s->methods[i].incl = s->methods[i].self * 3;
	}
	s->nmethods = METHODS;
	s->other_self_cpu = (int64_t)(rnd() % 300000000);
	s->other_self = s->other_self_cpu * 2;
	s->waits = calloc(6, sizeof *s->waits);
	for (i = 0; i < 6; i++) {
		snprintf(b, sizeof b, "void com.example.app.W%d.run()", (int)(rnd() % 900));
		s->waits[i].kind = strdup(kinds[rnd() % 5]);
		s->waits[i].holder = strdup(b);
		s->waits[i].waits = 1 + (int64_t)(rnd() % 3);
		s->waits[i].ns = (int64_t)(rnd() % 90000000);
	}
	s->nwaits = 6;
	s->other_waits = (int64_t)(rnd() % 4);
	s->other_ns = s->other_waits * 1000000;
}

static char *json_of(struct bt_fleet *f, size_t *len)
{
	struct bt_err err = BT_ERR_INIT;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	if (bt_fleet_write_json(f, m, &err))
		printf("# write: %s\n", err.msg);
	fclose(m);
	return buf;
}

/* A fleet of summaries idx[0..n), written and read back as a file would be. */
static void fleet_of(struct bt_fleet *out, struct bt_summary *s, const int *idx, int n)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_fleet f;
	struct bt_jr r;
	size_t len;
	char *j;
	int i;

	bt_fleet_init(&f);
	for (i = 0; i < n; i++)
		bt_fleet_add(&f, &s[idx[i]]);
	j = json_of(&f, &len);
	bt_fleet_release(&f);
	bt_jr_init(&r, j, len, "part.json", &err);
	if (bt_fleet_read(&r, out) || bt_jr_finish(&r)) {
		printf("# read back: %s\n", err.msg);
		bt_fleet_init(out);
	}
	free(j);
}

static void shuffle(int *idx, int n)
{
	int i;

	for (i = n - 1; i > 0; i--) {
		int k = (int)(rnd() % (uint64_t)(i + 1)), t = idx[i];
		idx[i] = idx[k];
		idx[k] = t;
	}
}

static void fleets(void)
{
	struct bt_summary *s = calloc(TRACES, sizeof *s);
	int *idx = malloc(TRACES * sizeof *idx), i, trial, same = 1;
	struct bt_fleet whole, acc;
	char *want, *got;
	size_t wlen, glen;
	int64_t cpu = 0, got_cpu;

	for (i = 0; i < TRACES; i++) {
		random_summary(&s[i], i);
		idx[i] = i;
		cpu += s[i].other_self_cpu;
		for (size_t k = 0; k < s[i].nmethods; k++)
			cpu += s[i].methods[k].self_cpu;
	}
	bt_fleet_init(&whole);
	for (i = 0; i < TRACES; i++)
		bt_fleet_add(&whole, &s[i]);
	want = json_of(&whole, &wlen);
	printf("# the whole fleet's JSON: %zu bytes\n", wlen);
	ok(bt_fleet_folded(&whole) > 0, "the random fleet folds methods and devices past the limits");
	is_int(whole.all.methods.n, BT_FLEET_METHODS, "the methods kept are the limit");
	got_cpu = whole.all.methods.other[0];
	for (size_t k = 0; k < whole.all.methods.n; k++)
		got_cpu += whole.all.methods.v[k].s[0];
	is_int(got_cpu, cpu, "the kept methods' self CPU plus other equals every summary's total");
	{
		const struct bt_fl_item *dev = bt_fl_find(&whole.keys, "device_model");
		ok(dev && dev->sub && dev->sub->n == BT_FLEET_GROUP_VALUES && dev->sub->other_group,
		   "device models past the limit are one 'other' group");
	}
	for (trial = 0; trial < 3; trial++) {   /* shuffled, partitioned, merged through JSON */
		int parts = 2 + trial * 5, at = 0, p;
		shuffle(idx, TRACES);
		bt_fleet_init(&acc);
		for (p = 0; p < parts; p++) {
			int n = p == parts - 1 ? TRACES - at : (int)(rnd() % (uint64_t)(2 * TRACES / parts));
			struct bt_fleet part;
			if (at + n > TRACES)
				n = TRACES - at;
			fleet_of(&part, s, idx + at, n);
			bt_fleet_merge(&acc, &part);
			bt_fleet_release(&part);
			at += n;
		}
		got = json_of(&acc, &glen);
		if (glen != wlen || memcmp(got, want, wlen)) {
			same = 0;
			printf("# trial %d (%d parts) differs\n", trial, parts);
		}
		free(got);
		bt_fleet_release(&acc);
	}
	ok(same, "3 shuffled partitions (2, 7, 12 parts, each through its JSON) give the same bytes as all at once");
	{   /* a merge of merges: ((a + b) + (c + d)) from files, against the whole */
		struct bt_fleet q[4], ab, cd;
		int n = TRACES / 4;
		shuffle(idx, TRACES);
		for (i = 0; i < 4; i++)
			fleet_of(&q[i], s, idx + i * n, i == 3 ? TRACES - 3 * n : n);
		bt_fleet_init(&ab);
		bt_fleet_merge(&ab, &q[1]);
		bt_fleet_merge(&ab, &q[0]);
		bt_fleet_init(&cd);
		bt_fleet_merge(&cd, &q[3]);
		bt_fleet_merge(&cd, &q[2]);
		bt_fleet_merge(&cd, &ab);
		got = json_of(&cd, &glen);
		ok(glen == wlen && !memcmp(got, want, wlen), "a merge of merges equals the merge of all, byte for byte");
		free(got);
		for (i = 0; i < 4; i++)
			bt_fleet_release(&q[i]);
		bt_fleet_release(&ab);
		bt_fleet_release(&cd);
	}
	free(want);
	bt_fleet_release(&whole);
	for (i = 0; i < TRACES; i++)
		bt_summary_release(&s[i]);
	free(s);
	free(idx);
}

static void regroup(void)
{
	struct bt_summary s;
	struct bt_fleet a, b;
	const struct bt_fl_item *k;

	random_summary(&s, 1);
	bt_fleet_init(&a);
	bt_fleet_add(&a, &s);
	bt_fleet_add(&a, &s);
	bt_fleet_regroup(&a, "app_version", "X");
	bt_fleet_init(&b);
	bt_fleet_merge(&b, &a);
	k = bt_fl_find(&b.keys, "app_version");
	ok(k && k->sub && k->sub->n == 1 && bt_fl_find(k->sub, "X") && bt_fl_find(k->sub, "X")->g->traces == 2,
	   "a regrouped fleet's traces are all under the new value, its old values gone");
	bt_fleet_release(&a);
	bt_fleet_release(&b);
	bt_summary_release(&s);
}

static void bad_input(void)
{
	static const char *const bad[] = {
		"{\"schema\":\"btrace-analyze/fleet@1\",\"all\":{\"traces\":1,\"values\":{\"x\":{\"n\":2,\"sum\":3,"
		"\"min\":1,\"max\":2,\"zeros\":0,\"buckets\":[[0,1]]}}}}",
		"{\"schema\":\"btrace-analyze/fleet@1\",\"all\":{\"values\":{\"x\":{\"n\":1,\"sum\":3,"
		"\"min\":1,\"max\":2,\"zeros\":0,\"buckets\":[[99999,1]]}}}}",
		"{\"schema\":\"btrace-analyze/fleet@1\",\"all\":{\"traces\":-1}}",
		"{\"schema\":\"btrace-analyze/report@1\"}",
	};
	struct bt_summary s;
	struct bt_fleet f;
	struct bt_jr r;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct bt_err err = BT_ERR_INIT;
		bt_jr_init(&r, bad[i], strlen(bad[i]), "bad.json", &err);
		ok(bt_fleet_read(&r, &f) == BT_EFORMAT && strstr(err.msg, "bad.json: byte "),
		   "a broken fleet summary is refused with its file and byte");
		printf("#   %s\n", err.msg);
	}
	{
		struct bt_err err = BT_ERR_INIT;
		const char *t = "{\"schema\":\"btrace-analyze/summary@1\",\"values\":{\"a\":-3}}";
		bt_jr_init(&r, t, strlen(t), "s.json", &err);
		ok(bt_summary_read(&r, &s) == BT_EFORMAT, "a negative summary value is refused");
	}
}

int main(void)
{
	sketch_small();
	sketch_bounds();
	regroup();
	bad_input();
	fleets();
	return done_testing();
}
