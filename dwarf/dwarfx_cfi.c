/*
 * The canonical frame address at an address, from the call frame
 * information: .debug_frame when the object has one for that address, else
 * .eh_frame (which an object has for unwinding, debug info or not).  gcc's
 * frame base is DW_OP_call_frame_cfa, so every -O0 local is "CFA + k": the
 * CFA rule turns it into registers, with no unwinding.  The rule changes
 * inside a function (stack pointer + 8 at the entry, frame pointer + 16
 * after an -O0 prologue), so it is read for the breakpoint's own address.
 */
#include "dwarfx_vint.h"

static void drop(Dwarf_Debug dbg, Dwarf_Error *e)
{
	if (*e)
		dwarf_dealloc_error(dbg, *e);
	*e = NULL;
}

static void read_lists(dwarfx *dx, struct dwarfx_vstate *vs)
{
	Dwarf_Error e = NULL;

	vs->cfi_read = true;
	if (dwarf_get_fde_list(dx->dbg, &vs->df_cie, &vs->df_ncie, &vs->df_fde,
			       &vs->df_nfde, &e) != DW_DLV_OK) {
		drop(dx->dbg, &e);
		vs->df_cie = NULL;
		vs->df_fde = NULL;
		vs->df_ncie = vs->df_nfde = 0;
	}
	if (dwarf_get_fde_list_eh(dx->dbg, &vs->eh_cie, &vs->eh_ncie, &vs->eh_fde,
				  &vs->eh_nfde, &e) != DW_DLV_OK) {
		drop(dx->dbg, &e);
		vs->eh_cie = NULL;
		vs->eh_fde = NULL;
		vs->eh_ncie = vs->eh_nfde = 0;
	}
}

/* The CFA rule of one list at addr: 0 found, 1 unusable, -1 not there. */
static int rule_in(Dwarf_Debug dbg, Dwarf_Fde *fdes, uint64_t addr, dwarfx_op *ops,
		   size_t *nops, const char **why)
{
	Dwarf_Fde fde = NULL;
	Dwarf_Addr lo, hi, row;
	Dwarf_Small vtype = 0;
	Dwarf_Signed relevant = 0, reg = 0, off = 0;
	Dwarf_Ptr block = NULL;
	Dwarf_Bool more = false;
	Dwarf_Addr next = 0;
	Dwarf_Error e = NULL;

	if (!fdes)
		return -1;
	if (dwarf_get_fde_at_pc(fdes, addr, &fde, &lo, &hi, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		return -1;
	}
	if (dwarf_get_fde_info_for_cfa_reg3_b(fde, addr, &vtype, &relevant, &reg, &off,
					      &block, &row, &more, &next, &e) != DW_DLV_OK) {
		drop(dbg, &e);
		*why = "its call frame information is unreadable";
		return 1;
	}
	if (vtype != DW_EXPR_OFFSET || reg < 0 || reg > UINT16_MAX) {
		*why = "its frame address is given by an expression";
		return 1;
	}
	ops[0].code = DWARFX_OP_REG;
	ops[0].reg = (uint16_t)reg;
	ops[0].size = 0;
	ops[0].arg = 0;
	ops[1].code = DWARFX_OP_PLUS_CONST;
	ops[1].reg = 0;
	ops[1].size = 0;
	ops[1].arg = relevant ? off : 0;
	*nops = 2;
	return 0;
}

int dwarfx_cfi_cfa(dwarfx *dx, uint64_t addr, dwarfx_op *ops, size_t *nops,
		   const char **why)
{
	struct dwarfx_vstate *vs = dwarfx_vstate_get(dx);
	int res;

	*nops = 0;
	*why = "no call frame information covers it";
	if (!dx->dbg)
		return 1;
	if (!vs->cfi_read)
		read_lists(dx, vs);
	res = rule_in(dx->dbg, vs->df_fde, addr, ops, nops, why);
	if (res < 0)
		res = rule_in(dx->dbg, vs->eh_fde, addr, ops, nops, why);
	return res < 0 ? 1 : res;
}
