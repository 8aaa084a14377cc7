/*
 * expr's syntax half: parsing a `when:` condition, without any program.
 * The spec loader checks conditions with it when the file loads, and so
 * needs nothing of dwarf/; expr.h (which includes this) adds compiling and
 * evaluating against a program's scope.
 */
#ifndef RACEGATE_EXPR_SYNTAX_H
#define RACEGATE_EXPR_SYNTAX_H

#include <stddef.h>

typedef struct expr expr;           /* a parsed condition */

/* An error about a condition: where in its text, and what, in words. */
typedef struct expr_error {
	size_t off;            /* byte offset into the condition's text */
	char msg[512];         /* "'qlen' is not visible at queue.c:40; visible there: q, item, n" */
} expr_error;

/*
 * Parses text (syntax only: names are not looked up).  0, or -1 with err
 * filled.  *out: free with expr_free.
 */
int expr_parse(const char *text, expr **out, expr_error *err);
void expr_free(expr *e);
const char *expr_text(const expr *e);

/* Names of `$thread == ALIAS` comparisons in e, for the spec's checks (alias must exist). */
size_t expr_thread_aliases(const expr *e, const char **out, size_t max);

#endif
