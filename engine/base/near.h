/*
 * "Did you mean": the candidate closest to a mistyped name, by edit
 * distance (optimal string alignment: a swap of neighbours is one edit)
 * or as a prefix, for usage errors that suggest what was meant.
 */
#ifndef BT_NEAR_H
#define BT_NEAR_H

#include <stddef.h>

/* Edits between a[0..na) and b[0..nb) (case-sensitive); capped at
 * 1 + the longer length, and long names (over 64) are not compared. */
int bt_near_distance(const char *a, size_t na, const char *b, size_t nb);

/* Whether cand is close to name[0..n): at most 2 edits (1 for names of
 * 3 characters or less), or one is a prefix of the other (4 or more). */
int bt_near(const char *name, size_t n, const char *cand);

/* The candidate closest to name[0..n) among cands[0..ncands) (NULLs
 * skipped), or NULL when none is near: the fewest edits, the first of ties. */
const char *bt_near_best(const char *name, size_t n, const char *const *cands, size_t ncands);

#endif
