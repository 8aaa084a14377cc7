/* What an expect: regex costs regcomp: see spec_int.h. */
#include "spec_int.h"

#include <stdlib.h>

/*
 * glibc's regcomp builds its automaton by copying what a repetition
 * applies to, so stacked or nested repetitions cost exponential time and
 * memory: twenty '+' after one character take 700 MB, twenty-five never
 * finish.  A regex from a spec must not do that to racegate, so before
 * regcomp sees it, its size is estimated: every atom counts once per copy
 * the repetitions around it make (a '*', '+' or '?' counts as two copies,
 * {m,n} as n + 1).  Real expect: patterns cost tens.
 */
#define REGEX_MAX_COST 4096.0
#define REGEX_MAX_DEPTH 32

static double regex_alt(const char **p, int depth);

/* Multiplier of the repetitions that follow an atom. */
static double regex_reps(const char **p)
{
	double m = 1;

	for (;;) {
		if (**p == '*' || **p == '+' || **p == '?') {
			m *= 2;
			(*p)++;
		} else if (**p == '{') {
			const char *q = *p + 1;
			unsigned long hi = 0;
			char *end;

			if (*q < '0' || *q > '9')
				return m;       /* a literal '{' */
			hi = strtoul(q, &end, 10);
			if (*end == ',') {
				q = end + 1;
				if (*q >= '0' && *q <= '9')
					hi = strtoul(q, &end, 10);
				else {
					hi = hi < 1 ? 1 : hi;
					end = (char *)q;
				}
			}
			if (*end != '}')
				return m;
			m *= (double)hi + 1;
			*p = end + 1;
		} else {
			return m;
		}
	}
}

/* Cost of one branch: atoms times their repetitions, up to '|' or ')'. */
static double regex_branch(const char **p, int depth)
{
	double cost = 0, atom;

	while (**p && **p != '|' && **p != ')') {
		if (**p == '(') {
			(*p)++;
			atom = regex_alt(p, depth + 1);
			if (**p == ')')
				(*p)++;
		} else if (**p == '[') {
			/* a bracket expression is one atom: ']' first is literal */
			(*p)++;
			if (**p == '^')
				(*p)++;
			if (**p == ']')
				(*p)++;
			while (**p && **p != ']')
				(*p)++;
			if (**p)
				(*p)++;
			atom = 1;
		} else {
			if (**p == '\\' && (*p)[1])
				(*p)++;
			(*p)++;
			atom = 1;
		}
		cost += atom * regex_reps(p);
		if (cost > REGEX_MAX_COST)
			return cost;
	}
	return cost;
}

static double regex_alt(const char **p, int depth)
{
	double cost;

	if (depth > REGEX_MAX_DEPTH)
		return REGEX_MAX_COST + 1;
	cost = regex_branch(p, depth);
	while (**p == '|' && cost <= REGEX_MAX_COST) {
		(*p)++;
		cost += regex_branch(p, depth);
	}
	return cost;
}

bool spec_regex_cheap(const char *re)
{
	double cost = 0;

	while (*re && cost <= REGEX_MAX_COST) {
		cost += regex_alt(&re, 0);
		if (*re == ')')
			re++;   /* an unmatched ')': regcomp will say so */
	}
	return cost <= REGEX_MAX_COST;
}
