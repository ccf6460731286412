/*
 * Error reporting: a return code plus a caller-owned message buffer.
 * Every fallible function returns BT_OK or a BT_E* code and fills the
 * struct bt_err passed last; the first error set wins.
 */
#ifndef BT_ERR_H
#define BT_ERR_H

enum {
	BT_OK = 0,
	BT_EIO,      /* file or system call failed */
	BT_EFORMAT,  /* input bytes are not what the format says */
	BT_ESQL,     /* SQLite failed */
	BT_ELUA,     /* a rule script failed */
	BT_EUSAGE,   /* bad command line */
	BT_EXLSX,    /* spreadsheet writer failed */
	BT_EGATE,    /* a gate failed: findings at --fail-on, or a regression */
	BT_EBATCH,   /* a batch ran to its end, but some of its traces failed */
	BT_EUNDECIDED,  /* compare --require-decision: the runs decided nothing */
	BT_EMORE        /* compare --sequential: not decided yet, run more */
};

struct bt_err {
	int code;
	char msg[512];
};

#define BT_ERR_INIT { BT_OK, "" }

#if defined(__GNUC__)
#define BT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define BT_PRINTF(f, a)
#endif

/* Record an error unless one is already set; returns code either way. */
int bt_err_set(struct bt_err *err, int code, const char *fmt, ...) BT_PRINTF(3, 4);

/* Forget a recorded error (used where a failure is recoverable). */
void bt_err_clear(struct bt_err *err);

/* Process exit status for an error code: 2 usage, 3 gate, 4 batch, 1
 * otherwise. */
int bt_err_exit_status(int code);

#endif
