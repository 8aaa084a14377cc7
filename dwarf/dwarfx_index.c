/*
 * The DWARF side of dwarfx: one pass over every compilation unit at open,
 * copying what queries need (line rows, files, function instances and their
 * ranges) into flat sorted arrays, so no query ever walks libdwarf again.
 *
 * Every libdwarf call returns DW_DLV_OK, DW_DLV_NO_ENTRY or DW_DLV_ERROR;
 * all three are handled where the call is made.  Errors are never left to a
 * handler (that would abort): each Dwarf_Error is turned into an rg_err and
 * freed.  A DWARF error anywhere fails the open: half an index would make
 * "no code on this line" lie.
 */
#include "dwarfx_int.h"
#include "dwarfx_dieranges.h"

#include <dwarf.h>
#include <libdwarf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

/* Corrupt DWARF can nest or chain forever; real programs stay far below. */
#define MAX_DIE_DEPTH 1000
#define MAX_NAME_HOPS 16

/* The two names a function entry has, found on it or on what it instances. */
enum name_kind {
	NAME_PLAIN,              /* DW_AT_name */
	NAME_LINKAGE,            /* DW_AT_linkage_name: the mangled C++ name */
	NAME_KINDS
};

/* Names already found for referenced entries: DIE offset -> index in list. */
struct name_cache {
	dwarfx_map map;
	const char **list;
	size_t n, cap;
};

struct walk {
	dwarfx *dx;
	Dwarf_Debug dbg;
	rg_err *err;
	Dwarf_Half version;      /* of the current CU */
	Dwarf_Half offset_size;
	uint64_t cu_base;        /* DW_AT_low_pc of the CU: base of DWARF 4 ranges */
	const char *comp_dir;    /* interned, or NULL */
	const char *opt;         /* the unit's -O flag ("-O2"), NULL for -O0 */
	bool cxx;                /* a C++ unit: functions have linkage names */
	struct name_cache names[NAME_KINDS]; /* by DIE offset, per kind of name */
};

static int dw_fail(struct walk *w, Dwarf_Error e, const char *what)
{
	rg_error(w->err, "cannot read the debug info of '%s': %s: %s",
		 w->dx->path, what, e ? dwarf_errmsg(e) : "unknown error");
	if (e)
		dwarf_dealloc_error(w->dbg, e);
	return -1;
}

/* Collapses "//", "/./" and "dir/.." so that one file has one spelling. */
static size_t normalize_path(char *path)
{
	const char *in = path;
	size_t root = 0, len;

	if (*in == '/') {
		root = 1;
		in++;
	}
	len = root;
	while (*in) {
		const char *slash = strchr(in, '/');
		size_t n = slash ? (size_t)(slash - in) : strlen(in);
		bool dotdot = n == 2 && in[0] == '.' && in[1] == '.';
		bool last_is_dotdot = len - root >= 2 && path[len - 1] == '.' &&
			path[len - 2] == '.' &&
			(len - root == 2 || path[len - 3] == '/');

		if (n == 0 || (n == 1 && in[0] == '.')) {
			/* nothing */
		} else if (dotdot && len > root && !last_is_dotdot) {
			char *p = memrchr(path + root, '/', len - root);

			len = p ? (size_t)(p - path) : root;
		} else if (!(dotdot && root && len == root)) {
			if (len > root)
				path[len++] = '/';
			memmove(path + len, in, n);
			len += n;
		}
		in += n;
		if (*in == '/')
			in++;
	}
	if (!len)
		path[len++] = '.';
	path[len] = '\0';
	return len;
}

static uint32_t file_id(struct walk *w, const char *name)
{
	dwarfx *dx = w->dx;
	rg_buf b = RG_BUF_INIT;
	const char *path;
	uint32_t id;
	size_t len;

	if (name[0] != '/' && w->comp_dir) {
		rg_buf_puts(&b, w->comp_dir);
		rg_buf_puts(&b, "/");
	}
	rg_buf_puts(&b, name);
	len = normalize_path(b.s);
	path = dwarfx_pool_intern(&dx->strs, b.s, len);
	rg_buf_release(&b);
	if (dwarfx_map_get(&dx->file_ids, (uintptr_t)path, &id)) {
		if (!dx->files[id].opt)
			dx->files[id].opt = w->opt;
		return id;
	}
	RG_GROW(dx->files, dx->nfiles + 1, dx->files_cap);
	id = (uint32_t)dx->nfiles++;
	dx->files[id].path = path;
	dx->files[id].first = dx->files[id].count = 0;
	dx->files[id].opt = w->opt;
	dwarfx_map_put(&dx->file_ids, (uintptr_t)path, id);
	return id;
}

/*
 * Sequences of functions the linker discarded (--gc-sections, COMDAT) keep
 * their rows at address 0 or a tombstone: keep only sequences that start in
 * executable memory.
 */
static void end_sequence(dwarfx *dx, size_t *seq_start)
{
	if (dx->nrows > *seq_start && !dwarfx_in_exec(dx, dx->rows[*seq_start].addr))
		dx->nrows = *seq_start;
	if (dx->nrows > *seq_start) {
		RG_GROW(dx->seqs, dx->nseqs + 1, dx->seqs_cap);
		dx->seqs[dx->nseqs].first = *seq_start;
		dx->seqs[dx->nseqs].count = dx->nrows - *seq_start;
		dx->nseqs++;
	}
	*seq_start = dx->nrows;
}

/* Rows of one line table as they are read, by either reader. */
struct rowctx {
	struct walk *w;
	uint32_t *ids;             /* file number in this table -> file id */
	size_t nids;
	size_t seq_start;          /* first row of the open sequence */
};

/* The file id cached for a file number; false when not looked up yet. */
static bool cached_file(struct rowctx *rc, uint64_t fileno, uint32_t *id)
{
	if (fileno >= rc->nids) {
		rc->ids = xrealloc(rc->ids, (fileno + 1) * sizeof(*rc->ids));
		while (rc->nids <= fileno)
			rc->ids[rc->nids++] = DWARFX_NONE;
	}
	*id = rc->ids[fileno];
	return *id != DWARFX_NONE;
}

static void push_row(struct rowctx *rc, uint64_t addr, uint32_t file,
		     uint64_t lineno, bool stmt, bool endseq)
{
	dwarfx *dx = rc->w->dx;
	struct dwarfx_row *r;

	if (lineno > INT32_MAX)
		lineno = 0;
	RG_GROW(dx->rows, dx->nrows + 1, dx->rows_cap);
	r = &dx->rows[dx->nrows];
	r->addr = addr;
	r->file = file;
	r->line = (uint32_t)lineno;
	r->ord = (uint32_t)dx->nrows;
	/* gcc's location views: numbered from 0 at each new address */
	r->view = dx->nrows > rc->seq_start && dx->rows[dx->nrows - 1].addr == addr &&
		dx->rows[dx->nrows - 1].view < UINT16_MAX ?
		dx->rows[dx->nrows - 1].view + 1 : 0;
	r->is_stmt = stmt;
	r->end_seq = endseq;
	dx->nrows++;
	if (endseq)
		end_sequence(dx, &rc->seq_start);
}

/* dwarfx_line_program's rows. */
static int decoded_row(void *arg, uint64_t addr, uint64_t fileno, const char *path,
		       uint64_t lineno, bool stmt, bool endseq)
{
	struct rowctx *rc = arg;
	uint32_t id;

	if (fileno > 100000)
		return -1;	/* libdwarf's reading will say so */
	if (!cached_file(rc, fileno, &id))
		id = rc->ids[fileno] = file_id(rc->w, path ? path : "<unknown>");
	push_row(rc, addr, id, lineno, stmt, endseq);
	return 0;
}

/*
 * libdwarf 20210528 starts a DWARF 5 line program's file register at 0 (at
 * the start and after each end_sequence) where DWARF 5 says 1, as DWARF 2-4
 * did (libdwarf issue 137, fixed in later releases).  gcc relies on that
 * default: when a unit's first code is a static inline function from a
 * header, the header is file 1 and its rows come before any
 * DW_LNS_set_file, so libdwarf puts them in file 0, the unit's own source.
 *
 * The rows cannot tell that 0 from a DW_LNS_set_file 0, the table can: gas
 * (gcc) numbers files from 1 and writes entry 0 as a copy of the primary
 * source, which its programs never name; clang lists each file once and
 * sets the register before every row.  So in a DWARF 5 table whose entry 0
 * recurs later, a row in file 0 is a row in file 1.  Returns file 1's path
 * (libdwarf's, to be freed with free_srcfiles) when that is so, else NULL;
 * a newer libdwarf never reports file 0 for such a table: no harm either way.
 */
static char *zero_means_one(struct walk *w, Dwarf_Die cu, Dwarf_Unsigned version,
			    char ***files, Dwarf_Signed *nfiles)
{
	Dwarf_Error e = NULL;
	Dwarf_Signed i;
	int res;

	*files = NULL;
	*nfiles = 0;
	if (version != 5)
		return NULL;
	res = dwarf_srcfiles(cu, files, nfiles, &e);
	if (res == DW_DLV_ERROR)
		dwarf_dealloc_error(w->dbg, e);
	if (res != DW_DLV_OK) {
		*files = NULL;
		*nfiles = 0;
		return NULL;
	}
	/* DWARF 5: dwarf_srcfiles index = file number */
	for (i = 1; i < *nfiles; i++)
		if ((*files)[0] && (*files)[i] && !strcmp((*files)[0], (*files)[i]))
			return (*files)[1];
	return NULL;
}

static void free_srcfiles(struct walk *w, char **files, Dwarf_Signed nfiles)
{
	Dwarf_Signed i;

	if (!files)
		return;
	for (i = 0; i < nfiles; i++)
		dwarf_dealloc(w->dbg, files[i], DW_DLA_STRING);
	dwarf_dealloc(w->dbg, files, DW_DLA_LIST);
}

static int line_rows(struct walk *w, Dwarf_Die cu, Dwarf_Unsigned version,
		     Dwarf_Line *lines, Dwarf_Signed n)
{
	dwarfx *dx = w->dx;
	struct rowctx rc = {w, NULL, 0, dx->nrows};
	Dwarf_Error e = NULL;
	Dwarf_Signed i, nfiles;
	char **files;
	const char *file1 = zero_means_one(w, cu, version, &files, &nfiles);
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		Dwarf_Addr addr;
		Dwarf_Unsigned lineno, fileno;
		Dwarf_Bool stmt, endseq;
		uint32_t id;

		/* a row without any of these is as broken as an error */
		if (dwarf_lineaddr(lines[i], &addr, &e) != DW_DLV_OK ||
		    dwarf_lineno(lines[i], &lineno, &e) != DW_DLV_OK ||
		    dwarf_line_srcfileno(lines[i], &fileno, &e) != DW_DLV_OK ||
		    dwarf_linebeginstatement(lines[i], &stmt, &e) != DW_DLV_OK ||
		    dwarf_lineendsequence(lines[i], &endseq, &e) != DW_DLV_OK) {
			ret = dw_fail(w, e, "line table");
			break;
		}
		if (fileno > 100000) {
			ret = dw_fail(w, NULL, "line table names an impossible file number");
			break;
		}
		if (fileno == 0 && file1) {
			/* see zero_means_one */
			if (!cached_file(&rc, 1, &id))
				id = rc.ids[1] = file_id(w, file1);
		} else if (!cached_file(&rc, fileno, &id)) {
			char *src = NULL;
			int res;

			/* libdwarf joins the include directory for us */
			res = dwarf_linesrc(lines[i], &src, &e);
			if (res == DW_DLV_ERROR) {
				ret = dw_fail(w, e, "line table file names");
				break;
			}
			id = rc.ids[fileno] = file_id(w, res == DW_DLV_OK ? src : "<unknown>");
			if (res == DW_DLV_OK)
				dwarf_dealloc(w->dbg, src, DW_DLA_STRING);
		}
		push_row(&rc, addr, id, lineno, stmt != 0, endseq != 0);
	}
	/* rows after the last end_sequence belong to no sequence: drop them */
	dx->nrows = rc.seq_start;
	free(rc.ids);
	free_srcfiles(w, files, nfiles);
	return ret;
}

/* The unit's DW_AT_stmt_list: where its line program is in .debug_line. */
static bool stmt_list(struct walk *w, Dwarf_Die cu, uint64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Off ref;
	Dwarf_Unsigned u;
	Dwarf_Error e = NULL;
	int res;

	res = dwarf_attr(cu, DW_AT_stmt_list, &attr, &e);
	if (res == DW_DLV_ERROR)
		dwarf_dealloc_error(w->dbg, e);
	if (res != DW_DLV_OK)
		return false;	/* libdwarf will tell again, and handle it */
	res = dwarf_global_formref(attr, &ref, &e);
	if (res == DW_DLV_OK) {
		*off = ref;
	} else {
		if (res == DW_DLV_ERROR)
			dwarf_dealloc_error(w->dbg, e);
		e = NULL;
		res = dwarf_formudata(attr, &u, &e);
		*off = u;
	}
	if (res == DW_DLV_ERROR)
		dwarf_dealloc_error(w->dbg, e);
	dwarf_dealloc_attribute(attr);
	return res == DW_DLV_OK;
}

static int index_lines(struct walk *w, Dwarf_Die cu)
{
	dwarfx *dx = w->dx;
	Dwarf_Unsigned version;
	Dwarf_Small ntables;
	Dwarf_Line_Context ctx = NULL;
	Dwarf_Line *lines = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error e = NULL;
	uint64_t off;
	int res, ret;

	/* our own reader first; libdwarf for what it declines or finds corrupt */
	if (stmt_list(w, cu, &off)) {
		struct rowctx rc = {w, NULL, 0, dx->nrows};
		size_t nrows = dx->nrows, nseqs = dx->nseqs;

		res = dwarfx_line_program(dx, off, decoded_row, &rc);
		free(rc.ids);
		if (!res) {
			dx->nrows = rc.seq_start;
			return 0;
		}
		dx->nrows = nrows;
		dx->nseqs = nseqs;
	}
	res = dwarf_srclines_b(cu, &version, &ntables, &ctx, &e);
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "line table");
	res = dwarf_srclines_from_linecontext(ctx, &lines, &n, &e);
	if (res == DW_DLV_ERROR) {
		ret = dw_fail(w, e, "line table");
		dwarf_srclines_dealloc_b(ctx);
		return ret;
	}
	ret = res == DW_DLV_OK ? line_rows(w, cu, version, lines, n) : 0;
	dwarf_srclines_dealloc_b(ctx);
	return ret;
}

/*
 * Reads a string attribute (the string lives in libdwarf's sections).
 * Returns DW_DLV_OK, DW_DLV_NO_ENTRY, or DW_DLV_ERROR with w->err set.
 */
static int attr_string(struct walk *w, Dwarf_Die die, Dwarf_Half at, char **out)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	int res;

	res = dwarf_attr(die, at, &attr, &e);
	if (res == DW_DLV_ERROR) {
		dw_fail(w, e, "attribute");
		return DW_DLV_ERROR;
	}
	if (res == DW_DLV_NO_ENTRY)
		return DW_DLV_NO_ENTRY;
	res = dwarf_formstring(attr, out, &e);
	dwarf_dealloc_attribute(attr);
	if (res == DW_DLV_ERROR)
		dw_fail(w, e, "string attribute");
	return res;
}

static int die_name(struct walk *w, Dwarf_Die die, enum name_kind kind,
		    unsigned hops, const char **out);

/* The name of the entry at off (kind as die_name), cached by offset. */
static int name_at(struct walk *w, Dwarf_Off off, enum name_kind kind,
		   unsigned hops, const char **out)
{
	struct name_cache *c = &w->names[kind];
	Dwarf_Die d = NULL;
	Dwarf_Error e = NULL;
	uint32_t idx;
	int res;

	if (dwarfx_map_get(&c->map, off, &idx)) {
		*out = idx == DWARFX_NONE ? NULL : c->list[idx];
		return 0;
	}
	res = dwarf_offdie_b(w->dbg, off, true, &d, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "reference to another entry");
	*out = NULL;
	if (res == DW_DLV_OK) {
		res = die_name(w, d, kind, hops + 1, out);
		dwarf_dealloc_die(d);
		if (res < 0)
			return -1;
	}
	if (*out) {
		RG_GROW(c->list, c->n + 1, c->cap);
		c->list[c->n] = *out;
		dwarfx_map_put(&c->map, off, (uint32_t)c->n++);
	} else {
		dwarfx_map_put(&c->map, off, DWARFX_NONE);
	}
	return 0;
}

/* The entry's own name of that kind: 1 and *out set, 0 when it has none. */
static int own_name(struct walk *w, Dwarf_Die die, enum name_kind kind,
		    const char **out)
{
	static const Dwarf_Half linkage[] = {DW_AT_linkage_name, DW_AT_MIPS_linkage_name};
	Dwarf_Error e = NULL;
	char *s;
	size_t i;
	int res;

	if (kind == NAME_PLAIN) {
		res = dwarf_diename(die, &s, &e);
		if (res == DW_DLV_ERROR)
			return dw_fail(w, e, "name");
		if (res == DW_DLV_NO_ENTRY)
			return 0;
		*out = dwarfx_pool_intern(&w->dx->strs, s, strlen(s));
		return 1;
	}
	for (i = 0; i < sizeof(linkage) / sizeof(linkage[0]); i++) {
		res = attr_string(w, die, linkage[i], &s);
		if (res == DW_DLV_ERROR)
			return -1;
		if (res == DW_DLV_OK) {
			*out = dwarfx_pool_intern(&w->dx->strs, s, strlen(s));
			return 1;
		}
	}
	return 0;
}

/*
 * The entry's name, or else the name of the entry this one is an instance
 * of: inlined copies and out-of-line clones (foo.constprop.0) point at the
 * abstract foo with DW_AT_abstract_origin, C++ definitions at their
 * declaration with DW_AT_specification.  NAME_PLAIN is DW_AT_name;
 * NAME_LINKAGE the mangled name (NULL for extern "C" functions and main).
 * Sets *out to NULL if none.
 */
static int die_name(struct walk *w, Dwarf_Die die, enum name_kind kind,
		    unsigned hops, const char **out)
{
	static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
	Dwarf_Error e = NULL;
	size_t i;
	int res;

	*out = NULL;
	res = own_name(w, die, kind, out);
	if (res != 0)
		return res < 0 ? -1 : 0;
	if (hops >= MAX_NAME_HOPS)
		return 0;
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		Dwarf_Attribute attr;
		Dwarf_Off off;

		res = dwarf_attr(die, refs[i], &attr, &e);
		if (res == DW_DLV_ERROR)
			return dw_fail(w, e, "attribute");
		if (res == DW_DLV_NO_ENTRY)
			continue;
		res = dwarf_global_formref(attr, &off, &e);
		dwarf_dealloc_attribute(attr);
		if (res == DW_DLV_ERROR)
			return dw_fail(w, e, "reference to another entry");
		if (res == DW_DLV_NO_ENTRY)
			continue;
		return name_at(w, off, kind, hops, out);
	}
	return 0;
}

struct rangebuf {
	bool any;                /* a range was listed (kept or not) */
	uint64_t first;          /* start of the first range listed */
};

static void add_range(struct walk *w, struct rangebuf *rb, uint64_t lo, uint64_t hi)
{
	dwarfx *dx = w->dx;

	if (!rb->any) {
		rb->any = true;
		rb->first = lo;
	}
	if (hi <= lo || !dwarfx_in_exec(dx, lo))
		return;
	RG_GROW(dx->ranges, dx->nranges + 1, dx->ranges_cap);
	dx->ranges[dx->nranges].lo = lo;
	dx->ranges[dx->nranges].hi = hi;
	dx->nranges++;
}

struct addctx {
	struct walk *w;
	struct rangebuf *rb;
};

static int add_one(void *arg, uint64_t lo, uint64_t hi)
{
	struct addctx *c = arg;

	add_range(c->w, c->rb, lo, hi);
	return 0;
}

/* Appends the die's code ranges to dx->ranges (those in executable memory). */
static int die_ranges(struct walk *w, Dwarf_Die die, struct rangebuf *rb)
{
	struct addctx c = { w, rb };
	Dwarf_Error e = NULL;
	const char *what = NULL;

	if (dwarfx_die_ranges(w->dbg, die, w->cu_base, add_one, &c, &e, &what) ==
	    DW_DLV_ERROR)
		return dw_fail(w, e, what);
	return 0;
}

/*
 * Where an instance is entered: DW_AT_entry_pc (gcc gives one to inlined
 * copies, whose first range need not hold the first instruction), else the
 * low pc or the first range listed (the hot part; a .cold part can lie at a
 * lower address).
 */
static int die_entry(struct walk *w, Dwarf_Die die, uint64_t base, uint64_t *entry)
{
	Dwarf_Attribute attr;
	Dwarf_Half form;
	Dwarf_Addr a;
	Dwarf_Unsigned u;
	Dwarf_Error e = NULL;
	enum Dwarf_Form_Class cls;
	int res;

	*entry = base;
	res = dwarf_attr(die, DW_AT_entry_pc, &attr, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "DW_AT_entry_pc");
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	res = dwarf_whatform(attr, &form, &e);
	if (res == DW_DLV_OK) {
		cls = dwarf_get_form_class(w->version, DW_AT_entry_pc,
					   w->offset_size, form);
		if (cls == DW_FORM_CLASS_ADDRESS) {
			res = dwarf_formaddr(attr, &a, &e);
			if (res == DW_DLV_OK)
				*entry = a;
		} else if (cls == DW_FORM_CLASS_CONSTANT) {
			/* DWARF 5: an offset from the entity's base address */
			res = dwarf_formudata(attr, &u, &e);
			if (res == DW_DLV_OK)
				*entry = base + u;
		}
	}
	dwarf_dealloc_attribute(attr);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "DW_AT_entry_pc");
	return 0;
}

/*
 * DW_AT_GNU_entry_view: at an inlined copy's entry address, the line table
 * first has rows of the caller (the call's line), then the callee's; the
 * view numbers which row the copy starts at.  0 when absent.
 */
static int die_entry_view(struct walk *w, Dwarf_Die die, unsigned *view)
{
	Dwarf_Attribute attr;
	Dwarf_Unsigned u = 0;
	Dwarf_Error e = NULL;
	int res;

	*view = 0;
	res = dwarf_attr(die, DW_AT_GNU_entry_view, &attr, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "DW_AT_GNU_entry_view");
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	res = dwarf_formudata(attr, &u, &e);
	dwarf_dealloc_attribute(attr);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "DW_AT_GNU_entry_view");
	*view = res == DW_DLV_OK && u < UINT16_MAX ? (unsigned)u : 0;
	return 0;
}

/* The DIE's offset, and that of the DIE it copies (itself when none). */
static int die_origin(struct walk *w, Dwarf_Die die, uint64_t *off, uint64_t *origin)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	Dwarf_Off o;
	int res;

	if (dwarf_dieoffset(die, &o, &e) != DW_DLV_OK)
		return dw_fail(w, e, "entry offset");
	*off = *origin = o;
	res = dwarf_attr(die, DW_AT_abstract_origin, &attr, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "attribute");
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	res = dwarf_global_formref(attr, &o, &e);
	dwarf_dealloc_attribute(attr);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "reference to another entry");
	if (res == DW_DLV_OK)
		*origin = o;
	return 0;
}

/* Records a subprogram or inlined subroutine; *code says whether it has any. */
static int add_fn(struct walk *w, Dwarf_Die die, Dwarf_Half tag, uint32_t parent,
		  unsigned depth, bool *code)
{
	dwarfx *dx = w->dx;
	struct rangebuf rb = {false, 0};
	size_t r0 = dx->nranges;
	struct dwarfx_fn *fn;
	const char *name, *linkage = NULL;
	uint64_t entry, off, origin;
	unsigned view = 0;

	*code = false;
	if (die_ranges(w, die, &rb) < 0)
		return -1;
	if (dx->nranges == r0)
		return 0;
	if (die_origin(w, die, &off, &origin) < 0) {
		dx->nranges = r0;
		return -1;
	}
	if (die_name(w, die, NAME_PLAIN, 0, &name) < 0 || die_entry(w, die, rb.first, &entry) < 0 ||
	    (tag == DW_TAG_inlined_subroutine && die_entry_view(w, die, &view) < 0) ||
	    (w->cxx && die_name(w, die, NAME_LINKAGE, 0, &linkage) < 0)) {
		dx->nranges = r0;
		return -1;
	}
	*code = true;
	RG_GROW(dx->fns, dx->nfns + 1, dx->fns_cap);
	fn = &dx->fns[dx->nfns++];
	fn->name = name;
	fn->linkage = linkage;
	fn->qname = fn->sig = NULL;
	fn->entry = entry;
	fn->range0 = (uint32_t)r0;
	fn->nranges = (uint32_t)(dx->nranges - r0);
	fn->parent = parent;
	fn->depth = depth;
	fn->entry_view = view;
	fn->inlined = tag == DW_TAG_inlined_subroutine;
	fn->cxx = w->cxx;
	fn->die = off;
	fn->origin = origin;
	return 0;
}

/*
 * Visits the children of parent that can hold code.  Types, variables and
 * parameters are skipped without descending: most of a big binary's DIEs.
 */
static int walk_children(struct walk *w, Dwarf_Die parent, uint32_t parent_fn,
			 unsigned depth, unsigned nesting)
{
	Dwarf_Die child = NULL;
	Dwarf_Error e = NULL;
	int res;

	if (nesting > MAX_DIE_DEPTH)
		return dw_fail(w, NULL, "entries nested too deep");
	res = dwarf_child(parent, &child, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "entry children");
	while (res == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag;
		bool code;
		int ret = 0;

		res = dwarf_tag(child, &tag, &e);
		if (res != DW_DLV_OK) {
			dwarf_dealloc_die(child);
			return dw_fail(w, e, "entry tag");
		}
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			ret = add_fn(w, child, tag, parent_fn, depth, &code);
			/* abstract and declared-only functions hold no code */
			if (!ret && code)
				ret = walk_children(w, child, (uint32_t)(w->dx->nfns - 1),
						    depth + 1, nesting + 1);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			ret = walk_children(w, child, parent_fn, depth, nesting + 1);
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/*
			 * A class local to a function (a lambda's closure) holds
			 * its methods' code: functions of their own, not nested
			 * in the enclosing one.  Other classes hold declarations.
			 */
			if (parent_fn != DWARFX_NONE)
				ret = walk_children(w, child, DWARFX_NONE, 0, nesting + 1);
			break;
		default:
			break;
		}
		if (ret < 0) {
			dwarf_dealloc_die(child);
			return -1;
		}
		res = dwarf_siblingof_b(w->dbg, child, true, &next, &e);
		dwarf_dealloc_die(child);
		if (res == DW_DLV_ERROR)
			return dw_fail(w, e, "entry siblings");
		child = next;
	}
	return 0;
}

/*
 * The optimisation a unit was built with: gcc records its switches in
 * DW_AT_producer ("GNU C17 12.2.0 -mtune=generic -g -O2"); the last -O
 * wins.  NULL for -O0 or when the producer does not say.
 */
static const char *producer_opt(struct walk *w, const char *producer)
{
	const char *p, *last = NULL;
	size_t len = 0;

	for (p = producer; (p = strstr(p, " -O")); p += 3) {
		last = p + 1;
		len = strcspn(last, " ");
	}
	if (!last || (len == 3 && last[2] == '0'))
		return NULL;
	return dwarfx_pool_intern(&w->dx->strs, last, len);
}

static int index_cu(struct walk *w, Dwarf_Die cu)
{
	Dwarf_Addr base;
	Dwarf_Half tag;
	Dwarf_Unsigned lang;
	Dwarf_Error e = NULL;
	char *dir = NULL, *producer = NULL, *name = NULL;
	int res;

	res = dwarf_tag(cu, &tag, &e);
	if (res != DW_DLV_OK)
		return dw_fail(w, e, "unit tag");
	if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit)
		return 0;	/* type units hold no code */
	res = attr_string(w, cu, DW_AT_comp_dir, &dir);
	if (res == DW_DLV_ERROR)
		return -1;
	w->comp_dir = res == DW_DLV_OK ?
		dwarfx_pool_intern(&w->dx->strs, dir, strlen(dir)) : NULL;
	res = attr_string(w, cu, DW_AT_producer, &producer);
	if (res == DW_DLV_ERROR)
		return -1;
	w->opt = res == DW_DLV_OK ? producer_opt(w, producer) : NULL;
	/*
	 * The unit's own source file, known even when no row names it: a
	 * preprocessed file whose # line markers credit every row to the
	 * files they name (dwarfx_rowless_file).
	 */
	res = attr_string(w, cu, DW_AT_name, &name);
	if (res == DW_DLV_ERROR)
		return -1;
	if (res == DW_DLV_OK && tag == DW_TAG_compile_unit && *name)
		file_id(w, name);
	res = dwarf_srclang(cu, &lang, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "unit language");
	w->cxx = res == DW_DLV_OK && (lang == DW_LANG_C_plus_plus ||
				      lang == DW_LANG_C_plus_plus_03 ||
				      lang == DW_LANG_C_plus_plus_11 ||
				      lang == DW_LANG_C_plus_plus_14);
	res = dwarf_lowpc(cu, &base, &e);
	if (res == DW_DLV_ERROR)
		return dw_fail(w, e, "unit DW_AT_low_pc");
	w->cu_base = res == DW_DLV_OK ? base : 0;
	if (index_lines(w, cu) < 0)
		return -1;
	return walk_children(w, cu, DWARFX_NONE, 0, 0);
}

int dwarfx_index_dwarf(dwarfx *dx, rg_err *err)
{
	struct walk w;
	Dwarf_Debug dbg = NULL;
	Dwarf_Error e = NULL;
	int res, ret = 0;

	/*
	 * libdwarf can track every object it hands out so that dwarf_finish
	 * frees what callers forgot; that bookkeeping is half the time of
	 * indexing a big binary.  We free each DIE, attribute, error, string,
	 * line context and range list ourselves, so turn it off (it is a
	 * libdwarf-wide setting; setting it again is harmless).
	 */
	dwarf_set_de_alloc_flag(0);
	/*
	 * No true-path buffer: libdwarf then reads this file only and does
	 * not follow .gnu_debuglink, so the index describes exactly the object
	 * the tracer will map.
	 */
	res = dwarf_init_path(dx->path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY,
			      NULL, NULL, &dbg, NULL, 0, NULL, &e);
	if (res == DW_DLV_NO_ENTRY)
		return 0;
	if (res == DW_DLV_ERROR) {
		rg_error(err, "cannot read the debug info of '%s': %s", dx->path,
			 e ? dwarf_errmsg(e) : "unknown error");
		if (e)
			dwarf_dealloc_error(dbg, e);
		if (dbg)
			dwarf_finish(dbg, NULL);
		return -1;
	}
	dx->dbg = dbg;

	memset(&w, 0, sizeof(w));
	w.dx = dx;
	w.dbg = dbg;
	w.err = err;
	for (;;) {
		Dwarf_Unsigned hlen, abbrev_off, typeoff, next;
		Dwarf_Half version, addr_size, offset_size, ext_size, unit_type;
		Dwarf_Sig8 sig;
		Dwarf_Die cu = NULL;

		res = dwarf_next_cu_header_d(dbg, true, &hlen, &version, &abbrev_off,
					     &addr_size, &offset_size, &ext_size,
					     &sig, &typeoff, &next, &unit_type, &e);
		if (res == DW_DLV_NO_ENTRY)
			break;
		if (res == DW_DLV_ERROR) {
			ret = dw_fail(&w, e, "unit header");
			break;
		}
		w.version = version;
		w.offset_size = offset_size;
		res = dwarf_siblingof_b(dbg, NULL, true, &cu, &e);
		if (res == DW_DLV_ERROR) {
			ret = dw_fail(&w, e, "unit entry");
			break;
		}
		if (res == DW_DLV_NO_ENTRY)
			continue;
		ret = index_cu(&w, cu);
		dwarf_dealloc_die(cu);
		if (ret < 0)
			break;
	}
	/* only the line program reader wanted these */
	free(dx->sec_line.p);
	free(dx->sec_line_str.p);
	free(dx->sec_str.p);
	memset(&dx->sec_line, 0, sizeof(dx->sec_line));
	memset(&dx->sec_line_str, 0, sizeof(dx->sec_line_str));
	memset(&dx->sec_str, 0, sizeof(dx->sec_str));
	for (int k = 0; k < NAME_KINDS; k++) {
		dwarfx_map_release(&w.names[k].map);
		free(w.names[k].list);
	}
	return ret;
}

static int row_addr_cmp(const void *pa, const void *pb)
{
	const struct dwarfx_row *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* a sequence ending where the next starts: the end comes first */
	if (a->end_seq != b->end_seq)
		return a->end_seq ? -1 : 1;
	return a->ord < b->ord ? -1 : a->ord > b->ord;
}

static int seq_cmp(const void *pa, const void *pb, void *arg)
{
	const struct dwarfx_row *rows = arg;
	const struct dwarfx_seq *a = pa, *b = pb;
	uint64_t x = rows[a->first].addr, y = rows[b->first].addr;

	return x < y ? -1 : x > y;
}

/*
 * Sorts the rows by address.  Each sequence is sorted already (DWARF says
 * so) and sequences rarely overlap, so ordering whole sequences and checking
 * that they tile is much cheaper than sorting a million rows; anything odd
 * falls back to the full sort.
 */
static void sort_rows(dwarfx *dx)
{
	struct dwarfx_row *out;
	size_t i, j, n = 0;
	bool ok = true;

	if (!dx->nrows)
		return;
	if (dx->nseqs > 1)
		qsort_r(dx->seqs, dx->nseqs, sizeof(*dx->seqs), seq_cmp, dx->rows);
	for (i = 0; i < dx->nseqs && ok; i++) {
		const struct dwarfx_seq *q = &dx->seqs[i];

		for (j = q->first + 1; j < q->first + q->count && ok; j++)
			ok = dx->rows[j - 1].addr <= dx->rows[j].addr;
		if (i + 1 < dx->nseqs)
			ok = ok && dx->rows[q->first + q->count - 1].addr <=
				dx->rows[dx->seqs[i + 1].first].addr &&
				dx->rows[q->first].addr < dx->rows[dx->seqs[i + 1].first].addr;
	}
	if (!ok) {
		qsort(dx->rows, dx->nrows, sizeof(*dx->rows), row_addr_cmp);
		return;
	}
	out = xmalloc(dx->nrows * sizeof(*out));
	for (i = 0; i < dx->nseqs; i++) {
		memcpy(out + n, dx->rows + dx->seqs[i].first,
		       dx->seqs[i].count * sizeof(*out));
		n += dx->seqs[i].count;
	}
	free(dx->rows);
	dx->rows = out;
	dx->nrows = n;
	dx->rows_cap = n;
}

struct line_key {
	uint64_t key;            /* file << 32 | line */
	uint32_t row;
};

/*
 * Sorts keys by key, keeping equal keys in their order: a least-significant
 * digit radix sort, 16 bits a pass, skipping the digits all keys share.
 * Several times quicker than qsort on half a million rows.  tmp holds n.
 */
static void radix_sort(struct line_key *keys, struct line_key *tmp, size_t n)
{
	size_t *count = xmalloc(65536 * sizeof(*count));
	struct line_key *from = keys, *to = tmp, *t;
	unsigned shift;

	for (shift = 0; shift < 64; shift += 16) {
		size_t i, sum = 0;
		bool shared = false;

		memset(count, 0, 65536 * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(from[i].key >> shift) & 0xffff]++;
		for (i = 0; i < 65536 && !shared; i++)
			shared = count[i] == n;
		if (shared)
			continue;
		for (i = 0; i < 65536; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i].key >> shift) & 0xffff]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != keys)
		memcpy(keys, from, n * sizeof(*keys));
	free(count);
}

/*
 * byline: the statement rows sorted by (file, line, address).  The rows are
 * in address order already, so a stable sort by (file, line) of their
 * indexes is that order.
 */
static void index_lines_by_file(dwarfx *dx)
{
	struct line_key *keys, *tmp;
	size_t i, n = 0;

	sort_rows(dx);
	free(dx->seqs);
	dx->seqs = NULL;
	dx->nseqs = dx->seqs_cap = 0;
	keys = xcalloc(dx->nrows ? dx->nrows : 1, sizeof(*keys));
	for (i = 0; i < dx->nrows; i++) {
		const struct dwarfx_row *r = &dx->rows[i];

		if (!r->is_stmt || r->end_seq || !r->line)
			continue;
		keys[n].key = (uint64_t)r->file << 32 | r->line;
		keys[n].row = (uint32_t)i;
		n++;
	}
	tmp = xcalloc(n ? n : 1, sizeof(*tmp));
	radix_sort(keys, tmp, n);
	free(tmp);
	dx->byline = xcalloc(n ? n : 1, sizeof(*dx->byline));
	dx->nbyline = n;
	for (i = 0; i < n; i++) {
		struct dwarfx_file *f = &dx->files[keys[i].key >> 32];

		if (!f->count)
			f->first = i;
		f->count++;
		dx->byline[i] = keys[i].row;
	}
	free(keys);
}

struct span {
	uint64_t lo, hi;
	uint32_t fn;
	unsigned depth;
};

static int span_cmp(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi > b->hi ? -1 : 1;
	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

static void emit_seg(dwarfx *dx, size_t *cap, uint64_t lo, uint64_t hi, uint32_t fn)
{
	struct dwarfx_seg *last = dx->nsegs ? &dx->segs[dx->nsegs - 1] : NULL;

	if (hi <= lo)
		return;
	if (last && last->hi == lo && last->fn == fn) {
		last->hi = hi;
		return;
	}
	RG_GROW(dx->segs, dx->nsegs + 1, *cap);
	dx->segs[dx->nsegs].lo = lo;
	dx->segs[dx->nsegs].hi = hi;
	dx->segs[dx->nsegs].fn = fn;
	dx->nsegs++;
}

/*
 * Flattens the nested instance ranges into disjoint segments, each labelled
 * with the innermost instance, so "which function is this address in" is
 * one binary search.  Ranges sorted by start (outer first) are swept with a
 * stack of the ranges open at the current address: its top is the innermost.
 */
static void index_segments(dwarfx *dx)
{
	struct span *sp = xcalloc(dx->nranges, sizeof(*sp));
	struct span **stack = xcalloc(dx->nranges + 1, sizeof(*stack));
	size_t n = 0, i, top = 0, cap = 0;
	uint64_t pos = 0;
	uint32_t f;

	for (f = 0; f < dx->nfns; f++) {
		const struct dwarfx_fn *fn = &dx->fns[f];

		for (i = fn->range0; i < fn->range0 + fn->nranges; i++) {
			sp[n].lo = dx->ranges[i].lo;
			sp[n].hi = dx->ranges[i].hi;
			sp[n].fn = f;
			sp[n].depth = fn->depth;
			n++;
		}
	}
	qsort(sp, n, sizeof(*sp), span_cmp);
	i = 0;
	while (i < n || top) {
		uint64_t next_start = i < n ? sp[i].lo : UINT64_MAX;
		uint64_t end;

		while (top && stack[top - 1]->hi <= pos)
			top--;
		if (!top) {
			if (i >= n)
				break;
			pos = next_start;
		} else {
			end = stack[top - 1]->hi < next_start ? stack[top - 1]->hi : next_start;
			emit_seg(dx, &cap, pos, end, stack[top - 1]->fn);
			pos = end;
		}
		while (i < n && sp[i].lo == pos)
			stack[top++] = &sp[i++];
	}
	free(stack);
	free(sp);
}

static int fnkey_cmp(const void *pa, const void *pb, void *arg)
{
	const dwarfx *dx = arg;
	const struct dwarfx_fnkey *a = pa, *b = pb;
	int c = a->key == b->key ? 0 : strcmp(a->key, b->key);

	if (c)
		return c;
	if (dx->fns[a->fn].entry != dx->fns[b->fn].entry)
		return dx->fns[a->fn].entry < dx->fns[b->fn].entry ? -1 : 1;
	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

/* The mangled name of the ELF symbol that starts at addr, or NULL. */
static const char *mangled_at(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < dx->nsyms && dx->syms[lo].addr == addr; lo++)
		/* not a clone: "_ZL1fi.constprop.0" demangles with a suffix */
		if (!strncmp(dx->syms[lo].name, "_Z", 2) && !strchr(dx->syms[lo].name, '.'))
			return dx->syms[lo].name;
	return NULL;
}

/*
 * gcc gives a C++ function with internal linkage (static, or in an
 * anonymous namespace) no DW_AT_linkage_name: take its symbol's, which
 * has its parameter types, so that its overloads can be told apart; its
 * inlined copies share it through the DIE they are copies of.
 */
static void symbol_linkage(dwarfx *dx)
{
	dwarfx_map by_origin = {0};
	uint32_t f, k;

	for (f = 0; f < dx->nfns; f++) {
		struct dwarfx_fn *fn = &dx->fns[f];

		if (fn->linkage || !fn->cxx || fn->inlined ||
		    !(fn->linkage = mangled_at(dx, fn->entry)))
			continue;
		dwarfx_map_put(&by_origin, fn->origin, f);
	}
	for (f = 0; f < dx->nfns && by_origin.count; f++) {
		struct dwarfx_fn *fn = &dx->fns[f];

		if (!fn->linkage && fn->cxx && dwarfx_map_get(&by_origin, fn->origin, &k))
			fn->linkage = dx->fns[k].linkage;
	}
	dwarfx_map_release(&by_origin);
}

/*
 * Qualified names of C++ functions from their linkage names, demangled
 * once per distinct name (every inlined copy of a method repeats it).
 */
static void demangle_fns(dwarfx *dx)
{
	dwarfx_map done = {0};
	const char **pairs = NULL;	/* qname, sig, qname, sig, ... */
	size_t npairs = 0, cap = 0;
	uint32_t f, k;

	for (f = 0; f < dx->nfns; f++) {
		struct dwarfx_fn *fn = &dx->fns[f];

		if (!fn->linkage)
			continue;
		if (!dwarfx_map_get(&done, (uintptr_t)fn->linkage, &k)) {
			char *base = cplus_demangle(fn->linkage, DMGL_ANSI);
			char *full = cplus_demangle(fn->linkage, DMGL_PARAMS | DMGL_ANSI);

			RG_GROW(pairs, npairs + 2, cap);
			pairs[npairs] = base && full ?
				dwarfx_pool_intern(&dx->strs, base, strlen(base)) : NULL;
			pairs[npairs + 1] = base && full ?
				dwarfx_pool_intern(&dx->strs, full, strlen(full)) : NULL;
			free(base);
			free(full);
			k = (uint32_t)npairs;
			npairs += 2;
			dwarfx_map_put(&done, (uintptr_t)fn->linkage, k);
		}
		fn->qname = pairs[k];
		fn->sig = pairs[k + 1];
	}
	dwarfx_map_release(&done);
	free(pairs);
}

static void add_key(dwarfx *dx, size_t *cap, const char *key, uint32_t f)
{
	size_t i;

	/* keys of one instance are added together: skip a repeat */
	for (i = dx->nfnkeys; i > 0 && dx->fnkeys[i - 1].fn == f; i--)
		if (dx->fnkeys[i - 1].key == key)
			return;
	RG_GROW(dx->fnkeys, dx->nfnkeys + 1, *cap);
	dx->fnkeys[dx->nfnkeys].key = key;
	dx->fnkeys[dx->nfnkeys].fn = f;
	dx->nfnkeys++;
}

/* q and each tail of it at a "::" outside template arguments. */
static void add_tails(dwarfx *dx, size_t *cap, const char *q, uint32_t f)
{
	const char *p;
	int depth = 0;

	add_key(dx, cap, q, f);
	for (p = q; *p; p++) {
		if (*p == '<' || *p == '(' || *p == '{')
			depth++;
		else if ((*p == '>' || *p == ')' || *p == '}') && depth > 0)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':' && p[2])
			add_key(dx, cap, dwarfx_pool_intern(&dx->strs, p + 2,
							    strlen(p + 2)), f);
	}
}

/*
 * Every name an instance answers to: DW_AT_name, and for C++ each tail of
 * the qualified name at a "::" outside template arguments, so that
 * "Queue::push" finds ns::Queue::push as gdb does; the same with
 * "std::string" for the demangler's basic_string<char, ...>, and without
 * template arguments ("Q::put" is every instantiation of Q<T>::put).
 */
static void index_fn_keys(dwarfx *dx)
{
	dwarfx_map done = {0};
	const char **names = NULL;	/* alias, bare, alias, bare, ... */
	size_t cap = 0, nnames = 0, names_cap = 0;
	uint32_t f, k;

	for (f = 0; f < dx->nfns; f++) {
		const struct dwarfx_fn *fn = &dx->fns[f];
		const char *q = fn->qname;

		if (fn->name)
			add_key(dx, &cap, fn->name, f);
		if (!q)
			continue;
		/* inlined copies repeat their function's name: work it out once */
		if (!dwarfx_map_get(&done, (uintptr_t)q, &k)) {
			char *a = dwarfx_cxx_string_alias(q), *u = dwarfx_cxx_untemplate(q);

			RG_GROW(names, nnames + 2, names_cap);
			names[nnames] = a ? dwarfx_pool_intern(&dx->strs, a, strlen(a)) : NULL;
			names[nnames + 1] = u ? dwarfx_pool_intern(&dx->strs, u, strlen(u)) : NULL;
			free(a);
			free(u);
			k = (uint32_t)nnames;
			nnames += 2;
			dwarfx_map_put(&done, (uintptr_t)q, k);
		}
		add_tails(dx, &cap, q, f);
		if (names[k])
			add_tails(dx, &cap, names[k], f);
		if (names[k + 1])
			add_tails(dx, &cap, names[k + 1], f);
	}
	dwarfx_map_release(&done);
	free(names);
	if (dx->nfnkeys > 1)
		qsort_r(dx->fnkeys, dx->nfnkeys, sizeof(*dx->fnkeys), fnkey_cmp, dx);
}

void dwarfx_index_finish(dwarfx *dx)
{
	index_lines_by_file(dx);
	index_segments(dx);
	symbol_linkage(dx);
	demangle_fns(dx);
	index_fn_keys(dx);
	dx->debug = dx->nrows > 0;
}
