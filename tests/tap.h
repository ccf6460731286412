/*
 * A minimal TAP producer for unit tests: each check prints "ok N - what" or
 * "not ok N - what"; tests/run.sh counts them across all test programs.
 */
#ifndef BT_TAP_H
#define BT_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *what)
{
	++tap_n;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", tap_n, what);
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}

#define ok(cond, what) tap_ok(!!(cond), __FILE__, __LINE__, (what))

#define is_int(got, want, what) \
	do { \
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (!ok(g_ == w_, (what))) \
			printf("#   got %lld, want %lld\n", g_, w_); \
	} while (0)

#define is_str(got, want, what) \
	do { \
		const char *g_ = (got), *w_ = (want); \
		if (!ok(g_ && w_ ? !strcmp(g_, w_) : g_ == w_, (what))) \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} while (0)

/* The next of the tests' reproducible pseudo-random numbers (xorshift64;
 * *state starts at any value but 0). */
static inline uint64_t tap_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Call last from main: prints the plan and returns the exit status. */
static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
