/*
 * Read-only SQL for rules: bt.query (all rows), bt.rows (an iterator that
 * closes its cursor when the loop ends, even by break) and bt.scalar.
 * Rows are tables keyed by column name; integers stay integers, NULL is
 * an absent key. Statements go through rows.c's strict mode, and step
 * under the file's limits: their VM steps are charged to its time budget,
 * and SQLite may hold no more than the room left in its memory account
 * above what it held when none of the file's cursors was open.
 */
#include <lauxlib.h>

#include "lua/api.h"
#include "lua/sandbox.h"
#include "engine/db/rows.h"

#define CURSOR "bt.cursor"

struct cursor {
	struct bt_rows *r;
	int ncols;
	struct bt_rules_state *st;
};

static struct bt_rules_state *state(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

static void bind(lua_State *L, struct bt_rows *r, int first)
{
	int i, n = lua_gettop(L) - first + 1;
	size_t len;
	const char *s;

	if (n > bt_rows_nparams(r))
		luaL_error(L, "%d values for %d SQL parameters", n, bt_rows_nparams(r));
	for (i = 0; i < n; i++) {
		int idx = first + i;
		switch (lua_type(L, idx)) {
		case LUA_TNIL: bt_rows_bind_null(r, i + 1); break;
		case LUA_TBOOLEAN: bt_rows_bind_int(r, i + 1, lua_toboolean(L, idx)); break;
		case LUA_TNUMBER:
			if (lua_isinteger(L, idx))
				bt_rows_bind_int(r, i + 1, lua_tointeger(L, idx));
			else
				bt_rows_bind_real(r, i + 1, lua_tonumber(L, idx));
			break;
		case LUA_TSTRING:
			s = lua_tolstring(L, idx, &len);
			bt_rows_bind_text(r, i + 1, s, len);
			break;
		default:
			luaL_error(L, "SQL parameter %d: cannot bind a %s", i + 1, luaL_typename(L, idx));
		}
	}
}

/* Open a cursor for (sql, params...) at the bottom of the stack and push
 * it as a userdata, so it is closed whatever happens next. */
static struct cursor *open_cursor(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	const char *sql = luaL_checkstring(L, 1);
	struct bt_err err = BT_ERR_INIT;
	struct cursor *c = lua_newuserdatauv(L, sizeof *c, 0);

	c->r = NULL;
	c->ncols = 0;
	c->st = st;
	luaL_setmetatable(L, CURSOR);
	lua_insert(L, 2);
	if (bt_rows_open_sql(&c->r, st->db, sql, 1, &err))
		luaL_error(L, "%s", err.msg);
	if (st->sql_open++ == 0)   /* none open: what SQLite holds now is not the file's */
		st->sql_base = bt_rows_heap_used();
	bt_rows_budget(c->r, &st->sql);
	c->ncols = bt_rows_ncols(c->r);
	bind(L, c->r, 3);
	lua_settop(L, 2);
	return c;
}

static void push_cell(lua_State *L, struct bt_rows *r, int i)
{
	size_t len;
	const char *s;

	switch (bt_rows_type(r, i)) {
	case BT_ROWS_INT: lua_pushinteger(L, bt_rows_int(r, i)); break;
	case BT_ROWS_REAL: lua_pushnumber(L, bt_rows_real(r, i)); break;
	case BT_ROWS_NULL: lua_pushnil(L); break;
	default:
		s = bt_rows_text(r, i, &len);
		lua_pushlstring(L, s ? s : "", len);
	}
}

/* Step under the file's limits: 1 a row, 0 the end; errors raise. */
static int step(lua_State *L, struct cursor *c)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	struct bt_err err = BT_ERR_INIT;
	int rc;

	int64_t held;

	c->st->sql.heap_limit = c->st->sql_base + (int64_t)(bt_sandbox_room(sb) + sb->sql);
	rc = bt_rows_next(c->r, &err);
	held = bt_rows_heap_used() - c->st->sql_base;
	sb->sql = held > 0 ? (size_t)held : 0;   /* the row is held while Lua copies it */
	if (rc >= 0)
		return rc;
	if (c->st->sql.stopped || sb->stop)
		bt_sandbox_raise(L);
	if (c->st->sql.nomem)
		bt_sandbox_stop(L, BT_SB_MEMORY);
	return luaL_error(L, "%s", err.msg);
}

/* Step; push the row table, or nothing at the end. Errors raise. */
static int next_row(lua_State *L, struct cursor *c)
{
	int rc = step(L, c), i;

	if (rc == 0)
		return 0;
	lua_createtable(L, 0, c->ncols);
	for (i = 0; i < c->ncols; i++) {
		push_cell(L, c->r, i);
		lua_setfield(L, -2, bt_rows_name(c->r, i));
	}
	return 1;
}

static void close_cursor(struct cursor *c)
{
	if (c->r && --c->st->sql_open == 0) {
		struct bt_sandbox *sb = c->st->sql.ctx;
		sb->sql = 0;   /* none open: nothing SQLite holds is the file's */
	}
	bt_rows_close(c->r);
	c->r = NULL;
}

static int cursor_gc(lua_State *L)
{
	close_cursor(luaL_checkudata(L, 1, CURSOR));
	return 0;
}

/* bt.query(sql, ...) -> { row, ... } */
static int l_query(lua_State *L)
{
	struct cursor *c = open_cursor(L);
	lua_Integer n = 0;

	lua_newtable(L);
	while (next_row(L, c))
		lua_rawseti(L, -2, ++n);
	close_cursor(c);
	return 1;
}

/* bt.scalar(sql, ...) -> the first column of the first row, or nil */
static int l_scalar(lua_State *L)
{
	struct cursor *c = open_cursor(L);
	int rc = step(L, c);

	if (rc == 1 && c->ncols > 0)
		push_cell(L, c->r, 0);
	else
		lua_pushnil(L);
	close_cursor(c);
	return 1;
}

static int rows_iter(lua_State *L)
{
	struct cursor *c = luaL_checkudata(L, lua_upvalueindex(1), CURSOR);

	if (!c->r)
		return 0;
	if (!next_row(L, c)) {
		close_cursor(c);
		return 0;
	}
	return 1;
}

/* for row in bt.rows(sql, ...) do ... end: the cursor is the loop's
 * to-be-closed value. */
static int l_rows(lua_State *L)
{
	open_cursor(L);
	lua_pushvalue(L, 2);
	lua_pushcclosure(L, rows_iter, 1);
	lua_pushnil(L);
	lua_pushnil(L);
	lua_pushvalue(L, 2);
	return 4;
}

/* Every BT_ROWS_TICK VM steps: charge them; nonzero stops the statement. */
static int sql_tick(void *ctx)
{
	return !bt_sandbox_work_fits(ctx, BT_ROWS_TICK);
}

void bt_api_sql_open(lua_State *L, struct bt_rules_state *st)
{
	static const luaL_Reg fns[] = {
		{ "query", l_query }, { "scalar", l_scalar }, { "rows", l_rows }, { NULL, NULL }
	};

	st->sql.tick = sql_tick;
	st->sql.ctx = bt_sandbox_of(L);
	st->sql_open = 0;
	if (luaL_newmetatable(L, CURSOR)) {
		lua_pushcfunction(L, cursor_gc);
		lua_setfield(L, -2, "__gc");
		lua_pushcfunction(L, cursor_gc);
		lua_setfield(L, -2, "__close");
		lua_pushliteral(L, "cursor");
		lua_setfield(L, -2, "__metatable");
	}
	lua_pop(L, 1);
	lua_pushlightuserdata(L, st);
	luaL_setfuncs(L, fns, 1);
}
