/*
 * The names a condition may use that are not a function's own: one walk
 * over every unit's top level (namespaces and classes included, function
 * bodies skipped), made the first time a scope, a global or a type is
 * asked for -- never at dwarfx_open, which must stay fast for programs
 * whose gates have no condition.
 *
 *   gvars    variables with a location: globals, file statics, namespace
 *            variables and class static members, under qualified names
 *            ("ns::count", "Queue::instances"); a definition that refers to
 *            its declaration (DW_AT_specification) takes the declaration's
 *   tnames   typedefs, struct/union/enum tags, C++ classes, under every
 *            name a user may write ("struct queue", "queue", "ns::Queue",
 *            "Queue")
 *   enums    enumerators ("RED", "Color::RED", "ns::RED")
 *   qnames   entry offset -> qualified name, for types and declarations
 */
#include "dwarfx_vint.h"

#include <stdlib.h>
#include <string.h>

struct pend {
	uint64_t die, spec;
};

struct nwalk {
	dwarfx *dx;
	Dwarf_Debug dbg;
	struct dwarfx_vstate *vs;
	rg_err *err;
	uint64_t cu;
	bool cxx;
	struct pend *pend;       /* definitions to name after the unit's walk */
	size_t npend, pend_cap;
};

static int fail(struct nwalk *w, Dwarf_Error e, const char *what)
{
	rg_error(w->err, "cannot read the debug info of '%s': %s: %s", w->dx->path, what,
		 e ? dwarf_errmsg(e) : "unknown error");
	if (e)
		dwarf_dealloc_error(w->dbg, e);
	return -1;
}

static const char *intern(struct nwalk *w, const char *s)
{
	return dwarfx_pool_intern(&w->dx->strs, s, strlen(s));
}

static void set_qname(struct nwalk *w, uint64_t off, const char *q)
{
	struct dwarfx_vstate *vs = w->vs;

	RG_GROW(vs->qlist, vs->nq + 1, vs->q_cap);
	vs->qlist[vs->nq] = q;
	dwarfx_map_put(&vs->qnames, off, (uint32_t)vs->nq++);
}

const char *dwarfx_names_qualified(dwarfx *dx, uint64_t off)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	uint32_t i;

	return dwarfx_map_get(&vs->qnames, off, &i) ? vs->qlist[i] : NULL;
}

static void add_name(struct dwarfx_tname **list, size_t *n, size_t *cap,
		     const struct dwarfx_tname *t)
{
	RG_GROW(*list, *n + 1, *cap);
	(*list)[(*n)++] = *t;
}

/*
 * t under key and under each tail of key at a "::"; with qualified, not
 * under the last part alone (a scoped enum's enumerator: "Mode::BUSY",
 * never "BUSY").
 */
static void add_tails(struct nwalk *w, bool enums, struct dwarfx_tname t, const char *key,
		      bool qualified)
{
	struct dwarfx_vstate *vs = w->vs;
	const char *p;
	int depth = 0;

	for (p = key; p; ) {
		if (qualified && p != key && !strstr(p, "::"))
			break;
		t.key = intern(w, p);
		if (enums)
			add_name(&vs->enums, &vs->nenums, &vs->enums_cap, &t);
		else
			add_name(&vs->tnames, &vs->ntnames, &vs->tnames_cap, &t);
		for (; *p; p++) {
			if (*p == '<' || *p == '(')
				depth++;
			else if ((*p == '>' || *p == ')') && depth > 0)
				depth--;
			else if (!depth && p[0] == ':' && p[1] == ':')
				break;
		}
		p = *p && p[2] ? p + 2 : NULL;
	}
}

static void add_type_names(struct nwalk *w, uint64_t off, char tag, const char *q,
			   bool decl)
{
	struct dwarfx_tname t = {NULL, off, w->cu, 0, 0, decl, (unsigned char)tag};
	static const char *const kw[] = {"struct ", "union ", "enum "};
	const char *k = tag == 's' ? kw[0] : tag == 'u' ? kw[1] : tag == 'e' ? kw[2] : NULL;
	rg_buf b = RG_BUF_INIT;

	if (w->cxx || !k) {
		add_tails(w, false, t, q, false);
		if (!k)
			return;
	}
	rg_buf_printf(&b, "%s%s", k, q);
	t.key = intern(w, b.s);
	add_name(&w->vs->tnames, &w->vs->ntnames, &w->vs->tnames_cap, &t);
	rg_buf_release(&b);
	if (!w->cxx) {
		t.rank = 1;
		t.key = intern(w, q);
		add_name(&w->vs->tnames, &w->vs->ntnames, &w->vs->tnames_cap, &t);
	}
}

static void add_enumerators(struct nwalk *w, Dwarf_Die en, uint64_t off,
			    const char *prefix, const char *ename)
{
	bool scoped = dwarfx_die_flag(w->dbg, en, DW_AT_enum_class);
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_child(en, &c, &e);

	while (res == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Attribute a;
		char *name;

		if (dwarf_tag(c, &tag, &e) == DW_DLV_OK && tag == DW_TAG_enumerator &&
		    dwarf_diename(c, &name, &e) == DW_DLV_OK &&
		    dwarf_attr(c, DW_AT_const_value, &a, &e) == DW_DLV_OK) {
			struct dwarfx_tname t = {NULL, off, w->cu, 0, 0, false, 'e'};
			Dwarf_Signed s = 0;
			uint64_t u = 0;
			rg_buf b = RG_BUF_INIT;

			if (dwarf_formsdata(a, &s, &e) == DW_DLV_OK) {
				t.value = s;
			} else {
				if (e)
					dwarf_dealloc_error(w->dbg, e);
				e = NULL;
				if (dwarfx_attr_udata(w->dbg, a, &u) == DW_DLV_OK)
					t.value = (int64_t)u;
			}
			dwarf_dealloc_attribute(a);
			if (ename) {
				rg_buf_printf(&b, "%s%s::%s", prefix, ename, name);
				add_tails(w, true, t, b.s, scoped);
				rg_buf_release(&b);
			}
			if (!scoped) {
				rg_buf_printf(&b, "%s%s", prefix, name);
				add_tails(w, true, t, b.s, false);
				rg_buf_release(&b);
			}
		}
		if (e)
			dwarf_dealloc_error(w->dbg, e);
		e = NULL;
		res = dwarf_siblingof_b(w->dbg, c, true, &next, &e);
		dwarf_dealloc_die(c);
		c = next;
	}
	if (res == DW_DLV_ERROR && e)
		dwarf_dealloc_error(w->dbg, e);
}

static void add_gvar(struct nwalk *w, const char *name, uint64_t die, bool external)
{
	struct dwarfx_vstate *vs = w->vs;
	struct dwarfx_gvar *g;

	RG_GROW(vs->gvars, vs->ngvars + 1, vs->gvars_cap);
	g = &vs->gvars[vs->ngvars++];
	g->name = name;
	g->die = die;
	g->cu = w->cu;
	g->external = external;
	g->var = NULL;
}

static void variable(struct nwalk *w, Dwarf_Die d, uint64_t off, const char *q,
		     bool in_class)
{
	uint64_t spec;

	if (dwarfx_die_ref(w->dbg, d, DW_AT_specification, &spec) == DW_DLV_OK) {
		RG_GROW(w->pend, w->npend + 1, w->pend_cap);
		w->pend[w->npend].die = off;
		w->pend[w->npend].spec = spec;
		w->npend++;
		return;
	}
	if (q)
		set_qname(w, off, q);
	if (!q || dwarfx_die_flag(w->dbg, d, DW_AT_declaration))
		return;
	add_gvar(w, q, off, in_class || dwarfx_die_flag(w->dbg, d, DW_AT_external));
}

static int walk(struct nwalk *w, Dwarf_Die parent, const char *prefix, bool in_class,
		unsigned depth);

/* One entry of a unit's top level, a namespace or a class. */
static int entry(struct nwalk *w, Dwarf_Die d, Dwarf_Half tag, const char *prefix,
		 bool in_class, unsigned depth)
{
	Dwarf_Error e = NULL;
	Dwarf_Off off;
	char *name = NULL;
	const char *q = NULL;
	rg_buf b = RG_BUF_INIT;
	int res, ret = 0;
	char kind;
	uint64_t spec;
	const char *sq;

	switch (tag) {
	case DW_TAG_namespace: case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type: case DW_TAG_enumeration_type: case DW_TAG_typedef:
	case DW_TAG_base_type: case DW_TAG_variable: case DW_TAG_member:
		break;
	default:
		return 0;	/* functions, parameters, ...: most entries */
	}
	if (dwarf_dieoffset(d, &off, &e) != DW_DLV_OK)
		return fail(w, e, "entry offset");
	res = dwarf_diename(d, &name, &e);
	if (res == DW_DLV_ERROR)
		return fail(w, e, "name");
	if (res == DW_DLV_OK) {
		rg_buf_printf(&b, "%s%s", prefix, name);
		q = intern(w, b.s);
	}
	switch (tag) {
	case DW_TAG_namespace:
		rg_buf_puts(&b, q ? "::" : "");
		ret = walk(w, d, q ? b.s : prefix, false, depth + 1);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_typedef:
	case DW_TAG_base_type:
		kind = tag == DW_TAG_union_type ? 'u' : tag == DW_TAG_enumeration_type ? 'e' :
			tag == DW_TAG_typedef ? 't' : tag == DW_TAG_base_type ? 'o' : 's';
		/*
		 * A type unit defines a class at its top level, naming its
		 * declaration in the namespace (DW_AT_specification): the
		 * declaration's name is the qualified one.
		 */
		if (q && dwarfx_die_ref(w->dbg, d, DW_AT_specification, &spec) == DW_DLV_OK &&
		    (sq = dwarfx_names_qualified(w->dx, spec))) {
			q = sq;
			rg_buf_release(&b);
			rg_buf_puts(&b, q);
		}
		if (q) {
			set_qname(w, off, q);
			add_type_names(w, off, kind, q,
				       dwarfx_die_flag(w->dbg, d, DW_AT_declaration));
		}
		if (tag == DW_TAG_enumeration_type) {
			/* enumerators live where the enum is, which q says */
			const char *last = q ? q + strlen(q) : NULL;
			char *encl = NULL;

			while (last && last > q + 1 && !(last[-1] == ':' && last[-2] == ':'))
				last--;
			if (last && last > q + 1)
				encl = xstrndup(q, (size_t)(last - q));
			add_enumerators(w, d, off, encl ? encl : prefix, w->cxx ? name : NULL);
			free(encl);
		}
		else if (kind == 's' || kind == 'u') {
			if (q)
				rg_buf_puts(&b, "::");
			ret = walk(w, d, q ? b.s : prefix, true, depth + 1);
		}
		break;
	case DW_TAG_variable:
		variable(w, d, off, q, in_class);
		break;
	case DW_TAG_member:
		/* DWARF 4: a static data member's declaration */
		if (q && in_class && (dwarfx_die_flag(w->dbg, d, DW_AT_external) ||
				      dwarfx_die_flag(w->dbg, d, DW_AT_declaration)))
			set_qname(w, off, q);
		break;
	default:
		break;
	}
	rg_buf_release(&b);
	return ret;
}

static int walk(struct nwalk *w, Dwarf_Die parent, const char *prefix, bool in_class,
		unsigned depth)
{
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int res;

	if (depth > DWARFX_VMAX_DEPTH)
		return fail(w, NULL, "entries nested too deep");
	res = dwarf_child(parent, &c, &e);
	if (res == DW_DLV_ERROR)
		return fail(w, e, "entry children");
	while (res == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag;

		if (dwarf_tag(c, &tag, &e) != DW_DLV_OK) {
			dwarf_dealloc_die(c);
			return fail(w, e, "entry tag");
		}
		if (entry(w, c, tag, prefix, in_class, depth) < 0) {
			dwarf_dealloc_die(c);
			return -1;
		}
		res = dwarf_siblingof_b(w->dbg, c, true, &next, &e);
		dwarf_dealloc_die(c);
		if (res == DW_DLV_ERROR)
			return fail(w, e, "entry siblings");
		c = next;
	}
	return 0;
}

/* Definitions that name their declaration: the declaration's names. */
static void resolve_pending(struct nwalk *w)
{
	size_t i;

	for (i = 0; i < w->npend; i++) {
		const char *q = dwarfx_names_qualified(w->dx, w->pend[i].spec);
		Dwarf_Die spec = dwarfx_die_at(w->dbg, w->pend[i].spec);
		Dwarf_Die def = dwarfx_die_at(w->dbg, w->pend[i].die);
		bool ext = false;

		if (!q && spec)
			q = dwarfx_die_name(w->dx, spec);
		if (spec)
			ext = dwarfx_die_flag(w->dbg, spec, DW_AT_external);
		if (def)
			ext = ext || dwarfx_die_flag(w->dbg, def, DW_AT_external);
		if (q && def && !dwarfx_die_flag(w->dbg, def, DW_AT_declaration))
			add_gvar(w, q, w->pend[i].die, ext);
		if (spec)
			dwarf_dealloc_die(spec);
		if (def)
			dwarf_dealloc_die(def);
	}
	w->npend = 0;
}

static int unit(struct nwalk *w, Dwarf_Die cu)
{
	Dwarf_Error e = NULL;
	Dwarf_Half tag;
	Dwarf_Unsigned lang = 0;
	Dwarf_Off off;
	int res;

	if (dwarf_tag(cu, &tag, &e) != DW_DLV_OK)
		return fail(w, e, "unit tag");
	if (dwarf_dieoffset(cu, &off, &e) != DW_DLV_OK)
		return fail(w, e, "unit offset");
	w->cu = off;
	res = dwarf_srclang(cu, &lang, &e);
	if (res == DW_DLV_ERROR)
		return fail(w, e, "unit language");
	w->cxx = res == DW_DLV_OK && (lang == DW_LANG_C_plus_plus ||
				      lang == DW_LANG_C_plus_plus_03 ||
				      lang == DW_LANG_C_plus_plus_11 ||
				      lang == DW_LANG_C_plus_plus_14);
	if (w->cxx)
		dwarfx_map_put(&w->vs->cxx_units, off, 1);
	if (walk(w, cu, "", false, 0) < 0)
		return -1;
	resolve_pending(w);
	return 0;
}

static int tname_cmp(const void *pa, const void *pb)
{
	const struct dwarfx_tname *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

static int gvar_cmp(const void *pa, const void *pb)
{
	const struct dwarfx_gvar *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->external != b->external)
		return a->external ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

static int walk_units(struct nwalk *w)
{
	Dwarf_Error e = NULL;
	int res;

	for (;;) {
		Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
		Dwarf_Half version, addr_size, offset_size, ext_size, unit_type;
		Dwarf_Sig8 sig;
		Dwarf_Die cu = NULL;

		res = dwarf_next_cu_header_d(w->dbg, true, &hlen, &version, &abbrev_off,
					     &addr_size, &offset_size, &ext_size, &sig,
					     &typeoff, &next, &unit_type, &e);
		if (res == DW_DLV_NO_ENTRY)
			return 0;
		if (res == DW_DLV_ERROR)
			return fail(w, e, "unit header");
		res = dwarf_siblingof_b(w->dbg, NULL, true, &cu, &e);
		if (res == DW_DLV_ERROR)
			return fail(w, e, "unit entry");
		if (res == DW_DLV_NO_ENTRY)
			continue;
		res = unit(w, cu);
		dwarf_dealloc_die(cu);
		if (res < 0) {
			/* finish the header loop so that the next reader starts afresh */
			while (dwarf_next_cu_header_d(w->dbg, true, &hlen, &version, &abbrev_off,
						      &addr_size, &offset_size, &ext_size,
						      &sig, &typeoff, &next, &unit_type,
						      &e) == DW_DLV_OK)
				;
			if (e)
				dwarf_dealloc_error(w->dbg, e);
			return -1;
		}
	}
}

static int static_cmp(const void *pa, const void *pb, void *arg)
{
	const struct dwarfx_gvar *g = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (g[a].cu != g[b].cu)
		return g[a].cu < g[b].cu ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Every scope lists its unit's file statics: find them by unit, not by a scan. */
static void index_statics(struct dwarfx_vstate *vs)
{
	size_t i;

	vs->statics = xcalloc(vs->ngvars ? vs->ngvars : 1, sizeof(*vs->statics));
	vs->nstatics = 0;
	for (i = 0; i < vs->ngvars; i++)
		if (!vs->gvars[i].external)
			vs->statics[vs->nstatics++] = (uint32_t)i;
	if (vs->nstatics > 1)
		qsort_r(vs->statics, vs->nstatics, sizeof(*vs->statics), static_cmp, vs->gvars);
}

int dwarfx_names_index(dwarfx *dx, rg_err *err)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	struct nwalk w;
	int ret;

	if (vs->indexed)
		return vs->indexed > 0 ? 0 : rg_error(err, "cannot read the debug info of '%s'",
						      dx->path);
	memset(&w, 0, sizeof(w));
	w.dx = dx;
	w.dbg = dx->dbg;
	w.vs = vs;
	w.err = err;
	ret = dx->dbg ? walk_units(&w) : 0;
	free(w.pend);
	vs->indexed = ret < 0 ? -1 : 1;
	if (vs->ngvars > 1)
		qsort(vs->gvars, vs->ngvars, sizeof(*vs->gvars), gvar_cmp);
	if (vs->ntnames > 1)
		qsort(vs->tnames, vs->ntnames, sizeof(*vs->tnames), tname_cmp);
	if (vs->nenums > 1)
		qsort(vs->enums, vs->nenums, sizeof(*vs->enums), tname_cmp);
	index_statics(vs);
	return ret;
}

size_t dwarfx_statics_of(const struct dwarfx_vstate *vs, uint64_t cu, size_t *first)
{
	size_t lo = 0, hi = vs->nstatics, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vs->gvars[vs->statics[mid]].cu < cu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	for (end = lo; end < vs->nstatics && vs->gvars[vs->statics[end]].cu == cu; end++)
		;
	return end - lo;
}

size_t dwarfx_names_find(const struct dwarfx_tname *list, size_t n, const char *key,
			 size_t *first)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(list[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	for (end = lo; end < n && !strcmp(list[end].key, key); end++)
		;
	return end - lo;
}

size_t dwarfx_gvars_find(const struct dwarfx_vstate *vs, const char *key, size_t *first)
{
	size_t lo = 0, hi = vs->ngvars, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(vs->gvars[mid].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	for (end = lo; end < vs->ngvars && !strcmp(vs->gvars[end].name, key); end++)
		;
	return end - lo;
}
