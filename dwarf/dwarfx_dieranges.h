/*
 * The address ranges of one debugging-information entry (a function, an
 * inlined copy, a lexical block): DW_AT_low_pc/DW_AT_high_pc, or
 * DW_AT_ranges into .debug_rnglists (DWARF 5) or .debug_ranges (DWARF 2-4).
 * One reader, for the index (dwarfx_index.c) and for the scopes of `when:`
 * (dwarfx_vars.c).
 */
#ifndef RACEGATE_DWARFX_DIERANGES_H
#define RACEGATE_DWARFX_DIERANGES_H

#include <stdint.h>

#include <dwarf.h>
#include <libdwarf.h>

/* Called per range [lo, hi) in the order listed; non-zero stops the walk. */
typedef int (*dwarfx_range_fn)(void *arg, uint64_t lo, uint64_t hi);

/*
 * Calls fn for each range of die.  cu_base: the unit's DW_AT_low_pc (the
 * base of DWARF 4 range lists).  A low pc without a high pc is one byte.
 * DW_DLV_OK (no range at all included), or DW_DLV_ERROR with *e set and
 * *what naming what could not be read (the caller deallocates *e).
 */
int dwarfx_die_ranges(Dwarf_Debug dbg, Dwarf_Die die, uint64_t cu_base,
		      dwarfx_range_fn fn, void *arg, Dwarf_Error *e, const char **what);

#endif
