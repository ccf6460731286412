/*
 * Classes of Android record types (format spec §4.3) that linking,
 * capture and reconstruction agree on.
 */
#ifndef BT_RTYPE_H
#define BT_RTYPE_H

#include <stdint.h>

/* Waits that wake-up tracking gives wakers: wait (6), park (7), monitor (8). */
static inline int bt_rtype_is_wait(int64_t t)
{
	return t == 6 || t == 7 || t == 8;
}

/* Waker records of v5 dumps: unpark (17), notify (22), unlock (23). */
static inline int bt_rtype_is_waker(int64_t t)
{
	return t == 17 || t == 22 || t == 23;
}

/* A waker record's cpuTime is 0 by design (spec §4.6: its begin is the
 * waiter's time; the waker's CPU is endCpuTime): no CPU time at its begin,
 * stored as NULL, not as a thread CPU clock of 0. */
static inline int bt_rtype_begin_cpu_unknown(int64_t t, int64_t cpu, int64_t end_ts)
{
	return bt_rtype_is_waker(t) && cpu == 0 && end_ts != 0;
}

/* iOS database samples have types above 100 (importers/ios_int.h); the
 * main thread's lock wait is the one that blocks. */
#define BT_RTYPE_IOS_LOCK_WAIT 107

/* Records whose duration upstream counts as blocked time: binder (2),
 * GC (11), monitor (8), park (7), wait (6), mutex (12); and iOS lock
 * waits. */
static inline int bt_rtype_is_blocking(int64_t t)
{
	return t == 2 || t == 11 || bt_rtype_is_wait(t) || t == 12 || t == BT_RTYPE_IOS_LOCK_WAIT;
}

#endif
