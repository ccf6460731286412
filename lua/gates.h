/*
 * Gate scripts for compare (--rules gates.lua, DESIGN §9): Lua in the
 * rules' sandbox with a `gate` table instead of `bt`:
 *   gate.metric(GLOB, { max_regress = "3%", noise_floor = "2ms", alpha = 0.01,
 *                       gate = true|false, higher_is_better = true|false })
 *   gate.defaults{ ... }       -- gate.metric("*", { ... })
 *   gate.check(function(m) ... return "regressed", "why" end)
 * Declarations apply in order to the metrics their glob matches, later ones
 * winning; checks run in order on every reported metric and may return a
 * verdict (and a reason) to replace the one computed. Any error in the
 * script stops the compare: a gate that does not run cannot pass.
 */
#ifndef BT_GATES_H
#define BT_GATES_H

#include "engine/compare/compare.h"

struct bt_gates;

/* Load and run path's chunk, collecting its declarations. */
int bt_gates_open(struct bt_gates **out, const char *path, struct bt_err *err);
void bt_gates_close(struct bt_gates *g);
/* Hooks for bt_compare_run that apply the script. */
void bt_gates_hooks(struct bt_gates *g, struct bt_cmp_hooks *h);

#endif
