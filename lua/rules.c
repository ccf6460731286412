/*
 * The rule driver (see rules.h). Per file: a fresh sandbox, the bt table
 * (C functions from api.c plus the Lua library lua/bt.lua), the file's
 * chunk, then each rule it registered with bt.rule, under its own pcall.
 * The file has one time budget and one memory account (sandbox.h). A
 * rule that fails, by an error or a limit hit, ends the run with an
 * error naming file:line: no report is better than one silently short
 * of a rule. Everything that touches Lua runs protected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "engine/base/alloc.h"
#include "lua/api.h"
#include "gen/bt_lua.h"
#include "engine/base/fileio.h"
#include "engine/base/near.h"
#include "lua/rules.h"
#include "lua/sandbox.h"

static int builtin_index(const char *name)
{
	int i;

	for (i = 0; i < BT_LUA__COUNT; i++)
		if (!strcmp(bt_lua_name[i], name))
			return i;
	return -1;
}

/* Push built-in file name's chunk (name known), compiled at build time
 * by the Lua library the program links (lua/lua2bc.c): the parser no
 * longer runs at each start (~1.5 ms; debug information kept, so errors
 * and tracebacks read as before). */
static int load_builtin(struct bt_sandbox *sb, const char *name, const char *chunkname)
{
	int i = builtin_index(name);

	return bt_sandbox_load_code(sb, bt_lua_code[i], bt_lua_code_len[i], chunkname);
}

struct rule_file {
	struct bt_rules_state st;
	struct bt_sandbox sb;
	const char *text;      /* the file's chunk */
	const char *builtin;   /* or the built-in file's name */
	size_t len;
	char *chunkname;
	char *stem;            /* rule id for the file's own findings */
	int rules_ref;         /* the list bt.rule fills */
	long long scale;       /* the default budgets times this (the built-in report: by the trace) */
};

static struct rule_file *run_of(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* The message of the error on top of the stack, with the limits named. */
static const char *error_text(lua_State *L, int status)
{
	const char *msg = lua_tostring(L, -1);

	if (status == LUA_ERRMEM)
		return lua_pushfstring(L, "not enough memory: the rule reached its memory cap "
				       "(--set lua.max_memory_mb=N)");
	if (!msg)
		return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
	return msg;
}

/* A failed rule is the run's error, not a finding: the report would be
 * missing what the rule should have said. The message names file:line
 * (Lua puts it first; a message without it gets the file) and the rule. */
static void rule_error(struct rule_file *r, const char *rule, const char *msg)
{
	size_t n = strlen(r->st.file);
	const char *in = rule != r->stem ? rule : NULL;   /* the stem: the file's chunk */

	if (!strncmp(msg, r->st.file, n) && msg[n] == ':')
		bt_err_set(r->st.usage, BT_ELUA, "%s%s%s%s", msg, in ? " (rule '" : "", in ? in : "",
			   in ? "')" : "");
	else
		bt_err_set(r->st.usage, BT_ELUA, "%s: %s%s%s%s", r->st.file, msg, in ? " (rule '" : "",
			   in ? in : "", in ? "')" : "");
}

/* A limit stopped the file in rule (or its chunk): say which, where and
 * what limit, in C memory, as Lua may have no room left. */
static void stop_error(struct rule_file *r, const char *rule, int status)
{
	enum bt_sandbox_stop why = r->sb.stop ? r->sb.stop : BT_SB_MEMORY;
	const char *msg = status != LUA_ERRMEM ? lua_tostring(r->sb.L, -1) : NULL;
	char limit[200];

	bt_sandbox_limit_text(&r->sb, why, limit, sizeof limit);
	if (!(msg && strstr(msg, why == BT_SB_MEMORY ? "memory limit: " : "time limit: ")))
		msg = limit;   /* else the limit, with the line it hit */
	bt_err_set(r->st.usage, BT_ELUA, "rule '%s' in '%s' stopped: %s", rule, r->st.file, msg);
}

/* The status of a failed pcall in rule, a stop or an ordinary error,
 * becomes the run's error. */
static void failed(lua_State *L, struct rule_file *r, const char *rule, int status)
{
	if (r->st.usage->code)
		return;
	if (r->sb.stop || status == LUA_ERRMEM) {
		if (!r->sb.stop)
			r->sb.stop = BT_SB_MEMORY;
		stop_error(r, rule, status);
	} else {
		rule_error(r, rule, error_text(L, status));
	}
}

/* bt.builtin(name): run a built-in rule file in this state. */
static int l_builtin(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);

	if (!strcmp(name, "bt") || builtin_index(name) < 0)
		return luaL_error(L, "bt.builtin: no built-in rule file '%s'", name);
	lua_pushfstring(L, "@builtin/%s.lua", name);
	if (load_builtin(bt_sandbox_of(L), name, lua_tostring(L, -1)) != LUA_OK)
		return lua_error(L);
	lua_call(L, 0, 0);
	return 0;
}

/* Set up bt: C functions, then lua/bt.lua, which returns the rule list. */
static int open_bt(lua_State *L)
{
	struct rule_file *r = run_of(L);

	bt_api_open(L, &r->st);
	lua_pushlightuserdata(L, r);
	lua_pushcclosure(L, l_builtin, 1);
	lua_setfield(L, -2, "builtin");
	lua_pushvalue(L, -1);
	lua_setglobal(L, "bt");
	if (load_builtin(&r->sb, "bt", "@builtin/bt.lua") != LUA_OK)
		return lua_error(L);
	lua_insert(L, -2);
	lua_call(L, 1, 1);
	r->rules_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

/* The parameters of the rule at idx, resolved against --set. */
static void push_params(lua_State *L, struct rule_file *r, int rule)
{
	lua_newtable(L);
	if (lua_getfield(L, rule, "params") != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		if (lua_type(L, -2) == LUA_TSTRING) {
			bt_api_param(L, &r->st, lua_tostring(L, -2), -1);
			lua_pushvalue(L, -3);
			lua_insert(L, -2);
			lua_settable(L, -6);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* Run registered rule i; its failure ends the run. */
static int run_rule(lua_State *L, struct rule_file *r, lua_Integer i)
{
	int rule, status, sev;
	const char *id;

	lua_rawgeti(L, LUA_REGISTRYINDEX, r->rules_ref);
	lua_rawgeti(L, -1, i);
	rule = lua_gettop(L);
	lua_getfield(L, rule, "id");   /* stays on the stack, so id lives while the rule runs */
	id = lua_isstring(L, -1) ? lua_tostring(L, -1) : "?";
	r->st.rule = id;
	bt_sandbox_charge(L, bt_names_add(r->st.ids, NULL, id));   /* kept for the run */
	r->st.severity = BT_SEV_WARNING;
	if (lua_getfield(L, rule, "severity") == LUA_TSTRING && (sev = bt_severity_parse(lua_tostring(L, -1))) >= 0)
		r->st.severity = (enum bt_severity)sev;
	lua_pop(L, 1);
	lua_getfield(L, rule, "run");
	push_params(L, r, rule);
	if (r->st.usage->code)
		return lua_error(L);
	status = bt_sandbox_pcall(&r->sb, 1, 0);
	if (status != LUA_OK) {
		failed(L, r, id, status);
		return lua_error(L);
	}
	lua_settop(L, rule - 2);
	return 0;
}

/* The whole file, protected: bt, the chunk, then its rules. */
static int file_main(lua_State *L)
{
	struct rule_file *r = run_of(L);
	lua_Integer i, n;
	int status;

	lua_pushlightuserdata(L, r);
	lua_pushcclosure(L, open_bt, 1);
	lua_call(L, 0, 0);
	r->st.rule = r->stem;
	r->st.severity = BT_SEV_WARNING;
	status = r->builtin ? load_builtin(&r->sb, r->builtin, r->chunkname)
			    : bt_sandbox_load(&r->sb, r->text, r->len, r->chunkname);
	if (status == LUA_OK)
		status = bt_sandbox_pcall(&r->sb, 0, 0);
	if (status != LUA_OK) {
		failed(L, r, r->stem, status);
		return lua_error(L);
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, r->rules_ref);
	n = (lua_Integer)lua_rawlen(L, -1);
	lua_pop(L, 1);
	for (i = 1; i <= n; i++)
		run_rule(L, r, i);
	return 0;
}

/* Some --set of this key was read (a repeated key: the last one was). */
static int key_used(const struct bt_rules_state *st, const struct bt_param *p)
{
	int i;

	for (i = 0; i < st->nparams; i++)
		if (st->params[i].used && st->params[i].keylen == p->keylen &&
		    !strncmp(st->params[i].key, p->key, p->keylen))
			return 1;
	return 0;
}

static long long param_ll(struct bt_rules_state *st, const char *key, long long def, struct bt_err *err)
{
	struct bt_param *p = (struct bt_param *)bt_api_find_param(st, NULL, key);
	char *end;
	long long v;

	bt_names_add(st->keys, NULL, key);
	if (!p)
		return def;
	p->used = 1;
	v = strtoll(p->value, &end, 10);
	if (end == p->value || *end || v <= 0)
		bt_err_set(err, BT_EUSAGE, "--set %s=%s: not a positive integer", key, p->value);
	return v;
}

/* The file's stem: what its own findings are attributed to. */
static char *stem_of(const char *path)
{
	const char *base = strrchr(path, '/');
	char *s = bt_xstrdup(base ? base + 1 : path), *dot = strrchr(s, '.');

	if (dot && dot != s)
		*dot = '\0';
	return s;
}

/*
 * The built-in report's time budgets grow with the trace: its work is a
 * few passes over the attribution tables (7.4M rows of methods in a
 * 1M-thread iOS database: 29 s of CPU), and a big trace is no hostile
 * rule. Each BUILTIN_ROWS rows of methods past the first add the default
 * budgets once more; its memory needs no more (its tables are cut to
 * their top rows).
 */
#define BUILTIN_ROWS 100000

static long long builtin_scale(struct bt_db *db)
{
	struct bt_err e = BT_ERR_INIT;
	struct bt_rows *r;
	int64_t n = 0;

	if (bt_rows_open_sql(&r, db, "SELECT count(*) FROM methods", 1, &e) == BT_OK) {
		if (bt_rows_next(r, &e) > 0)
			n = bt_rows_int(r, 0);
		bt_rows_close(r);
	}
	return n > BUILTIN_ROWS ? 1 + n / BUILTIN_ROWS : 1;
}

static int run_file(struct rule_file *r, struct bt_err *err)
{
	long long insns = param_ll(&r->st, "lua.max_instructions", BT_LUA_MAX_INSNS * r->scale, err);
	long long mb = param_ll(&r->st, "lua.max_memory_mb", BT_LUA_MAX_MB, err);
	long long cpu_ms = param_ll(&r->st, "lua.max_cpu_ms", BT_LUA_MAX_CPU_MS * r->scale, err);
	lua_State *L;
	int status;

	if (err->code)
		return err->code;
	if (!(L = bt_sandbox_open(&r->sb, (size_t)mb << 20, insns, cpu_ms)))
		return bt_err_set(err, BT_ELUA, "cannot start Lua for '%s' (memory cap %lld MB)", r->st.file, mb);
	r->sb.tunable = 1;
	lua_pushlightuserdata(L, r);
	lua_pushcclosure(L, file_main, 1);
	status = bt_sandbox_pcall(&r->sb, 0, 0);
	if (status != LUA_OK && !err->code)
		failed(L, r, r->st.rule ? r->st.rule : r->stem, status);
	bt_sandbox_close(&r->sb);
	return err->code;
}

static int run_one(struct bt_rules_state *base, const char *path, struct bt_err *err)
{
	struct rule_file r;
	struct bt_fmap m = { NULL, 0 };
	int rc;

	memset(&r, 0, sizeof r);
	r.st = *base;
	r.scale = path ? 1 : builtin_scale(base->db);
	if (path) {
		if (bt_fmap_open(&m, path, err))
			return err->code;
		r.text = m.data ? (const char *)m.data : "";
		r.len = m.len;
		r.st.file = path;
		r.chunkname = bt_xmalloc(strlen(path) + 2);
		r.chunkname[0] = '@';
		strcpy(r.chunkname + 1, path);
		r.stem = stem_of(path);
	} else {
		r.builtin = "attribution";
		r.st.file = "builtin/attribution.lua";
		r.chunkname = bt_xstrdup("@builtin/attribution.lua");
		r.stem = bt_xstrdup("attribution");
	}
	rc = run_file(&r, err);
	bt_fmap_release(&m);
	free(r.chunkname);
	free(r.stem);
	return rc;
}

/* The rule ids near prefix[0..n) as a suggestion, or (none near) the
 * first few that ran. */
static void near_ids(const struct bt_names *ids, const char *prefix, size_t n, struct bt_buf *b)
{
	size_t i, k = 0;
	int any = 0;

	for (i = 0; i < ids->n; i++)
		any |= bt_near(prefix, n, ids->v[i]);
	bt_buf_adds(b, any ? "; did you mean " : ids->n ? " (rules that ran: " : " (no rules ran)");
	for (i = 0; i < ids->n && k < 5; i++) {
		if (any && !bt_near(prefix, n, ids->v[i]))
			continue;
		bt_buf_addf(b, "%s'%s'", k++ ? (any ? " or " : ", ") : "", ids->v[i]);
	}
	if (!any && ids->n)
		bt_buf_adds(b, ids->n > k ? ", ...)" : ")");
	else if (any)
		bt_buf_adds(b, "?");
}

/* A --set no rule read: the closest key read, or, for RULE.name with no
 * rule RULE, the rule ids close to it. */
static int unused_set(const struct bt_rules_state *st, const struct bt_param *p, struct bt_err *err)
{
	const char *best = bt_near_best(p->key, p->keylen, (const char *const *)st->keys->v, st->keys->n);
	const char *dot = memchr(p->key, '.', p->keylen);
	struct bt_buf b = BT_BUF_INIT;
	size_t i, n = dot ? (size_t)(dot - p->key) : 0;
	int known = 0;

	for (i = 0; dot && i < st->ids->n; i++)
		known |= strlen(st->ids->v[i]) == n && !strncmp(st->ids->v[i], p->key, n);
	if (best)
		bt_buf_addf(&b, "; did you mean '%s'?", best);
	else if (dot && !known && strncmp(p->key, "lua.", 4) && strncmp(p->key, "scope.", 6)) {
		bt_buf_addf(&b, "; no rule '%.*s' ran", (int)n, p->key);
		near_ids(st->ids, p->key, n, &b);
	}
	bt_err_set(err, BT_EUSAGE, "--set %s: no rule has a parameter '%.*s'%s", p->key, (int)p->keylen, p->key,
		   b.buf ? b.buf : "");
	bt_buf_release(&b);
	return err->code;
}

int bt_rules_run(struct bt_db *db, const struct bt_rules_opts *o, struct bt_result *res,
		 struct bt_err *err)
{
	struct bt_rules_state st;
	struct bt_names keys, ids;
	int i, rc = BT_OK;

	memset(&st, 0, sizeof st);
	memset(&keys, 0, sizeof keys);
	memset(&ids, 0, sizeof ids);
	st.db = db;
	st.res = res;
	st.usage = err;
	st.keys = &keys;
	st.ids = &ids;
	st.names = o->names;
	st.full_names = o->full_names;
	st.nparams = o->nsets;
	st.params = bt_xcalloc((size_t)o->nsets + 1, sizeof *st.params);
	for (i = 0; i < o->nsets && !rc; i++) {
		const char *eq = strchr(o->sets[i], '=');
		if (!eq || eq == o->sets[i])
			rc = bt_err_set(err, BT_EUSAGE, "--set wants key=value, not '%s'", o->sets[i]);
		st.params[i].key = o->sets[i];
		st.params[i].keylen = eq ? (size_t)(eq - o->sets[i]) : 0;
		st.params[i].value = eq ? eq + 1 : "";
	}
	if (!rc && o->nfiles == 0)
		rc = run_one(&st, NULL, err);
	for (i = 0; i < o->nfiles && !rc; i++)
		rc = run_one(&st, o->files[i], err);
	for (i = 0; i < o->nsets && !rc; i++)
		if (!key_used(&st, &st.params[i]))
			rc = unused_set(&st, &st.params[i], err);
	free(st.params);
	bt_names_release(&keys);
	bt_names_release(&ids);
	if (!rc)
		bt_result_sort(res);
	return rc;
}
