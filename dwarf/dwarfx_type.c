/*
 * Types, for the few questions about them racegate asks: how big is the
 * object a member function's `this` points to (the state std::thread hands
 * its new thread, whose callable sits at its end).  Read from libdwarf on
 * demand: asked once per thread a program starts through std::thread.
 */
#include "dwarfx_int.h"

#include <dwarf.h>
#include <libdwarf.h>

#define MAX_HOPS 16

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

/* The byte size of the type die names, through pointers' targets and qualifiers. */
static uint64_t pointee_size(Dwarf_Debug dbg, Dwarf_Die type)
{
	Dwarf_Unsigned size = 0;
	Dwarf_Error e = NULL;
	unsigned hops;
	bool through_pointer = false;

	for (hops = 0; type && hops < MAX_HOPS; hops++) {
		Dwarf_Half tag = 0;
		Dwarf_Die next = NULL;

		if (dwarf_tag(type, &tag, &e) != DW_DLV_OK)
			break;
		if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type) {
			if (through_pointer &&
			    dwarf_bytesize(type, &size, &e) != DW_DLV_OK)
				size = 0;
			break;
		}
		if (tag == DW_TAG_pointer_type) {
			if (through_pointer)
				break;
			through_pointer = true;
		} else if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
			   tag != DW_TAG_typedef) {
			break;
		}
		if (ref_die(dbg, type, DW_AT_type, &next) <= 0)
			next = NULL;
		dwarf_dealloc_die(type);
		type = next;
	}
	if (e)
		dwarf_dealloc_error(dbg, e);
	if (type)
		dwarf_dealloc_die(type);
	return size;
}

uint64_t dwarfx_this_size(dwarfx *dx, uint64_t addr)
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
		return 0;
	if (dwarf_offdie_b(dbg, dx->fns[f].die, true, &die, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc_error(dbg, e);
		return 0;
	}
	/* the definition, or the declaration in the class, says which is `this` */
	die = follow_to(dbg, die, DW_AT_object_pointer, to_decl, 2);
	if (!die)
		return 0;
	if (ref_die(dbg, die, DW_AT_object_pointer, &param) <= 0)
		param = NULL;
	dwarf_dealloc_die(die);
	/* a concrete copy's parameter names its type through its origin */
	param = follow_to(dbg, param, DW_AT_type, to_param, 1);
	if (!param)
		return 0;
	if (ref_die(dbg, param, DW_AT_type, &type) <= 0)
		type = NULL;
	dwarf_dealloc_die(param);
	return type ? pointee_size(dbg, type) : 0;
}
