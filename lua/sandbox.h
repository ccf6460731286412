/*
 * A Lua 5.4 state for untrusted rule scripts (DESIGN §7): base, string,
 * table, math, utf8 and coroutine only (no io, os, package, debug,
 * dofile/loadfile, string.dump), load() of text chunks only, a memory cap
 * enforced by the allocator and an instruction budget by a count hook.
 */
#ifndef BT_SANDBOX_H
#define BT_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#define BT_LUA_MAX_INSNS 200000000LL    /* per rule (~1 s); --set lua.max_instructions */
#define BT_LUA_MAX_MB 200               /* per rule file; --set lua.max_memory_mb */

struct bt_sandbox {
	lua_State *L;
	size_t mem, mem_cap;
	long long insns, insn_cap;   /* counted in steps of the hook's period */
};

/* NULL when even the empty state does not fit in mem_cap. */
lua_State *bt_sandbox_open(struct bt_sandbox *sb, size_t mem_cap, long long insn_cap);
void bt_sandbox_close(struct bt_sandbox *sb);

/* Load a text chunk (binary refused); chunkname as for lua_load. Like
 * luaL_loadbufferx: LUA_OK and the function pushed, or an error message. */
int bt_sandbox_load(struct bt_sandbox *sb, const char *buf, size_t len, const char *chunkname);

/* lua_pcall with a fresh instruction budget. */
int bt_sandbox_pcall(struct bt_sandbox *sb, int nargs, int nresults);

/* The sandbox that owns L. */
struct bt_sandbox *bt_sandbox_of(lua_State *L);

#endif
