/*
 * Unit tests of the option parser (engine/cli/opts.c) over the commands'
 * tables (optab.c) and a table of the test's own: values, flags, lists and
 * runs lists stored where the table says, the refusals with their
 * messages, the clobber check, and the help lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/opts.h"
#include "tests/tap.h"

#define N(a) ((int)(sizeof(a) / sizeof(a)[0]))

/* Parse argv (argv[0] the command) by c into o; the code, with err's message. */
static int parse(struct bt_opts *o, const struct bt_optcmd *c, int argc, const char **argv, struct bt_err *err)
{
	*err = (struct bt_err)BT_ERR_INIT;
	return bt_opts_parse(o, c, argc, (char **)argv, err);	/* not written to */
}

/* Room for any command's options (a command's table fills its own struct). */
union any_opts {
	struct bt_opts o;
	struct bt_opts_compare c;
	struct bt_opts_batch b;
	struct bt_opts_merge m;
};

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void test_analyze(void)
{
	const char *argv[] = { "analyze", "a.bin", "-o", "r.md", "--output=r.json", "--rules", "x.lua",
			 "--set", "k=1", "--rules=y.lua", "-q", "--format", "md", "--format=json",
			 "--slice-policy", "midpoint", "--width", "100", "-", "--", "-dash", "--idle" };
	struct bt_err err;
	struct bt_opts o;

	is_int(parse(&o, &bt_optab_analyze, N(argv), argv, &err), BT_OK, "analyze: a full command line parses");
	is_str(o.cmd, "analyze", "the command is kept for messages");
	is_int(o.ninputs, 4, "inputs: the positional ones, '-' and those after '--'");
	is_str(o.inputs[0], "a.bin", "first input");
	is_str(o.inputs[1], "-", "'-' is an input, not an option");
	is_str(o.inputs[2], "-dash", "after '--' a dash is an input");
	is_str(o.inputs[3], "--idle", "after '--' an option's name is an input");
	ok(!o.show_idle, "... and sets nothing");
	is_int(o.nouts, 2, "-o is repeatable in analyze");
	is_str(o.outs[1], "r.json", "--output=VALUE form");
	is_int(o.nrules, 2, "--rules twice");
	is_str(o.rules[1], "y.lua", "--rules=VALUE appended");
	is_int(o.nsets, 1, "one --set");
	is_str(o.sets[0], "k=1", "--set value");
	is_int(o.quiet, 1, "-q sets quiet");
	is_int(o.verbose, 0, "-v not given");
	is_str(o.format, "json", "a value given twice: the last is kept");
	is_str(o.slice_policy, "midpoint", "--slice-policy stored");
	is_int(o.width, 100, "--width parsed into the int");
	is_int(o.help, 0, "no help asked");
	bt_opts_release(&o, &bt_optab_analyze);
	ok(!o.inputs && !o.rules && !o.outs, "release clears the lists");
}

static void refused(const struct bt_optcmd *c, int argc, const char **argv, const char *msg, const char *what)
{
	struct bt_err err;
	union any_opts u;

	is_int(parse(&u.o, c, argc, argv, &err), BT_EUSAGE, what);
	is_str(err.msg, msg, what);
	bt_opts_release(&u.o, c);
}

static void test_refusals(void)
{
	const char *near[] = { "analyze", "--rule", "x.lua" };
	const char *far[] = { "analyze", "--zzzzzzzz" };
	const char *flagv[] = { "analyze", "--quiet=1" };
	const char *novalue[] = { "analyze", "in", "--db" };
	const char *policy[] = { "analyze", "--slice-policy", "fastest" };
	const char *narrow[] = { "analyze", "--width", "39" };
	const char *nonnum[] = { "query", "--width=80x" };
	const char *notimport[] = { "import", "--perfetto", "x.pb" };
	const char *alpha[] = { "compare", "--alpha", "1" };
	const char *gates[] = { "compare", "--rules", "a.lua", "--rules", "b.lua" };
	const char *jobs[] = { "batch", "-j", "0" };
	const char *shard[] = { "batch", "--shard", "4/4" };
	const char *splits[] = { "compare", "--splits", "10001" };
	const char *group[] = { "merge", "--group", "=v", "dir" };

	refused(&bt_optab_analyze, N(near), near, "unknown option '--rule' for 'analyze'; did you mean '--rules'?",
		"a misspelt option: the nearest is suggested");
	refused(&bt_optab_analyze, N(far), far,
		"unknown option '--zzzzzzzz' for 'analyze' (see 'btrace-analyze help analyze')",
		"an unknown option with none near: the help is named");
	refused(&bt_optab_analyze, N(flagv), flagv, "option '--quiet' takes no value", "a flag given a value");
	refused(&bt_optab_analyze, N(novalue), novalue, "option '--db' needs a value", "a value missing at the end");
	refused(&bt_optab_analyze, N(policy), policy, "unknown slice policy 'fastest' (known: idle, midpoint, btrace)",
		"an unknown slice policy is refused when parsed");
	refused(&bt_optab_analyze, N(narrow), narrow, "--width wants a number of columns from 40, not '39'",
		"--width below 40");
	refused(&bt_optab_query, N(nonnum), nonnum, "--width wants a number of columns from 40, not '80x'",
		"--width with trailing text");
	{
		struct bt_err err;
		struct bt_opts o;
		is_int(parse(&o, &bt_optab_import, N(notimport), notimport, &err), BT_EUSAGE,
		       "import has no --perfetto");
		ok(starts(err.msg, "unknown option '--perfetto' for 'import'"), "... and says so");
		bt_opts_release(&o, &bt_optab_import);
	}
	refused(&bt_optab_compare, N(alpha), alpha, "--alpha wants a number between 0 and 1, not '1'", "--alpha 1");
	refused(&bt_optab_compare, N(gates), gates, "compare takes one gate script (--rules)",
		"a second gate script is refused");
	refused(&bt_optab_batch, N(jobs), jobs, "--jobs wants a count from 1, not '0'", "-j 0, by its alias");
	refused(&bt_optab_batch, N(shard), shard, "--shard wants I/N with 0 <= I < N, like 0/4, not '4/4'",
		"a shard past the last");
	{
		struct bt_err err;
		struct bt_opts_compare co;
		is_int(parse(&co.o, &bt_optab_compare, N(splits), splits, &err), BT_EUSAGE, "--splits past 10000");
		ok(starts(err.msg, "--splits wants at most 10000 A/A comparisons, not '10001'"), "... says the bound");
		bt_opts_release(&co.o, &bt_optab_compare);
	}
	refused(&bt_optab_merge, N(group), group, "--group takes KEY=VALUE (KEY= to stop a key), not '=v'",
		"--group without a key");
}

static void test_compare_merge_batch(void)
{
	const char *cmp[] = { "compare", "--base", "b1", "b2", "-q", "b3", "--max-regress", "7%", "x", "--head=h1", "h2",
			"--metric", "wall*", "--top", "3", "--noise-floor", "2ms" };
	const char *defaults[] = { "compare", "in" };
	const char *merge[] = { "merge", "d0", "--group", "v=A", "d1", "d2", "--group", "v=", "d3" };
	const char *batch[] = { "batch", "in", "--shard=1/4", "-j", "3", "--db", "--timeout", "60" };
	const char *help[] = { "analyze", "--bogus-but-later", "-h" };
	const char *help2[] = { "merge", "--help" };
	struct bt_err err;
	union any_opts u;

	is_int(parse(&u.o, &bt_optab_compare, N(cmp), cmp, &err), BT_OK, "compare: runs lists parse");
	is_int(u.c.nbase, 3, "--base takes the positionals after it, flags between allowed");
	is_str(u.c.base[2], "b3", "... the one after -q too");
	is_int(u.o.quiet, 1, "... and the flag between them is set");
	is_int(u.c.nhead, 2, "--head=R adds R and the ones after");
	ok(u.c.gate.max_regress > 0.0699 && u.c.gate.max_regress < 0.0701, "--max-regress 7% is 0.07");
	is_int(u.o.ninputs, 1, "a positional after an option with a value ends the runs: an input");
	is_str(u.o.inputs[0], "x", "... that input");
	is_int(u.c.nglobs, 1, "--metric");
	is_int(u.c.top, 3, "--top parsed");
	ok(u.c.gate.floor_ns > 1.99e6 && u.c.gate.floor_ns < 2.01e6, "--noise-floor 2ms sets the time floor");
	bt_opts_release(&u.o, &bt_optab_compare);
	is_int(parse(&u.o, &bt_optab_compare, N(defaults), defaults, &err), BT_OK, "compare: no options");
	is_int(u.c.top, 10, "compare's init: --top 10");
	is_int(u.c.cal_runs, 5, "compare's init: --runs 5");
	is_int(u.c.cal_splits, 100, "compare's init: --splits 100");
	ok(u.c.gate.alpha > 0 && u.c.gate.alpha < 1, "compare's init: the gate's defaults");
	bt_opts_release(&u.o, &bt_optab_compare);

	is_int(parse(&u.o, &bt_optab_merge, N(merge), merge, &err), BT_OK, "merge: groups parse");
	is_int(u.m.ngroups, 2, "two --group");
	is_int(u.o.ninputs, 4, "inputs around them");
	is_int(u.m.group_at[0], 1, "the first group starts at the input after it");
	is_int(u.m.group_at[1], 3, "'v=' at the fourth input");
	is_str(u.m.groups[1], "v=", "KEY= kept as given");
	is_int(u.m.top, 20, "merge's init: --top 20");
	bt_opts_release(&u.o, &bt_optab_merge);

	is_int(parse(&u.o, &bt_optab_batch, N(batch), batch, &err), BT_OK, "batch parses");
	is_int(u.b.shard, 1, "--shard=1/4: I");
	is_int(u.b.nshards, 4, "--shard=1/4: N");
	is_int(u.b.jobs, 3, "-j 3");
	is_int(u.b.keep_db, 1, "batch's --db is a flag");
	is_int(u.b.timeout, 60, "--timeout");
	bt_opts_release(&u.o, &bt_optab_batch);

	is_int(parse(&u.o, &bt_optab_analyze, 2, help, &err), BT_EUSAGE, "an unknown option before -h is refused");
	bt_opts_release(&u.o, &bt_optab_analyze);
	is_int(parse(&u.o, &bt_optab_analyze, N(help) - 1, help + 1, &err), BT_OK, "'-h' alone parses");
	is_int(u.o.help, 1, "-h sets help");
	bt_opts_release(&u.o, &bt_optab_analyze);
	is_int(parse(&u.o, &bt_optab_merge, N(help2), help2, &err), BT_OK, "'--help' in a command with no common");
	is_int(u.o.help, 1, "--help sets help");
	bt_opts_release(&u.o, &bt_optab_merge);
}

/* A table of the test's own: runs lists that take every positional, and
 * a stray reason for one before any. */
static int seen_parse;
static int count_parse(struct bt_opts *o, const char *name, const char *v, struct bt_err *err)
{
	(void)o;
	(void)name;
	seen_parse++;
	return !strcmp(v, "no") ? bt_err_set(err, BT_EUSAGE, "no") : BT_OK;
}

static void test_own_table(void)
{
	static const struct bt_opt runs = { .name = "--runs-of", .arg = "R", .kind = BT_OPTK_RUNS,
					    .field = offsetof(struct bt_opts, rules),
					    .count = offsetof(struct bt_opts, nrules), .parse = count_parse };
	static const struct bt_opt nowhere = { .name = "--nowhere", .arg = "V", .kind = BT_OPTK_VALUE,
					       .parse = count_parse };
	static const struct bt_opt *const opts[] = { &runs, &nowhere, NULL };
	static const struct bt_optcmd c = { opts, NULL, 10, "give runs after --runs-of", NULL, 0, NULL };
	const char *stray[] = { "t", "a" };
	const char *ok1[] = { "t", "--runs-of=r1", "r2", "--nowhere", "v" };
	const char *after[] = { "t", "--runs-of", "r1", "--nowhere", "v", "r2" };
	const char *dashdash[] = { "t", "--runs-of", "r1", "--", "r2" };
	const char *bad[] = { "t", "--nowhere", "no" };
	struct bt_err err;
	struct bt_opts o;

	is_int(parse(&o, &c, N(stray), stray, &err), BT_EUSAGE, "a stray positional refused");
	is_str(err.msg, "'a': give runs after --runs-of", "... with the table's reason");
	bt_opts_release(&o, &c);
	seen_parse = 0;
	is_int(parse(&o, &c, N(ok1), ok1, &err), BT_OK, "runs with a stray reason");
	is_int(o.nrules, 2, "the runs list: r1 and r2, up to the option with a value");
	is_int(o.ninputs, 0, "no inputs when positionals belong to runs");
	is_int(seen_parse, 2, "the parser sees '--runs-of=r1' and --nowhere's value, not the bare runs");
	bt_opts_release(&o, &c);
	is_int(parse(&o, &c, N(after), after, &err), BT_EUSAGE, "an option with a value ends the runs list");
	is_str(err.msg, "'r2': give runs after --runs-of", "... so a positional after it is stray");
	bt_opts_release(&o, &c);
	is_int(parse(&o, &c, N(dashdash), dashdash, &err), BT_EUSAGE,
	       "'--' is no end of options where runs take positionals");
	bt_opts_release(&o, &c);
	is_int(parse(&o, &c, N(bad), bad, &err), BT_EUSAGE, "the entry's parser refuses");
	is_str(err.msg, "no", "... with its message");
	bt_opts_release(&o, &c);
}

static void test_clobber(void)
{
	char dir[] = "/tmp/t_opts-XXXXXX", in[64], link[64], out[64];
	const char *args[5];
	struct bt_err err;
	struct bt_opts o;
	FILE *fp;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(in, sizeof in, "%s/in.bin", dir);
	snprintf(link, sizeof link, "%s/link.bin", dir);
	snprintf(out, sizeof out, "%s/out.md", dir);
	fp = fopen(in, "w");
	if (fp)
		fclose(fp);
	ok(!symlink("in.bin", link), "a link to the input");
	args[0] = "analyze";
	args[1] = in;
	args[2] = "-o";
	args[3] = link;
	is_int(parse(&o, &bt_optab_analyze, 4, args, &err), BT_EUSAGE, "an output that is the input (by a link)");
	ok(strstr(err.msg, "refusing to write '") && strstr(err.msg, "link.bin': it is the input '")
	   && strstr(err.msg, "in.bin' (the same file)"), "... names both");
	bt_opts_release(&o, &bt_optab_analyze);
	args[3] = out;
	is_int(parse(&o, &bt_optab_analyze, 4, args, &err), BT_OK, "another output is fine");
	bt_opts_release(&o, &bt_optab_analyze);
	args[3] = in;
	args[4] = "-h";
	is_int(parse(&o, &bt_optab_analyze, 5, args, &err), BT_OK, "with -h nothing is checked");
	bt_opts_release(&o, &bt_optab_analyze);
	unlink(link);
	unlink(in);
	rmdir(dir);
}

static void test_print(void)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, longest = 0;
	FILE *fp = open_memstream(&buf, &len);

	bt_opts_print(&bt_optab_analyze, fp);
	fclose(fp);
	ok(strstr(buf, "  -q, --quiet ") != NULL, "help: alias, then name");
	ok(strstr(buf, "  --rules FILE.lua ") != NULL, "help: a value's name");
	ok(strstr(buf, "\noptions:\n") != NULL, "help: the shared group under 'options:'");
	ok(strstr(buf, "--output ") == NULL, "help: an entry without help text is not listed");
	ok(strstr(buf, "--rules") < strstr(buf, "--db "), "help: the command's own first");
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > longest)
			longest = strlen(line);
	ok(longest <= 80, "help: lines within 80 columns");
	free(buf);
}

int main(void)
{
	test_analyze();
	test_refusals();
	test_compare_merge_batch();
	test_own_table();
	test_clobber();
	test_print();
	return done_testing();
}
