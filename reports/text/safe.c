/*
 * What a person reads in a terminal or a PR comment is text, never
 * commands (issue 34 item 6): a method or thread name from a trace must
 * not set the terminal's title or clear its screen, nor ping a team from
 * a Markdown report. The text and Markdown writers write through a stream
 * that shows C0 and C1 control characters and DEL as \xHH (\u00HH for C1)
 * and, for Markdown, writes an @ that begins a mention as &#64;. Line
 * feeds and tabs, the writers' own, pass.
 */
#define _GNU_SOURCE   /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "reports/text/safe.h"

struct safe {
	FILE *under;
	int md;
	int c2;      /* a 0xC2 held back: the next byte says if it began a C1 control */
	int at;      /* an @ held back: the next byte says if it began a mention */
};

static int is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
	struct safe *s = cookie;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (s->at) {
			s->at = 0;
			fputs(is_word(c) ? "&#64;" : "@", s->under);
		}
		if (s->c2) {
			s->c2 = 0;
			if (c >= 0x80 && c <= 0x9f) {
				fprintf(s->under, "\\u%04x", c);
				continue;
			}
			fputc(0xc2, s->under);
		}
		if (c == 0xc2)
			s->c2 = 1;
		else if (c == '@' && s->md)
			s->at = 1;
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			fprintf(s->under, "\\x%02x", c);
		else
			fputc(c, s->under);
	}
	return ferror(s->under) ? -1 : (ssize_t)n;
}

static int safe_close(void *cookie)
{
	struct safe *s = cookie;

	if (s->at)
		fputc('@', s->under);
	if (s->c2)
		fputc(0xc2, s->under);
	free(s);
	return 0;
}

FILE *bt_safe_open(FILE *under, int markdown)
{
	static const cookie_io_functions_t io = { NULL, safe_write, NULL, safe_close };
	struct safe *s = bt_xcalloc(1, sizeof *s);
	FILE *f;

	s->under = under;
	s->md = markdown;
	if (!(f = fopencookie(s, "w", io))) {
		free(s);
		return under;   /* written as it is rather than not at all */
	}
	return f;
}

int bt_safe_close(FILE *f, FILE *under)
{
	if (f == under)
		return 0;
	return fclose(f);
}

int bt_tty_width(FILE *fp)
{
	struct winsize ws;

	if (fp && isatty(fileno(fp)) && !ioctl(fileno(fp), TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}
