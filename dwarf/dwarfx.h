/*
 * dwarf: one ELF object's symbols, line table and DWARF, opened and indexed
 * once, then queried many times.
 *
 *   locations   "FILE:LINE", "FILE:/REGEX/", "FUNCTION", "*FUNCTION",
 *               "*0xADDR", "+N" instruction offsets -> addresses
 *   lines       every line of a file where a breakpoint can go
 *   symbols     ELF .symtab/.dynsym lookups (work without debug info: libc)
 *   reports     address -> file:line:function
 *
 * Every address here is a link-time address (as in the ELF file).  For a PIE
 * executable or a shared object, add the load bias:
 *     bias = (start of the object's first mapping) - dwarfx_load_base(dx)
 *
 * Never prints; errors come back in rg_err, worded for the user, e.g.
 *     cannot resolve 'worker.c:42': no code on this line (nearest: 41, 44)
 */
#ifndef RACEGATE_DWARFX_H
#define RACEGATE_DWARFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

typedef struct dwarfx dwarfx;

/*
 * What every command says of a location or name that needs debug
 * information in an object that has none (a "%s" for the object's file
 * name, without its directory: rg_base_name).
 */
#define DWARFX_NO_DEBUG "'%s' has no debug information (built without -g?): " \
	"FILE:LINE and C++ names need it; rebuild with -g"

/* One place a breakpoint goes (or one answer to "where is this address"). */
typedef struct dwarfx_loc {
	uint64_t addr;         /* link-time address */
	const char *file;      /* source path as DWARF names it (comp dir joined), or NULL; owned by dx */
	int line;              /* 0 when unknown */
	const char *function;  /* function containing addr (the inlined callee for inlined code), or NULL; owned by dx */
	bool inlined;          /* FUNCTION, *FUNCTION: an inlined copy's entry (no call, so no return address) */
} dwarfx_loc;

/*
 * Opens the ELF file at path and indexes its symbols and (when present) its
 * DWARF line tables.  Succeeds on objects without debug info (symbols only).
 * Fails with a clear message on a missing file, a non-ELF file, an ELF of
 * another machine than racegate's (arch/), or corrupt DWARF.
 */
int dwarfx_open(const char *path, dwarfx **out, rg_err *err);
void dwarfx_free(dwarfx *dx);

const char *dwarfx_path(const dwarfx *dx);
bool dwarfx_is_pie(const dwarfx *dx);          /* ET_DYN */
bool dwarfx_has_debug_info(const dwarfx *dx);  /* has .debug_info and line tables */
uint64_t dwarfx_entry(const dwarfx *dx);       /* e_entry (link-time) */
uint64_t dwarfx_load_base(const dwarfx *dx);   /* lowest PT_LOAD p_vaddr, page-aligned down */

/*
 * Where source files are read from (regex anchors, dwarfx_lines): dir
 * replaces the path DWARF recorded, trying ever shorter tails of it
 * (dir/src/a.c, then dir/a.c).  NULL: the recorded path.
 */
void dwarfx_set_source_dir(dwarfx *dx, const char *dir);

/*
 * Results of a look-up, in libdwarf's three-way style: found, not in this
 * object at all (a name it does not have: another object may), or wrong
 * (bad syntax, no code on the line, an ambiguous name, ...).  Both failures
 * are negative, so "< 0" still reads "did not resolve".
 */
enum {
	DWARFX_OK = 0,
	DWARFX_ERROR = -1,
	DWARFX_NO_ENTRY = -2,
};

/*
 * What a failed dwarfx_resolve found out, besides its message, for callers
 * that word their own (a pending gate, a {start:} selector): never parse
 * the message.  Strings are owned by dx.
 */
typedef struct dwarfx_hint {
	const char *suggest;   /* a name dx has close to the one asked for, or NULL */
	bool suggest_is_file;  /* suggest is a source file (else a function) */
	int before, after;     /* no code on the line: nearest lines with code, or 0 */
	const char *credit_file; /* FILE has no line rows, its code is credited to this file... */
	int credit_line;       /* ...at this line (through its # line markers), or 0 */
} dwarfx_hint;
#define DWARFX_HINT_INIT {NULL, false, 0, 0, NULL, 0}

/*
 * Resolves a location:
 *   FILE:LINE   FILE matches a suffix of a DWARF file path at a '/' boundary;
 *               one address per function instance (inlined copies included)
 *               at that instance's first is_stmt address for the line, as gdb.
 *               A line with no code is an error naming the nearest lines with
 *               code in that file (and, in an optimised build, saying the
 *               compiler may have removed it); a FILE matching several files
 *               is an error naming them; an object without debug info is an
 *               error.
 *   FILE:/RE/   the one line of FILE's source whose text matches the POSIX
 *               extended regex RE, then as FILE:LINE.  No match, or several,
 *               is an error listing them (file:line 'text').
 *   FUNCTION:/RE/  the one line of FUNCTION (between the first and last line
 *               of its code) that matches RE, then as FILE:LINE.
 *   ...+N       after FILE:LINE, FILE:/RE/ or *FUNCTION (*0xADDR): the N-th
 *               instruction (from 0) of the line's code at each instance
 *               (its first block of consecutive addresses), or of the
 *               function.  N past the end is an error saying how many
 *               instructions there are.
 *   FUNCTION    after the prologue (the first is_stmt row in the function
 *               whose line differs from the entry's, as gdb), one per
 *               instance: out-of-line copies (foo.constprop.0) too, inlined
 *               copies at their entry
 *   *FUNCTION   the exact entry address
 *   *0xADDR     that address (must lie in an executable PT_LOAD segment)
 * FUNCTION may be a C++ qualified name or a tail of one ("Queue::push" for
 * ns::Queue::push), optionally with its parameter types as the demangler
 * writes them ("Queue::push(int)").  A name that stands for several C++
 * functions (overloads, methods of several classes) is an error listing
 * them with their parameter types.
 * FUNCTION looks at DWARF subprograms first, then ELF symbols (so library
 * functions resolve without debug info; then only *FUNCTION semantics for
 * the "after prologue" form are approximated by the entry address).  An
 * ifunc (memcpy in libc) is an error: its symbol is the resolver.
 * On success (DWARFX_OK) *out is a malloc'd array of *n >= 1 entries
 * sorted by address, without duplicates; free with free().
 * DWARFX_NO_ENTRY: the function or source file is not in dx at all, or dx
 * has no debug information and the location needs it; a location in some
 * other object, maybe.  DWARFX_ERROR: anything else.  Both set err, and
 * hint when not NULL.
 */
int dwarfx_resolve(dwarfx *dx, const char *where, dwarfx_loc **out, size_t *n,
		   dwarfx_hint *hint, rg_err *err);

/*
 * Is the source file (as in FILE:LINE) compiled into dx without debug
 * information?  True when dx's symbol table names it (STT_FILE, which a
 * build without -g keeps) but no line table does: a FILE:LINE there is an
 * error to fix with -g, not a location in some other object.  False when
 * stripped (nothing says where the file went).
 */
bool dwarfx_lacks_debug_for(dwarfx *dx, const char *file);

/* One line where a breakpoint can go, for dwarfx_lines. */
typedef struct dwarfx_line_info {
	const char *file;      /* DWARF path; owned by dx */
	int line;
	const char *function;  /* of the lowest-addressed instance, or NULL */
	size_t instances;      /* breakpoints FILE:LINE would get */
	uint64_t addr;         /* the lowest of them */
	const char *text;      /* the source line, or NULL when unreadable; valid during the call */
} dwarfx_line_info;

typedef int (*dwarfx_line_fn)(const dwarfx_line_info *li, void *arg);

/*
 * Calls fn for every line of FILE (matched as in FILE:LINE) from..to
 * (to <= 0: to the end) that has code, in line order.  Stops when fn
 * returns non-zero and returns that.  With err set: DWARFX_NO_ENTRY when
 * FILE is not in dx (or dx has no debug info: another object may have it),
 * DWARFX_ERROR when it names several files or one without rows of its
 * own; an unreadable source only leaves text NULL.
 */
int dwarfx_lines(dwarfx *dx, const char *file, int from, int to,
		 dwarfx_line_fn fn, void *arg, rg_err *err);

/*
 * The instructions of the line `where` (FILE:LINE, as dwarfx_resolve takes
 * it) that may read or write memory other threads see: a load or store
 * whose address is not on the thread's own stack or in its thread-local
 * storage (the machine's file in dwarf/ says which registers and segments
 * those are).  Named as FILE:LINE+N names them: *out (malloc'd, ascending)
 * holds each N that is such an access in some instance of the line and that
 * every instance has, so that "where+N" resolves; *how (when how is not
 * NULL; malloc'd, as many) whether the N-th reads (DWARFX_READS), writes
 * (DWARFX_WRITES) or both, in some instance.  Returns as dwarfx_resolve;
 * *n may be 0.
 */
enum { DWARFX_READS = 1, DWARFX_WRITES = 2 };
int dwarfx_line_accesses(dwarfx *dx, const char *where, size_t **out,
			 unsigned char **how, size_t *n, rg_err *err);

/*
 * where (FILE:LINE or FILE:LINE+N) as an anchor a person would write, so
 * that it outlives lines added above it: FILE:/REGEX/ where REGEX is a
 * name the line's code holds (the longest that is on no other line), else
 * the code itself (its text without a trailing comment, taken literally);
 * FUNCTION:/REGEX/ when neither is on one line of FILE only; else the same
 * with the line's comment (a word of it, dashes included, or all of it:
 * `lock(&l);  // INCR-WRITE-BACK` is FILE:/INCR-WRITE-BACK/); the +N kept;
 * else, for a line of one instance, *FUNCTION+N (its place from the
 * function's entry: a `}`).
 * A function's first line is *FUNCTION (its entry) or FUNCTION (after its
 * prologue), the one that is the same place.  Checked to resolve in dx to the very addresses
 * where does.  NULL (malloc'd otherwise) when no anchor does (a line in
 * several instances whose text is not unique).
 */
char *dwarfx_anchor(dwarfx *dx, const char *where);

/*
 * Where is addr?  Fills file/line (from the line table, may be NULL/0) and
 * function (from DWARF or the symbol table).  Returns 0, or -1 when addr is
 * in no known function.
 */
int dwarfx_symbolize(dwarfx *dx, uint64_t addr, dwarfx_loc *out);

/*
 * The function whose own code holds addr, as a call would name it: never
 * an inlined copy (at a start routine's entry, the function started, not
 * what the compiler inlined there).  DWARF's name, else the symbol's;
 * NULL when addr is in no known function.
 */
const char *dwarfx_caller_at(dwarfx *dx, uint64_t addr);

/*
 * Addresses of the ELF function symbol(s) called name, in .symtab and
 * .dynsym, ignoring @VERSION suffixes; several when versions differ.
 * Ifunc symbols are left out (their address is the resolver's).
 * Returns the number found (possibly more than max; only max are stored;
 * addrs may be NULL when max is 0).
 */
size_t dwarfx_symbol_addrs(dwarfx *dx, const char *name, uint64_t *addrs,
			   size_t max);

/*
 * Where a member lies in the object a C++ member function's `this` points
 * to, for the function that starts at addr: path[0..n) names a data member
 * (by its name) or a base class (by the start of its type's name, as DWARF
 * writes it: "_Tuple_impl<0,") of the class, then of that member's type,
 * and so on.  0 and *off (bytes from the object's start) when every step
 * is found; -1 when one is not, or addr starts no member function DWARF
 * describes.
 */
int dwarfx_this_member(dwarfx *dx, uint64_t addr, const char *const *path,
		       size_t n, uint64_t *off);

/* A C++ mangled name demangled with its parameters (malloc'd), or NULL. */
char *dwarfx_demangle(const char *mangled);

/*
 * The template arguments of the first "std::tuple<" in s, a demangled
 * name: *n of them (at most max), each malloc'd.  Returns how many.
 */
size_t dwarfx_tuple_args(const char *s, char **args, size_t max);

/* Name of the function symbol whose range holds addr, or NULL. */
const char *dwarfx_symbol_at(dwarfx *dx, uint64_t addr);

/*
 * The data symbol (a variable: STT_OBJECT or STT_TLS, .symtab then .dynsym)
 * whose storage holds addr: its name in name[0..len) and addr's offset in
 * it.  False when none does (a heap or stack address).  Reads the file.
 */
bool dwarfx_data_symbol_at(dwarfx *dx, uint64_t addr, char *name, size_t len,
			   uint64_t *off);

/*
 * Calls fn with the name of each data symbol (.symtab) that starts with
 * prefix, until fn returns non-zero; returns that, or 0.  Reads the file.
 */
typedef int (*dwarfx_name_fn)(const char *name, void *arg);
int dwarfx_data_symbols(dwarfx *dx, const char *prefix, dwarfx_name_fn fn, void *arg);

/* A piece of code: [lo, hi), link-time addresses. */
typedef struct dwarfx_span {
	uint64_t lo, hi;
} dwarfx_span;

/*
 * The code of the source line at addr inside the function instance holding
 * addr: every piece of that instance whose line table row names the same
 * file and line (a line's code need not be contiguous), adjacent pieces
 * merged, in address order (dwarfx_range.c).  Returns how many pieces there
 * are (only max are stored); 0 when addr has no line (no debug info).
 * Without a DWARF function at addr, only the row's own piece.
 */
size_t dwarfx_line_range(dwarfx *dx, uint64_t addr, dwarfx_span *out, size_t max);

/*
 * The code of the function holding addr, every piece of it (a function's
 * cold part too, from its DW_AT_ranges; for an inlined instance, the
 * function it is inlined in): out[0..n), link-time; 0 when not known or
 * more than max pieces.  Without debug information, the ELF symbol or
 * unwind entry holding addr.  For a jump pad (tracer_pad_make), which must
 * see every jump that could land in the bytes it replaces.
 */
size_t dwarfx_function_spans(dwarfx *dx, uint64_t addr, dwarfx_span *out, size_t max);

/*
 * The first address in (lo, hi), link-time, at which code anywhere in dx
 * may be entered other than from the instruction before: a symbol in an
 * executable section, whatever its type (a second entry point, a global
 * label in assembly), or the target of a direct jump or call in any
 * executable section.  For a jump pad, whose jump must not cover such a
 * place (tracer_pad_req.fence).  DWARFX_OK with *at; DWARFX_NO_ENTRY: none;
 * DWARFX_ERROR: the code cannot be read (then nothing is known).  A jump
 * or call in code no function holds (symbols, debug information, unwind
 * tables) counts as one; indirect jumps' and calls' targets are not known.
 * The executable sections are scanned once per dx.
 */
int dwarfx_entry_within(dwarfx *dx, uint64_t lo, uint64_t hi, uint64_t *at);

/* ---- what threads start in: {start:} and {runs:} selectors ---- */

/*
 * The function whose own code holds addr, named as a thread that starts
 * there is: as dwarfx_caller_at, with the parameter types of a C++
 * function ("Worker::run(int)", so that overloads differ; a symbol without
 * DWARF demangled).  NULL when addr is in no known function.  Owned by dx.
 */
const char *dwarfx_start_name_at(dwarfx *dx, uint64_t addr);

/*
 * Does what a thread is named by, have (a function as dwarfx_start_name_at
 * names it, or a lambda's or function object's type as the demangler
 * prints it), answer to want, written as FUNCTION locations are written:
 * in full or by a tail after "::", template arguments and std::string as
 * dwarfx_resolve takes them, parameter types only when want gives them
 * (then its const qualifier may be left out)?  Pure string work.
 */
bool dwarfx_name_answers(const char *have, const char *want);

/* A function or callable type threads of a program may start in. */
typedef struct dwarfx_routine {
	char *name;            /* as threads are named: "worker",
				  "Worker::run(int)", "main::{lambda()#1}" */
	const char *file;      /* where it is defined (DWARF path, owned by dx), or NULL */
	int line;
} dwarfx_routine;

/*
 * The start routines dx's DWARF shows, sorted by name: functions that can
 * be handed to pthread_create (void *f(void *)), and what std::thread
 * states run (each state's _M_run): a lambda or function object by its
 * type, and for a pointer to a function or member function, every
 * function with the pointer's parameters (of the pointer's class).  For
 * an error that lists them: it reads DIEs.  Free with dwarfx_routines_free.
 */
size_t dwarfx_thread_routines(dwarfx *dx, dwarfx_routine **out);
void dwarfx_routines_free(dwarfx_routine *v, size_t n);

/*
 * The functions and lambdas defined at FILE:LINE (a function by its
 * declaration's line, a lambda by the line it is written on; else by the
 * line of its first instruction), named as threads that start in them are
 * (a lambda by its type, "main::{lambda()#1}"): *out is malloc'd, its
 * strings owned by dx.  DWARFX_NO_ENTRY when none is (or FILE is not in
 * dx, or dx has no debug information), with err set.
 */
int dwarfx_defined_at(dwarfx *dx, const char *file, int line, const char ***out,
		      size_t *n, rg_err *err);

/*
 * The code of every instance of the function name (as FUNCTION names it:
 * out-of-line copies whole, inlined copies their own ranges): *out is
 * malloc'd, link-time.  Returns as dwarfx_resolve does, err and hint too.
 */
int dwarfx_function_code(dwarfx *dx, const char *name, dwarfx_span **out, size_t *n,
			 dwarfx_hint *hint, rg_err *err);

/* Is an address where an instruction starts?  (dwarfx_boundary) */
enum dwarfx_bound {
	DWARFX_BOUNDARY,       /* it starts an instruction */
	DWARFX_INSIDE,         /* it is inside one: a breakpoint there corrupts it */
	DWARFX_UNCHECKED,      /* no function holds it, or its code does not decode up to it */
};

typedef struct dwarfx_insn_at {
	uint64_t from;         /* where decoding started (the function's start), or 0 */
	const char *function;  /* that function's name, or NULL; owned by dx */
	uint64_t insn;         /* INSIDE: the instruction holding the address */
	unsigned len;          /* INSIDE: its length */
	char why[384];         /* not BOUNDARY, in words: "0x119f is inside 'mov
	                        * ...' at 0x119b (7 bytes); boundaries: 0x119b, 0x11a2" */
} dwarfx_insn_at;

/*
 * Does link-time addr start an instruction?  The function holding it (its
 * ELF symbol, or the DWARF subprogram's range; of several, the one that
 * starts lowest, since a symbol placed inside another function's
 * instruction starts nothing) is decoded from its start, once per object;
 * a function start is a boundary.  UNCHECKED when no function holds addr,
 * or the decoder stops (bytes it does not know) before reaching it.
 * dwarfx_resolve refuses every location that is not a BOUNDARY, and skips
 * line table rows that are not (see dwarfx_take_warnings).
 */
enum dwarfx_bound dwarfx_boundary(dwarfx *dx, uint64_t addr, dwarfx_insn_at *at);

/*
 * Warnings met while answering queries: a line table row that is not at an
 * instruction boundary is left out of dwarfx_resolve's and dwarfx_lines's
 * answers, and said once per row.  Hands over the warnings not yet taken
 * (*out: malloc'd array of malloc'd strings, free both); returns how many.
 */
size_t dwarfx_take_warnings(dwarfx *dx, char ***out);

#endif
