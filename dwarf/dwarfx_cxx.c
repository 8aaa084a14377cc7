/*
 * C++ names as people write them, against names as the demangler prints
 * them: `std::string` for std::__cxx11::basic_string<char, ...>, `const T&`
 * for `T const&`, a template by its bare name (`Q::put` for Q<int>::put).
 */
#include "dwarfx_int.h"

#include <ctype.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

char *dwarfx_demangle(const char *mangled)
{
	return mangled ? cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI) : NULL;
}

const char *dwarfx_cxx_params(const char *name)
{
	const char *p;
	int depth = 0;

	/* a lambda's "{lambda(int)#1}" is a name */
	for (p = name; *p; p++) {
		if (*p == '<' || *p == '{')
			depth++;
		else if ((*p == '>' || *p == '}') && depth > 0)
			depth--;
		else if (*p == '(' && !depth) {
			if (p - name >= 8 && !strncmp(p - 8, "operator", 8) &&
			    p[1] == ')') {
				p++;
				continue;
			}
			return p;
		}
	}
	return NULL;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

char *dwarfx_cxx_squeeze(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t') {
			bool word_before = o > out && word_char(o[-1]);
			const char *n = s;

			while (*n == ' ' || *n == '\t')
				n++;
			if (word_before && word_char(*n))
				*o++ = ' ';
			s = n - 1;
			continue;
		}
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* The demangler's spellings of std::string, squeezed. */
static const char *const string_spellings[] = {
	"std::__cxx11::basic_string<char,std::char_traits<char>,std::allocator<char>>",
	"std::basic_string<char,std::char_traits<char>,std::allocator<char>>",
};

/* s (squeezed) with std::string for each spelling of it; NULL when none. */
static char *string_alias(const char *s)
{
	rg_buf b = RG_BUF_INIT;
	bool any = false;
	size_t i;

	while (*s) {
		for (i = 0; i < sizeof(string_spellings) / sizeof(string_spellings[0]); i++)
			if (!strncmp(s, string_spellings[i], strlen(string_spellings[i])))
				break;
		if (i < sizeof(string_spellings) / sizeof(string_spellings[0])) {
			s += strlen(string_spellings[i]);
			/* squeezed: ">const&" was "> const&" */
			rg_buf_puts(&b, word_char(*s) ? "std::string " : "std::string");
			any = true;
		} else {
			rg_buf_add(&b, s++, 1);
		}
	}
	if (!any) {
		rg_buf_release(&b);
		return NULL;
	}
	return rg_buf_detach(&b);
}

char *dwarfx_cxx_string_alias(const char *q)
{
	char *sq, *out;

	if (!strstr(q, "basic_string<char"))
		return NULL;
	sq = dwarfx_cxx_squeeze(q);
	out = string_alias(sq);
	free(sq);
	return out;
}

/* Is the '<' at p part of an operator's name ("operator<", "operator<<")? */
static bool operator_angle(const char *start, const char *p)
{
	while (p > start && p[-1] == '<')
		p--;
	return p - start >= 8 && !strncmp(p - 8, "operator", 8);
}

/*
 * The name part of q (before its parameter list) without template
 * arguments: "Q<int>::put" -> "Q::put"; the parameters stay.  NULL when
 * there are none.  A lambda's "{lambda(int)#1}" is a name, not arguments.
 */
char *dwarfx_cxx_untemplate(const char *q)
{
	const char *params = dwarfx_cxx_params(q), *p;
	const char *end = params ? params : q + strlen(q);
	rg_buf b = RG_BUF_INIT;
	int depth = 0;
	bool any = false;

	for (p = q; p < end; p++) {
		if (*p == '<' && (depth || !operator_angle(q, p))) {
			depth++;
			any = true;
			continue;
		}
		if (*p == '>' && depth) {
			depth--;
			continue;
		}
		if (!depth)
			rg_buf_add(&b, p, 1);
	}
	if (!any || depth) {
		rg_buf_release(&b);
		return NULL;
	}
	rg_buf_puts(&b, end);
	return rg_buf_detach(&b);
}

/*
 * One parameter, squeezed: a leading "const " moves behind the base type
 * ("const char*" -> "char const*", "const std::string&" -> "std::string
 * const&"), as the demangler writes it.
 */
static void param_norm(rg_buf *b, const char *p, size_t len)
{
	const char *base, *ops;
	int depth = 0;

	if (len <= 6 || strncmp(p, "const ", 6)) {
		rg_buf_printf(b, "%.*s", (int)len, p);
		return;
	}
	base = p + 6;
	for (ops = base; ops < p + len; ops++) {
		if (*ops == '<')
			depth++;
		else if (*ops == '>' && depth)
			depth--;
		else if (!depth && (*ops == '*' || *ops == '&'))
			break;
	}
	rg_buf_printf(b, "%.*s const%.*s", (int)(ops - base), base,
		      (int)(p + len - ops), ops);
}

char *dwarfx_cxx_normal(const char *s, bool untemplate)
{
	char *sq = dwarfx_cxx_squeeze(s), *t, *u;
	const char *params, *p, *start;
	rg_buf b = RG_BUF_INIT;
	int depth = 0;

	t = string_alias(sq);
	if (t) {
		free(sq);
		sq = t;
	}
	if (untemplate && (u = dwarfx_cxx_untemplate(sq))) {
		free(sq);
		sq = u;
	}
	params = dwarfx_cxx_params(sq);
	if (!params)
		return sq;
	rg_buf_printf(&b, "%.*s(", (int)(params - sq), sq);
	for (p = start = params + 1; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth)
			depth--;
		else if (!depth && (*p == ',' || *p == ')')) {
			param_norm(&b, start, (size_t)(p - start));
			rg_buf_add(&b, p, 1);
			if (*p == ')') {
				rg_buf_puts(&b, p + 1);
				break;
			}
			start = p + 1;
		}
	}
	free(sq);
	return rg_buf_detach(&b);
}

size_t dwarfx_tuple_args(const char *s, char **args, size_t max)
{
	const char *p = strstr(s, "std::tuple<"), *start;
	size_t n = 0;
	int depth = 0;

	if (!p)
		return 0;
	for (start = p += strlen("std::tuple<"); *p && n < max; p++) {
		if (*p == '<' || *p == '(' || *p == '{' || *p == '[')
			depth++;
		else if ((*p == ')' || *p == '}' || *p == ']') && depth)
			depth--;
		else if (*p == '>' && depth)
			depth--;
		else if (!depth && (*p == ',' || *p == '>')) {
			while (*start == ' ')
				start++;
			args[n++] = xstrndup(start, (size_t)(p - start));
			if (*p == '>')
				break;
			start = p + 1;
		}
	}
	return n;
}
