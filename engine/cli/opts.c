/*
 * The option parser and help lister over a command's option table
 * (opts.h): "--name VALUE", "--name=VALUE", "-o VALUE", flags, lists, runs
 * lists and positional inputs.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/near.h"
#include "engine/cli/opts.h"
#include "reports/text/grid.h"

_Static_assert(offsetof(struct bt_opts, cmd) == 0, "field 0 must be no option's");

static int is_list(const struct bt_opt *d)
{
	return d->kind == BT_OPTK_LIST || d->kind == BT_OPTK_RUNS;
}

/* The entry named by arg's first n bytes, from c's lists. */
static const struct bt_opt *find(const struct bt_optcmd *c, const char *arg, size_t n)
{
	const struct bt_opt *const *lists[2] = { c->opts, c->common };
	const struct bt_opt *const *p;
	size_t k;

	for (k = 0; k < 2; k++) {
		for (p = lists[k]; p && *p; p++) {
			const char *a = (*p)->alias;
			if ((strlen((*p)->name) == n && !strncmp((*p)->name, arg, n)) ||
			    (a && strlen(a) == n && !strncmp(a, arg, n)))
				return *p;
		}
	}
	return NULL;
}

/* The option of c's table closest to arg[0..n), or NULL. */
static const char *near_option(const struct bt_optcmd *c, const char *arg, size_t n)
{
	const struct bt_opt *const *lists[2] = { c->opts, c->common };
	const struct bt_opt *const *p;
	const char *names[128];
	size_t k, m = 0;

	for (k = 0; k < 2; k++)
		for (p = lists[k]; p && *p && m < sizeof names / sizeof names[0]; p++)
			names[m++] = (*p)->name;
	return bt_near_best(arg, n, names, m);
}

/* Every list of c's table gets room for all the arguments. */
static void alloc_lists(struct bt_opts *o, const struct bt_optcmd *c, int argc)
{
	const struct bt_opt *const *lists[2] = { c->opts, c->common };
	const struct bt_opt *const *p;
	size_t k;

	for (k = 0; k < 2; k++) {
		for (p = lists[k]; p && *p; p++) {
			const char ***slot = (const char ***)((char *)o + (*p)->field);
			if (is_list(*p) && !*slot)
				*slot = bt_xcalloc((size_t)argc + 1, sizeof **slot);
		}
	}
}

static void store(struct bt_opts *o, const struct bt_opt *d, const char *v)
{
	char *base = (char *)o;

	if (!d->field)
		return;
	if (is_list(d)) {
		const char **list = *(const char ***)(base + d->field);
		int *n = (int *)(base + d->count);
		list[(*n)++] = v;
	} else {
		*(const char **)(base + d->field) = v;
	}
}

/* argv[*i], an option: its entry's value is taken (from after '=' or the
 * next argument), checked and stored. *runs is the open runs list. */
static int option(struct bt_opts *o, const struct bt_optcmd *c, int argc, char **argv, int *i,
		  const struct bt_opt **runs, struct bt_err *err)
{
	const char *arg = argv[*i], *eq = strchr(arg, '='), *v = eq ? eq + 1 : NULL;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct bt_opt *d = find(c, arg, n);
	const char *near;
	int rc;

	if (!d && (near = near_option(c, arg, n)))
		return bt_err_set(err, BT_EUSAGE, "unknown option '%.*s' for '%s'; did you mean '%s'?",
				  (int)n, arg, o->cmd, near);
	if (!d)
		return bt_err_set(err, BT_EUSAGE, "unknown option '%.*s' for '%s' (see 'btrace-analyze help %s')",
				  (int)n, arg, o->cmd, o->cmd);
	if (d->kind == BT_OPTK_FLAG && eq)
		return bt_err_set(err, BT_EUSAGE, "option '%.*s' takes no value", (int)n, arg);
	if (d->kind == BT_OPTK_FLAG) {
		*(int *)((char *)o + d->field) = 1;
		return BT_OK;
	}
	*runs = d->kind == BT_OPTK_RUNS ? d : NULL;
	if (!v && d->kind == BT_OPTK_RUNS)
		return BT_OK;
	if (!v && *i + 1 >= argc)
		return bt_err_set(err, BT_EUSAGE, "option '%s' needs a value", arg);
	if (!v)
		v = argv[++*i];
	if (d->parse && (rc = d->parse(o, d->name, v, err)))
		return rc;
	store(o, d, v);
	return BT_OK;
}

static int positional(struct bt_opts *o, const struct bt_optcmd *c, const struct bt_opt *runs,
		      char *a, struct bt_err *err)
{
	if (runs)
		store(o, runs, a);
	else if (c->stray)
		return bt_err_set(err, BT_EUSAGE, "'%s': %s", a, c->stray);
	else
		o->inputs[o->ninputs++] = a;
	return BT_OK;
}

int bt_opts_parse(struct bt_opts *o, const struct bt_optcmd *c, int argc, char **argv,
		  struct bt_err *err)
{
	const struct bt_opt *runs = NULL;
	int i, rc = BT_OK, dashdash = 0;

	memset(o, 0, c->size ? c->size : sizeof *o);
	o->cmd = argv[0];
	o->inputs = bt_xcalloc((size_t)argc + 1, sizeof *o->inputs);
	alloc_lists(o, c, argc);
	if (c->init)
		c->init(o);
	for (i = 1; i < argc && !rc; i++) {
		char *a = argv[i];
		if (dashdash || a[0] != '-' || !strcmp(a, "-"))
			rc = positional(o, c, runs, a, err);
		else if (!strcmp(a, "--") && !c->stray)
			dashdash = 1;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			o->help = 1;
		else
			rc = option(o, c, argc, argv, &i, &runs, err);
	}
	if (!rc && !o->help)
		rc = bt_opts_check_clobber(o, c, err);
	return rc;
}

void bt_opts_release(struct bt_opts *o, const struct bt_optcmd *c)
{
	const struct bt_opt *const *lists[2] = { c->opts, c->common };
	const struct bt_opt *const *p;
	size_t k;

	if (c->release)
		c->release(o);
	free(o->inputs);
	o->inputs = NULL;
	for (k = 0; k < 2; k++)
		for (p = lists[k]; p && *p; p++)
			if (is_list(*p)) {
				const char ***slot = (const char ***)((char *)o + (*p)->field);
				free(*slot);
				*slot = NULL;
			}
}

#define HELP_COLS 80

/* "  -q, --quiet       no progress ...": the names padded to width, the
 * description flowed within HELP_COLS, its further lines indented below
 * its first (the help strings' own line breaks are spaces). */
static void print_opt(const struct bt_opt *d, int width, FILE *fp)
{
	struct bt_buf names = BT_BUF_INIT, text = BT_BUF_INIT;
	char indent[64];
	const char *h;
	int n;

	bt_buf_addf(&names, "  %s%s%s%s%s", d->alias ? d->alias : "", d->alias ? ", " : "", d->name,
		    d->arg ? " " : "", d->arg ? d->arg : "");
	n = (int)names.len - 2;
	bt_buf_addf(&names, "%*s", n < width ? width - n + 1 : 1, "");
	for (h = d->help; *h; h++)
		bt_buf_addc(&text, *h == '\n' ? ' ' : *h);
	snprintf(indent, sizeof indent, "%*s", width + 3 < 60 ? width + 3 : 60, "");
	bt_text_wrap(fp, names.buf, indent, text.buf ? text.buf : "", HELP_COLS);
	bt_buf_release(&names);
	bt_buf_release(&text);
}

static void print_list(const struct bt_opt *const *p, int width, FILE *fp)
{
	for (; p && *p; p++)
		if ((*p)->help)
			print_opt(*p, width, fp);
}

void bt_opts_print(const struct bt_optcmd *c, FILE *fp)
{
	print_list(c->opts, c->width, fp);
	if (c->common) {
		fputs("\noptions:\n", fp);
		print_list(c->common, c->width, fp);
	}
}
