/* What compare.c and compare_diff.c share. */
#ifndef BT_COMPARE_INT_H
#define BT_COMPARE_INT_H

#include "engine/compare/compare.h"

/* The stack-level diff; x and y have room for every run. */
int bt_cmp_diff(struct bt_compare *c, const struct bt_cmp_opts *o, double *x, double *y,
		struct bt_err *err);
void bt_cmp_list_release(struct bt_cmp_list *l);

/* The statistic's own floor, a share of the threshold (compare.c). */
#define BT_CMP_S0 0.25

/* A method carries a move when its change is at least this share of the
 * largest (causes.c, headline.c). */
#define BT_CMP_CARRY 0.6

/* A cause moved beyond its runs' spread when the change of its medians is
 * at least this share of the two sides' ranges together (causes.c). */
#define BT_CMP_SEPARATED 0.5

/* causes.c: labels for every metric, causes for the moved ones. */
void bt_cmp_causes(struct bt_compare *c, double *x);
void bt_cmp_causes_release(struct bt_cmp_metric *m);
/* headline.c */
void bt_cmp_headline_build(struct bt_compare *c);

#endif
