/*
 * What threads start in, as {start:} and {runs:} selectors name it
 * (dwarfx.h): a thread's start routine by its name with its parameter
 * types, the names a user may write for it, the functions and lambdas
 * defined at a line, the start routines a program has (for the error that
 * lists them), and the code of a function with every inlined copy.
 *
 * The DIEs read here (a function's type, the class its `this` points to,
 * the line a lambda is written on) are read when a spec is checked, once
 * per selector, never per thread.
 */
#include "dwarfx_vint.h"

#include "cxxname.h"

#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

const char *dwarfx_start_name_at(dwarfx *dx, uint64_t addr)
{
	uint32_t f = dwarfx_fn_at(dx, addr);
	const struct dwarfx_fn *fn;
	const char *params, *sym, *r;
	char *s;

	while (f != DWARFX_NONE && dx->fns[f].inlined)
		f = dx->fns[f].parent;
	if (f == DWARFX_NONE || !dx->fns[f].name) {
		/* no DWARF: a C++ symbol says what its function is called */
		if (!(sym = dwarfx_symbol_at(dx, addr)))
			return NULL;
		if (strncmp(sym, "_Z", 2) || !(s = dwarfx_demangle(sym)))
			return sym;
		r = dwarfx_pool_intern(&dx->strs, s, strlen(s));
		free(s);
		return r;
	}
	fn = &dx->fns[f];
	if (!fn->qname || !fn->sig || !(params = rg_cxx_trailing_params(fn->sig)))
		return dwarfx_fn_display(fn);
	s = xasprintf("%s%s", fn->qname, params);
	r = dwarfx_pool_intern(&dx->strs, s, strlen(s));
	free(s);
	return r;
}

/* Does a end with b, at its start or after a "::" (or a blank: "void f(int)")? */
static bool ends_at_name(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (lb > la || strcmp(a + la - lb, b))
		return false;
	return la == lb || a[la - lb - 1] == ' ' ||
	       (la - lb >= 2 && a[la - lb - 1] == ':' && a[la - lb - 2] == ':');
}

bool dwarfx_name_answers(const char *have, const char *want)
{
	const char *hp = rg_cxx_trailing_params(have), *wp = rg_cxx_trailing_params(want);
	size_t wn = wp ? (size_t)(wp - want) : strlen(want);
	bool untemplate = !memchr(want, '<', wn), ok;
	char *name, *a, *b, *close;

	if (wp && !hp)
		return false;
	name = wp ? xstrdup(have) :
	       hp ? xstrndup(have, (size_t)(hp - have)) : xstrdup(have);
	a = dwarfx_cxx_normal(name, untemplate);
	b = dwarfx_cxx_normal(want, false);
	ok = ends_at_name(a, b);
	/* "Q::get(int)" for "Q::get(int) const": qualifiers need not be given */
	if (!ok && wp && (close = strrchr(a, ')')) && close[1] &&
	    b[0] && b[strlen(b) - 1] == ')') {
		close[1] = '\0';
		ok = ends_at_name(a, b);
	}
	free(a);
	free(b);
	free(name);
	return ok;
}

/* ---- reading DIEs ---- */

/*
 * The DIE at off, or the one its DW_AT_abstract_origin or
 * DW_AT_specification leads to, that has attribute at: its offset.
 */
static bool die_with(dwarfx *dx, uint64_t off, Dwarf_Half at, uint64_t *found)
{
	static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
	Dwarf_Debug dbg = dx->dbg;
	unsigned hops;

	for (hops = 0; hops < DWARFX_VMAX_DEPTH; hops++) {
		Dwarf_Die d = dwarfx_die_at(dbg, off);
		Dwarf_Bool has = false;
		Dwarf_Error e = NULL;
		uint64_t next = 0;
		size_t i;

		if (!d)
			return false;
		if (dwarf_hasattr(d, at, &has, &e) != DW_DLV_OK) {
			if (e)
				dwarf_dealloc_error(dbg, e);
			has = false;
		}
		for (i = 0; !has && i < 2; i++)
			if (dwarfx_die_ref(dbg, d, refs[i], &next) == DW_DLV_OK)
				break;
		dwarf_dealloc_die(d);
		if (has) {
			*found = off;
			return true;
		}
		if (i == 2)
			return false;
		off = next;
	}
	return false;
}

static bool die_udata_at(dwarfx *dx, uint64_t off, Dwarf_Half at, uint64_t *val)
{
	Dwarf_Die d = dwarfx_die_at(dx->dbg, off);
	int res;

	if (!d)
		return false;
	res = dwarfx_die_udata(dx->dbg, d, at, val);
	dwarf_dealloc_die(d);
	return res == DW_DLV_OK;
}

static bool die_ref_at(dwarfx *dx, uint64_t off, Dwarf_Half at, uint64_t *ref)
{
	Dwarf_Die d = dwarfx_die_at(dx->dbg, off);
	int res;

	if (!d)
		return false;
	res = dwarfx_die_ref(dx->dbg, d, at, ref);
	dwarf_dealloc_die(d);
	return res == DW_DLV_OK;
}

static Dwarf_Half die_tag(dwarfx *dx, uint64_t off)
{
	Dwarf_Die d = dwarfx_die_at(dx->dbg, off);
	Dwarf_Error e = NULL;
	Dwarf_Half tag = 0;

	if (!d)
		return 0;
	if (dwarf_tag(d, &tag, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc_error(dx->dbg, e);
		tag = 0;
	}
	dwarf_dealloc_die(d);
	return tag;
}

/* The line a function's declaration gives, or 0. */
static uint64_t decl_line(dwarfx *dx, const struct dwarfx_fn *fn)
{
	uint64_t off, line = 0;

	if (die_with(dx, fn->die, DW_AT_decl_line, &off))
		die_udata_at(dx, off, DW_AT_decl_line, &line);
	return line;
}

/*
 * When fn is a lambda's operator() (a member function of a class without
 * a name: the closure type), the line the lambda is written on (the
 * closure's declaration); else 0.
 */
static uint64_t lambda_line(dwarfx *dx, const struct dwarfx_fn *fn)
{
	uint64_t off, param, type, line = 0;
	unsigned hops;

	if (!fn->name || strcmp(fn->name, "operator()") ||
	    !die_with(dx, fn->die, DW_AT_object_pointer, &off) ||
	    !die_ref_at(dx, off, DW_AT_object_pointer, &param) ||
	    !die_with(dx, param, DW_AT_type, &off) || !die_ref_at(dx, off, DW_AT_type, &type))
		return 0;
	for (hops = 0; hops < DWARFX_VMAX_DEPTH; hops++) {
		Dwarf_Half tag = die_tag(dx, type);

		if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type)
			break;
		if ((tag != DW_TAG_pointer_type && tag != DW_TAG_const_type &&
		     tag != DW_TAG_volatile_type && tag != DW_TAG_typedef) ||
		    !die_ref_at(dx, type, DW_AT_type, &type))
			return 0;
	}
	{
		Dwarf_Die d = dwarfx_die_at(dx->dbg, type);
		char *name = NULL;
		Dwarf_Error e = NULL;
		int res;

		if (!d)
			return 0;
		res = dwarf_diename(d, &name, &e);
		if (res == DW_DLV_ERROR && e)
			dwarf_dealloc_error(dx->dbg, e);
		if (res != DW_DLV_OK)
			dwarfx_die_udata(dx->dbg, d, DW_AT_decl_line, &line);
		dwarf_dealloc_die(d);
	}
	return line;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t ls = strlen(s), lt = strlen(tail);

	return ls >= lt && !strcmp(s + ls - lt, tail);
}

/* The callable type of a std::thread state's _M_run (qualified name), or NULL. */
static char *state_callable(const char *qname)
{
	char *arg = NULL;

	if (!qname || strncmp(qname, "std::thread::_State_impl<", 25) ||
	    !ends_with(qname, "::_M_run") || dwarfx_tuple_args(qname, &arg, 1) != 1)
		return NULL;
	return arg;
}

/*
 * The type of the lambda whose operator() instance f is, as threads
 * running it are named: from its own qualified name, or (inlined, with
 * none) from the std::thread state whose _M_run holds it.  NULL: unknown.
 */
static char *lambda_type(dwarfx *dx, uint32_t f)
{
	const char *q = dx->fns[f].qname;
	char *t;

	if (q && ends_with(q, "::operator()"))
		return xstrndup(q, strlen(q) - strlen("::operator()"));
	for (f = dx->fns[f].parent; f != DWARFX_NONE; f = dx->fns[f].parent)
		if ((t = state_callable(dx->fns[f].qname)))
			return t;
	return NULL;
}

/* ---- what is defined at a line ---- */

static void add_name(const char ***v, size_t *n, size_t *cap, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	RG_GROW(*v, *n + 1, *cap);
	(*v)[(*n)++] = s;
}

static const char *intern_free(dwarfx *dx, char *s)
{
	const char *r = dwarfx_pool_intern(&dx->strs, s, strlen(s));

	free(s);
	return r;
}

/* Is fn's first instruction in one of the files ids[0..nids), at which line? */
static int entry_line(dwarfx *dx, const struct dwarfx_fn *fn, const uint32_t *ids,
		      size_t nids)
{
	dwarfx_loc loc;

	dwarfx_symbolize(dx, fn->entry, &loc);
	for (size_t i = 0; loc.file && i < nids; i++)
		if (dx->files[ids[i]].path == loc.file)
			return loc.line;
	return -1;
}

int dwarfx_defined_at(dwarfx *dx, const char *file, int line, const char ***out,
		      size_t *n, rg_err *err)
{
	const char **decl = NULL, **entry = NULL;
	size_t nd = 0, capd = 0, ne = 0, cape = 0, nids;
	uint32_t *ids, f;

	*out = NULL;
	*n = 0;
	if (!dx->debug || !dx->dbg) {
		rg_error(err, DWARFX_NO_DEBUG, rg_base_name(dx->path));
		return DWARFX_NO_ENTRY;
	}
	nids = dwarfx_match_files(dx, file, &ids);
	if (!nids) {
		rg_error(err, "no source file '%s' in '%s'", file, dx->path);
		return DWARFX_NO_ENTRY;
	}
	for (f = 0; f < dx->nfns; f++) {
		const struct dwarfx_fn *fn = &dx->fns[f];
		int el = entry_line(dx, fn, ids, nids);
		uint64_t ll, dl;
		char *t;

		if (el < 0 || (fn->inlined && (!fn->name || strcmp(fn->name, "operator()"))))
			continue;
		if ((ll = lambda_line(dx, fn))) {
			if ((ll != (uint64_t)line && el != line) || !(t = lambda_type(dx, f)))
				continue;
			add_name(ll == (uint64_t)line ? &decl : &entry,
				 ll == (uint64_t)line ? &nd : &ne,
				 ll == (uint64_t)line ? &capd : &cape, intern_free(dx, t));
			continue;
		}
		if (fn->inlined)
			continue;
		dl = decl_line(dx, fn);
		if (dl == (uint64_t)line)
			add_name(&decl, &nd, &capd, dwarfx_start_name_at(dx, fn->entry));
		else if (el == line)
			add_name(&entry, &ne, &cape, dwarfx_start_name_at(dx, fn->entry));
	}
	free(ids);
	/* a function's own line first; its first line with code only without */
	if (nd) {
		free(entry);
		*out = decl;
		*n = nd;
	} else {
		*out = entry;
		*n = ne;
	}
	if (!*n) {
		rg_error(err, "no function or lambda is defined at '%s:%d'", file, line);
		return DWARFX_NO_ENTRY;
	}
	return DWARFX_OK;
}

/* ---- the start routines a program has ---- */

/* Is the type at DIE offset off void *? */
static bool void_pointer(dwarfx *dx, uint64_t off)
{
	const dwarfx_type *t = dwarfx_type_strip(dwarfx_type_at(dx, off, 0));

	return t->kind == DWARFX_T_POINTER && t->target &&
	       dwarfx_type_strip(t->target)->kind == DWARFX_T_VOID;
}

/* Can fn be given to pthread_create: void *fn(void *)? */
static bool pthread_shaped(dwarfx *dx, const struct dwarfx_fn *fn)
{
	uint64_t off, type, origin = fn->die;
	Dwarf_Debug dbg = dx->dbg;
	Dwarf_Die d, c = NULL, next;
	Dwarf_Error e = NULL;
	size_t nparams = 0;
	bool ok = true;

	if (!die_with(dx, fn->die, DW_AT_type, &off) ||
	    !die_ref_at(dx, off, DW_AT_type, &type) || !void_pointer(dx, type))
		return false;
	/* the parameters with their types: an abstract instance's */
	if (!die_ref_at(dx, fn->die, DW_AT_abstract_origin, &origin))
		origin = fn->die;
	if (!(d = dwarfx_die_at(dbg, origin)))
		return false;
	if (dwarf_child(d, &c, &e) != DW_DLV_OK)
		c = NULL;
	while (c && ok) {
		Dwarf_Half tag = 0;
		Dwarf_Off coff = 0;

		if (dwarf_tag(c, &tag, &e) == DW_DLV_OK && tag == DW_TAG_formal_parameter &&
		    !dwarfx_die_flag(dbg, c, DW_AT_artificial) &&
		    dwarf_dieoffset(c, &coff, &e) == DW_DLV_OK) {
			ok = ++nparams == 1 && die_with(dx, coff, DW_AT_type, &off) &&
			     die_ref_at(dx, off, DW_AT_type, &type) && void_pointer(dx, type);
		} else if (tag == DW_TAG_unspecified_parameters) {
			ok = false;
		}
		if (e) {
			dwarf_dealloc_error(dbg, e);
			e = NULL;
		}
		next = NULL;
		if (dwarf_siblingof_b(dbg, c, true, &next, &e) != DW_DLV_OK)
			next = NULL;
		dwarf_dealloc_die(c);
		c = next;
	}
	if (c)
		dwarf_dealloc_die(c);
	if (e)
		dwarf_dealloc_error(dbg, e);
	dwarf_dealloc_die(d);
	return ok && nparams == 1;
}

struct routines {
	dwarfx_routine *v;
	size_t n, cap;
};

static void add_routine(struct routines *r, const char *name, const char *file, int line)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			return;
	RG_GROW(r->v, r->n + 1, r->cap);
	r->v[r->n].name = xstrdup(name);
	r->v[r->n].file = file;
	r->v[r->n].line = line;
	r->n++;
}

/* fn's declaration's file and line (its first instruction's file). */
static void where_defined(dwarfx *dx, const struct dwarfx_fn *fn, const char **file,
			  int *line)
{
	dwarfx_loc loc;
	uint64_t dl = decl_line(dx, fn);

	dwarfx_symbolize(dx, fn->entry, &loc);
	*file = loc.file;
	*line = dl ? (int)dl : loc.line;
}

/*
 * The functions a std::thread whose callable is a pointer of type ptr
 * ("void (*)(int)", "void (Worker::*)(int)") may run: those whose
 * parameters are the pointer's (and, for a member, of that class).
 */
static void pointer_targets(dwarfx *dx, const char *ptr, struct routines *r)
{
	const char *star = strstr(ptr, "*)"), *open = star ? strrchr(ptr, '(') : NULL;
	const char *cls_end = star && star - ptr >= 2 && star[-1] == ':' ? star - 2 : NULL;
	const char *cls = NULL;
	char *want_cls = NULL;
	uint32_t f;

	if (!open || open < star)
		return;
	if (cls_end) {
		for (cls = cls_end; cls > ptr && cls[-1] != '('; cls--)
			;
		want_cls = xstrndup(cls, (size_t)(cls_end - cls));
	}
	for (f = 0; f < dx->nfns; f++) {
		const struct dwarfx_fn *fn = &dx->fns[f];
		const char *params, *file;
		char *scope;
		uint64_t off;
		bool member;
		int line;

		if (fn->inlined || !fn->qname || !fn->sig ||
		    !(params = rg_cxx_trailing_params(fn->sig)) || strcmp(params, open))
			continue;
		member = die_with(dx, fn->die, DW_AT_object_pointer, &off);
		if (member != (want_cls != NULL))
			continue;
		if (want_cls) {
			const char *last = strrchr(fn->qname, ':');

			if (!last || last - fn->qname < 2)
				continue;
			scope = xstrndup(fn->qname, (size_t)(last - 1 - fn->qname));
			member = dwarfx_name_answers(scope, want_cls);
			free(scope);
			if (!member)
				continue;
		}
		where_defined(dx, fn, &file, &line);
		add_routine(r, dwarfx_start_name_at(dx, fn->entry), file, line);
	}
	free(want_cls);
}

/* The lambda or function object type t: where its operator() is defined. */
static void callable_routine(dwarfx *dx, const char *t, struct routines *r)
{
	const char *file = NULL;
	int line = 0;
	uint32_t f;

	for (f = 0; f < dx->nfns && !file; f++) {
		const struct dwarfx_fn *fn = &dx->fns[f];
		uint64_t ll;
		char *lt;

		if (!fn->name || strcmp(fn->name, "operator()"))
			continue;
		/* a lambda's, or a function object's by its qualified name (not
		 * std::thread's own _Invoker::operator() around it) */
		ll = lambda_line(dx, fn);
		if ((!ll && !(fn->qname && ends_with(fn->qname, "::operator()"))) ||
		    !(lt = lambda_type(dx, f)))
			continue;
		if (!strcmp(lt, t)) {
			dwarfx_loc loc;

			dwarfx_symbolize(dx, fn->entry, &loc);
			file = loc.file;
			line = ll ? (int)ll : loc.line;
		}
		free(lt);
	}
	add_routine(r, t, file, line);
}

static int routine_cmp(const void *a, const void *b)
{
	return strcmp(((const dwarfx_routine *)a)->name, ((const dwarfx_routine *)b)->name);
}

size_t dwarfx_thread_routines(dwarfx *dx, dwarfx_routine **out)
{
	struct routines r = {NULL, 0, 0};
	uint32_t f;

	*out = NULL;
	if (!dx->debug || !dx->dbg)
		return 0;
	for (f = 0; f < dx->nfns; f++) {
		const struct dwarfx_fn *fn = &dx->fns[f];
		const char *file;
		char *t;
		int line;

		if (fn->inlined || fn->parent != DWARFX_NONE)
			continue;
		if ((t = state_callable(fn->qname))) {
			if (strstr(t, "*)"))
				pointer_targets(dx, t, &r);
			else
				callable_routine(dx, t, &r);
			free(t);
		} else if (pthread_shaped(dx, fn)) {
			where_defined(dx, fn, &file, &line);
			add_routine(&r, dwarfx_start_name_at(dx, fn->entry), file, line);
		}
	}
	if (r.n > 1)
		qsort(r.v, r.n, sizeof(*r.v), routine_cmp);
	*out = r.v;
	return r.n;
}

void dwarfx_routines_free(dwarfx_routine *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* ---- the code of a function ---- */

int dwarfx_function_code(dwarfx *dx, const char *name, dwarfx_span **out, size_t *n,
			 dwarfx_hint *hint, rg_err *err)
{
	dwarfx_loc *locs = NULL;
	size_t nlocs = 0, i, cap = 0;
	char *where = xasprintf("*%s", name);
	int rc = dwarfx_resolve(dx, where, &locs, &nlocs, hint, err);

	free(where);
	*out = NULL;
	*n = 0;
	if (rc != DWARFX_OK)
		return rc;
	for (i = 0; i < nlocs; i++) {
		uint32_t f = dwarfx_fn_at(dx, locs[i].addr);
		dwarfx_span s[64];
		size_t k, ns;

		/* an inlined copy: its own ranges, not those of the function it is in */
		while (locs[i].inlined && f != DWARFX_NONE &&
		       !(dx->fns[f].inlined && dx->fns[f].entry == locs[i].addr &&
			 locs[i].function &&
			 !strcmp(dwarfx_fn_display(&dx->fns[f]), locs[i].function)))
			f = dx->fns[f].parent;
		if (locs[i].inlined && f != DWARFX_NONE) {
			for (k = 0; k < dx->fns[f].nranges; k++) {
				RG_GROW(*out, *n + 1, cap);
				(*out)[(*n)++] = (dwarfx_span){dx->ranges[dx->fns[f].range0 + k].lo,
							       dx->ranges[dx->fns[f].range0 + k].hi};
			}
			continue;
		}
		ns = dwarfx_function_spans(dx, locs[i].addr, s, 64);
		if (!ns || ns > 64) {
			ns = 1;
			s[0] = (dwarfx_span){locs[i].addr, locs[i].addr + 1};
		}
		for (k = 0; k < ns; k++) {
			RG_GROW(*out, *n + 1, cap);
			(*out)[(*n)++] = s[k];
		}
	}
	free(locs);
	return DWARFX_OK;
}
