/*
 * The gate script runtime (see gates.h). The chunk runs once; gate.metric
 * and gate.defaults copy their settings into C, so thresholds are applied
 * without Lua; gate.check keeps its functions in a registry list that the
 * verdict hook calls with a table describing the metric.
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "lua/gates.h"
#include "lua/sandbox.h"

/* One gate.metric declaration; has_* say which settings it makes. */
struct decl {
	char *glob;
	struct bt_gate set;
	double floor_own;           /* a bare number: the metric's own unit */
	unsigned has;
};

enum { H_REGRESS = 1, H_FLOOR_NS = 2, H_FLOOR_BYTES = 4, H_FLOOR_COUNT = 8, H_FLOOR_OWN = 16,
       H_ALPHA = 32, H_GATE = 64, H_HIGHER = 128 };

struct bt_gates {
	struct bt_sandbox sb;
	char *path;
	struct decl *d;
	size_t nd, dcap;
	int checks_ref;             /* list of gate.check functions */
};

static struct bt_gates *gates_of(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* Raise an error at the script's line that called gate.*. */
static int raise(lua_State *L, const char *fmt, ...)
{
	va_list ap;

	luaL_where(L, 1);
	va_start(ap, fmt);
	lua_pushvfstring(L, fmt, ap);
	va_end(ap);
	lua_concat(L, 2);
	return lua_error(L);
}

static void floor_setting(lua_State *L, int idx, struct decl *d)
{
	struct bt_gate probe;

	if (lua_type(L, idx) == LUA_TNUMBER) {
		d->floor_own = lua_tonumber(L, idx);
		if (!(d->floor_own >= 0))
			raise(L, "noise_floor must not be negative");
		d->has |= H_FLOOR_OWN;
		return;
	}
	probe.floor_ns = probe.floor_bytes = probe.floor_count = -1;
	if (lua_type(L, idx) != LUA_TSTRING || bt_gate_parse_floor(lua_tostring(L, idx), &probe))
		raise(L, "noise_floor wants an amount like \"2ms\", \"64KB\" or 3, not '%s'",
		      luaL_tolstring(L, idx, NULL));
	if (probe.floor_ns >= 0)
		d->set.floor_ns = probe.floor_ns, d->has |= H_FLOOR_NS;
	if (probe.floor_bytes >= 0)
		d->set.floor_bytes = probe.floor_bytes, d->has |= H_FLOOR_BYTES;
	if (probe.floor_count >= 0)
		d->set.floor_count = probe.floor_count, d->has |= H_FLOOR_COUNT;
}

static int setting_index(const char *k)
{
	static const char *const known[] = { "max_regress", "noise_floor", "alpha", "gate",
					     "higher_is_better" };
	int i;

	for (i = 0; i < 5; i++)
		if (!strcmp(k, known[i]))
			return i;
	return -1;
}

static void read_settings(lua_State *L, int t, struct decl *d)
{
	lua_pushnil(L);
	while (lua_next(L, t)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
		int which = setting_index(k);
		double v = -1;
		if (which < 0)
			raise(L, "unknown gate setting '%s' (known: max_regress, noise_floor, alpha, "
			      "gate, higher_is_better)", k);
		if (which == 0) {
			if (lua_type(L, -1) == LUA_TNUMBER)
				v = lua_tonumber(L, -1);
			else if (lua_type(L, -1) != LUA_TSTRING || bt_gate_parse_pct(lua_tostring(L, -1), &v))
				v = -1;
			if (!(v >= 0))
				raise(L, "max_regress wants \"5%%\" or a fraction like 0.05");
			d->set.max_regress = v, d->has |= H_REGRESS;
		} else if (which == 1 && lua_type(L, -1) == LUA_TTABLE) {
			lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
			for (i = 1; i <= n; i++) {
				lua_rawgeti(L, -1, i);
				floor_setting(L, lua_gettop(L), d);
				lua_pop(L, 1);
			}
		} else if (which == 1) {
			floor_setting(L, lua_gettop(L), d);
		} else if (which == 2) {
			v = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
			if (!(v > 0 && v < 1))
				raise(L, "alpha wants a number between 0 and 1");
			d->set.alpha = v, d->has |= H_ALPHA;
		} else {
			if (lua_type(L, -1) != LUA_TBOOLEAN)
				raise(L, "%s wants true or false", k);
			*(which == 3 ? &d->set.gated : &d->set.higher_is_better) = lua_toboolean(L, -1);
			d->has |= which == 3 ? H_GATE : H_HIGHER;
		}
		lua_pop(L, 1);
	}
}

static int declare(lua_State *L, const char *glob, int t)
{
	struct bt_gates *g = gates_of(L);
	struct decl d;

	if (lua_type(L, t) != LUA_TTABLE)
		raise(L, "gate.%s wants a table of settings", t == 1 ? "defaults" : "metric");
	memset(&d, 0, sizeof d);
	read_settings(L, t, &d);   /* may raise: nothing allocated yet */
	d.glob = bt_xstrdup(glob);
	BT_GROW(g->d, g->nd + 1, g->dcap);
	g->d[g->nd++] = d;
	return 0;
}

static int l_metric(lua_State *L)
{
	if (lua_type(L, 1) != LUA_TSTRING)
		raise(L, "gate.metric wants a metric name or glob first");
	return declare(L, lua_tostring(L, 1), 2);
}

static int l_defaults(lua_State *L)
{
	return declare(L, "*", 1);
}

static int l_check(lua_State *L)
{
	struct bt_gates *g = gates_of(L);

	if (lua_type(L, 1) != LUA_TFUNCTION)
		raise(L, "gate.check wants a function");
	lua_rawgeti(L, LUA_REGISTRYINDEX, g->checks_ref);
	lua_pushvalue(L, 1);
	lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	return 0;
}

static void open_gate(lua_State *L, struct bt_gates *g)
{
	static const luaL_Reg fns[] = { { "metric", l_metric }, { "defaults", l_defaults },
					{ "check", l_check }, { NULL, NULL } };

	lua_newtable(L);
	g->checks_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	lua_newtable(L);
	lua_pushlightuserdata(L, g);
	luaL_setfuncs(L, fns, 1);
	lua_setglobal(L, "gate");
}

/* The script's error; a limit hit (the whole script has one time budget
 * and one memory account) says which limit, in C memory. */
static int fail(struct bt_gates *g, int status, struct bt_err *err)
{
	const char *msg = status != LUA_ERRMEM ? lua_tostring(g->sb.L, -1) : NULL;
	enum bt_sandbox_stop why = g->sb.stop ? g->sb.stop : BT_SB_MEMORY;
	char limit[200];

	if (g->sb.stop || status == LUA_ERRMEM) {
		bt_sandbox_limit_text(&g->sb, why, limit, sizeof limit);
		if (msg && strstr(msg, why == BT_SB_MEMORY ? "memory limit: " : "time limit: "))
			return bt_err_set(err, BT_ELUA, "gate script '%s' stopped: %s", g->path, msg);
		return bt_err_set(err, BT_ELUA, "gate script '%s' stopped: %s", g->path, limit);
	}
	return bt_err_set(err, BT_ELUA, "gate script: %s", msg ? msg : "(error object is not a string)");
}

int bt_gates_open(struct bt_gates **out, const char *path, struct bt_err *err)
{
	struct bt_gates *g = bt_xcalloc(1, sizeof *g);
	struct bt_fmap m = { NULL, 0 };
	struct bt_buf chunk = BT_BUF_INIT;
	int rc = bt_fmap_open(&m, path, err);

	*out = NULL;
	g->path = bt_xstrdup(path);
	if (!rc && !bt_sandbox_open(&g->sb, (size_t)BT_LUA_MAX_MB << 20, BT_LUA_MAX_INSNS, BT_LUA_MAX_CPU_MS))
		rc = bt_err_set(err, BT_ELUA, "cannot start Lua for '%s'", path);
	if (!rc) {
		open_gate(g->sb.L, g);
		bt_buf_addf(&chunk, "@%s", path);
		int status = bt_sandbox_load(&g->sb, m.data ? (const char *)m.data : "", m.len, chunk.buf);
		if (status == LUA_OK)
			status = bt_sandbox_pcall(&g->sb, 0, 0);
		if (status != LUA_OK)
			rc = fail(g, status, err);
	}
	bt_buf_release(&chunk);
	bt_fmap_release(&m);
	if (rc) {
		bt_gates_close(g);
		return rc;
	}
	*out = g;
	return BT_OK;
}

void bt_gates_close(struct bt_gates *g)
{
	size_t i;

	if (!g)
		return;
	if (g->sb.L)
		bt_sandbox_close(&g->sb);
	for (i = 0; i < g->nd; i++)
		free(g->d[i].glob);
	free(g->d);
	free(g->path);
	free(g);
}

static int thresholds(void *ctx, const char *name, struct bt_gate *out, struct bt_err *err)
{
	struct bt_gates *g = ctx;
	enum bt_unit u = bt_unit_of(name, BT_UNIT_COUNT);
	size_t i;

	(void)err;
	for (i = 0; i < g->nd; i++) {
		const struct decl *d = &g->d[i];
		if (fnmatch(d->glob, name, 0))
			continue;
		if (d->has & H_REGRESS)
			out->max_regress = d->set.max_regress;
		if (d->has & H_FLOOR_NS)
			out->floor_ns = d->set.floor_ns;
		if (d->has & H_FLOOR_BYTES)
			out->floor_bytes = d->set.floor_bytes;
		if (d->has & H_FLOOR_COUNT)
			out->floor_count = d->set.floor_count;
		if (d->has & H_FLOOR_OWN)
			*(u == BT_UNIT_NS ? &out->floor_ns : u == BT_UNIT_BYTES ? &out->floor_bytes :
			  &out->floor_count) = d->floor_own;
		if (d->has & H_ALPHA)
			out->alpha = d->set.alpha;
		if (d->has & H_GATE)
			out->gated = d->set.gated;
		if (d->has & H_HIGHER)
			out->higher_is_better = d->set.higher_is_better;
	}
	return BT_OK;
}

static void set_num(lua_State *L, const char *k, double v)
{
	if (isnan(v))
		return;   /* nil: not computed */
	if (v == floor(v) && fabs(v) < 9e15)
		lua_pushinteger(L, (lua_Integer)v);
	else
		lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

static void push_side(lua_State *L, const struct bt_compare *c, const struct bt_cmp_metric *m,
		      enum bt_side side, const struct bt_stats_summary *s)
{
	/* Lua's memory, so an error (a memory limit) cannot leak it */
	double *x = lua_newuserdatauv(L, (c->runs->nruns + 1) * sizeof *x, 0);
	size_t i, n = bt_compare_values(c, m->id, side, x);

	lua_createtable(L, 0, 5);
	lua_pushinteger(L, (lua_Integer)s->n);
	lua_setfield(L, -2, "n");
	set_num(L, "median", s->median);
	set_num(L, "min", s->min);
	set_num(L, "max", s->max);
	lua_createtable(L, (int)n, 0);
	for (i = 0; i < n; i++) {
		lua_pushnumber(L, x[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "values");
	lua_remove(L, -2);
}

/* The table a check sees. */
static void push_metric(lua_State *L, const struct bt_compare *c, const struct bt_cmp_metric *m)
{
	lua_createtable(L, 0, 16);
	lua_pushstring(L, m->name);
	lua_setfield(L, -2, "name");
	lua_pushstring(L, m->unit == BT_UNIT_COUNT ? "count" : bt_unit_name(m->unit));
	lua_setfield(L, -2, "unit");
	lua_pushboolean(L, m->gate.gated);
	lua_setfield(L, -2, "gated");
	push_side(L, c, m, BT_BASE, &m->base);
	lua_setfield(L, -2, "base");
	push_side(L, c, m, BT_HEAD, &m->head);
	lua_setfield(L, -2, "head");
	set_num(L, "delta", m->delta);
	set_num(L, "rel", m->rel);
	set_num(L, "threshold", m->threshold);
	if (m->tested) {
		set_num(L, "p", bt_cmp_p(m));
		set_num(L, "p_raw", m->mwu.p);
		set_num(L, "cliffs_delta", m->mwu.delta);
		set_num(L, "shift", m->hl.est);
		set_num(L, "shift_lo", m->hl.lo);
		set_num(L, "shift_hi", m->hl.hi);
	}
	lua_pushstring(L, bt_verdict_name[m->verdict]);
	lua_setfield(L, -2, "verdict");
	lua_pushstring(L, m->reason ? m->reason : "");
	lua_setfield(L, -2, "reason");
}

/* One check on one metric: (1: struct call) -> verdict, reason. Protected,
 * as building the metric's table allocates under the memory account. */
struct call {
	struct bt_gates *g;
	const struct bt_compare *c;
	const struct bt_cmp_metric *m;
	lua_Integer i;
};

static int call_check(lua_State *L)
{
	struct call *k = lua_touserdata(L, 1);

	lua_rawgeti(L, LUA_REGISTRYINDEX, k->g->checks_ref);
	lua_rawgeti(L, -1, k->i);
	push_metric(L, k->c, k->m);
	lua_call(L, 1, 2);
	return 2;
}

static int verdict(void *ctx, struct bt_compare *c, struct bt_cmp_metric *m, struct bt_err *err)
{
	struct bt_gates *g = ctx;
	lua_State *L = g->sb.L;
	struct call k = { g, c, m, 0 };
	lua_Integer i, n;
	int list, v, status;

	lua_rawgeti(L, LUA_REGISTRYINDEX, g->checks_ref);
	list = lua_gettop(L);
	n = (lua_Integer)lua_rawlen(L, list);
	for (i = 1; i <= n; i++) {
		k.i = i;
		lua_pushcfunction(L, call_check);
		lua_pushlightuserdata(L, &k);
		if ((status = bt_sandbox_pcall(&g->sb, 1, 2)) != LUA_OK) {
			int rc = fail(g, status, err);
			lua_settop(L, list - 1);
			return rc;
		}
		if (!lua_isnil(L, -2)) {
			const char *s = lua_tostring(L, -2);
			if (!s || (v = bt_verdict_parse(s)) < 0) {
				lua_settop(L, list - 1);
				return bt_err_set(err, BT_ELUA, "gate script %s: a check returned '%s' for "
						  "metric '%s'; verdicts are: unchanged, improved, "
						  "inconclusive, regressed", g->path, s ? s : "?", m->name);
			}
			m->verdict = (enum bt_verdict)v;
			m->by_script = 1;
			free(m->reason);
			m->reason = bt_xstrdup(lua_isstring(L, -1) ? lua_tostring(L, -1) : "set by the gate script");
		}
		lua_pop(L, 2);
	}
	lua_settop(L, list - 1);
	return BT_OK;
}

void bt_gates_hooks(struct bt_gates *g, struct bt_cmp_hooks *h)
{
	h->thresholds = thresholds;
	h->verdict = verdict;
	h->ctx = g;
}
