/*
 * --process NAME|PID, for the importers of traces that hold several
 * processes (Perfetto, systrace): which process a user means.
 */
#ifndef BT_IMP_PROCESS_H
#define BT_IMP_PROCESS_H

#include <stdint.h>

/* 1 if want names the process pid labelled lbl (its name, else its main
 * thread's; NULL if none): its pid in decimal, its whole name, or the last
 * component of a path name ("surfaceflinger" for
 * "/system/bin/surfaceflinger"). */
int bt_process_wanted(const char *want, int64_t pid, const char *lbl);
/* The name part alone: lbl is want, or its last path component is. */
int bt_process_named(const char *lbl, const char *want);

#endif
