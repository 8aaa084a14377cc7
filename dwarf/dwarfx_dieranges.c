/* The address ranges of a DIE: see dwarfx_dieranges.h. */
#include "dwarfx_dieranges.h"

#include <stddef.h>

static int fail(const char **what, const char *w)
{
	*what = w;
	return DW_DLV_ERROR;
}

/* DWARF 5: an offset into, or an index of, .debug_rnglists. */
static int rnglists(Dwarf_Attribute attr, Dwarf_Half form, dwarfx_range_fn fn,
		    void *arg, Dwarf_Error *e, const char **what)
{
	Dwarf_Rnglists_Head head = NULL;
	Dwarf_Unsigned val, count, global_off, i;
	int res;

	if (form == DW_FORM_rnglistx)
		res = dwarf_formudata(attr, &val, e);
	else
		res = dwarf_global_formref(attr, &val, e);
	if (res == DW_DLV_ERROR)
		return fail(what, "DW_AT_ranges");
	if (res == DW_DLV_NO_ENTRY)
		return DW_DLV_OK;
	res = dwarf_rnglists_get_rle_head(attr, form, val, &head, &count, &global_off, e);
	if (res == DW_DLV_ERROR)
		return fail(what, "range list");
	if (res == DW_DLV_NO_ENTRY)
		return DW_DLV_OK;
	for (i = 0; i < count; i++) {
		unsigned len, code;
		Dwarf_Unsigned raw1, raw2, lo, hi;
		Dwarf_Bool no_addr;

		res = dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &raw1,
							&raw2, &no_addr, &lo, &hi, e);
		if (res == DW_DLV_ERROR) {
			dwarf_dealloc_rnglists_head(head);
			return fail(what, "range list entry");
		}
		if (res == DW_DLV_NO_ENTRY || code == DW_RLE_end_of_list)
			break;
		if (code == DW_RLE_base_address || code == DW_RLE_base_addressx || no_addr)
			continue;
		/* the "cooked" values already have the base address applied */
		if (fn(arg, lo, hi))
			break;
	}
	dwarf_dealloc_rnglists_head(head);
	return DW_DLV_OK;
}

/* DWARF 2-4: an offset into .debug_ranges, relative to the unit's base. */
static int ranges(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Attribute attr, Dwarf_Half form,
		  uint64_t base, dwarfx_range_fn fn, void *arg, Dwarf_Error *e,
		  const char **what)
{
	Dwarf_Ranges *list = NULL;
	Dwarf_Signed n = 0, i;
	Dwarf_Unsigned bytes, off = 0;
	Dwarf_Off realoff, ref;
	int res;

	if (form == DW_FORM_data4 || form == DW_FORM_data8) {
		res = dwarf_formudata(attr, &off, e);
	} else {
		res = dwarf_global_formref(attr, &ref, e);
		off = ref;
	}
	if (res == DW_DLV_ERROR)
		return fail(what, "DW_AT_ranges");
	if (res == DW_DLV_NO_ENTRY)
		return DW_DLV_OK;
	res = dwarf_get_ranges_b(dbg, off, die, &realoff, &list, &n, &bytes, e);
	if (res == DW_DLV_ERROR)
		return fail(what, "range list");
	if (res == DW_DLV_NO_ENTRY)
		return DW_DLV_OK;
	for (i = 0; i < n; i++) {
		if (list[i].dwr_type == DW_RANGES_END)
			break;
		if (list[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = list[i].dwr_addr2;
		else if (fn(arg, base + list[i].dwr_addr1, base + list[i].dwr_addr2))
			break;
	}
	dwarf_ranges_dealloc(dbg, list, n);
	return DW_DLV_OK;
}

int dwarfx_die_ranges(Dwarf_Debug dbg, Dwarf_Die die, uint64_t cu_base,
		      dwarfx_range_fn fn, void *arg, Dwarf_Error *e, const char **what)
{
	Dwarf_Attribute attr;
	Dwarf_Addr lo, hv;
	Dwarf_Half form, version = 0, offsize = 0;
	enum Dwarf_Form_Class cls;
	int res;

	res = dwarf_lowpc(die, &lo, e);
	if (res == DW_DLV_ERROR)
		return fail(what, "DW_AT_low_pc");
	if (res == DW_DLV_OK) {
		res = dwarf_highpc_b(die, &hv, &form, &cls, e);
		if (res == DW_DLV_ERROR)
			return fail(what, "DW_AT_high_pc");
		if (res == DW_DLV_NO_ENTRY)
			fn(arg, lo, lo + 1);
		else
			fn(arg, lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hv : hv);
		return DW_DLV_OK;
	}
	res = dwarf_attr(die, DW_AT_ranges, &attr, e);
	if (res == DW_DLV_ERROR)
		return fail(what, "DW_AT_ranges");
	if (res == DW_DLV_NO_ENTRY)
		return DW_DLV_OK;
	if (dwarf_whatform(attr, &form, e) != DW_DLV_OK ||
	    dwarf_get_version_of_die(die, &version, &offsize) != DW_DLV_OK) {
		dwarf_dealloc_attribute(attr);
		return fail(what, "DW_AT_ranges");
	}
	if (version >= 5)
		res = rnglists(attr, form, fn, arg, e, what);
	else
		res = ranges(dbg, die, attr, form, cu_base, fn, arg, e, what);
	dwarf_dealloc_attribute(attr);
	return res;
}
