/*
 * The address ranges of one source line inside one function instance: what
 * "the thread has got past this line" means (runner/, then_open).
 *
 * A line's code need not be contiguous: a `for` header has its init, test
 * and step in three places, and optimised code interleaves lines.  So every
 * piece of the function instance whose line table row names the same file
 * and line counts; leaving all of them is leaving the line.
 */
#include "dwarfx_int.h"

/* Index of the first row whose address is >= addr. */
static size_t row_lower(const dwarfx *dx, uint64_t addr)
{
	size_t lo = 0, hi = dx->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->rows[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first row at the highest address <= addr (the row governing addr
 * starts there), or nrows when every row is above addr.
 */
static size_t first_at(const dwarfx *dx, uint64_t addr)
{
	size_t i = row_lower(dx, addr);

	if (i < dx->nrows && dx->rows[i].addr == addr)
		return i;
	if (i == 0)
		return dx->nrows;
	i--;
	while (i > 0 && dx->rows[i - 1].addr == dx->rows[i].addr)
		i--;
	return i;
}

/*
 * The row that governs the code from rows[i].addr on: among the rows at that
 * address the last statement row (the innermost, as dwarfx_symbolize), else
 * the last row.  *next is the index of the first row at a higher address.
 */
static const struct dwarfx_row *row_at(const dwarfx *dx, size_t i, size_t *next)
{
	const struct dwarfx_row *best = NULL;
	uint64_t a = dx->rows[i].addr;
	size_t j;

	for (j = i; j < dx->nrows && dx->rows[j].addr == a; j++) {
		if (dx->rows[j].end_seq)
			continue;
		if (dx->rows[j].is_stmt || !best || !best->is_stmt)
			best = &dx->rows[j];
	}
	*next = j;
	return best;
}

static void span_add(dwarfx_span *out, size_t max, size_t *n, uint64_t lo, uint64_t hi)
{
	if (*n && *n <= max && out[*n - 1].hi == lo) {
		out[*n - 1].hi = hi;    /* adjacent pieces: one span */
		return;
	}
	if (*n < max) {
		out[*n].lo = lo;
		out[*n].hi = hi;
	}
	(*n)++;
}

/* The pieces of [lo, hi) governed by file:line, appended to out. */
static void scan(const dwarfx *dx, uint64_t lo, uint64_t hi, uint32_t file,
		 uint32_t line, dwarfx_span *out, size_t max, size_t *n)
{
	size_t i = first_at(dx, lo), next;

	if (i == dx->nrows)
		i = row_lower(dx, lo);
	while (i < dx->nrows && dx->rows[i].addr < hi) {
		const struct dwarfx_row *r = row_at(dx, i, &next);
		uint64_t a = dx->rows[i].addr, b;

		if (next >= dx->nrows)
			break;
		b = dx->rows[next].addr;
		if (a < lo)
			a = lo;
		if (b > hi)
			b = hi;
		if (r && r->file == file && r->line == line && a < b)
			span_add(out, max, n, a, b);
		i = next;
	}
}

size_t dwarfx_line_range(dwarfx *dx, uint64_t addr, dwarfx_span *out, size_t max)
{
	size_t i, next, n = 0;
	const struct dwarfx_row *r;
	uint32_t f, k;

	if (!dx->nrows)
		return 0;
	i = first_at(dx, addr);
	if (i == dx->nrows)
		return 0;
	r = row_at(dx, i, &next);
	if (!r || !r->line)
		return 0;
	f = dwarfx_fn_at(dx, addr);
	if (f == DWARFX_NONE) {
		/* no DWARF function here: the row's own piece only */
		if (next < dx->nrows && dx->rows[next].addr > addr)
			span_add(out, max, &n, dx->rows[i].addr, dx->rows[next].addr);
		return n;
	}
	for (k = 0; k < dx->fns[f].nranges; k++) {
		const struct dwarfx_range *rg = &dx->ranges[dx->fns[f].range0 + k];

		scan(dx, rg->lo, rg->hi, r->file, r->line, out, max, &n);
	}
	return n;
}
