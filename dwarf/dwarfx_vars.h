/*
 * dwarf: what a `when:` condition may name at an address -- the variables
 * visible there, their types, and where each one's value lives when a
 * thread is about to execute that address.
 *
 * Everything is answered for one link-time address of one object, fixed in
 * advance (a gate's breakpoint): a location list is reduced to its entry
 * for that address, a frame base of DW_OP_call_frame_cfa is replaced by the
 * CFA rule the CFI gives at that address, so a place is a short program
 * over the stopped thread's registers and memory and nothing else.  Only
 * the innermost frame is read: no unwinding.
 *
 * Registers are named by their DWARF numbers (the psABI's), never by an
 * architecture's names; the tracer maps them.  Addresses in places are
 * link-time addresses of the object the scope was made for (DWARFX_OP_ADDR):
 * the evaluator adds that object's load bias.
 *
 * Types and scopes are owned by dx (types live as long as dx, scopes until
 * dwarfx_scope_free) and never change once made.
 */
#ifndef RACEGATE_DWARFX_VARS_H
#define RACEGATE_DWARFX_VARS_H

#include "dwarfx.h"

/* ---- types ---- */

enum dwarfx_tkind {
	DWARFX_T_VOID,
	DWARFX_T_INT,          /* integers, char, _Bool/bool (is_bool), wchar_t, char16/32_t */
	DWARFX_T_FLOAT,        /* float, double, long double: named, never evaluated */
	DWARFX_T_POINTER,      /* target: the pointee (VOID for void *) */
	DWARFX_T_REFERENCE,    /* C++ & and &&: target is the referred type */
	DWARFX_T_ARRAY,        /* target: element type; count elements (0: unknown) */
	DWARFX_T_STRUCT,       /* struct and class */
	DWARFX_T_UNION,
	DWARFX_T_ENUM,         /* target: underlying integer type, or NULL (then size/is_signed say) */
	DWARFX_T_FUNC,         /* a function type (what a function pointer points to) */
	DWARFX_T_TYPEDEF,      /* name for target */
	DWARFX_T_UNKNOWN,      /* a DWARF type racegate does not model (why in name) */
};

typedef struct dwarfx_type dwarfx_type;

typedef struct dwarfx_member {
	const char *name;      /* NULL: an anonymous struct/union whose members are visible */
	const dwarfx_type *type;
	uint64_t offset;       /* bytes from the start of the enclosing object */
	unsigned bit_size;     /* bitfield: its width, else 0 */
	unsigned bit_offset;   /* bitfield: bits from bit 0 (least significant) of the
	                        * byte at offset, little-endian as DW_AT_data_bit_offset */
	bool is_base;          /* a C++ base class subobject; name is the base's name */
} dwarfx_member;

typedef struct dwarfx_enumerator {
	const char *name;
	int64_t value;         /* as DWARF gives it; read as unsigned for unsigned enums */
} dwarfx_enumerator;

struct dwarfx_type {
	enum dwarfx_tkind kind;
	const char *name;      /* as C spells it ("int", "queue" for struct queue, "ns::Queue"),
	                        * NULL for anonymous types and derived ones (pointers, arrays) */
	uint64_t size;         /* bytes; 0 when unknown (incomplete struct, void, unknown bound) */
	bool is_signed;        /* INT, ENUM */
	bool is_char;          /* INT: char, signed char, unsigned char (for $streq) */
	bool is_bool;          /* INT: _Bool / bool */
	bool incomplete;       /* STRUCT/UNION/ENUM seen only as a declaration */
	const dwarfx_type *target;
	uint64_t count;        /* ARRAY */
	const dwarfx_member *members;  /* STRUCT/UNION, in declaration order */
	size_t nmembers;
	const dwarfx_enumerator *enumerators; /* ENUM */
	size_t nenumerators;
};

/* t with every typedef taken off (NULL stays NULL). */
const dwarfx_type *dwarfx_type_strip(const dwarfx_type *t);

/*
 * How C would write t, for messages: "struct queue *", "const char [16]"
 * is written without qualifiers: "char [16]", "unsigned int", "Queue &".
 * Into buf (always terminated); returns buf.
 */
const char *dwarfx_type_spell(const dwarfx_type *t, char *buf, size_t len);

/* ---- places ---- */

/*
 * A stack program over the stopped thread: each op pushes or combines
 * 64-bit values; the result is the top of the stack.  Arithmetic wraps.
 */
enum dwarfx_opcode {
	DWARFX_OP_CONST,       /* push arg */
	DWARFX_OP_ADDR,        /* push arg + the object's load bias (a link-time address) */
	DWARFX_OP_REG,         /* push the value of DWARF register reg */
	DWARFX_OP_DEREF,       /* pop an address, push the size-byte value there (zero-extended) */
	DWARFX_OP_ADD, DWARFX_OP_SUB, DWARFX_OP_MUL, DWARFX_OP_DIV, DWARFX_OP_MOD,
	DWARFX_OP_AND, DWARFX_OP_OR, DWARFX_OP_XOR,
	DWARFX_OP_SHL, DWARFX_OP_SHR, DWARFX_OP_SHRA,
	DWARFX_OP_NEG, DWARFX_OP_NOT,
	DWARFX_OP_PLUS_CONST,  /* top += arg */
	DWARFX_OP_DUP, DWARFX_OP_DROP, DWARFX_OP_SWAP, DWARFX_OP_OVER,
	DWARFX_OP_EQ, DWARFX_OP_NE, DWARFX_OP_LT, DWARFX_OP_LE, DWARFX_OP_GT, DWARFX_OP_GE, /* signed */
};

typedef struct dwarfx_op {
	uint8_t code;          /* enum dwarfx_opcode */
	uint8_t size;          /* DEREF: 1, 2, 4 or 8 */
	uint16_t reg;          /* REG: DWARF register number */
	int64_t arg;           /* CONST, ADDR, PLUS_CONST */
} dwarfx_op;

enum dwarfx_piece_kind {
	DWARFX_PIECE_MEM,      /* in memory at the address ops compute */
	DWARFX_PIECE_REG,      /* in DWARF register reg (its low bytes) */
	DWARFX_PIECE_VALUE,    /* the value is what ops compute (DW_OP_stack_value) */
	DWARFX_PIECE_BYTES,    /* constant bytes (DW_OP_implicit_value, DW_AT_const_value) */
	DWARFX_PIECE_UNDEF,    /* this piece is optimized out */
};

typedef struct dwarfx_piece {
	enum dwarfx_piece_kind kind;
	const dwarfx_op *ops;  /* MEM, VALUE */
	size_t nops;
	uint16_t reg;          /* REG */
	const uint8_t *bytes;  /* BYTES: size bytes */
	uint64_t size;         /* bytes this piece covers; 0: the whole variable */
} dwarfx_piece;

enum dwarfx_place_kind {
	DWARFX_PLACE_KNOWN,    /* pieces[0..npieces) in order, low bytes first */
	DWARFX_PLACE_OPTIMIZED_OUT, /* no location at this address */
	DWARFX_PLACE_UNSUPPORTED,   /* a location racegate cannot read; why says what
	                             * ("thread-local storage", "DW_OP_entry_value") */
};

typedef struct dwarfx_place {
	enum dwarfx_place_kind kind;
	const dwarfx_piece *pieces;
	size_t npieces;
	const char *why;       /* UNSUPPORTED */
} dwarfx_place;

/* ---- variables and scopes ---- */

enum dwarfx_var_kind {
	DWARFX_VAR_LOCAL,      /* a local of the function (or inlined callee) at the address */
	DWARFX_VAR_PARAM,      /* a parameter; `this` is one */
	DWARFX_VAR_STATIC,     /* a function-local static or a file static of the CU */
	DWARFX_VAR_GLOBAL,     /* a variable with external linkage (any CU of the object),
	                        * or a C++ static data member / namespace variable */
};

typedef struct dwarfx_var {
	const char *name;      /* as C++ qualifies it for namespace and class members:
	                        * "ns::count", "Queue::instances"; plain for the rest */
	const dwarfx_type *type;
	dwarfx_place place;    /* at the scope's address */
	enum dwarfx_var_kind kind;
} dwarfx_var;

typedef struct dwarfx_scope dwarfx_scope;

/*
 * The scope at link-time addr: the locals of every lexical block holding
 * addr in the innermost function instance there (innermost first, so an
 * inner name shadows an outer one; in an inlined callee, the callee's own
 * names, not its caller's, as in C), the parameters, the function's
 * statics, the CU's file statics, then the object's globals.  DWARFX_NO_ENTRY when no DWARF
 * function holds addr (no debug info there); DWARFX_ERROR on corrupt DWARF.
 * *out: free with dwarfx_scope_free.
 */
int dwarfx_scope_at(dwarfx *dx, uint64_t addr, dwarfx_scope **out, rg_err *err);
/*
 * As dwarfx_scope_at(dx, loc->addr, ...), for a breakpoint dwarfx_resolve
 * placed for a source line (loc->file, loc->line): at an address where an
 * inlined copy starts, the same instruction begins its caller's line too,
 * and a gate at the caller's line sees the caller's names, not the
 * callee's.  (dwarfx_scope_at picks the innermost: the callee.)
 */
int dwarfx_scope_at_loc(dwarfx *dx, const dwarfx_loc *loc, dwarfx_scope **out,
			rg_err *err);
void dwarfx_scope_free(dwarfx_scope *sc);

/*
 * The variable name means in sc, or NULL.  Plain names find locals first,
 * then parameters, statics and globals; a qualified name ("ns::x",
 * "Class::member", "::x" for the global one) finds globals and static
 * data members.  Inside a C++ member function, a plain name that is a
 * static data member of the class is found too (data members of *this are
 * the caller's business: look up "this" and its type).
 */
const dwarfx_var *dwarfx_scope_find(const dwarfx_scope *sc, const char *name);

/*
 * The function's own names in sc (locals innermost first, then parameters,
 * then its statics), for "visible there: ..." and `lines --vars`.  Returns
 * how many (only max stored).
 */
size_t dwarfx_scope_locals(const dwarfx_scope *sc, const dwarfx_var **out, size_t max);

/*
 * A named type in sc's object: a typedef ("uint32_t", "size_t"), a tag
 * ("struct queue", "union u", "enum color", or just "queue" when no
 * typedef or variable has that name), a C++ class or enum, qualified or a
 * tail of a qualified name ("Queue" for ns::Queue when unambiguous).
 * The CU of sc is searched first.  NULL when none.
 */
const dwarfx_type *dwarfx_scope_type(const dwarfx_scope *sc, const char *name);

/*
 * An enumerator visible in sc ("RED", "Color::RED", "ns::RED"): its value
 * and enum type.  False when none.
 */
bool dwarfx_scope_enumerator(const dwarfx_scope *sc, const char *name,
			     int64_t *value, const dwarfx_type **type);

/*
 * Where sc is, for messages: the function (C++: qualified) and its source
 * file:line at the scope's address, "ns::Queue::push (queue.cpp:28)".
 * Owned by dx.
 */
const char *dwarfx_scope_function(const dwarfx_scope *sc);

/*
 * A global variable of dx by name (as dwarfx_scope_find, globals only), for
 * a condition that names another object's global (a shared library's);
 * when dx has no global of that name but exactly one file static, that
 * static.  NULL when dx has neither.
 */
const dwarfx_var *dwarfx_global(dwarfx *dx, const char *name);

#endif
