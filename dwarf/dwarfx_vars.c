/*
 * Scopes: what a `when:` condition may name at one address, and where each
 * value lives there (dwarfx_vars.h).
 *
 * The innermost function instance holding the address comes from the
 * index (dwarfx_fn_at); its entry is read again from libdwarf and walked
 * down through the lexical blocks holding the address, so a scope costs
 * one short walk of one function, made once per gate instance.  An inlined
 * callee's variables are copies that name their originals
 * (DW_AT_abstract_origin) for names and types; its statics live in the
 * abstract original only.
 */
#include "dwarfx_vint.h"
#include "dwarfx_dieranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dwarfx_scope {
	dwarfx *dx;
	uint64_t addr;
	uint64_t cu;                 /* offset of the unit's entry */
	struct dwarfx_arena arena;   /* vars and their places */
	const dwarfx_var **vars;     /* locals innermost first, parameters, the
	                              * function's statics, the unit's file statics */
	size_t nvars, vars_cap;
	size_t nown;                 /* the function's own: vars[0..nown) */
	const char *function;
	const char *context;         /* C++: the function's class or namespace
	                              * ("ns::Queue"), or NULL */
};

/* ---- memory ---- */

void *dwarfx_arena_alloc(struct dwarfx_arena *a, size_t size)
{
	void *p = xcalloc(1, size ? size : 1);

	RG_GROW(a->blocks, a->n + 1, a->cap);
	a->blocks[a->n++] = p;
	return p;
}

const char *dwarfx_arena_strdup(struct dwarfx_arena *a, const char *s)
{
	char *p = dwarfx_arena_alloc(a, strlen(s) + 1);

	memcpy(p, s, strlen(s) + 1);
	return p;
}

void dwarfx_arena_release(struct dwarfx_arena *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->blocks[i]);
	free(a->blocks);
	memset(a, 0, sizeof(*a));
}

struct dwarfx_vstate *dwarfx_vstate_get(dwarfx *dx)
{
	if (!dx->vars)
		dx->vars = xcalloc(1, sizeof(*dx->vars));
	return dx->vars;
}

void dwarfx_vars_release(dwarfx *dx)
{
	struct dwarfx_vstate *vs = dx->vars;

	if (!vs)
		return;
	if (vs->eh_cie || vs->eh_fde)
		dwarf_fde_cie_list_dealloc(dx->dbg, vs->eh_cie, vs->eh_ncie, vs->eh_fde,
					   vs->eh_nfde);
	if (vs->df_cie || vs->df_fde)
		dwarf_fde_cie_list_dealloc(dx->dbg, vs->df_cie, vs->df_ncie, vs->df_fde,
					   vs->df_nfde);
	dwarfx_arena_release(&vs->arena);
	dwarfx_map_release(&vs->types);
	free(vs->tlist);
	free(vs->gvars);
	free(vs->statics);
	free(vs->tnames);
	free(vs->enums);
	dwarfx_map_release(&vs->cxx_units);
	dwarfx_map_release(&vs->qnames);
	free(vs->qlist);
	free(vs);
	dx->vars = NULL;
}

static void drop(Dwarf_Debug dbg, Dwarf_Error *e)
{
	if (*e)
		dwarf_dealloc_error(dbg, *e);
	*e = NULL;
}

/* ---- variables ---- */

/* die's type, on it or on what it is a copy or definition of. */
static const dwarfx_type *var_type(dwarfx *dx, Dwarf_Die die)
{
	static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
	Dwarf_Debug dbg = dx->dbg;
	Dwarf_Die d = die;
	const dwarfx_type *t = NULL;
	unsigned hops;

	for (hops = 0; d && !t && hops < DWARFX_VMAX_DEPTH; hops++) {
		Dwarf_Die next = NULL;
		uint64_t off;
		size_t i;

		if (dwarfx_die_ref(dbg, d, DW_AT_type, &off) == DW_DLV_OK)
			t = dwarfx_type_at(dx, off, 0);
		for (i = 0; !t && !next && i < 2; i++)
			if (dwarfx_die_ref(dbg, d, refs[i], &off) == DW_DLV_OK)
				next = dwarfx_die_at(dbg, off);
		if (d != die)
			dwarf_dealloc_die(d);
		d = next;
	}
	if (d && d != die)
		dwarf_dealloc_die(d);
	return t ? t : dwarfx_type_of(dx, die, 0);	/* void */
}

static dwarfx_var *make_var(struct dwarfx_locctx *c, Dwarf_Die die, const char *name,
			    enum dwarfx_var_kind kind)
{
	dwarfx_var *v = dwarfx_arena_alloc(c->arena, sizeof(*v));

	v->name = name;
	v->kind = kind;
	v->type = var_type(c->dx, die);
	dwarfx_loc_place(c, die, dwarfx_type_strip(v->type)->size, &v->place);
	return v;
}

/* A global's (or file static's) variable, made on first use. */
static const dwarfx_var *gvar_var(dwarfx *dx, struct dwarfx_gvar *g)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	struct dwarfx_locctx c = {dx, &vs->arena, 0, NULL, 0,
				  "it is not in a function"};
	Dwarf_Die die;

	if (g->var)
		return g->var;
	die = dwarfx_die_at(dx->dbg, g->die);
	if (!die)
		return NULL;
	g->var = make_var(&c, die, g->name,
			  g->external ? DWARFX_VAR_GLOBAL : DWARFX_VAR_STATIC);
	dwarf_dealloc_die(die);
	return g->var;
}

/*
 * The variable called name among dx's globals: a file static of unit cu
 * first (when cu is not 0), then one with linkage; with any_static, a
 * file static of another unit when it is the only one.
 */
static const dwarfx_var *global_named(dwarfx *dx, const char *name, uint64_t cu,
				      bool any_static)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	size_t first, n, i;
	struct dwarfx_gvar *ext = NULL, *other = NULL;
	size_t nother = 0;

	n = dwarfx_gvars_find(vs, name, &first);
	for (i = first; i < first + n; i++) {
		struct dwarfx_gvar *g = &vs->gvars[i];

		if (!g->external && cu && g->cu == cu)
			return gvar_var(dx, g);
		if (g->external && !ext)
			ext = g;
		if (!g->external) {
			other = g;
			nother++;
		}
	}
	if (ext)
		return gvar_var(dx, ext);
	if (any_static && nother == 1)
		return gvar_var(dx, other);
	return NULL;
}

/* A global whose qualified name ends with "::" name ("Queue::n" for ns::Queue::n). */
static const dwarfx_var *global_tail(dwarfx *dx, const char *name)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	size_t len = strlen(name), i;
	struct dwarfx_gvar *found = NULL;

	for (i = 0; i < vs->ngvars; i++) {
		const char *g = vs->gvars[i].name;
		size_t gl = strlen(g);

		if (gl > len + 2 && !strcmp(g + gl - len, name) && g[gl - len - 1] == ':' &&
		    g[gl - len - 2] == ':' && vs->gvars[i].external) {
			if (found && found->name != vs->gvars[i].name)
				return NULL;	/* ambiguous */
			if (!found)
				found = &vs->gvars[i];
		}
	}
	return found ? gvar_var(dx, found) : NULL;
}

/* ---- ranges of lexical blocks ---- */

struct holds {
	uint64_t addr;
	bool in;
};

static int holds_addr(void *arg, uint64_t lo, uint64_t hi)
{
	struct holds *h = arg;

	h->in = lo <= h->addr && h->addr < hi;
	return h->in;
}

/* Does die (a lexical block) hold addr?  base: the unit's low pc.  An
 * unreadable range list holds nothing. */
static bool die_holds(Dwarf_Debug dbg, Dwarf_Die die, uint64_t base, uint64_t addr)
{
	struct holds h = { addr, false };
	Dwarf_Error e = NULL;
	const char *what;

	if (dwarfx_die_ranges(dbg, die, base, holds_addr, &h, &e, &what) == DW_DLV_ERROR)
		h.in = false;
	drop(dbg, &e);
	return h.in;
}

/* ---- the walk ---- */

struct level_var {
	const dwarfx_var *v;
	unsigned level;          /* 0: the function instance itself */
	size_t seq;
};

struct collect {
	dwarfx_scope *sc;
	struct dwarfx_locctx *c;
	uint64_t cu_base;
	struct level_var *locals, *params, *statics;
	size_t nlocals, nparams, nstatics, locals_cap, params_cap, statics_cap;
	size_t seq;
	int err;                 /* -1: corrupt DWARF */
};

static void push(struct level_var **v, size_t *n, size_t *cap, const dwarfx_var *var,
		 unsigned level, size_t seq)
{
	RG_GROW(*v, *n + 1, *cap);
	(*v)[*n].v = var;
	(*v)[*n].level = level;
	(*v)[*n].seq = seq;
	(*n)++;
}

static bool has_static(const struct collect *co, const char *name)
{
	size_t i;

	for (i = 0; i < co->nstatics; i++)
		if (co->statics[i].v->name == name)
			return true;
	return false;
}

/* One child of a function instance or block. */
static void collect_var(struct collect *co, Dwarf_Die d, Dwarf_Half tag, unsigned level,
			bool abstract_only)
{
	dwarfx *dx = co->sc->dx;
	const char *name;

	if (dwarfx_die_flag(dx->dbg, d, DW_AT_declaration) ||
	    dwarfx_die_flag(dx->dbg, d, DW_AT_external))
		return;	/* `extern int g;` inside a function: the global */
	name = dwarfx_die_name(dx, d);
	if (!name)
		return;
	if (tag == DW_TAG_variable && dwarfx_loc_is_static(dx, d)) {
		if (!has_static(co, name))
			push(&co->statics, &co->nstatics, &co->statics_cap,
			     make_var(co->c, d, name, DWARFX_VAR_STATIC), level, co->seq++);
		return;
	}
	if (abstract_only)
		return;
	if (tag == DW_TAG_formal_parameter) {
		/*
		 * In declaration order, which an inlined copy need not keep
		 * (gcc lists some backwards): the originals' order.
		 */
		uint64_t order;
		Dwarf_Off off = 0;
		Dwarf_Error e = NULL;

		if (dwarfx_die_ref(dx->dbg, d, DW_AT_abstract_origin, &order) != DW_DLV_OK) {
			if (dwarf_dieoffset(d, &off, &e) != DW_DLV_OK)
				drop(dx->dbg, &e);
			order = off;
		}
		push(&co->params, &co->nparams, &co->params_cap,
		     make_var(co->c, d, name, DWARFX_VAR_PARAM), level, (size_t)order);
	} else {
		push(&co->locals, &co->nlocals, &co->locals_cap,
		     make_var(co->c, d, name, DWARFX_VAR_LOCAL), level, co->seq++);
	}
}

/*
 * The variables of die (an instance or a block holding the address) and of
 * its blocks that hold it.  abstract_only: die is the abstract original of
 * an inlined or cloned function, read for its statics only.
 */
static void collect(struct collect *co, Dwarf_Die die, unsigned level, bool abstract_only)
{
	Dwarf_Debug dbg = co->sc->dx->dbg;
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int res;

	if (level > DWARFX_VMAX_DEPTH) {
		co->err = -1;
		return;
	}
	res = dwarf_child(die, &c, &e);
	while (res == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag = 0;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK)
			co->err = -1;
		else if (tag == DW_TAG_variable || (tag == DW_TAG_formal_parameter && !level))
			collect_var(co, c, tag, level, abstract_only);
		else if (tag == DW_TAG_lexical_block && !abstract_only &&
			 die_holds(dbg, c, co->cu_base, co->sc->addr))
			collect(co, c, level + 1, false);
		drop(dbg, &e);
		res = dwarf_siblingof_b(dbg, c, true, &next, &e);
		dwarf_dealloc_die(c);
		c = next;
	}
	if (res == DW_DLV_ERROR)
		co->err = -1;
	drop(dbg, &e);
}

static int by_level(const void *pa, const void *pb)
{
	const struct level_var *a = pa, *b = pb;

	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;	/* innermost first */
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void add(dwarfx_scope *sc, const dwarfx_var *v)
{
	RG_GROW(sc->vars, sc->nvars + 1, sc->vars_cap);
	sc->vars[sc->nvars++] = v;
}

/* The unit holding die: its entry's offset and low pc. */
static void unit_of(Dwarf_Debug dbg, Dwarf_Die die, uint64_t *cu, uint64_t *base)
{
	Dwarf_Error e = NULL;
	Dwarf_Off off = 0;
	Dwarf_Die cud;
	Dwarf_Addr lo = 0;

	*cu = *base = 0;
	if (dwarf_CU_dieoffset_given_die(die, &off, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		return;
	}
	*cu = off;
	cud = dwarfx_die_at(dbg, off);
	if (!cud)
		return;
	if (dwarf_lowpc(cud, &lo, &e) == DW_DLV_OK)
		*base = lo;
	drop(dbg, &e);
	dwarf_dealloc_die(cud);
}

/* "ns::Queue" for ns::Queue::push: the qualified name without its last part. */
static const char *context_of(dwarfx_scope *sc, const char *q)
{
	const char *p, *last = NULL;
	int depth = 0;

	if (!q)
		return NULL;
	for (p = q; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth > 0)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':')
			last = p;
	}
	if (!last)
		return NULL;
	return dwarfx_pool_intern(&sc->dx->strs, q, (size_t)(last - q));
}

static const char *where(dwarfx *dx, uint32_t f, uint64_t addr)
{
	dwarfx_loc loc;
	rg_buf b = RG_BUF_INIT;
	const char *s, *name = dwarfx_fn_display(&dx->fns[f]);

	rg_buf_puts(&b, name ? name : "?");
	if (dwarfx_symbolize(dx, addr, &loc) == 0 && loc.file && loc.line) {
		const char *base = strrchr(loc.file, '/');

		rg_buf_printf(&b, " (%s:%d)", base ? base + 1 : loc.file, loc.line);
	}
	s = dwarfx_pool_intern(&dx->strs, b.s, strlen(b.s));
	rg_buf_release(&b);
	return s;
}

/* Fills sc from the instance f's entry (die). */
static int fill(dwarfx_scope *sc, uint32_t f, Dwarf_Die die, rg_err *err)
{
	dwarfx *dx = sc->dx;
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	struct dwarfx_locctx c = {dx, &sc->arena, sc->addr, NULL, 0, NULL};
	struct collect co;
	uint32_t root = f;
	Dwarf_Die rd, od;
	size_t i, n, first;

	memset(&co, 0, sizeof(co));
	co.sc = sc;
	co.c = &c;
	unit_of(dx->dbg, die, &sc->cu, &co.cu_base);
	while (dx->fns[root].parent != DWARFX_NONE && root != dx->fns[root].parent)
		root = dx->fns[root].parent;
	rd = dwarfx_die_at(dx->dbg, dx->fns[root].die);
	if (rd) {
		dwarfx_loc_frame_base(&c, rd);
		dwarf_dealloc_die(rd);
	}
	collect(&co, die, 0, false);
	/* an inlined or cloned function's statics are in its abstract original */
	if (co.err == 0 && dx->fns[f].origin != dx->fns[f].die &&
	    (od = dwarfx_die_at(dx->dbg, dx->fns[f].origin))) {
		collect(&co, od, 0, true);
		dwarf_dealloc_die(od);
	}
	if (co.err < 0) {
		free(co.locals);
		free(co.params);
		free(co.statics);
		return rg_error(err, "cannot read the debug info of '%s': the variables of '%s'",
				dx->path, sc->function);
	}
	if (co.nlocals > 1)
		qsort(co.locals, co.nlocals, sizeof(*co.locals), by_level);
	if (co.nparams > 1)
		qsort(co.params, co.nparams, sizeof(*co.params), by_level);
	for (i = 0; i < co.nlocals; i++)
		add(sc, co.locals[i].v);
	for (i = 0; i < co.nparams; i++)
		add(sc, co.params[i].v);
	for (i = 0; i < co.nstatics; i++)
		add(sc, co.statics[i].v);
	sc->nown = sc->nvars;
	for (i = 0, n = dwarfx_statics_of(vs, sc->cu, &first); i < n; i++) {
		const dwarfx_var *v = gvar_var(dx, &vs->gvars[vs->statics[first + i]]);

		if (v)
			add(sc, v);
	}
	free(co.locals);
	free(co.params);
	free(co.statics);
	return 0;
}

/* The scope at addr of instance f (DWARFX_NONE: no function there). */
static int scope_of(dwarfx *dx, uint64_t addr, uint32_t f, dwarfx_scope **out, rg_err *err)
{
	dwarfx_scope *sc;
	Dwarf_Die die;

	*out = NULL;
	if (!dx->dbg || f == DWARFX_NONE)
		return DWARFX_NO_ENTRY;
	if (dwarfx_names_index(dx, err) < 0)
		return DWARFX_ERROR;
	die = dwarfx_die_at(dx->dbg, dx->fns[f].die);
	if (!die) {
		rg_error(err, "cannot read the debug info of '%s': the entry of '%s'", dx->path,
			 dwarfx_fn_display(&dx->fns[f]) ? dwarfx_fn_display(&dx->fns[f]) : "?");
		return DWARFX_ERROR;
	}
	sc = xcalloc(1, sizeof(*sc));
	sc->dx = dx;
	sc->addr = addr;
	sc->function = where(dx, f, addr);
	sc->context = context_of(sc, dx->fns[f].qname);
	if (fill(sc, f, die, err) < 0) {
		dwarf_dealloc_die(die);
		dwarfx_scope_free(sc);
		return DWARFX_ERROR;
	}
	dwarf_dealloc_die(die);
	*out = sc;
	return DWARFX_OK;
}

int dwarfx_scope_at(dwarfx *dx, uint64_t addr, dwarfx_scope **out, rg_err *err)
{
	*out = NULL;
	if (!dx->dbg)
		return DWARFX_NO_ENTRY;
	return scope_of(dx, addr, dwarfx_fn_at(dx, addr), out, err);
}

int dwarfx_scope_at_loc(dwarfx *dx, const dwarfx_loc *loc, dwarfx_scope **out,
			rg_err *err)
{
	*out = NULL;
	if (!dx->dbg)
		return DWARFX_NO_ENTRY;
	return scope_of(dx, loc->addr, dwarfx_fn_for_line(dx, loc->addr, loc->file, loc->line),
			out, err);
}

void dwarfx_scope_free(dwarfx_scope *sc)
{
	if (!sc)
		return;
	dwarfx_arena_release(&sc->arena);
	free(sc->vars);
	free(sc);
}

/* ---- look-ups ---- */

/*
 * name inside the C++ context ctx and each enclosing one ("ns::Queue::n",
 * then "ns::n"), as C++ looks a name up from a member function.
 */
static const dwarfx_var *in_context(dwarfx *dx, const char *ctx, const char *name,
				    uint64_t cu)
{
	rg_buf b = RG_BUF_INIT;
	const dwarfx_var *v = NULL;
	size_t len = ctx ? strlen(ctx) : 0;

	while (ctx && len && !v) {
		const char *p;

		rg_buf_release(&b);
		rg_buf_add(&b, ctx, len);
		rg_buf_printf(&b, "::%s", name);
		v = global_named(dx, b.s, cu, false);
		/* the enclosing context: cut at the last "::" before len */
		for (p = ctx + len; p > ctx + 1 && !(p[-1] == ':' && p[-2] == ':'); p--)
			;
		len = p > ctx + 1 ? (size_t)(p - 2 - ctx) : 0;
	}
	rg_buf_release(&b);
	return v;
}

const dwarfx_var *dwarfx_scope_find(const dwarfx_scope *sc, const char *name)
{
	const dwarfx_var *v;
	size_t i;

	if (!name || !*name)
		return NULL;
	if (!strncmp(name, "::", 2))
		return global_named(sc->dx, name + 2, 0, false);
	if (!strstr(name, "::"))
		for (i = 0; i < sc->nvars; i++)
			if (!strcmp(sc->vars[i]->name, name))
				return sc->vars[i];
	if ((v = in_context(sc->dx, sc->context, name, sc->cu)))
		return v;
	if ((v = global_named(sc->dx, name, sc->cu, false)))
		return v;
	return strstr(name, "::") ? global_tail(sc->dx, name) : NULL;
}

size_t dwarfx_scope_locals(const dwarfx_scope *sc, const dwarfx_var **out, size_t max)
{
	size_t i;

	for (i = 0; i < sc->nown && i < max; i++)
		out[i] = sc->vars[i];
	return sc->nown;
}

const char *dwarfx_scope_function(const dwarfx_scope *sc)
{
	return sc->function;
}

/*
 * The best entry of list named key: an own name before a tag's bare one
 * (which a variable of that name hides), sc's unit first, a definition
 * before a declaration.  NULL when none.
 */
static const struct dwarfx_tname *best_name(const dwarfx_scope *sc,
					    const struct dwarfx_tname *list, size_t n,
					    const char *key, bool types)
{
	const struct dwarfx_tname *best = NULL;
	size_t first, count, i;
	int best_score = 0;

	count = dwarfx_names_find(list, n, key, &first);
	for (i = first; i < first + count; i++) {
		const struct dwarfx_tname *t = &list[i];
		int score = t->rank * 4 + (t->cu != sc->cu) * 2 + t->decl;

		if (types && t->rank && dwarfx_scope_find(sc, key))
			continue;
		if (!best || score < best_score) {
			best = t;
			best_score = score;
		}
	}
	return best;
}

/* best_name for key in sc's C++ context and each enclosing one, then as is. */
static const struct dwarfx_tname *contextual(const dwarfx_scope *sc,
					     const struct dwarfx_tname *list, size_t n,
					     const char *key, bool types)
{
	const struct dwarfx_tname *t = NULL;
	rg_buf b = RG_BUF_INIT;
	const char *ctx = sc->context;
	size_t len = ctx ? strlen(ctx) : 0;

	while (ctx && len && !t && strncmp(key, "::", 2)) {
		const char *p;

		rg_buf_release(&b);
		rg_buf_add(&b, ctx, len);
		rg_buf_printf(&b, "::%s", key);
		t = best_name(sc, list, n, b.s, types);
		for (p = ctx + len; p > ctx + 1 && !(p[-1] == ':' && p[-2] == ':'); p--)
			;
		len = p > ctx + 1 ? (size_t)(p - 2 - ctx) : 0;
	}
	rg_buf_release(&b);
	if (!t)
		t = best_name(sc, list, n, strncmp(key, "::", 2) ? key : key + 2, types);
	return t;
}

const dwarfx_type *dwarfx_scope_type(const dwarfx_scope *sc, const char *name)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(sc->dx);
	const struct dwarfx_tname *t;

	if (!name || !*name)
		return NULL;
	t = contextual(sc, vs->tnames, vs->ntnames, name, true);
	return t ? dwarfx_type_at(sc->dx, t->die, 0) : NULL;
}

bool dwarfx_scope_enumerator(const dwarfx_scope *sc, const char *name,
			     int64_t *value, const dwarfx_type **type)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(sc->dx);
	const struct dwarfx_tname *t;

	if (!name || !*name)
		return false;
	t = contextual(sc, vs->enums, vs->nenums, name, false);
	if (!t)
		return false;
	*value = t->value;
	*type = dwarfx_type_at(sc->dx, t->die, 0);
	return true;
}

const dwarfx_var *dwarfx_global(dwarfx *dx, const char *name)
{
	rg_err err = RG_ERR_INIT;
	const dwarfx_var *v;

	if (!dx->dbg || !name || dwarfx_names_index(dx, &err) < 0)
		return NULL;
	if (!strncmp(name, "::", 2))
		name += 2;
	v = global_named(dx, name, 0, true);
	if (!v && strstr(name, "::"))
		v = global_tail(dx, name);
	return v;
}
