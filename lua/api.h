/*
 * The bt table a rule sees (C half; lua/bt.lua adds the Lua half), and
 * the state the driver (rules.c) shares with it.
 */
#ifndef BT_API_H
#define BT_API_H

#include <lua.h>

#include "engine/base/hash.h"

#include "engine/db/db.h"
#include "engine/db/rows.h"
#include "engine/base/result.h"

/* A --set key=value. */
struct bt_param {
	const char *key;    /* borrowed from argv */
	size_t keylen;
	const char *value;
	int used;
};

/* Names a run asked for, for "did you mean" on a --set that matched none. */
struct bt_names {
	char **v;
	size_t n, cap;
	struct bt_strmap seen;   /* the names in v (a rule may ask for 40k of them) */
};

/* Add prefix.name (prefix NULL: name), once: the bytes it now holds for
 * it (0: it was there). bt_names_release frees all. */
size_t bt_names_add(struct bt_names *s, const char *prefix, const char *name);
void bt_names_release(struct bt_names *s);

struct bt_rules_state {
	struct bt_db *db;
	struct bt_result *res;
	struct bt_param *params;
	int nparams;
	const char *file;            /* the rule file running */
	const char *rule;            /* the rule running, or the file's stem */
	enum bt_severity severity;   /* the running rule's default */
	struct bt_err *usage;        /* a bad --set value is a usage error */
	struct bt_names *keys;       /* the parameter keys the run's rules read */
	struct bt_names *ids;        /* the rule ids it ran */
	struct bt_rows_budget sql;   /* the file's limits on its cursors (api_sql.c) */
	int sql_open;                /* its cursors open now */
	int64_t sql_base;            /* what SQLite held when the first of them opened */
	const struct bt_namer *names;   /* bt.short's names; NULL: each name at level 0 */
	int full_names;              /* bt.short gives names as they are */
};

/* Push the bt table with the C functions, bound to st. */
void bt_api_open(lua_State *L, struct bt_rules_state *st);

/* The --set for prefix.name (prefix NULL: name alone), or NULL. */
const struct bt_param *bt_api_find_param(const struct bt_rules_state *st, const char *prefix,
					 const char *name);

/* Resolve parameter name for the running rule: --set RULE.name, then
 * --set name, converted to the type of the default at index def (nil:
 * text). Pushes the value, or the default. Errors on a bad value. */
void bt_api_param(lua_State *L, struct bt_rules_state *st, const char *name, int def);

/* Lua value at idx as a report value: numbers, strings, booleans;
 * tables as JSON text; anything else NULL. */
struct bt_value bt_api_value(lua_State *L, int idx);

/* SQL functions (api_sql.c): query, rows, scalar. */
void bt_api_sql_open(lua_State *L, struct bt_rules_state *st);

#endif
