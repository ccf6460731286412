/*
 * What a long run is doing, on a terminal's stderr: "btrace-analyze:
 * running the rules (2.1 s)". A thread redraws the line while a phase
 * lasts, so no phase of a long run is silent; nothing is drawn for a
 * phase shorter than half a second, nor when stderr is no terminal.
 */
#ifndef BT_PROGRESS_H
#define BT_PROGRESS_H

/* One line per process: the command starts it (enabled: stderr is a
 * terminal and no -q); until then, and when not enabled, the calls below
 * do nothing, so any layer may name its phase. */
void bt_progress_start(int enabled);
/* The phase now running ("running the rules"); NULL: none (line cleared). */
void bt_progress_phase(const char *what);
/* The same, its percentage shown from the first (the import's, as it
 * always was). */
void bt_progress_phase_eager(const char *what);
/* The phase's share done, 0..100; -1: unknown. */
void bt_progress_pct(int pct);
/* Text shown after the percentage ("12 done, 1 failed, ..."), the
 * phase's clock kept; NULL or "": none. Reset by a new phase. */
void bt_progress_detail(const char *detail);
/* Clear the line and stop the thread (atexit-safe; again is harmless). */
void bt_progress_stop(void);

#endif
