/*
 * The command line options: what a command's parse fills in (struct
 * bt_opts, the options every command shares, first in the struct of a
 * command with options of its own: compare, batch, merge), one option
 * table per command (optab.c) holding each option's names, help line,
 * parsing and whether its values are files read or written, and the one
 * parser, release, clobber check and help printer that read those tables
 * (opts.c, clobber.c). Adding an option is adding a table entry.
 */
#ifndef BT_OPTS_H
#define BT_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "engine/base/err.h"
#include "engine/compare/compare.h"

/* The options every command shares; a command with options of its own
 * has a struct that begins with this one (below), and its table's
 * entries are offsets in that struct. */
struct bt_opts {
	const char *cmd;           /* for messages; first, so that offset 0 is no option's */
	char **inputs;             /* positional arguments, borrowed from argv */
	int ninputs;
	const char *db, *mapping, *retrace, *out, *format;
	const char *symbols;       /* --symbols FILE */
	const char *perfetto;      /* --perfetto OUT.pb */
	const char *pprof;         /* --pprof OUT.pb.gz */
	const char *folded;        /* --folded OUT.txt */
	const char *speedscope;    /* --speedscope OUT.json */
	const char *folded_metric; /* --folded-metric wall|cpu|offcpu|alloc; NULL: wall */
	const char *slice_policy;  /* NULL: the default policy; a known name when set */
	const char *process;       /* --process NAME|PID: a Perfetto trace's app */
	const char **rules;        /* --rules FILE, repeatable */
	int nrules;
	const char **sets;         /* --set key=value, repeatable */
	int nsets;
	const char **outs;         /* -o OUT, repeatable: one output per path */
	int nouts;
	const char *fail_on;       /* --fail-on SEVERITY */
	int quiet;
	int verbose;               /* -v: also the diagnostics every healthy trace has */
	int diag_later;            /* bt_cmd_load prints no diagnostics: the caller reads them
				    * from the database (compare's one summary of all runs) */
	int strict;                /* --strict: an input cut short is an error */
	int show_idle;             /* --idle: idle time in the flame graphs, pprof and folded */
	int width;                 /* --width N: text tables within N columns (0: the terminal's) */
	int full_names;            /* --full-names: full method signatures where people read */
	int help;
};

struct bt_opts_compare {
	struct bt_opts o;          /* first: the parser writes through it */
	const char **base, **head; /* --base R..., --head R... */
	int nbase, nhead;
	const char **globs;        /* --metric GLOB, repeatable */
	int nglobs;
	const char **arules;       /* --analyze-rules FILE, repeatable */
	int narules;
	const char *gates;         /* --rules gates.lua (one) */
	struct bt_gate gate;       /* --max-regress, --noise-floor, --alpha over the defaults */
	int fail_inconclusive;
	int require_decision;
	int sequential;
	int top;                   /* --top N, default 10 */
	const char **calib;        /* --calibrate R...: runs of one build */
	int ncalib;
	int cal_runs, cal_splits;  /* --runs N a side (5), --splits K (100) */
};

struct bt_opts_batch {
	struct bt_opts o;
	int jobs;                  /* --jobs N; 0: the cores */
	int shard, nshards;        /* --shard I/N; nshards 0: all */
	int keep_db;               /* --db: each trace's database too */
	int retry_failed;          /* --retry-failed */
	int timeout;               /* --timeout SECONDS; 0: none */
};

struct bt_opts_merge {
	struct bt_opts o;
	const char **groups;       /* --group KEY=VALUE, repeatable */
	int ngroups;
	int *group_at;             /* group k applies to inputs[group_at[k]...] */
	int top;                   /* --top N, default 20 */
};

/* A command's own struct from its shared part (their first member). */
#define BT_OPTS_OF(type, o) ((type *)(void *)(o))

enum { BT_OPT_READS = 1, BT_OPT_WRITES = 2 };

enum bt_opt_kind {
	BT_OPTK_FLAG,   /* "--name": sets the int at field to 1 */
	BT_OPTK_VALUE,  /* "--name VALUE" or "--name=VALUE": the last one is kept at field */
	BT_OPTK_LIST,   /* a repeatable value: appended to the list at field, counted at count */
	BT_OPTK_RUNS    /* "--name R...": a list that also takes the positional arguments
			 * after it (flags between them allowed) until the next option
			 * with a value; "--name=R" adds R and does the same */
};

struct bt_opt {
	const char *name;      /* "--output" */
	const char *alias;     /* "-o", or NULL */
	const char *arg;       /* help: the value's name ("FILE"); NULL for a flag */
	const char *help;      /* help: the description, lines wrapped as printed; NULL: not
				* listed (the command's usage line and text describe it) */
	enum bt_opt_kind kind;
	size_t field;          /* offsetof(struct bt_opts, ...) or the command's struct where it is
				* stored; 0: nowhere */
	size_t count;          /* lists: offsetof the int count */
	int files;             /* BT_OPT_READS or BT_OPT_WRITES: its values are files, read or
				* written (an output that is an input is refused) */
	/* Checks a value before it is stored, and may convert it into other
	 * fields: BT_EUSAGE refuses it; name is the entry's name. NULL:
	 * any value is taken. */
	int (*parse)(struct bt_opts *o, const char *name, const char *value, struct bt_err *err);
};

/* A command's options: its own, listed right below its help text, and a
 * shared group, listed under "options:". Both lists end with NULL. */
struct bt_optcmd {
	const struct bt_opt *const *opts;
	const struct bt_opt *const *common;   /* may be NULL */
	int width;             /* help: the names' column; descriptions start 3 after */
	/* NULL: positional arguments are inputs, and "--" ends the options.
	 * Else they belong to the last BT_OPTK_RUNS option, and one before
	 * any is refused with this reason. */
	const char *stray;
	void (*init)(struct bt_opts *o);      /* defaults before parsing; may be NULL */
	size_t size;           /* the command's struct (0: struct bt_opts), zeroed by the parse */
	void (*release)(struct bt_opts *o);   /* frees what its parsers allocated; may be NULL */
};

extern const struct bt_optcmd bt_optab_analyze;
extern const struct bt_optcmd bt_optab_import;
extern const struct bt_optcmd bt_optab_query;
extern const struct bt_optcmd bt_optab_compare;
extern const struct bt_optcmd bt_optab_batch;
extern const struct bt_optcmd bt_optab_merge;

/*
 * Parse argv[1..argc) (argv[0] is the command name) by c's table into o
 * (the command's struct, c->size bytes), whose lists borrow from argv;
 * -h and --help set o->help for every command. BT_EUSAGE for an unknown
 * option, a missing value or one the option's parser refuses. Call
 * bt_opts_release in any case: it frees the lists c's table filled.
 */
int bt_opts_parse(struct bt_opts *o, const struct bt_optcmd *c, int argc, char **argv,
		  struct bt_err *err);
void bt_opts_release(struct bt_opts *o, const struct bt_optcmd *c);

/* BT_EUSAGE if an output of o (c's BT_OPT_WRITES options) names an
 * existing file that is one of its inputs (the positional ones and c's
 * BT_OPT_READS options; clobber.c); bt_opts_parse calls it once the
 * options are read. */
int bt_opts_check_clobber(const struct bt_opts *o, const struct bt_optcmd *c, struct bt_err *err);

/* Print c's options as help lists to fp: its own, then the shared ones
 * under "options:". */
void bt_opts_print(const struct bt_optcmd *c, FILE *fp);

#endif
