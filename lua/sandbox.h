/*
 * A Lua 5.4 state for untrusted rule scripts (DESIGN §7): base, string,
 * table, math, utf8 and coroutine only (no io, os, package, debug,
 * dofile/loadfile, string.dump, no __gc finalizers), load() of text chunks
 * only, and two limits for the whole file (a rule file or a gate script):
 * one time budget and one memory account.
 *
 * The time budget is counted twice, and the first to run out stops the
 * file: the work done (Lua instructions by a count hook, in every
 * coroutine; the steps of pattern matching, pattern.c, and of SQLite's
 * virtual machine, api_sql.c; each library function's work, charged by
 * its arguments before it runs, bounds.c; the bytes of each large block
 * Lua's allocator fills, and the pages of one malloc maps fresh) and the
 * thread's CPU time (a CPU-clock timer, for the work one instruction does
 * in C: comparing two long strings, a full collection).
 * The memory account holds Lua's heap, what the file copied into the report
 * (findings, metrics, tables: never given back) and, while a statement of
 * the file steps, what SQLite holds above what it held when the file began.
 * A limit hit stops the file: from then on every instruction raises again,
 * so a pcall in the script cannot catch the stop and go on.
 */
#ifndef BT_SANDBOX_H
#define BT_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <lua.h>

#define BT_LUA_MAX_INSNS 200000000LL    /* per file (~1 s); --set lua.max_instructions */
#define BT_LUA_MAX_MB 200               /* per file; --set lua.max_memory_mb */
#define BT_LUA_MAX_CPU_MS 2000          /* per file; --set lua.max_cpu_ms: the instruction
						   budget stops Lua first, this the work done in C */
/* A sanitized build does the same work several times slower: its CPU
 * budget is that much longer, so the same file stops at the same limit. */
#if defined(__SANITIZE_ADDRESS__)
#define BT_LUA_CPU_SLOWDOWN 5
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BT_LUA_CPU_SLOWDOWN 5
#endif
#endif
#ifndef BT_LUA_CPU_SLOWDOWN
#define BT_LUA_CPU_SLOWDOWN 1
#endif

enum bt_sandbox_stop { BT_SB_RUNNING, BT_SB_TIME, BT_SB_MEMORY, BT_SB_CPU };

struct bt_sandbox {
	lua_State *L;
	size_t mem, host, mem_cap;   /* Lua's heap, the host copies, their cap */
	size_t sql;                  /* what the file's open statements hold (api_sql.c) */
	long long insns, insn_cap;   /* work done (instructions and steps), its cap */
	long long cpu_used, cpu_cap; /* the thread's CPU (ns) in the file's finished calls, its cap */
	long long cpu_ms;            /* the cap as given */
	struct timespec cpu_t0;      /* when the outermost call running now began */
	int depth;                   /* bt_sandbox_pcall calls running */
	int has_timer;               /* timer is armed while Lua runs; else the hook reads the clock */
	timer_t timer;
	volatile int cpu_out;        /* the timer fired: the CPU budget is spent */
	lua_State *volatile running; /* the thread (a coroutine or L) running now */
	struct bt_sandbox *outer;    /* the sandbox running when this one began */
	enum bt_sandbox_stop stop;   /* which limit stopped the file */
	int tunable;                 /* the limits come from --set (a rule file) */
	int grace;                   /* let the host report an error past the cap */
};

/* NULL when even the empty state does not fit in mem_cap. cpu_ms: the
 * file's CPU budget in milliseconds. */
lua_State *bt_sandbox_open(struct bt_sandbox *sb, size_t mem_cap, long long insn_cap, long long cpu_ms);
void bt_sandbox_close(struct bt_sandbox *sb);

/* Load a text chunk (binary refused); chunkname as for lua_load. Like
 * luaL_loadbufferx: LUA_OK and the function pushed, or an error message. */
int bt_sandbox_load(struct bt_sandbox *sb, const char *buf, size_t len, const char *chunkname);
/* A built-in file's compiled chunk (gen/bt_lua.c): binary, which
 * bt_sandbox_load, for the user's files, refuses. */
int bt_sandbox_load_code(struct bt_sandbox *sb, const unsigned char *code, size_t len, const char *chunkname);

/* lua_pcall under the file's budget (not a fresh one); fails at once,
 * without running anything, once the file was stopped. The outermost call
 * runs the CPU clock: the file's host code between its calls is not
 * charged. */
int bt_sandbox_pcall(struct bt_sandbox *sb, int nargs, int nresults);

/* The sandbox that owns L. */
struct bt_sandbox *bt_sandbox_of(lua_State *L);

/* Charge n steps of work done in C (a matcher, SQL) to the time budget;
 * raises the stop when it is spent. */
void bt_sandbox_work(lua_State *L, long long n);
/* 1 if n more steps fit the budget; 0 marks the file stopped (the caller
 * raises with bt_sandbox_raise once it has cleaned up). */
int bt_sandbox_work_fits(struct bt_sandbox *sb, long long n);

/* Bytes left in the memory account. */
size_t bt_sandbox_room(const struct bt_sandbox *sb);
/* Charge n bytes copied into host memory; raises the stop if they do
 * not fit. bt_sandbox_charge_fits: the same without raising (0: stopped). */
void bt_sandbox_charge(lua_State *L, size_t n);
int bt_sandbox_charge_fits(struct bt_sandbox *sb, size_t n);

/* Raise the error of the limit that stopped the file (sb->stop set). */
int bt_sandbox_raise(lua_State *L);
/* Mark the file stopped by limit why and raise its error. */
int bt_sandbox_stop(lua_State *L, enum bt_sandbox_stop why);

/* The words for a limit (why: BT_SB_TIME, BT_SB_CPU or BT_SB_MEMORY), e.g. "time
 * limit: ...", written into buf (C memory: it is also wanted when Lua has
 * no room left). */
void bt_sandbox_limit_text(const struct bt_sandbox *sb, enum bt_sandbox_stop why, char *buf,
			   size_t len);

/* string.find, match, gmatch and gsub whose matcher charges its steps
 * (pattern.c); replaces those in the string table at the top of the stack. */
void bt_pattern_open(lua_State *L);

/* The library functions that work in proportion to their arguments or
 * results, wrapped to charge that work (bounds.c); the libraries are
 * loaded as globals. */
void bt_bounds_open(lua_State *L);

#endif
