/*
 * The registry of temporary files: every file the tool creates only to
 * rename or delete later is named here before it is created, so that
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT (an out-of-memory abort) and
 * exit() (an out-of-memory exit(1) too) remove it. The handler is async-signal safe: a fixed array of
 * paths, unlink() each, then the signal's default action (exit 128+sig).
 */
#ifndef BT_TEMPS_H
#define BT_TEMPS_H

/* Install the signal handlers and the exit hook; once, from main. A
 * signal ignored when the process started (nohup, a shell's background
 * job) stays ignored. */
void bt_temps_install(void);

/* Name path as a temporary before creating it. 0, or -1 when the registry
 * is full or path too long (the file is then made all the same, only not
 * removed on a signal). Thread-safe. */
int bt_temps_add(const char *path);
/* Forget path (renamed into place, or already removed). */
void bt_temps_forget(const char *path);
/* unlink(path) and forget it. */
void bt_temps_remove(const char *path);

/* Remove every registered file now (what the handler and exit do). */
void bt_temps_cleanup(void);

#endif
