/*
 * Syntax check of a `when:` condition, by expr's own parser (expr/expr.h),
 * so a typo is reported with its position before anything runs, and the
 * loader accepts exactly the language the runner compiles.  Names are not
 * looked up here: that needs the program's scope at each location.
 */
#include <stdio.h>

#include "expr_syntax.h"
#include "spec_int.h"

int spec_when_check(const char *text, size_t *off, char *why, size_t whylen)
{
	expr_error err;
	expr *e;

	if (expr_parse(text, &e, &err) == 0) {
		expr_free(e);
		return 0;
	}
	*off = err.off;
	snprintf(why, whylen, "%s", err.msg);
	return -1;
}
