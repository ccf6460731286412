/*
 * The standard library's C functions, charged to the file's time budget
 * by their arguments before they run and by what they return. The count
 * hook counts Lua instructions, and one instruction calling
 * string.rep("", math.maxinteger) or table.move({}, 1, 1e15, 1) never
 * came back; table.insert(t, 1, x) on a long list or table.sort without a
 * comparator did seconds of work per instruction.
 *
 * A step is about one Lua instruction's time (~5 ns): one element moved or
 * compared, a few loop turns of a copy, BYTES_PER_STEP bytes copied or
 * scanned. A charge past the
 * budget stops the file before the function runs.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "lua/sandbox.h"

#define BYTES_PER_STEP 16
#define ERROR_STEPS 500   /* raising an argument error: ~3 us */

enum cost {
	C_RESULTS,    /* what it returns only */
	C_ARGS,       /* its arguments' bytes: what it reads, even when it fails
		       * (print, string.unpack('z', s) over a string without a NUL) */
	C_REP,        /* string.rep(s, n, sep) */
	C_CONCAT,     /* table.concat(t, sep, i, j) */
	C_INSERT,     /* table.insert(t, pos, v): the elements after pos move */
	C_REMOVE,     /* table.remove(t, pos) */
	C_MOVE,       /* table.move(a1, f, e, t) */
	C_SORT,       /* table.sort(t, comp) */
	C_UNPACK,     /* table.unpack(t, i, j) */
	C_SCAN,       /* a scan of the first argument's bytes (utf8.len, tonumber) */
	C_OFFSET,     /* utf8.offset(s, n, i): up to n characters */
	C_LOAD,       /* load(chunk): compiling its text */
	C_GC          /* collectgarbage("collect" or "step"): the heap */
};

static const struct {
	const char *lib, *name;
	enum cost cost;
} wrapped[] = {
	{ LUA_STRLIBNAME, "rep", C_REP },
	{ LUA_STRLIBNAME, "byte", C_RESULTS },
	{ LUA_STRLIBNAME, "char", C_RESULTS },
	{ LUA_STRLIBNAME, "format", C_ARGS },
	{ LUA_STRLIBNAME, "lower", C_RESULTS },
	{ LUA_STRLIBNAME, "upper", C_RESULTS },
	{ LUA_STRLIBNAME, "reverse", C_RESULTS },
	{ LUA_STRLIBNAME, "sub", C_RESULTS },
	{ LUA_STRLIBNAME, "pack", C_ARGS },
	{ LUA_STRLIBNAME, "unpack", C_ARGS },
	{ LUA_STRLIBNAME, "gsub", C_RESULTS },
	{ LUA_TABLIBNAME, "concat", C_CONCAT },
	{ LUA_TABLIBNAME, "insert", C_INSERT },
	{ LUA_TABLIBNAME, "remove", C_REMOVE },
	{ LUA_TABLIBNAME, "move", C_MOVE },
	{ LUA_TABLIBNAME, "sort", C_SORT },
	{ LUA_TABLIBNAME, "unpack", C_UNPACK },
	{ LUA_TABLIBNAME, "pack", C_RESULTS },
	{ LUA_UTF8LIBNAME, "len", C_SCAN },
	{ LUA_UTF8LIBNAME, "char", C_RESULTS },
	{ LUA_UTF8LIBNAME, "codepoint", C_SCAN },
	{ LUA_UTF8LIBNAME, "offset", C_OFFSET },
	{ NULL, "tostring", C_RESULTS },
	{ NULL, "tonumber", C_SCAN },
	{ NULL, "select", C_RESULTS },
	{ NULL, "load", C_LOAD },
	{ NULL, "collectgarbage", C_GC },
	{ NULL, "print", C_ARGS },
};

static size_t len_at(lua_State *L, int i)
{
	size_t n = 0;

	if (lua_type(L, i) == LUA_TSTRING)
		lua_tolstring(L, i, &n);
	return n;
}

/* The integer at i, or def when it is none or nil (or not an integer:
 * the function itself then refuses it). */
static double int_at(lua_State *L, int i, double def)
{
	int ok = 0;
	lua_Integer v = lua_tointegerx(L, i, &ok);

	return ok ? (double)v : def;
}

/* #t as the function will see it (__len included), for a table only: a
 * wrong argument is left to the function's own message. */
static double len_of(lua_State *L, int i)
{
	return lua_type(L, i) == LUA_TTABLE ? (double)luaL_len(L, i) : 0;
}

static double span(double from, double to)
{
	return to >= from ? to - from + 1 : 0;
}

static void charge(lua_State *L, double steps)
{
	bt_sandbox_work(L, steps < (double)(LLONG_MAX / 2) ? (long long)steps : LLONG_MAX / 2);
}

/* The elements' bytes a sort compares at most: each comparison of two
 * strings may read the longer one. */
static double sort_cost(lua_State *L, double n)
{
	double cost = n * log2(n + 1), longest = 0;
	lua_Integer i;

	if (n < 2 || !lua_isnoneornil(L, 2) || lua_type(L, 1) != LUA_TTABLE)
		return cost;
	charge(L, cost + n);   /* before the scan */
	for (i = 1; i <= (lua_Integer)n; i++) {
		size_t l = 0;
		if (lua_rawgeti(L, 1, i) == LUA_TSTRING)
			lua_tolstring(L, -1, &l);
		lua_pop(L, 1);
		if (l > longest)
			longest = (double)l;
	}
	return cost * (1 + longest / BYTES_PER_STEP);
}

static double cost_before(lua_State *L, enum cost c)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	int i, top = lua_gettop(L);
	double n = 0, e;

	switch (c) {
	case C_RESULTS:
		return 0;
	case C_ARGS:
		for (i = 1; i <= top; i++)
			n += 1 + (double)len_at(L, i) / BYTES_PER_STEP;
		return n;
	case C_REP:
		n = int_at(L, 2, 0);
		return n > 0 ? n / 4 + n * (double)(len_at(L, 1) + len_at(L, 3)) / BYTES_PER_STEP : 0;
	case C_CONCAT:
		if (lua_type(L, 1) != LUA_TTABLE)
			return 0;
		e = lua_isnoneornil(L, 4) ? len_of(L, 1) : int_at(L, 4, 0);
		return span(int_at(L, 3, 1), e) * (1 + (double)len_at(L, 2) / BYTES_PER_STEP);
	case C_INSERT:
		return top == 3 ? span(int_at(L, 2, 0), len_of(L, 1)) : 1;
	case C_REMOVE:
		e = len_of(L, 1);
		return span(int_at(L, 2, e), e);
	case C_MOVE:
		return span(int_at(L, 2, 1), int_at(L, 3, 0));
	case C_SORT:
		return sort_cost(L, len_of(L, 1));
	case C_UNPACK:
		if (lua_type(L, 1) != LUA_TTABLE)
			return 0;
		e = lua_isnoneornil(L, 3) ? len_of(L, 1) : int_at(L, 3, 0);
		return span(int_at(L, 2, 1), e);
	case C_SCAN:   /* decoding: a few bytes a step */
		return (double)len_at(L, 1) / 4;
	case C_OFFSET:
		n = fabs(int_at(L, 2, 0));
		e = (double)len_at(L, 1);
		return n < e ? n : e;
	case C_LOAD:
		return (double)len_at(L, 1);
	case C_GC:
		if (lua_isnoneornil(L, 1) || len_at(L, 1) == 0 ||
		    !strcmp(lua_tostring(L, 1), "collect") || !strcmp(lua_tostring(L, 1), "step"))
			return (double)sb->mem / BYTES_PER_STEP;
		return 0;
	}
	return 0;
}

/* The wrapped function (upvalue 1) charged by cost (upvalue 2): before it
 * runs, then by its results' number and bytes. */
static int bounded(lua_State *L)
{
	int i, n, status;
	double after = 0;

	charge(L, cost_before(L, (enum cost)lua_tointeger(L, lua_upvalueindex(2))));
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	if ((status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0)) != LUA_OK) {
		if (status == LUA_ERRMEM)   /* the allocator refused: past the account */
			return bt_sandbox_stop(L, BT_SB_MEMORY);
		charge(L, ERROR_STEPS);   /* an error's message formatted, its stack unwound */
		return lua_error(L);
	}
	n = lua_gettop(L);
	for (i = 1; i <= n; i++)
		after += 1 + (double)len_at(L, i) / BYTES_PER_STEP;
	charge(L, after);
	return n;
}

void bt_bounds_open(lua_State *L)
{
	size_t i;

	for (i = 0; i < sizeof wrapped / sizeof wrapped[0]; i++) {
		if (wrapped[i].lib)
			lua_getglobal(L, wrapped[i].lib);
		else
			lua_pushglobaltable(L);
		lua_getfield(L, -1, wrapped[i].name);
		lua_pushinteger(L, wrapped[i].cost);
		lua_pushcclosure(L, bounded, 2);
		lua_setfield(L, -2, wrapped[i].name);
		lua_pop(L, 1);
	}
}
