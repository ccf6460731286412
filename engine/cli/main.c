/*
 * Entry point: picks the command from the command table (analyze when the
 * first argument is not a command name), runs it, and turns its result
 * into the one error line and the exit status (0 ok, 1 error, 2 usage,
 * 3 gate, 4 some of a batch's traces failed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "engine/base/fileio.h"
#include "engine/base/progress.h"
#include "engine/base/temps.h"
#include "engine/cli/cmd.h"

#ifndef BT_VERSION
#define BT_VERSION "0.0.0"
#endif

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, struct bt_err *err);
} commands[] = {
	{ "analyze", bt_cmd_analyze },
	{ "import", bt_cmd_import },
	{ "query", bt_cmd_query },
	{ "compare", bt_cmd_compare },
	{ "batch", bt_cmd_batch },
	{ "merge", bt_cmd_merge },
	{ "help", bt_cmd_help },
};

int main(int argc, char **argv)
{
	struct bt_err err = BT_ERR_INIT;
	int (*fn)(int, char **, struct bt_err *) = bt_cmd_analyze;
	char *analyze_argv0 = (char *)"analyze";
	size_t i;
	int rc;

#ifdef __GLIBC__
	/* Big arrays (records, items, paths) grow and die in turn: served by
	 * mmap they go back to the system when freed. glibc's default raises
	 * this threshold as they are freed, and the next ones then stay in the
	 * heap for good (25-50 MB more peak RSS at 1M records). */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	/* One arena for every thread: each further one reserves 64 MB of
	 * address space (a bulk writer, the slicer's helper, an output
	 * writer), which a limit on the address space (ulimit -v) counts
	 * although little of it is ever touched. Each thread's small
	 * allocations still come from its own cache, without the lock. */
	mallopt(M_ARENA_MAX, 1);
#endif
	if (argc < 2) {
		bt_cmd_print_help(NULL);
		return 2;
	}
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("btrace-analyze %s\n", BT_VERSION);
			return 0;
		}
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		bt_cmd_print_help(NULL);
		return 0;
	}
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			break;
	if (i < sizeof commands / sizeof commands[0]) {
		fn = commands[i].fn;
		argc--;
		argv++;
	} else {
		/* "btrace-analyze INPUT ..." means analyze: argv[0] stands for the command */
		argv[0] = analyze_argv0;
	}
	bt_temps_install();
	if (getenv("BT_OWN_OUTPUTS") && !strcmp(getenv("BT_OWN_OUTPUTS"), "1"))
		bt_out_own(1);   /* a batch's worker: its outputs are in the batch's OUTDIR (fileio.h) */
	rc = fn(argc, argv, &err);
	bt_progress_stop();   /* its line cleared before anything else is said */
	if (rc && err.code) {
		bt_cmd_say(err.code == BT_EMORE ? "note" : "error", err.msg);   /* run more: no failure */
		if (err.code == BT_EUSAGE)
			fprintf(stderr, "usage: see 'btrace-analyze help'\n");
	}
	return bt_err_exit_status(rc);
}
