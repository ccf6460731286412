/*
 * One way out for the commands that write whole files (outset.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/cli/outset.h"
#include "reports/outputs/outputs.h"
#include "reports/text/safe.h"

static const char *shown(const struct bt_outset_item *it)
{
	return it->path && strcmp(it->path, "-") ? it->path : "stdout";
}

void bt_outset_add(struct bt_outset *s, const char *path, const void *format, enum bt_reader reader)
{
	BT_GROW(s->v, s->n + 1, s->cap);
	memset(&s->v[s->n], 0, sizeof s->v[s->n]);
	s->v[s->n].path = path;
	s->v[s->n].format = format;
	s->v[s->n++].reader = reader;
}

int bt_outset_check(const struct bt_outset *s, const char *format, struct bt_err *err)
{
	const char **paths = bt_xcalloc(s->n + 1, sizeof *paths);
	size_t k;
	int rc = BT_OK;

	if (format && s->n > 1)
		rc = bt_err_set(err, BT_EUSAGE, "--format applies to one output; with several -o each takes "
				"its format from its extension");
	for (k = 0; k < s->n; k++)
		paths[k] = s->v[k].path;
	if (!rc)
		rc = bt_out_distinct(paths, s->n, err);
	free(paths);
	return rc;
}

/* A writer's I/O error names what it wrote, not where: the message again
 * with the output's path (the cause, after the writer's first ": "). */
static int name_output(const char *path, struct bt_err *err)
{
	char cause[sizeof err->msg];
	const char *at = strstr(err->msg, ": ");
	int code = err->code;

	if (strstr(err->msg, path))
		return code;
	snprintf(cause, sizeof cause, "%s", code == BT_EIO && at ? at + 2 : err->msg);
	bt_err_clear(err);
	return bt_err_set(err, code, "%s'%s': %s", code == BT_EIO ? "cannot write " : "", path, cause);
}

int bt_outset_write(struct bt_outset *s, int (*write)(void *ctx, const struct bt_outset_item *it, FILE *fp,
						     struct bt_err *err),
		    void *ctx, struct bt_err *err)
{
	size_t k;

	for (k = 0; k < s->n; k++) {
		struct bt_outset_item *it = &s->v[k];
		FILE *fp;
		int rc;
		if (bt_out_open(&it->out, it->path, err))
			return err->code;
		fp = it->reader == BT_READ_PROGRAM ? it->out.fp : bt_safe_open(it->out.fp, it->reader == BT_READ_PERSON_MD);
		errno = 0;
		rc = write(ctx, it, fp, err);
		if (bt_safe_close(fp, it->out.fp) && !rc)
			rc = bt_err_set(err, BT_EIO, "cannot write '%s': %s", shown(it), errno ? strerror(errno) : "write error");
		if (!rc && it->out.fp != stdout && (fflush(it->out.fp) || ferror(it->out.fp)))
			rc = bt_err_set(err, BT_EIO, "cannot write '%s': %s", shown(it), strerror(errno));
		if (rc)
			return name_output(shown(it), err);
	}
	for (k = 0; k < s->n; k++)
		if (bt_out_commit(&s->v[k].out, err))
			return err->code;
	return BT_OK;
}

void bt_outset_tell(const struct bt_outset *s, FILE *to)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		if (s->v[k].path && strcmp(s->v[k].path, "-"))
			bt_outputs_tell_file(to, s->v[k].path);
}

void bt_outset_release(struct bt_outset *s)
{
	size_t k;

	for (k = 0; k < s->n; k++)
		bt_out_abort(&s->v[k].out);
	free(s->v);
	memset(s, 0, sizeof *s);
}
