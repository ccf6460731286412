/*
 * ProGuard/R8 retrace: load a mapping.txt and rewrite obfuscated method
 * symbols back to their original names (android-sampling.md §9).
 */
#ifndef BT_RETRACE_H
#define BT_RETRACE_H

#include <stddef.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"

struct bt_retrace;

/*
 * Load the ProGuard/R8 mapping.txt at path into a new *out, which the
 * caller frees with bt_retrace_free. Malformed lines are skipped, so any
 * readable file loads. Returns BT_EIO if the file cannot be read and
 * BT_EFORMAT if it is larger than 1 GiB; *out is then NULL.
 */
int bt_retrace_load(struct bt_retrace **out, const char *path, struct bt_err *err);

/* Free everything bt_retrace_load made. NULL is accepted. */
void bt_retrace_free(struct bt_retrace *rt);

/*
 * Rewrite the method symbol s[0..len) per §9.2, e.g.
 * "void a.b.c(a.d, int)" -> "com.example.Foo.bar(com.example.Baz, int)".
 * If the text changes, append the new text to out and return 1.
 * Otherwise return 0 and leave the text in out as it was (its capacity
 * may have grown). s need not be NUL-terminated; no allocation happens
 * except for out and for names longer than a few hundred bytes.
 */
int bt_retrace_symbol(const struct bt_retrace *rt, const char *s, size_t len, struct bt_buf *out);

/* Number of distinct obfuscated classes / of method entries loaded. */
size_t bt_retrace_classes(const struct bt_retrace *rt);
size_t bt_retrace_methods(const struct bt_retrace *rt);

#endif
