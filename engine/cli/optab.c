/*
 * The option tables: every option once (its names, value, help line and
 * parser), and per command the list of those it takes. 'help COMMAND'
 * lists them from here, in table order; the options shared by the
 * commands that load a trace are one group.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/batch/batch.h"
#include "engine/cli/opts.h"
#include "engine/recon/slice.h"

#define F(x) offsetof(struct bt_opts, x)
#define FC(x) offsetof(struct bt_opts_compare, x)
#define FB(x) offsetof(struct bt_opts_batch, x)
#define FM(x) offsetof(struct bt_opts_merge, x)
#define VALUE(n, a, h, f) { .name = n, .arg = a, .help = h, .kind = BT_OPTK_VALUE, .field = F(f) }
#define READ_FILE(n, a, h, f) { .name = n, .arg = a, .help = h, .kind = BT_OPTK_VALUE, .field = F(f), \
				.files = BT_OPT_READS }
#define WRITE_FILE(n, a, h, f) { .name = n, .arg = a, .help = h, .kind = BT_OPTK_VALUE, .field = F(f), \
				 .files = BT_OPT_WRITES }

/* An unknown policy is refused when parsed, whatever the input (where a
 * known one cannot apply, bt_cmd_load refuses it). */
static int slice_policy(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	enum bt_slice_policy p;

	(void)o;
	(void)name;
	return bt_slice_policy_parse(v, &p, err);
}

/* Options of every command that loads a trace. */
static const struct bt_opt opt_output = { .name = "--output", .alias = "-o", .kind = BT_OPTK_VALUE,
					  .field = F(out), .files = BT_OPT_WRITES };
static const struct bt_opt opt_format = { .name = "--format", .kind = BT_OPTK_VALUE, .field = F(format) };
static const struct bt_opt opt_quiet = { .name = "--quiet", .alias = "-q",
					 .help = "no progress and no warnings on stderr",
					 .kind = BT_OPTK_FLAG, .field = F(quiet) };
static const struct bt_opt opt_verbose = { .name = "--verbose", .alias = "-v",
					   .help = "also warn of what every healthy trace has\n"
						   "(unlinked waits, orphan wakers; the report counts them)",
					   .kind = BT_OPTK_FLAG, .field = F(verbose) };
static const struct bt_opt opt_mapping =
	READ_FILE("--mapping", "FILE", "the mapping (sampling-mapping.bin, methodMapping.txt), when not beside the trace", mapping);
static const struct bt_opt opt_retrace =
	READ_FILE("--retrace", "FILE", "ProGuard/R8 mapping.txt to de-obfuscate class and method names",
	      retrace);
static const struct bt_opt opt_symbols =
	READ_FILE("--symbols", "FILE", "iOS: address -> name map ('0xADDR name' lines, atos output);\n"
	      "without it frames are shown as image+0xoffset", symbols);
static const struct bt_opt opt_strict = {
	.name = "--strict", .kind = BT_OPTK_FLAG, .field = F(strict),
	.help = "refuse an input cut short (exit 1) instead of importing\n"
		"it up to its last intact record, marked partial" };
static const struct bt_opt opt_db = WRITE_FILE("--db", "FILE", "keep the imported database in FILE", db);
static const struct bt_opt opt_slice_policy = {
	.name = "--slice-policy", .arg = "P", .kind = BT_OPTK_VALUE, .field = F(slice_policy),
	.parse = slice_policy,
	.help = "where frames begin and end between samples: idle\n"
		"(default: a thread waiting for work is idle, in no method's\n"
		"time; docs/slices.md), midpoint (gaps split in\n"
		"half, no idle state) or btrace (upstream's exact boundaries,\n"
		"as Perfetto UI showed them)" };

static const struct bt_opt opt_process = VALUE("--process", "NAME|PID|all",
	"Perfetto: the process to analyse, by name (or its last\n"
	"path component) or pid; by default the app being started\n"
	"(the 'launching:' target, else the process whose main\n"
	"thread ran bindApplication, activityStart or\n"
	"activityResume), else the one with most slices;\n"
	"systrace: the main process (default: most slices);\n"
	"all: every process's threads and slices, keyed by pid\n"
	"(table processes), the app chosen as above leading", process);

static const struct bt_opt *const load_opts[] = {
	&opt_mapping, &opt_retrace, &opt_symbols, &opt_process, &opt_db, &opt_slice_policy, &opt_strict,
	&opt_quiet, &opt_verbose, NULL
};

/* analyze */
static const struct bt_opt opt_rules = {
	.name = "--rules", .arg = "FILE.lua", .kind = BT_OPTK_LIST, .field = F(rules), .count = F(nrules),
	.files = BT_OPT_READS,
	.help = "run a rule file (repeatable; see 'help rules');\n"
		"examples/startup.lua holds the app-startup review rules" };
static const struct bt_opt opt_set = {
	.name = "--set", .arg = "KEY=VALUE", .kind = BT_OPTK_LIST, .field = F(sets), .count = F(nsets),
	.help = "a rule parameter: RULE.param or param (repeatable; the\n"
		"last --set of a key wins)" };
static const struct bt_opt opt_fail_on = VALUE("--fail-on", "SEV",
	"exit 3 when a finding is at least SEV (info, warning,\n"
	"error); the report is written first", fail_on);
static const struct bt_opt opt_perfetto = WRITE_FILE("--perfetto", "OUT.pb",
	"also write the reconstructed slices as a Perfetto trace\n"
	"(open in ui.perfetto.dev): one track per thread, slices by\n"
	"short name with the signature beside it, upstream's\n"
	"annotations (zeros and values a slice shares with its parent\n"
	"left out), flow arrows from each waker to the wait it ended;\n"
	"names interned as the Perfetto SDK writes them", perfetto);
static const struct bt_opt opt_pprof = WRITE_FILE("--pprof", "OUT.pb.gz",
	"also write a pprof profile (gzip'd profile.proto; 'go tool\n"
	"pprof OUT.pb.gz'): the self values of each call path per\n"
	"thread and Looper message; sample types wall, cpu, offcpu\n"
	"(nanoseconds), alloc_space (bytes), alloc_objects, majflt;\n"
	"functions by short name, the signature as system_name;\n"
	"labels thread (\"main\" for the main thread, else its name\n"
	"or \"tid N\"), thread_name (every thread's), tid and msg_id\n"
	"(none outside messages): -tagfocus thread=main, -tags", pprof);
static const struct bt_opt opt_folded = WRITE_FILE("--folded", "OUT.txt",
	"also write folded stacks for FlameGraph (flamegraph.pl) and\n"
	"speedscope: a line \"THREAD;outer;...;leaf VALUE\" per call\n"
	"path with a positive value; the root frame is the thread's\n"
	"name (\"tid N\" if unnamed, \" (tid N)\" added if shared),\n"
	"the others short method names; in names ';' becomes ':'\n"
	"and a line break a space", folded);
static const struct bt_opt opt_folded_metric = VALUE("--folded-metric", "M",
	"the folded values: wall (default), cpu or offcpu, in integer\n"
	"nanoseconds of self time, or alloc, in bytes allocated", folded_metric);

static const struct bt_opt opt_speedscope = WRITE_FILE("--speedscope", "OUT",
	"also write speedscope's JSON file format (speedscope.app;\n"
	"OUT.json, or OUT.json.gz gzip'd, which speedscope reads\n"
	"as well), each thread's profiles in their units: \"THREAD:\n"
	"wall time\", its slices as a timeline (nanoseconds since\n"
	"the trace's start, idle ones too); \"THREAD: CPU time\"\n"
	"(nanoseconds) and \"THREAD: allocated bytes\" (bytes), the\n"
	"self values of its call paths; the main thread's first;\n"
	"frames by short name, the signature as their file", speedscope);

static const struct bt_opt opt_idle = {
	.name = "--idle", .kind = BT_OPTK_FLAG, .field = F(show_idle),
	.help = "keep idle time (a thread waiting for work) in the HTML\n"
		"flame graphs, pprof and folded stacks, as an \"(idle)\"\n"
		"frame; left out by default, as it is no method's time" };

static const struct bt_opt opt_full_names = {
	.name = "--full-names", .kind = BT_OPTK_FLAG, .field = F(full_names),
	.help = "full method signatures in the reports and exports\n"
		"(default: \"FeedAdapter.bind\", lengthened only where two\n"
		"methods would read alike; JSON, SQL, pprof's system_name,\n"
		"the xlsx signature columns and the Perfetto trace's\n"
		"signature annotations always keep them)" };

static int width(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < 40 || n > 10000)
		return bt_err_set(err, BT_EUSAGE, "%s wants a number of columns from 40, not '%s'", name, v);
	o->width = (int)n;
	return BT_OK;
}

static const struct bt_opt opt_width = {
	.name = "--width", .arg = "N", .kind = BT_OPTK_VALUE, .parse = width,
	.help = "text tables within N columns (default: the terminal's\nwidth when writing to one)" };
/* Repeatable: one report written in several formats. */
static const struct bt_opt opt_report_outputs = {
	.name = "--output", .alias = "-o", .arg = "OUT", .kind = BT_OPTK_LIST, .field = F(outs),
	.count = F(nouts), .files = BT_OPT_WRITES };
static const struct bt_opt *const analyze_opts[] = {
	&opt_report_outputs, &opt_format, &opt_rules, &opt_set, &opt_fail_on, &opt_perfetto, &opt_pprof,
	&opt_folded, &opt_folded_metric, &opt_speedscope, &opt_idle, &opt_width, &opt_full_names, NULL
};
const struct bt_optcmd bt_optab_analyze = { analyze_opts, load_opts, 19, NULL, NULL, sizeof(struct bt_opts), NULL };

/* import, query */
static const struct bt_opt *const import_opts[] = { &opt_output, NULL };
const struct bt_optcmd bt_optab_import = { import_opts, load_opts, 19, NULL, NULL, sizeof(struct bt_opts), NULL };

static const struct bt_opt opt_query_outputs = {
	.name = "--output", .alias = "-o", .arg = "OUT", .kind = BT_OPTK_LIST, .field = F(outs),
	.count = F(nouts), .files = BT_OPT_WRITES, .help = "write the rows to OUT (repeatable; the format from its\n"
				  "extension: .txt a table, .csv, .tsv, .json)" };
static const struct bt_opt *const query_opts[] = { &opt_query_outputs, &opt_format, &opt_width, NULL };
const struct bt_optcmd bt_optab_query = { query_opts, load_opts, 19, NULL, NULL, sizeof(struct bt_opts), NULL };

/* compare */
static int max_regress(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	if (bt_gate_parse_pct(v, &BT_OPTS_OF(struct bt_opts_compare, o)->gate.max_regress))
		return bt_err_set(err, BT_EUSAGE, "%s wants a percentage like 5%%, not '%s'", name, v);
	return BT_OK;
}

static int alpha(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	char *end;
	double d = strtod(v, &end);

	if (end == v || *end || !(d > 0 && d < 1))
		return bt_err_set(err, BT_EUSAGE, "%s wants a number between 0 and 1, not '%s'", name, v);
	BT_OPTS_OF(struct bt_opts_compare, o)->gate.alpha = d;
	return BT_OK;
}

static int noise_floor(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	if (bt_gate_parse_floor(v, &BT_OPTS_OF(struct bt_opts_compare, o)->gate))
		return bt_err_set(err, BT_EUSAGE, "%s wants an amount like 2ms, 64KB or 3, not '%s'", name, v);
	return BT_OK;
}

static int count_into(int *at, const char *name, const char *v, int least, struct bt_err *err)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < least || n > 100000)
		return bt_err_set(err, BT_EUSAGE, "%s wants a count from %d, not '%s'", name, least, v);
	*at = (int)n;
	return BT_OK;
}

static int top(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	return count_into(&BT_OPTS_OF(struct bt_opts_compare, o)->top, name, v, 0, err);
}

static int cal_runs(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	return count_into(&BT_OPTS_OF(struct bt_opts_compare, o)->cal_runs, name, v, 2, err);
}

/* Each split is a whole compare with its own 10,000 relabelings, so the
 * splits are bounded where they stop telling more: 10,000 place a 1 %
 * false-alarm rate within +-0.2 %. */
#define CAL_SPLITS_MAX 10000

static int cal_splits(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	struct bt_opts_compare *co = BT_OPTS_OF(struct bt_opts_compare, o);
	int rc = count_into(&co->cal_splits, name, v, 1, err);

	if (!rc && co->cal_splits > CAL_SPLITS_MAX)
		rc = bt_err_set(err, BT_EUSAGE, "%s wants at most %d A/A comparisons, not '%s': each is a "
				"whole compare, and %d place a 1 %% false-alarm rate within 0.2 %%",
				name, CAL_SPLITS_MAX, v, CAL_SPLITS_MAX);
	return rc;
}

static int one_gate_script(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	(void)v;
	if (BT_OPTS_OF(struct bt_opts_compare, o)->gates)
		return bt_err_set(err, BT_EUSAGE, "compare takes one gate script (%s)", name);
	return BT_OK;
}

static void compare_init(struct bt_opts *o)
{
	struct bt_opts_compare *co = BT_OPTS_OF(struct bt_opts_compare, o);

	bt_gate_defaults(&co->gate);
	co->top = 10;
	co->cal_runs = 5;
	co->cal_splits = 100;
}

static const struct bt_opt opt_base = {
	.name = "--base", .arg = "R...", .help = "the baseline runs (files until the next option)",
	.kind = BT_OPTK_RUNS, .field = FC(base), .count = FC(nbase), .files = BT_OPT_READS };
static const struct bt_opt opt_head = {
	.name = "--head", .arg = "R...", .help = "the candidate runs",
	.kind = BT_OPTK_RUNS, .field = FC(head), .count = FC(nhead), .files = BT_OPT_READS };
static const struct bt_opt opt_max_regress = {
	.name = "--max-regress", .arg = "P", .help = "relative threshold, e.g. 5% (default)",
	.kind = BT_OPTK_VALUE, .parse = max_regress };
static const struct bt_opt opt_noise_floor = {
	.name = "--noise-floor", .arg = "F", .kind = BT_OPTK_VALUE, .parse = noise_floor,
	.help = "absolute threshold by unit: 2ms, 64KB, 3 (repeatable;\n"
		"defaults 1ms, 64KiB, 0)" };
static const struct bt_opt opt_calibrate = {
	.name = "--calibrate", .arg = "R...", .kind = BT_OPTK_RUNS, .field = FC(calib), .count = FC(ncalib), .files = BT_OPT_READS,
	.help = "runs of one build: the false-alarm rate of A/A\nsplits and each metric's smallest detectable change" };
static const struct bt_opt opt_cal_runs = {
	.name = "--runs", .arg = "N", .help = "--calibrate: runs a side (default 5)",
	.kind = BT_OPTK_VALUE, .parse = cal_runs };
static const struct bt_opt opt_cal_splits = {
	.name = "--splits", .arg = "K", .help = "--calibrate: A/A comparisons (default 100, at most 10000)",
	.kind = BT_OPTK_VALUE, .parse = cal_splits };
static const struct bt_opt opt_alpha = {
	.name = "--alpha", .arg = "A", .help = "family-wise significance level (default 0.01)",
	.kind = BT_OPTK_VALUE, .parse = alpha };
static const struct bt_opt opt_metric = {
	.name = "--metric", .arg = "GLOB", .help = "gate only the metrics matching GLOB (repeatable)",
	.kind = BT_OPTK_LIST, .field = FC(globs), .count = FC(nglobs) };
static const struct bt_opt opt_require_decision = {
	.name = "--require-decision", .help = "exit 5 when the runs decide nothing (the verdict is\n"
	"inconclusive: too few runs, or too noisy): CI runs more and compares again",
	.kind = BT_OPTK_FLAG, .field = FC(require_decision) };
static const struct bt_opt opt_sequential = {
	.name = "--sequential", .help = "for CI that adds runs as it goes: decide only at 6, 8, 10, 13, 16 and\n"
	"20 runs a side, each look at alpha / 6; exit 0 unchanged or improved, 3 regressed,\n"
	"6 run more (the headline says how many), 5 no decision after the last look",
	.kind = BT_OPTK_FLAG, .field = FC(sequential) };
static const struct bt_opt opt_fail_inconclusive = {
	.name = "--fail-inconclusive", .help = "exit 3 also when a gated metric is inconclusive",
	.kind = BT_OPTK_FLAG, .field = FC(fail_inconclusive) };
static const struct bt_opt opt_gates = {
	.name = "--rules", .arg = "gates.lua", .help = "a gate script: per-metric thresholds and verdicts",
	.kind = BT_OPTK_VALUE, .field = FC(gates), .parse = one_gate_script, .files = BT_OPT_READS };
static const struct bt_opt opt_top = {
	.name = "--top", .arg = "N", .help = "diff rows per list in text and Markdown (default 10)",
	.kind = BT_OPTK_VALUE, .parse = top };
static const struct bt_opt opt_analyze_rules = {
	.name = "--analyze-rules", .arg = "F", .help = "rule file for traces analysed here (repeatable)",
	.kind = BT_OPTK_LIST, .field = FC(arules), .count = FC(narules), .files = BT_OPT_READS };
static const struct bt_opt opt_analyze_set = {
	.name = "--set", .arg = "KEY=VALUE", .help = "a parameter of those rules",
	.kind = BT_OPTK_LIST, .field = F(sets), .count = F(nsets) };

static const struct bt_opt opt_cmp_process = {
	.name = "--process", .arg = "NAME|PID",
	.help = "captures of several processes (databases of 'import A B\n"
		"C'), analysed here: gate the main thread of this process\n"
		"(its name, its ':suffix' or its pid), not the lead's",
	.kind = BT_OPTK_VALUE, .field = F(process) };

/* Repeatable: one comparison written in several formats. */
static const struct bt_opt opt_outputs = {
	.name = "--output", .alias = "-o", .arg = "OUT", .kind = BT_OPTK_LIST, .field = F(outs),
	.count = F(nouts), .files = BT_OPT_WRITES,
	.help = "write the comparison to OUT (repeatable)" };
static const struct bt_opt opt_cmp_format = {
	.name = "--format", .arg = "F", .kind = BT_OPTK_VALUE, .field = F(format),
	.help = "text, md, json or xlsx, for a single -o or stdout" };

static const struct bt_opt opt_cmp_verbose = { .name = "--verbose", .alias = "-v",
					       .help = "on a terminal, every detail too (the policy, every\n"
						       "metric, the methods and waits that moved); and warn of\n"
						       "what every healthy trace has",
					       .kind = BT_OPTK_FLAG, .field = F(verbose) };
static const struct bt_opt *const compare_opts[] = {
	&opt_outputs, &opt_cmp_format, &opt_base, &opt_head, &opt_max_regress, &opt_noise_floor, &opt_alpha,
	&opt_metric, &opt_fail_inconclusive, &opt_require_decision, &opt_sequential, &opt_gates, &opt_top, &opt_analyze_rules, &opt_analyze_set,
	&opt_cmp_process, &opt_calibrate, &opt_cal_runs, &opt_cal_splits, &opt_width, &opt_quiet, &opt_cmp_verbose, NULL
};
const struct bt_optcmd bt_optab_compare = {
	compare_opts, NULL, 20, NULL, compare_init, sizeof(struct bt_opts_compare), NULL
};

/* batch */
static int jobs(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	return count_into(&BT_OPTS_OF(struct bt_opts_batch, o)->jobs, name, v, 1, err);
}

static int shard(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	struct bt_opts_batch *bo = BT_OPTS_OF(struct bt_opts_batch, o);

	if (bt_batch_shard_parse(v, &bo->shard, &bo->nshards))
		return bt_err_set(err, BT_EUSAGE, "%s wants I/N with 0 <= I < N, like 0/4, not '%s'", name, v);
	return BT_OK;
}

static int timeout(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	return count_into(&BT_OPTS_OF(struct bt_opts_batch, o)->timeout, name, v, 1, err);
}

static const struct bt_opt opt_timeout = {
	.name = "--timeout", .arg = "S", .kind = BT_OPTK_VALUE, .parse = timeout,
	.help = "kill a worker that runs longer than S seconds (its\ntrace is failed: timed out); default: no limit" };
static const struct bt_opt opt_jobs = {
	.name = "--jobs", .alias = "-j", .arg = "N", .kind = BT_OPTK_VALUE, .parse = jobs,
	.help = "analyse N traces at once (default: the cores this\nprocess may run on)" };
static const struct bt_opt opt_shard = {
	.name = "--shard", .arg = "I/N", .kind = BT_OPTK_VALUE, .parse = shard,
	.help = "only share I of N (0-based) of the files found, by a hash\n"
		"of their paths: the N shards of the same inputs are\n"
		"disjoint and together all; its manifest is\n"
		"manifest-I-of-N.jsonl" };
static const struct bt_opt opt_keep_db = {
	.name = "--db", .kind = BT_OPTK_FLAG, .field = FB(keep_db),
	.help = "keep each trace's database too, as OUTDIR/db/HASH.db" };
static const struct bt_opt opt_retry_failed = {
	.name = "--retry-failed", .kind = BT_OPTK_FLAG, .field = FB(retry_failed),
	.help = "analyse again the traces an earlier run recorded as\n"
		"failed (by default their record is kept)" };
static const struct bt_opt opt_batch_set = {
	.name = "--set", .arg = "KEY=VALUE", .kind = BT_OPTK_LIST, .field = F(sets), .count = F(nsets),
	.help = "a rule parameter, as for analyze (repeatable)" };
static const struct bt_opt opt_batch_rules = {
	.name = "--rules", .arg = "FILE.lua", .kind = BT_OPTK_LIST, .field = F(rules), .count = F(nrules),
	.files = BT_OPT_READS,
	.help = "run these rule files on every trace (repeatable)" };

static const struct bt_opt *const batch_opts[] = {
	&opt_output, &opt_jobs, &opt_shard, &opt_batch_rules, &opt_batch_set, &opt_keep_db, &opt_retry_failed,
	&opt_timeout, NULL
};
static const struct bt_opt *const batch_load_opts[] = {
	&opt_retrace, &opt_symbols, &opt_slice_policy, &opt_strict, &opt_quiet, NULL
};
const struct bt_optcmd bt_optab_batch = { batch_opts, batch_load_opts, 19, NULL, NULL, sizeof(struct bt_opts_batch), NULL };

/* --group KEY=VALUE: for the inputs after it, so where it came is kept. */
static int group(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	struct bt_opts_merge *mo = BT_OPTS_OF(struct bt_opts_merge, o);
	const char *eq = strchr(v, '=');

	if (!eq || eq == v)
		return bt_err_set(err, BT_EUSAGE, "%s takes KEY=VALUE (KEY= to stop a key), not '%s'", name, v);
	mo->group_at = bt_xrealloc(mo->group_at, ((size_t)mo->ngroups + 1) * sizeof *mo->group_at);
	mo->group_at[mo->ngroups] = o->ninputs;
	return BT_OK;
}

static void merge_init(struct bt_opts *o)
{
	BT_OPTS_OF(struct bt_opts_merge, o)->top = 20;
}

static void merge_release(struct bt_opts *o)
{
	struct bt_opts_merge *mo = BT_OPTS_OF(struct bt_opts_merge, o);

	free(mo->group_at);
	mo->group_at = NULL;
}

static int merge_top(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	return count_into(&BT_OPTS_OF(struct bt_opts_merge, o)->top, name, v, 0, err);
}

static const struct bt_opt opt_merge_outputs = {
	.name = "--output", .alias = "-o", .arg = "OUT", .kind = BT_OPTK_LIST, .field = F(outs),
	.count = F(nouts), .files = BT_OPT_WRITES,
	.help = "write the fleet report to OUT: .json (the fleet summary,\nan input of merge), .md, .html or .xlsx (repeatable)" };
static const struct bt_opt opt_merge_format = {
	.name = "--format", .arg = "F", .kind = BT_OPTK_VALUE, .field = F(format),
	.help = "json, md, html or xlsx, for a single -o or stdout (md)" };
static const struct bt_opt opt_group = {
	.name = "--group", .arg = "KEY=VALUE", .kind = BT_OPTK_LIST, .field = FM(groups), .count = FM(ngroups),
	.parse = group,
	.help = "group the inputs after it under KEY=VALUE (repeatable;\nKEY= stops it), e.g. --group version=A dirA" };
static const struct bt_opt opt_merge_top = {
	.name = "--top", .arg = "N", .help = "methods and waits per group in md, html, xlsx (20)",
	.kind = BT_OPTK_VALUE, .parse = merge_top };
static const struct bt_opt opt_merge_full_names = {
	.name = "--full-names", .help = "full method signatures", .kind = BT_OPTK_FLAG, .field = F(full_names) };

static const struct bt_opt *const merge_opts[] = {
	&opt_merge_outputs, &opt_merge_format, &opt_group, &opt_merge_top, &opt_merge_full_names, &opt_width, &opt_quiet,
	NULL
};
const struct bt_optcmd bt_optab_merge = { merge_opts, NULL, 22, NULL, merge_init, sizeof(struct bt_opts_merge),
					    merge_release };
