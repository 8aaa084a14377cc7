/* C++ names as the demangler prints them (cxxname.h). */
#include "cxxname.h"

#include <stdbool.h>
#include <string.h>

/* Does an operator's name start at p ("operator()", "operator<<")? */
static bool operator_at(const char *name, const char *p)
{
	char c;

	/* p[8] is past the end of a name that ends within 8 bytes of p */
	if (strncmp(p, "operator", 8))
		return false;
	c = p[8];
	return (p == name || p[-1] == ':' || p[-1] == ' ') &&
	       c && c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
	       !(c >= '0' && c <= '9');
}

const char *rg_cxx_trailing_params(const char *name)
{
	const char *p, *open = NULL;
	int depth = 0;

	for (p = name; *p; p++) {
		if (!depth && operator_at(name, p)) {
			/* the operator's symbol is its name: skip to its parameters */
			p += 8;
			if (p[0] == '(' && p[1] == ')')
				p += 2;
			while (*p == ' ')
				p++;
			while (*p && *p != '(' && *p != ':')
				p++;
			if (!*p)
				break;
			p--;
			continue;
		}
		if (*p == '<' || *p == '{' || *p == '[' || *p == '(') {
			if (*p == '(' && !depth)
				open = p;
			depth++;
		} else if ((*p == '>' || *p == '}' || *p == ']' || *p == ')') && depth) {
			depth--;
		} else if (!depth && p[0] == ':' && p[1] == ':') {
			open = NULL;   /* a scope: what came before was no parameter list */
		}
	}
	return open;
}
