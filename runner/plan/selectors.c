/*
 * What thread selectors' start: and runs: stand for (selectors.h).
 *
 * A thread is named by what it starts in (starts.c): a function with its
 * parameter types ("Worker::run(int)"), or the type of a std::thread's
 * lambda or function object ("main::{lambda()#1}").  A start: text is
 * resolved here once into what such a name must answer to: a name as
 * locations take names, a lambda's type for the "T::operator()" that gdb
 * prints, or the exact names of what FILE:LINE defines (so that an edit
 * above a lambda, which renumbers {lambda()#N}, does not change what the
 * selector means).  A runs: text becomes the code of that function, every
 * inlined copy included, so that a stack is checked by address alone.
 */
#include "selectors.h"
#include "objects.h"
#include "starts.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 12          /* start routines listed in one error */

enum start_kind {
	START_NAME,            /* want as written, as locations take names */
	START_TYPE,            /* a callable type: what T::operator() names */
	START_EXACT,           /* the names FILE:LINE defines */
};

struct sel_start {
	const char *text;      /* the spec's */
	enum start_kind kind;
	char *type;            /* START_TYPE */
	char **names;          /* START_EXACT */
	size_t nnames;
	bool bad;              /* did not resolve (an error was given) */
};

struct sel_code {
	size_t obj;            /* PLAN_EXE or an index into plan.objs */
	uint64_t lo, hi;       /* link-time */
};

struct sel_runs {
	const char *text;
	struct sel_code *code;
	size_t ncode;
};

struct plan_sels {
	struct sel_start *starts;
	size_t nstarts, capstarts;
	struct sel_runs *runs;
	size_t nruns, capruns;
};

static const char *base_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* FILE:LINE: something, a colon, and digits only. */
static bool is_file_line(const char *s, char **file, int *line)
{
	const char *colon = strrchr(s, ':'), *p;
	long v = 0;

	if (!colon || colon == s || colon[-1] == ':' || !colon[1])
		return false;
	for (p = colon + 1; *p; p++) {
		if (*p < '0' || *p > '9' || v > 100000000)
			return false;
		v = v * 10 + (*p - '0');
	}
	*file = xstrndup(s, (size_t)(colon - s));
	*line = (int)v;
	return true;
}

/* Would the text be found only through debug information? */
static bool needs_debug(const char *what)
{
	char *file;
	int line;

	if (is_file_line(what, &file, &line)) {
		free(file);
		return true;
	}
	return strstr(what, "::") || strchr(what, '(') || strchr(what, '<') ||
	       strchr(what, '~') || strstr(what, ":/");
}

char *plan_nodebug_why(const plan *p, const char *what, bool *only)
{
	if (dwarfx_has_debug_info(p->dx))
		return NULL;
	*only = needs_debug(what);
	return xasprintf(DWARFX_NO_DEBUG, base_of(p->exe));
}

/* ---- the start routines a program has, for errors ---- */

struct cands {
	dwarfx_routine *v;
	size_t n;
	bool read;
};

static size_t typo_limit(const char *s)
{
	size_t n = strlen(s) / 3;

	return n < 1 ? 1 : n > 4 ? 4 : n;
}

/* The candidate closest to want, by its name or a tail of it, or NULL. */
static const char *closest(const struct cands *c, const char *want)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX, i;

	for (i = 0; i < c->n; i++) {
		const char *name = c->v[i].name, *p = name;
		size_t d;

		/* "run" for "Worker::run(int)": the tails after "::" too */
		for (;;) {
			char *bare = xstrdup(p), *paren = strchr(bare, '(');

			if (paren && !strchr(want, '('))
				*paren = '\0';
			d = rg_edit_distance(want, bare);
			free(bare);
			if (d < bestd) {
				bestd = d;
				best = name;
			}
			if (!(p = strstr(p, "::")))
				break;
			p += 2;
		}
	}
	return best && bestd <= typo_limit(want) && bestd > 0 ? best : NULL;
}

/* ", threads of 'prog' start in: a (f.c:3), b, ..." or a word that says none do. */
static void list_cands(rg_buf *b, const plan *p, const struct cands *c)
{
	size_t i;

	if (!c->n) {
		rg_buf_printf(b, "; racegate finds no start routine in '%s' (no function "
			      "void *f(void *), no std::thread)", base_of(p->exe));
		return;
	}
	rg_buf_printf(b, "; threads of '%s' start in: ", base_of(p->exe));
	for (i = 0; i < c->n && i < MAX_LISTED; i++) {
		/* as a gates file needs it: a lambda's braces and '#' quoted */
		bool quote = strpbrk(c->v[i].name, "{}[],#&*!|>'%@`") != NULL;

		rg_buf_printf(b, "%s%s%s%s", i ? ", " : "", quote ? "\"" : "",
			      c->v[i].name, quote ? "\"" : "");
		if (c->v[i].file && c->v[i].line)
			rg_buf_printf(b, " (%s:%d)", base_of(c->v[i].file), c->v[i].line);
	}
	if (c->n > MAX_LISTED)
		rg_buf_printf(b, ", and %zu more", c->n - MAX_LISTED);
}

static void read_cands(plan *p, struct cands *c)
{
	if (!c->read)
		c->n = dwarfx_thread_routines(p->dx, &c->v);
	c->read = true;
}

/* ---- start: ---- */

/* "T::operator()", "T::operator()() const": T (malloc'd), else NULL. */
static char *operator_type(const char *s)
{
	const char *op = strstr(s, "::operator()");
	const char *rest;

	if (!op || op == s)
		return NULL;
	rest = op + strlen("::operator()");
	/* nothing after it but a parameter list and qualifiers */
	if (*rest && *rest != '(')
		return NULL;
	return xstrndup(s, (size_t)(op - s));
}

/* Is name a function of p's executable or of a library it is linked with? */
static bool function_known(plan *p, const char *name, dwarfx_hint *h)
{
	const char *const *libs;
	size_t nlibs, i;

	for (i = 0; i < 2; i++) {
		char *where = xasprintf(i ? "*%s::operator()" : "*%s", name);
		dwarfx_loc *locs = NULL;
		size_t n = 0;
		rg_err err = RG_ERR_INIT;
		int rc = dwarfx_resolve(p->dx, where, &locs, &n, i ? NULL : h, &err);

		plan_warn_dropped(p->dx, NULL, NULL);
		free(locs);
		free(where);
		if (rc == DWARFX_OK)
			return true;
	}
	if (dwarfx_symbol_addrs(p->dx, name, NULL, 0) || starts_callable_type(p->dx, name))
		return true;
	nlibs = plan_locs_libs(p, &libs);
	for (i = 0; i < nlibs; i++) {
		dwarfx *dx = plan_object(p, libs[i]);

		if (dx && dwarfx_symbol_addrs(dx, name, NULL, 0))
			return true;
	}
	return false;
}

/* {start: FILE:LINE}: what is defined there. */
static bool start_line(plan *p, struct sel_start *s, const char *file, int line,
		       const spec_pos *pos, struct cands *c, spec_diags *d)
{
	const char **names = NULL;
	size_t n = 0, i;
	rg_err err = RG_ERR_INIT;
	rg_buf b = RG_BUF_INIT;

	if (dwarfx_defined_at(p->dx, file, line, &names, &n, &err) == DWARFX_OK && n == 1) {
		s->kind = START_EXACT;
		s->names = xcalloc(1, sizeof(char *));
		s->names[0] = xstrdup(names[0]);
		s->nnames = 1;
		free(names);
		return true;
	}
	if (n > 1) {
		rg_buf_printf(&b, "{start: %s}: %zu functions or lambdas are defined at "
			      "'%s:%d': ", s->text, n, file, line);
		for (i = 0; i < n; i++)
			rg_buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
		rg_buf_puts(&b, " (name the one you mean)");
	} else {
		read_cands(p, c);
		rg_buf_printf(&b, "{start: %s} matches no thread: %s", s->text, err.msg);
		list_cands(&b, p, c);
	}
	spec_diags_add(d, SPEC_ERROR, *pos, "%s", b.s);
	rg_buf_release(&b);
	free(names);
	return false;
}

static bool resolve_start(plan *p, struct sel_start *s, const spec_pos *pos,
			  struct cands *c, spec_diags *d)
{
	dwarfx_hint h = DWARFX_HINT_INIT;
	rg_buf b = RG_BUF_INIT;
	const char *near;
	char *file, *type, *why;
	int line;
	bool ok, only = false;

	if ((why = plan_nodebug_why(p, s->text, &only)) && only &&
	    !starts_callable_type(p->dx, s->text)) {
		spec_diags_add(d, SPEC_ERROR, *pos, "cannot resolve {start: %s}: %s",
			       s->text, why);
		free(why);
		return false;
	}
	if (is_file_line(s->text, &file, &line)) {
		ok = start_line(p, s, file, line, pos, c, d);
		free(file);
		free(why);
		return ok;
	}
	if ((type = operator_type(s->text))) {
		s->kind = START_TYPE;
		s->type = type;
		if (function_known(p, s->text, &h) || starts_callable_type(p->dx, type))
			goto known;
	} else if (function_known(p, s->text, &h)) {
		goto known;
	}
	read_cands(p, c);
	rg_buf_printf(&b, "{start: %s} matches no thread: no function, lambda or "
		      "function object '%s' in '%s'", s->text, s->text, base_of(p->exe));
	if ((near = closest(c, s->text)) || (near = h.suggest_is_file ? NULL : h.suggest))
		rg_buf_printf(&b, " (did you mean '%s'?)", near);
	if (why)
		rg_buf_printf(&b, "; %s", why);
	else
		list_cands(&b, p, c);
	spec_diags_add(d, SPEC_ERROR, *pos, "%s", b.s);
	rg_buf_release(&b);
	free(why);
	return false;
known:
	free(why);
	return true;
}

/* ---- runs: ---- */

static void add_code(struct sel_runs *r, size_t obj, const dwarfx_span *v, size_t n)
{
	r->code = xrealloc(r->code, (r->ncode + n) * sizeof(*r->code));
	for (size_t i = 0; i < n; i++)
		r->code[r->ncode++] = (struct sel_code){obj, v[i].lo, v[i].hi};
}

static bool resolve_runs(plan *p, struct sel_runs *r, const spec_pos *pos,
			 spec_diags *d)
{
	dwarfx_hint h = DWARFX_HINT_INIT;
	dwarfx_span *code = NULL;
	size_t n = 0, nlibs, i;
	const char *const *libs;
	rg_err err = RG_ERR_INIT;
	char *why;
	bool only = false;
	int rc;

	rc = dwarfx_function_code(p->dx, r->text, &code, &n, &h, &err);
	plan_warn_dropped(p->dx, d, pos);
	if (rc == DWARFX_OK) {
		add_code(r, PLAN_EXE, code, n);
		free(code);
		return true;
	}
	if (rc == DWARFX_ERROR) {
		spec_diags_add(d, SPEC_ERROR, *pos, "{runs: %s}: %s", r->text, err.msg);
		return false;
	}
	nlibs = plan_locs_libs(p, &libs);
	for (i = 0; i < nlibs; i++) {
		dwarfx *dx = plan_object(p, libs[i]);
		rg_err lerr = RG_ERR_INIT;

		if (!dx || dwarfx_function_code(dx, r->text, &code, &n, NULL, &lerr))
			continue;
		add_code(r, plan_object_index(p, libs[i]), code, n);
		free(code);
	}
	if (r->ncode)
		return true;
	if ((why = plan_nodebug_why(p, r->text, &only)) && only)
		spec_diags_add(d, SPEC_ERROR, *pos, "cannot resolve {runs: %s}: %s",
			       r->text, why);
	else
		spec_diags_add(d, SPEC_ERROR, *pos, "{runs: %s} matches no thread: no "
			       "function '%s' in '%s' nor in the libraries it is linked "
			       "with%s%s%s%s%s", r->text, r->text, base_of(p->exe),
			       h.suggest ? " (did you mean '" : "",
			       h.suggest ? h.suggest : "", h.suggest ? "'?)" : "",
			       why ? "; " : "", why ? why : "");
	free(why);
	return false;
}

/* ---- the plan's ---- */

static struct plan_sels *sels_of(plan *p)
{
	if (!p->sels)
		p->sels = xcalloc(1, sizeof(*p->sels));
	return p->sels;
}

static void add_selector(plan *p, const spec_selector *sel, struct cands *c,
			 spec_diags *d)
{
	struct plan_sels *ps = sels_of(p);
	size_t i;

	if (sel->kind != SPEC_SEL_MATCH)
		return;
	if (sel->start) {
		for (i = 0; i < ps->nstarts && strcmp(ps->starts[i].text, sel->start); i++)
			;
		if (i == ps->nstarts) {
			RG_GROW(ps->starts, ps->nstarts + 1, ps->capstarts);
			memset(&ps->starts[i], 0, sizeof(ps->starts[i]));
			ps->starts[i].text = sel->start;
			ps->nstarts++;
			ps->starts[i].bad = !resolve_start(p, &ps->starts[i], &sel->pos, c, d);
		}
	}
	if (sel->runs) {
		for (i = 0; i < ps->nruns && strcmp(ps->runs[i].text, sel->runs); i++)
			;
		if (i == ps->nruns) {
			RG_GROW(ps->runs, ps->nruns + 1, ps->capruns);
			memset(&ps->runs[i], 0, sizeof(ps->runs[i]));
			ps->runs[i].text = sel->runs;
			ps->nruns++;
			resolve_runs(p, &ps->runs[i], &sel->pos, d);
		}
	}
}

void plan_selectors(plan *p, spec_diags *d)
{
	struct cands c = {NULL, 0, false};
	size_t i;

	for (i = 0; i < p->sp->naliases; i++)
		add_selector(p, &p->sp->aliases[i].sel, &c, d);
	for (i = 0; i < p->sp->ngates; i++)
		add_selector(p, &p->sp->gates[i].thread, &c, d);
	dwarfx_routines_free(c.v, c.n);
}

void plan_selectors_free(plan *p)
{
	struct plan_sels *ps = p->sels;
	size_t i, j;

	if (!ps)
		return;
	for (i = 0; i < ps->nstarts; i++) {
		free(ps->starts[i].type);
		for (j = 0; j < ps->starts[i].nnames; j++)
			free(ps->starts[i].names[j]);
		free(ps->starts[i].names);
	}
	free(ps->starts);
	for (i = 0; i < ps->nruns; i++)
		free(ps->runs[i].code);
	free(ps->runs);
	free(ps);
	p->sels = NULL;
}

size_t plan_start_names(const plan *p, const char *text, const char *const **names)
{
	const struct plan_sels *ps = p->sels;

	for (size_t i = 0; ps && i < ps->nstarts; i++) {
		const struct sel_start *s = &ps->starts[i];

		if (strcmp(s->text, text) || s->bad)
			continue;
		if (s->kind == START_TYPE) {
			*names = (const char *const *)&s->type;
			return 1;
		}
		*names = (const char *const *)s->names;
		return s->kind == START_EXACT ? s->nnames : 0;
	}
	return 0;
}

bool plan_start_is(const plan *p, const char *want, const char *start)
{
	const struct plan_sels *ps = p->sels;
	size_t i, j;

	for (i = 0; ps && i < ps->nstarts; i++) {
		const struct sel_start *s = &ps->starts[i];

		if (strcmp(s->text, want))
			continue;
		switch (s->kind) {
		case START_NAME:
			return dwarfx_name_answers(start, want);
		case START_TYPE:
			return dwarfx_name_answers(start, s->type) ||
			       dwarfx_name_answers(start, want);
		case START_EXACT:
			for (j = 0; j < s->nnames; j++)
				if (!strcmp(start, s->names[j]))
					return true;
			return false;
		}
	}
	/* not resolved (a plan built without selectors): as written */
	return dwarfx_name_answers(start, want);
}

bool plan_runs_at(const plan *p, const run_bias *bt, const char *runs, uint64_t pc)
{
	const struct plan_sels *ps = p->sels;
	size_t i, j;

	for (i = 0; ps && i < ps->nruns; i++) {
		if (strcmp(ps->runs[i].text, runs))
			continue;
		for (j = 0; j < ps->runs[i].ncode; j++) {
			const struct sel_code *c = &ps->runs[i].code[j];
			rg_site lo = {c->obj, c->lo};
			uint64_t a;

			if (!run_bias_mapped(bt, lo))
				continue;
			a = run_bias_addr(bt, lo);
			if (pc >= a && pc - a < c->hi - c->lo)
				return true;
		}
		return false;
	}
	return false;
}
