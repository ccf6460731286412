/*
 * One ftrace text line split into its fields, by hand (no regex: this is
 * the importer's hot path). The kernel's layouts, with and without the
 * TGID column and the irq flags:
 *
 *     TASK-PID    (TGID) [CPU] FLAGS TIMESTAMP: EVENT: ARGS
 *     TASK-PID    (-----) [CPU] FLAGS TIMESTAMP: EVENT: ARGS
 *     TASK-PID    [CPU] FLAGS TIMESTAMP: EVENT: ARGS
 *     TASK-PID    [CPU] TIMESTAMP: EVENT: ARGS        (before Linux 3.2)
 *
 * A task's name may hold any character, '-', ' ', '[' and '(' included,
 * so the CPU column is found first: the first "[digits]" that a pid
 * (and perhaps a TGID) precede.
 */
#include <string.h>

#include "engine/recon/pipeline.h"
#include "importers/systrace/st_int.h"

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits ending right before s[end): their start, or end if none. */
static size_t digits_before(const char *s, size_t end)
{
	size_t i = end;

	while (i > 0 && digit(s[i - 1]))
		i--;
	return i;
}

static size_t skip_spaces_back(const char *s, size_t end)
{
	while (end > 0 && s[end - 1] == ' ')
		end--;
	return end;
}

/* The decimal of s[a, b) (1 to 10 digits) into *v. */
static int small_number(const char *s, size_t a, size_t b, int64_t *v)
{
	int64_t x = 0;

	if (b <= a || b - a > 10)
		return 0;
	for (; a < b; a++) {
		if (!digit(s[a]))
			return 0;
		x = x * 10 + (s[a] - '0');
	}
	*v = x;
	return x <= INT32_MAX;
}

/* Task, pid and TGID before the '[' at s[b]: 1 if they are there. */
static int before_cpu(const char *s, size_t b, struct st_line *l)
{
	size_t e = skip_spaces_back(s, b), p;

	l->tgid = -1;
	if (e && s[e - 1] == ')') {   /* (TGID) or (-----) */
		size_t open = e - 1, a;
		while (open > 0 && s[open - 1] != '(')
			open--;
		if (!open)
			return 0;
		a = open;
		while (a < e - 1 && s[a] == ' ')
			a++;
		if (s[a] == '-') {
			while (a < e - 1 && s[a] == '-')
				a++;
			if (a != e - 1)
				return 0;
		} else if (!small_number(s, a, e - 1, &l->tgid)) {
			return 0;
		}
		e = skip_spaces_back(s, open - 1);
	}
	p = digits_before(s, e);
	if (p == e || p == 0 || s[p - 1] != '-' || !small_number(s, p, e, &l->pid))
		return 0;
	l->task = s;
	l->task_len = p - 1;
	while (l->task_len && *l->task == ' ')
		l->task++, l->task_len--;
	return l->task_len > 0;
}

/* "SECONDS.FRACTION:" at s[a, b) (b at the ':') in ns. */
static int timestamp(const char *s, size_t a, size_t b, int64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = a, k;
	int fd = 0;

	while (i < b && digit(s[i])) {
		if (i - a >= 12)
			return ST_LINE_RANGE;
		sec = sec * 10 + (uint64_t)(s[i++] - '0');
	}
	if (i == a || i >= b || s[i] != '.')
		return ST_LINE_BAD;
	for (i++; i < b && digit(s[i]); i++)
		if (fd < 9)
			frac = frac * 10 + (uint64_t)(s[i] - '0'), fd++;
	if (i != b || !fd)
		return ST_LINE_BAD;
	for (k = (size_t)fd; k < 9; k++)
		frac *= 10;
	if (sec > (uint64_t)BT_MAX_TIME_NS / 1000000000u)
		return ST_LINE_RANGE;
	*ns = (int64_t)(sec * 1000000000u + frac);
	return *ns < BT_MAX_TIME_NS ? ST_LINE_OK : ST_LINE_RANGE;
}

/* After the CPU column: [FLAGS] TIMESTAMP: EVENT: ARGS. */
static int after_cpu(const char *s, size_t n, size_t i, struct st_line *l)
{
	size_t a, b;
	int rc;

	while (i < n && s[i] == ' ')
		i++;
	for (b = i; b < n && s[b] != ' '; b++)
		;
	if (b == i)
		return ST_LINE_BAD;
	if (s[b - 1] != ':' || !digit(s[i])) {   /* irq flags (1 to 5 characters) first */
		if (b - i > 5)
			return ST_LINE_BAD;
		for (i = b; i < n && s[i] == ' '; i++)
			;
		for (b = i; b < n && s[b] != ' '; b++)
			;
		if (b == i || s[b - 1] != ':')
			return ST_LINE_BAD;
	}
	if ((rc = timestamp(s, i, b - 1, &l->ts)) != ST_LINE_OK)
		return rc;
	for (a = b; a < n && s[a] == ' '; a++)
		;
	for (b = a; b < n && s[b] != ':' && s[b] != ' '; b++)
		;
	if (b == a || b >= n || s[b] != ':')
		return ST_LINE_BAD;
	l->event = s + a;
	l->event_len = b - a;
	for (b++; b < n && s[b] == ' '; b++)
		;
	l->args = s + b;
	l->args_len = n - b;
	return ST_LINE_OK;
}

int st_line_parse(const char *s, size_t n, struct st_line *l)
{
	const char *q = s, *end = s + n;

	while ((q = memchr(q, '[', (size_t)(end - q))) != NULL) {
		size_t b = (size_t)(q - s), c = b + 1;
		while (c < n && digit(s[c]))
			c++;
		if (c > b + 1 && c < n && s[c] == ']' && c - b <= 6 && small_number(s, b + 1, c, &l->cpu) &&
		    l->cpu < ST_MAX_CPUS && before_cpu(s, b, l))
			return after_cpu(s, n, c + 1, l);
		q++;
	}
	return ST_LINE_BAD;
}

const char *st_arg(const char *args, size_t n, const char *key, const char *stop, size_t *len)
{
	size_t k = strlen(key), i;

	for (i = 0; i + k <= n; i++) {
		const char *v, *e;
		if (args[i] != key[0] || (i && args[i - 1] != ' ') || memcmp(args + i, key, k))
			continue;
		v = args + i + k;
		if (stop) {
			size_t m = strlen(stop), j;
			for (j = 0; v + j + m <= args + n; j++)
				if (v[j] == stop[0] && !memcmp(v + j, stop, m))
					break;
			e = v + j + m <= args + n ? v + j : args + n;
		} else {
			e = memchr(v, ' ', (size_t)(args + n - v));
			if (!e)
				e = args + n;
		}
		*len = (size_t)(e - v);
		return v;
	}
	return NULL;
}

int st_int(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	int neg = 0;

	if (n && s[0] == '-')
		neg = 1, i = 1;
	if (i == n || n - i > 18)
		return 0;
	for (; i < n; i++) {
		if (!digit(s[i]))
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 1;
}
