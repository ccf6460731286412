/*
 * Just enough JSON for the small objects embedded in dumps (the Android
 * "extra" section): validate an object and read integer members by key.
 */
#ifndef BT_JSON_H
#define BT_JSON_H

#include <stddef.h>
#include <stdint.h>

enum { BT_JSON_BAD = -1, BT_JSON_MISSING = 0, BT_JSON_FOUND = 1, BT_JSON_NOT_INT = 2 };

/*
 * Look up top-level member key of the JSON object s[0..len). Returns
 * BT_JSON_FOUND with *out set, BT_JSON_MISSING, BT_JSON_NOT_INT when the
 * member is not an integer, or BT_JSON_BAD when s is not a JSON object
 * (*where then holds the byte offset of the problem).
 */
int bt_json_get_int(const char *s, size_t len, const char *key, int64_t *out, size_t *where);

#endif
