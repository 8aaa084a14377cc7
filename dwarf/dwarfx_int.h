/*
 * dwarf/ internals: the index dwarfx_open builds once and every query reads.
 * Not for other modules; they see dwarfx.h only.
 *
 *   rows     every line table row of every CU, sorted by address
 *   byline   the is_stmt rows again, sorted by (file, line, address):
 *            "FILE:LINE" is a binary search, never a rescan
 *   fns      subprograms and inlined subroutines that have code, with
 *            their ranges; segs flattens the ranges into disjoint pieces
 *            labelled with the innermost instance, for address lookups
 *   fnkeys   the names a user can call each instance by, sorted: its
 *            DW_AT_name and, for C++, every "::" suffix of its qualified
 *            name ("ns::Queue::push", "Queue::push"): one binary search
 *   syms     ELF function symbols (.symtab + .dynsym), sorted by address,
 *            and again by name
 *
 * dwarfx.c answers by-name and by-address queries, dwarfx_source.c reads
 * sources (regex anchors, `racegate lines`), dwarfx_insn.c decodes
 * instructions (FILE:LINE+N, *FUNCTION+N).
 */
#ifndef RACEGATE_DWARFX_INT_H
#define RACEGATE_DWARFX_INT_H

#include "dwarfx.h"

#define DWARFX_NONE UINT32_MAX

/* Interned strings: one copy of each, stable pointers, freed together. */
typedef struct dwarfx_pool {
	char **chunks;
	size_t nchunks, chunks_cap;
	size_t used, size;       /* of the last chunk */
	const char **slots;      /* open addressing; NULL is empty */
	size_t nslots, count;
} dwarfx_pool;

const char *dwarfx_pool_intern(dwarfx_pool *p, const char *s, size_t len);
void dwarfx_pool_release(dwarfx_pool *p);

/* uint64 -> uint32 map (DIE offsets -> names, string pointers -> ids). */
typedef struct dwarfx_map {
	uint64_t *keys;
	uint32_t *vals;
	unsigned char *used;
	size_t nslots, count;
} dwarfx_map;

bool dwarfx_map_get(const dwarfx_map *m, uint64_t key, uint32_t *val);
void dwarfx_map_put(dwarfx_map *m, uint64_t key, uint32_t val);
void dwarfx_map_release(dwarfx_map *m);

struct dwarfx_row {
	uint64_t addr;
	uint32_t file;           /* index in dx->files */
	uint32_t line;
	uint32_t ord;            /* position in the line program: sort tie-break */
	uint16_t view;           /* rows before this one at the same address */
	unsigned char is_stmt;
	unsigned char end_seq;   /* first address past a sequence, not code */
};

struct dwarfx_seq {
	size_t first, count;     /* slice of dx->rows, end_sequence row last */
};

struct dwarfx_file {
	const char *path;        /* interned, comp dir joined, normalised */
	size_t first, count;     /* this file's slice of dx->byline */
	const char *opt;         /* "-O2" etc. when a unit using it was optimised, or NULL */
};

struct dwarfx_fn {
	const char *name;        /* interned; NULL when DWARF names none */
	const char *linkage;     /* C++: mangled name (DW_AT_linkage_name), or NULL */
	const char *qname;       /* C++: "ns::Queue::push" (demangled), or NULL */
	const char *sig;         /* C++: "ns::Queue::push(int) const", or NULL */
	uint64_t entry;          /* DW_AT_entry_pc, DW_AT_low_pc or first range */
	uint32_t range0, nranges;/* slice of dx->ranges */
	uint32_t parent;         /* enclosing instance, or DWARFX_NONE */
	unsigned depth;          /* nesting: 0 for a CU-level subprogram */
	unsigned entry_view;     /* DW_AT_GNU_entry_view: rows at entry before it are the caller's */
	bool inlined;            /* DW_TAG_inlined_subroutine */
	bool cxx;                /* from a C++ unit */
	uint64_t die;            /* offset of its DIE in .debug_info */
	uint64_t origin;         /* of the DIE it is a copy of (DW_AT_abstract_origin), else die */
};

struct dwarfx_range {
	uint64_t lo, hi;
};

/* A piece of the address space and the innermost instance covering it. */
struct dwarfx_seg {
	uint64_t lo, hi;
	uint32_t fn;
};

struct dwarfx_sym {
	uint64_t addr, size;
	const char *name;        /* interned, @VERSION stripped */
	unsigned char bind;      /* STB_* */
	bool ifunc;              /* STT_GNU_IFUNC: addr is the resolver */
};

struct dwarfx_phdr {
	uint64_t vaddr, memsz;
	uint64_t offset, filesz; /* where the segment's bytes are in the file */
	bool exec;
};

/* One name an instance answers to (see fnkeys above). */
struct dwarfx_fnkey {
	const char *key;         /* interned */
	uint32_t fn;
};

/* A DWARF section's bytes, copied out of the file; p is NULL when absent. */
struct dwarfx_bytes {
	unsigned char *p;
	size_t n;
};

struct dwarfx {
	char *path;
	bool pie;
	uint64_t entry, load_base;
	struct dwarfx_phdr *phdrs;
	size_t nphdrs;
	struct dwarfx_phdr ehhdr;  /* PT_GNU_EH_FRAME (.eh_frame_hdr), filesz 0 when none */

	dwarfx_pool strs;

	void *dbg;               /* Dwarf_Debug, or NULL without DWARF */
	bool debug;
	/*
	 * While indexing: the sections dwarfx_line.c reads line programs from
	 * (left NULL when compressed: libdwarf reads those); freed after.
	 */
	struct dwarfx_bytes sec_line, sec_line_str, sec_str;

	struct dwarfx_row *rows;
	size_t nrows, rows_cap;
	struct dwarfx_seq *seqs;  /* while indexing: each sequence's rows */
	size_t nseqs, seqs_cap;
	uint32_t *byline;
	size_t nbyline;
	struct dwarfx_file *files;
	size_t nfiles, files_cap;
	dwarfx_map file_ids;     /* interned path pointer -> index in files */

	struct dwarfx_fn *fns;
	size_t nfns, fns_cap;
	struct dwarfx_range *ranges;
	size_t nranges, ranges_cap;
	struct dwarfx_seg *segs;
	size_t nsegs;
	struct dwarfx_fnkey *fnkeys; /* sorted by key, then entry */
	size_t nfnkeys;

	char *source_dir;        /* dwarfx_set_source_dir, or NULL */
	/*
	 * The dwarfx_resolve in progress: where its look-ups leave what they
	 * found out besides the message (status, hint); NULL between calls.
	 */
	struct dwarfx_result *res;

	struct dwarfx_sym *syms;
	size_t nsyms;
	uint32_t *sym_byname;
	const char **srcsyms;    /* STT_FILE names (.symtab): the sources compiled in */
	size_t nsrcsyms, srcsyms_cap;
	/* every symbol in an executable section, whatever its type (a global
	 * label in assembly too): a place code may be entered at, unsorted */
	uint64_t *labels;
	size_t nlabels, labels_cap;
	/* executable sections: where their bytes are in the file */
	struct dwarfx_xsec {
		uint64_t addr, offset, size;
	} *xsecs;
	size_t nxsecs, xsecs_cap;

	/* dwarfx_insn.c, filled as queries need them */
	struct arch_decoder *decoder; /* made on first use */
	struct dwarfx_code *code;   /* functions decoded so far */
	size_t ncode, code_cap;
	uint64_t sym_span;          /* 1 + the largest symbol size; 0 before first use */
	uint64_t *fde_starts;       /* functions .eh_frame_hdr knows, sorted */
	size_t nfde;
	bool fde_read;
	/* dwarfx_entry_within: labels, sorted; the places that may be direct
	 * jumps or calls into code (arch_branch_scan), by target */
	uint64_t *entries;
	size_t nentries;
	struct dwarfx_bcand {
		uint64_t target, op;
	} *bcands;
	size_t nbcands, bcands_cap;
	bool entries_built;         /* the above were made (entries_status says how) */
	int entries_status;         /* DWARFX_OK, or DWARFX_ERROR: the code was not read */
	char **notes;               /* warnings not yet taken (dwarfx_take_warnings) */
	size_t nnotes, notes_cap;
	uint64_t *noted;            /* row addresses already warned about */
	size_t nnoted, noted_cap;

	/* dwarfx_vars.c: `when:` conditions' names, types, places; made on first use */
	struct dwarfx_vstate *vars;
};

/* dwarfx_elf.c: header, program headers and symbols; fills dx. */
int dwarfx_elf_read(dwarfx *dx, rg_err *err);

/*
 * dwarfx_line.c: one row of a line program.  path is the file's name with
 * its directory joined (relative when the header's directory is), NULL
 * when the file number names no file; valid during the call.  Non-zero
 * stops the program and is returned.
 */
typedef int (*dwarfx_row_cb)(void *arg, uint64_t addr, uint64_t file,
			     const char *path, uint64_t line, bool stmt, bool end_seq);
/*
 * Runs the line program at off in .debug_line, calling cb for each row.
 * Returns 0; 1 before any row when it cannot read this table (let
 * libdwarf); -1 when the program is corrupt, or cb's non-zero.
 */
int dwarfx_line_program(const dwarfx *dx, uint64_t off, dwarfx_row_cb cb, void *arg);

/* dwarfx_index.c: DWARF (when present) -> rows, files, fns, ranges. */
int dwarfx_index_dwarf(dwarfx *dx, rg_err *err);
void dwarfx_index_finish(dwarfx *dx);

bool dwarfx_in_exec(const dwarfx *dx, uint64_t addr);

/* dwarfx_addr.c: by address and by name, over the sorted arrays */
/* index of the last row at or below addr, or -1 */
ptrdiff_t dwarfx_row_floor(const dwarfx *dx, uint64_t addr);
/* the row that describes addr (the innermost statement row), or NULL */
const struct dwarfx_row *dwarfx_row_for(const dwarfx *dx, uint64_t addr);
/* the instance a line row belongs to (an inlined copy's entry rows before
 * its entry view are the caller's) */
uint32_t dwarfx_row_fn(const dwarfx *dx, const struct dwarfx_row *r);
const struct dwarfx_sym *dwarfx_sym_at(const dwarfx *dx, uint64_t addr);
/* the function at addr as people name it: DWARF's, else the symbol's */
const char *dwarfx_function_at(const dwarfx *dx, uint64_t addr);
/* first index in sym_byname whose name is >= name */
size_t dwarfx_sym_lower_bound(const dwarfx *dx, const char *name);

/* The name to show for an instance: qualified for C++, else DW_AT_name. */
static inline const char *dwarfx_fn_display(const struct dwarfx_fn *fn)
{
	return fn->qname ? fn->qname : fn->name;
}

/* dwarfx_source.c */
struct dwarfx_source {
	char *buf;               /* the file, each line NUL-terminated */
	char **lines;            /* lines[0] is line 1 */
	size_t nlines;
	char *path;              /* where it was read from */
};
/*
 * Reads the source file DWARF calls path (comp dir joined): under the
 * source dir when one is set (trying ever shorter tails of path), else at
 * path.  Errors name the path tried and suggest --source-dir.
 */
int dwarfx_source_read(dwarfx *dx, const char *path, struct dwarfx_source *src,
		       rg_err *err);
void dwarfx_source_release(struct dwarfx_source *src);
/* Appends up to 60 characters of a source line, quoted, blanks trimmed. */
void dwarfx_source_excerpt(rg_buf *b, const char *text);
/* Could this source line have held code?  Blank lines, comments and lone
 * braces never do; anything else may be a statement an optimiser removed. */
bool dwarfx_source_may_be_code(const char *text);

/*
 * dwarfx_markers.c: line of the source at path, through the preprocessor
 * line markers (`# N "file"`) before it: *credit (interned in dx) and
 * *credit_line.  False when no marker precedes it, the line is a marker,
 * or the source cannot be read.  Line 0: the file the last marker names
 * (after its #includes, a preprocessed file's own source), line 0.
 */
bool dwarfx_marker_map(dwarfx *dx, const char *path, long line,
		       const char **credit, long *credit_line);
/*
 * FILE (at path in dx) has no line rows of its own: the error saying so,
 * with line (0: none given) mapped through its markers to the file the
 * line table credits (into hint too, when not NULL).  Returns -1.
 */
int dwarfx_no_rows(dwarfx *dx, const char *file, const char *path, long line,
		   dwarfx_hint *hint, rg_err *err);

/* dwarfx.c: files with code whose path ends in file (FILE of FILE:LINE);
 * *ids is malloc'd (or NULL). */
size_t dwarfx_match_files(dwarfx *dx, const char *file, uint32_t **ids);
/* dwarfx.c: the innermost function instance holding addr, or DWARFX_NONE. */
uint32_t dwarfx_fn_at(const dwarfx *dx, uint64_t addr);
/*
 * dwarfx.c: the instance a breakpoint for file:line at addr is in: where an
 * inlined copy starts at addr, the caller for the caller's line (location
 * views, as FILE:LINE resolves); else dwarfx_fn_at.
 */
uint32_t dwarfx_fn_for_line(const dwarfx *dx, uint64_t addr, const char *file, int line);

/*
 * dwarfx_cxx.c: C++ names as written against names as demangled.
 *   params       where "f(int)"'s parameter list starts, or NULL ("operator()"
 *                is a name)
 *   squeeze      s without blanks that separate no two words (malloc'd)
 *   string_alias q with std::string for the demangler's spellings of it,
 *                or NULL when q has none
 *   untemplate   q's name part without template arguments ("Q<int>::put"
 *                -> "Q::put"), or NULL when it has none
 *   normal       squeezed, std::string, "const T&" -> "T const&" in the
 *                parameters, and untemplated when asked: two names compare
 *                equal as a user and the demangler would mean them
 */
const char *dwarfx_cxx_params(const char *name);
char *dwarfx_cxx_squeeze(const char *s);
char *dwarfx_cxx_string_alias(const char *q);
char *dwarfx_cxx_untemplate(const char *q);
char *dwarfx_cxx_normal(const char *s, bool untemplate);


/* dwarfx_insn.c: the n-th instruction in [lo, hi); how many there are. */
int dwarfx_insn_nth(dwarfx *dx, uint64_t lo, uint64_t hi, size_t n,
		    uint64_t *addr, size_t *count, rg_err *err);

/*
 * dwarfx_insn.c: the instructions in [lo, hi), as dwarfx_insn_nth counts
 * them: *count of them, and (*access)[i] (malloc'd) how the i-th may
 * touch memory other threads see (arch_decoded_access: reads, writes, 0).
 */
int dwarfx_insn_scan(dwarfx *dx, uint64_t lo, uint64_t hi, unsigned char **access,
		     size_t *count, rg_err *err);

/*
 * dwarfx_insn.c: may a line table row's address get a breakpoint?  True
 * when it starts an instruction; false (and one warning for the row, kept
 * for dwarfx_take_warnings) when it is inside one or cannot be checked.
 */
bool dwarfx_row_usable(dwarfx *dx, uint64_t addr, const char *file, int line);
void dwarfx_insn_release(dwarfx *dx);

/* What a failed look-up found out, for dwarfx_resolve's caller. */
struct dwarfx_result {
	int status;              /* DWARFX_ERROR or DWARFX_NO_ENTRY once failed */
	dwarfx_hint *hint;       /* never NULL while a resolve runs */
};

#endif
