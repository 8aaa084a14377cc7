/*
 * Places: where a variable's value is when a thread is about to execute
 * one address.  A location list is reduced to its entry for that address,
 * then the DWARF expression is translated into dwarfx_op programs (one per
 * piece), with DW_OP_fbreg expanded through the function's frame base and
 * DW_OP_call_frame_cfa through the CFI's rule at that address.  What
 * racegate cannot read from the stopped thread's registers and memory
 * alone (the value on entry to the function, thread-local storage, ...) is
 * UNSUPPORTED, with a why a user can read.
 */
#include "dwarfx_vint.h"

#include <stdio.h>
#include <string.h>

#define MAX_OPS 64
#define MAX_PIECES 32

struct xl {
	struct dwarfx_locctx *c;
	Dwarf_Die die;
	dwarfx_op ops[MAX_OPS];
	size_t nops;
	dwarfx_piece pieces[MAX_PIECES];
	size_t npieces;
	enum dwarfx_piece_kind kind;   /* of the piece being read: MEM, REG, VALUE, BYTES */
	uint16_t reg;
	const uint8_t *bytes;
	uint64_t nbytes;
	bool seen;                     /* any operation at all */
	const char *why;               /* set: unsupported */
};

static void drop(Dwarf_Debug dbg, Dwarf_Error *e)
{
	if (*e)
		dwarf_dealloc_error(dbg, *e);
	*e = NULL;
}

static void emit(struct xl *x, uint8_t code, uint16_t reg, int64_t arg, uint8_t size)
{
	if (x->nops >= MAX_OPS) {
		x->why = "its location expression is too long";
		return;
	}
	x->ops[x->nops].code = code;
	x->ops[x->nops].reg = reg;
	x->ops[x->nops].arg = arg;
	x->ops[x->nops].size = size;
	x->nops++;
}

static void emit_all(struct xl *x, const dwarfx_op *ops, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		emit(x, ops[i].code, ops[i].reg, ops[i].arg, ops[i].size);
}

/* Ends the piece being read; size 0: the whole variable. */
static void end_piece(struct xl *x, uint64_t size)
{
	struct dwarfx_arena *a = x->c->arena;
	dwarfx_piece *p;

	if (x->npieces >= MAX_PIECES) {
		x->why = "its location has too many pieces";
		return;
	}
	p = &x->pieces[x->npieces++];
	memset(p, 0, sizeof(*p));
	p->size = size;
	p->kind = x->kind;
	if (x->kind == DWARFX_PIECE_MEM && !x->nops)
		p->kind = DWARFX_PIECE_UNDEF;
	if (p->kind == DWARFX_PIECE_MEM || p->kind == DWARFX_PIECE_VALUE) {
		dwarfx_op *ops = dwarfx_arena_alloc(a, x->nops * sizeof(*ops));

		memcpy(ops, x->ops, x->nops * sizeof(*ops));
		p->ops = ops;
		p->nops = x->nops;
	} else if (p->kind == DWARFX_PIECE_REG) {
		p->reg = x->reg;
	} else if (p->kind == DWARFX_PIECE_BYTES) {
		uint8_t *b = dwarfx_arena_alloc(a, x->nbytes ? x->nbytes : 1);

		memcpy(b, x->bytes, x->nbytes);
		p->bytes = b;
		if (!p->size)
			p->size = x->nbytes;
	}
	x->nops = 0;
	x->kind = DWARFX_PIECE_MEM;
}

static const char *unsupported_op(Dwarf_Small atom)
{
	const char *name = NULL;

	switch (atom) {
	case DW_OP_entry_value:
	case DW_OP_GNU_entry_value:
		return "only its value on entry to the function is known (DW_OP_entry_value)";
	case DW_OP_form_tls_address:
	case DW_OP_GNU_push_tls_address:
		return "it is thread-local storage";
	case DW_OP_implicit_pointer:
	case DW_OP_GNU_implicit_pointer:
		return "it is a pointer the compiler optimized away (DW_OP_implicit_pointer)";
	default:
		break;
	}
	if (dwarf_get_OP_name(atom, &name) == DW_DLV_OK && name) {
		if (!strcmp(name, "DW_OP_regval_type") || !strcmp(name, "DW_OP_convert") ||
		    !strcmp(name, "DW_OP_deref_type") || !strcmp(name, "DW_OP_const_type") ||
		    !strncmp(name, "DW_OP_GNU_", 10))
			return "its location uses a typed DWARF operation racegate does not evaluate";
		return "its location uses a DWARF operation racegate does not evaluate";
	}
	return "its location uses an unknown DWARF operation";
}

/* The binary and unary operations that map one to one. */
static int simple_op(Dwarf_Small atom)
{
	switch (atom) {
	case DW_OP_and: return DWARFX_OP_AND;
	case DW_OP_div: return DWARFX_OP_DIV;
	case DW_OP_minus: return DWARFX_OP_SUB;
	case DW_OP_mod: return DWARFX_OP_MOD;
	case DW_OP_mul: return DWARFX_OP_MUL;
	case DW_OP_neg: return DWARFX_OP_NEG;
	case DW_OP_not: return DWARFX_OP_NOT;
	case DW_OP_or: return DWARFX_OP_OR;
	case DW_OP_plus: return DWARFX_OP_ADD;
	case DW_OP_shl: return DWARFX_OP_SHL;
	case DW_OP_shr: return DWARFX_OP_SHR;
	case DW_OP_shra: return DWARFX_OP_SHRA;
	case DW_OP_xor: return DWARFX_OP_XOR;
	case DW_OP_eq: return DWARFX_OP_EQ;
	case DW_OP_ne: return DWARFX_OP_NE;
	case DW_OP_lt: return DWARFX_OP_LT;
	case DW_OP_le: return DWARFX_OP_LE;
	case DW_OP_gt: return DWARFX_OP_GT;
	case DW_OP_ge: return DWARFX_OP_GE;
	case DW_OP_dup: return DWARFX_OP_DUP;
	case DW_OP_drop: return DWARFX_OP_DROP;
	case DW_OP_swap: return DWARFX_OP_SWAP;
	case DW_OP_over: return DWARFX_OP_OVER;
	default: return -1;
	}
}

static void addr_index(struct xl *x, uint64_t index, uint8_t code)
{
	Dwarf_Addr a;
	Dwarf_Error e = NULL;

	if (dwarf_debug_addr_index_to_addr(x->die, index, &a, &e) != DW_DLV_OK) {
		drop(x->c->dx->dbg, &e);
		x->why = "its location names an unreadable .debug_addr entry";
		return;
	}
	emit(x, code, 0, (int64_t)a, 0);
}

static void frame_address(struct xl *x)
{
	dwarfx_op cfa[2];
	size_t n;
	const char *why;

	if (dwarfx_cfi_cfa(x->c->dx, x->c->addr, cfa, &n, &why)) {
		x->why = why;
		return;
	}
	emit_all(x, cfa, n);
}

/* Operations with operands, or that end or change a piece. */
static void special_op(struct xl *x, Dwarf_Small atom, Dwarf_Unsigned o1, Dwarf_Unsigned o2)
{
	switch (atom) {
	case DW_OP_addr: emit(x, DWARFX_OP_ADDR, 0, (int64_t)o1, 0); break;
	case DW_OP_addrx: case DW_OP_GNU_addr_index: addr_index(x, o1, DWARFX_OP_ADDR); break;
	case DW_OP_constx: case DW_OP_GNU_const_index: addr_index(x, o1, DWARFX_OP_CONST); break;
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
	case DW_OP_constu: emit(x, DWARFX_OP_CONST, 0, (int64_t)o1, 0); break;
	case DW_OP_const1s: emit(x, DWARFX_OP_CONST, 0, (int8_t)o1, 0); break;
	case DW_OP_const2s: emit(x, DWARFX_OP_CONST, 0, (int16_t)o1, 0); break;
	case DW_OP_const4s: emit(x, DWARFX_OP_CONST, 0, (int32_t)o1, 0); break;
	case DW_OP_const8s: case DW_OP_consts: emit(x, DWARFX_OP_CONST, 0, (int64_t)o1, 0); break;
	case DW_OP_regx:
		x->kind = DWARFX_PIECE_REG;
		x->reg = (uint16_t)o1;
		if (o1 > UINT16_MAX)
			x->why = "its location names an impossible register";
		break;
	case DW_OP_bregx:
		if (o1 > UINT16_MAX)
			x->why = "its location names an impossible register";
		emit(x, DWARFX_OP_REG, (uint16_t)o1, 0, 0);
		emit(x, DWARFX_OP_PLUS_CONST, 0, (int64_t)o2, 0);
		break;
	case DW_OP_fbreg:
		if (!x->c->fb) {
			x->why = x->c->fb_why ? x->c->fb_why :
				"its function's frame base is unknown";
			break;
		}
		emit_all(x, x->c->fb, x->c->nfb);
		emit(x, DWARFX_OP_PLUS_CONST, 0, (int64_t)o1, 0);
		break;
	case DW_OP_call_frame_cfa: frame_address(x); break;
	case DW_OP_plus_uconst: emit(x, DWARFX_OP_PLUS_CONST, 0, (int64_t)o1, 0); break;
	case DW_OP_pick:
		if (o1 > 1)
			x->why = "its location uses DW_OP_pick deeper than racegate evaluates";
		else
			emit(x, o1 ? DWARFX_OP_OVER : DWARFX_OP_DUP, 0, 0, 0);
		break;
	case DW_OP_deref: emit(x, DWARFX_OP_DEREF, 0, 0, 8); break;
	case DW_OP_deref_size:
		if (o1 != 1 && o1 != 2 && o1 != 4 && o1 != 8)
			x->why = "its location reads memory of an odd size";
		else
			emit(x, DWARFX_OP_DEREF, 0, 0, (uint8_t)o1);
		break;
	case DW_OP_nop: case DW_OP_GNU_uninit: break;
	case DW_OP_stack_value: x->kind = DWARFX_PIECE_VALUE; break;
	case DW_OP_implicit_value:
		x->kind = DWARFX_PIECE_BYTES;
		x->bytes = (const uint8_t *)(uintptr_t)o2;
		x->nbytes = o1;
		if (!x->bytes || o1 > 4096)
			x->why = "its location has an unreadable constant";
		break;
	case DW_OP_piece: end_piece(x, o1); break;
	default: x->why = unsupported_op(atom); break;
	}
}

static void translate_op(struct xl *x, Dwarf_Small atom, Dwarf_Unsigned o1, Dwarf_Unsigned o2)
{
	int code = simple_op(atom);

	x->seen = true;
	if (code >= 0)
		emit(x, (uint8_t)code, 0, 0, 0);
	else if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31)
		emit(x, DWARFX_OP_CONST, 0, atom - DW_OP_lit0, 0);
	else if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
		x->kind = DWARFX_PIECE_REG;
		x->reg = atom - DW_OP_reg0;
	} else if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
		emit(x, DWARFX_OP_REG, atom - DW_OP_breg0, 0, 0);
		emit(x, DWARFX_OP_PLUS_CONST, 0, (int64_t)o1, 0);
	} else
		special_op(x, atom, o1, o2);
}

/*
 * The expression of attr for c->addr: the attribute's own expression, or
 * the location list entry covering the address.  0 and *desc, *count; 1
 * when nothing covers it; -1 unreadable.  *head to free in every case.
 */
static int pick(struct dwarfx_locctx *c, Dwarf_Attribute attr, Dwarf_Loc_Head_c *head,
		Dwarf_Locdesc_c *desc, Dwarf_Unsigned *count)
{
	Dwarf_Debug dbg = c->dx->dbg;
	Dwarf_Unsigned n, i;
	Dwarf_Error e = NULL;
	unsigned kind = DW_LKIND_unknown;
	int fallback = 1;

	*head = NULL;
	if (dwarf_get_loclist_c(attr, head, &n, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		*head = NULL;
		return -1;
	}
	if (dwarf_get_loclist_head_kind(*head, &kind, &e) != DW_DLV_OK)
		drop(dbg, &e);
	for (i = 0; i < n && i < 100000; i++) {
		Dwarf_Small lle = 0, src = 0;
		Dwarf_Unsigned rawlo, rawhi, cnt, eoff, doff;
		Dwarf_Bool unavail = false;
		Dwarf_Addr lo = 0, hi = 0;
		Dwarf_Locdesc_c d = NULL;

		if (dwarf_get_locdesc_entry_d(*head, i, &lle, &rawlo, &rawhi, &unavail, &lo,
					      &hi, &cnt, &d, &src, &eoff, &doff,
					      &e) != DW_DLV_OK) {
			drop(dbg, &e);
			return -1;
		}
		if (kind == DW_LKIND_expression) {
			*desc = d;
			*count = cnt;
			return 0;
		}
		if (kind == DW_LKIND_loclists &&
		    (lle == DW_LLE_base_address || lle == DW_LLE_base_addressx ||
		     lle == DW_LLE_end_of_list))
			continue;
		if (kind == DW_LKIND_loclists && lle == DW_LLE_default_location) {
			*desc = d;
			*count = cnt;
			fallback = 0;
			continue;
		}
		if (!unavail && lo <= c->addr && c->addr < hi) {
			*desc = d;
			*count = cnt;
			return 0;
		}
	}
	return fallback;
}

/* Translates desc into x; false when libdwarf cannot read it. */
static bool translate(struct xl *x, Dwarf_Locdesc_c desc, Dwarf_Unsigned count)
{
	Dwarf_Debug dbg = x->c->dx->dbg;
	Dwarf_Unsigned i;

	for (i = 0; i < count && !x->why; i++) {
		Dwarf_Small atom = 0;
		Dwarf_Unsigned o1 = 0, o2 = 0, o3 = 0, br = 0;
		Dwarf_Error e = NULL;

		if (dwarf_get_location_op_value_c(desc, i, &atom, &o1, &o2, &o3, &br,
						  &e) != DW_DLV_OK) {
			drop(dbg, &e);
			return false;
		}
		translate_op(x, atom, o1, o2);
		if (x->kind == DWARFX_PIECE_REG && x->nops)
			x->why = "its location mixes a register with operations";
	}
	return true;
}

static void set_unsupported(dwarfx_place *out, const char *why)
{
	memset(out, 0, sizeof(*out));
	out->kind = DWARFX_PLACE_UNSUPPORTED;
	out->why = why;
}

/* attr's location at c->addr into out (x is the translation's state). */
static void place_of(struct xl *x, Dwarf_Attribute attr, dwarfx_place *out)
{
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Locdesc_c desc = NULL;
	Dwarf_Unsigned count = 0;
	dwarfx_piece *pieces;
	int res;

	memset(out, 0, sizeof(*out));
	res = pick(x->c, attr, &head, &desc, &count);
	if (res == 0 && !translate(x, desc, count))
		res = -1;
	if (head)
		dwarf_loc_head_c_dealloc(head);
	if (res < 0) {
		set_unsupported(out, "its location is unreadable");
		return;
	}
	if (res > 0 || !x->seen) {
		out->kind = DWARFX_PLACE_OPTIMIZED_OUT;
		return;
	}
	if (!x->why && (x->nops || x->kind != DWARFX_PIECE_MEM || !x->npieces))
		end_piece(x, 0);
	if (x->why) {
		set_unsupported(out, x->why);
		return;
	}
	pieces = dwarfx_arena_alloc(x->c->arena, x->npieces * sizeof(*pieces));
	memcpy(pieces, x->pieces, x->npieces * sizeof(*pieces));
	out->kind = DWARFX_PLACE_KNOWN;
	out->pieces = pieces;
	out->npieces = x->npieces;
}

/* DW_AT_const_value: the value's bytes, little-endian. */
static void const_place(struct xl *x, Dwarf_Attribute attr, uint64_t size, dwarfx_place *out)
{
	Dwarf_Debug dbg = x->c->dx->dbg;
	Dwarf_Error e = NULL;
	Dwarf_Half form = 0;
	Dwarf_Block *b = NULL;
	uint8_t le[8];
	char *s;

	dwarf_whatform(attr, &form, &e);
	drop(dbg, &e);
	x->kind = DWARFX_PIECE_BYTES;
	if (dwarf_formblock(attr, &b, &e) == DW_DLV_OK) {
		x->bytes = b->bl_data;
		x->nbytes = b->bl_len > 4096 ? 4096 : b->bl_len;
		end_piece(x, 0);
		dwarf_dealloc(dbg, b, DW_DLA_BLOCK);
	} else if (drop(dbg, &e), dwarf_formstring(attr, &s, &e) == DW_DLV_OK) {
		x->bytes = (const uint8_t *)s;
		x->nbytes = strlen(s) + 1;
		end_piece(x, 0);
	} else {
		Dwarf_Signed sv = 0;
		uint64_t uv = 0;
		int i;

		drop(dbg, &e);
		if (form == DW_FORM_sdata || form == DW_FORM_implicit_const) {
			if (dwarf_formsdata(attr, &sv, &e) != DW_DLV_OK)
				x->why = "its constant value is unreadable";
			uv = (Dwarf_Unsigned)sv;
		} else if (dwarfx_attr_udata(dbg, attr, &uv) != DW_DLV_OK) {
			x->why = "its constant value is unreadable";
		}
		drop(dbg, &e);
		for (i = 0; i < 8; i++)
			le[i] = (uint8_t)(uv >> (8 * i));
		x->bytes = le;
		x->nbytes = size && size < 8 ? size : 8;
		if (!x->why)
			end_piece(x, 0);
	}
	if (x->why) {
		set_unsupported(out, x->why);
		return;
	}
	out->kind = DWARFX_PLACE_KNOWN;
	out->pieces = dwarfx_arena_alloc(x->c->arena, sizeof(dwarfx_piece));
	memcpy((dwarfx_piece *)out->pieces, &x->pieces[0], sizeof(dwarfx_piece));
	out->npieces = 1;
}

void dwarfx_loc_place(struct dwarfx_locctx *c, Dwarf_Die die, uint64_t size,
		      dwarfx_place *out)
{
	Dwarf_Debug dbg = c->dx->dbg;
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	struct xl x;

	memset(&x, 0, sizeof(x));
	memset(out, 0, sizeof(*out));
	x.c = c;
	x.die = die;
	x.kind = DWARFX_PIECE_MEM;
	if (dwarf_attr(die, DW_AT_location, &attr, &e) == DW_DLV_OK) {
		place_of(&x, attr, out);
		dwarf_dealloc_attribute(attr);
		return;
	}
	drop(dbg, &e);
	if (dwarf_attr(die, DW_AT_const_value, &attr, &e) == DW_DLV_OK) {
		const_place(&x, attr, size, out);
		dwarf_dealloc_attribute(attr);
		return;
	}
	drop(dbg, &e);
	out->kind = DWARFX_PLACE_OPTIMIZED_OUT;
}

void dwarfx_loc_frame_base(struct dwarfx_locctx *c, Dwarf_Die subprogram)
{
	Dwarf_Debug dbg = c->dx->dbg;
	struct dwarfx_locctx fc = *c;
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	dwarfx_place p;
	struct xl x;

	c->fb = NULL;
	c->nfb = 0;
	c->fb_why = "its function has no frame base";
	if (dwarf_attr(subprogram, DW_AT_frame_base, &attr, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		return;
	}
	fc.fb = NULL;
	fc.fb_why = "its function's frame base refers to itself";
	memset(&x, 0, sizeof(x));
	x.c = &fc;
	x.die = subprogram;
	x.kind = DWARFX_PIECE_MEM;
	place_of(&x, attr, &p);
	dwarf_dealloc_attribute(attr);
	if (p.kind == DWARFX_PLACE_UNSUPPORTED) {
		c->fb_why = p.why;
	} else if (p.kind != DWARFX_PLACE_KNOWN || p.npieces != 1) {
		c->fb_why = "its function's frame base is not known at this address";
	} else if (p.pieces[0].kind == DWARFX_PIECE_MEM) {
		c->fb = p.pieces[0].ops;
		c->nfb = p.pieces[0].nops;
	} else if (p.pieces[0].kind == DWARFX_PIECE_REG) {
		/* clang: DW_OP_reg6, the frame base is what the frame pointer holds */
		dwarfx_op *op = dwarfx_arena_alloc(c->arena, sizeof(*op));

		op->code = DWARFX_OP_REG;
		op->reg = p.pieces[0].reg;
		c->fb = op;
		c->nfb = 1;
	} else {
		c->fb_why = "its function's frame base is not an address";
	}
}

bool dwarfx_loc_is_static(dwarfx *dx, Dwarf_Die die)
{
	Dwarf_Debug dbg = dx->dbg;
	Dwarf_Attribute attr;
	Dwarf_Loc_Head_c head = NULL;
	Dwarf_Unsigned n = 0;
	Dwarf_Error e = NULL;
	unsigned kind = DW_LKIND_unknown;
	bool yes = false;

	if (dwarf_attr(die, DW_AT_location, &attr, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		return false;
	}
	if (dwarf_get_loclist_c(attr, &head, &n, &e) == DW_DLV_OK) {
		Dwarf_Small lle, src, atom = 0;
		Dwarf_Unsigned rawlo, rawhi, cnt = 0, eoff, doff, o1, o2, o3, br;
		Dwarf_Bool unavail;
		Dwarf_Addr lo, hi;
		Dwarf_Locdesc_c d = NULL;

		/* DW_OP_addr; or a thread-local static: an offset, then the TLS op */
		if (dwarf_get_loclist_head_kind(head, &kind, &e) == DW_DLV_OK &&
		    kind == DW_LKIND_expression && n == 1 &&
		    dwarf_get_locdesc_entry_d(head, 0, &lle, &rawlo, &rawhi, &unavail, &lo,
					      &hi, &cnt, &d, &src, &eoff, &doff,
					      &e) == DW_DLV_OK && (cnt == 1 || cnt == 2) &&
		    dwarf_get_location_op_value_c(d, cnt - 1, &atom, &o1, &o2, &o3, &br,
						  &e) == DW_DLV_OK)
			yes = cnt == 1 ? atom == DW_OP_addr || atom == DW_OP_addrx ||
				atom == DW_OP_GNU_addr_index :
				atom == DW_OP_form_tls_address || atom == DW_OP_GNU_push_tls_address;
		drop(dbg, &e);
		dwarf_loc_head_c_dealloc(head);
	}
	drop(dbg, &e);
	dwarf_dealloc_attribute(attr);
	return yes;
}
