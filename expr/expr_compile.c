/*
 * Type check and compile a condition for one scope, in one walk of the
 * tree: each node's check emits the code computing it (postfix), so code
 * is a flat list of stack ops with forward jumps only (&& and ||).
 *
 * Every integer on the evaluation stack is its value as 64 bits,
 * sign-extended for a signed type and zero-extended for an unsigned one;
 * so C's promotions cost nothing and a conversion is one O_NORM where the
 * representation changes.  Pointers are 64-bit addresses.
 *
 * Roots: a load whose address is computed from registers, constants and
 * load biases only (a local at a frame offset, a global) is recorded with
 * the range of ops that computes its address, so the evaluator can fetch
 * every root in one batch before running the code.  A shadow stack follows
 * the emitted ops and tells, for each value, whether it is "pure" that way
 * and at which op its code starts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_msg.h"
#include "expr_type.h"
#include "msg.h"

enum vkind {
	V_RVAL,   /* the value itself is on the stack */
	V_MEM,    /* its address is on the stack */
	V_BITF,   /* the address of the bytes holding the bitfield is on the stack */
	V_PIECES, /* nothing on the stack yet: bytes [poff, ...) of a variable in pieces
	           * (a struct split between registers), read once a member is chosen */
};

typedef struct val {
	const dwarfx_type *t;     /* as declared (typedefs kept, for messages) */
	enum vkind k;
	unsigned bit_off, bit_size;
	bool null_const;          /* 0, NULL, nullptr: compares with any pointer */
	bool in_reg;              /* a variable held in a register ('&' message) */
	const dwarfx_var *pv;     /* V_PIECES: the variable, its object, the offset in it */
	int pobj;
	uint64_t poff;
} val;

typedef struct shadow {
	bool pure;
	size_t start;
} shadow;

typedef struct cc {
	const expr *e;
	const expr_env *env;
	expr_code *c;
	expr_error *err;
	bool failed;
	size_t cap_ops, cap_spans, cap_strs, cap_types;
	shadow sh[EXPR_MAX_STACK];
	int sp;
	uint16_t span;            /* span of the ops being emitted */
} cc;

static int fail(cc *x, size_t off, const char *fmt, ...) RG_PRINTF(3, 4);

static int fail(cc *x, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (x->failed)
		return -1;
	x->failed = true;
	if (x->err) {
		x->err->off = off;
		va_start(ap, fmt);
		vsnprintf(x->err->msg, sizeof(x->err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The text of n, for messages (cut at 80 bytes). */
static const char *text(const cc *x, const expr_node *n, char *buf, size_t len)
{
	size_t l = n->len < len - 1 ? n->len : len - 1;

	if (l > 80)
		l = 80;
	memcpy(buf, x->e->text + n->off, l);
	buf[l] = '\0';
	return buf;
}

#define SPELL(t, b) expr_spell((t), (b), sizeof(b))
#define WHERE(x) ((x)->env->where ? (x)->env->where : "this location")

/* ---- emission ---- */

static int pops(int code)
{
	switch (code) {
	case O_CONST: case O_REG: case O_BIAS: case O_HIT: case O_TID: case O_THREAD:
		return 0;
	case O_SWAP: case O_OVER:
		return 2;
	case O_ADD: case O_SUB: case O_MUL: case O_DIVS: case O_DIVU: case O_MODS:
	case O_MODU: case O_AND: case O_OR: case O_XOR: case O_SHL: case O_SHRS:
	case O_SHRU: case O_EQ: case O_NE: case O_LTS: case O_LES: case O_GTS:
	case O_GES: case O_LTU: case O_LEU: case O_GTU: case O_GEU:
		return 2;
	default:
		return 1;
	}
}

/* Appends an op; keeps the shadow stack.  Returns its pc, or -1. */
static long emit(cc *x, int code, int64_t arg)
{
	expr_code *c = x->c;
	expr_op *op;
	shadow top;
	int n = pops(code), i;
	bool pure = true;
	size_t pc = c->nops;

	if (x->failed)
		return -1;
	if (c->nops == EXPR_MAX_OPS)
		return fail(x, 0, EM_TOO_COMPLEX);
	if (x->sp < n)
		return fail(x, 0, EM_TOO_COMPLEX);  /* a place program that underflows */
	RG_GROW(c->ops, c->nops + 1, x->cap_ops);
	op = &c->ops[c->nops++];
	memset(op, 0, sizeof(*op));
	op->code = (uint8_t)code;
	op->arg = arg;
	op->root = -1;
	op->span = x->span;
	top.start = n ? x->sh[x->sp - n].start : pc;
	for (i = 0; i < n; i++)
		pure = pure && x->sh[x->sp - 1 - i].pure;
	switch (code) {
	case O_CONST: case O_REG: case O_BIAS:
		break;
	case O_LOAD:
		if (pure && c->nroots < EXPR_MAX_ROOTS) {
			c->root_start = xrealloc(c->root_start, (c->nroots + 1) * sizeof(size_t));
			c->root_load = xrealloc(c->root_load, (c->nroots + 1) * sizeof(size_t));
			c->root_start[c->nroots] = top.start;
			c->root_load[c->nroots] = pc;
			op->root = (int16_t)c->nroots++;
		}
		pure = false;
		break;
	case O_HIT: case O_TID: case O_THREAD: case O_STREQ: case O_JZ: case O_JNZ:
	case O_DUP: case O_DROP: case O_SWAP: case O_OVER:
		pure = false;
		break;
	default:
		break;
	}
	x->sp -= n;
	switch (code) {
	case O_DROP: case O_JZ: case O_JNZ:
		break;
	case O_DUP: case O_OVER:
		if (x->sp + n + 1 > EXPR_MAX_STACK)
			return fail(x, 0, EM_TOO_COMPLEX);
		x->sp += n;
		x->sh[x->sp - 1].pure = false;
		if (code == O_OVER)
			x->sh[x->sp - 2].pure = false;
		x->sh[x->sp++] = (shadow){false, pc};
		break;
	case O_SWAP:
		x->sp += 2;
		x->sh[x->sp - 1].pure = x->sh[x->sp - 2].pure = false;
		break;
	default:
		if (x->sp + 1 > EXPR_MAX_STACK)
			return fail(x, 0, EM_TOO_COMPLEX);
		top.pure = pure;
		x->sh[x->sp++] = top;
	}
	return (long)pc;
}

static int emit_sized(cc *x, int code, unsigned size, bool sgn, int64_t arg)
{
	long pc = emit(x, code, arg);

	if (pc < 0)
		return -1;
	x->c->ops[pc].size = (uint8_t)size;
	x->c->ops[pc].sgn = sgn;
	return 0;
}

static int norm(cc *x, const dwarfx_type *t)
{
	uint64_t size;
	bool sgn;

	if (!expr_int_repr(t, &size, &sgn))
		rg_bug("normalising a non-integer");
	if (expr_strip(t)->kind == DWARFX_T_INT && expr_strip(t)->is_bool)
		return emit(x, O_BOOL, 0) < 0 ? -1 : 0;
	return size >= 8 ? 0 : emit_sized(x, O_NORM, (unsigned)size, sgn, 0);
}

static uint16_t add_span(cc *x, size_t off, size_t len)
{
	expr_code *c = x->c;

	RG_GROW(c->spans, c->nspans + 1, x->cap_spans);
	c->spans[c->nspans] = (expr_span){off, len};
	return (uint16_t)c->nspans++;
}

static uint32_t add_str(cc *x, const char *s, size_t len)
{
	expr_code *c = x->c;

	if (c->nstrs == x->cap_strs) {
		x->cap_strs = x->cap_strs ? 2 * x->cap_strs : 4;
		c->strs = xrealloc(c->strs, x->cap_strs * sizeof(*c->strs));
		c->strlens = xrealloc(c->strlens, x->cap_strs * sizeof(*c->strlens));
	}
	/* all len bytes: a literal may hold "\0", which strndup would stop at */
	c->strs[c->nstrs] = memcpy(xmalloc(len + 1), s, len);
	c->strs[c->nstrs][len] = '\0';
	c->strlens[c->nstrs] = len;
	return (uint32_t)c->nstrs++;
}

static const dwarfx_type *ptr_to(cc *x, const dwarfx_type *target)
{
	dwarfx_type *t = xcalloc(1, sizeof(*t));

	t->kind = DWARFX_T_POINTER;
	t->size = 8;
	t->target = target;
	RG_GROW(x->c->types, x->c->ntypes + 1, x->cap_types);
	x->c->types[x->c->ntypes++] = t;
	return t;
}

/* A load of size bytes (1, 2, 4, 8) at the address on the stack. */
static int load(cc *x, uint64_t size, bool sgn, const expr_node *n)
{
	uint16_t save = x->span;
	int r;

	x->span = add_span(x, n->off, n->len);
	r = emit_sized(x, O_LOAD, (unsigned)size, sgn, 0);
	x->span = save;
	return r;
}

/* ---- places: where a variable lives ---- */

static const int dwop_map[] = {
	[DWARFX_OP_ADD] = O_ADD, [DWARFX_OP_SUB] = O_SUB, [DWARFX_OP_MUL] = O_MUL,
	[DWARFX_OP_DIV] = O_DIVS, [DWARFX_OP_MOD] = O_MODU, [DWARFX_OP_AND] = O_AND,
	[DWARFX_OP_OR] = O_OR, [DWARFX_OP_XOR] = O_XOR, [DWARFX_OP_SHL] = O_SHL,
	[DWARFX_OP_SHR] = O_SHRU, [DWARFX_OP_SHRA] = O_SHRS, [DWARFX_OP_NEG] = O_NEG,
	[DWARFX_OP_NOT] = O_NOT, [DWARFX_OP_PLUS_CONST] = O_PLUS_CONST,
	[DWARFX_OP_DUP] = O_DUP, [DWARFX_OP_DROP] = O_DROP, [DWARFX_OP_SWAP] = O_SWAP,
	[DWARFX_OP_OVER] = O_OVER, [DWARFX_OP_EQ] = O_EQ, [DWARFX_OP_NE] = O_NE,
	[DWARFX_OP_LT] = O_LTS, [DWARFX_OP_LE] = O_LES, [DWARFX_OP_GT] = O_GTS,
	[DWARFX_OP_GE] = O_GES, [DWARFX_OP_CONST] = O_CONST,
};

/* A DWARF place program, leaving one value on the stack. */
static int dwarf_ops(cc *x, const dwarfx_op *ops, size_t nops, int obj,
		     const expr_node *n)
{
	int base = x->sp;
	size_t i;
	long pc;

	for (i = 0; i < nops && !x->failed; i++) {
		const dwarfx_op *o = &ops[i];

		switch (o->code) {
		case DWARFX_OP_ADDR:
			emit(x, O_CONST, o->arg);
			emit(x, O_BIAS, obj);
			emit(x, O_ADD, 0);
			break;
		case DWARFX_OP_REG:
			if ((pc = emit(x, O_REG, 0)) >= 0)
				x->c->ops[pc].aux = o->reg;
			break;
		case DWARFX_OP_DEREF:
			if (o->size != 1 && o->size != 2 && o->size != 4 && o->size != 8)
				return fail(x, n->off, EM_BAD_PLACE, n->name);
			load(x, o->size, false, n);
			break;
		default:
			if (o->code >= sizeof(dwop_map) / sizeof(dwop_map[0]) ||
			    (!dwop_map[o->code] && o->code != DWARFX_OP_CONST))
				return fail(x, n->off, EM_BAD_PLACE, n->name);
			if (x->sp - base < pops(dwop_map[o->code]))
				return fail(x, n->off, EM_BAD_PLACE, n->name);
			emit(x, dwop_map[o->code], o->arg);
		}
		if (x->sp < base)
			return fail(x, n->off, EM_BAD_PLACE, n->name);
	}
	if (!x->failed && x->sp != base + 1)
		return fail(x, n->off, EM_BAD_PLACE, n->name);
	return x->failed ? -1 : 0;
}

/* One piece's value (not in memory, or a part of a split variable), low bytes. */
static int piece_value(cc *x, const dwarfx_piece *p, uint64_t size, int obj,
		       const expr_node *n, val *v)
{
	uint64_t k, b = 0;
	long pc;

	switch (p->kind) {
	case DWARFX_PIECE_REG:
		if ((pc = emit(x, O_REG, 0)) < 0)
			return -1;
		x->c->ops[pc].aux = p->reg;
		v->in_reg = true;
		break;
	case DWARFX_PIECE_VALUE:
		if (dwarf_ops(x, p->ops, p->nops, obj, n))
			return -1;
		break;
	case DWARFX_PIECE_BYTES:
		for (k = 0; k < size && k < 8; k++)
			b |= (uint64_t)p->bytes[k] << (8 * k);
		return emit(x, O_CONST, (int64_t)b) < 0 ? -1 : 0;
	case DWARFX_PIECE_MEM:
		if (dwarf_ops(x, p->ops, p->nops, obj, n))
			return -1;
		return load(x, size, false, n);
	default:
		return fail(x, n->off, EM_OPTIMIZED, n->name, WHERE(x));
	}
	return size < 8 ? emit_sized(x, O_NORM, (unsigned)size, false, 0) : 0;
}

static int place_ops(cc *x, const dwarfx_var *var, int obj, const expr_node *n, val *v);

/* The ops reading a variable carry its name's span: a register that cannot be read names it. */
static int place(cc *x, const dwarfx_var *var, int obj, const expr_node *n, val *v)
{
	uint16_t save = x->span;
	int r;

	x->span = add_span(x, n->off, n->len);
	r = place_ops(x, var, obj, n, v);
	x->span = save;
	return r;
}

static int place_ops(cc *x, const dwarfx_var *var, int obj, const expr_node *n, val *v)
{
	const dwarfx_place *pl = &var->place;
	uint64_t size = expr_size(var->type), at = 0, ps;
	char b1[128];
	size_t i;

	memset(v, 0, sizeof(*v));
	v->t = var->type;
	if (pl->kind == DWARFX_PLACE_OPTIMIZED_OUT)
		return fail(x, n->off, EM_OPTIMIZED, n->name, WHERE(x));
	if (pl->kind == DWARFX_PLACE_UNSUPPORTED)
		return fail(x, n->off, EM_UNREADABLE, n->name, pl->why ? pl->why : "unsupported location");
	if (!pl->npieces)
		return fail(x, n->off, EM_OPTIMIZED, n->name, WHERE(x));
	if (pl->npieces == 1 && pl->pieces[0].kind == DWARFX_PIECE_MEM) {
		v->k = V_MEM;
		return dwarf_ops(x, pl->pieces[0].ops, pl->pieces[0].nops, obj, n);
	}
	if (size > 8 && pl->npieces > 1) {
		/* read later, only the piece holding the member asked for */
		v->k = V_PIECES;
		v->pv = var;
		v->pobj = obj;
		v->in_reg = true;
		return 0;
	}
	for (i = 0; i < pl->npieces; i++)
		if (pl->pieces[i].kind == DWARFX_PIECE_UNDEF)
			return fail(x, n->off, EM_OPTIMIZED, n->name, WHERE(x));
	/* not (wholly) in memory: the value itself, assembled from its pieces */
	if (size > 8 || (!size && expr_strip(var->type) &&
			 expr_strip(var->type)->kind != DWARFX_T_VOID))
		return fail(x, n->off, EM_BIG_VALUE, n->name, SPELL(var->type, b1),
			    (unsigned long long)size);
	v->k = V_RVAL;
	for (i = 0; i < pl->npieces; i++) {
		ps = pl->pieces[i].size ? pl->pieces[i].size : size - at;
		if (at + ps > size)
			ps = size - at;
		if (!ps)
			break;
		if (piece_value(x, &pl->pieces[i], ps, obj, n, v))
			return -1;
		if (at) {
			emit(x, O_CONST, (int64_t)(at * 8));
			emit(x, O_SHL, 0);
			emit(x, O_OR, 0);
		}
		at += ps;
	}
	if (pl->npieces > 1)
		v->in_reg = false;
	/* an integer from a register is as wide as the register: make it the type's */
	if (expr_is_int(var->type))
		return norm(x, var->type);
	return x->failed ? -1 : 0;
}

/* ---- values ---- */

static int check(cc *x, const expr_node *n, val *v);

/*
 * V_PIECES -> V_MEM, V_BITF or V_RVAL: the piece holding v's bytes, at
 * its place.  A member split between two pieces is refused.
 */
static int pieces_read(cc *x, const expr_node *n, val *v)
{
	const dwarfx_place *pl = &v->pv->place;
	uint64_t need = v->bit_size ? (v->bit_off + v->bit_size + 7) / 8 : expr_size(v->t);
	uint64_t total = expr_size(v->pv->type), at = 0, ps = 0, rel;
	const dwarfx_piece *p = NULL;
	expr_node var = *n;
	char b1[128], b2[128];
	uint64_t size;
	bool sgn;
	size_t i;
	long pc;

	var.name = (char *)v->pv->name;   /* place errors name the variable */
	for (i = 0; i < pl->npieces; i++, at += ps) {
		ps = pl->pieces[i].size ? pl->pieces[i].size : total - at;
		if (v->poff >= at && v->poff + need <= at + ps) {
			p = &pl->pieces[i];
			break;
		}
	}
	text(x, n, b1, sizeof(b1));
	if (!p || !need)
		return fail(x, n->off, EM_SPLIT, b1);
	if (p->kind == DWARFX_PIECE_UNDEF)
		return fail(x, n->off, EM_OPTIMIZED, b1, WHERE(x));
	rel = v->poff - at;
	v->k = v->bit_size ? V_BITF : V_MEM;
	if (p->kind == DWARFX_PIECE_MEM) {
		v->in_reg = false;
		if (dwarf_ops(x, p->ops, p->nops, v->pobj, &var))
			return -1;
		return rel ? (emit(x, O_PLUS_CONST, (int64_t)rel) < 0 ? -1 : 0) : 0;
	}
	if (ps > 8)
		return fail(x, n->off, EM_BIG_VALUE, v->pv->name, SPELL(v->pv->type, b2),
			    (unsigned long long)total);
	if (piece_value(x, p, ps, v->pobj, &var, v))
		return -1;
	if (rel) {
		emit(x, O_CONST, (int64_t)(rel * 8));
		emit(x, O_SHRU, 0);
	}
	v->k = V_RVAL;
	if (v->bit_size) {
		if ((pc = emit(x, O_BITX, v->bit_off)) < 0)
			return -1;
		x->c->ops[pc].aux = v->bit_size;
		x->c->ops[pc].sgn = expr_int_repr(v->t, &size, &sgn) && sgn;
		return 0;
	}
	if (expr_int_repr(v->t, &size, &sgn))
		return size < 8 ? emit_sized(x, O_NORM, (unsigned)size, sgn, 0) : 0;
	return need < 8 ? emit_sized(x, O_NORM, (unsigned)need, false, 0) : 0;
}

/* A reference is read through: its value is the address of what it names. */
static int through_ref(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t = expr_strip(v->t);

	if (!t || t->kind != DWARFX_T_REFERENCE)
		return 0;
	if (v->k == V_PIECES && pieces_read(x, n, v))
		return -1;
	if (v->k == V_MEM && load(x, 8, false, n))
		return -1;
	v->k = V_MEM;
	v->t = t->target;
	v->in_reg = false;
	return 0;
}

/* Makes v a value: loads it, extracts a bitfield, decays an array. */
static int rval(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t = expr_strip(v->t);
	uint64_t size, bytes;
	bool sgn;
	char b1[128], b2[128];

	if (!t)
		return fail(x, n->off, EM_NOT_SCALAR, text(x, n, b1, sizeof(b1)), "void");
	if (t->kind == DWARFX_T_FLOAT)
		return fail(x, n->off, EM_FLOATVAR, text(x, n, b1, sizeof(b1)), SPELL(v->t, b2));
	if (v->k == V_PIECES && (t->kind == DWARFX_T_ARRAY || expr_int_repr(t, &size, &sgn)) &&
	    pieces_read(x, n, v))
		return -1;
	if (t->kind == DWARFX_T_ARRAY) {
		if (v->k != V_MEM)
			return fail(x, n->off, EM_ADDR_VALUE, text(x, n, b1, sizeof(b1)));
		v->k = V_RVAL;
		v->t = ptr_to(x, t->target);
		return 0;
	}
	if (!expr_int_repr(t, &size, &sgn))
		return fail(x, n->off, EM_NOT_SCALAR, text(x, n, b1, sizeof(b1)), SPELL(v->t, b2));
	if (size > 8)
		return fail(x, n->off, EM_WIDE, text(x, n, b1, sizeof(b1)), SPELL(v->t, b2));
	if (v->k == V_BITF) {
		bytes = (v->bit_off + v->bit_size + 7) / 8;
		bytes = bytes <= 1 ? 1 : bytes <= 2 ? 2 : bytes <= 4 ? 4 : 8;
		if (v->bit_off + v->bit_size > 64)
			return fail(x, n->off, EM_WIDE, text(x, n, b1, sizeof(b1)), SPELL(v->t, b2));
		if (load(x, bytes, false, n))
			return -1;
		long pc = emit(x, O_BITX, v->bit_off);
		if (pc < 0)
			return -1;
		x->c->ops[pc].aux = v->bit_size;
		x->c->ops[pc].sgn = sgn;
	} else if (v->k == V_MEM) {
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return fail(x, n->off, EM_WIDE, text(x, n, b1, sizeof(b1)), SPELL(v->t, b2));
		if (load(x, size, sgn, n))
			return -1;
		if (t->kind == DWARFX_T_INT && t->is_bool && emit(x, O_BOOL, 0) < 0)
			return -1;
	}
	v->k = V_RVAL;
	return 0;
}

static int check_rval(cc *x, const expr_node *n, val *v)
{
	if (check(x, n, v) || rval(x, n, v))
		return -1;
	return 0;
}

/* A member of the struct or union v (an lvalue in memory, or a small value). */
static int member(cc *x, const expr_node *n, const char *name, size_t name_off, val *v)
{
	const dwarfx_type *st = expr_strip(v->t);
	const dwarfx_member *m;
	const char *near;
	uint64_t off;
	char b1[128];
	long pc;

	if (st->incomplete)
		return fail(x, name_off, EM_INCOMPLETE, SPELL(v->t, b1));
	if (!(m = expr_member(st, name, &off))) {
		SPELL(v->t, b1);
		if ((near = expr_nearest_member(st, name)))
			return fail(x, name_off, EM_NO_MEMBER "; did you mean '%s'?", b1, name, near);
		return fail(x, name_off, EM_NO_MEMBER, b1, name);
	}
	v->t = m->type;
	v->null_const = false;
	if (v->k == V_PIECES) {
		v->poff += off;
		v->bit_off = m->bit_size ? m->bit_offset : 0;
		v->bit_size = m->bit_size;
		return through_ref(x, n, v);
	}
	if (v->k == V_MEM) {
		if (off && emit(x, O_PLUS_CONST, (int64_t)off) < 0)
			return -1;
		if (m->bit_size) {
			v->k = V_BITF;
			v->bit_off = m->bit_offset;
			v->bit_size = m->bit_size;
		}
		return through_ref(x, n, v);
	}
	/* a struct held whole in registers: shift the member down */
	if (off) {
		emit(x, O_CONST, (int64_t)(off * 8));
		emit(x, O_SHRU, 0);
	}
	if (m->bit_size) {
		if ((pc = emit(x, O_BITX, m->bit_offset)) < 0)
			return -1;
		x->c->ops[pc].aux = m->bit_size;
		x->c->ops[pc].sgn = expr_strip(m->type) && expr_strip(m->type)->is_signed;
		return 0;
	}
	if (expr_is_int(m->type))
		return norm(x, m->type);
	if (expr_size(m->type) < 8)
		return emit_sized(x, O_NORM, (unsigned)expr_size(m->type), false, 0);
	return x->failed ? -1 : 0;
}

/* ---- names ---- */

static int not_visible(cc *x, const expr_node *n)
{
	const char *names[16];
	size_t k = 0, i, len;
	char list[400];

	if (x->env->visible)
		k = x->env->visible(x->env->ctx, names, 16);
	if (k > 16)
		k = 16;
	list[0] = '\0';
	for (i = 0; i < k; i++) {
		len = strlen(list);
		if (len + strlen(names[i]) + 8 >= sizeof(list)) {
			snprintf(list + len, sizeof(list) - len, ", ...");
			break;
		}
		snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", names[i]);
	}
	if (!k)
		return fail(x, n->off, EM_NOT_VISIBLE, n->name, WHERE(x));
	return fail(x, n->off, EM_NOT_VISIBLE "; visible there: %s", n->name,
		    WHERE(x), list);
}

static const dwarfx_var *find_var(cc *x, const char *name, int *obj)
{
	*obj = 0;
	return x->env->var ? x->env->var(x->env->ctx, name, obj) : NULL;
}

/* `this`'s class, when name is a data member of it (C++ methods). */
static const dwarfx_var *this_having(cc *x, const char *name, int *obj)
{
	const dwarfx_var *th;
	const dwarfx_type *t;
	uint64_t off;

	if (strstr(name, "::") || !strcmp(name, "this") || !(th = find_var(x, "this", obj)))
		return NULL;
	t = expr_strip(th->type);
	if (!t || t->kind != DWARFX_T_POINTER)
		return NULL;
	t = expr_strip(t->target);
	return t && (t->kind == DWARFX_T_STRUCT || t->kind == DWARFX_T_UNION) &&
	       expr_member(t, name, &off) ? th : NULL;
}

static int name(cc *x, const expr_node *n, val *v)
{
	const dwarfx_var *var;
	const dwarfx_type *et;
	int64_t value;
	int obj;

	memset(v, 0, sizeof(*v));
	if ((var = find_var(x, n->name, &obj))) {
		if (place(x, var, obj, n, v))
			return -1;
		return through_ref(x, n, v);
	}
	if ((var = this_having(x, n->name, &obj))) {
		if (place(x, var, obj, n, v) || rval(x, n, v))
			return -1;
		v->k = V_MEM;
		v->t = expr_strip(var->type)->target;
		return member(x, n, n->name, n->off, v);
	}
	if (x->env->enumerator && x->env->enumerator(x->env->ctx, n->name, &value, &et)) {
		v->t = expr_is_int(et) ? et : &expr_t_int;
		v->k = V_RVAL;
		return emit(x, O_CONST, value) < 0 ? -1 : norm(x, v->t);
	}
	if (!strcmp(n->name, "NULL") || !strcmp(n->name, "nullptr")) {
		v->t = &expr_t_voidp;
		v->null_const = true;
		return emit(x, O_CONST, 0) < 0 ? -1 : 0;
	}
	if (!strcmp(n->name, "true") || !strcmp(n->name, "false")) {
		v->t = &expr_t_int;
		return emit(x, O_CONST, n->name[0] == 't') < 0 ? -1 : 0;
	}
	return not_visible(x, n);
}

/* ---- type names ---- */

/* C's own integer types, spelt with keywords only ("unsigned long"); NULL otherwise. */
static const dwarfx_type *c_type(const char *words)
{
	int u = 0, s = 0, sh = 0, l = 0, ch = 0, in = 0, b = 0, vo = 0;
	char w[32];
	const char *p = words;
	size_t n;

	while (*p) {
		n = strcspn(p, " ");
		if (n >= sizeof(w))
			return NULL;
		memcpy(w, p, n);
		w[n] = '\0';
		p += n + (p[n] == ' ');
		if (!strcmp(w, "unsigned")) u++;
		else if (!strcmp(w, "signed")) s++;
		else if (!strcmp(w, "short")) sh++;
		else if (!strcmp(w, "long")) l++;
		else if (!strcmp(w, "char")) ch++;
		else if (!strcmp(w, "int")) in++;
		else if (!strcmp(w, "_Bool") || !strcmp(w, "bool")) b++;
		else if (!strcmp(w, "void")) vo++;
		else if (!strcmp(w, "float") || !strcmp(w, "double")) return &expr_t_double;
		else return NULL;
	}
	if (u + s > 1 || in > 1 || ch + sh + b + vo > 1 || (l && (ch || sh || b || vo)) || l > 2)
		return NULL;
	if ((b || vo) && (u || s || in))
		return NULL;
	if (vo)
		return &expr_t_void;
	if (b)
		return &expr_t_bool;
	if (ch)
		return in ? NULL : u ? &expr_t_uchar : s ? &expr_t_schar : &expr_t_char;
	if (sh)
		return u ? &expr_t_ushort : &expr_t_short;
	if (l == 2)
		return u ? &expr_t_ullong : &expr_t_llong;
	if (l)
		return u ? &expr_t_ulong : &expr_t_long;
	return u ? &expr_t_uint : &expr_t_int;
}

/* Where a cast's or sizeof's type name starts in the text. */
static size_t tname_off(const cc *x, const expr_node *n)
{
	const char *s = x->e->text;
	size_t i = n->off;

	while (i < n->off + n->len && s[i] != '(')
		i++;
	for (i++; s[i] == ' ' || s[i] == '\t'; i++)
		;
	return i;
}

static const dwarfx_type *resolve_type(cc *x, const expr_node *n, const expr_tname *tn)
{
	const dwarfx_type *t = c_type(tn->words);
	const char *w = tn->words;
	int i, obj;

	if (!t && x->env->type) {
		t = x->env->type(x->env->ctx, w);
		if (!t && !strncmp(w, "class ", 6))
			t = x->env->type(x->env->ctx, w + 6);
	}
	if (!t) {
		if (find_var(x, w, &obj))
			return fail(x, tname_off(x, n), EM_NOT_TYPE, w), NULL;
		return fail(x, tname_off(x, n), EM_UNKNOWN_TYPE, w), NULL;
	}
	for (i = 0; i < tn->stars; i++)
		t = ptr_to(x, t);
	return t;
}

static int cast(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *to = resolve_type(x, n, &n->tname), *ts;
	char b1[128], b2[128];
	bool null;

	if (!to)
		return -1;
	ts = expr_strip(to);
	if (!ts || (ts->kind != DWARFX_T_INT && ts->kind != DWARFX_T_ENUM &&
		    ts->kind != DWARFX_T_POINTER))
		return fail(x, n->off, EM_CAST_TO, SPELL(to, b1));
	if (check(x, n->a, v))
		return -1;
	if (!expr_is_scalar(v->t) && !(expr_strip(v->t) && expr_strip(v->t)->kind == DWARFX_T_ARRAY))
		return fail(x, n->off, EM_CAST, SPELL(v->t, b1), SPELL(to, b2));
	if (rval(x, n->a, v))
		return -1;
	null = v->null_const;
	if (ts->kind != DWARFX_T_POINTER && norm(x, to))
		return -1;
	memset(v, 0, sizeof(*v));
	v->t = to;
	v->null_const = null && ts->kind == DWARFX_T_POINTER;
	return 0;
}

static int size_of(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t = NULL;
	size_t nops = x->c->nops, nroots = x->c->nroots, nspans = x->c->nspans;
	int sp = x->sp, obj;
	int64_t value;
	char b1[128];

	if (n->kind == N_SIZEOF_T) {
		if (!(t = resolve_type(x, n, &n->tname)))
			return -1;
	} else if (n->paren_name && !find_var(x, n->a->name, &obj) &&
		   !this_having(x, n->a->name, &obj) &&
		   !(x->env->enumerator && x->env->enumerator(x->env->ctx, n->a->name, &value, &t)) &&
		   x->env->type && (t = x->env->type(x->env->ctx, n->a->name))) {
		;   /* sizeof(T) for a typedef name T */
	} else {
		/* checked, never run: the code it emitted is dropped */
		if (check(x, n->a, v))
			return -1;
		t = v->t;
		x->c->nops = nops;
		x->c->nroots = nroots;
		x->c->nspans = nspans;
		x->sp = sp;
	}
	if (!expr_size(t))
		return fail(x, n->off, EM_SIZE, SPELL(t, b1));
	memset(v, 0, sizeof(*v));
	v->t = &expr_t_ulong;
	return emit(x, O_CONST, (int64_t)expr_size(t)) < 0 ? -1 : 0;
}

/* ---- operators ---- */

static int deref(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t = expr_strip(v->t), *target;
	char b1[128];

	target = t && t->kind == DWARFX_T_POINTER ? expr_strip(t->target) : NULL;
	if (!target || target->kind == DWARFX_T_VOID || target->kind == DWARFX_T_FUNC)
		return fail(x, n->off, EM_DEREF, SPELL(v->t, b1));
	v->k = V_MEM;
	v->t = t->target;
	v->null_const = false;
	v->in_reg = false;
	return through_ref(x, n, v);
}

static int address(cc *x, const expr_node *n, val *v)
{
	char b1[128];

	if (check(x, n->a, v))
		return -1;
	text(x, n->a, b1, sizeof(b1));
	if (v->k == V_BITF)
		return fail(x, n->off, EM_ADDR_BITF, b1);
	if (v->k != V_MEM)
		return fail(x, n->off, v->in_reg ? EM_ADDR_REG : EM_ADDR_VALUE, b1);
	v->k = V_RVAL;
	v->t = ptr_to(x, v->t);
	return 0;
}

static int unary(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t;
	char b1[128], op[2] = {(char)n->op, 0};

	if (n->op == '&')
		return address(x, n, v);
	if (check_rval(x, n->a, v))
		return -1;
	if (n->op == '*')
		return deref(x, n, v);
	if (n->op == '!') {
		memset(v, 0, sizeof(*v));
		v->t = &expr_t_int;
		return emit(x, O_LNOT, 0) < 0 ? -1 : 0;
	}
	if (!expr_is_int(v->t))
		return fail(x, n->off, EM_OPERANDS, op, SPELL(v->t, b1));
	if (!(t = expr_promote(v->t)))
		return fail(x, n->off, EM_WIDE, text(x, n->a, b1, sizeof(b1)), "__int128");
	memset(v, 0, sizeof(*v));
	v->t = t;
	if (n->op == '+')
		return 0;
	if (emit(x, n->op == '-' ? O_NEG : O_NOT, 0) < 0)
		return -1;
	return norm(x, t);
}

static const char *const binop_text[] = {
	[B_MUL] = "*", [B_DIV] = "/", [B_MOD] = "%", [B_ADD] = "+", [B_SUB] = "-",
	[B_SHL] = "<<", [B_SHR] = ">>", [B_LT] = "<", [B_LE] = "<=", [B_GT] = ">",
	[B_GE] = ">=", [B_EQ] = "==", [B_NE] = "!=", [B_BAND] = "&", [B_BXOR] = "^",
	[B_BOR] = "|", [B_LAND] = "&&", [B_LOR] = "||",
};

static int logical(cc *x, const expr_node *n, val *v)
{
	val b;
	long pc;

	if (check_rval(x, n->a, v))
		return -1;
	if ((pc = emit(x, n->op == B_LAND ? O_JZ : O_JNZ, 0)) < 0)
		return -1;
	if (check_rval(x, n->b, &b) || emit(x, O_BOOL, 0) < 0)
		return -1;
	x->c->ops[pc].arg = (int64_t)x->c->nops;
	x->sh[x->sp - 1].pure = false;
	memset(v, 0, sizeof(*v));
	v->t = &expr_t_int;
	return 0;
}

/* Converts both promoted operands to t (only int -> unsigned int changes bits). */
static int convert2(cc *x, const dwarfx_type *pa, const dwarfx_type *pb, const dwarfx_type *t)
{
	bool to_u32 = t->size == 4 && !t->is_signed;

	if (to_u32 && pa->is_signed) {
		emit(x, O_SWAP, 0);
		emit_sized(x, O_NORM, 4, false, 0);
		emit(x, O_SWAP, 0);
	}
	if (to_u32 && pb->is_signed)
		emit_sized(x, O_NORM, 4, false, 0);
	return x->failed ? -1 : 0;
}

static uint64_t elem_size(cc *x, const expr_node *n, const dwarfx_type *ptr)
{
	const dwarfx_type *t = expr_strip(expr_strip(ptr)->target);
	uint64_t size;
	char b1[128];

	if (!t || t->kind == DWARFX_T_VOID || t->kind == DWARFX_T_FUNC)
		return 1;   /* as GNU C */
	if (!(size = expr_size(t)))
		fail(x, n->off, EM_SIZE, SPELL(expr_strip(ptr)->target, b1));
	return size;
}

/* Pointer + - integer, pointer - pointer. */
static int ptr_arith(cc *x, const expr_node *n, val *a, val *b, val *v)
{
	bool pa = expr_is_ptr(a->t), pb = expr_is_ptr(b->t);
	const dwarfx_type *pt = pa ? a->t : b->t;
	char b1[128], b2[128];
	uint64_t size;

	if ((pa && pb && (n->op != B_SUB || !expr_ptr_compatible(a->t, b->t))) ||
	    (pb && n->op == B_SUB && !pa))
		return fail(x, n->opoff, EM_ARITH, binop_text[n->op], SPELL(a->t, b1), SPELL(b->t, b2));
	if (!(size = elem_size(x, n, pt)))
		return -1;
	memset(v, 0, sizeof(*v));
	if (pa && pb) {
		emit(x, O_SUB, 0);
		emit(x, O_CONST, (int64_t)size);
		emit(x, O_DIVS, 0);
		v->t = &expr_t_long;
		return x->failed ? -1 : 0;
	}
	if (pb)
		emit(x, O_SWAP, 0);
	if (size != 1) {
		emit(x, O_CONST, (int64_t)size);
		emit(x, O_MUL, 0);
	}
	emit(x, n->op == B_ADD ? O_ADD : O_SUB, 0);
	v->t = pt;
	return x->failed ? -1 : 0;
}

static int compare(cc *x, const expr_node *n, val *a, val *b, val *v)
{
	static const int sops[] = {[B_LT] = O_LTS, [B_LE] = O_LES, [B_GT] = O_GTS,
				   [B_GE] = O_GES, [B_EQ] = O_EQ, [B_NE] = O_NE};
	static const int uops[] = {[B_LT] = O_LTU, [B_LE] = O_LEU, [B_GT] = O_GTU,
				   [B_GE] = O_GEU, [B_EQ] = O_EQ, [B_NE] = O_NE};
	bool pa = expr_is_ptr(a->t), pb = expr_is_ptr(b->t), sgn = false;
	const dwarfx_type *ta, *tb, *t;
	char b1[128], b2[128];

	if (pa || pb) {
		if ((pa && pb && !expr_ptr_compatible(a->t, b->t) && !a->null_const &&
		     !b->null_const) ||
		    (pa && !pb && !b->null_const) || (pb && !pa && !a->null_const))
			return fail(x, n->opoff, EM_COMPARE, SPELL(a->t, b1), SPELL(b->t, b2));
	} else {
		ta = expr_promote(a->t);
		tb = expr_promote(b->t);
		if (!ta || !tb)
			return fail(x, n->off, EM_WIDE, text(x, ta ? n->b : n->a, b1, sizeof(b1)),
				    "__int128");
		t = expr_usual(ta, tb);
		if (convert2(x, ta, tb, t))
			return -1;
		sgn = t->is_signed;
	}
	memset(v, 0, sizeof(*v));
	v->t = &expr_t_int;
	return emit(x, sgn ? sops[n->op] : uops[n->op], 0) < 0 ? -1 : 0;
}

static int binary(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *ta, *tb, *t;
	char b1[128], b2[128];
	val a, b;
	int code;

	if (n->op == B_LAND || n->op == B_LOR)
		return logical(x, n, v);
	if (check_rval(x, n->a, &a) || check_rval(x, n->b, &b))
		return -1;
	if (n->op >= B_LT && n->op <= B_NE)
		return compare(x, n, &a, &b, v);
	if ((n->op == B_ADD || n->op == B_SUB) && (expr_is_ptr(a.t) || expr_is_ptr(b.t)))
		return ptr_arith(x, n, &a, &b, v);
	if (!expr_is_int(a.t) || !expr_is_int(b.t)) {
		if (n->op == B_MUL || n->op == B_DIV || n->op == B_ADD || n->op == B_SUB)
			return fail(x, n->opoff, EM_ARITH, binop_text[n->op],
				    SPELL(a.t, b1), SPELL(b.t, b2));
		return fail(x, n->opoff, EM_OPERANDS, binop_text[n->op],
			    SPELL(expr_is_int(a.t) ? b.t : a.t, b1));
	}
	ta = expr_promote(a.t);
	tb = expr_promote(b.t);
	if (!ta || !tb)
		return fail(x, n->off, EM_WIDE, text(x, ta ? n->b : n->a, b1, sizeof(b1)), "__int128");
	memset(v, 0, sizeof(*v));
	if (n->op == B_SHL || n->op == B_SHR) {
		/* the left operand's promoted type; the count is only a count */
		v->t = ta;
		code = n->op == B_SHL ? O_SHL : ta->is_signed ? O_SHRS : O_SHRU;
		if (emit(x, code, 0) < 0)
			return -1;
		return n->op == B_SHL ? norm(x, ta) : 0;
	}
	t = expr_usual(ta, tb);
	v->t = t;
	if (convert2(x, ta, tb, t))
		return -1;
	switch (n->op) {
	case B_MUL: code = O_MUL; break;
	case B_DIV: code = t->is_signed ? O_DIVS : O_DIVU; break;
	case B_MOD: code = t->is_signed ? O_MODS : O_MODU; break;
	case B_ADD: code = O_ADD; break;
	case B_SUB: code = O_SUB; break;
	case B_BAND: code = O_AND; break;
	case B_BXOR: code = O_XOR; break;
	default: code = O_OR; break;
	}
	if (emit(x, code, 0) < 0)
		return -1;
	return norm(x, t);
}

static int index_op(cc *x, const expr_node *n, val *v)
{
	val a, b;
	char b1[128];

	if (check_rval(x, n->a, &a) || check_rval(x, n->b, &b))
		return -1;
	if (!(expr_is_ptr(a.t) && expr_is_int(b.t)) && !(expr_is_int(a.t) && expr_is_ptr(b.t)))
		return fail(x, n->off, EM_INDEX, SPELL(expr_is_ptr(b.t) ? b.t : a.t, b1));
	{
		expr_node add = *n;

		add.op = B_ADD;
		add.opoff = n->off;
		if (ptr_arith(x, &add, &a, &b, v))
			return -1;
	}
	return deref(x, n, v);
}

static int members(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t;
	size_t name_off = n->opoff + (n->kind == N_ARROW ? 2 : 1);
	char b1[128];

	while (x->e->text[name_off] == ' ' || x->e->text[name_off] == '\t')
		name_off++;
	if (n->kind == N_MEMBER) {
		if (check(x, n->a, v))
			return -1;
		t = expr_strip(v->t);
		if (t && t->kind == DWARFX_T_POINTER)
			return fail(x, n->opoff, EM_DOT_PTR);
		if (!t || (t->kind != DWARFX_T_STRUCT && t->kind != DWARFX_T_UNION))
			return fail(x, n->opoff, EM_DOT, SPELL(v->t, b1));
		return member(x, n, n->name, name_off, v);
	}
	if (check(x, n->a, v))
		return -1;
	t = expr_strip(v->t);
	if (t && t->kind == DWARFX_T_ARRAY && rval(x, n->a, v))
		return -1;
	t = expr_strip(v->t);
	if (!t || t->kind != DWARFX_T_POINTER || !expr_strip(t->target) ||
	    (expr_strip(t->target)->kind != DWARFX_T_STRUCT &&
	     expr_strip(t->target)->kind != DWARFX_T_UNION))
		return fail(x, n->opoff, EM_ARROW, SPELL(v->t, b1));
	if (rval(x, n->a, v))
		return -1;
	v->k = V_MEM;
	v->t = t->target;
	v->in_reg = false;
	return member(x, n, n->name, name_off, v);
}

static int streq(cc *x, const expr_node *n, val *v)
{
	const dwarfx_type *t, *e;
	uint64_t limit = 0;
	char b1[128];
	long pc;
	uint16_t save = x->span;

	if (check(x, n->a, v))
		return -1;
	t = expr_strip(v->t);
	if (t && t->kind == DWARFX_T_ARRAY && t->count)
		limit = t->count * (expr_size(t->target) ? expr_size(t->target) : 1);
	e = t && (t->kind == DWARFX_T_ARRAY || t->kind == DWARFX_T_POINTER) ?
		expr_strip(t->target) : NULL;
	if (!e || e->kind != DWARFX_T_INT || !e->is_char)
		return fail(x, n->a->off, EM_STREQ_TYPE, SPELL(v->t, b1));
	if (rval(x, n->a, v))
		return -1;
	x->span = add_span(x, n->a->off, n->a->len);
	pc = emit(x, O_STREQ, (int64_t)limit);
	x->span = save;
	if (pc < 0)
		return -1;
	x->c->ops[pc].aux = add_str(x, n->str, n->strlen);
	memset(v, 0, sizeof(*v));
	v->t = &expr_t_int;
	return 0;
}

static int check(cc *x, const expr_node *n, val *v)
{
	long pc;

	memset(v, 0, sizeof(*v));
	switch (n->kind) {
	case N_NUM:
		v->t = n->num_char ? &expr_t_int : n->num_long ?
			(n->num_unsigned ? &expr_t_ulong : &expr_t_long) :
			(n->num_unsigned ? &expr_t_uint : &expr_t_int);
		v->null_const = n->num == 0 && !n->num_char;
		return emit(x, O_CONST, (int64_t)n->num) < 0 ? -1 : 0;
	case N_NAME:
		return name(x, n, v);
	case N_HIT:
	case N_TID:
		v->t = n->kind == N_HIT ? &expr_t_ulong : &expr_t_int;
		return emit(x, n->kind == N_HIT ? O_HIT : O_TID, 0) < 0 ? -1 : 0;
	case N_THREAD:
		v->t = &expr_t_int;
		if ((pc = emit(x, O_THREAD, 0)) < 0)
			return -1;
		x->c->ops[pc].aux = add_str(x, n->name, strlen(n->name));
		x->c->ops[pc].sgn = n->op == '!';
		return 0;
	case N_STREQ:
		return streq(x, n, v);
	case N_UNARY:
		return unary(x, n, v);
	case N_BINARY:
		return binary(x, n, v);
	case N_INDEX:
		return index_op(x, n, v);
	case N_MEMBER:
	case N_ARROW:
		return members(x, n, v);
	case N_CAST:
		return cast(x, n, v);
	case N_SIZEOF_T:
	case N_SIZEOF_E:
		return size_of(x, n, v);
	}
	rg_bug("unknown node kind %d", (int)n->kind);
}

void expr_code_free(expr_code *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nstrs; i++)
		free(c->strs[i]);
	for (i = 0; i < c->ntypes; i++)
		free(c->types[i]);
	free(c->strs);
	free(c->strlens);
	free(c->types);
	free(c->ops);
	free(c->root_start);
	free(c->root_load);
	free(c->spans);
	free(c);
}

int expr_compile(const expr *e, const expr_env *env, expr_code **out, expr_error *err)
{
	cc x;
	val v;

	memset(&x, 0, sizeof(x));
	x.e = e;
	x.env = env;
	x.err = err;
	x.c = xcalloc(1, sizeof(*x.c));
	*out = NULL;
	x.span = add_span(&x, e->root->off, e->root->len);
	if (check_rval(&x, e->root, &v) || x.failed) {
		expr_code_free(x.c);
		return -1;
	}
	if (x.sp != 1)
		rg_bug("a compiled condition leaves %d values", x.sp);
	*out = x.c;
	return 0;
}
