/*
 * Shared by every module: an error value that library code fills instead of
 * printing, allocation helpers that never return NULL, and a growable string.
 *
 * Library code (specs/, dwarf/, gates/, tracer/) never prints and never exits:
 * it returns -1 and leaves the reason in a struct rg_err.  Only runner/ talks
 * to the user.
 */
#ifndef RACEGATE_MSG_H
#define RACEGATE_MSG_H

#include <stdarg.h>
#include <stddef.h>

#define RG_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* One error message, lowercase, no full stop, subject quoted. */
typedef struct rg_err {
	char msg[1024];
} rg_err;
#define RG_ERR_INIT {{0}}

/* Sets e (if not NULL) to the formatted message and returns -1. */
int rg_error(rg_err *e, const char *fmt, ...) RG_PRINTF(2, 3);
/* Prefixes e's message with the formatted text and ": "; returns -1. */
int rg_error_prefix(rg_err *e, const char *fmt, ...) RG_PRINTF(2, 3);

/*
 * Messages to the user, for runner/ and for a library's broken invariant.
 * Each prints one line "racegate: ..." on stderr.
 *   rg_say    "racegate: ...": an error runner/ reports, then returns its
 *             exit status (cleaning up on the way, unlike rg_die)
 *   rg_warn   "racegate: warning: ..."; the run goes on
 *   rg_trace  only once rg_set_verbose(1) was called (--verbose)
 *   rg_die    prints and exits with status 2 (setup cannot go on)
 *   rg_bug    a broken invariant: "racegate: BUG: file:line: ..." and abort();
 *             use it where code "cannot" reach, never for bad input
 */
void rg_set_verbose(int level);
int rg_verbose(void);
void rg_say(const char *fmt, ...) RG_PRINTF(1, 2);
void rg_warn(const char *fmt, ...) RG_PRINTF(1, 2);
void rg_trace(const char *fmt, ...) RG_PRINTF(1, 2);
_Noreturn void rg_die(const char *fmt, ...) RG_PRINTF(1, 2);
_Noreturn void rg_bug_at(const char *file, int line, const char *fmt, ...) RG_PRINTF(3, 4);
#define rg_bug(...) rg_bug_at(__FILE__, __LINE__, __VA_ARGS__)
/* rg_bug unless cond holds. */
#define RG_ASSERT(cond) \
	do { if (!(cond)) rg_bug("assertion failed: %s", #cond); } while (0)

/* Allocation that reports and aborts on exhaustion, never returns NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) RG_PRINTF(1, 2);
/* The last component of path ("a/b.c" -> "b.c"); NULL for NULL. */
const char *rg_base_name(const char *path);

/* Grows array p (of *cap elements) so that it holds at least n elements. */
#define RG_GROW(p, n, cap)                                                   \
	do {                                                                 \
		if ((size_t)(n) > (cap)) {                                   \
			size_t rg_nc_ = (cap) ? (cap) * 2 : 8;               \
			while (rg_nc_ < (size_t)(n))                         \
				rg_nc_ *= 2;                                 \
			(p) = xrealloc((p), rg_nc_ * sizeof(*(p)));          \
			(cap) = rg_nc_;                                      \
		}                                                            \
	} while (0)

/* A growable NUL-terminated string. */
typedef struct rg_buf {
	char *s;     /* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
} rg_buf;
#define RG_BUF_INIT {NULL, 0, 0}

void rg_buf_add(rg_buf *b, const char *s, size_t n);
void rg_buf_puts(rg_buf *b, const char *s);
void rg_buf_printf(rg_buf *b, const char *fmt, ...) RG_PRINTF(2, 3);
void rg_buf_vprintf(rg_buf *b, const char *fmt, va_list ap);
/* Returns the string ("" when empty) and leaves b empty; caller frees. */
char *rg_buf_detach(rg_buf *b);
void rg_buf_release(rg_buf *b);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t rg_edit_distance(const char *a, const char *b);

#endif
