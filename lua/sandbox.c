/*
 * The rule sandbox (see sandbox.h). Limits live in the state itself: the
 * allocator refuses blocks past the cap (Lua raises "not enough memory"),
 * and a count hook raises an error once the budget is spent, which also
 * stops loops inside pcall (the error is raised again at every hook).
 */
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "lua/sandbox.h"

#define HOOK_PERIOD 10000

static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct bt_sandbox *sb = ud;
	size_t old = ptr ? osize : 0;
	void *p;

	if (nsize == 0) {
		free(ptr);
		sb->mem -= old;
		return NULL;
	}
	if (nsize > old && sb->mem + (nsize - old) > sb->mem_cap)
		return NULL;
	if (!(p = realloc(ptr, nsize)))
		return NULL;
	sb->mem = sb->mem - old + nsize;
	return p;
}

struct bt_sandbox *bt_sandbox_of(lua_State *L)
{
	void *ud = NULL;

	lua_getallocf(L, &ud);
	return ud;
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);

	sb->insns += HOOK_PERIOD;
	if (sb->insns <= sb->insn_cap)
		return;
	/* from now on every instruction fails, so a pcall in the rule
	 * cannot catch the error and go on: each level unwinds in turn */
	lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
	lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, 1);
	if (ar && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
		luaL_error(L, "%s:%d: instruction budget exceeded (%I instructions; --set lua.max_instructions=N)",
			   ar->short_src, ar->currentline, (lua_Integer)sb->insn_cap);
	luaL_error(L, "instruction budget exceeded (%I instructions; --set lua.max_instructions=N)",
		   (lua_Integer)sb->insn_cap);
}

/* load(chunk [, chunkname [, mode [, env]]]) with mode forced to "t". */
static int safe_load(lua_State *L)
{
	lua_settop(L, 4);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_pushvalue(L, 1);
	lua_pushvalue(L, 2);
	lua_pushliteral(L, "t");
	if (lua_isnoneornil(L, 4)) {
		lua_call(L, 3, LUA_MULTRET);
	} else {
		lua_pushvalue(L, 4);
		lua_call(L, 4, LUA_MULTRET);
	}
	return lua_gettop(L) - 4;
}

/* print() writes to stderr, so rule output never mixes with the report. */
static int safe_print(lua_State *L)
{
	int i, n = lua_gettop(L);

	fputs("btrace-analyze: rule: ", stderr);
	for (i = 1; i <= n; i++) {
		size_t len;
		const char *s = luaL_tolstring(L, i, &len);
		if (i > 1)
			fputc('\t', stderr);
		fwrite(s, 1, len, stderr);
		lua_pop(L, 1);
	}
	fputc('\n', stderr);
	return 0;
}

static void open_libs(lua_State *L)
{
	static const luaL_Reg libs[] = {
		{ LUA_GNAME, luaopen_base },
		{ LUA_COLIBNAME, luaopen_coroutine },
		{ LUA_TABLIBNAME, luaopen_table },
		{ LUA_STRLIBNAME, luaopen_string },
		{ LUA_MATHLIBNAME, luaopen_math },
		{ LUA_UTF8LIBNAME, luaopen_utf8 },
		{ NULL, NULL }
	};
	static const char *const unsafe[] = { "dofile", "loadfile", "require", NULL };
	const luaL_Reg *l;
	int i;

	for (l = libs; l->func; l++) {
		luaL_requiref(L, l->name, l->func, 1);
		lua_pop(L, 1);
	}
	for (i = 0; unsafe[i]; i++) {
		lua_pushnil(L);
		lua_setglobal(L, unsafe[i]);
	}
	lua_getglobal(L, "load");
	lua_pushcclosure(L, safe_load, 1);
	lua_setglobal(L, "load");
	lua_pushcfunction(L, safe_print);
	lua_setglobal(L, "print");
	lua_getglobal(L, LUA_STRLIBNAME);
	lua_pushnil(L);
	lua_setfield(L, -2, "dump");
	lua_pop(L, 1);
}

static int open_protected(lua_State *L)
{
	open_libs(L);
	return 0;
}

lua_State *bt_sandbox_open(struct bt_sandbox *sb, size_t mem_cap, long long insn_cap)
{
	memset(sb, 0, sizeof *sb);
	sb->mem_cap = mem_cap;
	sb->insn_cap = insn_cap;
	if (!(sb->L = lua_newstate(sb_alloc, sb)))
		return NULL;
	lua_pushcfunction(sb->L, open_protected);
	if (lua_pcall(sb->L, 0, 0, 0) != LUA_OK) {
		bt_sandbox_close(sb);
		return NULL;
	}
	lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, HOOK_PERIOD);
	return sb->L;
}

void bt_sandbox_close(struct bt_sandbox *sb)
{
	if (sb->L)
		lua_close(sb->L);
	sb->L = NULL;
}

int bt_sandbox_load(struct bt_sandbox *sb, const char *buf, size_t len, const char *chunkname)
{
	return luaL_loadbufferx(sb->L, buf, len, chunkname, "t");
}

int bt_sandbox_pcall(struct bt_sandbox *sb, int nargs, int nresults)
{
	sb->insns = 0;
	lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, HOOK_PERIOD);
	return lua_pcall(sb->L, nargs, nresults, 0);
}
