/*
 * The command layer: the command table's entry points (one file each),
 * their shared option parser, and loading an input into a trace database.
 * Only main.c and cmd_*.c see importers/, reports/ and lua/ together.
 */
#ifndef BT_CMD_H
#define BT_CMD_H

#include "engine/db/db.h"
#include "engine/profile/tap.h"
#include "engine/base/err.h"

/* Options a command accepts (bit set passed to bt_opts_parse). */
enum {
	BT_OPT_DB = 1 << 0,
	BT_OPT_MAPPING = 1 << 1,
	BT_OPT_RETRACE = 1 << 2,
	BT_OPT_OUT = 1 << 3,
	BT_OPT_FORMAT = 1 << 4,
	BT_OPT_QUIET = 1 << 5,
	BT_OPT_SLICE = 1 << 6,
	BT_OPT_PERFETTO = 1 << 7,
	BT_OPT_RULES = 1 << 8,     /* --rules, --set, --fail-on */
	BT_OPT_PPROF = 1 << 9,
	BT_OPT_FOLDED = 1 << 10,   /* --folded, --folded-metric */
	BT_OPT_SYMBOLS = 1 << 11   /* --symbols (iOS address -> name map) */
};

struct bt_opts {
	const char *cmd;           /* for messages */
	char **inputs;             /* positional arguments, borrowed from argv */
	int ninputs;
	const char *db, *mapping, *retrace, *out, *format;
	const char *symbols;       /* --symbols FILE */
	const char *perfetto;      /* --perfetto OUT.pb */
	const char *pprof;         /* --pprof OUT.pb.gz */
	const char *folded;        /* --folded OUT.txt */
	const char *folded_metric; /* --folded-metric wall|cpu|offcpu|alloc; NULL: wall */
	const char *slice_policy;  /* NULL: the default policy */
	const char **rules;        /* --rules FILE, repeatable */
	int nrules;
	const char **sets;         /* --set key=value, repeatable */
	int nsets;
	const char *fail_on;       /* --fail-on SEVERITY */
	int quiet;
	int help;
};

/* Parse argv[1..argc) (argv[0] is the command name). BT_EUSAGE on error. */
int bt_opts_parse(struct bt_opts *o, int argc, char **argv, unsigned allowed, struct bt_err *err);
void bt_opts_release(struct bt_opts *o);

/*
 * Get a trace database for input: a database this tool wrote is opened as
 * it is (read-only if asked) and its stored slices replayed to taps;
 * anything else is recognised and run through the pipeline into o->db (a
 * temporary file until bt_db_publish) or into memory, every slice going
 * to taps too, and its diagnostics are printed to stderr unless o->quiet.
 * taps may be NULL.
 */
int bt_cmd_load(const struct bt_opts *o, const char *input, int readonly, const struct bt_taps *taps,
		struct bt_db **out, struct bt_err *err);

int bt_cmd_analyze(int argc, char **argv, struct bt_err *err);
int bt_cmd_import(int argc, char **argv, struct bt_err *err);
int bt_cmd_query(int argc, char **argv, struct bt_err *err);
int bt_cmd_compare(int argc, char **argv, struct bt_err *err);
int bt_cmd_help(int argc, char **argv, struct bt_err *err);

/* Print the help of a command (NULL: overview) to stdout. 0 if known. */
int bt_cmd_print_help(const char *name);

#endif
