/*
 * dwarf/ internals behind dwarfx_vars.h: what `when:` conditions read.
 * Nothing here is made at dwarfx_open (which must stay fast): the first
 * scope, global or type asked for builds what it needs, and keeps it in
 * dx->vars until dwarfx_free.
 *
 *   dwarfx_tmodel.c   type DIEs -> dwarfx_type, cached by DIE offset
 *   dwarfx_loc.c      DW_AT_location (expressions, location lists) -> places
 *   dwarfx_cfi.c      the CFA rule at an address, from .eh_frame/.debug_frame
 *   dwarfx_names.c    one walk over every unit: globals, named types,
 *                     enumerators, qualified C++ names
 *   dwarfx_vars.c     scopes: what is visible at an address
 */
#ifndef RACEGATE_DWARFX_VINT_H
#define RACEGATE_DWARFX_VINT_H

#include "dwarfx_int.h"
#include "dwarfx_vars.h"

#include <dwarf.h>
#include <libdwarf.h>

/* Corrupt DWARF can nest or chain forever; real programs stay far below. */
#define DWARFX_VMAX_DEPTH 64

/* Blocks freed together (a scope's places, dx's types). */
struct dwarfx_arena {
	void **blocks;
	size_t n, cap;
};

void *dwarfx_arena_alloc(struct dwarfx_arena *a, size_t size);   /* zeroed */
const char *dwarfx_arena_strdup(struct dwarfx_arena *a, const char *s);
void dwarfx_arena_release(struct dwarfx_arena *a);

/* A variable declared at a unit's top level, in a namespace, or in a class. */
struct dwarfx_gvar {
	const char *name;        /* qualified ("ns::count"), interned */
	uint64_t die;            /* the entry that has its location (the definition) */
	uint64_t cu;             /* offset of its unit's entry */
	bool external;           /* linkage or a class member: global; else a file static */
	dwarfx_var *var;         /* made on first use */
};

/* A named type or an enumerator, under one of the names it answers to. */
struct dwarfx_tname {
	const char *key;         /* interned */
	uint64_t die;            /* the type's entry (for an enumerator: its enum's) */
	uint64_t cu;
	int64_t value;           /* enumerator */
	unsigned char rank;      /* 0: its own name; 1: a tag's bare name ("queue"
	                          * for struct queue), which a typedef or variable hides */
	bool decl;               /* only a declaration (an incomplete type) */
	unsigned char tag;       /* 's' struct/class, 'u' union, 'e' enum, 't' typedef, 'o' other */
};

struct dwarfx_vstate {
	struct dwarfx_arena arena;   /* types, members, global variables' places */
	dwarfx_map types;            /* type DIE offset -> index in tlist */
	const dwarfx_type **tlist;
	size_t ntypes, types_cap;

	int indexed;                 /* 0 not yet, 1 done, -1 failed */
	struct dwarfx_gvar *gvars;   /* sorted by name */
	size_t ngvars, gvars_cap;
	uint32_t *statics;           /* the file statics in gvars, by unit */
	size_t nstatics;
	struct dwarfx_tname *tnames; /* sorted by key */
	size_t ntnames, tnames_cap;
	struct dwarfx_tname *enums;  /* sorted by key */
	size_t nenums, enums_cap;
	dwarfx_map cxx_units;        /* offsets of the C++ units' entries */
	dwarfx_map qnames;           /* DIE offset -> qualified name (index in qlist) */
	const char **qlist;
	size_t nq, q_cap;

	bool cfi_read;               /* the lists below were asked for */
	Dwarf_Cie *eh_cie, *df_cie;
	Dwarf_Fde *eh_fde, *df_fde;
	Dwarf_Signed eh_ncie, eh_nfde, df_ncie, df_nfde;
};

/* dwarfx_vars.c: dx's state for the above, made on first use. */
struct dwarfx_vstate *dwarfx_vstate_get(dwarfx *dx);
void dwarfx_vars_release(dwarfx *dx);

/* dwarfx_names.c: the walk over every unit; 0 or -1 (err), done once. */
int dwarfx_names_index(dwarfx *dx, rg_err *err);
/* The qualified name recorded for the entry at off, or NULL. */
const char *dwarfx_names_qualified(dwarfx *dx, uint64_t off);
/*
 * The entries named key in list (sorted, n long): *first and the count.
 * Keys are interned, but key need not be.
 */
size_t dwarfx_names_find(const struct dwarfx_tname *list, size_t n, const char *key,
			 size_t *first);
size_t dwarfx_gvars_find(const struct dwarfx_vstate *vs, const char *key, size_t *first);
/* The file statics of unit cu: indexes in gvars, statics[*first..+count). */
size_t dwarfx_statics_of(const struct dwarfx_vstate *vs, uint64_t cu, size_t *first);

/* dwarfx_tmodel.c */
/* The type at DIE offset off (never NULL: UNKNOWN when unreadable). */
const dwarfx_type *dwarfx_type_at(dwarfx *dx, uint64_t off, unsigned depth);
/* The type die's DW_AT_type names (VOID when it names none). */
const dwarfx_type *dwarfx_type_of(dwarfx *dx, Dwarf_Die die, unsigned depth);

/* Reading DIEs (dwarfx_tmodel.c): libdwarf errors dropped, NO_ENTRY on them. */
int dwarfx_die_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *off);
int dwarfx_attr_udata(Dwarf_Debug dbg, Dwarf_Attribute attr, uint64_t *val);
int dwarfx_die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *val);
bool dwarfx_die_flag(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at);
/* die's DW_AT_name (interned in dx), following DW_AT_abstract_origin /
 * DW_AT_specification when it has none; NULL when none. */
const char *dwarfx_die_name(dwarfx *dx, Dwarf_Die die);
Dwarf_Die dwarfx_die_at(Dwarf_Debug dbg, uint64_t off);

/* dwarfx_cfi.c */
/*
 * The CFA rule at link-time addr as ops (at most 2: REG, PLUS_CONST).
 * 0 and ops; 1 when racegate cannot use it (*why: a plain phrase).
 */
int dwarfx_cfi_cfa(dwarfx *dx, uint64_t addr, dwarfx_op *ops, size_t *nops,
		   const char **why);

/* dwarfx_loc.c */
struct dwarfx_locctx {
	dwarfx *dx;
	struct dwarfx_arena *arena;  /* where places live */
	uint64_t addr;               /* link-time address the places hold at */
	const dwarfx_op *fb;         /* the frame base's value, or NULL (fb_why) */
	size_t nfb;
	const char *fb_why;
};
/*
 * The place of die (a variable or parameter) at c->addr: DW_AT_location
 * (an expression or a location list), else DW_AT_const_value, else
 * optimized out.  size: the variable's type's size (for constants).
 * Never fails: what cannot be read is UNSUPPORTED with a why.
 */
void dwarfx_loc_place(struct dwarfx_locctx *c, Dwarf_Die die, uint64_t size,
		      dwarfx_place *out);
/* Sets c->fb from subprogram's DW_AT_frame_base at c->addr. */
void dwarfx_loc_frame_base(struct dwarfx_locctx *c, Dwarf_Die subprogram);
/*
 * True when die's location is one static address (DW_OP_addr) or a
 * thread-local one: a function's static variable rather than a local.
 */
bool dwarfx_loc_is_static(dwarfx *dx, Dwarf_Die die);

#endif
