/*
 * What an inline thread selector's start:, runs:, name: and tid: pick
 * (gates_int.h).  start: is decided once, when a thread starts: for each
 * distinct start: text of the spec the thread's start routine is, or is
 * not, what it names (the caller's start_is hook, which knows the
 * program's C++ names, or the rule below).  runs: is learnt at arrivals:
 * the caller looks at the thread's stack for the functions
 * gate_runs_wanted lists and says what it found (gate_thread_runs), and a
 * thread found once running a function keeps it.
 */
#include "gates_int.h"

#include "cxxname.h"

#include <stdlib.h>
#include <string.h>

static size_t intern(const char ***v, size_t *n, size_t *cap, const char *s)
{
	size_t i;

	if (!s)
		return NONE;
	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	RG_GROW(*v, *n + 1, *cap);
	(*v)[*n] = s;
	return (*n)++;
}

size_t gi_start_intern(gate_engine *e, const char *start)
{
	return intern(&e->sel_starts, &e->nsel_starts, &e->capsel_starts, start);
}

size_t gi_runs_intern(gate_engine *e, const char *runs)
{
	return intern(&e->sel_runs, &e->nsel_runs, &e->capsel_runs, runs);
}

char *gi_start_label(const char *start)
{
	const char *p = rg_cxx_trailing_params(start);

	return p ? xstrndup(start, (size_t)(p - start)) : xstrdup(start);
}

/* Is want have, or a tail of it after "::"? */
static bool is_tail(const char *want, const char *have, size_t lh)
{
	size_t lw = strlen(want);

	if (lw == lh && !strncmp(want, have, lh))
		return true;
	return lh > lw + 2 && !strncmp(have + lh - lw, want, lw) &&
	       have[lh - lw - 1] == ':' && have[lh - lw - 2] == ':';
}

/*
 * The engine's own rule: a start routine as locations name functions, in
 * full or by a tail of its qualified name ("Account::run" for
 * bank::Account::run(int)), with or without its parameter list.
 */
static bool start_match(const char *want, const char *have)
{
	const char *params;

	if (!have)
		return false;
	if (is_tail(want, have, strlen(have)))
		return true;
	params = rg_cxx_trailing_params(have);
	return params && !rg_cxx_trailing_params(want) && is_tail(want, have, (size_t)(params - have));
}

void gi_thread_starts(gate_engine *e, struct gate_thread *th)
{
	size_t i;

	if (!e->nsel_starts || !th->start)
		return;
	th->start_is = xcalloc(e->nsel_starts, sizeof(bool));
	for (i = 0; i < e->nsel_starts; i++)
		th->start_is[i] = e->hooks.start_is ?
			e->hooks.start_is(e->hooks.ctx, e->sel_starts[i], th->start) :
			start_match(e->sel_starts[i], th->start);
}

static bool str_match(const char *want, const char *have)
{
	return !want || (have && !strcmp(want, have));
}

bool gi_base_match(const gate_engine *e, size_t start, size_t runs, const char *name,
		   long tid, const struct gate_thread *th)
{
	(void)e;
	if (start != NONE && !(th->start_is && th->start_is[start]))
		return false;
	if (runs != NONE && !(th->runs && th->runs[runs]))
		return false;
	return str_match(name, th->name) && (!tid || tid == (long)th->tid);
}

/* Does a selector that picks by runs: still need to learn whom it picks? */
static bool alias_wants(const gate_engine *e, const struct alias *a)
{
	(void)e;
	return !a->th && a->sel && a->sel->kind == SPEC_SEL_MATCH && a->sel->runs;
}

static size_t find(const char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return NONE;
}

static void want(size_t **out, size_t *n, size_t r)
{
	for (size_t i = 0; i < *n; i++)
		if ((*out)[i] == r)
			return;
	*out = xrealloc(*out, (*n + 1) * sizeof(**out));
	(*out)[(*n)++] = r;
}

size_t gi_runs_wanted(const gate_engine *e, const struct gate_thread *th,
		      const size_t *gates, size_t n, size_t **out)
{
	size_t i, nw = 0, r;

	*out = NULL;
	if (!e->nsel_runs || th->exited)
		return 0;
	for (i = 0; i < e->naliases; i++) {
		const struct alias *a = &e->aliases[i];

		if (!alias_wants(e, a))
			continue;
		r = find(e->sel_runs, e->nsel_runs, a->sel->runs);
		if (r != NONE && !(th->runs && th->runs[r]))
			want(out, &nw, r);
	}
	for (i = 0; i < n; i++) {
		const struct gate *g;

		if (gates[i] >= e->ngates)
			continue;
		g = &e->gates[gates[i]];
		if (g->sel_runs != NONE && !g->done && !(th->runs && th->runs[g->sel_runs]))
			want(out, &nw, g->sel_runs);
	}
	return nw;
}
