/*
 * The rule sandbox (see sandbox.h). Limits live in the state itself: the
 * allocator refuses blocks past the account (Lua raises "not enough
 * memory"), and a count hook raises once the budget is spent; from then
 * on the hook fires at every instruction, which also stops loops inside
 * pcall (the error is raised again at every hook).
 *
 * The CPU budget: a timer on the thread's CPU clock, armed while the
 * file's Lua runs, whose signal sets the hook to fire at the next
 * instruction of the running thread (lua_sethook may be called from a
 * signal handler; lua.c stops a script on ^C the same way).
 */
#define _GNU_SOURCE   /* SIGEV_THREAD_ID, gettid */
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "lua/sandbox.h"

#define HOOK_PERIOD 10000
#define CO_PERIOD 100     /* a coroutine's: its last period is charged when it is made */
#define GRACE (1 << 20)   /* past the cap, for the host's own error reporting */
#define CPU_SIGNAL SIGVTALRM
#define NS_PER_STEP 5     /* about a Lua instruction's time */
#define ALLOC_WORK_MIN 4096       /* blocks from which the allocator charges their bytes */
#define BYTES_PER_ALLOC_STEP 64
#define FRESH_MIN (128 << 10)    /* blocks malloc maps fresh from the kernel (its mmap threshold) */
#define STEPS_PER_PAGE 200       /* a fresh page's fault and zeroing, about 1 us */
#define BIG_WORK 100000   /* work asked at once past which the CPU left is read */

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static struct bt_sandbox *volatile active;   /* whose CPU timer is armed */

static void count_hook(lua_State *L, lua_Debug *ar);

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
	if (nsize > old && nsize - old > bt_sandbox_room(sb) + (sb->grace ? GRACE : 0))
		return NULL;
	if (!(p = realloc(ptr, nsize)))
		return NULL;
	sb->mem = sb->mem - old + nsize;
	if (nsize > old && nsize - old >= ALLOC_WORK_MIN && sb->running) {
		/* filling a large block is work no instruction counts (s .. t of
		 * two long strings): charged, and past the budget the next
		 * instruction stops */
		sb->insns += (long long)((nsize - old) / BYTES_PER_ALLOC_STEP);
		if (nsize >= FRESH_MIN)   /* and its new pages faulted in: 4 s for a 100 ms budget
					   * of 2 MB strings on a VM, charged by the bytes alone */
			sb->insns += (long long)((nsize - old) >> 12) * STEPS_PER_PAGE;
		if (sb->insns > sb->insn_cap && !sb->stop)
			lua_sethook(sb->running, count_hook, LUA_MASKCOUNT, 1);
	}
	return p;
}

struct bt_sandbox *bt_sandbox_of(lua_State *L)
{
	void *ud = NULL;

	lua_getallocf(L, &ud);
	return ud;
}

size_t bt_sandbox_room(const struct bt_sandbox *sb)
{
	size_t used = sb->mem + sb->host + sb->sql;

	return used < sb->mem_cap ? sb->mem_cap - used : 0;
}

void bt_sandbox_limit_text(const struct bt_sandbox *sb, enum bt_sandbox_stop why, char *buf,
			   size_t len)
{
	if (why == BT_SB_MEMORY)
		snprintf(buf, len, "memory limit: %zu MB for the file's Lua heap, its findings, metrics "
			 "and tables and its SQL%s", sb->mem_cap >> 20,
			 sb->tunable ? " (--set lua.max_memory_mb=N)" : "");
	else if (why == BT_SB_CPU)
		snprintf(buf, len, "time limit: %lld ms of CPU for the whole file (Lua, the library "
			 "functions it calls and its SQL)%s", sb->cpu_ms,
			 sb->tunable ? " (--set lua.max_cpu_ms=N)" : "");
	else
		snprintf(buf, len, "time limit: %lld instructions for the whole file (Lua, library "
			 "functions, pattern matching and SQL steps)%s", sb->insn_cap,
			 sb->tunable ? " (--set lua.max_instructions=N)" : "");
}

/* From now on every instruction fails, so a pcall in the script cannot
 * catch the stop and go on: each level unwinds in turn. */
static void make_sticky(struct bt_sandbox *sb, lua_State *L, enum bt_sandbox_stop why);

static long long ns_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long long)(t.tv_sec - t0->tv_sec) * 1000000000LL + (t.tv_nsec - t0->tv_nsec);
}

/* The file's CPU budget is spent (the timer fired, or without a timer,
 * the clock says so). */
static int cpu_spent(struct bt_sandbox *sb)
{
	if (sb->cpu_out)
		return 1;
	return !sb->has_timer && sb->depth && sb->cpu_used + ns_since(&sb->cpu_t0) >= sb->cpu_cap;
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	char limit[200];

	if (!sb->stop) {
		if (cpu_spent(sb)) {
			make_sticky(sb, L, BT_SB_CPU);
		} else {
			sb->insns += lua_gethookcount(L);
			if (sb->insns <= sb->insn_cap)
				return;
			make_sticky(sb, L, BT_SB_TIME);
		}
	}
	bt_sandbox_limit_text(sb, sb->stop, limit, sizeof limit);
	if (ar && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
		luaL_error(L, "%s:%d: %s", ar->short_src, ar->currentline, limit);
	luaL_error(L, "%s", limit);
}

static void make_sticky(struct bt_sandbox *sb, lua_State *L, enum bt_sandbox_stop why)
{
	sb->stop = why;
	lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
	lua_sethook(sb->running, count_hook, LUA_MASKCOUNT, 1);
	lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, 1);
}

/* The CPU timer's signal: the running thread's next instruction calls the
 * hook, which stops the file (async-signal-safe: a flag and lua_sethook). */
static void on_cpu_timer(int sig)
{
	struct bt_sandbox *sb = active;

	(void)sig;
	if (!sb)
		return;
	sb->cpu_out = 1;
	lua_sethook(sb->running, count_hook, LUA_MASKCOUNT, 1);
	lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, 1);
}

static void timer_open(struct bt_sandbox *sb)
{
	static int handler_set;
	struct sigevent ev;

	if (!handler_set) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_cpu_timer;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(CPU_SIGNAL, &sa, NULL))
			return;
		handler_set = 1;
	}
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = CPU_SIGNAL;
	ev.sigev_notify_thread_id = gettid();
	sb->has_timer = timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &sb->timer) == 0;
}

static void timer_set(struct bt_sandbox *sb, long long ns)
{
	struct itimerspec it;

	memset(&it, 0, sizeof it);
	it.it_value.tv_sec = ns / 1000000000LL;
	it.it_value.tv_nsec = ns % 1000000000LL;
	if (sb->has_timer)
		timer_settime(sb->timer, 0, &it, NULL);
}

/* The outermost call begins: the clock runs, the timer fires at the rest
 * of the budget. */
static void cpu_begin(struct bt_sandbox *sb)
{
	long long left = sb->cpu_cap - sb->cpu_used;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &sb->cpu_t0);
	sb->outer = active;
	active = sb;
	if (left <= 0)
		on_cpu_timer(CPU_SIGNAL);
	else
		timer_set(sb, left);
}

static void cpu_end(struct bt_sandbox *sb)
{
	timer_set(sb, 0);
	active = sb->outer;
	sb->cpu_used += ns_since(&sb->cpu_t0);
}

int bt_sandbox_raise(lua_State *L)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	char limit[200];

	bt_sandbox_limit_text(sb, sb->stop ? sb->stop : BT_SB_TIME, limit, sizeof limit);
	return luaL_error(L, "%s", limit);
}

int bt_sandbox_stop(lua_State *L, enum bt_sandbox_stop why)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);

	if (!sb->stop)
		make_sticky(sb, L, why);
	return bt_sandbox_raise(L);
}

int bt_sandbox_work_fits(struct bt_sandbox *sb, long long n)
{
	if (!sb->stop && n <= sb->insn_cap - sb->insns &&
	    (cpu_spent(sb) || (n >= BIG_WORK && sb->depth &&
			       n > (sb->cpu_cap - sb->cpu_used - ns_since(&sb->cpu_t0)) / NS_PER_STEP)))
		make_sticky(sb, sb->L, BT_SB_CPU);   /* spent, or what is asked cannot fit in what is left */
	if (!sb->stop && n <= sb->insn_cap - sb->insns) {
		sb->insns += n;
		return 1;
	}
	if (!sb->stop)
		make_sticky(sb, sb->L, BT_SB_TIME);
	return 0;
}

void bt_sandbox_work(lua_State *L, long long n)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);

	if (!bt_sandbox_work_fits(sb, n))
		bt_sandbox_stop(L, sb->stop);
}

int bt_sandbox_charge_fits(struct bt_sandbox *sb, size_t n)
{
	if (!sb->stop && n <= bt_sandbox_room(sb)) {
		sb->host += n;
		return 1;
	}
	if (!sb->stop)
		make_sticky(sb, sb->L, BT_SB_MEMORY);
	return 0;
}

void bt_sandbox_charge(lua_State *L, size_t n)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);

	if (!bt_sandbox_charge_fits(sb, n))
		bt_sandbox_stop(L, sb->stop);
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

/* setmetatable without finalizers: Lua runs __gc with hooks off, so an
 * endless one would escape the time limit (also at close). Lua marks an
 * object for finalization only when setmetatable sees __gc, so a __gc
 * added to the metatable later never runs. */
static int safe_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL)
			return luaL_error(L, "setmetatable: __gc metamethods are not allowed in the "
					  "sandbox (finalizers run outside its time limit)");
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
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

/* Call the function in upvalue 1 with this call's arguments, the thread
 * co running meanwhile (for the CPU timer's signal); errors go on. */
static int call_running(lua_State *L, lua_State *co)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	lua_State *prev = sb->running;
	int status;

	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	if (co)
		sb->running = co;
	if (co && (sb->stop || sb->cpu_out))
		lua_sethook(co, count_hook, LUA_MASKCOUNT, 1);
	status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
	sb->running = prev;
	if (sb->stop || sb->cpu_out)   /* it stopped while another thread ran */
		lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
	if (status != LUA_OK)
		return lua_error(L);
	return lua_gettop(L);
}

/* A new thread inherits the hook with a fresh count, so a coroutine
 * shorter than the period was never charged (870x over budget): its hook
 * fires every CO_PERIOD instructions, and the part of a period it may end
 * in is charged when it is made. */
static void hook_thread(lua_State *L, lua_State *co)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);

	if (co)
		lua_sethook(co, count_hook, LUA_MASKCOUNT, sb->stop || sb->cpu_out ? 1 : CO_PERIOD);
}

static int co_create(lua_State *L)
{
	bt_sandbox_work(L, CO_PERIOD);
	call_running(L, NULL);
	hook_thread(L, lua_tothread(L, -1));
	return 1;
}

static int co_resume(lua_State *L)
{
	return call_running(L, lua_tothread(L, 1));
}

/* The function coroutine.wrap made, called with its thread running. */
static int co_wrapped(lua_State *L)
{
	return call_running(L, lua_tothread(L, lua_upvalueindex(2)));
}

static int co_wrap(lua_State *L)
{
	lua_State *co;

	bt_sandbox_work(L, CO_PERIOD);
	call_running(L, NULL);
	lua_getupvalue(L, -1, 1);   /* the wrapped function's thread */
	co = lua_tothread(L, -1);
	hook_thread(L, co);
	lua_pushcclosure(L, co_wrapped, 2);
	return 1;
}

static void wrap_field(lua_State *L, const char *name, lua_CFunction f)
{
	lua_getfield(L, -1, name);
	lua_pushcclosure(L, f, 1);
	lua_setfield(L, -2, name);
}

static void wrap_global(lua_State *L, const char *name, lua_CFunction f)
{
	lua_getglobal(L, name);
	lua_pushcclosure(L, f, 1);
	lua_setglobal(L, name);
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
	wrap_global(L, "load", safe_load);
	wrap_global(L, "setmetatable", safe_setmetatable);
	lua_pushcfunction(L, safe_print);
	lua_setglobal(L, "print");
	lua_getglobal(L, LUA_STRLIBNAME);
	lua_pushnil(L);
	lua_setfield(L, -2, "dump");
	bt_pattern_open(L);
	lua_pop(L, 1);
	lua_getglobal(L, LUA_COLIBNAME);
	wrap_field(L, "create", co_create);
	wrap_field(L, "resume", co_resume);
	wrap_field(L, "wrap", co_wrap);
	lua_pop(L, 1);
	bt_bounds_open(L);
	/* An argument error names its function by searching every loaded
	 * library and _G (lauxlib's pushglobalfuncname), uncharged: 18 us an
	 * error here, more with a large _G. Nothing requires them after this
	 * (no require in the sandbox), so the search finds nothing at once. */
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
}

static int open_protected(lua_State *L)
{
	open_libs(L);
	return 0;
}

lua_State *bt_sandbox_open(struct bt_sandbox *sb, size_t mem_cap, long long insn_cap, long long cpu_ms)
{
	memset(sb, 0, sizeof *sb);
	sb->mem_cap = mem_cap;
	sb->insn_cap = insn_cap;
	sb->cpu_ms = cpu_ms;
	sb->cpu_cap = cpu_ms > LLONG_MAX / (1000000 * BT_LUA_CPU_SLOWDOWN) ? LLONG_MAX
									  : cpu_ms * 1000000 * BT_LUA_CPU_SLOWDOWN;
	if (!(sb->L = lua_newstate(sb_alloc, sb)))
		return NULL;
	sb->running = sb->L;
	timer_open(sb);
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
	if (sb->has_timer)
		timer_delete(sb->timer);
	sb->has_timer = 0;
	if (sb->L)
		lua_close(sb->L);
	sb->L = NULL;
}

int bt_sandbox_load(struct bt_sandbox *sb, const char *buf, size_t len, const char *chunkname)
{
	return luaL_loadbufferx(sb->L, buf, len, chunkname, "t");
}

int bt_sandbox_load_code(struct bt_sandbox *sb, const unsigned char *code, size_t len, const char *chunkname)
{
	return luaL_loadbufferx(sb->L, (const char *)code, len, chunkname, "b");
}

int bt_sandbox_pcall(struct bt_sandbox *sb, int nargs, int nresults)
{
	int status;

	if (sb->stop) {
		char limit[200];
		lua_pop(sb->L, nargs + 1);
		bt_sandbox_limit_text(sb, sb->stop, limit, sizeof limit);
		sb->grace = 1;
		lua_pushstring(sb->L, limit);
		sb->grace = 0;
		return LUA_ERRRUN;
	}
	if (sb->depth++ == 0)
		cpu_begin(sb);
	status = lua_pcall(sb->L, nargs, nresults, 0);
	if (--sb->depth == 0)
		cpu_end(sb);
	return status;
}
