/*
 * Code the program rewrites where racegate patched it: a program that
 * changes its own instructions at a gated line (a hot patch, a runtime
 * switch between two versions of a function, a JIT reusing its buffer).
 * racegate's int3 there, or a pad's jump, is written over (the gate no
 * longer sees the line; a jump written over in part is garbage the program
 * faults on), or the instruction behind an int3 changes after racegate
 * made the copy it runs in the int3's place (the copy is stale).  A
 * debugger's breakpoint has the same problem (gdb also runs its own copy).
 * racegate cannot see the program's writes as they happen; it sees their
 * result when it reads the bytes back: at a fault the program takes (the
 * likely outcome), and before it puts a site's bytes back (a breakpoint
 * disarmed, let go), where it then leaves the program's own bytes.
 */
#include "tracer_priv.h"

#include <errno.h>
#include <string.h>

#define CHECK_SPAN 4096     /* bytes tracer_rewrites_check reads at once */

static void note(tracer *tr, uint64_t addr, enum tracer_rewrite_kind kind)
{
	for (size_t i = 0; i < tr->nrewrites; i++)
		if (tr->rewrites[i].addr == addr)
			return;
	RG_GROW(tr->rewrites, tr->nrewrites + 1, tr->rewrites_cap);
	tr->rewrites[tr->nrewrites++] = (tracer_rewrite){ addr, kind };
}

/* The bytes of b's instruction racegate looks at: its copy's length. */
static size_t bp_len(const struct bp *b)
{
	return b->decoded ? b->insn.len : ARCH_BP_LEN;
}

/* What the program did to b's int3, from now: its bp_len bytes in
 * memory as they are. */
static enum tracer_rewrite_kind rewritten_from(const struct image *img, const struct bp *b,
					       const uint8_t *now)
{
	uint8_t prog[ARCH_MAX_INSN];
	size_t len = bp_len(b);

	if (memcmp(now, arch_bp_insn, ARCH_BP_LEN))
		return TRACER_REWRITE_BP;
	if (len <= ARCH_BP_LEN)
		return TRACER_REWRITE_NONE;
	/* the rest of the instruction whose copy racegate runs (other
	 * breakpoints shown as the program's bytes) */
	memcpy(prog, now, len);
	tracer_show_orig(img, b->addr, prog, len);
	return memcmp(prog + ARCH_BP_LEN, b->insn.bytes + ARCH_BP_LEN, len - ARCH_BP_LEN) ?
		TRACER_REWRITE_STALE : TRACER_REWRITE_NONE;
}

/*
 * What the program did to b's int3 in as (not a pad's site): REWRITE_NONE
 * when it is as racegate left it (or cannot be read: nothing to say).
 */
static enum tracer_rewrite_kind bp_rewritten(const struct aspace *as, const struct bp *b)
{
	uint8_t now[ARCH_MAX_INSN];
	size_t len = bp_len(b);

	if (tracer_mem_pread(as->memfd, b->addr, now, len) != (int)len)
		return TRACER_REWRITE_NONE;
	return rewritten_from(as->img, b, now);
}

bool tracer_pad_rewritten(const struct pad *p, int fd)
{
	uint8_t now[ARCH_JMP_LEN], jmp[ARCH_JMP_LEN];

	arch_jump(jmp, p->site, p->code);
	return tracer_mem_pread(fd, p->site, now, ARCH_JMP_LEN) == ARCH_JMP_LEN &&
	       memcmp(now, jmp, ARCH_JMP_LEN) != 0;
}

void tracer_pad_note_rewrite(tracer *tr, uint64_t site)
{
	note(tr, site, TRACER_REWRITE_PAD);
}

void tracer_rewrites_check(tracer *tr)
{
	struct aspace *as = TRACER_MAIN_AS(tr);
	const struct image *img = as->img;

	for (size_t i = 0; i < img->npads; i++)
		if (img->pads[i].site && tracer_pad_rewritten(&img->pads[i], as->memfd))
			note(tr, img->pads[i].site, TRACER_REWRITE_PAD);
	/* the breakpoints (sorted by address) read a page's span at a time:
	 * this runs at every program's end */
	for (size_t i = 0, j; i < img->nbps; i = j) {
		uint8_t buf[CHECK_SPAN + ARCH_MAX_INSN];
		const uint64_t lo = img->bps[i].addr;
		int n;

		for (j = i + 1; j < img->nbps && img->bps[j].addr + bp_len(&img->bps[j]) - lo <=
			       sizeof(buf); j++)
			;
		n = tracer_mem_pread(as->memfd, lo, buf,
				     img->bps[j - 1].addr + bp_len(&img->bps[j - 1]) - lo);
		for (size_t k = i; k < j; k++) {
			const struct bp *b = &img->bps[k];
			enum tracer_rewrite_kind why;

			if (tracer_pad_find(img, b->addr))
				continue;
			/* past what was read (an unmapped gap in the span): alone */
			why = n > 0 && b->addr + bp_len(b) - lo <= (uint64_t)n ?
				rewritten_from(img, b, buf + (b->addr - lo)) : bp_rewritten(as, b);
			if (why != TRACER_REWRITE_NONE)
				note(tr, b->addr, why);
		}
	}
}

size_t tracer_rewrites(const tracer *tr, const tracer_rewrite **out)
{
	*out = tr->rewrites;
	return tr->nrewrites;
}

int tracer_bp_put_back(tracer *tr, struct aspace *as, int fd, const struct bp *b,
		       rg_err *err)
{
	enum tracer_rewrite_kind k = fd == as->memfd ? bp_rewritten(as, b)
						     : TRACER_REWRITE_NONE;
	uint8_t now;

	if (k != TRACER_REWRITE_NONE && as == TRACER_MAIN_AS(tr))
		note(tr, b->addr, k);
	/* the program wrote its own byte there: it stays */
	if (tracer_mem_pread(fd, b->addr, &now, 1) == 1 && now != arch_bp_insn[0])
		return 0;
	if (tracer_mem_pwrite(fd, b->addr, &b->orig, 1) < 0)
		return rg_error(err, "cannot remove the breakpoint at 0x%llx: %s",
				(unsigned long long)b->addr, strerror(errno));
	return 0;
}
