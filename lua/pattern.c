/*
 * string.find, match, gmatch and gsub for the sandbox: Lua 5.4's patterns
 * and results, but a matcher that charges its steps to the file's time
 * budget. Lua's own matcher runs in C, where the count hook never fires,
 * so a backtracking pattern (".-.-.-.-b" on a long subject) ran for hours.
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include <lauxlib.h>

#include "lua/sandbox.h"

#define ESC '%'
#define SPECIALS "^$*+?.([%-"
#define MAXDEPTH 200          /* as Lua's MAXCCALLS: nested items per match */
#define MAXCAPTURES 32        /* as Lua's LUA_MAXCAPTURES */
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define CHARGE_EVERY 4096     /* steps between charges to the budget */

struct ms {
	const char *src, *src_end, *p_end;
	lua_State *L;
	int depth, level;
	long long steps;
	struct { const char *init; ptrdiff_t len; } cap[MAXCAPTURES];
};

static void tick(struct ms *ms, long long n)
{
	ms->steps += n;
	if (ms->steps >= CHARGE_EVERY) {
		bt_sandbox_work(ms->L, ms->steps);
		ms->steps = 0;
	}
}

static void flush(struct ms *ms)
{
	bt_sandbox_work(ms->L, ms->steps);
	ms->steps = 0;
}

static const char *match(struct ms *ms, const char *s, const char *p);

static int check_capture(struct ms *ms, int l)
{
	l -= '1';
	if (l < 0 || l >= ms->level || ms->cap[l].len == CAP_UNFINISHED)
		return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
	return l;
}

static int capture_to_close(struct ms *ms)
{
	int level = ms->level;

	for (level--; level >= 0; level--)
		if (ms->cap[level].len == CAP_UNFINISHED)
			return level;
	return luaL_error(ms->L, "invalid pattern capture");
}

/* The end of the single-character class at p. */
static const char *class_end(struct ms *ms, const char *p)
{
	char c = *p++;

	if (c == ESC) {
		if (p == ms->p_end)
			luaL_error(ms->L, "malformed pattern (ends with '%%')");
		return p + 1;
	}
	if (c == '[') {
		if (*p == '^')
			p++;
		do {   /* the first character is a member even if it is ']' */
			if (p == ms->p_end)
				luaL_error(ms->L, "malformed pattern (missing ']')");
			if (*(p++) == ESC && p < ms->p_end)
				p++;
		} while (*p != ']');
		return p + 1;
	}
	return p;
}

static int match_class(int c, int cl)
{
	int res;

	switch (tolower(cl)) {
	case 'a': res = isalpha(c); break;
	case 'c': res = iscntrl(c); break;
	case 'd': res = isdigit(c); break;
	case 'g': res = isgraph(c); break;
	case 'l': res = islower(c); break;
	case 'p': res = ispunct(c); break;
	case 's': res = isspace(c); break;
	case 'u': res = isupper(c); break;
	case 'w': res = isalnum(c); break;
	case 'x': res = isxdigit(c); break;
	default: return cl == c;
	}
	if (isupper(cl))
		res = !res;
	return res != 0;
}

/* p at '[', ec at its ']'. */
static int match_set(int c, const char *p, const char *ec)
{
	int sig = 1;

	if (p[1] == '^') {
		sig = 0;
		p++;
	}
	while (++p < ec) {
		if (*p == ESC) {
			p++;
			if (match_class(c, (unsigned char)*p))
				return sig;
		} else if (p[1] == '-' && p + 2 < ec) {
			p += 2;
			if ((unsigned char)p[-2] <= c && c <= (unsigned char)*p)
				return sig;
		} else if ((unsigned char)*p == c) {
			return sig;
		}
	}
	return !sig;
}

static int single(struct ms *ms, const char *s, const char *p, const char *ep)
{
	int c;

	if (s >= ms->src_end)
		return 0;
	c = (unsigned char)*s;
	switch (*p) {
	case '.': return 1;
	case ESC: return match_class(c, (unsigned char)p[1]);
	case '[': return match_set(c, p, ep - 1);
	default: return (unsigned char)*p == c;
	}
}

static const char *match_balance(struct ms *ms, const char *s, const char *p)
{
	int open = 1;

	if (p >= ms->p_end - 1)
		luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
	if (s >= ms->src_end || *s != *p)
		return NULL;
	while (++s < ms->src_end) {
		tick(ms, 1);
		if (*s == p[1]) {
			if (--open == 0)
				return s + 1;
		} else if (*s == *p) {
			open++;
		}
	}
	return NULL;
}

static const char *max_expand(struct ms *ms, const char *s, const char *p, const char *ep)
{
	ptrdiff_t i = 0;
	const char *res;

	while (single(ms, s + i, p, ep)) {
		tick(ms, 1);
		i++;
	}
	for (; i >= 0; i--)
		if ((res = match(ms, s + i, ep + 1)))
			return res;
	return NULL;
}

static const char *min_expand(struct ms *ms, const char *s, const char *p, const char *ep)
{
	const char *res;

	for (;;) {
		if ((res = match(ms, s, ep + 1)))
			return res;
		if (!single(ms, s, p, ep))
			return NULL;
		s++;
	}
}

static const char *start_capture(struct ms *ms, const char *s, const char *p, ptrdiff_t what)
{
	const char *res;

	if (ms->level >= MAXCAPTURES)
		luaL_error(ms->L, "too many captures");
	ms->cap[ms->level].init = s;
	ms->cap[ms->level].len = what;
	ms->level++;
	if (!(res = match(ms, s, p)))
		ms->level--;
	return res;
}

static const char *end_capture(struct ms *ms, const char *s, const char *p)
{
	int l = capture_to_close(ms);
	const char *res;

	ms->cap[l].len = s - ms->cap[l].init;
	if (!(res = match(ms, s, p)))
		ms->cap[l].len = CAP_UNFINISHED;
	return res;
}

static const char *match_capture(struct ms *ms, const char *s, int l)
{
	size_t len;

	l = check_capture(ms, l);
	len = (size_t)ms->cap[l].len;
	if ((size_t)(ms->src_end - s) >= len && !memcmp(ms->cap[l].init, s, len))
		return s + len;
	return NULL;
}

/* %f[set]: p after "%f". */
static const char *frontier(struct ms *ms, const char *s, const char **p)
{
	const char *ep, *q = *p;
	int prev;

	if (*q != '[')
		luaL_error(ms->L, "missing '[' after '%%f' in pattern");
	ep = class_end(ms, q);
	prev = s == ms->src ? '\0' : (unsigned char)s[-1];
	if (!match_set(prev, q, ep - 1) && match_set(s < ms->src_end ? (unsigned char)*s : '\0', q, ep - 1)) {
		*p = ep;
		return s;
	}
	return NULL;
}

/* An item with its quantifier (or none) at p, ep its end. */
static const char *match_item(struct ms *ms, const char *s, const char **pp, int *more)
{
	const char *p = *pp, *ep = class_end(ms, p), *res;

	*more = 0;
	if (!single(ms, s, p, ep)) {
		if (*ep == '*' || *ep == '?' || *ep == '-') {
			*pp = ep + 1;
			*more = 1;
			return s;
		}
		return NULL;
	}
	switch (*ep) {
	case '?':
		if ((res = match(ms, s + 1, ep + 1)))
			return res;
		*pp = ep + 1;
		*more = 1;
		return s;
	case '+': return max_expand(ms, s + 1, p, ep);
	case '*': return max_expand(ms, s, p, ep);
	case '-': return min_expand(ms, s, p, ep);
	default:
		*pp = ep;
		*more = 1;
		return s + 1;
	}
}

static const char *match(struct ms *ms, const char *s, const char *p)
{
	int more = 1;

	if (ms->depth-- == 0)
		luaL_error(ms->L, "pattern too complex");
	while (more && s && p != ms->p_end) {
		tick(ms, 1);
		more = 0;
		switch (*p) {
		case '(':
			if (p[1] == ')')
				s = start_capture(ms, s, p + 2, CAP_POSITION);
			else
				s = start_capture(ms, s, p + 1, CAP_UNFINISHED);
			break;
		case ')':
			s = end_capture(ms, s, p + 1);
			break;
		case '$':
			if (p + 1 == ms->p_end) {
				s = s == ms->src_end ? s : NULL;
				break;
			}
			s = match_item(ms, s, &p, &more);
			break;
		case ESC:
			if (p[1] == 'b') {
				if ((s = match_balance(ms, s, p + 2)))
					p += 4, more = 1;
			} else if (p[1] == 'f') {
				p += 2;
				s = frontier(ms, s, &p);
				more = s != NULL;
			} else if (isdigit((unsigned char)p[1])) {
				if ((s = match_capture(ms, s, (unsigned char)p[1])))
					p += 2, more = 1;
			} else {
				s = match_item(ms, s, &p, &more);
			}
			break;
		default:
			s = match_item(ms, s, &p, &more);
		}
	}
	ms->depth++;
	return s;
}

static void prep(struct ms *ms, lua_State *L, const char *s, size_t ls, const char *p, size_t lp)
{
	ms->L = L;
	ms->src = s;
	ms->src_end = s + ls;
	ms->p_end = p + lp;
	ms->steps = 0;
}

static void reprep(struct ms *ms)
{
	ms->level = 0;
	ms->depth = MAXDEPTH;
}

/* Capture i (0: the whole match when there are none); its length, or
 * CAP_POSITION with the position pushed. */
static ptrdiff_t get_capture(struct ms *ms, int i, const char *s, const char *e, const char **cap)
{
	ptrdiff_t len;

	if (i >= ms->level) {
		if (i != 0)
			luaL_error(ms->L, "invalid capture index %%%d", i + 1);
		*cap = s;
		return e - s;
	}
	len = ms->cap[i].len;
	*cap = ms->cap[i].init;
	if (len == CAP_UNFINISHED)
		luaL_error(ms->L, "unfinished capture");
	else if (len == CAP_POSITION)
		lua_pushinteger(ms->L, (ms->cap[i].init - ms->src) + 1);
	return len;
}

static void push_capture(struct ms *ms, int i, const char *s, const char *e)
{
	const char *cap;
	ptrdiff_t len = get_capture(ms, i, s, e, &cap);

	if (len != CAP_POSITION)
		lua_pushlstring(ms->L, cap, (size_t)len);
}

static int push_captures(struct ms *ms, const char *s, const char *e)
{
	int i, n = ms->level == 0 && s ? 1 : ms->level;

	luaL_checkstack(ms->L, n, "too many captures");
	for (i = 0; i < n; i++)
		push_capture(ms, i, s, e);
	return n;
}

/* A relative start position as a 1-based offset that may be len + 1. */
static size_t start_of(lua_Integer pos, size_t len)
{
	if (pos > 0)
		return (size_t)pos;
	if (pos == 0 || pos < -(lua_Integer)len)
		return 1;
	return len + (size_t)pos + 1;
}

static int no_specials(const char *p, size_t l)
{
	size_t upto = 0;

	do {   /* the pattern may hold NULs: look at each piece */
		if (strpbrk(p + upto, SPECIALS))
			return 0;
		upto += strlen(p + upto) + 1;
	} while (upto <= l);
	return 1;
}

/* A plain search, charged by the bytes compared. */
static const char *find_plain(struct ms *ms, const char *s, size_t ls, const char *p, size_t lp)
{
	const char *end, *at;

	if (lp == 0)
		return s;
	if (lp > ls)
		return NULL;
	end = s + (ls - lp) + 1;
	while (s < end && (at = memchr(s, *p, (size_t)(end - s)))) {
		tick(ms, (long long)(at - s) / 64 + (long long)lp);
		if (!memcmp(at + 1, p + 1, lp - 1))
			return at;
		s = at + 1;
	}
	if (s < end)   /* the scan that found no first byte */
		tick(ms, (long long)(end - s) / 64);
	return NULL;
}

static int find_aux(lua_State *L, int find)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(L, 1, &ls), *p = luaL_checklstring(L, 2, &lp), *s1, *res;
	size_t init = start_of(luaL_optinteger(L, 3, 1), ls) - 1;
	struct ms ms;
	int anchor, n;

	if (init > ls) {
		luaL_pushfail(L);
		return 1;
	}
	prep(&ms, L, s, ls, p, lp);
	tick(&ms, (long long)lp / 16);   /* no_specials reads the whole pattern */
	if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
		res = find_plain(&ms, s + init, ls - init, p, lp);
		flush(&ms);
		if (!res) {
			luaL_pushfail(L);
			return 1;
		}
		lua_pushinteger(L, (res - s) + 1);
		lua_pushinteger(L, (lua_Integer)((size_t)(res - s) + lp));
		return 2;
	}
	if ((anchor = *p == '^'))
		prep(&ms, L, s, ls, ++p, --lp);
	s1 = s + init;
	do {
		reprep(&ms);
		tick(&ms, 1);
		if ((res = match(&ms, s1, p))) {
			flush(&ms);
			if (!find)
				return push_captures(&ms, s1, res);
			lua_pushinteger(L, (s1 - s) + 1);
			lua_pushinteger(L, res - s);
			n = push_captures(&ms, NULL, NULL);
			return n + 2;
		}
	} while (s1++ < ms.src_end && !anchor);
	flush(&ms);
	luaL_pushfail(L);
	return 1;
}

static int l_find(lua_State *L)
{
	return find_aux(L, 1);
}

static int l_match(lua_State *L)
{
	return find_aux(L, 0);
}

struct gm {
	const char *src, *p, *last;
	struct ms ms;
};

static int gmatch_next(lua_State *L)
{
	struct gm *gm = lua_touserdata(L, lua_upvalueindex(3));
	const char *src, *e;

	gm->ms.L = L;
	for (src = gm->src; src <= gm->ms.src_end; src++) {
		reprep(&gm->ms);
		tick(&gm->ms, 1);
		if ((e = match(&gm->ms, src, gm->p)) && e != gm->last) {
			gm->src = gm->last = e;
			flush(&gm->ms);
			return push_captures(&gm->ms, src, e);
		}
	}
	flush(&gm->ms);
	return 0;
}

static int l_gmatch(lua_State *L)
{
	size_t ls, lp;
	const char *s = luaL_checklstring(L, 1, &ls), *p = luaL_checklstring(L, 2, &lp);
	size_t init = start_of(luaL_optinteger(L, 3, 1), ls) - 1;
	struct gm *gm;

	lua_settop(L, 2);   /* the closure keeps both strings alive */
	gm = lua_newuserdatauv(L, sizeof *gm, 0);
	if (init > ls)
		init = ls + 1;
	prep(&gm->ms, L, s, ls, p, lp);
	gm->src = s + init;
	gm->p = p;
	gm->last = NULL;
	lua_pushcclosure(L, gmatch_next, 3);
	return 1;
}

/* The replacement string (argument 3) with %0-%9 and %%. */
static void add_string(struct ms *ms, luaL_Buffer *b, const char *s, const char *e)
{
	size_t l;
	const char *news = lua_tolstring(ms->L, 3, &l), *p, *cap;
	ptrdiff_t len;

	while ((p = memchr(news, ESC, l))) {
		luaL_addlstring(b, news, (size_t)(p - news));
		p++;
		if (*p == ESC) {
			luaL_addchar(b, *p);
		} else if (*p == '0') {
			luaL_addlstring(b, s, (size_t)(e - s));
		} else if (isdigit((unsigned char)*p)) {
			len = get_capture(ms, *p - '1', s, e, &cap);
			if (len == CAP_POSITION)
				luaL_addvalue(b);
			else
				luaL_addlstring(b, cap, (size_t)len);
		} else {
			luaL_error(ms->L, "invalid use of '%c' in replacement string", ESC);
		}
		l -= (size_t)(p + 1 - news);
		news = p + 1;
	}
	luaL_addlstring(b, news, l);
}

/* 1 if the match was replaced, 0 if kept (a false or nil value). */
static int add_value(struct ms *ms, luaL_Buffer *b, const char *s, const char *e, int tr)
{
	lua_State *L = ms->L;

	if (tr == LUA_TFUNCTION) {
		int n;
		lua_pushvalue(L, 3);
		n = push_captures(ms, s, e);
		flush(ms);
		lua_call(L, n, 1);
	} else if (tr == LUA_TTABLE) {
		push_capture(ms, 0, s, e);
		lua_gettable(L, 3);
	} else {
		add_string(ms, b, s, e);
		return 1;
	}
	if (!lua_toboolean(L, -1)) {
		lua_pop(L, 1);
		luaL_addlstring(b, s, (size_t)(e - s));
		return 0;
	}
	if (!lua_isstring(L, -1))
		return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
	luaL_addvalue(b);
	return 1;
}

static int l_gsub(lua_State *L)
{
	size_t ls, lp;
	const char *src = luaL_checklstring(L, 1, &ls), *p = luaL_checklstring(L, 2, &lp), *last = NULL, *e;
	int tr = lua_type(L, 3), anchor = *p == '^', changed = 0;
	lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1), n = 0;
	struct ms ms;
	luaL_Buffer b;

	luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE,
			 3, "string/function/table");
	luaL_buffinit(L, &b);
	if (anchor)
		p++, lp--;
	prep(&ms, L, src, ls, p, lp);
	while (n < max) {
		reprep(&ms);
		tick(&ms, 1);
		if ((e = match(&ms, src, p)) && e != last) {
			n++;
			changed |= add_value(&ms, &b, src, e, tr);
			src = last = e;
		} else if (src < ms.src_end) {
			luaL_addchar(&b, *src++);
		} else {
			break;
		}
		if (anchor)
			break;
	}
	flush(&ms);
	if (!changed) {
		lua_pushvalue(L, 1);
	} else {
		luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
		luaL_pushresult(&b);
	}
	lua_pushinteger(L, n);
	return 2;
}

void bt_pattern_open(lua_State *L)
{
	static const luaL_Reg fns[] = {
		{ "find", l_find }, { "match", l_match }, { "gmatch", l_gmatch }, { "gsub", l_gsub },
		{ NULL, NULL }
	};

	luaL_setfuncs(L, fns, 0);
}
