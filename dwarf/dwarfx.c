/*
 * dwarfx: open and index once (dwarfx_elf.c, dwarfx_index.c), then answer
 * "where does this location go" and "where is this address" from sorted
 * arrays with binary searches.
 */
#include "dwarfx_int.h"

#include <dwarf.h>
#include <errno.h>
#include <libdwarf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 6

struct locvec {
	dwarfx_loc *v;
	size_t n, cap;
};

static void loc_add(struct locvec *lv, uint64_t addr, const char *file, int line,
		    const char *function)
{
	RG_GROW(lv->v, lv->n + 1, lv->cap);
	lv->v[lv->n].addr = addr;
	lv->v[lv->n].file = file;
	lv->v[lv->n].line = line;
	lv->v[lv->n].function = function;
	lv->n++;
}

bool dwarfx_in_exec(const dwarfx *dx, uint64_t addr)
{
	size_t i;

	for (i = 0; i < dx->nphdrs; i++)
		if (dx->phdrs[i].exec && addr >= dx->phdrs[i].vaddr &&
		    addr - dx->phdrs[i].vaddr < dx->phdrs[i].memsz)
			return true;
	return false;
}

int dwarfx_open(const char *path, dwarfx **out, rg_err *err)
{
	dwarfx *dx = xcalloc(1, sizeof(*dx));

	*out = NULL;
	dx->path = xstrdup(path);
	if (dwarfx_elf_read(dx, err) < 0 || dwarfx_index_dwarf(dx, err) < 0) {
		dwarfx_free(dx);
		return -1;
	}
	dwarfx_index_finish(dx);
	*out = dx;
	return 0;
}

void dwarfx_free(dwarfx *dx)
{
	if (!dx)
		return;
	if (dx->dbg) {
		Dwarf_Error e = NULL;

		if (dwarf_finish(dx->dbg, &e) == DW_DLV_ERROR && e)
			dwarf_dealloc_error(NULL, e);
	}
	free(dx->path);
	free(dx->phdrs);
	dwarfx_pool_release(&dx->strs);
	free(dx->rows);
	free(dx->seqs);
	free(dx->byline);
	free(dx->files);
	dwarfx_map_release(&dx->file_ids);
	free(dx->fns);
	free(dx->ranges);
	free(dx->segs);
	free(dx->fn_byname);
	free(dx->syms);
	free(dx->sym_byname);
	free(dx);
}

const char *dwarfx_path(const dwarfx *dx)
{
	return dx->path;
}

bool dwarfx_is_pie(const dwarfx *dx)
{
	return dx->pie;
}

bool dwarfx_has_debug_info(const dwarfx *dx)
{
	return dx->debug;
}

uint64_t dwarfx_entry(const dwarfx *dx)
{
	return dx->entry;
}

uint64_t dwarfx_load_base(const dwarfx *dx)
{
	return dx->load_base;
}

/* ---- lookups by address ---- */

/* Index of the last row at or below addr, or -1. */
static ptrdiff_t row_floor(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

/*
 * The row that describes addr, or NULL outside every sequence.  Optimised
 * code puts several rows at one address (a call line, then the inlined
 * callee's lines); the last statement row there is the innermost one.
 */
static const struct dwarfx_row *row_for(const dwarfx *dx, uint64_t addr)
{
	ptrdiff_t i = row_floor(dx, addr), j;
	const struct dwarfx_row *r;

	if (i < 0 || dx->rows[i].end_seq)
		return NULL;
	r = &dx->rows[i];
	for (j = i; j >= 0 && dx->rows[j].addr == r->addr && !dx->rows[j].end_seq; j--)
		if (dx->rows[j].is_stmt)
			return &dx->rows[j];
	return r;
}

/* Innermost function instance holding addr, or DWARFX_NONE. */
static uint32_t fn_at(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nsegs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->segs[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= dx->segs[lo - 1].hi)
		return DWARFX_NONE;
	return dx->segs[lo - 1].fn;
}

/*
 * The instance a line row belongs to.  At an inlined copy's entry address
 * the rows before its entry view are the caller's (the line of the call):
 * "first.c:25" there is a breakpoint in the caller, not a second instance.
 */
static uint32_t row_fn(const dwarfx *dx, const struct dwarfx_row *r)
{
	uint32_t f = fn_at(dx, r->addr);

	while (f != DWARFX_NONE && dx->fns[f].inlined &&
	       dx->fns[f].entry == r->addr && r->view < dx->fns[f].entry_view)
		f = dx->fns[f].parent;
	return f;
}

static const struct dwarfx_sym *sym_at(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nsyms, g, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* aliases at one address, the preferred name first */
	for (g = lo - 1; g > 0 && dx->syms[g - 1].addr == dx->syms[lo - 1].addr; g--)
		;
	for (k = g; k < lo; k++) {
		uint64_t size = dx->syms[k].size ? dx->syms[k].size : 1;

		if (addr - dx->syms[k].addr < size)
			return &dx->syms[k];
	}
	return NULL;
}

const char *dwarfx_symbol_at(dwarfx *dx, uint64_t addr)
{
	const struct dwarfx_sym *s = sym_at(dx, addr);

	return s ? s->name : NULL;
}

static const char *function_at(const dwarfx *dx, uint64_t addr)
{
	uint32_t f = fn_at(dx, addr);
	const struct dwarfx_sym *s;

	if (f != DWARFX_NONE && dx->fns[f].name)
		return dx->fns[f].name;
	s = sym_at(dx, addr);
	return s ? s->name : NULL;
}

int dwarfx_symbolize(dwarfx *dx, uint64_t addr, dwarfx_loc *out)
{
	const struct dwarfx_row *r = row_for(dx, addr);

	out->addr = addr;
	out->file = r ? dx->files[r->file].path : NULL;
	out->line = r ? (int)r->line : 0;
	out->function = function_at(dx, addr);
	return out->function ? 0 : -1;
}

/* ---- lookups by name ---- */

/* First index in sym_byname whose name is >= name. */
static size_t sym_lower_bound(const dwarfx *dx, const char *name)
{
	size_t lo = 0, hi = dx->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(dx->syms[dx->sym_byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t dwarfx_symbol_addrs(dwarfx *dx, const char *name, uint64_t *addrs,
			   size_t max)
{
	size_t i, n = 0;
	uint64_t last = 0;

	for (i = sym_lower_bound(dx, name); i < dx->nsyms; i++) {
		const struct dwarfx_sym *s = &dx->syms[dx->sym_byname[i]];

		if (strcmp(s->name, name))
			break;
		/* an ifunc's address is its resolver, never the function */
		if (s->ifunc || (n && s->addr == last))
			continue;
		if (n < max)
			addrs[n] = s->addr;
		last = s->addr;
		n++;
	}
	return n;
}

/* ---- FILE:LINE ---- */

static bool suffix_match(const char *path, const char *file, size_t flen)
{
	size_t plen = strlen(path), pos;

	if (flen > plen)
		return false;
	pos = plen - flen;
	if (memcmp(path + pos, file, flen))
		return false;
	if (file[0] == '/')
		return pos == 0;
	return pos == 0 || path[pos - 1] == '/';
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The threshold under which a name looks like a typo of another. */
static size_t typo_limit(const char *s)
{
	size_t n = strlen(s) / 3;

	return n > 2 ? n : 2;
}

static int no_such_file(dwarfx *dx, const char *where, const char *file,
			rg_err *err)
{
	const char *want = base_name(file), *best = NULL;
	size_t bestd = SIZE_MAX, i;

	for (i = 0; i < dx->nfiles; i++) {
		const char *b;
		size_t d;

		if (!dx->files[i].count)
			continue;
		b = base_name(dx->files[i].path);
		d = rg_edit_distance(want, b);
		if (d < bestd) {
			bestd = d;
			/* right name, wrong folder: show where it really is */
			best = d ? b : dx->files[i].path;
		}
	}
	if (best && bestd <= typo_limit(want))
		return rg_error(err, "cannot resolve '%s': no source file '%s' in "
				"'%s' (did you mean '%s'?)", where, file, dx->path, best);
	return rg_error(err, "cannot resolve '%s': no source file '%s' in '%s'",
			where, file, dx->path);
}

static int ambiguous_file(dwarfx *dx, const char *where, const char *file,
			  const uint32_t *ids, size_t n, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	size_t i;

	for (i = 0; i < n && i < MAX_LISTED; i++)
		rg_buf_printf(&b, "%s%s", i ? ", " : "", dx->files[ids[i]].path);
	if (n > MAX_LISTED)
		rg_buf_printf(&b, ", and %zu more", n - MAX_LISTED);
	rg_error(err, "cannot resolve '%s': '%s' matches %zu files: %s (name more "
		 "of the path)", where, file, n, b.s);
	rg_buf_release(&b);
	return -1;
}

/* First position in file f's slice of byline whose line is >= line. */
static size_t line_lower_bound(const dwarfx *dx, const struct dwarfx_file *f,
			       uint32_t line)
{
	size_t lo = f->first, hi = f->first + f->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->rows[dx->byline[mid]].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int no_code(dwarfx *dx, const char *where, const struct dwarfx_file *f,
		   size_t k, rg_err *err)
{
	size_t end = f->first + f->count;
	long before = k > f->first ? (long)dx->rows[dx->byline[k - 1]].line : 0;
	long after = k < end ? (long)dx->rows[dx->byline[k]].line : 0;

	if (before && after)
		return rg_error(err, "cannot resolve '%s': no code on this line "
				"(nearest: %ld, %ld)", where, before, after);
	return rg_error(err, "cannot resolve '%s': no code on this line "
			"(nearest: %ld)", where, before ? before : after);
}

/*
 * One address per function instance: gdb puts a line's breakpoint at the
 * lowest address the line has in each instance, so that every inlined copy
 * stops, and stops once.
 */
static int resolve_line(dwarfx *dx, const char *where, const char *file,
			long line, struct locvec *lv, rg_err *err)
{
	uint32_t *ids = NULL, *seen = NULL;
	size_t nids = 0, ids_cap = 0, nseen = 0, seen_cap = 0, i, k, end;
	const struct dwarfx_file *f;

	if (!dx->debug)
		return rg_error(err, "cannot resolve '%s': '%s' has no debug "
				"information (rebuild it with -g)", where, dx->path);
	if (line <= 0 || line > INT32_MAX)
		return rg_error(err, "cannot resolve '%s': line numbers start at 1 "
				"and end at %d", where, INT32_MAX);
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	for (i = 0; i < dx->nfiles; i++) {
		if (!dx->files[i].count ||
		    !suffix_match(dx->files[i].path, file, strlen(file)))
			continue;
		RG_GROW(ids, nids + 1, ids_cap);
		ids[nids++] = (uint32_t)i;
	}
	if (nids != 1) {
		int ret = nids ? ambiguous_file(dx, where, file, ids, nids, err) :
			no_such_file(dx, where, file, err);

		free(ids);
		return ret;
	}
	f = &dx->files[ids[0]];
	free(ids);

	k = line_lower_bound(dx, f, (uint32_t)line);
	end = f->first + f->count;
	if (k == end || dx->rows[dx->byline[k]].line != (uint32_t)line)
		return no_code(dx, where, f, k, err);
	/* byline is sorted by address within a line: first seen is lowest */
	for (; k < end && dx->rows[dx->byline[k]].line == (uint32_t)line; k++) {
		const struct dwarfx_row *r = &dx->rows[dx->byline[k]];
		uint64_t addr = r->addr;
		uint32_t fn = row_fn(dx, r);
		const char *name;

		for (i = 0; i < nseen && seen[i] != fn; i++)
			;
		if (i < nseen)
			continue;
		RG_GROW(seen, nseen + 1, seen_cap);
		seen[nseen++] = fn;
		name = fn != DWARFX_NONE && dx->fns[fn].name ? dx->fns[fn].name :
			function_at(dx, addr);
		loc_add(lv, addr, f->path, (int)line, name);
	}
	free(seen);
	return 0;
}

/* ---- FUNCTION, *FUNCTION ---- */

/*
 * gcc -O0 gives a function's prologue the line of its opening, and the body
 * the lines of its statements: the breakpoint goes to the first row in the
 * function whose line differs from the entry's, as gdb's skip_prologue_using_sal
 * does.  No such row (one-line functions, most -O2 code): the entry.
 */
static uint64_t after_prologue(const dwarfx *dx, const struct dwarfx_fn *fn)
{
	uint64_t hi = 0;
	ptrdiff_t i;
	size_t j;
	uint32_t line0;

	for (j = fn->range0; j < fn->range0 + fn->nranges; j++)
		if (fn->entry >= dx->ranges[j].lo && fn->entry < dx->ranges[j].hi)
			hi = dx->ranges[j].hi;
	i = row_floor(dx, fn->entry);
	if (!hi || i < 0 || dx->rows[i].end_seq)
		return fn->entry;
	while (i > 0 && dx->rows[i - 1].addr == dx->rows[i].addr &&
	       !dx->rows[i - 1].end_seq)
		i--;
	line0 = dx->rows[i].line;
	for (j = (size_t)i + 1; j < dx->nrows && dx->rows[j].addr < hi; j++) {
		if (dx->rows[j].end_seq)
			break;
		/* line 0 is compiler-made code that belongs to no line */
		if (dx->rows[j].is_stmt && dx->rows[j].line &&
		    dx->rows[j].line != line0)
			return dx->rows[j].addr;
	}
	return fn->entry;
}

/* Pieces gcc splits off a function: not places where it is entered. */
static bool is_fragment(const char *sym)
{
	return strstr(sym, ".part.") || strstr(sym, ".cold");
}

/*
 * Does sym name a clone of fn: "fn.constprop.0", "fn.isra.0",
 * "fn.lto_priv.0", "fn.localalias"?  Whole functions under another name,
 * unlike ".part" and ".cold" pieces.
 */
static bool clone_of(const char *sym, const char *fn)
{
	static const char *const words[] = {"constprop", "isra", "lto_priv",
					    "localalias"};
	size_t n = strlen(fn);
	const char *p;

	if (strncmp(sym, fn, n))
		return false;
	if (!sym[n])
		return true;
	if (sym[n] != '.')
		return false;
	for (p = sym + n; *p == '.'; ) {
		size_t len = strcspn(p + 1, "."), i;
		bool ok = len > 0 && strspn(p + 1, "0123456789") >= len;

		for (i = 0; !ok && i < sizeof(words) / sizeof(words[0]); i++)
			ok = strlen(words[i]) == len && !strncmp(p + 1, words[i], len);
		if (!ok)
			return false;
		p += 1 + len;
	}
	return *p == '\0';
}

static size_t fn_lower_bound(const dwarfx *dx, const char *name)
{
	size_t lo = 0, hi = dx->nfn_byname;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(dx->fns[dx->fn_byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void add_function_loc(dwarfx *dx, struct locvec *lv, uint64_t addr,
			     const char *name)
{
	const struct dwarfx_row *r = row_for(dx, addr);

	loc_add(lv, addr, r ? dx->files[r->file].path : NULL,
		r ? (int)r->line : 0, name);
}

static int unknown_function(dwarfx *dx, const char *where, const char *name,
			    rg_err *err)
{
	const char *best = NULL, *prev = NULL;
	size_t bestd = SIZE_MAX, i;

	/* both lists are sorted by name: skip repeats */
	for (i = 0; i < dx->nfn_byname + dx->nsyms; i++) {
		const char *cand = i < dx->nfn_byname ?
			dx->fns[dx->fn_byname[i]].name :
			dx->syms[dx->sym_byname[i - dx->nfn_byname]].name;
		size_t d;

		if (cand == prev)
			continue;
		prev = cand;
		d = rg_edit_distance(name, cand);
		if (d < bestd) {
			bestd = d;
			best = cand;
		}
	}
	if (best && bestd <= typo_limit(name))
		return rg_error(err, "cannot resolve '%s': no function '%s' in '%s' "
				"(did you mean '%s'?)", where, name, dx->path, best);
	return rg_error(err, "cannot resolve '%s': no function '%s' in '%s'",
			where, name, dx->path);
}

static int resolve_function(dwarfx *dx, const char *where, const char *name,
			    bool exact, struct locvec *lv, rg_err *err)
{
	size_t i, first_dwarf = lv->n, ndwarf;
	bool ifunc = false;

	/* DWARF instances: out-of-line copies and inlined ones */
	for (i = fn_lower_bound(dx, name); i < dx->nfn_byname; i++) {
		const struct dwarfx_fn *fn = &dx->fns[dx->fn_byname[i]];
		const struct dwarfx_sym *s;

		if (strcmp(fn->name, name))
			break;
		s = fn->inlined ? NULL : sym_at(dx, fn->entry);
		if (s && s->addr == fn->entry && is_fragment(s->name))
			continue;
		add_function_loc(dx, lv, exact || fn->inlined ? fn->entry :
				 after_prologue(dx, fn), fn->name);
	}
	ndwarf = lv->n - first_dwarf;

	/*
	 * ELF symbols: the name itself and its clones ("name." sorts right
	 * after "name"), unless DWARF already gave that code.  A symbol inside
	 * a DWARF function of another name is an alias of it.
	 */
	for (i = sym_lower_bound(dx, name); i < dx->nsyms; i++) {
		const struct dwarfx_sym *s = &dx->syms[dx->sym_byname[i]];
		uint32_t f, g;
		bool covered = false;

		if (strncmp(s->name, name, strlen(name)))
			break;
		if (!clone_of(s->name, name))
			continue;
		if (s->ifunc) {
			ifunc = true;
			continue;
		}
		f = fn_at(dx, s->addr);
		for (g = f; g != DWARFX_NONE && !covered; g = dx->fns[g].parent)
			covered = dx->fns[g].name && !strcmp(dx->fns[g].name, name);
		if (covered)
			continue;
		if (!exact && f != DWARFX_NONE && !dx->fns[f].inlined &&
		    dx->fns[f].entry == s->addr)
			add_function_loc(dx, lv, after_prologue(dx, &dx->fns[f]), s->name);
		else
			add_function_loc(dx, lv, s->addr, s->name);
	}
	/*
	 * An ifunc is what callers of the default version reach (memcpy):
	 * older versions beside it (memcpy@GLIBC_2.2.5) would be a breakpoint
	 * nobody arrives at.
	 */
	if (ifunc && lv->n > first_dwarf && !ndwarf)
		lv->n = first_dwarf;
	if (lv->n > first_dwarf)
		return 0;
	if (ifunc)
		return rg_error(err, "cannot resolve '%s': '%s' is an indirect "
				"function (ifunc) in '%s': the code it runs is "
				"chosen at load time", where, name, dx->path);
	return unknown_function(dx, where, name, err);
}

/* ---- *0xADDR ---- */

static int resolve_addr(dwarfx *dx, const char *where, const char *hex,
			struct locvec *lv, rg_err *err)
{
	unsigned long long v;
	dwarfx_loc loc;
	char *end;

	errno = 0;
	v = strtoull(hex + 2, &end, 16);
	if (errno || end == hex + 2 || *end)
		return rg_error(err, "cannot resolve '%s': '%s' is not a hexadecimal "
				"address", where, hex);
	if (!dwarfx_in_exec(dx, v))
		return rg_error(err, "cannot resolve '%s': 0x%llx is not in an "
				"executable segment of '%s'", where, v, dx->path);
	dwarfx_symbolize(dx, v, &loc);
	loc_add(lv, v, loc.file, loc.line, loc.function);
	return 0;
}

/* "FILE:LINE": a colon followed by digits only, with something before it. */
static const char *line_colon(const char *where)
{
	const char *c = strrchr(where, ':');

	if (!c || c == where || !c[1] || strspn(c + 1, "0123456789") != strlen(c + 1))
		return NULL;
	return c;
}

static int loc_cmp(const void *pa, const void *pb)
{
	const dwarfx_loc *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

int dwarfx_resolve(dwarfx *dx, const char *where, dwarfx_loc **out, size_t *n,
		   rg_err *err)
{
	struct locvec lv = {NULL, 0, 0};
	const char *colon;
	size_t i, k;
	int ret;

	*out = NULL;
	*n = 0;
	if (!where || !*where)
		return rg_error(err, "cannot resolve an empty location");
	if (where[0] == '*' && where[1] == '0' && (where[2] == 'x' || where[2] == 'X')) {
		ret = resolve_addr(dx, where, where + 1, &lv, err);
	} else if (where[0] == '*') {
		ret = where[1] ? resolve_function(dx, where, where + 1, true, &lv, err) :
			rg_error(err, "cannot resolve '*': a function name or "
				 "address must follow '*'");
	} else if ((colon = line_colon(where))) {
		char *file = xstrndup(where, (size_t)(colon - where));
		long line;

		errno = 0;
		line = strtol(colon + 1, NULL, 10);
		if (errno)
			line = LONG_MAX;
		ret = resolve_line(dx, where, file, line, &lv, err);
		free(file);
	} else {
		ret = resolve_function(dx, where, where, false, &lv, err);
	}
	if (ret < 0) {
		free(lv.v);
		return -1;
	}
	if (lv.n > 1)
		qsort(lv.v, lv.n, sizeof(*lv.v), loc_cmp);
	for (i = k = 0; i < lv.n; i++)
		if (!k || lv.v[k - 1].addr != lv.v[i].addr)
			lv.v[k++] = lv.v[i];
	*out = lv.v;
	*n = k;
	return 0;
}
