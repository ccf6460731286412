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
#include "engine/db/appcode.h"
#include "lua/api.h"
#include "lua/sandbox.h"
#include "engine/base/jsonw.h"
#include "engine/base/names.h"
#include "engine/base/utf8.h"

static struct bt_rules_state *state(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* The string keys of the table at idx, sorted, so output never depends
 * on hash order. Lua owns everything (a table anchoring the keys and the
 * sorted array, both left on the stack), so an error cannot leak them. */
struct sorted_key {
	const char *s;
	size_t len;
	lua_Integer at;   /* its index in the anchoring table */
};

static int cmp_key(const void *a, const void *b)
{
	const struct sorted_key *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static struct sorted_key *sorted_keys(lua_State *L, int idx, size_t *n)
{
	size_t count = 0, k = 0;
	struct sorted_key *ks;
	int anchor;

	idx = lua_absindex(L, idx);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		count += lua_type(L, -1) == LUA_TSTRING;
	}
	lua_newtable(L);
	anchor = lua_gettop(L);
	ks = lua_newuserdatauv(L, count * sizeof *ks + 1, 0);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING && k < count) {
			lua_pushvalue(L, -1);
			lua_rawseti(L, anchor, (lua_Integer)k + 1);
			ks[k].s = lua_tolstring(L, -1, &ks[k].len);
			ks[k].at = (lua_Integer)k + 1;
			k++;
		}
	}
	if (k)
		qsort(ks, k, sizeof *ks, cmp_key);
	*n = k;
	return ks;
}

/* Push t[key k] for the keys sorted_keys left at anchor (no allocation). */
static void push_field(lua_State *L, int t, int anchor, const struct sorted_key *k)
{
	lua_rawgeti(L, anchor, k->at);
	lua_rawget(L, t);
}

/* JSON text of a table, written where an error cannot leak the stream:
 * inside a protected call. Bounded by the memory account's room. */
struct json {
	struct bt_jsonw w;
	size_t room, used;
};

static void json_room(lua_State *L, struct json *j, size_t n)
{
	j->used += n;
	if (j->used > j->room)
		bt_sandbox_stop(L, BT_SB_MEMORY);
}

static void json_str(lua_State *L, struct json *j, const char *s, size_t len)
{
	struct bt_buf b = BT_BUF_INIT;

	json_room(L, j, len + 2);
	bt_utf8_sanitize(&b, s, len);
	bt_jsonw_str(&j->w, b.buf, b.len);
	bt_buf_release(&b);
}

static void json_value(lua_State *L, int idx, struct json *j, int depth);

/* A table with keys 1..n only is an array, anything else an object. */
static void json_table(lua_State *L, int idx, struct json *j, int depth)
{
	lua_Integer n = (lua_Integer)lua_rawlen(L, idx), i, count = 0;
	struct sorted_key *ks;
	size_t k, nk;
	int anchor;

	if (depth > 16 || !lua_checkstack(L, 6)) {
		bt_jsonw_null(&j->w);
		return;
	}
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		count++;
		lua_pop(L, 1);
	}
	if (count == n && n > 0) {
		bt_jsonw_begin_array(&j->w);
		for (i = 1; i <= n; i++) {
			lua_rawgeti(L, idx, i);
			json_value(L, lua_gettop(L), j, depth + 1);
			lua_pop(L, 1);
		}
		bt_jsonw_end_array(&j->w);
		return;
	}
	ks = sorted_keys(L, idx, &nk);
	anchor = lua_gettop(L) - 1;
	bt_jsonw_begin_object(&j->w);
	for (k = 0; k < nk; k++) {
		json_room(L, j, ks[k].len + 4);
		lua_rawgeti(L, anchor, ks[k].at);
		bt_jsonw_key(&j->w, lua_tostring(L, -1));
		lua_rawget(L, idx);
		json_value(L, lua_gettop(L), j, depth + 1);
		lua_pop(L, 1);
	}
	bt_jsonw_end_object(&j->w);
	lua_pop(L, 2);
}

static void json_value(lua_State *L, int idx, struct json *j, int depth)
{
	size_t len;
	const char *s;

	json_room(L, j, 24);
	switch (lua_type(L, idx)) {
	case LUA_TNUMBER:
		if (lua_isinteger(L, idx))
			bt_jsonw_int(&j->w, lua_tointeger(L, idx));
		else
			bt_jsonw_real(&j->w, lua_tonumber(L, idx));
		break;
	case LUA_TBOOLEAN:
		bt_jsonw_bool(&j->w, lua_toboolean(L, idx));
		break;
	case LUA_TSTRING:
		s = lua_tolstring(L, idx, &len);
		json_str(L, j, s, len);
		break;
	case LUA_TTABLE:
		json_table(L, idx, j, depth);
		break;
	default:
		bt_jsonw_null(&j->w);
	}
}

/* json_value(1: the struct json, 2: the table) under pcall. */
static int json_protected(lua_State *L)
{
	json_value(L, 2, lua_touserdata(L, 1), 0);
	return 0;
}

/* The table at idx as JSON text, charged to the memory account. */
static char *json_of(lua_State *L, int idx, size_t *len)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	struct json j;
	char *json = NULL;
	FILE *fp;
	int status;

	idx = lua_absindex(L, idx);
	if (!(fp = open_memstream(&json, len)))
		luaL_error(L, "out of memory");
	memset(&j, 0, sizeof j);
	j.room = bt_sandbox_room(sb);
	bt_jsonw_init(&j.w, fp, 0);
	lua_pushcfunction(L, json_protected);
	lua_pushlightuserdata(L, &j);
	lua_pushvalue(L, idx);
	status = lua_pcall(L, 2, 0, 0);
	fclose(fp);
	if (status == LUA_OK && !bt_sandbox_charge_fits(sb, *len))
		status = -1;
	if (status != LUA_OK) {
		free(json);
		if (status == -1)
			bt_sandbox_raise(L);
		lua_error(L);
	}
	return json;
}

/* A string as report text: invalid UTF-8 and NULs become U+FFFD (so the
 * text is never cut at a NUL), charged to the memory account. */
static char *text_of(lua_State *L, const char *s, size_t len)
{
	struct bt_sandbox *sb = bt_sandbox_of(L);
	struct bt_buf b = BT_BUF_INIT;

	bt_sandbox_charge(L, len + 1);
	bt_utf8_sanitize(&b, s, len);
	if (b.len > len && !bt_sandbox_charge_fits(sb, b.len - len)) {
		bt_buf_release(&b);
		bt_sandbox_raise(L);
	}
	return bt_buf_detach(&b, NULL);
}

struct bt_value bt_api_value(lua_State *L, int idx)
{
	struct bt_value v;
	size_t len;
	const char *s;

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
	case LUA_TSTRING:
		s = lua_tolstring(L, idx, &len);
		v.u.s = text_of(L, s, len);
		v.type = BT_V_TEXT;
		break;
	case LUA_TTABLE:
		v.u.s = json_of(L, idx, &len);
		v.type = BT_V_JSON;
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

/* bt.finding{message=, severity=, rule=, tid=, ts=, dur=, headline=, evidence={}} */
static int l_finding(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	struct bt_finding *f;
	const char *msg, *rule = st->rule;
	char *text;
	int sev = (int)st->severity;
	size_t len;

	luaL_checktype(L, 1, LUA_TTABLE);
	if (lua_getfield(L, 1, "message") != LUA_TSTRING)
		luaL_error(L, "bt.finding: message must be a string");
	msg = lua_tolstring(L, -1, &len);
	if (lua_getfield(L, 1, "severity") != LUA_TNIL &&
	    (!lua_isstring(L, -1) || (sev = bt_severity_parse(lua_tostring(L, -1))) < 0))
		luaL_error(L, "bt.finding: severity must be info, warning or error");
	if (lua_getfield(L, 1, "rule") != LUA_TNIL)
		rule = luaL_checkstring(L, -1);
	bt_sandbox_charge(L, 128 + strlen(rule));
	text = text_of(L, msg, len);
	f = bt_result_finding(st->res, rule, (enum bt_severity)sev, text);
	free(text);
	f->has_tid = opt_int_field(L, 1, "tid", &f->tid);
	f->has_ts = opt_int_field(L, 1, "ts", &f->ts);
	f->has_dur = opt_int_field(L, 1, "dur", &f->dur);
	lua_getfield(L, 1, "headline");
	f->headline = lua_toboolean(L, -1);
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "evidence") == LUA_TTABLE) {
		int ev = lua_gettop(L), anchor = ev + 1;
		size_t k, nk;
		struct sorted_key *ks = sorted_keys(L, ev, &nk);
		for (k = 0; k < nk; k++) {
			bt_sandbox_charge(L, 48 + ks[k].len);
			push_field(L, ev, anchor, &ks[k]);
			if (memchr(ks[k].s, '\0', ks[k].len)) {   /* kept whole, the NUL as U+FFFD */
				char *key = text_of(L, ks[k].s, ks[k].len);
				bt_finding_evidence(f, key, bt_api_value(L, -1));
				free(key);
			} else {
				bt_finding_evidence(f, ks[k].s, bt_api_value(L, -1));
			}
			lua_pop(L, 1);
		}
		lua_pop(L, 2);
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
	bt_sandbox_charge(L, 64 + strlen(name));
	bt_result_metric(st->res, name, bt_api_value(L, 2));
	return 0;
}

/* bt.table{name=, title=, columns={...}, units={...}, spare={...}, rows={{...}, ...}} */
static int l_table(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	struct bt_rtable *t;
	const char *name, *title = NULL;
	int ncols = 0, c;   /* luaL_error does not return, but clang cannot tell */
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
	if (lua_getfield(L, 1, "spare") != LUA_TTABLE && !lua_isnil(L, -1))
		luaL_error(L, "bt.table: spare must be a list of column names");
	lua_insert(L, 6);
	/* stack: 2 name, 3 title, 4 columns, 5 units, 6 spare, 7 rows */
	for (c = 1; c <= ncols; c++) {
		if (lua_rawgeti(L, 4, c) != LUA_TSTRING)
			luaL_error(L, "bt.table: column %d is not a name", c);
		lua_pop(L, 1);
	}
	bt_sandbox_charge(L, 128 + strlen(name) + (title ? strlen(title) : 0) + 48 * (size_t)ncols);
	t = bt_result_table(st->res, name, title, ncols);
	for (c = 0; c < ncols; c++) {
		lua_rawgeti(L, 4, c + 1);
		t->columns[c] = bt_xstrdup(lua_tostring(L, -1));
		t->units[c] = bt_unit_of(t->columns[c], BT_UNIT_NONE);
		if (lua_istable(L, 5) && lua_getfield(L, 5, t->columns[c]) != LUA_TNIL &&
		    (!lua_isstring(L, -1) || !bt_unit_parse(lua_tostring(L, -1), &t->units[c])))
			luaL_error(L, "bt.table: unit of %s must be one of ns, bytes, pct, count, \"\"",
				   t->columns[c]);
		lua_settop(L, 7);
	}
	for (r = 1; lua_istable(L, 6) && r <= (lua_Integer)lua_rawlen(L, 6); r++) {
		const char *col = lua_rawgeti(L, 6, r) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		for (c = 0; col && c < ncols && strcmp(t->columns[c], col); c++)
			;
		if (!col || c == ncols)
			luaL_error(L, "bt.table: spare %d is not one of the columns", (int)r);
		t->spare[c] = 1;
		lua_pop(L, 1);
	}
	nrows = (lua_Integer)lua_rawlen(L, 7);
	for (r = 1; r <= nrows; r++) {
		struct bt_value *row;
		if (lua_rawgeti(L, 7, r) != LUA_TTABLE)
			luaL_error(L, "bt.table: row %d is not a table", (int)r);
		bt_sandbox_charge(L, sizeof *row * (size_t)ncols);
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

size_t bt_names_add(struct bt_names *s, const char *prefix, const char *name)
{
	size_t pl = prefix ? strlen(prefix) + 1 : 0, len = pl + strlen(name);
	char *k = bt_xmalloc(len + 1);

	if (prefix)
		sprintf(k, "%s.", prefix);
	strcpy(k + pl, name);
	if (!s->seen.slots)
		bt_strmap_init(&s->seen);
	if (bt_strmap_get(&s->seen, k, len)) {
		free(k);
		return 0;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = bt_xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = k;
	bt_strmap_put(&s->seen, k, len, 1);
	return 2 * (len + 1) + 2 * sizeof(struct bt_strmap_slot) + sizeof(char *);
}

void bt_names_release(struct bt_names *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	if (s->seen.slots)
		bt_strmap_release(&s->seen);
	memset(s, 0, sizeof *s);
}

void bt_api_param(lua_State *L, struct bt_rules_state *st, const char *name, int def)
{
	const struct bt_param *p = NULL;
	int b = 0;

	def = lua_absindex(L, def);
	if (st->keys) {   /* kept for the run: the file's memory and work */
		size_t held = 0;
		bt_sandbox_work(L, (long long)(strlen(name) / 16 + 1));
		if (st->rule)
			held += bt_names_add(st->keys, st->rule, name);
		held += bt_names_add(st->keys, NULL, name);
		bt_sandbox_charge(L, held);
	}
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

/* bt.short(name): the method name as the reports show it. */
static int l_short(lua_State *L)
{
	struct bt_rules_state *st = state(L);
	size_t len;
	const char *name = lua_isnoneornil(L, 1) ? "?" : luaL_checklstring(L, 1, &len);
	const char *shown = bt_namer_get(st->names, name);
	struct bt_buf b = BT_BUF_INIT;

	if (st->full_names || shown != name) {   /* a name in scope has its own copy */
		lua_pushstring(L, shown);
		return 1;
	}
	bt_name_short(name, strlen(name), 0, &b);
	lua_pushlstring(L, b.buf, b.len);
	bt_buf_release(&b);
	return 1;
}

/* bt.is_app(name, [package]): the frame is the app's code, not the
 * platform's (engine/db/appcode.h; SQL's bt_app_node walks a stack by it). */
static int l_is_app(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const char *package = luaL_optstring(L, 2, NULL);

	lua_pushboolean(L, bt_frame_in_package(name, package));
	return 1;
}

void bt_api_open(lua_State *L, struct bt_rules_state *st)
{
	static const luaL_Reg fns[] = {
		{ "finding", l_finding }, { "metric", l_metric }, { "table", l_table }, { "param", l_param },
		{ "short", l_short }, { "is_app", l_is_app },
		{ NULL, NULL }
	};

	lua_newtable(L);
	lua_pushlightuserdata(L, st);
	luaL_setfuncs(L, fns, 1);
	bt_api_sql_open(L, st);
}
