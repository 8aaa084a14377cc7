/*
 * x86-64's jump pads (arch.h has the contract and the table's layout,
 * tracer/pad.c the rest): the jmp rel32 over a gated instruction, the pad's
 * code, and the instructions it moves there.
 */
#include "emit.h"

#include <sys/auxv.h>

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

/*
 * The pad reads the thread pointer with rdfsbase: one instruction, no
 * memory access, and 0 (never a key) for a thread that has none, where
 * `mov %fs:0` would fault.  The kernel enables it for user space (5.9 on)
 * and says so in AT_HWCAP2; racegate runs on the machine and kernel the
 * program runs on.
 */
bool arch_pad_supported(const char **why)
{
	if (!(getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE)) {
		*why = "the cpu or kernel lacks fsgsbase";
		return false;
	}
	return true;
}

/* ---- moving a site's instructions into its pad ---- */

enum pad_kind { K_NEVER, K_PLAIN, K_JCC, K_JMP, K_CALL, K_CALL_IND, K_JMP_IND, K_RET };

/* Where the opcode starts: past the legacy prefixes and a REX; *opsize
 * when one of them is the operand-size prefix. */
static size_t opcode_off(const struct arch_insn *in, bool *opsize)
{
	size_t i = 0;

	*opsize = false;
	for (; i < in->len; i++) {
		switch (in->bytes[i]) {
		case 0x66:
			*opsize = true;
			/* fall through */
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
		case 0x67: case 0xf0: case 0xf2: case 0xf3:
			continue;
		}
		break;
	}
	if (i < in->len && (in->bytes[i] & 0xf0) == 0x40)
		i++;
	return i;
}

/* What a pad must do with in (a jcc's condition in *cc, the opcode at *op). */
static enum pad_kind pad_kind(const struct arch_insn *in, uint8_t *cc, size_t *op)
{
	bool opsize;
	size_t o = opcode_off(in, &opsize);
	uint8_t b = o < in->len ? in->bytes[o] : 0, b1 = o + 1 < in->len ? in->bytes[o + 1] : 0;

	*op = o;
	if (!(in->flags & ARCH_INSN_FLOWS))
		return K_PLAIN;
	/* a 16-bit branch, a system call, an interrupt, loop, jrcxz: never */
	if (opsize || (in->flags & ARCH_INSN_SYSCALL) || o + 1 > in->len)
		return K_NEVER;
	if (b >= 0x70 && b <= 0x7f) {
		*cc = b & 0x0f;
		return K_JCC;
	}
	if (b == 0x0f && b1 >= 0x80 && b1 <= 0x8f) {
		*cc = b1 & 0x0f;
		return K_JCC;
	}
	if (b == 0xe9 || b == 0xeb)
		return K_JMP;
	if (b == 0xe8)
		return K_CALL;
	if (b == 0xc3 || b == 0xc2)
		return K_RET;
	/* ff /2 and ff /4: near call and jump through a register or memory
	 * (not one addressed from the stack pointer, which the call's push
	 * moves) */
	if (b == 0xff && ((b1 >> 3) & 7) == 2 && !(in->flags & ARCH_INSN_SP_MEM))
		return K_CALL_IND;
	if (b == 0xff && ((b1 >> 3) & 7) == 4)
		return K_JMP_IND;
	return K_NEVER;
}

int arch_pad_movable(const struct arch_insn *insn, const char **why)
{
	uint8_t cc;
	size_t op;

	switch (pad_kind(insn, &cc, &op)) {
	case K_PLAIN:
	case K_JCC:
		return ARCH_PAD_MOVES;
	case K_NEVER:
		*why = "an instruction in its first 5 bytes cannot run elsewhere "
		       "(system call, interrupt, loop, 16-bit jump)";
		return ARCH_PAD_NEVER;
	default:
		return ARCH_PAD_ENDS;
	}
}

/*
 * insn, from orig, at e's place in the pad: the same effect and the same
 * destination (false, err set, when a displacement does not reach).  A jump or jcc gets a 32-bit displacement to its target; a
 * call becomes the push of orig's return address (lea/mov/mov: no flags
 * touched, and what a signal handler finds below the stack pointer is
 * already the return address's place) and a jump, so the callee returns
 * to the program's own code behind the call, and unwinders see the call
 * where the program made it.
 */
static bool pad_relocate(struct emit *e, const struct arch_insn *insn, uint64_t orig,
			 rg_err *err)
{
	uint64_t ret = orig + insn->len;
	uint8_t cc = 0;
	size_t op;
	enum pad_kind k = pad_kind(insn, &cc, &op);

	RG_ASSERT(k != K_NEVER);
	if (k == K_CALL || k == K_CALL_IND) {
		uint32_t lo = (uint32_t)ret, hi = (uint32_t)(ret >> 32);

		put(e, (const uint8_t[]){ 0x48, 0x8d, 0x64, 0x24, 0xf8 }, 5);
		put(e, (const uint8_t[]){ 0xc7, 0x04, 0x24 }, 3);
		put(e, (const uint8_t *)&lo, 4);
		put(e, (const uint8_t[]){ 0xc7, 0x44, 0x24, 0x04 }, 4);
		put(e, (const uint8_t *)&hi, 4);
	}
	switch (k) {
	case K_JCC:
	case K_JMP:
	case K_CALL:
		if (k == K_JCC)
			put(e, (const uint8_t[]){ 0x0f, (uint8_t)(0x80 | cc) }, 2);
		else
			put(e, (const uint8_t[]){ 0xe9 }, 1);
		if (put_rel32(e, insn->target, 0))
			return true;
		rg_error(err, "cannot run '%s' at 0x%llx from a pad at 0x%llx: its target "
			 "is more than 2 GiB away", insn->text, (unsigned long long)orig,
			 (unsigned long long)e->at);
		return false;
	default:
		/* as it is, its RIP-relative operand moved; a call through a
		 * register or memory becomes the jump through it (ff /2 -> /4) */
		if (arch_relocate(insn, orig, e->at + e->n, e->out + e->n, err) < 0)
			return false;
		if (k == K_CALL_IND)
			e->out[e->n + op + 1] = (uint8_t)((e->out[e->n + op + 1] & ~0x38) | (4 << 3));
		e->n += insn->len;
		return true;
	}
}

/* pop %rdx; pop %rcx; pop %rax; popfq; lea 128(%rsp),%rsp */
static const uint8_t pad_restore[] = {
	0x5a, 0x59, 0x58, 0x9d, 0x48, 0x8d, 0xa4, 0x24, 0x80, 0x00, 0x00, 0x00,
};

/*
 * The pad (see tracer_int.h for its table):
 *
 *        lea -128(%rsp),%rsp       the red zone is the function's
 *        pushfq; push %rax; push %rcx; push %rdx
 *        cmpb $0,table(%rip); jne pass
 *        rdfsbase %rax
 *        movabs $slots,%rcx        its own table's, or those it shares
 *  scan: cmpb $0,24(%rcx); je trap
 *        cmpb $1,24(%rcx); jne next
 *        cmp (%rcx),%rax; je found
 *  next: add $48,%rcx; jmp scan
 * found: cmp 16(%rcx),%rsp; jb trap; cmp 32(%rcx),%rsp; jae trap
 *        cmpb $0,25(%rcx); jne trap
 *        mov 8(%rcx),%rax
 * again: test %rax,%rax; je trap
 *        lea -1(%rax),%rdx
 *        cmpxchg %rdx,8(%rcx); jne again
 *  pass: restore; the instruction; jmp site+len
 *  trap: restore; int3; jmp to the instruction
 *
 * The pass is taken with one compare-and-swap: a signal handler that runs
 * the same pad in between (its own pass, or a trap after which the tracer
 * writes a new count) makes it fail and the pass is decided again, so
 * every pass is counted once and only against the count that allows it.
 */
int arch_pad_encode(struct arch_pad *p, uint8_t *out, rg_err *err)
{
	static const uint8_t prologue[] = {
		0x48, 0x8d, 0x64, 0x24, 0x80, 0x9c, 0x50, 0x51, 0x52,
	};
	static const uint8_t rdfsbase_rax[] = { 0xf3, 0x48, 0x0f, 0xae, 0xc0 };
	struct emit e = { out, 0, p->at };
	size_t j_off_pass, scan, j_end, j_next, j_found, next, found, j_force;
	size_t again, j_zero, j_again, pass, trap, j_back, reloc, j_lo, j_hi;
	bool ok = true;

	memset(out, 0xcc, PAD_CODE_MAX);
	put(&e, prologue, sizeof(prologue));
	put(&e, (const uint8_t[]){ 0x80, 0x3d }, 2);      /* cmpb $0,table(%rip) */
	ok &= put_rel32(&e, p->table, 1);
	put(&e, (const uint8_t[]){ 0x00 }, 1);
	j_off_pass = put_j32(&e, (const uint8_t[]){ 0x0f, 0x85 }, 2);
	put(&e, rdfsbase_rax, sizeof(rdfsbase_rax));
	{
		/* movabs $slots,%rcx: shared slots may lie anywhere */
		uint64_t slots = p->slots ? p->slots : p->table + PAD_SLOT0;

		put(&e, (const uint8_t[]){ 0x48, 0xb9 }, 2);
		put(&e, (const uint8_t *)&slots, 8);
	}
	scan = e.n;
	put(&e, (const uint8_t[]){ 0x80, 0x79, PAD_STATE_OFF, 0x00 }, 4);
	j_end = put_j32(&e, (const uint8_t[]){ 0x0f, 0x84 }, 2);
	put(&e, (const uint8_t[]){ 0x80, 0x79, PAD_STATE_OFF, 0x01, 0x75, 0 }, 6);
	j_next = e.n - 1;
	put(&e, (const uint8_t[]){ 0x48, 0x3b, 0x01, 0x74, 0 }, 5);
	j_found = e.n - 1;
	next = e.n;
	put(&e, (const uint8_t[]){ 0x48, 0x83, 0xc1, PAD_SLOT_SIZE, 0xeb, 0 }, 6);
	fix_j8(&e, e.n - 1, scan);
	found = e.n;
	/* its own stack: a thread with another's thread pointer traps */
	put(&e, (const uint8_t[]){ 0x48, 0x3b, 0x61, PAD_LO_OFF }, 4);
	j_lo = put_j32(&e, (const uint8_t[]){ 0x0f, 0x82 }, 2);
	put(&e, (const uint8_t[]){ 0x48, 0x3b, 0x61, PAD_HI_OFF }, 4);
	j_hi = put_j32(&e, (const uint8_t[]){ 0x0f, 0x83 }, 2);
	put(&e, (const uint8_t[]){ 0x80, 0x79, PAD_FORCE_OFF, 0x00 }, 4);
	j_force = put_j32(&e, (const uint8_t[]){ 0x0f, 0x85 }, 2);
	put(&e, (const uint8_t[]){ 0x48, 0x8b, 0x41, PAD_LEFT_OFF }, 4);
	again = e.n;
	put(&e, (const uint8_t[]){ 0x48, 0x85, 0xc0 }, 3);
	j_zero = put_j32(&e, (const uint8_t[]){ 0x0f, 0x84 }, 2);
	put(&e, (const uint8_t[]){ 0x48, 0x8d, 0x50, 0xff }, 4);
	put(&e, (const uint8_t[]){ 0x48, 0x0f, 0xb1, 0x51, PAD_LEFT_OFF, 0x75, 0 }, 7);
	j_again = e.n - 1;
	pass = e.n;
	put(&e, pad_restore, sizeof(pad_restore));
	reloc = e.n;
	{
		uint64_t from = p->site;

		for (size_t i = 0; i < p->ninsn; i++) {
			p->reloc_off[i] = (uint8_t)(e.n - reloc);
			if (!pad_relocate(&e, &p->insn[i], from, err))
				return -1;
			from += p->insn[i].len;
		}
		/* behind the last: unreached after a jump, a call or a return */
		put(&e, (const uint8_t[]){ 0xe9 }, 1);
		ok &= put_rel32(&e, from, 0);
	}
	trap = e.n;
	put(&e, pad_restore, sizeof(pad_restore));
	put(&e, arch_bp_insn, ARCH_BP_LEN);
	j_back = put_j32(&e, (const uint8_t[]){ 0xe9 }, 1);
	RG_ASSERT(e.n <= PAD_CODE_MAX);
	p->cond_lo = p->cond_hi = p->cond_exit = 0;
	p->cond_why = p->cond ? arch_x86_pad_cond(p, &e, pass, trap) : NULL;

	fix_j32(&e, j_off_pass, pass);
	fix_j32(&e, j_end, trap);
	fix_j8(&e, j_next, next);
	fix_j8(&e, j_found, found);
	fix_j32(&e, j_lo, trap);
	fix_j32(&e, j_hi, trap);
	fix_j32(&e, j_force, trap);
	fix_j32(&e, j_zero, p->cond_lo ? (size_t)(p->cond_lo - p->at) : trap);
	fix_j8(&e, j_again, again);
	fix_j32(&e, j_back, reloc);
	if (!ok)
		return rg_error(err, "cannot place a pad at 0x%llx for 0x%llx: its table or "
				"the way back is more than 2 GiB away",
				(unsigned long long)p->at, (unsigned long long)p->site);
	p->trap = p->at + trap + sizeof(pad_restore);
	p->reloc = p->at + reloc;
	p->len = e.n;
	return 0;
}

/*
 * A jmp rel32 over len bytes of instructions (1 to 4): its opcode and the
 * low len - 1 bytes of the displacement are racegate's, the top ones are
 * the program's bytes at site + len on, little-endian.
 */
bool arch_pad_pun_window(uint64_t site, const uint8_t code[ARCH_JMP_LEN], size_t len,
			 uint64_t *lo, uint64_t *hi)
{
	uint32_t fixed = 0;
	int64_t rel;

	RG_ASSERT(len >= 1 && len < ARCH_JMP_LEN);
	for (size_t j = len; j < ARCH_JMP_LEN; j++)
		fixed |= (uint32_t)code[j] << (8 * (j - 1));
	/* the top byte is fixed: the free low ones never change the sign */
	rel = (int32_t)fixed;
	if (rel < 0 && (uint64_t)-rel > site + ARCH_JMP_LEN)
		return false;   /* below address 0 (an executable linked low) */
	*lo = site + ARCH_JMP_LEN + (uint64_t)rel;
	*hi = *lo + ((1ULL << (8 * (len - 1))) - 1);
	return true;
}
