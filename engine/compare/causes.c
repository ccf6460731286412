/*
 * What a gated move is made of (compare.h): each regressed or improved
 * metric lists the measures of its own scope whose medians moved the same
 * way, largest first, and the headline names the most important regressed
 * metric with its top cause. Scopes follow lua/gate.lua's names: startup
 * time is made of app methods' CPU and blocking by kind, blocking of a kind
 * of its holders' share, per-message time of per-message method time,
 * the janky-frame rate and the frame times of the methods' and blocking's
 * time per (janky) frame (lua/frames.lua); the whole-trace totals of the
 * built-in report of method.* metrics.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/compare/compare_int.h"

#define MAX_CAUSES 5

/* A metric (a whole name, or a prefix ending in '.') and where its causes
 * are: names with a prefix and a suffix, the part between them the method,
 * kind or holder; "%s" in a prefix is the metric's own kind. apart: the
 * causes are no parts of the metric (times per frame behind a rate or a
 * percentile), so no share of its change is told and the cause that
 * leads is the one that moved furthest against its runs' spread. */
static const struct scope {
	const char *metric;
	const char *cause[3][2];
	int apart;
} scopes[] = {
	{ "startup.ttid_ns", { { "startup.main.method.", ".incl_ns" }, { "startup.main.method.", ".self_ns" },
			       { "startup.main.blocked_ns.", "" } }, 0 },
	{ "startup.main.cpu_ns", { { "startup.main.method.", ".incl_ns" },
				   { "startup.main.method.", ".self_cpu_ns" } }, 0 },
	{ "startup.main.blocked_ns.", { { "startup.main.wait.%s.by.", ".ns" } }, 0 },
	{ "thread.main.wait.", { { "thread.main.wait.%s.by.", ".ns" } }, 0 },
	{ "thread.main.per_s.blocked_ns.", { { "thread.main.wait.%s.by.", ".ns" } }, 0 },
	{ "frames.janky_pct", { { "frames.janky.method.", ".self_ns" }, { "frames.janky.blocked_ns.", "" } }, 1 },
	{ "frames.p99_ns", { { "frames.janky.method.", ".self_ns" }, { "frames.janky.blocked_ns.", "" } }, 1 },
	{ "frames.p90_ns", { { "frames.method.", ".self_ns" }, { "frames.blocked_ns.", "" } }, 1 },
	{ "frames.p50_ns", { { "frames.method.", ".self_ns" }, { "frames.blocked_ns.", "" } }, 1 },
	{ "frames.blocked_ns.", { { "frames.wait.%s.by.", ".ns" } }, 0 },
	{ "frames.janky.blocked_ns.", { { "frames.janky.wait.%s.by.", ".ns" } }, 0 },
	{ BT_CMP_MSGS "wall_ns", { { BT_CMP_MSGS "method.", ".self_ns" } }, 0 },
	{ BT_CMP_MSGS "cpu_ns", { { BT_CMP_MSGS "method.", ".self_cpu_ns" } }, 0 },
	{ "process.cpu_ns", { { "method.", ".self_cpu_ns" } }, 0 },
	{ "process.wall_ns", { { "method.", ".self_ns" } }, 0 },
	{ "process.offcpu_ns", { { "method.", ".self_offcpu_ns" } }, 0 },
	{ "process.alloc_bytes", { { "method.", ".self_alloc_bytes" } }, 0 },
	{ "process.majflt", { { "method.", ".self_majflt" } }, 0 },
	{ "thread.main.cpu_ns", { { "method.", ".self_cpu_ns" } }, 0 },
	{ "thread.main.wall_ns", { { "method.", ".self_ns" } }, 0 },
};

void bt_cmp_short(const char *name, size_t len, struct bt_buf *b)
{
	const char *paren = memchr(name, '(', len), *start, *p;
	int dots = 0;

	if (!paren) {
		bt_buf_add(b, name, len);
		return;
	}
	for (p = start = paren; p > name; p--) {   /* back over "Class.method" */
		char ch = p[-1];
		if (ch == ' ')
			break;
		if (ch == '.' && ++dots == 2)
			break;
		start = p - 1;
	}
	bt_buf_add(b, start, (size_t)(paren - start));
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

static const char *const method_field[][2] = {
	{ ".self_cpu_ns", " self CPU" }, { ".self_ns", " self wall" }, { ".incl_ns", " inclusive" },
	{ ".self_offcpu_ns", " self off-CPU" }, { ".self_alloc_bytes", " self alloc" },
	{ ".self_majflt", " self major faults" },
};

/* The method of "...method.SYM.FIELD" (its length in *len) and FIELD's
 * index in method_field; NULL if name is no method's. */
static const char *method_sym(const char *name, size_t *len, size_t *field)
{
	const char *sym = !strncmp(name, "method.", 7) ? name + 7 : strstr(name, ".method.");
	size_t i, n;

	if (!sym)
		return NULL;
	if (sym != name + 7)
		sym += 8;
	n = strlen(sym);
	for (i = 0; i < sizeof method_field / sizeof method_field[0]; i++)
		if (ends_with(sym, n, method_field[i][0])) {
			*len = n - strlen(method_field[i][0]);
			*field = i;
			return sym;
		}
	return NULL;
}

/* "startup.main.method.SYM.self_cpu_ns" -> "SYM-short self CPU"; 0 if no method. */
static int method_words(const char *name, struct bt_buf *b)
{
	size_t n, f;
	const char *sym = method_sym(name, &n, &f);

	if (!sym)
		return 0;
	bt_cmp_short(sym, n, b);
	bt_buf_adds(b, method_field[f][1]);
	return 1;
}

char *bt_cmp_label(const char *name)
{
	static const struct { const char *name, *label; } fixed[] = {
		{ "startup.ttid_ns", "startup time to initial display" },
		{ "startup.main.cpu_ns", "startup main-thread CPU" },
		{ "startup.process.cpu_ns", "startup CPU (every thread)" },
		{ "startup.process.offcpu_ns", "startup off-CPU (every thread)" },
		{ BT_CMP_MSGS "wall_ns", "main-thread time in messages" },
		{ BT_CMP_MSGS "cpu_ns", "main-thread CPU in messages" },
		{ BT_CMP_MSGS "alloc_bytes", "main-thread allocations in messages" },
		{ BT_CMP_MSGS "count", "main-thread messages" },
		{ "frames.janky_pct", "janky-frame rate" },
		{ "frames.p50_ns", "frame time p50" },
		{ "frames.p90_ns", "frame time p90" },
		{ "frames.p99_ns", "frame time p99" },
		{ "frames.count", "frames" },
		{ "frames.janky", "janky frames" },
		{ "frames.missed_vsyncs", "vsyncs missed" },
		{ "frames.period_ns", "display refresh period" },
	};
	struct bt_buf b = BT_BUF_INIT;
	const char *k;
	size_t i;

	for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (!strcmp(name, fixed[i].name))
			return bt_xstrdup(fixed[i].label);
	if (!strncmp(name, "startup.phase.", 14) && (k = strstr(name, ".dur_ns")) && !k[7]) {
		bt_buf_addf(&b, "startup phase %.*s", (int)(k - name - 14), name + 14);
	} else if (!strncmp(name, "startup.main.blocked_ns.", 24)) {
		bt_buf_addf(&b, "startup main-thread %s blocking", name + 24);
	} else if (!strncmp(name, "thread.main.per_s.blocked_ns.", 29)) {
		bt_buf_addf(&b, "main-thread %s blocking per second", name + 29);
	} else if (!strncmp(name, "thread.main.wait.", 17) && (k = strstr(name, ".mean_ns")) && !k[8]) {
		bt_buf_addf(&b, "main-thread %.*s wait (mean)", (int)(k - name - 17), name + 17);
	} else if (!strncmp(name, "caller.", 7) && (k = strstr(name, ".from.")) && ends_with(name, strlen(name), ".ns")) {
		bt_cmp_short(name + 7, (size_t)(k - name - 7), &b);   /* a library method's top caller */
		bt_buf_adds(&b, " called from ");
		bt_cmp_short(k + 6, strlen(k + 6) - 3, &b);
	} else if (!strncmp(name, "frames.blocked_ns.", 18)) {
		bt_buf_addf(&b, "%s blocking per frame", name + 18);
	} else if (!strncmp(name, "frames.janky.blocked_ns.", 24)) {
		bt_buf_addf(&b, "%s blocking per janky frame", name + 24);
	} else if (!strncmp(name, "frames.janky.method.", 20) && method_words(name, &b)) {
		bt_buf_adds(&b, " per janky frame");
	} else if (!strncmp(name, "frames.method.", 14) && method_words(name, &b)) {
		bt_buf_adds(&b, " per frame");
	} else if (!strncmp(name, "startup.main.method.", 20) && method_words(name, &b)) {
		bt_buf_adds(&b, " in startup");
	} else if (!strncmp(name, BT_CMP_MSGS "method.", strlen(BT_CMP_MSGS "method.")) &&
		   method_words(name, &b)) {
		bt_buf_adds(&b, " in messages");
	} else if (!method_words(name, &b)) {
		bt_buf_adds(&b, name);
	}
	return bt_buf_detach(&b, NULL);
}

/* The cause's label from the part of its name between prefix and suffix. */
static char *cause_label(const char *name, const char *mid, size_t len)
{
	struct bt_buf b = BT_BUF_INIT;
	const char *by = strstr(name, ".by.");

	if (by) {
		bt_buf_adds(&b, "held by ");
		if (len == 9 && !memcmp(mid, "(unknown)", 9))   /* gate.lua's holder of a wait no record ended */
			bt_buf_adds(&b, "an unknown thread");
		else
			bt_cmp_short(mid, len, &b);
	} else if (!method_words(name, &b)) {
		bt_buf_addf(&b, "%.*s blocking", (int)len, mid);
	}
	if (!by && !strncmp(name, "frames.", 7))   /* where: a frame's time, not the start's */
		bt_buf_adds(&b, strncmp(name, "frames.janky.", 13) ? " in frames" : " in janky frames");
	return bt_buf_detach(&b, NULL);
}

static const struct scope *scope_of(const char *name, char *kind, size_t cap)
{
	size_t i, n;

	for (i = 0; i < sizeof scopes / sizeof scopes[0]; i++) {
		const char *s = scopes[i].metric;
		n = strlen(s);
		if (s[n - 1] != '.' ? strcmp(name, s) : strncmp(name, s, n))
			continue;
		kind[0] = 0;
		if (s[n - 1] == '.') {   /* the kind: up to the next '.', if any */
			const char *rest = name + n, *dot = strchr(rest, '.');
			size_t k = dot ? (size_t)(dot - rest) : strlen(rest);
			if (k >= cap)
				return NULL;
			memcpy(kind, rest, k);
			kind[k] = 0;
		}
		return &scopes[i];
	}
	return NULL;
}

/* tmpl with its "%s" (if any) replaced by kind; 0 if it does not fit. */
static int expand(const char *tmpl, const char *kind, char *out, size_t cap)
{
	const char *at = strstr(tmpl, "%s");
	size_t a = at ? (size_t)(at - tmpl) : strlen(tmpl), k = at ? strlen(kind) : 0;
	size_t rest = at ? strlen(at + 2) : 0;

	if (a + k + rest >= cap)
		return 0;
	memcpy(out, tmpl, a);
	memcpy(out + a, kind, k);
	memcpy(out + a + k, at ? at + 2 : "", rest + 1);
	return 1;
}

static int by_move(const void *a, const void *b)
{
	const struct bt_cmp_cause *x = a, *y = b;

	if (fabs(x->delta) != fabs(y->delta))
		return fabs(x->delta) < fabs(y->delta) ? 1 : -1;
	return strcmp(x->label, y->label);
}

/* Candidates of one prefix/suffix pair that moved the metric's way. */
static void collect(const struct bt_compare *c, const struct bt_cmp_metric *m, const char *pre,
		    const char *suf, int apart, struct bt_cmp_cause **out, size_t *n, size_t *cap, double *x)
{
	const struct bt_runs *rs = c->runs;
	size_t id, pl = strlen(pre), sl = strlen(suf);

	for (id = 0; id < rs->nnames; id++) {
		const char *name = rs->names[id];
		size_t len = strlen(name);
		struct bt_cmp_cause k;
		if (len <= pl + sl || strncmp(name, pre, pl) || !ends_with(name, len, suf) || id == m->id)
			continue;
		if (!sl && strchr(name + pl, '.'))   /* a kind, not a deeper name */
			continue;
		memset(&k, 0, sizeof k);
		k.id = id;
		k.base = bt_cmp_median(c, id, BT_BASE, x);
		k.head = bt_cmp_median(c, id, BT_HEAD, x);
		k.delta = k.head - k.base;
		if (!(k.delta * m->delta > 0))
			continue;
		k.rel = k.base != 0 ? k.delta / fabs(k.base) : NAN;
		k.of_change = apart ? NAN : 100 * k.delta / m->delta;
		k.label = cause_label(name, name + pl, len - pl - sl);
		BT_GROW(*out, *n + 1, *cap);
		(*out)[(*n)++] = k;
	}
}

/* The top holder of a blocking-kind cause: "startup.main.blocked_ns.K"'s
 * among "startup.main.wait.K.by.H.ns", a frame's the same. */
static char *holder_of(const struct bt_compare *c, const struct bt_cmp_cause *k, double *x)
{
	static const char *const held[][2] = {
		{ "startup.main.blocked_ns.", "startup.main.wait.%s.by." },
		{ "frames.blocked_ns.", "frames.wait.%s.by." },
		{ "frames.janky.blocked_ns.", "frames.janky.wait.%s.by." },
	};
	const char *name = c->runs->names[k->id];
	struct bt_cmp_metric as;
	struct bt_cmp_cause *hs = NULL;
	size_t n = 0, cap = 0, i, h;
	char pre[160];
	char *who = NULL;

	for (h = 0; h < sizeof held / sizeof held[0]; h++)
		if (!strncmp(name, held[h][0], strlen(held[h][0])))
			break;
	if (h == sizeof held / sizeof held[0] || !expand(held[h][1], name + strlen(held[h][0]), pre, sizeof pre))
		return NULL;
	memset(&as, 0, sizeof as);
	as.id = k->id;
	as.delta = k->delta;
	collect(c, &as, pre, ".ns", 0, &hs, &n, &cap, x);
	if (n) {
		qsort(hs, n, sizeof *hs, by_move);
		who = bt_xstrdup(hs[0].label + 8);   /* past "held by " */
	}
	for (i = 0; i < n; i++)
		free(hs[i].label);
	free(hs);
	return who;
}

/* How far cause k moved against its runs' spread: the change of its
 * medians over the two sides' ranges together (infinite when both agree
 * to the last digit). */
static double separation(const struct bt_compare *c, const struct bt_cmp_cause *k, double *x)
{
	struct bt_stats_summary b, h;
	double spread;

	bt_stats_summarize(x, bt_compare_values(c, k->id, BT_BASE, x), &b);
	bt_stats_summarize(x, bt_compare_values(c, k->id, BT_HEAD, x), &h);
	spread = (b.max - b.min) + (h.max - h.min);
	return spread > 0 ? fabs(k->delta) / spread : INFINITY;
}

/*
 * Which cause leads. A blocking kind that carries half the move does. Else
 * the slowed method: a method's change shows in its own inclusive time and
 * in every caller's, while with samples at capture points part of it lands
 * in the methods sampled next to it, so the deepest method (the smallest
 * base value) among those that carry most of the largest move is the one
 * that changed. Causes apart from the metric (a janky-frame rate's times
 * per frame) carry no share of it: a blocking kind that carries half of
 * their move and moved beyond its runs' spread (BT_CMP_SEPARATED) leads,
 * else the cause that moved furthest against its spread, as a noisy
 * large one (a frame's GC) moves by more than a slowed method in many
 * comparisons. out is sorted by move.
 */
static void first_cause(const struct bt_compare *c, const struct bt_cmp_metric *m, int apart,
			struct bt_cmp_cause *out, size_t n, double *x)
{
	size_t i, at = SIZE_MAX, far = SIZE_MAX;
	double top = 0, best = -1, sum = 0;

	for (i = 0; apart && i < n; i++)
		sum += fabs(out[i].delta);
	for (i = 0; apart && i < n; i++) {
		double sep = separation(c, &out[i], x);
		if (at == SIZE_MAX && !strstr(c->runs->names[out[i].id], ".method.") &&
		    fabs(out[i].delta) >= 0.5 * sum && sep >= BT_CMP_SEPARATED)
			at = i;
		if (sep > best)
			best = sep, far = i;
	}
	if (apart && at == SIZE_MAX)
		at = far;
	for (i = 0; !apart && i < n && at == SIZE_MAX; i++) {
		if (strstr(c->runs->names[out[i].id], ".method."))
			top = fmax(top, fabs(out[i].delta));
		else if (fabs(out[i].delta) >= 0.5 * fabs(m->delta))
			at = i;
	}
	if (!apart && at == SIZE_MAX) {
		for (i = 0; i < n; i++)
			if (strstr(c->runs->names[out[i].id], ".method.") &&
			    fabs(out[i].delta) >= BT_CMP_CARRY * top &&
			    (at == SIZE_MAX || fabs(out[i].base) < fabs(out[at].base)))
				at = i;
	}
	if (at != SIZE_MAX && at) {
		struct bt_cmp_cause k = out[at];
		memmove(out + 1, out, at * sizeof *out);
		out[0] = k;
	}
}

static void metric_causes(const struct bt_compare *c, struct bt_cmp_metric *m, double *x)
{
	char kind[64], pre[160];
	const struct scope *s = scope_of(m->name, kind, sizeof kind);
	struct bt_cmp_cause *out = NULL;
	size_t n = 0, cap = 0, i;

	if (!s || !(m->delta != 0))
		return;
	for (i = 0; i < 3 && s->cause[i][0]; i++) {
		if (!expand(s->cause[i][0], kind, pre, sizeof pre))
			continue;
		collect(c, m, pre, s->cause[i][1], s->apart, &out, &n, &cap, x);
	}
	if (n)
		qsort(out, n, sizeof *out, by_move);
	first_cause(c, m, s->apart, out, n, x);
	for (i = MAX_CAUSES; i < n; i++)
		free(out[i].label);
	m->ncauses = n < MAX_CAUSES ? n : MAX_CAUSES;
	m->causes = out;
	for (i = 0; i < m->ncauses; i++)
		m->causes[i].holder = holder_of(c, &m->causes[i], x);
}

/* A library method's label names the app method that calls it most
 * ("Engine.load (from FeedItemViewHolder.bind) self wall in messages"),
 * from the runs' "caller.SYM.from.APP.ns" (lua/gate.lua): the caller of
 * the most time, on the head's side where it has one. calls holds the
 * ids of the runs' caller.* names, n of them. */
static void caller_label(const struct bt_compare *c, struct bt_cmp_metric *m, const size_t *calls, size_t n,
			 double *x)
{
	struct bt_buf b = BT_BUF_INIT;
	const char *sym, *best = NULL;
	size_t len, f, i, pre, lead;
	double top = -1;

	if (!n || !(sym = method_sym(m->name, &len, &f)))
		return;
	pre = strlen("caller.") + len + strlen(".from.");
	for (i = 0; i < n; i++) {
		const char *name = c->runs->names[calls[i]];
		double v;
		if (strlen(name) <= pre + 3 || memcmp(name + 7, sym, len) || memcmp(name + 7 + len, ".from.", 6))
			continue;
		v = bt_cmp_median(c, calls[i], BT_HEAD, x);
		if (v != v)   /* the head has no such call */
			v = bt_cmp_median(c, calls[i], BT_BASE, x);
		if (v > top) {
			top = v;
			best = name + pre;
		}
	}
	bt_cmp_short(sym, len, &b);
	lead = b.len;
	if (!best || strncmp(m->label, b.buf, lead)) {   /* no caller, or a label of its own */
		bt_buf_release(&b);
		return;
	}
	bt_buf_adds(&b, " (from ");
	bt_cmp_short(best, strlen(best) - 3, &b);   /* less ".ns" */
	bt_buf_adds(&b, ")");
	bt_buf_adds(&b, m->label + lead);
	free(m->label);
	m->label = bt_buf_detach(&b, NULL);
}

void bt_cmp_causes(struct bt_compare *c, double *x)
{
	size_t i, n = 0, *calls = NULL, cap = 0;

	for (i = 0; i < c->runs->nnames; i++)
		if (!strncmp(c->runs->names[i], "caller.", 7)) {
			BT_GROW(calls, n + 1, cap);
			calls[n++] = i;
		}
	for (i = 0; i < c->nm; i++) {
		struct bt_cmp_metric *m = &c->m[i];
		m->label = bt_cmp_label(m->name);
		caller_label(c, m, calls, n, x);
		if (m->verdict == BT_VD_REGRESSED || m->verdict == BT_VD_IMPROVED)
			metric_causes(c, m, x);
	}
	free(calls);
}

void bt_cmp_causes_release(struct bt_cmp_metric *m)
{
	size_t i;

	for (i = 0; i < m->ncauses; i++) {
		free(m->causes[i].label);
		free(m->causes[i].holder);
	}
	free(m->causes);
	free(m->label);
	m->causes = NULL;
	m->ncauses = 0;
	m->label = NULL;
}
