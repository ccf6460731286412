/*
 * The command layer: the command table's entry points (one file each),
 * their options (opts.h), and loading an input into a trace database.
 * engine/cli/ is the only part of engine/ that includes importers/,
 * reports/ and lua/ (tests/layering.sh checks it).
 */
#ifndef BT_CMD_H
#define BT_CMD_H

#include "engine/db/db.h"
#include "engine/profile/tap.h"
#include "engine/base/err.h"
#include "engine/cli/opts.h"

/*
 * Get a trace database for input: a database this tool wrote is opened as
 * it is (read-only if asked) and its stored slices replayed to taps;
 * anything else is recognised and run through the pipeline into o->db (a
 * temporary file until bt_db_publish) or into memory, every slice going
 * to taps too, and its diagnostics are printed to stderr unless o->quiet
 * or o->diag_later.
 * taps may be NULL. BT_EUSAGE, before anything is read, when an option
 * cannot apply to the input's format (what its importer brings: a
 * --slice-policy for a trace with slices of its own, --process for one
 * with one process, --mapping, --retrace, --symbols, --folded-metric cpu
 * or offcpu for a format without what they need) or to a trace database.
 */
int bt_cmd_load(const struct bt_opts *o, const char *input, int readonly, const struct bt_taps *taps,
		struct bt_db **out, struct bt_err *err);
/* The same for n inputs: n > 1 dumps of one format are the processes of
 * one capture, imported into one database (engine/recon/join.h);
 * BT_EUSAGE for a trace database or a format that cannot join. */
int bt_cmd_load_many(const struct bt_opts *o, const char *const *inputs, int n, int readonly,
		     const struct bt_taps *taps, struct bt_db **out, struct bt_err *err);

struct bt_importer;

/* 0 when bt_cmd_load refuses option opt (its name, "--retrace") for an
 * input imp reads, else 1. */
int bt_cmd_applies(const struct bt_importer *imp, const char *opt);

int bt_cmd_analyze(int argc, char **argv, struct bt_err *err);
int bt_cmd_import(int argc, char **argv, struct bt_err *err);
int bt_cmd_query(int argc, char **argv, struct bt_err *err);
int bt_cmd_compare(int argc, char **argv, struct bt_err *err);
int bt_cmd_batch(int argc, char **argv, struct bt_err *err);
int bt_cmd_merge(int argc, char **argv, struct bt_err *err);
int bt_cmd_help(int argc, char **argv, struct bt_err *err);

/* Print the help of a command (NULL: overview) to stdout. 0 if known. */
int bt_cmd_print_help(const char *name);
/* "btrace-analyze: KIND: TEXT" on stderr, within a terminal's width there
 * (one line to a log or a pipe). */
void bt_cmd_say(const char *kind, const char *text);

#endif
