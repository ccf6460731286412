/*
 * "btrace-analyze help [COMMAND]": the overview and per-command help.
 */
#include <stdio.h>
#include <string.h>

#include "engine/cli/cmd.h"
#include "reports/text/grid.h"

#define HELP_COLS 80

static const char overview[] =
	"usage: btrace-analyze [analyze] INPUT... [--rules FILE.lua]... [-o REPORT]...\n"
	"       btrace-analyze import INPUT... -o trace.db [options]\n"
	"       btrace-analyze query INPUT|trace.db \"SQL\" [--format table|csv|tsv|json]\n"
	"       btrace-analyze compare --base R... --head R... [--rules gates.lua]\n"
	"       btrace-analyze compare DIR_A DIR_B | FLEET_A.json FLEET_B.json\n"
	"       btrace-analyze batch INPUT... -o OUTDIR [--jobs N] [--shard I/N]\n"
	"       btrace-analyze merge INPUT... [--group KEY=VALUE INPUT...]... [-o OUT]...\n"
	"       btrace-analyze help [COMMAND]\n"
	"       btrace-analyze --version\n"
	"\n"
	"Analyse btrace mobile performance traces. INPUT is recognised by content\n"
	"(the name and extension do not matter):\n"
	"  android-sampling  btrace 3.0 Android dump (sampling.bin); its mapping\n"
	"                    (sampling-mapping.bin) is found beside it, or --mapping;\n"
	"                    ProGuard/R8 names with --retrace mapping.txt\n"
	"  (directory)       a directory holding such a dump and its mapping\n"
	"  ios               btrace iOS database (SQLite), --symbols for addresses\n"
	"  perfetto          Perfetto trace (protobuf): btrace 2.0/3.0 exports,\n"
	"                    system traces, this tool's --perfetto output\n"
	"  btrace2           btrace 2.0 raw trace (appTrace.bin, or its directory);\n"
	"                    its methodMapping.txt (btrace's or Matrix's) is found\n"
	"                    beside it, or --mapping\n"
	"  art-method-trace  ART/Dalvik method trace (TraceView .trace: legacy,\n"
	"                    streaming, V2): Debug.startMethodTracing, am profile,\n"
	"                    Android Studio's Java method tracing\n"
	"  systrace          ftrace text of atrace/systrace (plain, gzip'd, atrace -z's\n"
	"                    TRACE: + zlib, or a systrace HTML page)\n"
	"  trace database    a database 'import' wrote (reused, not imported again)\n"
	"A mapping, a ProGuard mapping.txt, a zip or another gzip file given as INPUT\n"
	"is named in the error with what to pass instead.\n"
	"\n"
	"commands:\n"
	"  analyze   import a trace and print its report (the default command)\n"
	"  import    import a trace into a kept SQLite database\n"
	"  query     run read-only SQL against a trace\n"
	"  compare   compare base runs with head runs: regression gates with statistics\n"
	"  batch     analyse every trace under some directories with a pool of workers\n"
	"  merge     fold many traces' summaries into one fleet summary and report\n"
	"  help      show help for a command; 'help rules' documents rule files\n"
	"\n"
	"exit status: 0 ok, 1 bad input or runtime error, 2 usage error, 3 gate failed,\n"
	"4 some of a batch's traces failed, 5 compare --require-decision decided nothing,\n"
	"6 compare --sequential: run more\n";

/* A command's usage line, its text, the options of its table and the
 * text after them. */
static const struct {
	const char *name, *usage, *text;
	const struct bt_optcmd *opts;
	const char *after;
} helps[] = {
	{ "analyze", "btrace-analyze [analyze] INPUT... [--rules FILE.lua]... [-o REPORT] [--format text|json|md|html|xlsx] [options]",
	  "Import INPUT (or reuse a trace database), run the rules and write the\n"
	  "report: trace facts, findings, metrics, the rules' tables, diagnostics.\n"
	  "Without --rules the built-in attribution runs: where the wall, CPU,\n"
	  "off-CPU and blocked time, the allocations and the page faults went, per\n"
	  "thread and method (top-down and bottom-up), the main thread's waits and\n"
	  "who ended them, and its longest Looper messages.\n"
	  "The format follows -o's extension (.txt, .json, .md, .html, .xlsx) or\n"
	  "--format; default is text on stdout, as with -o - (the format is then\n"
	  "--format's, or text). -o may be given again: one report in each format,\n"
	  "each from its extension. -o, --db and the exports are written to a temporary\n"
	  "file renamed over the path at the end, so a failed or interrupted run\n"
	  "keeps the old file; through a symbolic link its target is replaced and the\n"
	  "link kept; a FIFO or device (/dev/stdout) is written through. The HTML\n"
	  "report is one self-contained page (nothing is fetched) with a flame graph\n"
	  "per thread (weighed by wall, CPU, off-CPU time or allocated bytes; the\n"
	  "callers and callees of a method) and every thread's timeline with all\n"
	  "its slices (up to 4,000,000), its waits and arrows from the slices that\n"
	  "ended them; on a terminal, writing it shows its progress after a second.\n"
	  "An .xlsx workbook holds a Summary (facts, findings by severity, metrics),\n"
	  "charts of the top methods and of blocked time, and a sheet per table.\n"
	  "Several btrace 3.0 dumps are the processes of one capture (the app's\n"
	  "main one, :push, :remote...): imported together as with import, the\n"
	  "report leads with the main process and lists the others.\n",
	  &bt_optab_analyze, NULL },
	{ "import", "btrace-analyze import INPUT... -o trace.db [options]",
	  "Import INPUT into the SQLite database trace.db (tables meta, threads,\n"
	  "thread_blocking, frames, nodes, samples, slices, messages, blocking_edges,\n"
	  "counters, track_slices, instants, thread_states, diagnostics).\n"
	  "The database appears only when the import succeeded.\n"
	  "Several btrace 3.0 dumps (each a file or directory) are the processes\n"
	  "of one capture: one database keyed by pid (table processes), each binder\n"
	  "call followed to the thread of another process that served it (table\n"
	  "binder_calls, and a blocking edge of kind binder). Refused: a dump\n"
	  "without a process id, one process twice, a thread in two processes,\n"
	  "dumps whose spans on the boot clock do not meet.\n",
	  &bt_optab_import, NULL },
	{ "query", "btrace-analyze query INPUT|trace.db \"SQL\" [--format table|csv|tsv|json] [-o FILE]",
	  "Run one read-only SQL statement against a trace and print the rows.\n"
	  "A dump is imported first (into memory, or into --db FILE). \".tables\"\n"
	  "lists the tables and views with their columns; SQL that does not prepare\n"
	  "is an error (exit 1) with SQLite's message.\n"
	  "example:\n"
	  "  btrace-analyze query sampling.bin \\\n"
	  "    \"SELECT t.name, count(*) FROM samples s JOIN threads t USING(tid)\n"
	  "     GROUP BY tid\"\n",
	  &bt_optab_query, NULL },
	{ "merge", "btrace-analyze merge INPUT... [--group KEY=VALUE INPUT...]... [-o fleet.json|md|html|xlsx]... [options]",
	  "Fold the summaries of many traces into one fleet summary and report it.\n"
	  "Every JSON report of 'analyze' carries its trace's summary: startup time\n"
	  "to initial and full display, each phase, the main thread's blocked time\n"
	  "by kind, wall, CPU and off-CPU time, the startup's top 32 app methods by\n"
	  "main-thread self CPU and its top 16 waits by holder, with exact sums of\n"
	  "the rest. An INPUT is such a report, a summary file, a fleet summary\n"
	  "(merge -o fleet.json) or a directory: every *.json under it, other JSON\n"
	  "files (a batch manifest) skipped. The merge is exact, associative and\n"
	  "commutative, in memory independent of the number of traces: counts,\n"
	  "sums and log-bucketed quantile sketches whose p50/p90/p99 are within 1 %\n"
	  "of the exact ones, so merging fleet summaries gives the bytes merging all\n"
	  "their traces at once gives. Traces are grouped by what they say (format,\n"
	  "package, startup kind; app_version, device_model, os_version where the\n"
	  "trace stores them) and by --group KEY=VALUE, which applies to the inputs\n"
	  "after it ('--group version=A dirA --group version=B dirB'; KEY= stops it;\n"
	  "a fleet summary's traces all go under it). Per group, the report gives\n"
	  "the distributions, the methods that dominate the startup's main-thread\n"
	  "CPU and the waits most often on its critical path. Each -o is written in\n"
	  "its extension's format (.json: the fleet summary; .md, .html, .xlsx), or\n"
	  "--format with one -o (stdout: Markdown); all are written or none.\n"
	  "The format: engine/fleet/README.md.\n",
	  &bt_optab_merge, NULL },
	{ "compare", "btrace-analyze compare --base R... --head R... | DIR_A DIR_B | FLEET_A.json FLEET_B.json | --calibrate R... [--rules gates.lua] [-o OUT]... [options]",
	  "Compare the runs of a base build with those of a head build, metric by\n"
	  "metric, name what moved and why. Each R is a JSON report ('analyze -o\n"
	  "run.json') or a trace, analysed here with the built-in rules (or\n"
	  "--analyze-rules). Gated by default (lua/gate.lua): the start (startup.*:\n"
	  "time to initial display, main-thread CPU and blocking by kind, the app's\n"
	  "methods' self CPU, self wall and inclusive time), the main thread's\n"
	  "messages after it (thread.main.msgs.*, totals scaled to the median run's\n"
	  "number of messages, and the app's methods in them) and its waits (mean\n"
	  "length, blocked time per second, by kind); whole-trace totals are shown,\n"
	  "not gated. The gated metrics are one family: p is family-wise (step-down\n"
	  "max-T over relabelings of the runs, one-sided per direction), so --alpha\n"
	  "(0.01) bounds the chance that a same build fails the gate; 5 + 5 runs are\n"
	  "the fewest that can reach p < 0.01. Verdict, with t = max(max-regress of\n"
	  "the base median, the noise floor of the metric's unit):\n"
	  "  regressed / improved   the median moved by more than t and p < alpha\n"
	  "  unchanged              it moved by t or less (or a method's, not p < alpha)\n"
	  "  inconclusive           it moved by more than t but p >= alpha: too few runs\n"
	  "                         to reach alpha at all, or too much noise\n"
	  "With one run a side, t alone decides. Each moved metric lists its causes\n"
	  "(methods, blocking kinds, lock holders of its scope) and the headline says\n"
	  "it in one line; text and Markdown give the compact table (base, head,\n"
	  "delta or ~, p, n) first, then the causes, then the details. Exit 3 when a\n"
	  "gated metric regressed. --calibrate RUNS... (one build's runs) reports the\n"
	  "false-alarm rate of --splits A/A comparisons of --runs a side and the\n"
	  "smallest change each metric can catch with 3, 5, 10, 20 runs.\n"
	  "Every R, gate script and rule file is checked (readable, a report or a\n"
	  "trace some importer recognises) before the first run is analysed. The\n"
	  "runs' warnings (what an import recovered from, as 'analyze' prints them)\n"
	  "are told once at the end, each kind with how many runs had it and which.\n"
	  "One comparison, written to every -o (repeatable: -o cmp.md -o cmp.json\n"
	  "-o cmp.xlsx), each in the format of its extension (.txt, .json, .md,\n"
	  ".xlsx, .html; text otherwise), or --format with a single -o (or none:\n"
	  "stdout). Either every output is written or none is; the JSON holds the\n"
	  "warnings too. An .xlsx workbook has a sheet per metric family, one for the\n"
	  "diff and a Charts sheet (each regressed metric's runs, base against head,\n"
	  "at most 20). An .html page is a differential flame graph of the main thread\n"
	  "from the reports' main_calltree: width the head's median inclusive time (or\n"
	  "CPU, or the base's), colour the change of self time (red grown, blue\n"
	  "shrunk, grey within the thresholds or p >= alpha; [+]/[-] only on one\n"
	  "side); click to zoom, hover for the medians. Paths under\n"
	  "attribution.tree_min_pct of the thread are not in a report (--set lowers\n"
	  "it).\n",
	  &bt_optab_compare,
	  "Fleets: 'compare DIR_A DIR_B' (or a folder as an R) reads the JSON reports\n"
	  "under each folder ('analyze -o' runs, a batch's output), one run per\n"
	  "trace; reports of traces without an app start are left out (told on\n"
	  "stderr, counted in the JSON). Same tests and family; gated by default: the\n"
	  "start's time to initial display, each phase (startup.phase.*), the main\n"
	  "thread's CPU and blocked time by kind, every thread's CPU and off-CPU in\n"
	  "the window (startup.process.*), the app's methods' self CPU, self wall\n"
	  "and inclusive time there. The headline and causes name the methods and\n"
	  "the waits' holders behind a move. 'compare FLEET_A.json FLEET_B.json'\n"
	  "compares two fleet summaries ('merge'): each measure's histogram read\n"
	  "back (1 %), one run per trace (2,000 a side at most), the family by Holm\n"
	  "(no per-trace joint values), a method's self CPU only; FILE#KEY=VALUE\n"
	  "takes one group of a summary (app_version=4.3.0) instead of all.\n"
	  "Gate script (Lua 5.4, the rules' sandbox):\n"
	  "  gate.defaults{ max_regress = \"5%\", noise_floor = { \"2ms\", \"64KB\" },\n"
	  "                 alpha = 0.01 }\n"
	  "  gate.metric(\"startup.duration_ns\", { max_regress = \"3%\",\n"
	  "                                        noise_floor = \"5ms\" })\n"
	  "  gate.metric(\"trace.*\", { gate = false })  -- also: higher_is_better = true\n"
	  "  gate.check(function(m)   -- every reported metric, after its verdict\n"
	  "    -- m.name, m.unit, m.gated, m.base/m.head {n, median, min, max, values},\n"
	  "    -- m.delta, m.rel, m.threshold, m.p (family-wise when gated), m.p_raw,\n"
	  "    -- m.cliffs_delta, m.shift, m.shift_lo, m.shift_hi, m.verdict, m.reason\n"
	  "    if m.name == \"thread.main.messages.over_100ms\"\n"
	  "        and m.head.median > m.base.median then\n"
	  "      return \"regressed\", \"more messages over 100 ms\"\n"
	  "    end\n"
	  "  end)\n"
	  "Declarations apply in order, later ones winning. examples/ci/ has a gate\n"
	  "script and a CI job.\n" },
	{ "batch", "btrace-analyze batch INPUT... -o OUTDIR [--jobs N] [--rules FILE.lua]... [--db] [--shard I/N] [options]",
	  "Analyse every trace under the inputs (files, and directories walked\n"
	  "recursively, names starting with '.' and OUTDIR left out), each file\n"
	  "recognised by content as 'analyze' does. Each trace is analysed by a\n"
	  "worker process ('btrace-analyze analyze', N at once, the biggest first),\n"
	  "so a trace that crashes or runs out of memory fails alone. Per trace:\n"
	  "  OUTDIR/reports/HASH.json  its JSON report, as 'analyze --format json'\n"
	  "  OUTDIR/db/HASH.db         its database, with --db\n"
	  "  OUTDIR/logs/HASH.log      a failed worker's stderr (its last 8 KiB)\n"
	  "HASH is the content hash of the trace's bytes (128 bits, hex). Each is\n"
	  "written to a temporary name and renamed, so a killed batch leaves no half\n"
	  "file. OUTDIR/manifest.jsonl has a JSON line per file found: path, hash,\n"
	  "size, format, status (ok, failed, skipped), exit (the worker's status),\n"
	  "error (its error line; for a skipped file why: no trace, a mapping beside\n"
	  "one, or the same content as another), seconds, peak_rss_kb (the\n"
	  "worker's), report and db (relative to OUTDIR). Lines are appended as\n"
	  "traces end, and the whole file is rewritten in path order at the end.\n"
	  "A rerun resumes: a trace whose report (and database, with --db) exists\n"
	  "is not analysed again, and one recorded as failed only with\n"
	  "--retry-failed. --shard I/N (for job arrays) takes the files whose path\n"
	  "hashes to I of N; run every shard with the same inputs. Exit 4 when some\n"
	  "trace failed (the rest is done all the same), 1 when the batch itself\n"
	  "could not run. On a terminal a line shows ok, failed, left, rate and ETA.\n",
	  &bt_optab_batch, NULL },
	{ "help", "btrace-analyze help [COMMAND]", "Show the overview or one command's help.\n", NULL, NULL },
	{ "rules", "btrace-analyze INPUT --rules FILE.lua [--set KEY=VALUE]...",
	  "A rule file is Lua 5.4 run in a sandbox, and so is a compare gate script.\n"
	  "Its promises, for the whole file:\n"
	  "  no I/O    no io, os, package, debug, require, dofile or loadfile; load()\n"
	  "            takes text only; no __gc finalizers; rule SQL is read-only (no\n"
	  "            ATTACH, DETACH, transactions, or pragmas but the schema's)\n"
	  "  time      one budget of Lua instructions, pattern-matching steps and SQL\n"
	  "            steps for the file, each library function charged by its\n"
	  "            arguments before it runs (--set lua.max_instructions=N,\n"
	  "            default 2e8, about a second), and one of CPU time, every\n"
	  "            coroutine included (--set lua.max_cpu_ms=N, default 2000)\n"
	  "  memory    one account for the Lua heap, the findings, metrics and tables\n"
	  "            copied into the report, and what the file's SQL holds\n"
	  "            (--set lua.max_memory_mb=N, default 200)\n"
	  "A rule file that does not compile, a rule that raises an error and a limit\n"
	  "hit (\"rule X in FILE stopped: time limit\", or memory limit) all end the\n"
	  "run: the error on stderr names file and line, the exit status is 1 (never\n"
	  "the 3 of --fail-on) and no report is written. pcall in a rule catches its\n"
	  "ordinary errors, not a limit. A gate script that fails or stops fails the\n"
	  "compare the same way (gate scripts have the defaults).\n"
	  "\n"
	  "Rules:\n"
	  "  bt.rule{ id=, severity=\"info\"|\"warning\"|\"error\", params={name=default},\n"
	  "           run=function(p) ... end }   p holds the params, --set RULE.name\n"
	  "                                       or --set name overriding defaults\n"
	  "  bt.param(name, default)              a parameter outside bt.rule\n"
	  "  bt.builtin(\"attribution\")            run the built-in attribution rules too\n"
	  "Results:\n"
	  "  bt.finding{ message=, severity=, tid=, ts=, dur=, evidence={...} }\n"
	  "           headline=true: listed before every other finding\n"
	  "  bt.metric(\"dotted.name\", number)\n"
	  "  bt.table{ name=, title=, columns={...}, rows={{...}, ...}, units={col=unit} }\n"
	  "           rows are lists in column order or maps by column name; units\n"
	  "           (ns, bytes, pct, count) default from the name: *_ns, *bytes, *_pct;\n"
	  "           spare={col, ...}: columns a narrow terminal leaves out first\n"
	  "Data (read-only SQL over the tables of 'help import', plus calltree,\n"
	  "methods, method_blocking, callers, message_methods):\n"
	  "  bt.query(sql, ...)   all rows, as tables keyed by column; integers stay\n"
	  "                       integers, NULL is nil; ? parameters bind the values\n"
	  "  bt.rows(sql, ...)    an iterator: for row in bt.rows(sql) do ... end\n"
	  "  bt.scalar(sql, ...)  the first value of the first row\n"
	  "  bt.slices{tid=, frame=, from=, to=, min_dur=, limit=}, bt.messages{tid=,\n"
	  "  min_dur=, limit=}, bt.edges{tid=, kind=, min_dur=, limit=},\n"
	  "  bt.methods{tid=, order=, limit=}: iterators over those tables\n"
	  "  bt.trace() (meta as a table, main_tid), bt.main_tid(), bt.thread_name(tid),\n"
	  "  bt.frame_name(id), bt.ms(ns), bt.bytes(n), bt.short(symbol)\n",
	  NULL,
	  /* after: the data model's states, and an example (one literal is
	   * at most 4095 bytes in C99) */
	  "Wait chains (tables wait_chain, wait_chain_methods): behind each main-thread\n"
	  "wait with a waker, hop 1 is the waker over the wait (tid, ts, dur, its own\n"
	  "blocking: blocked_kind, blocked_ns, node_id its stack) with its top 5\n"
	  "methods by overlap; hop n+1 is the thread that ended hop n's blocking, only\n"
	  "where a record names it (an unlock record of the same wait, a lock id):\n"
	  "btrace records wakers for the main thread's waits only.\n"
	  "  bt.chain(edge_id)    the hops in order, each with .methods ({rank=,\n"
	  "                       frame_id=, name=, overlap_ns=}); {} without a waker\n"
	  "Idle time (a thread waiting for work: the loop's wait for a message, a\n"
	  "worker's for its next task) is no method's: slices.idle = 1 marks the\n"
	  "slices of a wait (\"(idle)\" where no frame shows it), whose off-CPU own\n"
	  "time is in no wall value; calltree, methods and callers hold it as\n"
	  "self_idle_ns and incl_idle_ns; threads splits wall_dur into cpu_dur,\n"
	  "blocked_dur (by kind in thread_blocking), idle_dur and unexplained_dur,\n"
	  "and, where the trace has thread states, its off-CPU time inside its\n"
	  "top-level slices into runnable_dur, sleeping_dur, io_dur and\n"
	  "uninterruptible_dur (NULL where no state covers them);\n"
	  "messages hold block_dur, idle_dur and alloc_bytes.\n"
	  "CPU time the trace does not give (bt.trace().cpu_unknown: \"all\" or\n"
	  "\"some\" threads) is nil, never 0, in those threads' rows, and so is what\n"
	  "follows from it; no_alloc, no_faults, no_csw: counters it does not record.\n"
	  "The app start: startup (kind cold/warm/hot, tid, package, ts, end_ts =\n"
	  "end of the first frame's draw, ttid_ns, ttfd_ns, source, end_source,\n"
	  "sample_interval_ns: how finely the main thread's samples in the window\n"
	  "place a method's bounds (half of the time between samples lies in gaps\n"
	  "no longer than it); NULL for exact slices),\n"
	  "startup_phases (phase: bind_application, content_providers,\n"
	  "application_create, activity_launch, activity_create, activity_start,\n"
	  "activity_resume, first_frame, fully_drawn, startup = the window; ts, dur,\n"
	  "source, exact, and the main thread's cpu_ns, blocked_ns, idle_ns,\n"
	  "unexplained_ns in it; runnable_ns, sleeping_ns, io_ns and\n"
	  "uninterruptible_ns from its thread states, NULL where none covers it),\n"
	  "startup_methods (phase, rank, frame_id, self_cpu_ns,\n"
	  "self_ns, incl_ns: a phase's top ten; the window's every method, with\n"
	  "incl_ns), startup_blocking (phase, kind, count, dur). bt.startup() gives the\n"
	  "start with .phases (in time order) and .phase[name], each with .methods\n"
	  "and .blocking; nil when the trace shows no start.\n"
	  "Display frames: ui_frames (id, tid, ts, vsync: the N of\n"
	  "Choreographer#doFrame N, dur: the main thread's, end_ts: its draw's end\n"
	  "where the trace has it, period_ns, expected_ts, deadline_ts, janky: ended\n"
	  "after the deadline, missed_vsyncs, draw_ts, draw_dur, cause: a janky\n"
	  "frame's methods by self time and blocking by kind with its holder);\n"
	  "ui_frame_methods (tid, frame_id, self_ns, janky_self_ns: a method's self\n"
	  "time not blocked in the frames, in the janky ones), ui_frame_blocking\n"
	  "(tid, kind, holder: NULL for every record of the kind, else the waits it\n"
	  "ended; ns, janky_ns); their summary in meta (ui_frames, ui_frames_janky,\n"
	  "ui_frames_missed, ui_frames_period_ns, ui_frames_p50_ns, _p90_ns,\n"
	  "_p99_ns: bt.trace() has them); the built-in report adds frames.* metrics\n"
	  "and the worst frames. bt.app_code() gives a function(name) that is true for the\n"
	  "app's methods (the start's package, else the process's, else bt.is_app).\n"
	  "\n"
	  "example (flag main-thread waits over a threshold, naming the waker):\n"
	  "  bt.rule{ id = \"main-wait\", severity = \"warning\", params = { ms = 50 },\n"
	  "    run = function(p)\n"
	  "      for e in bt.edges{ tid = bt.main_tid(), min_dur = p.ms * 1000000 } do\n"
	  "        bt.finding{ message = e.kind .. \" for \" .. bt.ms(e.dur) ..\n"
	  "            \", woken by \" .. bt.thread_name(e.waker_tid or 0),\n"
	  "          tid = e.waiter_tid, ts = e.ts, dur = e.dur,\n"
	  "          evidence = { waker_method = bt.frame_name(e.waker_frame_id) } }\n"
	  "      end\n"
	  "    end }\n"
	  "The built-in attribution rules are lua/attribution.lua in the source tree.\n" },
};

int bt_cmd_print_help(const char *name)
{
	size_t i;

	if (!name) {
		fputs(overview, stdout);
		return 0;
	}
	for (i = 0; i < sizeof helps / sizeof helps[0]; i++) {
		if (strcmp(helps[i].name, name))
			continue;
		bt_text_wrap(stdout, "usage: ", "         ", helps[i].usage, HELP_COLS);   /* within 80 columns */
		printf("\n%s", helps[i].text);
		if (helps[i].opts)
			bt_opts_print(helps[i].opts, stdout);
		if (helps[i].after)
			fputs(helps[i].after, stdout);
		return 0;
	}
	return -1;
}

int bt_cmd_help(int argc, char **argv, struct bt_err *err)
{
	(void)argv;
	if (argc > 2)
		return bt_err_set(err, BT_EUSAGE, "help takes at most one command name");
	if (argc == 2 && bt_cmd_print_help(argv[1]) != 0)
		return bt_err_set(err, BT_EUSAGE, "unknown command '%s'", argv[1]);
	if (argc < 2)
		bt_cmd_print_help(NULL);
	return BT_OK;
}
