/*
 * "btrace-analyze help [COMMAND]": the overview and per-command help.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const char overview[] =
	"usage: btrace-analyze [analyze] INPUT [-o REPORT] [--format text|json] [options]\n"
	"       btrace-analyze import INPUT -o trace.db [options]\n"
	"       btrace-analyze query INPUT|trace.db \"SQL\" [--format table|csv|tsv|json]\n"
	"       btrace-analyze help [COMMAND]\n"
	"       btrace-analyze --version\n"
	"\n"
	"Analyse btrace mobile performance traces. INPUT is recognised by content:\n"
	"an Android btrace 3.0 sampling dump (its mapping is found beside it), a\n"
	"directory holding one, or a trace database this tool wrote.\n"
	"\n"
	"commands:\n"
	"  analyze   import a trace and print its report (the default command)\n"
	"  import    import a trace into a kept SQLite database\n"
	"  query     run read-only SQL against a trace\n"
	"  help      show help for a command\n"
	"\n"
	"exit status: 0 ok, 1 bad input or runtime error, 2 usage error, 3 gate failed\n";

static const char common[] =
	"  --mapping FILE    the sampling-mapping file, when it is not beside the dump\n"
	"  --retrace FILE    ProGuard/R8 mapping.txt to de-obfuscate class and method names\n"
	"  --db FILE         keep the imported database in FILE\n"
	"  --slice-policy P  where frames begin and end between samples: midpoint\n"
	"                    (default, the most accurate) or btrace (upstream's exact\n"
	"                    boundaries, as Perfetto UI showed them)\n"
	"  -q, --quiet       no progress and no warnings on stderr\n";

static const struct {
	const char *name, *usage, *text;
} helps[] = {
	{ "analyze", "btrace-analyze [analyze] INPUT [-o REPORT] [--format text|json] [options]",
	  "Import INPUT (or reuse a trace database) and write its report: trace facts,\n"
	  "threads, record types, top leaf frames and the importer's diagnostics.\n"
	  "The format follows -o's extension (.txt, .json) or --format; default is\n"
	  "text on stdout. -o is written to a temporary file and renamed at the end.\n"
	  "  --perfetto OUT.pb also write the reconstructed slices as a Perfetto trace\n"
	  "                    (open in ui.perfetto.dev): one track per thread, upstream's\n"
	  "                    annotations, flow arrows from each waker to the wait it ended\n" },
	{ "import", "btrace-analyze import INPUT -o trace.db [options]",
	  "Import INPUT into the SQLite database trace.db (tables meta, threads,\n"
	  "frames, nodes, samples, slices, messages, blocking_edges, diagnostics).\n"
	  "The database appears only when the import succeeded.\n" },
	{ "query", "btrace-analyze query INPUT|trace.db \"SQL\" [--format table|csv|tsv|json] [-o FILE]",
	  "Run one read-only SQL statement against a trace and print the rows.\n"
	  "A dump is imported first (into memory, or into --db FILE).\n"
	  "example:\n"
	  "  btrace-analyze query sampling.bin \\\n"
	  "    \"SELECT t.name, count(*) FROM samples s JOIN threads t USING(tid) GROUP BY tid\"\n" },
	{ "help", "btrace-analyze help [COMMAND]", "Show the overview or one command's help.\n" },
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
		printf("usage: %s\n\n%s", helps[i].usage, helps[i].text);
		if (strcmp(name, "help"))
			printf("\noptions:\n%s", common);
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
