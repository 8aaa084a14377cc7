/*
 * dwarfx: open and index once (dwarfx_elf.c, dwarfx_index.c), then answer
 * "where does this location go" and "where is this address" from sorted
 * arrays with binary searches.
 */
#include "dwarfx_int.h"
#include "dwarfx_vint.h"

#include <dwarf.h>
#include <errno.h>
#include <libdwarf.h>
#include <limits.h>
#include <regex.h>
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
	lv->v[lv->n].inlined = false;
	lv->n++;
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
	dwarfx_vars_release(dx);	/* holds libdwarf's frame lists */
	if (dx->dbg) {
		Dwarf_Error e = NULL;

		if (dwarf_finish(dx->dbg, &e) == DW_DLV_ERROR && e)
			dwarf_dealloc_error(NULL, e);
	}
	free(dx->path);
	free(dx->phdrs);
	free(dx->sec_line.p);
	free(dx->sec_line_str.p);
	free(dx->sec_str.p);
	dwarfx_pool_release(&dx->strs);
	free(dx->rows);
	free(dx->seqs);
	free(dx->byline);
	free(dx->files);
	dwarfx_map_release(&dx->file_ids);
	free(dx->fns);
	free(dx->ranges);
	free(dx->segs);
	free(dx->fnkeys);
	free(dx->source_dir);
	free(dx->syms);
	free(dx->sym_byname);
	free(dx->srcsyms);
	free(dx->labels);
	free(dx->xsecs);
	dwarfx_insn_release(dx);
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

/* The threshold under which a name looks like a typo of another. */
static size_t typo_limit(const char *s)
{
	size_t n = strlen(s) / 3;

	return n > 2 ? n : 2;
}

/*
 * The file FILE names that the debug information has without a row of its
 * own (a compile unit's file whose # line markers credit its code to
 * others), or NULL.
 */
static const char *rowless_file(const dwarfx *dx, const char *file)
{
	size_t i;

	while (file[0] == '.' && file[1] == '/')
		file += 2;
	for (i = 0; i < dx->nfiles; i++)
		if (!dx->files[i].count &&
		    suffix_match(dx->files[i].path, file, strlen(file)))
			return dx->files[i].path;
	return NULL;
}

/*
 * Was file compiled into dx without -g?  Its symbol table names the source
 * (STT_FILE, usually a base name), but no line table has a file of that
 * name (a path in the wrong folder is a typo, not a build without -g).
 */
static bool compiled_without_debug(const dwarfx *dx, const char *file)
{
	const char *b = rg_base_name(file);
	size_t i;

	/* a line table with that name: it has debug information, elsewhere */
	for (i = 0; i < dx->nfiles; i++)
		if (dx->files[i].count && !strcmp(rg_base_name(dx->files[i].path), b))
			return false;
	/* compiled with -g, its rows credited to the files its markers name */
	if (rowless_file(dx, file))
		return false;
	for (i = 0; i < dx->nsrcsyms; i++)
		if (!strcmp(dx->srcsyms[i], b) ||
		    suffix_match(dx->srcsyms[i], file, strlen(file)))
			return true;
	return false;
}

/* The look-up in progress found no such name here: DWARFX_NO_ENTRY. */
static void no_entry(dwarfx *dx)
{
	if (dx->res)
		dx->res->status = DWARFX_NO_ENTRY;
}

/* The hint of the dwarfx_resolve in progress, or NULL (dwarfx_lines). */
static dwarfx_hint *cur_hint(dwarfx *dx)
{
	return dx->res ? dx->res->hint : NULL;
}

static int no_such_file(dwarfx *dx, const char *where, const char *file,
			rg_err *err)
{
	const char *want = rg_base_name(file), *best = NULL;
	size_t bestd = SIZE_MAX, i;

	if (compiled_without_debug(dx, file))
		return rg_error(err, "cannot resolve '%s': '%s' has no debug "
				"information for '%s' (rebuild it with -g)", where,
				dx->path, file);

	for (i = 0; i < dx->nfiles; i++) {
		const char *b;
		size_t d;

		if (!dx->files[i].count)
			continue;
		b = rg_base_name(dx->files[i].path);
		d = rg_edit_distance(want, b);
		if (d < bestd) {
			bestd = d;
			/* right name, wrong folder: show where it really is */
			best = d ? b : dx->files[i].path;
		}
	}
	no_entry(dx);
	if (best && bestd <= typo_limit(want)) {
		if (cur_hint(dx)) {
			cur_hint(dx)->suggest = best;
			cur_hint(dx)->suggest_is_file = true;
		}
		return rg_error(err, "cannot resolve '%s': no source file '%s' in "
				"'%s' (did you mean '%s'?)", where, file, dx->path, best);
	}
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

/* Files with code whose path ends in file; *ids is malloc'd (or NULL). */
size_t dwarfx_match_files(dwarfx *dx, const char *file, uint32_t **ids)
{
	size_t n = 0, cap = 0, i;

	*ids = NULL;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	for (i = 0; i < dx->nfiles; i++) {
		if (!dx->files[i].count ||
		    !suffix_match(dx->files[i].path, file, strlen(file)))
			continue;
		RG_GROW(*ids, n + 1, cap);
		(*ids)[n++] = (uint32_t)i;
	}
	return n;
}

bool dwarfx_lacks_debug_for(dwarfx *dx, const char *file)
{
	uint32_t *ids;
	size_t n = dwarfx_match_files(dx, file, &ids);

	free(ids);
	return n == 0 && compiled_without_debug(dx, file);
}

/* The one file with code that FILE names, or an error naming the candidates. */
static int find_file(dwarfx *dx, const char *where, const char *file, long line,
		     const struct dwarfx_file **out, rg_err *err)
{
	uint32_t *ids;
	size_t n = dwarfx_match_files(dx, file, &ids);
	const char *rowless;
	int ret = 0;

	if (!dx->debug) {
		no_entry(dx);
		ret = rg_error(err, "cannot resolve '%s': " DWARFX_NO_DEBUG, where,
			       rg_base_name(dx->path));
	} else if (n == 1)
		*out = &dx->files[ids[0]];
	else if (n)
		ret = ambiguous_file(dx, where, file, ids, n, err);
	else if ((rowless = rowless_file(dx, file)))
		ret = dwarfx_no_rows(dx, file, rowless, line, cur_hint(dx), err);
	else
		ret = no_such_file(dx, where, file, err);
	free(ids);
	return ret;
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

/*
 * No code at line of f (k: where it would be in byline).  Names the nearest
 * lines with code; in an optimised build, says when the line looks like a
 * statement the compiler removed.  match: the source text when a regex
 * picked the line, or NULL.
 */
static int no_code(dwarfx *dx, const char *where, const struct dwarfx_file *f,
		   size_t k, long line, const char *match, rg_err *err)
{
	size_t end = f->first + f->count;
	long before = k > f->first ? (long)dx->rows[dx->byline[k - 1]].line : 0;
	long after = k < end ? (long)dx->rows[dx->byline[k]].line : 0;
	const char *text = match;
	struct dwarfx_source src;
	rg_buf b = RG_BUF_INIT;
	bool optimised = false;

	memset(&src, 0, sizeof(src));
	if (cur_hint(dx)) {
		cur_hint(dx)->before = (int)before;
		cur_hint(dx)->after = (int)after;
	}
	if (f->opt && before && after) {
		if (!text && dwarfx_source_read(dx, f->path, &src, NULL) == 0 &&
		    line <= (long)src.nlines)
			text = src.lines[line - 1];
		optimised = !text || dwarfx_source_may_be_code(text);
	}
	rg_buf_printf(&b, "cannot resolve '%s': ", where);
	if (match) {
		rg_buf_printf(&b, "the matching line, %s:%ld ", rg_base_name(f->path), line);
		dwarfx_source_excerpt(&b, match);
		rg_buf_puts(&b, ", has no code");
	} else {
		rg_buf_puts(&b, "no code on this line");
	}
	if (optimised)
		rg_buf_printf(&b, " (built with %s: the compiler may have optimised "
			      "it away; nearest lines with code: ", f->opt);
	else
		rg_buf_puts(&b, " (nearest: ");
	if (before && after)
		rg_buf_printf(&b, "%ld, %ld)", before, after);
	else
		rg_buf_printf(&b, "%ld)", before ? before : after);
	rg_error(err, "%s", b.s);
	rg_buf_release(&b);
	dwarfx_source_release(&src);
	return -1;
}

/*
 * One address per function instance: gdb puts a line's breakpoint at the
 * lowest address the line has in each instance, so that every inlined copy
 * stops, and stops once.  k: the line's first position in byline; returns
 * the position past it.
 */
static size_t collect_line(dwarfx *dx, const struct dwarfx_file *f, size_t k,
			   struct locvec *lv)
{
	uint32_t *seen = NULL, line = dx->rows[dx->byline[k]].line;
	size_t nseen = 0, seen_cap = 0, i, end = f->first + f->count;

	/* byline is sorted by address within a line: first seen is lowest */
	for (; k < end && dx->rows[dx->byline[k]].line == line; k++) {
		const struct dwarfx_row *r = &dx->rows[dx->byline[k]];
		uint32_t fn = dwarfx_row_fn(dx, r);
		const char *name;

		for (i = 0; i < nseen && seen[i] != fn; i++)
			;
		if (i < nseen)
			continue;
		/* a row inside an instruction: the instance's next row, if any */
		if (!dwarfx_row_usable(dx, r->addr, f->path, (int)line))
			continue;
		RG_GROW(seen, nseen + 1, seen_cap);
		seen[nseen++] = fn;
		name = fn != DWARFX_NONE && dx->fns[fn].name ?
			dwarfx_fn_display(&dx->fns[fn]) : dwarfx_function_at(dx, r->addr);
		loc_add(lv, r->addr, f->path, (int)line, name);
	}
	free(seen);
	return k;
}

static int file_line(dwarfx *dx, const char *where, const struct dwarfx_file *f,
		     long line, const char *match, struct locvec *lv, rg_err *err)
{
	size_t k = line_lower_bound(dx, f, (uint32_t)line);

	size_t had = lv->n;

	if (k == f->first + f->count || dx->rows[dx->byline[k]].line != (uint32_t)line)
		return no_code(dx, where, f, k, line, match, err);
	collect_line(dx, f, k, lv);
	if (lv->n == had)
		return rg_error(err, "cannot resolve '%s': every line table row of "
				"this line is off an instruction boundary (corrupt "
				"debug information in '%s'?)", where, dx->path);
	return 0;
}

static int resolve_line(dwarfx *dx, const char *where, const char *file,
			long line, struct locvec *lv, rg_err *err)
{
	const struct dwarfx_file *f;

	if (!dx->debug) {
		no_entry(dx);
		return rg_error(err, "cannot resolve '%s': " DWARFX_NO_DEBUG, where,
				rg_base_name(dx->path));
	}
	if (line <= 0 || line > INT32_MAX)
		return rg_error(err, "cannot resolve '%s': line numbers start at 1 "
				"and end at %d", where, INT32_MAX);
	if (find_file(dx, where, file, line, &f, err) < 0)
		return -1;
	return file_line(dx, where, f, line, NULL, lv, err);
}

int dwarfx_lines(dwarfx *dx, const char *file, int from, int to,
		 dwarfx_line_fn fn, void *arg, rg_err *err)
{
	const struct dwarfx_file *f;
	struct dwarfx_source src;
	dwarfx_hint hint = DWARFX_HINT_INIT;
	struct dwarfx_result res = {DWARFX_ERROR, &hint};
	size_t k, end;
	int ret = 0;

	dx->res = &res;
	ret = find_file(dx, file, file, from > 0 ? from : 0, &f, err);
	dx->res = NULL;
	if (ret < 0)
		return res.status;
	if (dwarfx_source_read(dx, f->path, &src, NULL) < 0)
		memset(&src, 0, sizeof(src));
	if (from < 1)
		from = 1;
	end = f->first + f->count;
	for (k = line_lower_bound(dx, f, (uint32_t)from); k < end && !ret; ) {
		struct locvec lv = {NULL, 0, 0};
		dwarfx_line_info li;

		li.line = (int)dx->rows[dx->byline[k]].line;
		if (to > 0 && li.line > to)
			break;
		k = collect_line(dx, f, k, &lv);
		if (!lv.n)
			continue;   /* every row dropped: no place for a gate */
		li.file = f->path;
		li.function = lv.v[0].function;
		li.instances = lv.n;
		li.addr = lv.v[0].addr;
		li.text = (size_t)li.line <= src.nlines ? src.lines[li.line - 1] : NULL;
		ret = fn(&li, arg);
		free(lv.v);
	}
	dwarfx_source_release(&src);
	return ret;
}

/* ---- FUNCTION, *FUNCTION ---- */

/*
 * gcc -O0 gives a function's prologue the line of its opening, and the body
 * the lines of its statements: the breakpoint goes to the first row in the
 * function whose line differs from the entry's, as gdb's skip_prologue_using_sal
 * does.  No such row (one-line functions, most -O2 code): the entry.
 */
static uint64_t after_prologue(dwarfx *dx, const struct dwarfx_fn *fn)
{
	uint64_t hi = 0;
	ptrdiff_t i;
	size_t j;
	uint32_t line0;

	for (j = fn->range0; j < fn->range0 + fn->nranges; j++)
		if (fn->entry >= dx->ranges[j].lo && fn->entry < dx->ranges[j].hi)
			hi = dx->ranges[j].hi;
	i = dwarfx_row_floor(dx, fn->entry);
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
		    dx->rows[j].line != line0 &&
		    dwarfx_row_usable(dx, dx->rows[j].addr,
				      dx->files[dx->rows[j].file].path,
				      (int)dx->rows[j].line))
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


static void add_function_loc(dwarfx *dx, struct locvec *lv, uint64_t addr,
			     const char *name, bool inlined)
{
	const struct dwarfx_row *r = dwarfx_row_for(dx, addr);

	loc_add(lv, addr, r ? dx->files[r->file].path : NULL,
		r ? (int)r->line : 0, name);
	lv->v[lv->n - 1].inlined = inlined;
}


/* First index in fnkeys whose key is >= key. */
static size_t fnkey_lower_bound(const dwarfx *dx, const char *key)
{
	size_t lo = 0, hi = dx->nfnkeys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(dx->fnkeys[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int unknown_function(dwarfx *dx, const char *where, const char *name,
			    rg_err *err)
{
	const char *best = NULL, *prev = NULL;
	size_t bestd = SIZE_MAX, i;

	/* both lists are sorted by name: skip repeats */
	for (i = 0; i < dx->nfnkeys + dx->nsyms; i++) {
		const char *cand = i < dx->nfnkeys ? dx->fnkeys[i].key :
			dx->syms[dx->sym_byname[i - dx->nfnkeys]].name;
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
	no_entry(dx);
	if (best && bestd <= typo_limit(name)) {
		if (cur_hint(dx)) {
			cur_hint(dx)->suggest = best;
			cur_hint(dx)->suggest_is_file = false;
		}
		return rg_error(err, "cannot resolve '%s': no function '%s' in '%s' "
				"(did you mean '%s'?)", where, name, dx->path, best);
	}
	return rg_error(err, "cannot resolve '%s': no function '%s' in '%s'",
			where, name, dx->path);
}

/*
 * Does the demangled signature sig end with what the user wrote (want)?
 * Both as dwarfx_cxx_normal writes them; template arguments of the name
 * count only when want gives some ("Q::put(int const&)" is every Q's).
 */
static bool sig_matches(const char *sig, const char *want)
{
	const char *wp = dwarfx_cxx_params(want);
	bool untemplate = !memchr(want, '<', wp ? (size_t)(wp - want) : strlen(want));
	char *a = dwarfx_cxx_normal(sig, untemplate), *b = dwarfx_cxx_normal(want, false);
	size_t la = strlen(a), lb = strlen(b);
	bool ok = lb <= la && !strcmp(a + la - lb, b) &&
		(la == lb || a[la - lb - 1] == ' ' || a[la - lb - 1] == ':');

	free(a);
	free(b);
	return ok;
}

/*
 * Are the instances in[0..n) every instantiation of one template (the
 * user wrote key without template arguments): one name once the template
 * arguments are gone, and one signature per instantiation (overloads of a
 * template still need their parameter types)?
 */
static bool one_template(const dwarfx *dx, const char *key, const uint32_t *in,
			 size_t n)
{
	char *base = NULL;
	size_t i, j;
	bool ok = !strchr(key, '<');

	for (i = 0; i < n && ok; i++) {
		const struct dwarfx_fn *fn = &dx->fns[in[i]];
		char *u;

		if (!fn->qname || !fn->sig) {
			ok = false;
			break;
		}
		u = dwarfx_cxx_untemplate(fn->qname);
		if (!u)
			u = xstrdup(fn->qname);
		if (!base)
			base = u;
		else {
			ok = !strcmp(base, u);
			free(u);
		}
		for (j = 0; j < i && ok; j++)
			ok = dx->fns[in[j]].qname != fn->qname ||
				dx->fns[in[j]].sig == fn->sig;
	}
	free(base);
	return ok;
}

/*
 * The DWARF instances a function name stands for: those with that name
 * (or qualified-name tail), narrowed by a parameter list when given.
 * Several different C++ functions (overloads, or methods of several
 * classes) are an error listing them; C functions of one name in several
 * files are all kept, as gdb keeps them.  *out is malloc'd, *n may be 0.
 */
static int function_instances(dwarfx *dx, const char *where, const char *name,
			      uint32_t **out, size_t *n, rg_err *err)
{
	const char *params = dwarfx_cxx_params(name);
	char *key = params ? xstrndup(name, (size_t)(params - name)) : xstrdup(name);
	const char **sigs = NULL;
	size_t nsigs = 0, sigs_cap = 0, cap = 0, i, j;
	bool plain = false;

	*out = NULL;
	*n = 0;
	for (i = fnkey_lower_bound(dx, key); i < dx->nfnkeys; i++) {
		const struct dwarfx_fn *fn;

		if (strcmp(dx->fnkeys[i].key, key))
			break;
		fn = &dx->fns[dx->fnkeys[i].fn];
		if (params && !(fn->sig && sig_matches(fn->sig, name)))
			continue;
		RG_GROW(*out, *n + 1, cap);
		(*out)[(*n)++] = dx->fnkeys[i].fn;
		if (!fn->sig) {
			plain = true;
			continue;
		}
		for (j = 0; j < nsigs && sigs[j] != fn->sig; j++)
			;
		if (j == nsigs) {
			RG_GROW(sigs, nsigs + 1, sigs_cap);
			sigs[nsigs++] = fn->sig;
		}
	}
	if (nsigs + plain > 1 && !one_template(dx, key, *out, *n)) {
		rg_buf b = RG_BUF_INIT;
		bool same = true;

		/* one qualified name: overloads; else methods of several scopes */
		for (i = 1; i < *n && same; i++)
			same = dx->fns[(*out)[i]].qname == dx->fns[(*out)[0]].qname;
		for (j = 0; j < nsigs; j++)
			rg_buf_printf(&b, "%s%s", j ? ", " : "", sigs[j]);
		if (plain)
			rg_buf_printf(&b, ", %s", key);
		if (same && !plain)
			rg_error(err, "cannot resolve '%s': '%s' is overloaded: %zu "
				 "functions: %s (write one of them, with its "
				 "parameter types)", where, name, nsigs, b.s);
		else
			rg_error(err, "cannot resolve '%s': '%s' names %zu functions: "
				 "%s (write the one you mean, as written here)",
				 where, name, nsigs + plain, b.s);
		rg_buf_release(&b);
		free(*out);
		*out = NULL;
		*n = 0;
		free(sigs);
		free(key);
		return -1;
	}
	free(sigs);
	free(key);
	return 0;
}

static int resolve_function(dwarfx *dx, const char *where, const char *name,
			    bool exact, struct locvec *lv, rg_err *err)
{
	size_t i, first_dwarf = lv->n, ndwarf, ncand;
	uint32_t *cand;
	bool ifunc = false;

	if (function_instances(dx, where, name, &cand, &ncand, err) < 0)
		return -1;
	/* DWARF instances: out-of-line copies and inlined ones */
	for (i = 0; i < ncand; i++) {
		const struct dwarfx_fn *fn = &dx->fns[cand[i]];
		const struct dwarfx_sym *s;

		s = fn->inlined ? NULL : dwarfx_sym_at(dx, fn->entry);
		if (s && s->addr == fn->entry && is_fragment(s->name))
			continue;
		add_function_loc(dx, lv, exact || fn->inlined ? fn->entry :
				 after_prologue(dx, fn), dwarfx_fn_display(fn),
				 fn->inlined);
	}
	free(cand);
	ndwarf = lv->n - first_dwarf;

	/*
	 * ELF symbols: the name itself and its clones ("name." sorts right
	 * after "name"), unless DWARF already gave that code.  A symbol inside
	 * a DWARF function of another name is an alias of it.
	 */
	for (i = dwarfx_sym_lower_bound(dx, name); i < dx->nsyms; i++) {
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
		f = dwarfx_fn_at(dx, s->addr);
		for (g = f; g != DWARFX_NONE && !covered; g = dx->fns[g].parent)
			covered = dx->fns[g].name && !strcmp(dx->fns[g].name, name);
		if (covered)
			continue;
		if (!exact && f != DWARFX_NONE && !dx->fns[f].inlined &&
		    dx->fns[f].entry == s->addr)
			add_function_loc(dx, lv, after_prologue(dx, &dx->fns[f]), s->name,
					 false);
		else
			add_function_loc(dx, lv, s->addr, s->name, false);
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

/* ---- FILE:/REGEX/, FUNCTION:/REGEX/ ---- */

struct match {
	const struct dwarfx_file *file;
	long line;
	char *text;
};

struct matchvec {
	struct match *v;
	size_t n, cap;
};

static void matchvec_release(struct matchvec *mv)
{
	size_t i;

	for (i = 0; i < mv->n; i++)
		free(mv->v[i].text);
	free(mv->v);
}

/* Adds the lines from..to of f's source that rx matches. */
static int match_lines(dwarfx *dx, const char *where, const struct dwarfx_file *f,
		       long from, long to, const regex_t *rx, struct matchvec *mv,
		       rg_err *err)
{
	struct dwarfx_source src;
	long l;
	size_t i;

	if (dwarfx_source_read(dx, f->path, &src, err) < 0)
		return rg_error_prefix(err, "cannot resolve '%s'", where);
	if (to > (long)src.nlines)
		to = (long)src.nlines;
	for (l = from; l <= to; l++) {
		if (regexec(rx, src.lines[l - 1], 0, NULL, 0))
			continue;
		for (i = 0; i < mv->n && !(mv->v[i].file == f && mv->v[i].line == l); i++)
			;
		if (i < mv->n)
			continue;
		RG_GROW(mv->v, mv->n + 1, mv->cap);
		mv->v[mv->n].file = f;
		mv->v[mv->n].line = l;
		mv->v[mv->n].text = xstrdup(src.lines[l - 1]);
		mv->n++;
	}
	dwarfx_source_release(&src);
	return 0;
}

/*
 * The source lines an instance's own code comes from: per file, the first
 * and last line of its rows (rows of instances inlined into it excluded).
 */
struct span {
	uint32_t file;
	long lo, hi;
};

static void instance_spans(const dwarfx *dx, uint32_t f, struct span **sp,
			   size_t *n, size_t *cap)
{
	const struct dwarfx_fn *fn = &dx->fns[f];
	size_t j, k;

	for (j = fn->range0; j < fn->range0 + fn->nranges; j++) {
		ptrdiff_t i = dwarfx_row_floor(dx, dx->ranges[j].lo);

		/* the floor is the last row at lo: optimised code has several */
		while (i > 0 && dx->rows[i - 1].addr == dx->rows[i].addr)
			i--;
		for (i = i < 0 ? 0 : i; (size_t)i < dx->nrows &&
		     dx->rows[i].addr < dx->ranges[j].hi; i++) {
			const struct dwarfx_row *r = &dx->rows[i];

			if (r->addr < dx->ranges[j].lo || r->end_seq || !r->is_stmt ||
			    !r->line || dwarfx_row_fn(dx, r) != f)
				continue;
			for (k = 0; k < *n && (*sp)[k].file != r->file; k++)
				;
			if (k == *n) {
				RG_GROW(*sp, *n + 1, *cap);
				(*sp)[k].file = r->file;
				(*sp)[k].lo = (*sp)[k].hi = r->line;
				(*n)++;
			}
			if (r->line < (*sp)[k].lo)
				(*sp)[k].lo = r->line;
			if (r->line > (*sp)[k].hi)
				(*sp)[k].hi = r->line;
		}
	}
}

static int function_lines(dwarfx *dx, const char *where, const char *name,
			  const regex_t *rx, struct matchvec *mv, rg_err *err)
{
	struct span *sp = NULL;
	size_t nsp = 0, cap = 0, ncand, i;
	uint32_t *cand;
	int ret = 0;

	if (function_instances(dx, where, name, &cand, &ncand, err) < 0)
		return -1;
	if (!ncand) {
		free(cand);
		return unknown_function(dx, where, name, err);
	}
	for (i = 0; i < ncand; i++)
		instance_spans(dx, cand[i], &sp, &nsp, &cap);
	free(cand);
	for (i = 0; i < nsp && !ret; i++)
		ret = match_lines(dx, where, &dx->files[sp[i].file], sp[i].lo,
				  sp[i].hi, rx, mv, err);
	free(sp);
	return ret;
}

static int resolve_anchor(dwarfx *dx, const char *where, const char *scope,
			  const char *re, struct locvec *lv, rg_err *err)
{
	struct matchvec mv = {NULL, 0, 0};
	const struct dwarfx_file *f;
	const char *rowless;
	uint32_t *ids;
	size_t nids, i;
	regex_t rx;
	int res;

	if (!dx->debug) {
		no_entry(dx);
		return rg_error(err, "cannot resolve '%s': " DWARFX_NO_DEBUG, where,
				rg_base_name(dx->path));
	}
	res = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
	if (res) {
		char msg[256];

		regerror(res, &rx, msg, sizeof(msg));
		return rg_error(err, "cannot resolve '%s': bad regular expression "
				"/%s/: %s", where, re, msg);
	}
	/* a file if some file has that name, else a function */
	nids = dwarfx_match_files(dx, scope, &ids);
	if (nids == 1) {
		res = match_lines(dx, where, &dx->files[ids[0]], 1, LONG_MAX, &rx,
				  &mv, err);
	} else if (nids > 1) {
		res = ambiguous_file(dx, where, scope, ids, nids, err);
	} else if (!(strchr(scope, '.') || strchr(scope, '/')) ||
		   dwarfx_cxx_params(scope)) {
		res = function_lines(dx, where, scope, &rx, &mv, err);
	} else if ((rowless = rowless_file(dx, scope))) {
		res = dwarfx_no_rows(dx, scope, rowless, 0, cur_hint(dx), err);
	} else {
		res = no_such_file(dx, where, scope, err);
	}
	free(ids);
	regfree(&rx);
	if (!res && mv.n != 1) {
		rg_buf b = RG_BUF_INIT;

		for (i = 0; i < mv.n && i < MAX_LISTED; i++) {
			rg_buf_printf(&b, "%s%s:%ld ", i ? ", " : "",
				      rg_base_name(mv.v[i].file->path), mv.v[i].line);
			dwarfx_source_excerpt(&b, mv.v[i].text);
		}
		if (mv.n > MAX_LISTED)
			rg_buf_printf(&b, ", and %zu more", mv.n - MAX_LISTED);
		if (mv.n)
			rg_error(err, "cannot resolve '%s': /%s/ matches %zu lines: %s "
				 "(an anchor must match exactly one)", where, re,
				 mv.n, b.s);
		else
			rg_error(err, "cannot resolve '%s': no line of %s '%s' matches "
				 "/%s/", where, nids ? "file" : "function", scope, re);
		rg_buf_release(&b);
		res = -1;
	}
	if (!res) {
		f = mv.v[0].file;
		res = file_line(dx, where, f, mv.v[0].line, mv.v[0].text, lv, err);
	}
	matchvec_release(&mv);
	return res;
}

/* ---- FILE:LINE+N, *FUNCTION+N ---- */

/* Where the line's code starting at addr ends: the next row of another line. */
static uint64_t line_block_end(const dwarfx *dx, uint64_t addr, const char *file,
			       int line)
{
	ptrdiff_t i = dwarfx_row_floor(dx, addr);
	size_t j;

	if (i < 0)
		return addr;
	for (j = (size_t)i + 1; j < dx->nrows; j++) {
		const struct dwarfx_row *r = &dx->rows[j];

		if (r->end_seq)
			return r->addr;
		/* line 0: code the compiler made, which belongs to no line */
		if (r->line && (r->line != (uint32_t)line ||
				dx->files[r->file].path != file))
			return r->addr;
	}
	return addr;
}

/* Where the function holding addr ends: its range, or its symbol's size. */
static uint64_t function_end(const dwarfx *dx, uint64_t addr)
{
	uint32_t f = dwarfx_fn_at(dx, addr);
	const struct dwarfx_sym *s;
	size_t j;

	while (f != DWARFX_NONE && dx->fns[f].parent != DWARFX_NONE)
		f = dx->fns[f].parent;
	if (f != DWARFX_NONE)
		for (j = dx->fns[f].range0; j < dx->fns[f].range0 + dx->fns[f].nranges; j++)
			if (addr >= dx->ranges[j].lo && addr < dx->ranges[j].hi)
				return dx->ranges[j].hi;
	s = dwarfx_sym_at(dx, addr);
	return s && s->size ? s->addr + s->size : addr;
}

/*
 * Moves each location to its nth instruction: within the line's code at
 * that place (lines), or within the function (functions, addresses).
 */
static int step_insns(dwarfx *dx, const char *where, bool is_line, size_t nth,
		      struct locvec *lv, rg_err *err)
{
	size_t i, count;

	for (i = 0; i < lv->n; i++) {
		dwarfx_loc *l = &lv->v[i];
		uint64_t hi = is_line && l->file ?
			line_block_end(dx, l->addr, l->file, l->line) :
			function_end(dx, l->addr);
		uint64_t addr;

		if (dwarfx_insn_nth(dx, l->addr, hi, nth, &addr, &count, err) < 0)
			return rg_error_prefix(err, "cannot resolve '%s'", where);
		if (nth < count) {
			l->addr = addr;
			continue;
		}
		if (is_line)
			return rg_error(err, "cannot resolve '%s': line %d has %zu "
					"instruction%s%s%s (+0 to +%zu)", where, l->line,
					count, count == 1 ? "" : "s",
					l->function ? " in " : "",
					l->function ? l->function : "", count ? count - 1 : 0);
		return rg_error(err, "cannot resolve '%s': %s has %zu instruction%s "
				"(+0 to +%zu)", where, l->function ? l->function : "it",
				count, count == 1 ? "" : "s", count ? count - 1 : 0);
	}
	return 0;
}

/* ---- parsing ---- */

/* "FILE:LINE": a colon followed by digits only, with something before it. */
static const char *line_colon(const char *where)
{
	const char *c = strrchr(where, ':');

	if (!c || c == where || !c[1] || strspn(c + 1, "0123456789") != strlen(c + 1))
		return NULL;
	return c;
}

/*
 * "FILE:/REGEX/" or "FUNCTION:/REGEX/": the first ":/" starts the regex
 * (file and function names hold no ':' before it), a final '/' ends it.
 */
static const char *anchor_colon(const char *where)
{
	const char *c = strstr(where, ":/");
	size_t len = strlen(where);

	if (!c || c == where || len < 2 || where[len - 1] != '/' ||
	    (size_t)(c - where) + 2 >= len)
		return NULL;
	/* "Queue::push:/x/": skip "::" of a qualified name */
	while (c && c > where && c[-1] == ':')
		c = strstr(c + 1, ":/");
	if (!c || (size_t)(c - where) + 2 >= len)
		return NULL;
	return c;
}

/* A "+N" instruction offset at the end of where: its start, or NULL. */
static const char *insn_plus(const char *where, size_t *nth)
{
	const char *p = strrchr(where, '+');
	unsigned long long v;
	char *end;

	if (!p || p == where || !p[1] || strspn(p + 1, "0123456789") != strlen(p + 1))
		return NULL;
	errno = 0;
	v = strtoull(p + 1, &end, 10);
	*nth = errno || v > 1000000 ? SIZE_MAX : (size_t)v;
	return p;
}

static int loc_cmp(const void *pa, const void *pb)
{
	const dwarfx_loc *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int resolve_base(dwarfx *dx, const char *where, const char *base,
			bool *is_line, struct locvec *lv, rg_err *err)
{
	const char *colon;
	int ret;

	*is_line = false;
	if (base[0] == '*' && base[1] == '0' && (base[2] == 'x' || base[2] == 'X'))
		return resolve_addr(dx, where, base + 1, lv, err);
	if (base[0] == '*')
		return base[1] ? resolve_function(dx, where, base + 1, true, lv, err) :
			rg_error(err, "cannot resolve '%s': a function name or "
				 "address must follow '*'", where);
	*is_line = true;
	if ((colon = anchor_colon(base))) {
		char *scope = xstrndup(base, (size_t)(colon - base));
		char *re = xstrndup(colon + 2, strlen(colon + 2) - 1);

		ret = resolve_anchor(dx, where, scope, re, lv, err);
		free(scope);
		free(re);
		return ret;
	}
	if ((colon = line_colon(base))) {
		char *file = xstrndup(base, (size_t)(colon - base));
		long line;

		errno = 0;
		line = strtol(colon + 1, NULL, 10);
		if (errno)
			line = LONG_MAX;
		ret = resolve_line(dx, where, file, line, lv, err);
		free(file);
		return ret;
	}
	*is_line = false;
	return resolve_function(dx, where, base, false, lv, err);
}

/*
 * The last word on every location: an int3 off an instruction boundary
 * corrupts the program, so whatever produced the address (a symbol, a
 * DWARF entry, *0xADDR, +N from any of them) it must start an instruction.
 * Line table rows that do not were skipped already (dwarfx_row_usable).
 */
static int check_boundaries(dwarfx *dx, const char *where, struct locvec *lv,
			    rg_err *err)
{
	dwarfx_insn_at at;
	size_t i;

	for (i = 0; i < lv->n; i++)
		if (dwarfx_boundary(dx, lv->v[i].addr, &at) != DWARFX_BOUNDARY)
			return rg_error(err, "cannot resolve '%s': %s", where, at.why);
	return 0;
}

int dwarfx_resolve(dwarfx *dx, const char *where, dwarfx_loc **out, size_t *n,
		   dwarfx_hint *hint, rg_err *err)
{
	struct locvec lv = {NULL, 0, 0};
	dwarfx_hint own = DWARFX_HINT_INIT;
	struct dwarfx_result res = {DWARFX_ERROR, hint ? hint : &own};
	const char *plus;
	char *base;
	size_t i, k, nth = 0;
	bool is_line;
	int ret;

	*out = NULL;
	*n = 0;
	*res.hint = own;
	if (!where || !*where)
		return rg_error(err, "cannot resolve an empty location");
	plus = insn_plus(where, &nth);
	base = plus ? xstrndup(where, (size_t)(plus - where)) : xstrdup(where);
	dx->res = &res;
	ret = resolve_base(dx, where, base, &is_line, &lv, err);
	dx->res = NULL;
	if (!ret && plus && !is_line && base[0] != '*')
		ret = rg_error(err, "cannot resolve '%s': an instruction offset "
			       "goes after '*FUNCTION' or 'FILE:LINE' (write '*%s')",
			       where, where);
	if (!ret && plus)
		ret = step_insns(dx, where, is_line, nth, &lv, err);
	if (!ret)
		ret = check_boundaries(dx, where, &lv, err);
	free(base);
	if (ret < 0) {
		free(lv.v);
		return res.status;
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

int dwarfx_line_accesses(dwarfx *dx, const char *where, size_t **out,
			 unsigned char **how, size_t *n, rg_err *err)
{
	dwarfx_loc *locs = NULL;
	size_t nlocs = 0, i, j, fewest = SIZE_MAX, cap = 0, caphow = 0;
	unsigned char *any = NULL;
	size_t nany = 0;
	int r;

	*out = NULL;
	*n = 0;
	if (how)
		*how = NULL;
	r = dwarfx_resolve(dx, where, &locs, &nlocs, NULL, err);
	if (r)
		return r;
	for (i = 0; i < nlocs; i++) {
		const dwarfx_loc *l = &locs[i];
		uint64_t hi = l->file ? line_block_end(dx, l->addr, l->file, l->line) :
			      l->addr;
		unsigned char *access;
		size_t count;

		if (dwarfx_insn_scan(dx, l->addr, hi, &access, &count, err) < 0) {
			free(locs);
			free(any);
			return rg_error_prefix(err, "cannot decode '%s'", where);
		}
		if (count < fewest)
			fewest = count;
		if (count > nany) {
			any = xrealloc(any, count * sizeof(*any));
			memset(any + nany, 0, (count - nany) * sizeof(*any));
			nany = count;
		}
		for (j = 0; j < count; j++)
			any[j] |= access[j];
		free(access);
	}
	for (j = 0; j < nany && j < fewest; j++)
		if (any[j]) {
			RG_GROW(*out, *n + 1, cap);
			(*out)[*n] = j;
			if (how) {
				RG_GROW(*how, *n + 1, caphow);
				/* arch's bits are dwarfx's: reads 1, writes 2 */
				(*how)[*n] = any[j];
			}
			(*n)++;
		}
	free(any);
	free(locs);
	return DWARFX_OK;
}

void dwarfx_set_source_dir(dwarfx *dx, const char *dir)
{
	free(dx->source_dir);
	dx->source_dir = dir && *dir ? xstrdup(dir) : NULL;
}
