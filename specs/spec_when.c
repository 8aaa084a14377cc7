/*
 * Syntax check of a `when:` condition.  The runner evaluates conditions
 * against the traced program's variables; here we only make sure the text is
 * an expression of the supported C subset, so a typo is reported before
 * anything runs rather than at the first arrival.
 *
 *   cond    := binary
 *   binary  := unary (BINOP unary)*        C precedence, || lowest
 *   unary   := ('!' | '~' | '-' | '+' | '*' | '&') unary | postfix
 *   postfix := primary ('[' cond ']' | '.' NAME | '->' NAME)*
 *   primary := NAME | '$hit' | '$tid' | INTEGER | CHAR | '(' cond ')'
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "spec_int.h"

/* Nesting bound: recursion depth must not depend on the input's size. */
#define WHEN_MAX_DEPTH 64

enum tok {
	T_END, T_NAME, T_VAR, T_NUM, T_OP, T_LPAREN, T_RPAREN, T_LBRACK,
	T_RBRACK, T_DOT, T_ARROW, T_BAD,
};

typedef struct when_parser {
	const char *s;
	size_t pos;       /* of the current token */
	size_t next;      /* just past it */
	enum tok tok;
	char op[3];       /* T_OP text */
	int depth;
	size_t err_off;
	char *why;
	size_t whylen;
	bool failed;
} when_parser;

static const char *const binops[] = {
	/* by precedence class, lowest first; classes separated by NULL */
	"||", NULL, "&&", NULL, "|", NULL, "^", NULL, "&", NULL, "==", "!=",
	NULL, "<", "<=", ">", ">=", NULL, "<<", ">>", NULL, "+", "-", NULL,
	"*", "/", "%", NULL,
};

static int fail(when_parser *p, size_t off, const char *fmt, const char *arg)
{
	if (!p->failed) {
		p->failed = true;
		p->err_off = off;
		snprintf(p->why, p->whylen, fmt, arg);
	}
	return -1;
}

static void lex(when_parser *p)
{
	const char *s = p->s;
	size_t i = p->next;
	static const char *const ops[] = {
		"||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "|", "^", "&",
		"<", ">", "+", "-", "*", "/", "%", "!", "~",
	};
	size_t k;

	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	p->pos = i;
	if (!s[i]) {
		p->tok = T_END;
		p->next = i;
		return;
	}
	if (isalpha((unsigned char)s[i]) || s[i] == '_' || s[i] == '$') {
		p->tok = s[i] == '$' ? T_VAR : T_NAME;
		i++;
		while (isalnum((unsigned char)s[i]) || s[i] == '_')
			i++;
	} else if (isdigit((unsigned char)s[i])) {
		p->tok = T_NUM;
		while (isalnum((unsigned char)s[i]) || s[i] == '.')
			i++;
	} else if (s[i] == '\'') {
		/* 'a' or '\n': a character constant is an integer */
		p->tok = T_NUM;
		i++;
		if (s[i] == '\\' && s[i + 1])
			i++;
		if (!s[i] || s[i + 1] != '\'') {
			p->tok = T_BAD;
			i = p->pos + 1;
		} else {
			i += 2;
		}
	} else if (s[i] == '-' && s[i + 1] == '>') {
		p->tok = T_ARROW;
		i += 2;
	} else if (strchr("()[].", s[i])) {
		p->tok = s[i] == '(' ? T_LPAREN : s[i] == ')' ? T_RPAREN :
			 s[i] == '[' ? T_LBRACK : s[i] == ']' ? T_RBRACK : T_DOT;
		i++;
	} else {
		p->tok = T_BAD;
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			size_t n = strlen(ops[k]);

			if (!strncmp(s + i, ops[k], n)) {
				p->tok = T_OP;
				memcpy(p->op, ops[k], n);
				p->op[n] = '\0';
				break;
			}
		}
		i += p->tok == T_OP ? strlen(p->op) : 1;
	}
	p->next = i;
}

/* The token as text, for "unexpected '%s'". */
static const char *tok_text(when_parser *p, char *buf, size_t n)
{
	size_t len = p->next - p->pos;

	if (len >= n)
		len = n - 1;
	memcpy(buf, p->s + p->pos, len);
	buf[len] = '\0';
	return buf;
}

static int unexpected(when_parser *p)
{
	char buf[32];

	if (p->tok == T_END)
		return fail(p, p->pos, "%s", "expected a value at the end");
	if (p->tok == T_BAD && p->s[p->pos] == '=')
		return fail(p, p->pos, "%s", "'=' is assignment; compare with '=='");
	if (p->tok == T_BAD && p->s[p->pos] == '"')
		return fail(p, p->pos, "%s", "strings are not supported");
	return fail(p, p->pos, "unexpected '%s'", tok_text(p, buf, sizeof(buf)));
}

static int check_number(when_parser *p)
{
	const char *s = p->s + p->pos;
	size_t n = p->next - p->pos, i = 0;
	bool hex = false;

	if (s[0] == '\'')
		return 0;
	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		hex = true;
		i = 2;
		if (i == n || !isxdigit((unsigned char)s[i]))
			return fail(p, p->pos, "%s", "bad number");
	}
	while (i < n && (hex ? isxdigit((unsigned char)s[i]) :
			 isdigit((unsigned char)s[i])))
		i++;
	if (i < n && s[i] == '.')
		return fail(p, p->pos, "%s",
			    "only integers are supported, not floating point");
	while (i < n && strchr("uUlL", s[i]))
		i++;
	if (i < n)
		return fail(p, p->pos, "%s", "bad number");
	return 0;
}

static int binary(when_parser *p, int cls);

static int unary(when_parser *p)
{
	int r;

	if (++p->depth > WHEN_MAX_DEPTH)
		return fail(p, p->pos, "%s", "condition nested too deeply");
	if (p->tok == T_OP && strchr("!~-+*&", p->op[0]) && !p->op[1]) {
		lex(p);
		r = unary(p);
		p->depth--;
		return r;
	}
	switch (p->tok) {
	case T_NAME:
		break;
	case T_VAR:
		if (p->next - p->pos != 4 || (strncmp(p->s + p->pos, "$hit", 4) &&
					      strncmp(p->s + p->pos, "$tid", 4))) {
			char buf[32];

			return fail(p, p->pos,
				    "unknown variable '%s' (there are $hit and $tid)",
				    tok_text(p, buf, sizeof(buf)));
		}
		break;
	case T_NUM:
		if (check_number(p))
			return -1;
		break;
	case T_LPAREN:
		lex(p);
		if (binary(p, 0))
			return -1;
		if (p->tok != T_RPAREN)
			return p->tok == T_END ?
				fail(p, p->pos, "%s", "missing ')'") : unexpected(p);
		break;
	default:
		return unexpected(p);
	}
	lex(p);
	for (;;) {
		if (p->tok == T_LBRACK) {
			lex(p);
			if (binary(p, 0))
				return -1;
			if (p->tok != T_RBRACK)
				return p->tok == T_END ?
					fail(p, p->pos, "%s", "missing ']'") :
					unexpected(p);
			lex(p);
		} else if (p->tok == T_DOT || p->tok == T_ARROW) {
			lex(p);
			if (p->tok != T_NAME)
				return fail(p, p->pos, "%s",
					    "expected a member name");
			lex(p);
		} else {
			break;
		}
	}
	p->depth--;
	return 0;
}

/* Is the current token a binary operator of precedence class cls? */
static bool is_binop(when_parser *p, int cls)
{
	size_t i;
	int c = 0;

	if (p->tok != T_OP)
		return false;
	for (i = 0; i < sizeof(binops) / sizeof(binops[0]); i++) {
		if (!binops[i])
			c++;
		else if (c == cls && !strcmp(binops[i], p->op))
			return true;
	}
	return false;
}

static int binary(when_parser *p, int cls)
{
	int nclass = 10;

	/* Depth is counted in unary(): each level here is bounded by nclass. */
	if (cls == nclass) {
		if (unary(p))
			return -1;
	} else {
		if (binary(p, cls + 1))
			return -1;
		while (is_binop(p, cls)) {
			lex(p);
			if (binary(p, cls + 1))
				return -1;
		}
	}
	return 0;
}

int spec_when_check(const char *expr, size_t *off, char *why, size_t whylen)
{
	when_parser p;

	memset(&p, 0, sizeof(p));
	p.s = expr;
	p.why = why;
	p.whylen = whylen;
	lex(&p);
	if (p.tok == T_END) {
		fail(&p, 0, "%s", "the condition is empty");
	} else if (!binary(&p, 0) && p.tok != T_END) {
		unexpected(&p);
	}
	if (!p.failed)
		return 0;
	*off = p.err_off;
	return -1;
}
