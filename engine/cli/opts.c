/*
 * The shared option parser: "--name VALUE", "--name=VALUE", "-o VALUE" and
 * positional inputs, each command allowing its own subset.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/cli/cmd.h"

struct optdef {
	const char *name;
	unsigned bit;
	size_t field;      /* offset of the const char * in struct bt_opts */
	size_t count;      /* repeatable: offset of the int count; field is a list */
};

#define F(x) offsetof(struct bt_opts, x)
static const struct optdef defs[] = {
	{ "--db", BT_OPT_DB, F(db), 0 },
	{ "--mapping", BT_OPT_MAPPING, F(mapping), 0 },
	{ "--retrace", BT_OPT_RETRACE, F(retrace), 0 },
	{ "--symbols", BT_OPT_SYMBOLS, F(symbols), 0 },
	{ "-o", BT_OPT_OUT, F(out), 0 },
	{ "--output", BT_OPT_OUT, F(out), 0 },
	{ "--format", BT_OPT_FORMAT, F(format), 0 },
	{ "--slice-policy", BT_OPT_SLICE, F(slice_policy), 0 },
	{ "--perfetto", BT_OPT_PERFETTO, F(perfetto), 0 },
	{ "--pprof", BT_OPT_PPROF, F(pprof), 0 },
	{ "--folded", BT_OPT_FOLDED, F(folded), 0 },
	{ "--folded-metric", BT_OPT_FOLDED, F(folded_metric), 0 },
	{ "--rules", BT_OPT_RULES, F(rules), F(nrules) },
	{ "--set", BT_OPT_RULES, F(sets), F(nsets) },
	{ "--fail-on", BT_OPT_RULES, F(fail_on), 0 },
};
#undef F

static int value_opt(struct bt_opts *o, int argc, char **argv, int *i, unsigned allowed,
		     struct bt_err *err)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg), k;

	for (k = 0; k < sizeof defs / sizeof defs[0]; k++) {
		const char **slot;
		if (strlen(defs[k].name) != nlen || strncmp(defs[k].name, arg, nlen))
			continue;
		if (!(allowed & defs[k].bit))
			break;
		slot = (const char **)((char *)o + defs[k].field);
		if (defs[k].count) {   /* the list has room for every argument */
			int *n = (int *)((char *)o + defs[k].count);
			slot = &(*(const char ***)slot)[(*n)++];
		}
		if (eq) {
			*slot = eq + 1;
		} else if (*i + 1 < argc) {
			*slot = argv[++*i];
		} else {
			return bt_err_set(err, BT_EUSAGE, "option '%s' needs a value", defs[k].name);
		}
		return BT_OK;
	}
	return bt_err_set(err, BT_EUSAGE, "unknown option '%.*s' for '%s' (see 'btrace-analyze help %s')",
			  (int)nlen, arg, o->cmd, o->cmd);
}

int bt_opts_parse(struct bt_opts *o, int argc, char **argv, unsigned allowed, struct bt_err *err)
{
	int i, dashdash = 0;

	memset(o, 0, sizeof *o);
	o->cmd = argv[0];
	o->inputs = bt_xcalloc((size_t)argc, sizeof *o->inputs);
	o->rules = bt_xcalloc((size_t)argc, sizeof *o->rules);
	o->sets = bt_xcalloc((size_t)argc, sizeof *o->sets);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (dashdash || a[0] != '-' || !strcmp(a, "-")) {
			o->inputs[o->ninputs++] = argv[i];
		} else if (!strcmp(a, "--")) {
			dashdash = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = 1;
		} else if ((allowed & BT_OPT_QUIET) && (!strcmp(a, "-q") || !strcmp(a, "--quiet"))) {
			o->quiet = 1;
		} else if (value_opt(o, argc, argv, &i, allowed, err)) {
			return err->code;
		}
	}
	return BT_OK;
}

void bt_opts_release(struct bt_opts *o)
{
	free(o->inputs);
	free(o->rules);
	free(o->sets);
	o->inputs = NULL;
	o->rules = o->sets = NULL;
}
