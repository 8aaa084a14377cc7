/*
 * Instructions, decoded from the ELF file's bytes (arch.h's decoder):
 *
 *   - locations inside a line or a function ("counter.c:12+2",
 *     "*worker+5"): a race inside one line such as count++ is a load, an
 *     add and a store;
 *   - instruction boundaries.  An int3 written anywhere but at the first
 *     byte of an instruction changes what the program does (the bytes after
 *     it decode as something else, or a mov's operand changes), so every
 *     breakpoint address, however it was found (*0xADDR, a symbol, a line
 *     table row, a DWARF entry), must start an instruction.  Code of
 *     variable-length instructions cannot be decoded backwards: the function holding the address is decoded from
 *     its start (its symbol or its DWARF range), once, and the bytes where
 *     an instruction starts are kept, one bit each.
 */
#include "dwarfx_int.h"
#include "arch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A line or function longer than this is cut here (counted, not gated). */
#define MAX_CODE (1024 * 1024)
/* Functions that may hold one address (nested symbols, DWARF), at most. */
#define MAX_CANDS 16

/*
 * One piece of code decoded from its start, twice: following where
 * execution can go (direct jumps and branches), which steps over data a
 * jump skips, and byte after byte (linear sweep, as objdump), which also
 * reaches code entered only indirectly (a switch's jump table).  Bitmaps
 * have a bit per byte of [lo, lo + size).
 */
struct dwarfx_code {
	uint64_t lo, hi;         /* the function (or its piece): [lo, hi) */
	uint8_t *bytes;          /* its bytes (cut at MAX_CODE) */
	size_t size;
	uint64_t end;            /* the linear sweep stopped here (lo + size: all of it) */
	unsigned char *lstart;   /* the sweep's instructions start here */
	unsigned char *rstart;   /* instructions execution can reach start here */
	unsigned char *rcover;   /* ... and cover these bytes after their first */
};

/* A function that holds an address: where to decode from. */
struct cand {
	uint64_t lo, hi;
	const char *name;        /* for messages, or NULL */
};

/* How far before a symbol's start a size-0 symbol is decoded from. */
#define SYM0_REACH 64

static const struct dwarfx_phdr *exec_phdr(const dwarfx *dx, uint64_t addr)
{
	size_t i;

	for (i = 0; i < dx->nphdrs; i++)
		if (dx->phdrs[i].exec && addr >= dx->phdrs[i].vaddr &&
		    addr - dx->phdrs[i].vaddr < dx->phdrs[i].filesz)
			return &dx->phdrs[i];
	return NULL;
}

/*
 * The file's bytes of [lo, hi), cut at the end of lo's executable segment
 * and at MAX_CODE: *buf (malloc'd) and their number, 0 with *buf NULL when
 * there is no code at lo.  -1 with err set when the file cannot be read.
 */
static ssize_t read_code(const dwarfx *dx, uint64_t lo, uint64_t hi,
			 uint8_t **buf, rg_err *err)
{
	const struct dwarfx_phdr *ph = exec_phdr(dx, lo);
	size_t size;
	ssize_t got;
	int fd;

	*buf = NULL;
	if (!ph)
		return 0;
	if (hi > ph->vaddr + ph->filesz || hi < lo)
		hi = ph->vaddr + ph->filesz;
	size = hi - lo > MAX_CODE ? MAX_CODE : (size_t)(hi - lo);
	if (!size)
		return 0;
	fd = open(dx->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rg_error(err, "cannot open '%s': %s", dx->path, strerror(errno));
	*buf = xmalloc(size);
	got = pread(fd, *buf, size, (off_t)(ph->offset + (lo - ph->vaddr)));
	close(fd);
	if (got != (ssize_t)size) {
		free(*buf);
		*buf = NULL;
		return rg_error(err, "cannot read the code of '%s' at 0x%llx",
				dx->path, (unsigned long long)lo);
	}
	return (ssize_t)size;
}

static arch_decoder *decoder(dwarfx *dx, rg_err *err)
{
	if (!dx->decoder)
		dx->decoder = arch_decoder_new();
	if (!dx->decoder)
		rg_error(err, "cannot start the instruction decoder (capstone)");
	return dx->decoder;
}

int dwarfx_insn_nth(dwarfx *dx, uint64_t lo, uint64_t hi, size_t n,
		    uint64_t *addr, size_t *count, rg_err *err)
{
	arch_decoder *d;
	uint8_t *buf;
	ssize_t size;
	size_t off = 0, len;

	*count = 0;
	if (!exec_phdr(dx, lo))
		return rg_error(err, "0x%llx is not code in '%s'",
				(unsigned long long)lo, dx->path);
	if (hi <= lo)
		return 0;
	if (!(d = decoder(dx, err)))
		return -1;
	size = read_code(dx, lo, hi, &buf, err);
	if (size < 0)
		return -1;
	/* decoding stops at bytes that are no instruction */
	while (off < (size_t)size &&
	       (len = arch_decoder_next(d, buf + off, (size_t)size - off, lo + off,
					 NULL, 0, NULL, NULL))) {
		if (*count == n)
			*addr = lo + off;
		(*count)++;
		off += len;
	}
	free(buf);
	return 0;
}

_Static_assert((int)DWARFX_READS == (int)ARCH_READS && (int)DWARFX_WRITES == (int)ARCH_WRITES,
	       "dwarfx_line_accesses passes arch's access bits on as they are");

int dwarfx_insn_scan(dwarfx *dx, uint64_t lo, uint64_t hi, unsigned char **access,
		     size_t *count, rg_err *err)
{
	arch_decoder *d;
	uint8_t *buf;
	ssize_t size;
	size_t off = 0, len, cap = 0;

	*count = 0;
	*access = NULL;
	if (!exec_phdr(dx, lo))
		return rg_error(err, "0x%llx is not code in '%s'",
				(unsigned long long)lo, dx->path);
	if (hi <= lo)
		return 0;
	if (!(d = decoder(dx, err)))
		return -1;
	size = read_code(dx, lo, hi, &buf, err);
	if (size < 0)
		return -1;
	while (off < (size_t)size &&
	       (len = arch_decoder_next(d, buf + off, (size_t)size - off, lo + off,
					 NULL, 0, NULL, NULL))) {
		RG_GROW(*access, *count + 1, cap);
		(*access)[(*count)++] = (unsigned char)arch_decoded_access(d);
		off += len;
	}
	free(buf);
	return 0;
}

/* ---- instruction boundaries ---- */

static void cand_add(const dwarfx *dx, struct cand *c, size_t *n, uint64_t addr,
		     uint64_t lo, uint64_t hi, const char *name)
{
	const struct dwarfx_phdr *ph = exec_phdr(dx, lo);
	size_t i;

	if (!ph)
		return;
	if (hi > ph->vaddr + ph->filesz || hi <= lo)
		hi = ph->vaddr + ph->filesz;
	if (addr < lo || addr >= hi)
		return;
	for (i = 0; i < *n; i++)
		if (c[i].lo == lo) {
			if (hi > c[i].hi)
				c[i].hi = hi;
			if (!c[i].name)
				c[i].name = name;
			return;
		}
	if (*n == MAX_CANDS) {
		/* keep the lowest starts: decoding from further back sees more */
		size_t worst = 0;

		for (i = 1; i < *n; i++)
			if (c[i].lo > c[worst].lo)
				worst = i;
		if (c[worst].lo < lo)
			return;
		c[worst] = (struct cand){lo, hi, name};
		return;
	}
	c[(*n)++] = (struct cand){lo, hi, name};
}

static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/*
 * The function starts in .eh_frame_hdr's search table (found through
 * PT_GNU_EH_FRAME, as the unwinder finds it): the unwind tables are
 * written apart from the symbol table and DWARF, so they still tell where
 * functions start when those are stripped or corrupt.  Only the layout
 * every toolchain writes (version 1, a table of datarel sdata4 pairs) is
 * read; anything else leaves the list empty.
 */
static void read_fdes(dwarfx *dx)
{
	static const size_t sizes[16] = {8, 0, 2, 4, 8, 0, 0, 0, 0, 0, 2, 4, 8};
	const struct dwarfx_phdr *eh = &dx->ehhdr;
	uint8_t *buf = NULL;
	size_t size, pos, count, i, k;
	ssize_t got = -1;
	int fd;

	dx->fde_read = true;
	size = eh->filesz > MAX_CODE ? MAX_CODE : (size_t)eh->filesz;
	if (size < 4)
		return;
	fd = open(dx->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		buf = xmalloc(size);
		got = pread(fd, buf, size, (off_t)eh->offset);
		close(fd);
	}
	/* version 1; the count absolute (udata/sdata); the table datarel sdata4 */
	if (got != (ssize_t)size || buf[0] != 1 || (buf[2] & 0x70) || buf[3] != 0x3b ||
	    !sizes[buf[1] & 0xf] || !sizes[buf[2] & 0xf] || buf[1] == 0xff) {
		free(buf);
		return;
	}
	pos = 4 + sizes[buf[1] & 0xf];
	if (pos + sizes[buf[2] & 0xf] > size) {
		free(buf);
		return;
	}
	for (count = 0, i = sizes[buf[2] & 0xf]; i-- > 0; )
		count = count << 8 | buf[pos + i];
	pos += sizes[buf[2] & 0xf];
	if (count > (size - pos) / 8)
		count = (size - pos) / 8;
	dx->fde_starts = xcalloc(count ? count : 1, sizeof(uint64_t));
	for (i = k = 0; i < count; i++) {
		int32_t rel;

		memcpy(&rel, buf + pos + 8 * i, 4);
		dx->fde_starts[k++] = eh->vaddr + (uint64_t)(int64_t)rel;
	}
	dx->nfde = k;
	if (k > 1)
		qsort(dx->fde_starts, k, sizeof(uint64_t), u64_cmp);
	free(buf);
}

/* The function .eh_frame_hdr says holds addr: up to the next one's start. */
static void fde_cand(dwarfx *dx, struct cand *c, size_t *n, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!dx->fde_read)
		read_fdes(dx);
	hi = dx->nfde;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->fde_starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo)
		cand_add(dx, c, n, addr, dx->fde_starts[lo - 1],
			 lo < dx->nfde ? dx->fde_starts[lo] : UINT64_MAX, NULL);
}

/*
 * Every function that holds addr: the outermost DWARF subprogram's range,
 * each ELF symbol whose [value, value + size) holds it (a symbol of size 0
 * runs to the next symbol), and the unwind tables' function; lowest start
 * first.
 */
static size_t candidates(dwarfx *dx, uint64_t addr, struct cand *c)
{
	uint32_t f = dwarfx_fn_at(dx, addr);
	size_t n = 0, lo = 0, hi = dx->nsyms, j;
	uint64_t prev;

	fde_cand(dx, c, &n, addr);

	while (f != DWARFX_NONE && dx->fns[f].parent != DWARFX_NONE)
		f = dx->fns[f].parent;
	if (f != DWARFX_NONE)
		for (j = dx->fns[f].range0; j < dx->fns[f].range0 + dx->fns[f].nranges; j++)
			cand_add(dx, c, &n, addr, dx->ranges[j].lo, dx->ranges[j].hi,
				 dwarfx_fn_display(&dx->fns[f]));
	if (!dx->sym_span) {
		dx->sym_span = 1;
		for (j = 0; j < dx->nsyms; j++)
			if (dx->syms[j].size >= dx->sym_span)
				dx->sym_span = dx->syms[j].size + 1;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (dx->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the start of the symbols just before those at addr, when addr is one */
	for (j = lo; j-- > 0 && dx->syms[j].addr == addr; )
		;
	prev = j < lo && lo && dx->syms[lo - 1].addr == addr && dx->syms[j].addr < addr ?
		dx->syms[j].addr : UINT64_MAX;
	/* syms[lo] is the first symbol past addr; look back as far as sizes reach */
	for (j = lo; j-- > 0 && (dx->syms[j].addr == dx->syms[lo - 1].addr ||
				 addr - dx->syms[j].addr < dx->sym_span); ) {
		const struct dwarfx_sym *s = &dx->syms[j];
		uint64_t end = s->addr + s->size;

		if (!s->size) {
			if (s->addr == dx->syms[lo - 1].addr)
				end = lo < dx->nsyms ? dx->syms[lo].addr : UINT64_MAX;
			else if (s->addr == prev && addr - s->addr <= SYM0_REACH)
				/* the size-0 symbol just before a symbol at addr
				 * (crt code before a function): decoded from its
				 * start, it must reach addr at a boundary too, so a
				 * symbol moved into its last instruction is caught */
				end = UINT64_MAX;
			else
				continue;
		}
		if (end < s->addr)
			end = UINT64_MAX;
		cand_add(dx, c, &n, addr, s->addr, end, s->name);
	}
	if (n > 1)
		qsort(c, n, sizeof(*c), cand_cmp);
	return n;
}

#define BIT_SET(b, i) ((b)[(i) / 8] & (1u << ((i) % 8)))
#define BIT_PUT(b, i) ((b)[(i) / 8] |= (unsigned char)(1u << ((i) % 8)))

/* Marks the instructions reachable from code->lo, along direct jumps. */
static void follow(arch_decoder *d, struct dwarfx_code *code)
{
	size_t *todo = xmalloc(sizeof(size_t)), ntodo = 1, cap = 1;

	todo[0] = 0;
	while (ntodo) {
		size_t off = todo[--ntodo], len, k;

		while (off < code->size && !BIT_SET(code->rstart, off)) {
			enum arch_flow flow = ARCH_FLOW_NEXT;
			uint64_t target = 0;

			len = arch_decoder_next(d, code->bytes + off, code->size - off,
						 code->lo + off, NULL, 0, &flow, &target);
			if (!len)
				break;
			BIT_PUT(code->rstart, off);
			for (k = 1; k < len && off + k < code->size; k++)
				BIT_PUT(code->rcover, off + k);
			if ((flow == ARCH_FLOW_JUMP || flow == ARCH_FLOW_BRANCH) &&
			    target >= code->lo && target - code->lo < code->size) {
				RG_GROW(todo, ntodo + 1, cap);
				todo[ntodo++] = (size_t)(target - code->lo);
			}
			if (flow == ARCH_FLOW_JUMP || flow == ARCH_FLOW_STOP)
				break;
			off += len;
		}
	}
	free(todo);
}

/* [c->lo, c->hi) decoded from its start, once; NULL when it cannot be read. */
static const struct dwarfx_code *decoded(dwarfx *dx, const struct cand *c)
{
	struct dwarfx_code *code;
	arch_decoder *d;
	uint8_t *buf;
	ssize_t size;
	size_t i, off = 0, len;

	for (i = 0; i < dx->ncode; i++)
		if (dx->code[i].lo == c->lo && dx->code[i].hi == c->hi)
			return &dx->code[i];
	if (!(d = decoder(dx, NULL)))
		return NULL;
	size = read_code(dx, c->lo, c->hi, &buf, NULL);
	if (size <= 0)
		return NULL;
	RG_GROW(dx->code, dx->ncode + 1, dx->code_cap);
	code = &dx->code[dx->ncode++];
	code->lo = c->lo;
	code->hi = c->hi;
	code->bytes = buf;
	code->size = (size_t)size;
	code->lstart = xcalloc((size_t)size / 8 + 1, 1);
	code->rstart = xcalloc((size_t)size / 8 + 1, 1);
	code->rcover = xcalloc((size_t)size / 8 + 1, 1);
	while (off < (size_t)size &&
	       (len = arch_decoder_next(d, buf + off, (size_t)size - off, c->lo + off,
					 NULL, 0, NULL, NULL))) {
		BIT_PUT(code->lstart, off);
		off += len;
	}
	/* an instruction cut by the end of the bytes read is not decoded either */
	code->end = c->lo + off;
	follow(d, code);
	return code;
}

/*
 * What code says of addr: BOUNDARY; INSIDE with *insn the start of the
 * instruction holding it; UNCHECKED when neither decoding reached it.
 * Reachable instructions first: the sweep is misled by data in the code.
 */
static enum dwarfx_bound code_says(dwarfx *dx, const struct dwarfx_code *code,
				   uint64_t addr, uint64_t *insn)
{
	size_t off = (size_t)(addr - code->lo), p;

	if (addr < code->lo || off >= code->size)
		return DWARFX_UNCHECKED;
	if (BIT_SET(code->rstart, off))
		return DWARFX_BOUNDARY;
	/* the nearest reachable start whose instruction covers off (paths may overlap) */
	for (p = off; BIT_SET(code->rcover, off) && p-- > 0 && off - p < 16; )
		if (BIT_SET(code->rstart, p) &&
		    p + arch_decoder_next(dx->decoder, code->bytes + p, code->size - p,
					   code->lo + p, NULL, 0, NULL, NULL) > off) {
			*insn = code->lo + p;
			return DWARFX_INSIDE;
		}
	if (addr >= code->end)
		return DWARFX_UNCHECKED;
	if (BIT_SET(code->lstart, off))
		return DWARFX_BOUNDARY;
	for (p = off; p > 0 && !BIT_SET(code->lstart, p); p--)
		;
	*insn = code->lo + p;
	return DWARFX_INSIDE;
}

/* at's fields for addr inside the instruction of code at insn. */
static void explain_inside(dwarfx *dx, const struct dwarfx_code *code,
			   uint64_t addr, uint64_t insn, dwarfx_insn_at *at)
{
	size_t off = (size_t)(insn - code->lo), len;
	char text[128] = "?";

	len = arch_decoder_next(dx->decoder, code->bytes + off, code->size - off, insn,
				 text, sizeof(text), NULL, NULL);
	at->insn = insn;
	at->len = (unsigned)len;
	snprintf(at->why, sizeof(at->why), "0x%llx is inside '%s' at 0x%llx "
		 "(%zu byte%s); boundaries: 0x%llx, 0x%llx", (unsigned long long)addr,
		 text, (unsigned long long)insn, len, len == 1 ? "" : "s",
		 (unsigned long long)insn, (unsigned long long)(insn + len));
}

enum dwarfx_bound dwarfx_boundary(dwarfx *dx, uint64_t addr, dwarfx_insn_at *at)
{
	struct cand c[MAX_CANDS];
	size_t n = candidates(dx, addr, c), i;
	/* decoded() may move dx->code: keep values, not a pointer into it */
	uint64_t stopped_lo = 0, stopped_end = 0;
	bool stopped = false;
	enum dwarfx_bound b;
	uint64_t insn = 0;

	memset(at, 0, sizeof(*at));
	/*
	 * The lowest start first: a symbol inside another function's
	 * instruction starts nothing.  Code the decoder does not know (a newer
	 * extension) ends what one start can tell: a later start may still.
	 */
	for (i = 0; i < n; i++) {
		const struct dwarfx_code *code;

		at->from = c[i].lo;
		at->function = c[i].name;
		if (addr == c[i].lo)
			return DWARFX_BOUNDARY;
		if (!(code = decoded(dx, &c[i])))
			continue;
		b = code_says(dx, code, addr, &insn);
		if (b == DWARFX_UNCHECKED) {
			stopped = true;
			stopped_lo = code->lo;
			stopped_end = code->end;
			continue;
		}
		if (b == DWARFX_INSIDE)
			explain_inside(dx, code, addr, insn, at);
		return b;
	}
	at->from = 0;
	at->function = NULL;
	if (stopped)
		snprintf(at->why, sizeof(at->why), "cannot tell whether 0x%llx starts "
			 "an instruction: the code of '%s' from 0x%llx decodes only "
			 "up to 0x%llx", (unsigned long long)addr, dx->path,
			 (unsigned long long)stopped_lo, (unsigned long long)stopped_end);
	else
		snprintf(at->why, sizeof(at->why), "cannot tell whether 0x%llx starts "
			 "an instruction: no function of '%s' holds it (in its "
			 "symbols, debug information or unwind tables)",
			 (unsigned long long)addr, dx->path);
	return DWARFX_UNCHECKED;
}

bool dwarfx_row_usable(dwarfx *dx, uint64_t addr, const char *file, int line)
{
	dwarfx_insn_at at;
	const char *base;
	size_t i;

	if (dwarfx_boundary(dx, addr, &at) == DWARFX_BOUNDARY)
		return true;
	for (i = 0; i < dx->nnoted; i++)
		if (dx->noted[i] == addr)
			return false;
	RG_GROW(dx->noted, dx->nnoted + 1, dx->noted_cap);
	dx->noted[dx->nnoted++] = addr;
	base = file ? strrchr(file, '/') : NULL;
	RG_GROW(dx->notes, dx->nnotes + 1, dx->notes_cap);
	dx->notes[dx->nnotes++] = xasprintf("ignoring the line table row of "
		"'%s:%d' at 0x%llx in '%s' (corrupt debug information?): %s",
		base ? base + 1 : file ? file : "?", line, (unsigned long long)addr,
		dx->path, at.why);
	return false;
}

size_t dwarfx_take_warnings(dwarfx *dx, char ***out)
{
	size_t n = dx->nnotes;

	*out = dx->notes;
	dx->notes = NULL;
	dx->nnotes = dx->notes_cap = 0;
	return n;
}

void dwarfx_insn_release(dwarfx *dx)
{
	size_t i;

	arch_decoder_free(dx->decoder);
	for (i = 0; i < dx->ncode; i++) {
		free(dx->code[i].bytes);
		free(dx->code[i].lstart);
		free(dx->code[i].rstart);
		free(dx->code[i].rcover);
	}
	free(dx->code);
	for (i = 0; i < dx->nnotes; i++)
		free(dx->notes[i]);
	free(dx->notes);
	free(dx->noted);
	free(dx->fde_starts);
	free(dx->entries);
	free(dx->bcands);
}

size_t dwarfx_function_spans(dwarfx *dx, uint64_t addr, dwarfx_span *out, size_t max)
{
	uint32_t f = dwarfx_fn_at(dx, addr);
	struct cand c[MAX_CANDS];
	size_t n = 0, j;

	/* an inlined instance is part of the function it is inlined in */
	while (f != DWARFX_NONE && dx->fns[f].parent != DWARFX_NONE)
		f = dx->fns[f].parent;
	if (f != DWARFX_NONE) {
		if (dx->fns[f].nranges > max)
			return 0;
		for (j = dx->fns[f].range0; j < dx->fns[f].range0 + dx->fns[f].nranges; j++)
			out[n++] = (dwarfx_span){ dx->ranges[j].lo, dx->ranges[j].hi };
		return n;
	}
	/* no debug information: the symbol (or unwind entry) holding it */
	if (!max || !candidates(dx, addr, c))
		return 0;
	out[0] = (dwarfx_span){ c[0].lo, c[0].hi };
	return 1;
}

/* ---- places code may be entered at (dwarfx_entry_within) ---- */

static bool in_xsec(const dwarfx *dx, uint64_t addr)
{
	for (size_t k = 0; k < dx->nxsecs; k++)
		if (addr >= dx->xsecs[k].addr && addr - dx->xsecs[k].addr < dx->xsecs[k].size)
			return true;
	return false;
}

static void bcand_add(void *ctx, uint64_t op, uint64_t target)
{
	dwarfx *dx = ctx;

	/* most bytes that look like a jump are no instruction, and go nowhere */
	if (!in_xsec(dx, target))
		return;
	RG_GROW(dx->bcands, dx->nbcands + 1, dx->bcands_cap);
	dx->bcands[dx->nbcands++] = (struct dwarfx_bcand){ target, op };
}

static int bcand_cmp(const void *pa, const void *pb)
{
	const struct dwarfx_bcand *a = pa, *b = pb;

	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	return a->op < b->op ? -1 : a->op > b->op;
}

/* The labels, and every place that may be a direct jump or call into code
 * (a scan of the bytes of every executable section, not a decoding). */
static int entries_build(dwarfx *dx)
{
	int fd = open(dx->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return DWARFX_ERROR;
	for (size_t k = 0; k < dx->nxsecs; k++) {
		const struct dwarfx_xsec *x = &dx->xsecs[k];
		uint8_t *buf;

		if (x->size > ((size_t)1 << 30))
			continue;
		buf = xmalloc(x->size ? x->size : 1);
		if (pread(fd, buf, x->size, (off_t)x->offset) != (ssize_t)x->size) {
			free(buf);
			close(fd);
			return DWARFX_ERROR;
		}
		arch_branch_scan(buf, x->size, x->addr, bcand_add, dx);
		free(buf);
	}
	close(fd);
	if (dx->nbcands > 1)
		qsort(dx->bcands, dx->nbcands, sizeof(*dx->bcands), bcand_cmp);
	dx->entries = xmalloc((dx->nlabels ? dx->nlabels : 1) * sizeof(*dx->entries));
	memcpy(dx->entries, dx->labels, dx->nlabels * sizeof(*dx->entries));
	dx->nentries = dx->nlabels;
	if (dx->nentries > 1)
		qsort(dx->entries, dx->nentries, sizeof(*dx->entries), u64_cmp);
	return DWARFX_OK;
}

/*
 * Is the candidate at op (its opcode) a direct jump or call to target, an
 * instruction of its function?  It starts at op or at a prefix up to 4
 * bytes before.  True too when no function holds it (nothing says it is
 * not).
 */
static bool bcand_real(dwarfx *dx, uint64_t op, uint64_t target)
{
	bool unknown = false;

	for (uint64_t b = op >= 4 ? op - 4 : 0; b <= op; b++) {
		dwarfx_insn_at at;
		enum dwarfx_bound k = dwarfx_boundary(dx, b, &at);
		uint8_t *buf;
		ssize_t n;

		if (k == DWARFX_UNCHECKED)
			unknown = true;
		if (k != DWARFX_BOUNDARY)
			continue;
		n = read_code(dx, b, b + 16, &buf, NULL);
		if (n > 0) {
			enum arch_flow flow;
			uint64_t t = 0;
			size_t len = arch_decoder_next(dx->decoder, buf, (size_t)n, b, NULL, 0,
							&flow, &t);

			free(buf);
			if (len && b + len > op && t == target)
				return true;
		}
	}
	return unknown;
}

int dwarfx_entry_within(dwarfx *dx, uint64_t lo, uint64_t hi, uint64_t *at)
{
	size_t l = 0, h;
	bool label = false;

	if (!dx->entries_built) {
		dx->entries_status = entries_build(dx);
		dx->entries_built = true;
	}
	if (dx->entries_status != DWARFX_OK)
		return DWARFX_ERROR;
	/* the first label above lo: a jump below it may come first */
	for (h = dx->nentries; l < h;) {
		size_t mid = l + (h - l) / 2;

		if (dx->entries[mid] <= lo)
			l = mid + 1;
		else
			h = mid;
	}
	if (l < dx->nentries && dx->entries[l] < hi) {
		hi = dx->entries[l];
		label = true;
	}
	for (l = 0, h = dx->nbcands; l < h;) {
		size_t mid = l + (h - l) / 2;

		if (dx->bcands[mid].target <= lo)
			l = mid + 1;
		else
			h = mid;
	}
	for (; l < dx->nbcands && dx->bcands[l].target < hi; l++)
		if (bcand_real(dx, dx->bcands[l].op, dx->bcands[l].target)) {
			*at = dx->bcands[l].target;
			return DWARFX_OK;
		}
	if (!label)
		return DWARFX_NO_ENTRY;
	*at = hi;
	return DWARFX_OK;
}
