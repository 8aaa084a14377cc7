/*
 * conds: `when:` conditions parsed per gate and compiled per site
 * (conds.h).
 */
#include "conds.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "intmap.h"
#include "objects.h"

#define MAX_VISIBLE 64     /* names offered in "visible there" / "available there" */
#define NO_INST ((size_t)-1)

/* The condition of one gate compiled at one site. */
struct cond_inst {
	size_t gate;
	rg_site site;
	dwarfx_scope *sc;      /* kept: the compiled form may point into it */
	expr_code *code;       /* NULL when it did not compile */
	char *fail;            /* then: the error as a run says it again */
	size_t next;           /* next instance at the same link-time address */
};

struct plan_conds {
	expr **e;              /* per gate, NULL when it has none (or it did not parse) */
	size_t ngates;
	bool other_objects;    /* some condition reads a global of a library */
	struct cond_inst *inst;
	size_t ninst, capinst;
	rg_intmap ix;          /* link-time address -> latest instance there */
};

/* ---- parsing ---- */

/* Is alias a thread the spec can name: main, threads:, or some gate's as:? */
static bool alias_known(const spec *sp, const char *alias)
{
	size_t i;

	if (!strcmp(alias, "main"))
		return true;
	for (i = 0; i < sp->naliases; i++)
		if (!strcmp(sp->aliases[i].name, alias))
			return true;
	for (i = 0; i < sp->ngates; i++)
		if (sp->gates[i].as && !strcmp(sp->gates[i].as, alias))
			return true;
	return false;
}

/* Offset of the word w in text (the first whole-word occurrence), or 0. */
static size_t word_at(const char *text, const char *w)
{
	size_t n = strlen(w);
	const char *s;

	for (s = strstr(text, w); s; s = strstr(s + 1, w))
		if ((s == text || !(isalnum((unsigned char)s[-1]) || s[-1] == '_')) &&
		    !(isalnum((unsigned char)s[n]) || s[n] == '_'))
			return (size_t)(s - text);
	return 0;
}

/* The `$thread == ALIAS` comparisons of gate i name threads that exist. */
static void check_aliases(plan *p, size_t i, spec_diags *d)
{
	const spec_gate *g = &p->sp->gates[i];
	const char *names[32];
	size_t n = expr_thread_aliases(p->conds->e[i], names, 32), k;

	if (n > 32)
		n = 32;
	for (k = 0; k < n; k++)
		if (!alias_known(p->sp, names[k]))
			spec_diags_add(d, SPEC_ERROR,
				       spec_when_pos(g, word_at(g->when, names[k])),
				       "no thread is called '%s': name it under 'threads:' "
				       "or bind it with 'as:'", names[k]);
}

void conds_parse(plan *p, spec_diags *d)
{
	const spec *sp = p->sp;
	size_t i;

	p->conds = xcalloc(1, sizeof(*p->conds));
	p->conds->ngates = sp->ngates;
	p->conds->e = xcalloc(sp->ngates ? sp->ngates : 1, sizeof(expr *));
	for (i = 0; i < sp->ngates; i++) {
		const spec_gate *g = &sp->gates[i];
		char *fn;
		expr_error err;

		if (!g->when)
			continue;
		if ((fn = returns_function(g->at))) {
			/* the arrival is in the caller, whose scope is no one place */
			spec_diags_add(d, SPEC_ERROR, g->when_pos,
				       "gate '%s': 'when' is not evaluated at "
				       "'%s': a return arrives in each caller; gate "
				       "a line of '%s' instead", g->name, g->at, fn);
			free(fn);
			continue;
		}
		if (!plan_gate_in_image(sp, i, p->exe, true)) {
			/* its breakpoints are resolved at the exec, after check */
			spec_diags_add(d, SPEC_ERROR, g->when_pos,
				       "gate '%s': 'when' is not evaluated in a "
				       "process that runs another program ({exe:}): "
				       "gate a line of the program racegate starts, or "
				       "use hit: and thread:", g->name);
			continue;
		}
		memset(&err, 0, sizeof(err));
		if (expr_parse(g->when, &p->conds->e[i], &err) < 0) {
			spec_diags_add(d, SPEC_ERROR, spec_when_pos(g, err.off),
				       "bad 'when' condition: %s", err.msg);
			p->conds->e[i] = NULL;
			continue;
		}
		check_aliases(p, i, d);
	}
}

bool conds_has(const plan *p, size_t gate)
{
	return p->conds && gate < p->conds->ngates && p->conds->e[gate];
}

bool conds_read_libraries(const plan *p)
{
	return p->conds && p->conds->other_objects;
}

const expr *conds_expr(const plan *p, size_t gate)
{
	return conds_has(p, gate) ? p->conds->e[gate] : NULL;
}

/* ---- the compiler's environment: a scope, then other objects' globals ---- */

struct env_ctx {
	plan *p;
	const dwarfx_scope *sc;
	size_t obj;            /* the scope's object */
	const char *names[MAX_VISIBLE];
};

/*
 * Object numbers given to the compiler: 0 the scope's own, 1 the
 * executable, 2 + i the plan's object i.
 */
rg_site conds_obj_site(rg_site at, int obj)
{
	rg_site s = {at.obj, 0};

	if (obj == 1)
		s.obj = PLAN_EXE;
	else if (obj >= 2)
		s.obj = (size_t)(obj - 2);
	return s;
}

static const dwarfx_var *env_var(void *ctx, const char *name, int *obj)
{
	struct env_ctx *c = ctx;
	const dwarfx_var *v = dwarfx_scope_find(c->sc, name);
	const char *const *libs;
	size_t n, i;

	*obj = 0;
	if (v)
		return v;
	if (c->obj != PLAN_EXE && (v = dwarfx_global(c->p->dx, name))) {
		*obj = 1;
		return v;
	}
	n = plan_locs_libs(c->p, &libs);
	for (i = 0; i < n; i++) {
		size_t o = plan_object_index(c->p, libs[i]);
		dwarfx *dx = c->p->objs[o].dx;

		if (o == c->obj || !dx || o > (size_t)INT32_MAX - 2)
			continue;
		if ((v = dwarfx_global(dx, name))) {
			*obj = (int)o + 2;
			c->p->conds->other_objects = true;
			return v;
		}
	}
	return NULL;
}

static const dwarfx_type *env_type(void *ctx, const char *name)
{
	struct env_ctx *c = ctx;

	return dwarfx_scope_type(c->sc, name);
}

static bool env_enumerator(void *ctx, const char *name, int64_t *value,
			   const dwarfx_type **type)
{
	struct env_ctx *c = ctx;

	return dwarfx_scope_enumerator(c->sc, name, value, type);
}

static size_t env_visible(void *ctx, const char **names, size_t max)
{
	struct env_ctx *c = ctx;
	const dwarfx_var *vars[MAX_VISIBLE];
	size_t n = dwarfx_scope_locals(c->sc, vars, MAX_VISIBLE), i;

	if (n > MAX_VISIBLE)
		n = MAX_VISIBLE;
	for (i = 0; i < n && i < max; i++)
		names[i] = vars[i]->name;
	return n;
}

/* ---- compiling at every instance ---- */

static struct cond_inst *inst_find(const struct plan_conds *pc, size_t gate, rg_site s)
{
	size_t *v = rg_intmap_get(&pc->ix, s.link_addr);
	size_t i = v ? *v : NO_INST;

	for (; i != NO_INST; i = pc->inst[i].next)
		if (pc->inst[i].gate == gate && pc->inst[i].site.obj == s.obj)
			return &pc->inst[i];
	return NULL;
}

static struct cond_inst *inst_add(struct plan_conds *pc, size_t gate, rg_site s)
{
	size_t next = *rg_intmap_ref(&pc->ix, s.link_addr, NO_INST);
	struct cond_inst *ci;

	RG_GROW(pc->inst, pc->ninst + 1, pc->capinst);
	ci = &pc->inst[pc->ninst];
	memset(ci, 0, sizeof(*ci));
	ci->gate = gate;
	ci->site = s;
	ci->next = next;
	*rg_intmap_ref(&pc->ix, s.link_addr, NO_INST) = pc->ninst++;
	return ci;
}

/* One instance's attempt. */
struct attempt {
	bool ok;
	bool optimized_out;    /* the name the error is about has no location here */
	expr_error err;
	const char *function;
	char *addr;            /* plan_site_str */
	char *available;       /* names with a location here, for optimized_out */
	size_t inst;           /* its cond_inst */
};

/* The identifier at off in text, as a name to look up ("a::b" included). */
static char *name_at(const char *text, size_t off)
{
	size_t n = 0, len = strlen(text);

	if (off >= len)
		return NULL;
	while (off + n < len && (isalnum((unsigned char)text[off + n]) ||
				 text[off + n] == '_' || text[off + n] == ':'))
		n++;
	return n ? xstrndup(text + off, n) : NULL;
}

/* Does place say where the whole value is (no optimized-out piece)? */
static bool place_known(const dwarfx_place *pl)
{
	size_t i;

	if (pl->kind != DWARFX_PLACE_KNOWN || !pl->npieces)
		return pl->kind == DWARFX_PLACE_UNSUPPORTED;
	for (i = 0; i < pl->npieces; i++)
		if (pl->pieces[i].kind == DWARFX_PIECE_UNDEF)
			return false;
	return true;
}

/* "q, i" -- the function's names that have a location here. */
static char *available_at(const dwarfx_scope *sc)
{
	const dwarfx_var *vars[MAX_VISIBLE];
	size_t n = dwarfx_scope_locals(sc, vars, MAX_VISIBLE), i, k = 0;
	rg_buf b = RG_BUF_INIT;

	if (n > MAX_VISIBLE)
		n = MAX_VISIBLE;
	for (i = 0; i < n; i++)
		if (vars[i]->place.kind == DWARFX_PLACE_KNOWN && place_known(&vars[i]->place))
			rg_buf_printf(&b, "%s%s", k++ ? ", " : "", vars[i]->name);
	if (!k)
		rg_buf_puts(&b, "none");
	return rg_buf_detach(&b);
}

/* Compiles gate's condition at one site into a new instance; fills a. */
static void compile_one(plan *p, size_t gate, const conds_site *cs, struct attempt *a)
{
	struct plan_conds *pc = p->conds;
	struct cond_inst *ci = inst_add(pc, gate, cs->site);
	struct env_ctx c;
	expr_env env;
	rg_err err = RG_ERR_INIT;
	dwarfx *dx = plan_site_dx(p, cs->site);
	char *name;
	const dwarfx_var *v;

	memset(a, 0, sizeof(*a));
	a->inst = pc->ninst - 1;
	a->addr = plan_site_str(p, cs->site);
	/* the line's own scope where an inlined copy starts at its first instruction */
	if (!dx || (cs->loc.file && cs->loc.line ?
		    dwarfx_scope_at_loc(dx, &cs->loc, &ci->sc, &err) :
		    dwarfx_scope_at(dx, cs->site.link_addr, &ci->sc, &err)) != DWARFX_OK) {
		ci->sc = NULL;
		snprintf(a->err.msg, sizeof(a->err.msg),
			 "'when' cannot be evaluated at %.100s: %.300s", cs->where,
			 err.msg[0] ? err.msg : "no debug information there "
			 "(rebuild it with -g)");
		return;
	}
	/* the function whose code it is (an inlined copy's caller), as a user finds it */
	a->function = dwarfx_caller_at(dx, cs->site.link_addr);
	if (!a->function)
		a->function = dwarfx_scope_function(ci->sc);
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.sc = ci->sc;
	c.obj = cs->site.obj;
	env = (expr_env){ .ctx = &c, .where = cs->where, .var = env_var,
			  .type = env_type, .enumerator = env_enumerator,
			  .visible = env_visible };
	if (expr_compile(pc->e[gate], &env, &ci->code, &a->err) == 0) {
		a->ok = true;
		return;
	}
	ci->code = NULL;
	name = name_at(expr_text(pc->e[gate]), a->err.off);
	v = name ? dwarfx_scope_find(ci->sc, name) : NULL;
	if (v && !place_known(&v->place)) {
		a->optimized_out = true;
		a->available = available_at(ci->sc);
	}
	free(name);
}

/*
 * The message for what failed: the first failure's text, and when not
 * every instance failed alike, which instances did (and, for a variable
 * optimized out, what is available in each).
 */
static char *failure_text(const struct attempt *a, size_t n, size_t *off)
{
	size_t i, nfail = 0, first = n;
	bool alike = true;
	rg_buf b = RG_BUF_INIT;

	for (i = 0; i < n; i++) {
		if (a[i].ok) {
			alike = false;
			continue;
		}
		if (first == n)
			first = i;
		else if (strcmp(a[i].err.msg, a[first].err.msg) ||
			 a[i].err.off != a[first].err.off)
			alike = false;
		nfail++;
	}
	*off = a[first].err.off;
	rg_buf_puts(&b, a[first].err.msg);
	if (alike && !a[first].optimized_out)
		return rg_buf_detach(&b);
	rg_buf_printf(&b, " in %zu of %zu instance%s of the line:", nfail, n,
		      n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		if (a[i].ok)
			continue;
		rg_buf_printf(&b, "%s '%s' at %s", i == first ? "" : ";",
			      a[i].function ? a[i].function : "?", a[i].addr);
		if (a[i].optimized_out)
			rg_buf_printf(&b, " (available there: %s)", a[i].available);
	}
	return rg_buf_detach(&b);
}

int conds_compile(plan *p, size_t gate, const conds_site *sites, size_t n,
		  spec_diags *d, rg_err *err)
{
	const spec_gate *g = &p->sp->gates[gate];
	struct attempt *a;
	size_t i, m = 0, off;
	bool failed = false;
	const char *before = NULL;
	char *msg, *full;
	spec_pos pos;

	if (!conds_has(p, gate))
		return 0;
	a = xcalloc(n ? n : 1, sizeof(*a));
	for (i = 0; i < n; i++) {
		const struct cond_inst *ci = inst_find(p->conds, gate, sites[i].site);

		if (ci) {   /* compiled before: at check time, or by an earlier run */
			if (!before && ci->fail)
				before = ci->fail;
			continue;
		}
		compile_one(p, gate, &sites[i], &a[m]);
		failed |= !a[m].ok;
		m++;
	}
	if (failed) {
		msg = failure_text(a, m, &off);
		pos = spec_when_pos(g, off);
		full = xasprintf("%s:%d:%d: %s", p->sp->path, pos.line, pos.col, msg);
		if (d)
			spec_diags_add(d, SPEC_ERROR, pos, "%s", msg);
		else
			rg_error(err, "%s", full);
		for (i = 0; i < m; i++)
			if (!a[i].ok)
				p->conds->inst[a[i].inst].fail = xstrdup(full);
		free(full);
		free(msg);
	} else if (before) {
		failed = true;   /* with d: said already, when it was compiled */
		if (!d)
			rg_error(err, "%s", before);
	}
	for (i = 0; i < m; i++) {
		free(a[i].addr);
		free(a[i].available);
	}
	free(a);
	return failed ? -1 : 0;
}

const expr_code *conds_code(const plan *p, size_t gate, rg_site site)
{
	const struct cond_inst *ci;

	if (!p->conds)
		return NULL;
	ci = inst_find(p->conds, gate, site);
	return ci ? ci->code : NULL;
}

void conds_free(plan *p)
{
	struct plan_conds *pc = p->conds;
	size_t i;

	if (!pc)
		return;
	for (i = 0; i < pc->ninst; i++) {
		expr_code_free(pc->inst[i].code);
		free(pc->inst[i].fail);
		if (pc->inst[i].sc)
			dwarfx_scope_free(pc->inst[i].sc);
	}
	free(pc->inst);
	rg_intmap_release(&pc->ix);
	for (i = 0; i < pc->ngates; i++)
		if (pc->e[i])
			expr_free(pc->e[i]);
	free(pc->e);
	free(pc);
	p->conds = NULL;
}
