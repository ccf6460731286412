/*
 * What a report shows (DESIGN §8): metrics, tables and findings, as rules
 * emit them. Reporters render it with the trace's facts and diagnostics,
 * which they read from the database.
 */
#ifndef BT_RESULT_H
#define BT_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/hash.h"

enum bt_vtype { BT_V_NULL, BT_V_INT, BT_V_REAL, BT_V_TEXT, BT_V_JSON /* raw JSON text */ };

struct bt_value {
	enum bt_vtype type;
	union {
		int64_t i;
		double d;
		char *s;   /* owned */
	} u;
};

/* How a column's or a metric's numbers read: by name (bt_unit_of) unless a
 * rule says. */
enum bt_unit { BT_UNIT_NONE, BT_UNIT_NS, BT_UNIT_BYTES, BT_UNIT_PCT, BT_UNIT_COUNT };

struct bt_rtable {
	char *name, *title;
	char **columns;
	enum bt_unit *units;
	unsigned char *spare;     /* per column: 1 where a narrow terminal may leave it out first */
	int ncols;
	struct bt_value *cells;   /* row-major, nrows * ncols */
	size_t nrows, cap;
};

enum bt_severity { BT_SEV_INFO, BT_SEV_WARNING, BT_SEV_ERROR, BT_SEV__COUNT };

extern const char *const bt_severity_name[BT_SEV__COUNT];
/* -1 if name is no severity. */
int bt_severity_parse(const char *name);

struct bt_evidence {
	char *key;
	struct bt_value v;
};

struct bt_finding {
	char *rule, *message;
	enum bt_severity severity;
	int has_tid, has_ts, has_dur;
	int headline;   /* the review's headline (a startup's duration): listed first */
	int64_t tid, ts, dur;
	struct bt_evidence *ev;
	int nev;
};

struct bt_metric {
	char *name;
	struct bt_value v;   /* INT or REAL */
};

struct bt_result {
	struct bt_metric *metrics;
	size_t nmetrics, mcap;
	struct bt_rtable *tables;
	size_t ntables, tcap;
	struct bt_finding *findings;
	size_t nfindings, fcap;
	/* name -> index + 1, so a rule setting n metrics costs O(n), not O(n^2) */
	struct bt_strmap metric_index, table_index;
};

void bt_result_init(struct bt_result *r);
void bt_result_release(struct bt_result *r);

/* Set a metric (a later value for the same name replaces the earlier,
 * which is released). Takes v. */
void bt_result_metric(struct bt_result *r, const char *name, struct bt_value v);
/* 1 for a metric of one method or one holder (method.*, *.method.*,
 * *.by.*): there are hundreds, so the text and xlsx reports only count
 * them and compare reads one a run lacks as 0 (under the report's cut). */
int bt_metric_per_method(const char *name);
/* A measure over a thread's first N messages (lua/gate.lua), for compare
 * to read in the whole capture's place: "thread.main.first.N.…". */
#define BT_METRIC_WINDOW "thread.main.first."
int bt_metric_in_window(const char *name);

/* A new table with ncols columns, replacing one of the same name; the
 * caller fills columns[] and units[] and appends rows. */
struct bt_rtable *bt_result_table(struct bt_result *r, const char *name, const char *title, int ncols);
/* Room for one more row: ncols cells, all NULL. */
struct bt_value *bt_rtable_row(struct bt_rtable *t);
/*
 * The one rule for the unit a metric or column name implies: the last
 * dot-separated component that names a unit decides. A component names
 * ns when it is "ns" or "dur" or ends in "_ns", bytes when it ends in
 * "bytes", pct when it is "pct" or ends in "_pct". A name
 * without one gets otherwise: BT_UNIT_NONE for a table column (a plain
 * number), BT_UNIT_COUNT for a metric.
 * "thread.main.blocked_ns.monitor" is ns; "method.a.b_ns(int).self_alloc_bytes"
 * bytes; "thread.main.messages.over_16ms" has none.
 */
enum bt_unit bt_unit_of(const char *name, enum bt_unit otherwise);
/* 0 if name is no unit (names: "", ns, bytes, pct, count). */
int bt_unit_parse(const char *name, enum bt_unit *out);
const char *bt_unit_name(enum bt_unit u);

/* A new finding, zeroed but for rule, severity and message (copied). */
struct bt_finding *bt_result_finding(struct bt_result *r, const char *rule, enum bt_severity sev,
				     const char *message);
void bt_finding_evidence(struct bt_finding *f, const char *key, struct bt_value v);

/* Findings: headlines first, then most severe first, then by time; stable. */
void bt_result_sort(struct bt_result *r);
/* The highest severity of any finding, or -1. */
int bt_result_max_severity(const struct bt_result *r);

void bt_value_release(struct bt_value *v);
struct bt_value bt_value_text(const char *s, size_t len);

#endif
