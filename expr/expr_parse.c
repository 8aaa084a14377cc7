/*
 * Condition text -> syntax tree, names not looked up (expr_compile.c does
 * that per scope).  A hand-written recursive-descent parser over C's
 * expression grammar without assignment, ++/--, comma, calls and ?:;
 * docs/gates.md "Conditions" has the grammar.
 *
 * Casts need to know type names, which only the scope knows: "(NAME)" is a
 * cast when what follows can only start an operand (a name, a number, '(',
 * '!', '~', sizeof, $...), a parenthesised operand when what follows is an
 * operator.  So "(uint32_t)-x" is "uint32_t minus x", as gdb reads it too
 * without the typedef; "(uint32_t)(-x)" is the cast.  "(T *)" and "(struct
 * T)" are always types.
 *
 * Recursion and tree height are bounded (EXPR_MAX_HEIGHT), so no input
 * exhausts the stack here or in the passes that walk the tree.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"
#include "expr_msg.h"
#include "msg.h"

enum tok { T_END, T_NAME, T_DOLLAR, T_NUM, T_CHAR, T_STR, T_PUNCT, T_BAD };

typedef struct lexer {
	const char *s;
	size_t pos;       /* of the current token */
	size_t next;      /* just past it */
	enum tok tok;
	char punct[4];    /* T_PUNCT text */
} lexer;

typedef struct parser {
	lexer lx;
	expr *e;
	int depth;
	bool failed;
	expr_error *err;
} parser;

static int fail(parser *p, size_t off, const char *fmt, ...) RG_PRINTF(3, 4);

static int fail(parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return -1;
	p->failed = true;
	if (p->err) {
		p->err->off = off;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Longest first, so "->" is not "-" then ">". */
static const char *const puncts[] = {
	"->", "::", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"(", ")", "[", "]", ".", ",", "?", ":", "+", "-", "*", "/", "%", "<",
	">", "&", "|", "^", "!", "~", "=", "{", "}", ";",
};

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* Skips a quoted literal from s[i] (the quote); returns past the closing quote, or 0. */
static size_t skip_quoted(const char *s, size_t i)
{
	char q = s[i++];

	while (s[i] && s[i] != q) {
		if (s[i] == '\\' && s[i + 1])
			i++;
		i++;
	}
	return s[i] == q ? i + 1 : 0;
}

static void lex(lexer *lx)
{
	const char *s = lx->s;
	size_t i = lx->next, k;

	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	lx->pos = i;
	if (!s[i]) {
		lx->tok = T_END;
	} else if (isalpha((unsigned char)s[i]) || s[i] == '_' || s[i] == '$') {
		lx->tok = s[i] == '$' ? T_DOLLAR : T_NAME;
		for (i++; is_ident((unsigned char)s[i]); i++)
			;
	} else if (isdigit((unsigned char)s[i])) {
		lx->tok = T_NUM;
		for (; is_ident((unsigned char)s[i]) || s[i] == '.'; i++)
			;
	} else if (s[i] == '\'' || s[i] == '"') {
		lx->tok = s[i] == '\'' ? T_CHAR : T_STR;
		k = skip_quoted(s, i);
		if (!k) {
			lx->tok = T_BAD;
			i++;
		} else {
			i = k;
		}
	} else {
		lx->tok = T_BAD;
		for (k = 0; k < sizeof(puncts) / sizeof(puncts[0]); k++) {
			size_t n = strlen(puncts[k]);

			if (!strncmp(s + i, puncts[k], n)) {
				lx->tok = T_PUNCT;
				memcpy(lx->punct, puncts[k], n + 1);
				i += n;
				break;
			}
		}
		if (lx->tok == T_BAD)
			i++;
	}
	lx->next = i;
}

static bool is_p(const parser *p, const char *punct)
{
	return p->lx.tok == T_PUNCT && !strcmp(p->lx.punct, punct);
}

static bool is_word(const parser *p, const char *w)
{
	size_t n = strlen(w);

	return p->lx.tok == T_NAME && p->lx.next - p->lx.pos == n &&
	       !strncmp(p->lx.s + p->lx.pos, w, n);
}

static const char *tok_text(const parser *p, char *buf, size_t n)
{
	size_t len = p->lx.next - p->lx.pos;

	if (len >= n)
		len = n - 1;
	memcpy(buf, p->lx.s + p->lx.pos, len);
	buf[len] = '\0';
	return buf;
}

static int unexpected(parser *p)
{
	char buf[32];

	if (p->lx.tok == T_END)
		return fail(p, p->lx.pos, EM_END);
	if (is_p(p, "="))
		return fail(p, p->lx.pos, EM_ASSIGN);
	if (is_p(p, "++") || is_p(p, "--"))
		return fail(p, p->lx.pos, EM_INCDEC, p->lx.punct);
	if (is_p(p, "?") || is_p(p, ":"))
		return fail(p, p->lx.pos, EM_TERNARY);
	if (is_p(p, ","))
		return fail(p, p->lx.pos, EM_COMMA);
	if (p->lx.tok == T_STR)
		return fail(p, p->lx.pos, EM_STRING);
	if (p->lx.tok == T_BAD && (p->lx.s[p->lx.pos] == '"' || p->lx.s[p->lx.pos] == '\''))
		return fail(p, p->lx.pos, p->lx.s[p->lx.pos] == '"' ? EM_BAD_STRLIT : EM_BAD_CHAR);
	return fail(p, p->lx.pos, EM_UNEXPECTED, tok_text(p, buf, sizeof(buf)));
}

static expr_node *node(parser *p, enum expr_node_kind k, size_t off, size_t end)
{
	expr_node *n = xcalloc(1, sizeof(*n));
	expr *e = p->e;

	RG_GROW(e->nodes, e->nnodes + 1, e->cap);
	e->nodes[e->nnodes++] = n;
	n->kind = k;
	n->off = off;
	n->len = end - off;
	n->height = 1;
	return n;
}

/* Links children; fails when the tree would grow too tall. */
static expr_node *link2(parser *p, expr_node *n, expr_node *a, expr_node *b)
{
	n->a = a;
	n->b = b;
	if (a && a->height + 1 > n->height)
		n->height = a->height + 1;
	if (b && b->height + 1 > n->height)
		n->height = b->height + 1;
	if (n->height > EXPR_MAX_HEIGHT) {
		fail(p, n->off, EM_TOO_DEEP);
		return NULL;
	}
	return n;
}

/* ---- literals ---- */

/* One character of a char or string literal at s[*i]; advances *i. */
static int unescape(parser *p, const char *s, size_t *i, unsigned char *out)
{
	size_t at = *i;
	unsigned v = 0;
	int n;

	if (s[*i] != '\\') {
		*out = (unsigned char)s[(*i)++];
		return 0;
	}
	(*i)++;
	switch (s[*i]) {
	case 'n': v = '\n'; break;
	case 't': v = '\t'; break;
	case 'r': v = '\r'; break;
	case 'a': v = '\a'; break;
	case 'b': v = '\b'; break;
	case 'f': v = '\f'; break;
	case 'v': v = '\v'; break;
	case 'e': v = 27; break;
	case '\\': case '\'': case '"': case '?': v = (unsigned char)s[*i]; break;
	case 'x':
		for (n = 0; isxdigit((unsigned char)s[*i + 1]) && n < 2; n++) {
			(*i)++;
			v = v * 16 + (unsigned)(isdigit((unsigned char)s[*i]) ? s[*i] - '0' :
						(tolower((unsigned char)s[*i]) - 'a' + 10));
		}
		if (!n)
			return fail(p, at, EM_BAD_ESCAPE, 'x');
		break;
	default:
		if (s[*i] < '0' || s[*i] > '7')
			return fail(p, at, EM_BAD_ESCAPE, s[*i]);
		for (n = 0; s[*i] >= '0' && s[*i] <= '7' && n < 3; n++)
			v = v * 8 + (unsigned)(s[(*i)++] - '0');
		(*i)--;
		if (v > 255)
			return fail(p, at, EM_BAD_CHAR);
	}
	(*i)++;
	*out = (unsigned char)v;
	return 0;
}

static expr_node *char_lit(parser *p)
{
	const char *s = p->lx.s;
	size_t i = p->lx.pos + 1;
	unsigned char c;
	expr_node *n;

	if (s[i] == '\'' || unescape(p, s, &i, &c))
		return fail(p, p->lx.pos, EM_BAD_CHAR), NULL;
	if (i != p->lx.next - 1)
		return fail(p, p->lx.pos, EM_BAD_CHAR), NULL;
	n = node(p, N_NUM, p->lx.pos, p->lx.next);
	n->num = (uint64_t)(int64_t)(signed char)c;  /* char is signed on the psABI */
	n->num_char = true;
	return n;
}

/* Integer literal in C forms: 42, 0x2a, 052, 0b101, with u/l/ul/ll/ull suffixes. */
static expr_node *num_lit(parser *p)
{
	const char *s = p->lx.s + p->lx.pos;
	size_t len = p->lx.next - p->lx.pos, i = 0;
	unsigned base = 10, d;
	uint64_t v = 0;
	bool over = false, u = false, l = false;
	expr_node *n;

	if (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, i = 2;
	else if (len > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, i = 2;
	else if (s[0] == '0')
		base = 8;
	if (base != 16 && memchr(s, '.', len))
		return fail(p, p->lx.pos, EM_FLOAT), NULL;
	if ((base == 16 || base == 2) && (i == len || !isxdigit((unsigned char)s[i])))
		return fail(p, p->lx.pos, EM_BAD_NUMBER), NULL;
	for (; i < len && isxdigit((unsigned char)s[i]); i++) {
		d = isdigit((unsigned char)s[i]) ? (unsigned)(s[i] - '0') :
			(unsigned)(tolower((unsigned char)s[i]) - 'a' + 10);
		if (d >= base) {
			if (base == 10 && (s[i] == 'e' || s[i] == 'E'))
				return fail(p, p->lx.pos, EM_FLOAT), NULL;
			return fail(p, p->lx.pos, EM_BAD_NUMBER), NULL;
		}
		if (v > (UINT64_MAX - d) / base)
			over = true;
		v = v * base + d;
	}
	if (i < len && s[i] == '.')
		return fail(p, p->lx.pos, EM_FLOAT), NULL;
	for (; i < len; i++) {
		if ((s[i] == 'u' || s[i] == 'U') && !u)
			u = true;
		else if ((s[i] == 'l' || s[i] == 'L') && !l)
			l = true, i += (i + 1 < len && s[i + 1] == s[i]);
		else
			return fail(p, p->lx.pos, EM_BAD_NUMBER), NULL;
	}
	if (over)
		return fail(p, p->lx.pos, EM_BIG_NUMBER), NULL;
	n = node(p, N_NUM, p->lx.pos, p->lx.next);
	n->num = v;
	/* C11 6.4.4.1: the first type of the list that holds the value. */
	if (u && l)
		n->num_long = n->num_unsigned = true;
	else if (u)
		n->num_long = v > 0xffffffffu, n->num_unsigned = true;
	else if (l)
		n->num_long = true, n->num_unsigned = v > INT64_MAX;
	else if (v <= 0x7fffffff)
		;
	else if (base != 10 && v <= 0xffffffffu)
		n->num_unsigned = true;
	else
		n->num_long = true, n->num_unsigned = v > INT64_MAX;
	return n;
}

static int str_lit(parser *p, expr_node *n)
{
	const char *s = p->lx.s;
	size_t i = p->lx.pos + 1, end = p->lx.next - 1, k = 0;
	char buf[EXPR_MAX_STR + 1];
	unsigned char c;

	while (i < end) {
		if (unescape(p, s, &i, &c))
			return -1;
		if (k == EXPR_MAX_STR)
			return fail(p, p->lx.pos, EM_LONG_STRLIT, EXPR_MAX_STR);
		buf[k++] = (char)c;
	}
	n->str = xmalloc(k + 1);
	memcpy(n->str, buf, k);
	n->str[k] = '\0';
	n->strlen = k;
	return 0;
}

/* ---- grammar ---- */

static expr_node *cond(parser *p);
static expr_node *unary(parser *p);

/* NAME ('::' NAME)* or '::' NAME ...; into a new string. */
static char *qualified(parser *p, size_t *end)
{
	char *out = NULL;
	size_t n = 0, cap = 0;

	RG_GROW(out, 1, cap);
	out[0] = '\0';
	for (;;) {
		if (is_p(p, "::")) {
			RG_GROW(out, n + 3, cap);
			memcpy(out + n, "::", 3);
			n += 2;
			lex(&p->lx);
			if (p->lx.tok != T_NAME) {
				free(out);
				fail(p, p->lx.pos, p->lx.tok == T_END ? EM_END : "expected a name after '::'");
				return NULL;
			}
		}
		if (p->lx.tok != T_NAME)
			break;
		RG_GROW(out, n + (p->lx.next - p->lx.pos) + 1, cap);
		memcpy(out + n, p->lx.s + p->lx.pos, p->lx.next - p->lx.pos);
		n += p->lx.next - p->lx.pos;
		out[n] = '\0';
		*end = p->lx.next;
		lex(&p->lx);
		if (!is_p(p, "::"))
			break;
	}
	return out;
}

static bool type_keyword(const parser *p)
{
	static const char *const kw[] = {
		"struct", "union", "enum", "class", "unsigned", "signed", "int",
		"long", "short", "char", "_Bool", "bool", "const", "volatile", "void",
		"float", "double",
	};
	size_t i;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (is_word(p, kw[i]))
			return true;
	return false;
}

/* Can the current token only start an operand (not continue an expression)? */
static bool starts_operand_only(const parser *p)
{
	return p->lx.tok == T_NAME || p->lx.tok == T_NUM || p->lx.tok == T_CHAR ||
	       p->lx.tok == T_DOLLAR || is_p(p, "(") || is_p(p, "!") || is_p(p, "~") ||
	       is_p(p, "::");
}

/*
 * At '(' (already the current token): is a type name inside?  strict: a
 * lone "(NAME)" counts only when an operand follows (a cast).
 */
static bool looks_like_type(parser *p, bool strict)
{
	lexer save = p->lx;
	bool r = false;
	int words = 0, stars = 0;

	lex(&p->lx);
	if (type_keyword(p)) {
		r = true;
		goto out;
	}
	while (p->lx.tok == T_NAME || is_p(p, "::")) {
		if (p->lx.tok == T_NAME)
			words++;
		lex(&p->lx);
	}
	if (!words)
		goto out;
	while (is_p(p, "*")) {
		stars++;
		lex(&p->lx);
	}
	if (!is_p(p, ")"))
		goto out;
	if (words > 1 || stars > 0) {
		r = true;
		goto out;
	}
	lex(&p->lx);
	r = strict && starts_operand_only(p);
out:
	p->lx = save;
	return r;
}

/* '(' type-name ')' with the current token at '('; fills tn. */
static int type_name(parser *p, expr_tname *tn, size_t *end)
{
	char *words = NULL;
	size_t n = 0, cap = 0;
	size_t len;

	lex(&p->lx);
	RG_GROW(words, 1, cap);
	words[0] = '\0';
	while (p->lx.tok == T_NAME || is_p(p, "::")) {
		len = p->lx.next - p->lx.pos;
		if (is_word(p, "const") || is_word(p, "volatile")) {
			lex(&p->lx);
			continue;
		}
		RG_GROW(words, n + len + 2, cap);
		/* one space between two words, none around "::" */
		if (n && p->lx.tok == T_NAME && words[n - 1] != ':')
			words[n++] = ' ';
		memcpy(words + n, p->lx.s + p->lx.pos, len);
		n += len;
		words[n] = '\0';
		lex(&p->lx);
	}
	tn->words = words;
	if (!n)
		return fail(p, p->lx.pos, EM_TYPE_NAME);
	while (is_p(p, "*") || is_word(p, "const") || is_word(p, "volatile")) {
		tn->stars += is_p(p, "*");
		lex(&p->lx);
	}
	if (!is_p(p, ")"))
		return p->lx.tok == T_END ? fail(p, p->lx.pos, EM_MISSING, ")") : unexpected(p);
	*end = p->lx.next;
	lex(&p->lx);
	return 0;
}

/* $hit, $tid, $thread == ALIAS, $streq(p, "text") */
static expr_node *dollar(parser *p)
{
	size_t at = p->lx.pos;
	char buf[32];
	expr_node *n, *a;

	if (p->lx.next - at == 4 &&
	    (!strncmp(p->lx.s + at, "$hit", 4) || !strncmp(p->lx.s + at, "$tid", 4))) {
		n = node(p, p->lx.s[at + 1] == 'h' ? N_HIT : N_TID, at, p->lx.next);
		lex(&p->lx);
		return n;
	}
	if (p->lx.next - at == 7 && !strncmp(p->lx.s + at, "$thread", 7)) {
		lex(&p->lx);
		if (!is_p(p, "==") && !is_p(p, "!="))
			return fail(p, at, EM_THREAD), NULL;
		n = node(p, N_THREAD, at, at);
		n->op = p->lx.punct[0];
		lex(&p->lx);
		if (p->lx.tok != T_NAME)
			return fail(p, p->lx.tok == T_END ? at : p->lx.pos, EM_THREAD), NULL;
		n->name = xstrndup(p->lx.s + p->lx.pos, p->lx.next - p->lx.pos);
		n->len = p->lx.next - at;
		lex(&p->lx);
		return n;
	}
	if (p->lx.next - at == 6 && !strncmp(p->lx.s + at, "$streq", 6)) {
		lex(&p->lx);
		if (!is_p(p, "("))
			return fail(p, at, EM_STREQ_ARGS), NULL;
		lex(&p->lx);
		if (!(a = cond(p)))
			return NULL;
		if (!is_p(p, ","))
			return fail(p, p->lx.tok == T_END ? at : p->lx.pos, EM_STREQ_ARGS), NULL;
		lex(&p->lx);
		if (p->lx.tok == T_BAD)
			return unexpected(p), NULL;
		if (p->lx.tok != T_STR)
			return fail(p, p->lx.tok == T_END ? at : p->lx.pos, EM_STREQ_ARGS), NULL;
		n = node(p, N_STREQ, at, at);
		if (str_lit(p, n))
			return NULL;
		lex(&p->lx);
		if (!is_p(p, ")"))
			return p->lx.tok == T_END ? (fail(p, p->lx.pos, EM_MISSING, ")"), NULL) :
				(unexpected(p), NULL);
		n->len = p->lx.next - at;
		lex(&p->lx);
		return link2(p, n, a, NULL);
	}
	return fail(p, at, EM_DOLLAR, tok_text(p, buf, sizeof(buf))), NULL;
}

static expr_node *paren(parser *p)
{
	size_t at = p->lx.pos;
	expr_node *n;

	lex(&p->lx);
	if (!(n = cond(p)))
		return NULL;
	if (!is_p(p, ")"))
		return p->lx.tok == T_END ? (fail(p, p->lx.pos, EM_MISSING, ")"), NULL) :
			(unexpected(p), NULL);
	/* the parenthesised span, so "*(p+1)" is named whole */
	n->off = at;
	n->len = p->lx.next - at;
	lex(&p->lx);
	return n;
}

static expr_node *primary(parser *p)
{
	size_t at = p->lx.pos, end = at;
	expr_node *n;
	char *name;

	if (p->lx.tok == T_DOLLAR)
		return dollar(p);
	if (is_p(p, "("))
		return paren(p);
	if ((p->lx.tok == T_NAME && !type_keyword(p) && !is_word(p, "sizeof")) || is_p(p, "::")) {
		if (!(name = qualified(p, &end)))
			return NULL;
		n = node(p, N_NAME, at, end);
		n->name = name;
		return n;
	}
	if (p->lx.tok != T_NUM && p->lx.tok != T_CHAR)
		return unexpected(p), NULL;
	if ((n = p->lx.tok == T_NUM ? num_lit(p) : char_lit(p)))
		lex(&p->lx);
	return n;
}

static expr_node *postfix(parser *p)
{
	expr_node *n = primary(p), *m, *i;
	size_t start;

	while (n) {
		start = n->off;
		if (is_p(p, "[")) {
			lex(&p->lx);
			if (!(i = cond(p)))
				return NULL;
			if (!is_p(p, "]"))
				return p->lx.tok == T_END ? (fail(p, p->lx.pos, EM_MISSING, "]"), NULL) :
					(unexpected(p), NULL);
			m = node(p, N_INDEX, start, p->lx.next);
			lex(&p->lx);
			n = link2(p, m, n, i);
		} else if (is_p(p, ".") || is_p(p, "->")) {
			enum expr_node_kind k = is_p(p, ".") ? N_MEMBER : N_ARROW;
			size_t op = p->lx.pos;

			lex(&p->lx);
			if (p->lx.tok != T_NAME)
				return fail(p, p->lx.pos, EM_MEMBER_NAME), NULL;
			m = node(p, k, start, p->lx.next);
			m->opoff = op;
			m->name = xstrndup(p->lx.s + p->lx.pos, p->lx.next - p->lx.pos);
			lex(&p->lx);
			n = link2(p, m, n, NULL);
		} else {
			break;
		}
	}
	return n;
}

static expr_node *unary_op(parser *p)
{
	size_t at = p->lx.pos;
	int op = p->lx.punct[0];
	expr_node *a, *n;

	lex(&p->lx);
	if (!(a = unary(p)))
		return NULL;
	n = node(p, N_UNARY, at, a->off + a->len);
	n->op = op;
	return link2(p, n, a, NULL);
}

static expr_node *sizeof_op(parser *p)
{
	size_t at = p->lx.pos, end;
	expr_node *n, *a;

	lex(&p->lx);
	if (is_p(p, "(") && looks_like_type(p, false)) {
		n = node(p, N_SIZEOF_T, at, at);
		if (type_name(p, &n->tname, &end))
			return NULL;
		n->len = end - at;
		return n;
	}
	if (!(a = unary(p)))
		return NULL;
	n = node(p, N_SIZEOF_E, at, a->off + a->len);
	n->paren_name = a->kind == N_NAME && p->lx.s[a->off] == '(';
	return link2(p, n, a, NULL);
}

static expr_node *unary(parser *p)
{
	size_t at = p->lx.pos, end;
	expr_node *n, *a;

	if (++p->depth > EXPR_MAX_HEIGHT)
		return fail(p, at, EM_TOO_DEEP), NULL;
	if (p->lx.tok == T_PUNCT && strchr("-+!~*&", p->lx.punct[0]) && !p->lx.punct[1]) {
		n = unary_op(p);
	} else if (is_p(p, "++") || is_p(p, "--")) {
		n = (unexpected(p), NULL);
	} else if (is_word(p, "sizeof")) {
		n = sizeof_op(p);
	} else if (is_p(p, "(") && looks_like_type(p, true)) {
		n = node(p, N_CAST, at, at);
		if (type_name(p, &n->tname, &end) || !(a = unary(p)))
			return NULL;
		n->len = a->off + a->len - at;
		n = link2(p, n, a, NULL);
	} else {
		n = postfix(p);
	}
	p->depth--;
	return n;
}

/* Binary operators by precedence class, loosest first. */
static const struct { const char *op; int cls; enum expr_binop b; } binops[] = {
	{"||", 0, B_LOR}, {"&&", 1, B_LAND}, {"|", 2, B_BOR}, {"^", 3, B_BXOR},
	{"&", 4, B_BAND}, {"==", 5, B_EQ}, {"!=", 5, B_NE}, {"<", 6, B_LT},
	{"<=", 6, B_LE}, {">", 6, B_GT}, {">=", 6, B_GE}, {"<<", 7, B_SHL},
	{">>", 7, B_SHR}, {"+", 8, B_ADD}, {"-", 8, B_SUB}, {"*", 9, B_MUL},
	{"/", 9, B_DIV}, {"%", 9, B_MOD},
};
#define NCLASSES 10

static int binop_at(const parser *p, int cls)
{
	size_t i;

	if (p->lx.tok != T_PUNCT)
		return -1;
	for (i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
		if (binops[i].cls == cls && !strcmp(binops[i].op, p->lx.punct))
			return (int)binops[i].b;
	return -1;
}

static expr_node *binary(parser *p, int cls)
{
	expr_node *a, *b, *n;
	int op;

	if (cls == NCLASSES)
		return unary(p);
	if (!(a = binary(p, cls + 1)))
		return NULL;
	while ((op = binop_at(p, cls)) >= 0) {
		size_t opoff = p->lx.pos;

		lex(&p->lx);
		if (!(b = binary(p, cls + 1)))
			return NULL;
		n = node(p, N_BINARY, a->off, b->off + b->len);
		n->op = op;
		n->opoff = opoff;
		if (!(a = link2(p, n, a, b)))
			return NULL;
	}
	return a;
}

static expr_node *cond(parser *p)
{
	return binary(p, 0);
}

void expr_free(expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nnodes; i++) {
		free(e->nodes[i]->name);
		free(e->nodes[i]->str);
		free(e->nodes[i]->tname.words);
		free(e->nodes[i]);
	}
	free(e->nodes);
	free(e->text);
	free(e);
}

int expr_parse(const char *text, expr **out, expr_error *err)
{
	parser p;
	expr *e;

	*out = NULL;
	memset(&p, 0, sizeof(p));
	p.err = err;
	if (strlen(text) > EXPR_MAX_LEN)
		return fail(&p, EXPR_MAX_LEN, EM_TOO_LONG, EXPR_MAX_LEN);
	e = xcalloc(1, sizeof(*e));
	e->text = xstrdup(text);
	p.e = e;
	p.lx.s = e->text;
	lex(&p.lx);
	if (p.lx.tok == T_END)
		fail(&p, 0, EM_EMPTY);
	else if ((e->root = cond(&p)) && p.lx.tok != T_END)
		unexpected(&p);
	if (p.failed || !e->root) {
		expr_free(e);
		return -1;
	}
	*out = e;
	return 0;
}

const char *expr_text(const expr *e)
{
	return e->text;
}

size_t expr_thread_aliases(const expr *e, const char **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < e->nnodes; i++) {
		if (e->nodes[i]->kind != N_THREAD)
			continue;
		if (n < max)
			out[n] = e->nodes[i]->name;
		n++;
	}
	return n;
}
