/*
 * explore: the program's stdin (explore_int.h).  The input is part of the
 * test: racegate's stdin, unless it is a terminal or closed, is read once
 * to its end before the first schedule, and every run (the schedules, the
 * shrinking, the replays of the gates file) gets those same bytes from a
 * file of its own (session.c).  The gates file says them (stdin:), and so
 * does the replay command.
 */
#include "explore_int.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"

/* stdin not ended after this long: explore says what it waits for */
#define STDIN_NOTE_MS 2000
/* stdin said as text in the gates file up to this many bytes; past it, a file */
#define STDIN_TEXT_MAX 4096
/* stdin given by printf in the replay command up to this many bytes */
#define STDIN_SHELL_MAX 512

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Appends what stdin has now; 1 at its end, 0 more to come, -1 error (said). */
static int read_some(rg_buf *b)
{
	char chunk[65536];
	ssize_t n = read(STDIN_FILENO, chunk, sizeof(chunk));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n < 0) {
		rg_say("cannot read the program's stdin: %s", strerror(errno));
		return -1;
	}
	if (!n)
		return 1;
	if (b->len + (size_t)n > SPEC_MAX_STDIN) {
		rg_say("the program's stdin holds more than %u MiB: explore reads it "
		       "whole, to give every schedule the same bytes; give it less",
		       SPEC_MAX_STDIN >> 20);
		return -1;
	}
	rg_buf_add(b, chunk, (size_t)n);
	return 0;
}

int explore_read_stdin(struct xctx *c, unsigned closed_std)
{
	rg_buf b = RG_BUF_INIT;
	struct timespec t0;
	bool said = false;
	int r = 0;

	if ((closed_std & 1) || isatty(STDIN_FILENO))
		return 0;      /* closed, or a person: the program's as it was */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (r == 0) {
		struct pollfd pf[2] = { { STDIN_FILENO, POLLIN, 0 },
					{ interrupt_fd(), POLLIN, 0 } };
		long left = STDIN_NOTE_MS - ms_since(&t0);
		int n = poll(pf, pf[1].fd >= 0 ? 2 : 1, said ? -1 : left > 0 ? (int)left : 0);

		if (interrupt_signal()) {
			r = 1;
		} else if (n < 0 && errno != EINTR) {
			rg_say("cannot read the program's stdin: %s", strerror(errno));
			r = -1;
		} else if (n == 0 && !said) {
			rg_warn("the program's stdin has not ended after %d s: explore reads "
				"it to its end first, to give every schedule the same bytes "
				"(</dev/null if the program reads none)", STDIN_NOTE_MS / 1000);
			said = true;
		} else if (n > 0 && pf[0].revents) {
			r = read_some(&b);
		}
	}
	if (r == 1 && !interrupt_signal()) {
		c->ro.has_stdin = true;
		c->ro.stdin_len = b.len;
		c->ro.stdin_data = c->stdin_buf = rg_buf_detach(&b);
		rg_trace("the program's stdin: %zu bytes, given to every run", b.len);
		return 0;
	}
	rg_buf_release(&b);
	return r;
}

/* The code point at s (n bytes left) in valid UTF-8, its length in *len; -1 when not. */
static long utf8_at(const unsigned char *s, size_t n, size_t *len)
{
	static const long min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t k = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 :
		   (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	long cp;

	if (!k || k > n)
		return -1;
	cp = k == 1 ? s[0] : s[0] & (0x7f >> k);
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = k;
	return cp;
}

char *explore_stdin_yaml(const char *data, size_t n)
{
	const unsigned char *s = (const unsigned char *)data;
	rg_buf b = RG_BUF_INIT;

	if (n > STDIN_TEXT_MAX)
		return NULL;
	rg_buf_puts(&b, "\"");
	for (size_t i = 0, k = 0; i < n; i += k) {
		long cp = utf8_at(s + i, n - i, &k);

		if (cp < 0) {
			rg_buf_release(&b);
			return NULL;   /* not text: a file says it */
		}
		if (cp == '"' || cp == '\\')
			rg_buf_printf(&b, "\\%c", (int)cp);
		else if (cp == '\n' || cp == '\t' || cp == '\r')
			rg_buf_puts(&b, cp == '\n' ? "\\n" : cp == '\t' ? "\\t" : "\\r");
		else if (cp < 0x20 || cp == 0x7f)
			rg_buf_printf(&b, cp ? "\\x%02lx" : "\\0", cp);
		/* a C1 control, a line or paragraph separator (YAML folds those),
		 * a byte-order mark, a non-character: escaped */
		else if ((cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029 ||
			 cp == 0xfeff || cp == 0xfffe || cp == 0xffff)
			rg_buf_printf(&b, "\\u%04lx", cp);
		else
			rg_buf_add(&b, data + i, k);
	}
	rg_buf_puts(&b, "\"");
	return rg_buf_detach(&b);
}

bool explore_stdin_printf(rg_buf *b, const char *data, size_t n)
{
	if (n > STDIN_SHELL_MAX)
		return false;
	/* printf's format: \\ and %% for themselves, \NNN for any byte */
	rg_buf_puts(b, "printf '");
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)data[i];

		if (ch == '\\' || ch == '%')
			rg_buf_printf(b, "%c%c", ch, ch);
		else if (ch == '\'')
			rg_buf_puts(b, "'\\''");
		else if (ch == '\n')
			rg_buf_puts(b, "\\n");
		else if (ch < 0x20 || ch >= 0x7f)
			rg_buf_printf(b, "\\%03o", ch);
		else
			rg_buf_add(b, (const char *)&ch, 1);
	}
	rg_buf_puts(b, "' | ");
	return true;
}
