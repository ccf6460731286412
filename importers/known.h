/*
 * Inputs that are no trace we read but that we can name (importers/known.c).
 */
#ifndef BT_KNOWN_H
#define BT_KNOWN_H

#include <stddef.h>

/* What to tell the user about a file starting with h[0..n), or NULL. */
const char *bt_known_format(const unsigned char *h, size_t n);
/* The same for what the first 64 bytes do not tell (a text file's
 * comments may be longer): reads up to 4 KiB of path. */
const char *bt_known_text(const char *path);

/* 1 if h[0..n) starts a file that goes beside a trace (a sampling-mapping,
 * a methodMapping.txt, a ProGuard/R8 mapping.txt): batch counts these as
 * sidecars, not as inputs it could not read. */
int bt_known_sidecar(const unsigned char *h, size_t n);
/* The same of the file at path (its first 64 bytes); 0 if it cannot be read. */
int bt_known_sidecar_file(const char *path);

#endif
