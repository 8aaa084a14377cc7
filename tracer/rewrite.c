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

static void note(tracer *tr, uint64_t addr, enum tracer_rewrite_kind kind)
{
	for (size_t i = 0; i < tr->nrewrites; i++)
		if (tr->rewrites[i].addr == addr)
			return;
	RG_GROW(tr->rewrites, tr->nrewrites + 1, tr->rewrites_cap);
	tr->rewrites[tr->nrewrites++] = (tracer_rewrite){ addr, kind };
}

/*
 * What the program did to b's int3 in as (not a pad's site): REWRITE_NONE
 * when it is as racegate left it (or cannot be read: nothing to say).
 */
static enum tracer_rewrite_kind bp_rewritten(const struct aspace *as, const struct bp *b)
{
	uint8_t now[ARCH_MAX_INSN], prog[ARCH_MAX_INSN];
	size_t len = b->decoded ? b->insn.len : ARCH_BP_LEN;

	if (tracer_mem_pread(as->memfd, b->addr, now, len) != (int)len)
		return TRACER_REWRITE_NONE;
	if (memcmp(now, arch_bp_insn, ARCH_BP_LEN))
		return TRACER_REWRITE_BP;
	/* the rest of the instruction whose copy racegate runs (other
	 * breakpoints shown as the program's bytes) */
	if (len > ARCH_BP_LEN &&
	    (tracer_read_code(as, b->addr, prog, len) != len ||
	     memcmp(prog + ARCH_BP_LEN, b->insn.bytes + ARCH_BP_LEN, len - ARCH_BP_LEN)))
		return TRACER_REWRITE_STALE;
	return TRACER_REWRITE_NONE;
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
	for (size_t i = 0; i < img->nbps; i++) {
		enum tracer_rewrite_kind k;

		if (tracer_pad_find(img, img->bps[i].addr))
			continue;
		if ((k = bp_rewritten(as, &img->bps[i])) != TRACER_REWRITE_NONE)
			note(tr, img->bps[i].addr, k);
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
