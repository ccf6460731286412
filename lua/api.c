/*
 * The bt functions that emit results and read parameters: bt.finding,
 * bt.metric, bt.table, bt.param. Everything a rule emits is copied into
 * the report at once, checked, with errors pointing at the rule's line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "engine/base/alloc.h"
#include "lua/api.h"
#include "engine/base/jsonw.h"
#include "engine/base/utf8.h"

static struct bt_rules_state *state(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* The string keys of the table at idx, sorted, so output never depends
 * on hash order. Copies, as the keys only live while the table does. */
struct keys {
	char **k;
	size_t n, cap;
};

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sorted_keys(lua_State *L, int idx, struct keys *ks)
{
	idx = lua_absindex(L, idx);
	memset(ks, 0, sizeof *ks);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING) {
			BT_GROW(ks->k, ks->n + 1, ks->cap);
			ks->k[ks->n++] = bt_xstrdup(lua_tostring(L, -1));
		}
	}
	if (ks->n)
		qsort(ks->k, ks->n, sizeof *ks->k, cmp_key);
}

static void keys_release(struct keys *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->k[i]);
	free(ks->k);
}

static void json_str(struct bt_jsonw *w, const char *s, size_t len)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_utf8_sanitize(&b, s, len);
	bt_jsonw_str(w, b.buf, b.len);
	bt_buf_release(&b);
}

static void json_value(lua_State *L, int idx, struct bt_jsonw *w, int depth);

/* A table with keys 1..n only is an array, anything else an object.
 * Never raises: the caller holds a stream. */
static void json_table(lua_State *L, int idx, struct bt_jsonw *w, int depth)
{
	lua_Integer n = (lua_Integer)lua_rawlen(L, idx), i, count = 0;
	struct keys ks;
	size_t k;

	if (depth > 16 || !lua_checkstack(L, 4)) {
		bt_jsonw_null(w);
		return;
	}
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		count++;
		lua_pop(L, 1);
	}
	if (count == n && n > 0) {
		bt_jsonw_begin_array(w);
		for (i = 1; i <= n; i++) {
			lua_rawgeti(L, idx, i);
			json_value(L, lua_gettop(L), w, depth + 1);
			lua_pop(L, 1);
		}
		bt_jsonw_end_array(w);
		return;
	}
	sorted_keys(L, idx, &ks);
	bt_jsonw_begin_object(w);
	for (k = 0; k < ks.n; k++) {
		bt_jsonw_key(w, ks.k[k]);
		lua_pushstring(L, ks.k[k]);
		lua_rawget(L, idx);
		json_value(L, lua_gettop(L), w, depth + 1);
		lua_pop(L, 1);
	}
	bt_jsonw_end_object(w);
	keys_release(&ks);
}

static void json_value(lua_State *L, int idx, struct bt_jsonw *w, int depth)
{
	size_t len;
	const char *s;

	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx))
			bt_jsonw_int(w, lua_tointeger(L, idx));
		else
			bt_jsonw_real(w, lua_tonumber(L, idx));
		break;
	case LUA_TBOOLEAN:
		bt_jsonw_bool(w, lua_toboolean(L, idx));
		break;
	case LUA_TSTRING:
		s = lua_tolstring(L, idx, &len);
		json_str(w, s, len);
		break;
	case LUA_TTABLE:
		json_table(L, idx, w, depth);
		break;
	default:
		bt_jsonw_null(w);
	}
}

struct bt_value bt_api_value(lua_State *L, int idx)
{
	struct bt_value v;
	struct bt_jsonw w;
	size_t len;
	const char *s;
	char *json = NULL;
	FILE *fp;

	memset(&v, 0, sizeof v);
	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx)) {
			v.type = BT_V_INT;
			v.u.i = lua_tointeger(L, idx);
		} else {
			v.type = BT_V_REAL;
			v.u.d = lua_tonumber(L, idx);
		}
		break;
	case LUA_TBOOLEAN:
		v.type = BT_V_INT;
		v.u.i = lua_toboolean(L, idx);
		break;
	case LUA_TSTRING: {
		struct bt_buf b = BT_BUF_INIT;
		s = lua_tolstring(L, idx, &len);
		bt_utf8_sanitize(&b, s, len);
		v.type = BT_V_TEXT;
		v.u.s = bt_buf_detach(&b, NULL);
		break;
	}
	case LUA_TTABLE:
		if (!(fp = open_memstream(&json, &len)))
			luaL_error(L, "out of memory");
		bt_jsonw_init(&w, fp, 0);
		json_value(L, lua_absindex(L, idx), &w, 0);
		fclose(fp);
		v.type = BT_V_JSON;
		v.u.s = json;
		break;
	default:
		break;
	}
	return v;
}

static int opt_int_field(lua_State *L, int t, const char *name, int64_t *out)
{
	int ok = 0;

	if (lua_getfield(L, t, name) != LUA_TNIL) {
		if (!lua_isinteger(L, -1))
			luaL_error(L, "bt.finding: %s must be an integer (nanoseconds or a tid)", name);
		*out = lua_tointeger(L, -1);
		ok = 1;
	}
	lua_pop(L, 1);
	return ok;
}

/* bt.finding{message=, severity=, rule=, tid=, ts=, dur=, evidence={}} */
static int l_finding(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	struct bt_finding *f;
	const char *msg, *rule = st->rule;
	int sev = (int)st->severity;

	luaL_checktype(L, 1, LUA_TTABLE);
	if (lua_getfield(L, 1, "message") != LUA_TSTRING)
		luaL_error(L, "bt.finding: message must be a string");
	msg = lua_tostring(L, -1);
	if (lua_getfield(L, 1, "severity") != LUA_TNIL &&
	    (!lua_isstring(L, -1) || (sev = bt_severity_parse(lua_tostring(L, -1))) < 0))
		luaL_error(L, "bt.finding: severity must be info, warning or error");
	if (lua_getfield(L, 1, "rule") != LUA_TNIL)
		rule = luaL_checkstring(L, -1);
	f = bt_result_finding(st->res, rule, (enum bt_severity)sev, msg);
	f->has_tid = opt_int_field(L, 1, "tid", &f->tid);
	f->has_ts = opt_int_field(L, 1, "ts", &f->ts);
	f->has_dur = opt_int_field(L, 1, "dur", &f->dur);
	if (lua_getfield(L, 1, "evidence") == LUA_TTABLE) {
		struct keys ks;
		size_t k;
		sorted_keys(L, -1, &ks);
		for (k = 0; k < ks.n; k++) {
			lua_pushstring(L, ks.k[k]);
			lua_rawget(L, -2);
			bt_finding_evidence(f, ks.k[k], bt_api_value(L, -1));
			lua_pop(L, 1);
		}
		keys_release(&ks);
	} else if (!lua_isnil(L, -1)) {
		luaL_error(L, "bt.finding: evidence must be a table");
	}
	return 0;
}

/* bt.metric(name, number) */
static int l_metric(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	const char *name = luaL_checkstring(L, 1);

	luaL_checktype(L, 2, LUA_TNUMBER);
	if (!*name)
		luaL_error(L, "bt.metric: empty name");
	bt_result_metric(st->res, name, bt_api_value(L, 2));
	return 0;
}

/* bt.table{name=, title=, columns={...}, units={...}, rows={{...}, ...}} */
static int l_table(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	struct bt_rtable *t;
	const char *name, *title = NULL;
	int ncols, c;
	lua_Integer r, nrows;

	luaL_checktype(L, 1, LUA_TTABLE);
	if (lua_getfield(L, 1, "name") != LUA_TSTRING)
		luaL_error(L, "bt.table: name must be a string");
	name = lua_tostring(L, -1);
	if (lua_getfield(L, 1, "title") == LUA_TSTRING)
		title = lua_tostring(L, -1);
	if (lua_getfield(L, 1, "columns") != LUA_TTABLE || (ncols = (int)lua_rawlen(L, -1)) == 0)
		luaL_error(L, "bt.table: columns must be a non-empty list of names");
	if (lua_getfield(L, 1, "units") != LUA_TTABLE && !lua_isnil(L, -1))
		luaL_error(L, "bt.table: units must be a table");
	if (lua_getfield(L, 1, "rows") != LUA_TTABLE)
		luaL_error(L, "bt.table: rows must be a list of rows");
	/* stack: 2 name, 3 title, 4 columns, 5 units, 6 rows */
	for (c = 1; c <= ncols; c++) {
		if (lua_rawgeti(L, 4, c) != LUA_TSTRING)
			luaL_error(L, "bt.table: column %d is not a name", c);
		lua_pop(L, 1);
	}
	t = bt_result_table(st->res, name, title, ncols);
	for (c = 0; c < ncols; c++) {
		lua_rawgeti(L, 4, c + 1);
		t->columns[c] = bt_xstrdup(lua_tostring(L, -1));
		t->units[c] = bt_unit_of(t->columns[c], BT_UNIT_NONE);
		if (lua_istable(L, 5) && lua_getfield(L, 5, t->columns[c]) != LUA_TNIL &&
		    (!lua_isstring(L, -1) || !bt_unit_parse(lua_tostring(L, -1), &t->units[c])))
			luaL_error(L, "bt.table: unit of %s must be one of ns, bytes, pct, count, \"\"",
				   t->columns[c]);
		lua_settop(L, 6);
	}
	nrows = (lua_Integer)lua_rawlen(L, 6);
	for (r = 1; r <= nrows; r++) {
		struct bt_value *row;
		if (lua_rawgeti(L, 6, r) != LUA_TTABLE)
			luaL_error(L, "bt.table: row %d is not a table", (int)r);
		row = bt_rtable_row(t);
		for (c = 0; c < ncols; c++) {
			/* a row is a list in column order or a map by column name */
			if (lua_rawgeti(L, -1, c + 1) == LUA_TNIL) {
				lua_pop(L, 1);
				lua_getfield(L, -1, t->columns[c]);
			}
			row[c] = bt_api_value(L, -1);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	return 0;
}

const struct bt_param *bt_api_find_param(const struct bt_rules_state *st, const char *prefix,
					 const char *name)
{
	size_t pl = prefix ? strlen(prefix) : 0, nl = strlen(name);
	int i;

	for (i = st->nparams - 1; i >= 0; i--) {   /* the last --set of a key wins */
		const struct bt_param *p = &st->params[i];
		if (prefix ? p->keylen == pl + 1 + nl && !strncmp(p->key, prefix, pl) && p->key[pl] == '.' &&
			     !strncmp(p->key + pl + 1, name, nl)
			   : p->keylen == nl && !strncmp(p->key, name, nl))
			return p;
	}
	return NULL;
}

static int parse_bool(const char *s, int *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "1") || !strcmp(s, "yes") || !strcmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "0") || !strcmp(s, "no") || !strcmp(s, "off"))
		*out = 0;
	else
		return 0;
	return 1;
}

void bt_api_param(lua_State *L, struct bt_rules_state *st, const char *name, int def)
{
	const struct bt_param *p = NULL;
	int b = 0;

	def = lua_absindex(L, def);
	if (st->rule)
		p = bt_api_find_param(st, st->rule, name);
	if (!p)
		p = bt_api_find_param(st, NULL, name);
	if (!p) {
		lua_pushvalue(L, def);
		return;
	}
	((struct bt_param *)p)->used = 1;
	switch (lua_type(L, def)) {
	case LUA_TNUMBER:
		if (!lua_stringtonumber(L, p->value)) {
			bt_err_set(st->usage, BT_EUSAGE, "--set %.*s=%s: not a number", (int)p->keylen, p->key,
				   p->value);
			luaL_error(L, "--set %s: not a number", name);
		}
		break;
	case LUA_TBOOLEAN:
		if (!parse_bool(p->value, &b)) {
			bt_err_set(st->usage, BT_EUSAGE, "--set %.*s=%s: not true or false", (int)p->keylen,
				   p->key, p->value);
			luaL_error(L, "--set %s: not a boolean", name);
		}
		lua_pushboolean(L, b);
		break;
	default:
		lua_pushstring(L, p->value);
	}
}

/* bt.param(name [, default]) */
static int l_param(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);

	lua_settop(L, 2);
	bt_api_param(L, state(L), name, 2);
	return 1;
}

void bt_api_open(lua_State *L, struct bt_rules_state *st)
{
	static const luaL_Reg fns[] = {
		{ "finding", l_finding }, { "metric", l_metric }, { "table", l_table }, { "param", l_param },
		{ NULL, NULL }
	};

	lua_newtable(L);
	lua_pushlightuserdata(L, st);
	luaL_setfuncs(L, fns, 1);
	bt_api_sql_open(L, st);
}
