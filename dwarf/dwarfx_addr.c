/*
 * dwarfx's answers by address (which row, function, symbol is at an
 * address) and by symbol name, over the sorted arrays dwarfx_index.c
 * builds: binary searches, no allocation.
 */
#include "dwarfx_int.h"

#include <string.h>

bool dwarfx_in_exec(const dwarfx *dx, uint64_t addr)
{
	size_t i;

	for (i = 0; i < dx->nphdrs; i++)
		if (dx->phdrs[i].exec && addr >= dx->phdrs[i].vaddr &&
		    addr - dx->phdrs[i].vaddr < dx->phdrs[i].memsz)
			return true;
	return false;
}

/* ---- lookups by address ---- */

/* Index of the last row at or below addr, or -1. */
ptrdiff_t dwarfx_row_floor(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

/*
 * The row that describes addr, or NULL outside every sequence.  Optimised
 * code puts several rows at one address (a call line, then the inlined
 * callee's lines); the last statement row there is the innermost one.
 */
const struct dwarfx_row *dwarfx_row_for(const dwarfx *dx, uint64_t addr)
{
	ptrdiff_t i = dwarfx_row_floor(dx, addr), j;
	const struct dwarfx_row *r;

	if (i < 0 || dx->rows[i].end_seq)
		return NULL;
	r = &dx->rows[i];
	for (j = i; j >= 0 && dx->rows[j].addr == r->addr && !dx->rows[j].end_seq; j--)
		if (dx->rows[j].is_stmt)
			return &dx->rows[j];
	return r;
}

uint32_t dwarfx_fn_at(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nsegs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->segs[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= dx->segs[lo - 1].hi)
		return DWARFX_NONE;
	return dx->segs[lo - 1].fn;
}

/*
 * The instance a line row belongs to.  At an inlined copy's entry address
 * the rows before its entry view are the caller's (the line of the call):
 * "first.c:25" there is a breakpoint in the caller, not a second instance.
 */
uint32_t dwarfx_row_fn(const dwarfx *dx, const struct dwarfx_row *r)
{
	uint32_t f = dwarfx_fn_at(dx, r->addr);

	while (f != DWARFX_NONE && dx->fns[f].inlined &&
	       dx->fns[f].entry == r->addr && r->view < dx->fns[f].entry_view)
		f = dx->fns[f].parent;
	return f;
}

uint32_t dwarfx_fn_for_line(const dwarfx *dx, uint64_t addr, const char *file, int line)
{
	size_t lo = 0, hi = dx->nrows;

	if (!file || line <= 0)
		return dwarfx_fn_at(dx, addr);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->rows[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < dx->nrows && dx->rows[lo].addr == addr; lo++) {
		const struct dwarfx_row *r = &dx->rows[lo];

		if (!r->end_seq && r->line == (uint32_t)line &&
		    !strcmp(dx->files[r->file].path, file))
			return dwarfx_row_fn(dx, r);
	}
	return dwarfx_fn_at(dx, addr);
}

const struct dwarfx_sym *dwarfx_sym_at(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nsyms, g, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* aliases at one address, the preferred name first */
	for (g = lo - 1; g > 0 && dx->syms[g - 1].addr == dx->syms[lo - 1].addr; g--)
		;
	for (k = g; k < lo; k++) {
		uint64_t size = dx->syms[k].size ? dx->syms[k].size : 1;

		if (addr - dx->syms[k].addr < size)
			return &dx->syms[k];
	}
	return NULL;
}

const char *dwarfx_symbol_at(dwarfx *dx, uint64_t addr)
{
	const struct dwarfx_sym *s = dwarfx_sym_at(dx, addr);

	return s ? s->name : NULL;
}

const char *dwarfx_function_at(const dwarfx *dx, uint64_t addr)
{
	uint32_t f = dwarfx_fn_at(dx, addr);
	const struct dwarfx_sym *s;

	if (f != DWARFX_NONE && dx->fns[f].name)
		return dwarfx_fn_display(&dx->fns[f]);
	s = dwarfx_sym_at(dx, addr);
	return s ? s->name : NULL;
}

const char *dwarfx_caller_at(dwarfx *dx, uint64_t addr)
{
	uint32_t f = dwarfx_fn_at(dx, addr);
	const struct dwarfx_sym *s;

	while (f != DWARFX_NONE && dx->fns[f].inlined)
		f = dx->fns[f].parent;
	if (f != DWARFX_NONE && dx->fns[f].name)
		return dwarfx_fn_display(&dx->fns[f]);
	s = dwarfx_sym_at(dx, addr);
	return s ? s->name : NULL;
}

int dwarfx_symbolize(dwarfx *dx, uint64_t addr, dwarfx_loc *out)
{
	const struct dwarfx_row *r = dwarfx_row_for(dx, addr);

	out->addr = addr;
	out->file = r ? dx->files[r->file].path : NULL;
	out->line = r ? (int)r->line : 0;
	out->function = dwarfx_function_at(dx, addr);
	out->inlined = false;
	return out->function ? 0 : -1;
}

/* ---- lookups by name ---- */

/* First index in sym_byname whose name is >= name. */
size_t dwarfx_sym_lower_bound(const dwarfx *dx, const char *name)
{
	size_t lo = 0, hi = dx->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(dx->syms[dx->sym_byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t dwarfx_symbol_addrs(dwarfx *dx, const char *name, uint64_t *addrs,
			   size_t max)
{
	size_t i, n = 0;
	uint64_t last = 0;

	for (i = dwarfx_sym_lower_bound(dx, name); i < dx->nsyms; i++) {
		const struct dwarfx_sym *s = &dx->syms[dx->sym_byname[i]];

		if (strcmp(s->name, name))
			break;
		/* an ifunc's address is its resolver, never the function */
		if (s->ifunc || (n && s->addr == last))
			continue;
		if (n < max)
			addrs[n] = s->addr;
		last = s->addr;
		n++;
	}
	return n;
}
