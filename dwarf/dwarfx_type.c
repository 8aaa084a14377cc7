/*
 * Types, for the few questions about them racegate asks: where a member
 * lies in the object a member function's `this` points to (the callable in
 * the state std::thread hands its new thread).  Read from libdwarf on
 * demand: asked once per thread a program starts through std::thread.
 */
#include "dwarfx_int.h"

#include <dwarf.h>
#include <libdwarf.h>
#include <string.h>

#define MAX_HOPS 16

static void drop_error(Dwarf_Debug dbg, Dwarf_Error *e)
{
	if (*e)
		dwarf_dealloc_error(dbg, *e);
	*e = NULL;
}

/* The DIE that attribute at of die refers to: 1, 0 when none, -1 on error. */
static int ref_die(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, Dwarf_Die *out)
{
	Dwarf_Attribute attr;
	Dwarf_Error e = NULL;
	Dwarf_Off off;
	int res;

	*out = NULL;
	res = dwarf_attr(die, at, &attr, &e);
	if (res == DW_DLV_OK) {
		res = dwarf_global_formref(attr, &off, &e);
		dwarf_dealloc_attribute(attr);
		if (res == DW_DLV_OK)
			res = dwarf_offdie_b(dbg, off, true, out, &e);
	}
	if (res == DW_DLV_ERROR) {
		if (e)
			dwarf_dealloc_error(dbg, e);
		return -1;
	}
	return res == DW_DLV_OK;
}

/*
 * Follows die's first attribute among ats that refers somewhere, hops
 * times at most, until a DIE has attribute want itself.  Takes die (frees
 * it when moving on); returns that DIE, or NULL.
 */
static Dwarf_Die follow_to(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half want,
			   const Dwarf_Half *ats, size_t nats)
{
	unsigned hops;

	for (hops = 0; die && hops < MAX_HOPS; hops++) {
		Dwarf_Bool has = false;
		Dwarf_Error e = NULL;
		Dwarf_Die next = NULL;
		size_t i;

		if (dwarf_hasattr(die, want, &has, &e) == DW_DLV_ERROR) {
			dwarf_dealloc_error(dbg, e);
			has = false;
		}
		if (has)
			return die;
		for (i = 0; i < nats && !next; i++)
			if (ref_die(dbg, die, ats[i], &next) < 0)
				next = NULL;
		dwarf_dealloc_die(die);
		die = next;
	}
	if (die)
		dwarf_dealloc_die(die);
	return NULL;
}

/* type with typedefs and const/volatile taken off (takes type; NULL when none). */
static Dwarf_Die strip_type(Dwarf_Debug dbg, Dwarf_Die type, bool through_pointer)
{
	unsigned hops;

	for (hops = 0; type && hops < MAX_HOPS; hops++) {
		Dwarf_Half tag = 0;
		Dwarf_Error e = NULL;
		Dwarf_Die next = NULL;

		if (dwarf_tag(type, &tag, &e) != DW_DLV_OK) {
			if (e)
				dwarf_dealloc_error(dbg, e);
			break;
		}
		if (tag == DW_TAG_pointer_type && through_pointer)
			through_pointer = false;
		else if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
			 tag != DW_TAG_typedef)
			return through_pointer ? (dwarf_dealloc_die(type), NULL) : type;
		if (ref_die(dbg, type, DW_AT_type, &next) <= 0)
			next = NULL;
		dwarf_dealloc_die(type);
		type = next;
	}
	if (type)
		dwarf_dealloc_die(type);
	return NULL;
}

/* The class a member function's `this` points to, or NULL. */
static Dwarf_Die this_class(dwarfx *dx, uint64_t addr)
{
	static const Dwarf_Half to_decl[] = {DW_AT_abstract_origin, DW_AT_specification};
	static const Dwarf_Half to_param[] = {DW_AT_abstract_origin};
	Dwarf_Debug dbg = dx->dbg;
	uint32_t f = dwarfx_fn_at(dx, addr);
	Dwarf_Die die = NULL, param = NULL, type = NULL;
	Dwarf_Error e = NULL;

	while (f != DWARFX_NONE && dx->fns[f].parent != DWARFX_NONE)
		f = dx->fns[f].parent;
	if (!dbg || f == DWARFX_NONE || dx->fns[f].entry != addr)
		return NULL;
	if (dwarf_offdie_b(dbg, dx->fns[f].die, true, &die, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc_error(dbg, e);
		return NULL;
	}
	/* the definition, or the declaration in the class, says which is `this` */
	die = follow_to(dbg, die, DW_AT_object_pointer, to_decl, 2);
	if (!die)
		return NULL;
	if (ref_die(dbg, die, DW_AT_object_pointer, &param) <= 0)
		param = NULL;
	dwarf_dealloc_die(die);
	/* a concrete copy's parameter names its type through its origin */
	param = follow_to(dbg, param, DW_AT_type, to_param, 1);
	if (!param)
		return NULL;
	if (ref_die(dbg, param, DW_AT_type, &type) <= 0)
		type = NULL;
	dwarf_dealloc_die(param);
	return strip_type(dbg, type, true);
}

/*
 * Does child, a member or a base class, answer to step: a member by its
 * name, a base class by the start of its type's name?  Its type in *type.
 */
static bool step_matches(Dwarf_Debug dbg, Dwarf_Die child, Dwarf_Half tag,
			 const char *step, Dwarf_Die *type)
{
	Dwarf_Error e = NULL;
	char *name = NULL;
	bool ok;

	*type = NULL;
	if (ref_die(dbg, child, DW_AT_type, type) <= 0)
		return false;
	*type = strip_type(dbg, *type, false);
	if (!*type)
		return false;
	if (dwarf_diename(tag == DW_TAG_member ? child : *type, &name, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc_error(dbg, e);
		name = NULL;
	}
	ok = name && (tag == DW_TAG_member ? !strcmp(name, step) :
		      !strncmp(name, step, strlen(step)));
	if (!ok) {
		dwarf_dealloc_die(*type);
		*type = NULL;
	}
	return ok;
}

/*
 * A data member location that is a constant.  Some libdwarf versions read
 * DWARF 5's DW_FORM_implicit_const (gcc's form for a base at offset 0)
 * only as signed data.
 */
static int member_location(Dwarf_Debug dbg, Dwarf_Attribute attr, Dwarf_Unsigned *loc)
{
	Dwarf_Error e = NULL;
	Dwarf_Signed sv;
	int r = dwarf_formudata(attr, loc, &e);

	if (r == DW_DLV_OK)
		return r;
	drop_error(dbg, &e);
	r = dwarf_formsdata(attr, &sv, &e);
	drop_error(dbg, &e);
	if (r == DW_DLV_OK && sv < 0)
		r = DW_DLV_ERROR;
	*loc = r == DW_DLV_OK ? (Dwarf_Unsigned)sv : 0;
	return r == DW_DLV_OK ? r : DW_DLV_ERROR;
}

/* The member or base of cls that step names: its offset, and its type (or NULL). */
static Dwarf_Die member_step(Dwarf_Debug dbg, Dwarf_Die cls, const char *step,
			     uint64_t *off)
{
	Dwarf_Die child = NULL, type = NULL;
	Dwarf_Error e = NULL;
	int res = dwarf_child(cls, &child, &e);

	while (res == DW_DLV_OK) {
		Dwarf_Die next = NULL;
		Dwarf_Half tag = 0;
		Dwarf_Attribute attr;
		Dwarf_Unsigned loc;

		if (dwarf_tag(child, &tag, &e) == DW_DLV_OK &&
		    (tag == DW_TAG_member || tag == DW_TAG_inheritance) &&
		    step_matches(dbg, child, tag, step, &type)) {
			/* none: at the start (a union's members) */
			int r = dwarf_attr(child, DW_AT_data_member_location, &attr, &e);

			loc = 0;
			if (r == DW_DLV_OK) {
				/* a constant; DWARF 2's location expressions are not read */
				r = member_location(dbg, attr, &loc);
				dwarf_dealloc_attribute(attr);
			}
			dwarf_dealloc_die(child);
			drop_error(dbg, &e);
			if (r == DW_DLV_ERROR) {
				dwarf_dealloc_die(type);
				return NULL;
			}
			*off += loc;
			return type;
		}
		drop_error(dbg, &e);
		res = dwarf_siblingof_b(dbg, child, true, &next, &e);
		dwarf_dealloc_die(child);
		child = next;
	}
	drop_error(dbg, &e);
	return NULL;
}

int dwarfx_this_member(dwarfx *dx, uint64_t addr, const char *const *path,
		       size_t n, uint64_t *off)
{
	Dwarf_Die cls = this_class(dx, addr);
	size_t i;

	*off = 0;
	for (i = 0; i < n && cls; i++) {
		Dwarf_Die next = member_step(dx->dbg, cls, path[i], off);

		dwarf_dealloc_die(cls);
		cls = next;
	}
	if (!cls)
		return -1;
	dwarf_dealloc_die(cls);
	return 0;
}
