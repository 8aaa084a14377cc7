/*
 * Every message expr gives, in one place: docs/gates.md's table of condition
 * errors and tests/check_expr.c list these.  printf formats; %s arguments
 * are quoted here, never by the caller.
 */
#ifndef RACEGATE_EXPR_MSG_H
#define RACEGATE_EXPR_MSG_H

/* ---- syntax (expr_parse) ---- */
#define EM_EMPTY        "the condition is empty"
#define EM_TOO_LONG     "the condition is longer than %d bytes"
#define EM_TOO_DEEP     "the condition is nested too deeply"
#define EM_END          "expected a value at the end"
#define EM_UNEXPECTED   "unexpected '%s'"
#define EM_ASSIGN       "'=' is assignment; compare with '=='"
#define EM_INCDEC       "'%s' changes the program; conditions only read"
#define EM_TERNARY      "'?:' is not supported; combine conditions with && and ||"
#define EM_COMMA        "',' is not supported; combine conditions with && and ||"
#define EM_STRING       "strings are not supported"
#define EM_FLOAT        "only integers are supported, not floating point"
#define EM_BAD_NUMBER   "bad number"
#define EM_BIG_NUMBER   "number too large for 64 bits"
#define EM_BAD_CHAR     "bad character constant"
#define EM_BAD_ESCAPE   "unknown escape '\\%c'"
#define EM_BAD_STRLIT   "unterminated string"
#define EM_LONG_STRLIT  "$streq's text is longer than %d bytes"
#define EM_MISSING      "missing '%s'"
#define EM_MEMBER_NAME  "expected a member name"
#define EM_DOLLAR       "unknown variable '%s' (there are $hit, $tid, $thread and $streq)"
#define EM_THREAD       "'$thread' is only compared with a thread alias: '$thread == ALIAS' or '$thread != ALIAS'"
#define EM_STREQ_ARGS   "$streq takes a char pointer and a string: $streq(p, \"text\")"
#define EM_TYPE_NAME    "expected a type name"

/* ---- types (expr_compile) ---- */
#define EM_NOT_VISIBLE  "'%s' is not visible at %s"           /* + "; visible there: a, b" */
#define EM_OPTIMIZED    "'%s' is optimized out at %s"
#define EM_UNREADABLE   "'%s' cannot be read here: %s"
#define EM_NO_MEMBER    "'%s' has no member '%s'"             /* + "; did you mean '%s'?" */
#define EM_ARROW        "'->' on '%s', which is not a pointer to a struct"
#define EM_DOT_PTR      "'.' on a pointer: use '->'"
#define EM_DOT          "'.' on '%s', which is not a struct"
#define EM_DEREF        "cannot dereference '%s'"
#define EM_INDEX        "cannot index '%s'"
#define EM_NOT_TYPE     "'%s' is not a type"
#define EM_UNKNOWN_TYPE "unknown type '%s'"
#define EM_FLOATVAR     "floating-point values are not supported: '%s' is '%s'"
#define EM_ADDR_REG     "'&' needs a variable in memory: '%s' is in a register here"
#define EM_ADDR_VALUE   "'&' needs a variable in memory: '%s' is not stored anywhere here"
#define EM_ADDR_BITF    "'&' needs a variable in memory: '%s' is a bitfield"
#define EM_STREQ_TYPE   "$streq needs a char pointer or array, not '%s'"
#define EM_COMPARE      "cannot compare '%s' with '%s'"
#define EM_OPERANDS     "'%s' needs integer operands, not '%s'"
#define EM_ARITH        "'%s' cannot take '%s' and '%s'"
#define EM_NOT_SCALAR   "'%s' is '%s', not a number or a pointer"
#define EM_CAST         "cannot cast '%s' to '%s'"
#define EM_CAST_TO      "cannot cast to '%s': only integer, enum and pointer types"
#define EM_INCOMPLETE   "'%s' is only declared here: its members are unknown"
#define EM_SIZE         "the size of '%s' is unknown"
#define EM_WIDE         "'%s' is '%s': integers wider than 64 bits are not supported"
#define EM_BIG_VALUE    "'%s' is '%s' (%llu bytes): it is neither a number nor in memory here"
#define EM_TOO_COMPLEX  "the condition is too complex to compile"
#define EM_SPLIT        "'%s' is split between registers here"
#define EM_BAD_PLACE    "'%s' has a location racegate cannot read"

#endif
