/*
 * Types for `when:` conditions: DWARF type entries -> dwarfx_type, built on
 * first use and cached by entry offset, so that a type shared by a thousand
 * variables is built once and a cyclic one (struct node { struct node
 * *next; }) ends: a type is cached before what it refers to is built.
 *
 * Qualifiers (const, volatile, restrict, _Atomic) are dropped: a condition
 * only reads.  A struct seen only as a declaration in one unit is replaced
 * by its definition from another when the name index has one.
 */
#include "dwarfx_vint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A type and what only this file needs to know about it. */
struct tnode {
	dwarfx_type t;
	bool cxx;                /* from a C++ unit: no "struct" when spelled */
	bool is_class;
};

static void drop(Dwarf_Debug dbg, Dwarf_Error *e)
{
	if (*e)
		dwarf_dealloc_error(dbg, *e);
	*e = NULL;
}

Dwarf_Die dwarfx_die_at(Dwarf_Debug dbg, uint64_t off)
{
	Dwarf_Die d = NULL;
	Dwarf_Error e = NULL;

	if (dwarf_offdie_b(dbg, off, true, &d, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		return NULL;
	}
	return d;
}

/*
 * A reference to a type unit (-fdebug-types-section: DW_FORM_ref_sig8, in
 * DW_AT_signature or DW_AT_type) names the type by its 8-byte signature,
 * which libdwarf's dwarf_global_formref does not follow;
 * dwarf_find_die_given_sig8 does.  Only type units in .debug_info (DWARF
 * 5): every offset here is into it.
 */
static bool by_signature(Dwarf_Debug dbg, Dwarf_Attribute attr, uint64_t *def)
{
	Dwarf_Error e = NULL;
	Dwarf_Sig8 sig;
	Dwarf_Die t = NULL;
	Dwarf_Bool is_info = true;
	Dwarf_Off off;
	bool ok = false;

	if (dwarf_formsig8(attr, &sig, &e) == DW_DLV_OK &&
	    dwarf_find_die_given_sig8(dbg, &sig, &t, &is_info, &e) == DW_DLV_OK) {
		ok = is_info && dwarf_dieoffset(t, &off, &e) == DW_DLV_OK;
		if (ok)
			*def = off;
		dwarf_dealloc_die(t);
	}
	drop(dbg, &e);
	return ok;
}

int dwarfx_die_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	Dwarf_Off o;
	int res;

	res = dwarf_attr(die, at, &attr, &e);
	if (res != DW_DLV_OK) {
		drop(dbg, &e);
		return DW_DLV_NO_ENTRY;
	}
	res = dwarf_global_formref(attr, &o, &e);
	if (res != DW_DLV_OK) {
		drop(dbg, &e);
		res = by_signature(dbg, attr, off) ? DW_DLV_OK : DW_DLV_NO_ENTRY;
		dwarf_dealloc_attribute(attr);
		return res;
	}
	dwarf_dealloc_attribute(attr);
	*off = o;
	return DW_DLV_OK;
}

/*
 * formudata for every constant form: libdwarf 20210528's dwarf_formudata
 * refuses DW_FORM_implicit_const (the value kept in the abbreviation, which
 * gcc uses for DWARF 5 byte sizes and member offsets); formsdata reads it.
 */
int dwarfx_attr_udata(Dwarf_Debug dbg, Dwarf_Attribute attr, uint64_t *val)
{
	Dwarf_Error e = NULL;
	Dwarf_Unsigned u;
	Dwarf_Signed sv;
	Dwarf_Half form = 0;

	if (dwarf_formudata(attr, &u, &e) == DW_DLV_OK) {
		*val = u;
		return DW_DLV_OK;
	}
	drop(dbg, &e);
	if (dwarf_whatform(attr, &form, &e) != DW_DLV_OK || form != DW_FORM_implicit_const ||
	    dwarf_formsdata(attr, &sv, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		return DW_DLV_NO_ENTRY;
	}
	*val = (uint64_t)sv;
	return DW_DLV_OK;
}

int dwarfx_die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, uint64_t *val)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	int res;

	res = dwarf_attr(die, at, &attr, &e);
	if (res != DW_DLV_OK) {
		drop(dbg, &e);
		return DW_DLV_NO_ENTRY;
	}
	res = dwarfx_attr_udata(dbg, attr, val);
	dwarf_dealloc_attribute(attr);
	return res;
}

bool dwarfx_die_flag(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	Dwarf_Bool b = false;
	int res;

	res = dwarf_attr(die, at, &attr, &e);
	if (res != DW_DLV_OK) {
		drop(dbg, &e);
		return false;
	}
	res = dwarf_formflag(attr, &b, &e);
	dwarf_dealloc_attribute(attr);
	if (res != DW_DLV_OK) {
		drop(dbg, &e);
		return false;
	}
	return b != 0;
}

const char *dwarfx_die_name(dwarfx *dx, Dwarf_Die die)
{
	static const Dwarf_Half refs[] = {DW_AT_abstract_origin, DW_AT_specification};
	Dwarf_Debug dbg = dx->dbg;
	Dwarf_Die d = die;
	const char *name = NULL;
	unsigned hops;

	for (hops = 0; d && hops < DWARFX_VMAX_DEPTH && !name; hops++) {
		Dwarf_Error e = NULL;
		Dwarf_Die next = NULL;
		uint64_t off;
		char *s;
		size_t i;

		if (dwarf_diename(d, &s, &e) == DW_DLV_OK)
			name = dwarfx_pool_intern(&dx->strs, s, strlen(s));
		drop(dbg, &e);
		for (i = 0; !name && !next && i < 2; i++)
			if (dwarfx_die_ref(dbg, d, refs[i], &off) == DW_DLV_OK)
				next = dwarfx_die_at(dbg, off);
		if (d != die)
			dwarf_dealloc_die(d);
		d = name ? NULL : next;
		if (name && next)
			dwarf_dealloc_die(next);
	}
	if (d && d != die)
		dwarf_dealloc_die(d);
	return name;
}

static struct tnode *new_type(dwarfx *dx, uint64_t off, enum dwarfx_tkind kind)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	struct tnode *n = dwarfx_arena_alloc(&vs->arena, sizeof(*n));

	n->t.kind = kind;
	if (off != UINT64_MAX) {
		RG_GROW(vs->tlist, vs->ntypes + 1, vs->types_cap);
		vs->tlist[vs->ntypes] = &n->t;
		dwarfx_map_put(&vs->types, off, (uint32_t)vs->ntypes++);
	}
	return n;
}

/* A type standing for one racegate does not model, named by why. */
static const dwarfx_type *unknown(dwarfx *dx, uint64_t off, const char *why)
{
	struct tnode *n = new_type(dx, off, DWARFX_T_UNKNOWN);

	n->t.name = why;
	return &n->t;
}

static void cache_as(dwarfx *dx, uint64_t off, const dwarfx_type *t)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);

	RG_GROW(vs->tlist, vs->ntypes + 1, vs->types_cap);
	vs->tlist[vs->ntypes] = t;
	dwarfx_map_put(&vs->types, off, (uint32_t)vs->ntypes++);
}

static const dwarfx_type *void_type(dwarfx *dx)
{
	/* one void per dx, under an offset no entry has */
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	uint32_t i;
	struct tnode *n;

	if (dwarfx_map_get(&vs->types, UINT64_MAX - 1, &i))
		return vs->tlist[i];
	n = new_type(dx, UINT64_MAX - 1, DWARFX_T_VOID);
	n->t.name = "void";
	return &n->t;
}

const dwarfx_type *dwarfx_type_of(dwarfx *dx, Dwarf_Die die, unsigned depth)
{
	uint64_t off;

	if (dwarfx_die_ref(dx->dbg, die, DW_AT_type, &off) != DW_DLV_OK)
		return void_type(dx);
	return dwarfx_type_at(dx, off, depth + 1);
}

static bool unit_is_cxx(dwarfx *dx, Dwarf_Die die)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	Dwarf_Error e = NULL;
	Dwarf_Off cu;
	uint32_t v;

	if (dwarf_CU_dieoffset_given_die(die, &cu, &e) != DW_DLV_OK) {
		drop(dx->dbg, &e);
		return false;
	}
	return dwarfx_map_get(&vs->cxx_units, cu, &v);
}

static void base_type(dwarfx *dx, Dwarf_Die die, struct tnode *n)
{
	uint64_t enc = 0;

	dwarfx_die_udata(dx->dbg, die, DW_AT_encoding, &enc);
	switch (enc) {
	case DW_ATE_signed_char:
	case DW_ATE_unsigned_char:
		n->t.is_char = true;
		/* fall through */
	case DW_ATE_signed:
	case DW_ATE_unsigned:
	case DW_ATE_UTF:
		n->t.kind = DWARFX_T_INT;
		n->t.is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		break;
	case DW_ATE_boolean:
		n->t.kind = DWARFX_T_INT;
		n->t.is_bool = true;
		break;
	case DW_ATE_float:
		n->t.kind = DWARFX_T_FLOAT;
		break;
	default:
		n->t.kind = DWARFX_T_UNKNOWN;
		break;
	}
	if (!n->t.name)
		n->t.name = "?";
}

/* An expression that is DW_OP_plus_uconst N: N. */
static bool plus_uconst(const unsigned char *b, Dwarf_Unsigned len, uint64_t *off)
{
	uint64_t u = 0;
	unsigned shift = 0;
	Dwarf_Unsigned i;

	if (len < 2 || b[0] != DW_OP_plus_uconst)
		return false;
	for (i = 1; i < len && shift < 64; i++, shift += 7) {
		u |= (uint64_t)(b[i] & 0x7f) << shift;
		if (!(b[i] & 0x80))
			break;
	}
	*off = u;
	return true;
}

/* DW_AT_data_member_location as a constant or DW_OP_plus_uconst N. */
static bool member_offset(Dwarf_Debug dbg, Dwarf_Die die, uint64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	Dwarf_Unsigned len;
	Dwarf_Block *b = NULL;
	Dwarf_Ptr p;
	bool ok = false;
	int res;

	*off = 0;
	res = dwarf_attr(die, DW_AT_data_member_location, &attr, &e);
	if (res != DW_DLV_OK) {
		drop(dbg, &e);
		return res == DW_DLV_NO_ENTRY;	/* a union's members: 0 */
	}
	if (dwarfx_attr_udata(dbg, attr, off) == DW_DLV_OK) {
		ok = true;
	} else if (dwarf_formexprloc(attr, &len, &p, &e) == DW_DLV_OK) {
		ok = plus_uconst(p, len, off);
	} else {
		/* DWARF 2 and 3: a block */
		drop(dbg, &e);
		if (dwarf_formblock(attr, &b, &e) == DW_DLV_OK) {
			ok = plus_uconst(b->bl_data, b->bl_len, off);
			dwarf_dealloc(dbg, b, DW_DLA_BLOCK);
		}
	}
	drop(dbg, &e);
	dwarf_dealloc_attribute(attr);
	return ok;
}

static void add_member(dwarfx *dx, Dwarf_Die m, Dwarf_Half tag, dwarfx_member *out,
		       unsigned depth)
{
	Dwarf_Debug dbg = dx->dbg;
	uint64_t bits = 0, dbo, bo, storage;

	out->type = dwarfx_type_of(dx, m, depth);
	out->is_base = tag == DW_TAG_inheritance;
	out->name = out->is_base ? out->type->name : dwarfx_die_name(dx, m);
	if (!member_offset(dbg, m, &out->offset))
		out->offset = 0;
	if (dwarfx_die_udata(dbg, m, DW_AT_bit_size, &bits) != DW_DLV_OK || !bits || bits > 64)
		return;
	out->bit_size = (unsigned)bits;
	if (dwarfx_die_udata(dbg, m, DW_AT_data_bit_offset, &dbo) == DW_DLV_OK) {
		dbo += out->offset * 8;
	} else if (dwarfx_die_udata(dbg, m, DW_AT_bit_offset, &bo) == DW_DLV_OK) {
		/* DWARF 4: from the most significant bit of the storage unit */
		if (dwarfx_die_udata(dbg, m, DW_AT_byte_size, &storage) != DW_DLV_OK)
			storage = dwarfx_type_strip(out->type)->size;
		if (storage * 8 < bo + bits)
			storage = (bo + bits + 7) / 8;
		dbo = out->offset * 8 + storage * 8 - bo - bits;
	} else {
		dbo = out->offset * 8;
	}
	out->offset = dbo / 8;
	out->bit_offset = (unsigned)(dbo % 8);
}

/* Members of a struct/class/union: fields, bases; not static members. */
static void struct_members(dwarfx *dx, Dwarf_Die die, struct tnode *n, unsigned depth)
{
	Dwarf_Debug dbg = dx->dbg;
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	dwarfx_member *v = NULL;
	size_t nv = 0, cap = 0;
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_child(die, &c, &e);

	while (res == DW_DLV_OK && nv < 100000) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag = 0;

		if (dwarf_tag(c, &tag, &e) == DW_DLV_OK &&
		    (tag == DW_TAG_member || tag == DW_TAG_inheritance) &&
		    !dwarfx_die_flag(dbg, c, DW_AT_external) &&
		    !dwarfx_die_flag(dbg, c, DW_AT_declaration)) {
			RG_GROW(v, nv + 1, cap);
			memset(&v[nv], 0, sizeof(v[nv]));
			add_member(dx, c, tag, &v[nv], depth);
			nv++;
		}
		drop(dbg, &e);
		res = dwarf_siblingof_b(dbg, c, true, &next, &e);
		dwarf_dealloc_die(c);
		c = next;
	}
	drop(dbg, &e);
	if (nv) {
		dwarfx_member *m = dwarfx_arena_alloc(&vs->arena, nv * sizeof(*m));

		memcpy(m, v, nv * sizeof(*m));
		n->t.members = m;
		n->t.nmembers = nv;
	}
	free(v);
}

static void enumerators(dwarfx *dx, Dwarf_Die die, struct tnode *n)
{
	Dwarf_Debug dbg = dx->dbg;
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	dwarfx_enumerator *v = NULL;
	size_t nv = 0, cap = 0;
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_child(die, &c, &e);
	bool neg = false;

	while (res == DW_DLV_OK && nv < 1000000) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Attribute a;

		if (dwarf_tag(c, &tag, &e) == DW_DLV_OK && tag == DW_TAG_enumerator &&
		    dwarf_attr(c, DW_AT_const_value, &a, &e) == DW_DLV_OK) {
			Dwarf_Signed s = 0;
			uint64_t u = 0;
			Dwarf_Half form = 0;

			RG_GROW(v, nv + 1, cap);
			v[nv].name = dwarfx_die_name(dx, c);
			dwarf_whatform(a, &form, &e);
			drop(dbg, &e);
			if (form == DW_FORM_sdata || form == DW_FORM_implicit_const ||
			    (n->t.is_signed && form != DW_FORM_udata)) {
				if (dwarf_formsdata(a, &s, &e) == DW_DLV_OK)
					v[nv].value = s;
			} else if (dwarfx_attr_udata(dbg, a, &u) == DW_DLV_OK) {
				v[nv].value = (int64_t)u;
			}
			neg |= v[nv].value < 0;
			dwarf_dealloc_attribute(a);
			if (v[nv].name)
				nv++;
		}
		drop(dbg, &e);
		res = dwarf_siblingof_b(dbg, c, true, &next, &e);
		dwarf_dealloc_die(c);
		c = next;
	}
	drop(dbg, &e);
	if (!n->t.target)
		n->t.is_signed = neg;
	if (nv) {
		dwarfx_enumerator *m = dwarfx_arena_alloc(&vs->arena, nv * sizeof(*m));

		memcpy(m, v, nv * sizeof(*m));
		n->t.enumerators = m;
		n->t.nenumerators = nv;
	}
	free(v);
}

/* The element count of one DW_TAG_subrange_type (0: unknown). */
static uint64_t subrange_count(Dwarf_Debug dbg, Dwarf_Die sr)
{
	uint64_t count, ub, lb = 0;

	if (dwarfx_die_udata(dbg, sr, DW_AT_count, &count) == DW_DLV_OK)
		return count;
	if (dwarfx_die_udata(dbg, sr, DW_AT_upper_bound, &ub) != DW_DLV_OK)
		return 0;
	dwarfx_die_udata(dbg, sr, DW_AT_lower_bound, &lb);
	if (ub == UINT64_MAX || ub + 1 < lb)
		return 0;	/* int a[] at file scope: upper bound -1 */
	return ub + 1 - lb;
}

/*
 * int a[2][3]: one DW_TAG_array_type with two subranges -> an array of 2
 * arrays of 3.  n is the outer array, cached already.
 */
static void array_type(dwarfx *dx, Dwarf_Die die, struct tnode *n, unsigned depth)
{
	Dwarf_Debug dbg = dx->dbg;
	uint64_t counts[16];
	size_t nc = 0, i;
	Dwarf_Die c = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_child(die, &c, &e);
	const dwarfx_type *elem;

	while (res == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag = 0;

		if (dwarf_tag(c, &tag, &e) == DW_DLV_OK &&
		    (tag == DW_TAG_subrange_type || tag == DW_TAG_enumeration_type) &&
		    nc < sizeof(counts) / sizeof(counts[0]))
			counts[nc++] = subrange_count(dbg, c);
		drop(dbg, &e);
		res = dwarf_siblingof_b(dbg, c, true, &next, &e);
		dwarf_dealloc_die(c);
		c = next;
	}
	drop(dbg, &e);
	if (!nc)
		counts[nc++] = 0;
	elem = dwarfx_type_of(dx, die, depth);
	/* innermost dimension first */
	for (i = nc - 1; i > 0; i--) {
		struct tnode *a = new_type(dx, UINT64_MAX, DWARFX_T_ARRAY);

		a->t.target = elem;
		a->t.count = counts[i];
		a->t.size = counts[i] * dwarfx_type_strip(elem)->size;
		elem = &a->t;
	}
	n->t.target = elem;
	n->t.count = counts[0];
	n->t.size = counts[0] * dwarfx_type_strip(elem)->size;
}

/*
 * A struct/union/enum declared here and defined in another unit: the
 * definition's offset, found by name in the name index.
 */
static bool definition_of(dwarfx *dx, uint64_t off, Dwarf_Half tag, uint64_t *def)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	const char *q = dwarfx_names_qualified(dx, off);
	char key[512];
	size_t first, n, i;
	char want = tag == DW_TAG_union_type ? 'u' : tag == DW_TAG_enumeration_type ? 'e' : 's';

	int pass;

	if (!q || vs->indexed != 1)
		return false;
	/* C names tags "struct q"; C++ plain "q" */
	for (pass = 0; pass < 2; pass++) {
		snprintf(key, sizeof(key), "%s%s", pass ? "" : want == 'u' ? "union " :
			 want == 'e' ? "enum " : "struct ", q);
		n = dwarfx_names_find(vs->tnames, vs->ntnames, key, &first);
		for (i = first; i < first + n; i++) {
			const struct dwarfx_tname *t = &vs->tnames[i];

			if (!t->decl && t->tag == want && t->rank == 0) {
				*def = t->die;
				return true;
			}
		}
	}
	return false;
}

/* Fills n (cached already) from die with tag. */
static void build(dwarfx *dx, Dwarf_Die die, Dwarf_Half tag, struct tnode *n,
		  unsigned depth)
{
	Dwarf_Debug dbg = dx->dbg;
	uint64_t size = 0;

	if (dwarfx_die_udata(dbg, die, DW_AT_byte_size, &size) == DW_DLV_OK)
		n->t.size = size;
	switch (tag) {
	case DW_TAG_base_type:
		base_type(dx, die, n);
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		n->t.kind = tag == DW_TAG_pointer_type ? DWARFX_T_POINTER : DWARFX_T_REFERENCE;
		n->t.name = NULL;
		if (!n->t.size)
			n->t.size = 8;
		n->t.target = dwarfx_type_of(dx, die, depth);
		break;
	case DW_TAG_typedef:
		n->t.kind = DWARFX_T_TYPEDEF;
		n->t.target = dwarfx_type_of(dx, die, depth);
		n->t.size = dwarfx_type_strip(n->t.target)->size;
		n->t.is_signed = dwarfx_type_strip(n->t.target)->is_signed;
		break;
	case DW_TAG_array_type:
		n->t.kind = DWARFX_T_ARRAY;
		n->t.name = NULL;
		array_type(dx, die, n, depth);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		n->t.kind = tag == DW_TAG_union_type ? DWARFX_T_UNION : DWARFX_T_STRUCT;
		n->is_class = tag == DW_TAG_class_type;
		n->t.incomplete = dwarfx_die_flag(dbg, die, DW_AT_declaration);
		if (!n->t.incomplete)
			struct_members(dx, die, n, depth);
		break;
	case DW_TAG_enumeration_type:
		n->t.kind = DWARFX_T_ENUM;
		n->t.incomplete = dwarfx_die_flag(dbg, die, DW_AT_declaration);
		if (dwarfx_die_ref(dbg, die, DW_AT_type, &size) == DW_DLV_OK) {
			n->t.target = dwarfx_type_at(dx, size, depth + 1);
			n->t.is_signed = dwarfx_type_strip(n->t.target)->is_signed;
			if (!n->t.size)
				n->t.size = dwarfx_type_strip(n->t.target)->size;
		}
		enumerators(dx, die, n);
		break;
	case DW_TAG_subroutine_type:
		n->t.kind = DWARFX_T_FUNC;
		n->t.name = NULL;
		n->t.target = dwarfx_type_of(dx, die, depth);
		break;
	case DW_TAG_unspecified_type:
		/* void in some producers' hands; decltype(nullptr) in C++ */
		n->t.kind = n->t.name && strcmp(n->t.name, "void") ? DWARFX_T_UNKNOWN : DWARFX_T_VOID;
		break;
	default:
		n->t.kind = DWARFX_T_UNKNOWN;
		if (!n->t.name)
			n->t.name = "a type racegate does not model";
		break;
	}
}

static bool is_qualifier(Dwarf_Half tag)
{
	return tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
		tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type ||
		tag == DW_TAG_packed_type || tag == DW_TAG_shared_type ||
		tag == DW_TAG_immutable_type;
}

const dwarfx_type *dwarfx_type_at(dwarfx *dx, uint64_t off, unsigned depth)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	Dwarf_Debug dbg = dx->dbg;
	Dwarf_Error e = NULL;
	Dwarf_Half tag = 0;
	Dwarf_Die die;
	struct tnode *n;
	uint64_t def;
	uint32_t i;
	const char *q;

	if (dwarfx_map_get(&vs->types, off, &i))
		return vs->tlist[i];
	if (depth > DWARFX_VMAX_DEPTH)
		return unknown(dx, UINT64_MAX, "a type nested too deep");
	die = dbg ? dwarfx_die_at(dbg, off) : NULL;
	if (!die || dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		if (die)
			dwarf_dealloc_die(die);
		return unknown(dx, off, "an unreadable type");
	}
	if (is_qualifier(tag)) {
		const dwarfx_type *t = dwarfx_type_of(dx, die, depth);

		dwarf_dealloc_die(die);
		cache_as(dx, off, t);
		return t;
	}
	if ((tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	     tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type) &&
	    dwarfx_die_flag(dbg, die, DW_AT_declaration) &&
	    (dwarfx_die_ref(dbg, die, DW_AT_signature, &def) == DW_DLV_OK ||
	     definition_of(dx, off, tag, &def)) && def != off) {
		const dwarfx_type *t;

		dwarf_dealloc_die(die);
		/* a placeholder first: corrupt declarations may name each other */
		unknown(dx, off, "an incomplete type");
		t = dwarfx_type_at(dx, def, depth + 1);
		cache_as(dx, off, t);
		return t;
	}
	n = new_type(dx, off, DWARFX_T_UNKNOWN);
	n->cxx = unit_is_cxx(dx, die);
	q = dwarfx_names_qualified(dx, off);
	n->t.name = q ? q : dwarfx_die_name(dx, die);
	build(dx, die, tag, n, depth);
	dwarf_dealloc_die(die);
	return &n->t;
}

const dwarfx_type *dwarfx_type_strip(const dwarfx_type *t)
{
	unsigned hops = 0;

	while (t && t->kind == DWARFX_T_TYPEDEF && hops++ < DWARFX_VMAX_DEPTH)
		t = t->target;
	return t;
}

/* Appends s to b, within len; b always terminated. */
static void cat(char *b, size_t len, const char *s)
{
	size_t n = strlen(b);

	if (n < len)
		snprintf(b + n, len - n, "%s", s);
}

/* The base part: "struct queue", "unsigned int", "Queue". */
static void spell_base(const dwarfx_type *t, char *b, size_t len)
{
	const struct tnode *n = (const struct tnode *)t;
	const char *kw = NULL;

	switch (t->kind) {
	case DWARFX_T_STRUCT:
		kw = n->is_class ? "class" : "struct";
		break;
	case DWARFX_T_UNION:
		kw = "union";
		break;
	case DWARFX_T_ENUM:
		kw = "enum";
		break;
	default:
		break;
	}
	if (kw && (!t->name || !n->cxx)) {
		cat(b, len, kw);
		cat(b, len, " ");
	}
	cat(b, len, t->name ? t->name : kw ? "{...}" : "?");
}

const char *dwarfx_type_spell(const dwarfx_type *t, char *buf, size_t len)
{
	rg_buf decl = RG_BUF_INIT, tmp = RG_BUF_INIT;
	unsigned hops = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	rg_buf_puts(&decl, "");
	/* peel the declarator from the outside in, as C reads it inside out */
	while (t && hops++ < DWARFX_VMAX_DEPTH) {
		if (t->kind == DWARFX_T_POINTER || t->kind == DWARFX_T_REFERENCE) {
			rg_buf_printf(&tmp, "%s%s", t->kind == DWARFX_T_POINTER ? "*" : "&",
				      decl.s);
		} else if (t->kind == DWARFX_T_ARRAY || t->kind == DWARFX_T_FUNC) {
			bool wrap = decl.s[0] == '*' || decl.s[0] == '&';

			rg_buf_printf(&tmp, wrap ? "(%s)" : "%s", decl.s);
			if (t->kind == DWARFX_T_ARRAY && t->count)
				rg_buf_printf(&tmp, "[%llu]", (unsigned long long)t->count);
			else
				rg_buf_puts(&tmp, t->kind == DWARFX_T_ARRAY ? "[]" : "()");
		} else {
			break;
		}
		rg_buf_release(&decl);
		decl = tmp;
		memset(&tmp, 0, sizeof(tmp));
		t = t->target;
	}
	if (!t)
		cat(buf, len, "void");
	else
		spell_base(t, buf, len);
	if (decl.s[0]) {
		cat(buf, len, " ");
		cat(buf, len, decl.s);
	}
	rg_buf_release(&decl);
	return buf;
}
