/*
 * The stack nodes of a scratch analysis as an SQLite table read from
 * memory, like the samples (db_samples.c): the capture's parent and frame
 * arrays, by node id, become temp.nodes instead of rows inserted by the
 * writer thread. Depth is worked out once, parents having smaller ids.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/db/db_int.h"

struct nd_data {
	uint32_t *parent, *frame;   /* by node id, [0] unused */
	uint16_t *depth;
	size_t n;                   /* ids 1..n */
};

struct nd_cursor {
	sqlite3_vtab_cursor base;
	size_t i, end;
};

enum { ND_ID, ND_PARENT, ND_FRAME, ND_DEPTH };

static const char nd_schema[] =
	"CREATE TABLE x(id INTEGER, parent_id INTEGER, frame_id INTEGER, depth INTEGER)";

static int nd_connect(sqlite3 *conn, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **errmsg)
{
	(void)argc;
	(void)argv;
	(void)errmsg;
	return bt_vtab_connect(conn, nd_schema, aux, out);
}

static int nd_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	return bt_vtab_best_index(info, ND_ID, -2, 1e6, 1e6, 1e6);   /* no tid column */
}

static int nd_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return bt_vtab_cursor(sizeof(struct nd_cursor), out);
}

static const struct nd_data *data_of(const sqlite3_vtab_cursor *cur)
{
	return ((const struct bt_mem_vtab *)cur->pVtab)->data;
}

static int nd_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	struct nd_cursor *c = (struct nd_cursor *)cur;
	const struct nd_data *d = data_of(cur);

	(void)idxstr;
	(void)argc;
	c->i = 1;
	c->end = d->n + 1;
	if (idx & BT_VTAB_BY_ID)
		bt_vtab_only_id(argv[0], &c->i, &c->end);
	return SQLITE_OK;
}

static int nd_next(sqlite3_vtab_cursor *cur)
{
	((struct nd_cursor *)cur)->i++;
	return SQLITE_OK;
}

static int nd_eof(sqlite3_vtab_cursor *cur)
{
	const struct nd_cursor *c = (const struct nd_cursor *)cur;

	return c->i >= c->end;
}

static int nd_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct nd_data *d = data_of(cur);
	size_t i = ((const struct nd_cursor *)cur)->i;

	switch (col) {
	case ND_ID:
		sqlite3_result_int64(ctx, (sqlite3_int64)i);
		break;
	case ND_PARENT:
		if (d->parent[i])
			sqlite3_result_int64(ctx, d->parent[i]);
		else
			sqlite3_result_null(ctx);   /* an outermost frame */
		break;
	case ND_FRAME:
		sqlite3_result_int64(ctx, d->frame[i]);
		break;
	default:
		sqlite3_result_int64(ctx, d->depth[i]);
	}
	return SQLITE_OK;
}

static int nd_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((const struct nd_cursor *)cur)->i;
	return SQLITE_OK;
}

static const sqlite3_module nd_module = {
	.iVersion = 0,
	.xCreate = nd_connect,   /* temp.nodes, as temp.samples */
	.xConnect = nd_connect,
	.xBestIndex = nd_best_index,
	.xDisconnect = bt_vtab_disconnect,
	.xDestroy = bt_vtab_disconnect,
	.xOpen = nd_open,
	.xClose = bt_vtab_close,
	.xFilter = nd_filter,
	.xNext = nd_next,
	.xEof = nd_eof,
	.xColumn = nd_column,
	.xRowid = nd_rowid,
	.xUpdate = bt_vtab_update_readonly,
};

static void free_data(void *p)
{
	struct nd_data *d = p;

	free(d->parent);
	free(d->frame);
	free(d->depth);
	free(d);
}

int bt_db_attach_nodes(struct bt_db *db, uint32_t *parent, uint32_t *frame, size_t n,
		       struct bt_err *err)
{
	struct nd_data *d = bt_xcalloc(1, sizeof *d);
	size_t i;

	d->parent = parent;
	d->frame = frame;
	d->n = n;
	d->depth = bt_xcalloc(n + 1, sizeof *d->depth);
	for (i = 1; i <= n; i++) {
		if (parent[i] >= i) {
			free_data(d);
			return bt_err_set(err, BT_ESQL, "node %zu has parent %u: parents must come first", i,
					  parent[i]);
		}
		d->depth[i] = parent[i] ? (uint16_t)(d->depth[parent[i]] + 1) : 0;
	}
	if (bt_db_bulk_idle(db, err)) {
		free_data(d);
		return err->code;
	}
	if (sqlite3_create_module_v2(db->conn, "bt_nodes_mem", &nd_module, d, free_data) != SQLITE_OK)
		return bt_err_set(err, BT_ESQL, "cannot register the nodes: %s", sqlite3_errmsg(db->conn));
	if (bt_db_run_sql(db, "CREATE VIRTUAL TABLE temp.nodes USING bt_nodes_mem", err))
		return err->code;
	/* the module owns the arrays until the connection closes: as long as
	 * bt_app_node can run */
	db->node_parent = parent;
	db->node_frame = frame;
	db->node_n = n;
	return BT_OK;
}
