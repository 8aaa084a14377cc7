#include "msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rg_error(rg_err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int rg_error_prefix(rg_err *e, const char *fmt, ...)
{
	rg_buf b = RG_BUF_INIT;
	va_list ap;
	size_t n;

	if (!e)
		return -1;
	va_start(ap, fmt);
	rg_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	rg_buf_puts(&b, ": ");
	rg_buf_puts(&b, e->msg);
	n = b.len < sizeof(e->msg) - 1 ? b.len : sizeof(e->msg) - 1;
	memcpy(e->msg, b.s, n);
	e->msg[n] = '\0';
	rg_buf_release(&b);
	return -1;
}

/* Set once by the command line before anything runs; read-only afterwards. */
static int verbose_level;

void rg_set_verbose(int level)
{
	verbose_level = level;
}

int rg_verbose(void)
{
	return verbose_level;
}

static void say(const char *kind, const char *fmt, va_list ap)
{
	rg_buf b = RG_BUF_INIT;

	rg_buf_puts(&b, "racegate: ");
	rg_buf_puts(&b, kind);
	rg_buf_vprintf(&b, fmt, ap);
	rg_buf_puts(&b, "\n");
	fputs(b.s, stderr); /* one write: lines of parallel runs do not interleave */
	rg_buf_release(&b);
}

void rg_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void rg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void rg_trace(const char *fmt, ...)
{
	va_list ap;

	if (verbose_level <= 0)
		return;
	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void rg_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	exit(2);
}

void rg_bug_at(const char *file, int line, const char *fmt, ...)
{
	rg_buf b = RG_BUF_INIT;
	va_list ap;

	rg_buf_printf(&b, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	rg_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	fprintf(stderr, "racegate: %s\n", b.s);
	rg_buf_release(&b);
	abort();
}

static void *check_alloc(void *p)
{
	if (!p) {
		fputs("racegate: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check_alloc(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check_alloc(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check_alloc(realloc(p, n ? n : 1));
}

char *xstrdup(const char *s)
{
	return check_alloc(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return check_alloc(strndup(s, n));
}

const char *rg_base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

char *xasprintf(const char *fmt, ...)
{
	rg_buf b = RG_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	rg_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return rg_buf_detach(&b);
}

void rg_buf_add(rg_buf *b, const char *s, size_t n)
{
	RG_GROW(b->s, b->len + n + 1, b->cap);
	if (n)          /* s may be NULL then: an empty array's data */
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rg_buf_puts(rg_buf *b, const char *s)
{
	rg_buf_add(b, s, strlen(s));
}

void rg_buf_vprintf(rg_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	RG_GROW(b->s, b->len + (size_t)n + 1, b->cap);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void rg_buf_printf(rg_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rg_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *rg_buf_detach(rg_buf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void rg_buf_release(rg_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

size_t rg_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *row = xcalloc(lb + 1, sizeof(*row));
	size_t d;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}
