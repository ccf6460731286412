/*
 * Compare (DESIGN §9): base runs against head runs, metric by metric, with
 * a verdict for each gated metric, and the stack-level diff of the methods
 * and blocking kinds behind the change.
 *
 * Verdict of one metric, with d = head median - base median (negated for a
 * metric where higher is better) and the threshold
 * t = max(noise floor of the metric's unit, max_regress * |base median|):
 *   one run on a side:  d > t regressed, d < -t improved, else unchanged
 *                       (thresholds alone decide, and the reason says so);
 *   |d| <= t:           unchanged, however significant;
 *   p < alpha:          regressed or improved; for a gated metric p is its
 *                       adjusted p in the family of every gated metric
 *                       (family.h), so alpha bounds the chance that a
 *                       same-build comparison fails the gate at all; an
 *                       ungated metric's p is its own (Mann-Whitney U);
 *   otherwise:          inconclusive: too few runs to reach alpha at all
 *                       ("need more runs"), or too much noise.
 * A gate script may then set any verdict (lua/gates.h). Every regressed or
 * improved metric lists its causes (causes.c): the measures of its own
 * scope (methods, blocking kinds, holders) whose medians moved most.
 */
#ifndef BT_COMPARE_H
#define BT_COMPARE_H

#include <stddef.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"
#include "engine/base/result.h"
#include "engine/compare/family.h"
#include "engine/compare/runs.h"
#include "engine/compare/stats.h"

enum bt_verdict { BT_VD_UNCHANGED, BT_VD_IMPROVED, BT_VD_INCONCLUSIVE, BT_VD_REGRESSED, BT_VD__COUNT };
extern const char *const bt_verdict_name[BT_VD__COUNT];
/* -1 if name is no verdict. */
int bt_verdict_parse(const char *name);

/* Thresholds of one metric. */
struct bt_gate {
	double max_regress;    /* fraction of the base median (0.05 = 5 %) */
	double floor_ns, floor_bytes, floor_count;   /* noise floors by unit */
	double alpha;          /* family-wise for gated metrics */
	int gated;             /* 1 if gated: by --metric, else by name (bt_cmp_gated_by_default),
				* then the gate script */
	int higher_is_better;
};

void bt_gate_defaults(struct bt_gate *g);
/* max(noise floor of unit u, max_regress * |base|): how far a median may move. */
double bt_gate_threshold(const struct bt_gate *g, enum bt_unit u, double base);
/* "5%", "0.05" (a fraction), "5 %": *out = 0.05. */
int bt_gate_parse_pct(const char *s, double *out);
/* "2ms", "150us", "1.5s", "64KB", "1MiB", "3": into the floor of that unit
 * (time, bytes, or a bare count). */
int bt_gate_parse_floor(const char *s, struct bt_gate *g);

/* A measure of a metric's scope that moved with it. */
struct bt_cmp_cause {
	size_t id;               /* its metric */
	char *label;             /* "ConfigLoader.parse self CPU", "monitor blocking" (owned) */
	char *holder;            /* a blocking kind's top holder, short, or NULL (owned) */
	double base, head, delta, rel;   /* medians; rel NaN for a base of 0 */
	double of_change;        /* delta over the metric's delta, in % */
};

/*
 * Sequential mode: a CI adds runs to both sides and compares again after
 * each; the verdict is read only at the looks (BT_CMP_LOOKS runs a side),
 * each at alpha / BT_CMP_NLOOKS, so that stopping at whichever look first
 * decides keeps the error of the whole sequence within alpha (Bonferroni
 * over the looks). A look decides "regressed" or "improved" as a plain
 * compare does at its alpha; "unchanged" or "improved" not while a gated
 * metric moved worse beyond its threshold with a p under alpha (a plain
 * compare's regression, not yet the look's: the next look tells); and
 * "unchanged" only when, beside that,
 * the gated totals (startup TTID and main-thread CPU, the main thread's
 * messages' wall, CPU and allocations) are shown within their thresholds
 * (equivalence at the look's alpha); their parts (blocking by kind,
 * waits, methods) are too many and too noisy to be shown within at these
 * run counts: the family-wise test says they did not move. Otherwise:
 * run `more` runs a side to the next look; after the last one, no
 * decision.
 */
#define BT_CMP_NLOOKS 6
extern const size_t bt_cmp_looks[BT_CMP_NLOOKS];
struct bt_cmp_seq {
	int on;
	size_t n;                /* runs a side: the smaller side's */
	size_t look;             /* 1-based index of the look n is at, 0 between looks */
	size_t more;             /* runs a side to the next look; 0 when decided or past the last */
	int decided;             /* at a look, and regressed, improved or shown unchanged */
	double alpha;            /* a look's */
	const char *undecided;   /* at a look: the first gated total not shown within, or the
				  * first metric moved worse (suspect), or NULL */
	int suspect;             /* undecided moved worse beyond its threshold with a p below
				  * alpha, not the look's: what a plain compare would fail */
	double plain_alpha;      /* alpha, before the looks share it */
};

struct bt_cmp_metric {
	const char *name;        /* the runs' copy */
	char *label;             /* for people: "startup main-thread CPU" (owned) */
	size_t id;
	enum bt_unit unit;
	struct bt_gate gate;     /* effective thresholds */
	struct bt_stats_summary base, head;
	double delta, rel;       /* of the medians, head - base; rel NaN for a base median of 0 */
	double threshold;
	int tested;              /* mwu and hl filled: two or more runs a side */
	struct bt_stats_mwu mwu;
	struct bt_stats_shift hl;
	/* Equivalence (two one-sided tests at alpha): the shift's interval at
	 * level 1 - 2 alpha, and whether it lies inside +-threshold, which
	 * shows the metric unchanged within it rather than only not moved. */
	struct bt_stats_shift eq;
	int equivalent;
	double min_p;            /* smallest p these run counts can give */
	int in_family;           /* gated and in every run: t and p_adj filled */
	double t, p_adj;         /* regularised Welch t; family-wise adjusted p */
	enum bt_verdict verdict;
	char *reason;            /* owned */
	int by_script;           /* the gate script set the verdict */
	int sampled_floor;       /* its floor is the samples' resolution (bt_compare.resolution_ns) */
	struct bt_cmp_cause *causes;   /* regressed or improved: largest move first */
	size_t ncauses;
};

/* Measures of the stack-level diff, each a self and an inclusive field. */
enum bt_measure { BT_MS_WALL, BT_MS_CPU, BT_MS_OFFCPU, BT_MS_ALLOC, BT_MS_MAJFLT, BT_MS__COUNT };
extern const char *const bt_measure_name[BT_MS__COUNT];

/* method.<symbol>.<field>, as the attribution rules emit them: the field
 * names of each measure, self then inclusive ("self_cpu_ns", ...). */
extern const char *const bt_method_field[BT_MS__COUNT][2];
/* 1 if name is method.<symbol>.<field> with a field above: the symbol's
 * start and length in name, the measure, and 0 for self or 1 inclusive. */
int bt_method_metric(const char *name, const char **sym, size_t *len, enum bt_measure *k, int *incl);

enum bt_change { BT_CH_APPEARED, BT_CH_DISAPPEARED, BT_CH_GROWN, BT_CH_SHRUNK };
extern const char *const bt_change_name[4];

/* A method (self and inclusive) or a blocking kind in one measure. */
struct bt_cmp_change {
	char *what;              /* method symbol, or blocking kind */
	const char *scope;       /* blocking: "main" or "process"; NULL for methods */
	enum bt_change change;
	struct bt_stats_summary base, head;   /* of the self (or blocked) values */
	double delta;            /* of the medians */
	double share;            /* delta over the sum of |delta| of the list, in % */
	double incl_base, incl_head;          /* inclusive medians; NaN for blocking */
	int tested;
	double p;                /* Mann-Whitney U on the self values */
	int significant;         /* |delta| above the threshold, and p < alpha if tested */
	int small;               /* |delta| within the threshold */
};

struct bt_cmp_list {
	struct bt_cmp_change *rows;   /* ranked by |delta|, largest first */
	size_t n;
};

struct bt_compare {
	const struct bt_runs *runs;
	size_t nbase, nhead;
	struct bt_cmp_metric *m;      /* reported: gated first; by verdict, the largest move, name */
	size_t nm, ngated;
	size_t count[BT_VD__COUNT];   /* over gated metrics */
	enum bt_verdict overall;
	struct bt_cmp_list methods[BT_MS__COUNT];
	struct bt_cmp_list blocking;
	struct bt_gate def;           /* the flags' thresholds, for the output */
	const char *rules;            /* gate script, or NULL */
	struct bt_family_info fam;    /* the gated metrics' family */
	int holm;                     /* its p by Holm, not max-T (bt_cmp_opts) */
	size_t nfamily;
	const struct bt_cmp_metric *lead;   /* the headline's metric, or NULL */
	char *headline;               /* one line: verdict, lead metric, top cause (owned) */
	double *msg_scale;            /* per run: median messages over its own (BT_CMP_MSGS), or NULL */
	double msg_ref;               /* the median run's messages */
	int64_t msg_window;           /* every run's first this many messages read in place of all
				       * of them (BT_CMP_WINDOW: messages and waits), 0 none */
	uint32_t *win_alt;            /* by metric id: its window metric's id + 1, 0 none */
	double resolution_ns;         /* the runs' median BT_CMP_RESOLUTION, 0 without: the main
				       * thread's methods move by less unseen (their floor) */
	struct bt_cmp_seq seq;        /* --sequential, else seq.on 0 */
};

/* Called for each metric before the verdict (to set its thresholds) and
 * after it (to change the verdict); a script's errors stop the compare. */
struct bt_cmp_hooks {
	int (*thresholds)(void *ctx, const char *name, struct bt_gate *g, struct bt_err *err);
	int (*verdict)(void *ctx, struct bt_compare *c, struct bt_cmp_metric *m, struct bt_err *err);
	void *ctx;
};

struct bt_cmp_opts {
	struct bt_gate def;
	const char *const *globs;     /* --metric: the gated metrics; none: by name */
	int nglobs;
	const struct bt_cmp_hooks *hooks;   /* may be NULL */
	const char *rules;
	/* The family by Holm's step-down on each gated metric's two-sided
	 * Mann-Whitney p (family.h) instead of max-T: for runs that are no
	 * traces' joint values (a fleet summary's distributions, fleetcmp.h). */
	int holm;
	int sequential;               /* see struct bt_cmp_seq */
};

/* Main-thread totals over the messages after the start (lua/gate.lua);
 * compare reads them as over the median run's number of messages. */
#define BT_CMP_MSGS "thread.main.msgs."
#define BT_CMP_WINDOW BT_METRIC_WINDOW   /* then N and a thread.main. name's rest: the same
					  * measure over the thread's first N messages */
/* How finely a run's samples place the main thread's method bounds
 * (lua/gate.lua, from the startup table). */
#define BT_CMP_RESOLUTION "startup.main.sample_interval_ns"
int bt_cmp_per_messages(const char *name);

/* 1 if compare gates the metric when neither --metric nor a gate script
 * says: the startup window, the main thread per message and per wait,
 * app methods in startup (lua/gate.lua writes them). */
int bt_cmp_gated_by_default(const char *name);

/* v in the unit's words: "12.5 ms", "3.2 MiB", "17". */
void bt_cmp_amount(enum bt_unit u, double v, struct bt_buf *b);

/* "a.b.C.m" from "void a.b.C.m(int)": Class.method, "C.m". */
void bt_cmp_short(const char *name, size_t len, struct bt_buf *b);
/* The metric for people: "startup main-thread CPU", "Foo.bar self CPU in startup" (malloc'd). */
char *bt_cmp_label(const char *name);
/* "Foo.bar self CPU +50 % (384 ms → 578 ms)[, held by H]" */
void bt_cmp_cause_words(const struct bt_compare *c, const struct bt_cmp_cause *k, struct bt_buf *b);

int bt_compare_run(struct bt_compare *c, const struct bt_runs *runs, const struct bt_cmp_opts *o,
		   struct bt_err *err);
void bt_compare_release(struct bt_compare *c);
/* The p a verdict reads: the family-wise p of a gated metric every run
 * has, else its own Mann-Whitney p; NaN when it was not tested. */
double bt_cmp_p(const struct bt_cmp_metric *m);
/* For a gated method metric: the time its method moved in all, over the
 * method's gated metrics with the same verdict (what the headline ranks
 * methods by); otherwise |delta|. */
double bt_cmp_method_moved(const struct bt_compare *c, const struct bt_cmp_metric *m);
/* Median of metric id's values on one side (as bt_compare_values reads
 * them); NaN for id SIZE_MAX or no values. x has room for every run. */
double bt_cmp_median(const struct bt_compare *c, size_t id, enum bt_side side, double *x);

/* Metric id's value in run r as compare reads it: 0 for a method's metric
 * the run does not have (under the report's cut), per-message totals
 * scaled to the median run's messages; NaN when absent. */
double bt_compare_value(const struct bt_compare *c, size_t r, size_t id);
/* The values of metric id on one side (absent runs skipped, or 0 for a
 * method's metric); returns how many, into x (room for every run). */
size_t bt_compare_values(const struct bt_compare *c, size_t id, enum bt_side side, double *x);

#endif
