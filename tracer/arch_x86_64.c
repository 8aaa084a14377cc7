/*
 * x86_64 specifics of the tracer: int3, the PC after a trap, registers, and
 * decoding/relocating one instruction with capstone for displaced stepping.
 */
#include "tracer_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include <capstone/capstone.h>

const uint8_t arch_bp_insn[] = { 0xcc };
const uint8_t arch_nop_insn[] = { 0x90 };

/* syscall; int3 */
const uint8_t arch_stub[] = { 0x0f, 0x05, 0xcc };

struct arch {
	csh cs;
};

void arch_inject_code(uint8_t code[ARCH_INJECT_LEN], long nr)
{
	/* mov $nr, %eax; syscall; int3; int3 */
	code[0] = 0xb8;
	code[1] = nr & 0xff;
	code[2] = (nr >> 8) & 0xff;
	code[3] = (nr >> 16) & 0xff;
	code[4] = (nr >> 24) & 0xff;
	code[5] = 0x0f;
	code[6] = 0x05;
	code[7] = 0xcc;
	code[8] = 0xcc;
}

/* System V AMD64: rdi, rsi, rdx, rcx, r8, r9. */
uint64_t tracer_call_arg(const struct user_regs_struct *r, unsigned n)
{
	switch (n) {
	case 0: return r->rdi;
	case 1: return r->rsi;
	case 2: return r->rdx;
	case 3: return r->rcx;
	case 4: return r->r8;
	case 5: return r->r9;
	default: return 0;
	}
}

/*
 * For explore's scheduling points (tracer.h): x86_64 keeps the thread
 * pointer in the fs base, and glibc's pthread_self() is that pointer.
 */
uint64_t tracer_explore_thread_pointer(const struct user_regs_struct *r)
{
	return r->fs_base;
}

uint64_t arch_get_pc(const struct user_regs_struct *r)
{
	return r->rip;
}

void arch_set_pc(struct user_regs_struct *r, uint64_t pc)
{
	r->rip = pc;
}

uint64_t arch_get_sp(const struct user_regs_struct *r)
{
	return r->rsp;
}

void arch_set_sp(struct user_regs_struct *r, uint64_t sp)
{
	r->rsp = sp;
}

/* call pushed the return address; ret pops it. */
void arch_entry_frame(const struct user_regs_struct *r, bool *in_mem,
		      uint64_t *ret, uint64_t *sp_after)
{
	*in_mem = true;
	*ret = r->rsp;
	*sp_after = r->rsp + 8;
}

/*
 * x86-64 psABI, figure 3.36: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi,
 * 6 rbp, 7 rsp, 8-15 r8-r15, 16 the return address column (the PC).
 */
size_t arch_dwarf_regs(const struct user_regs_struct *r, uint64_t *out, size_t max)
{
	const uint64_t v[] = {
		r->rax, r->rdx, r->rcx, r->rbx, r->rsi, r->rdi, r->rbp, r->rsp,
		r->r8, r->r9, r->r10, r->r11, r->r12, r->r13, r->r14, r->r15,
		r->rip,
	};
	size_t n = sizeof(v) / sizeof(v[0]);

	if (n > max)
		n = max;
	memcpy(out, v, n * sizeof(*out));
	return n;
}

/* int3 is a trap, not a fault: RIP points past it. */
uint64_t arch_bp_from_trap_pc(uint64_t pc)
{
	return pc - ARCH_BP_LEN;
}

void arch_set_syscall_args(struct user_regs_struct *r, long nr,
			   uint64_t a0, uint64_t a1, uint64_t a2,
			   uint64_t a3, uint64_t a4, uint64_t a5)
{
	r->rax = nr;
	r->rdi = a0;
	r->rsi = a1;
	r->rdx = a2;
	r->r10 = a3;
	r->r8 = a4;
	r->r9 = a5;
}

int64_t arch_syscall_result(const struct user_regs_struct *r)
{
	return (int64_t)r->rax;
}

/*
 * The registers saved at the exec stop belong to a thread still inside
 * execve: orig_rax is the syscall number and rax is about to become its
 * return value.  Restoring them at a later, non-syscall stop must not make
 * the kernel think a syscall is to be restarted.
 */
void arch_set_exec_return(struct user_regs_struct *r)
{
	r->rax = 0;
	r->orig_rax = (uint64_t)-1;
}

/*
 * A thread stopped inside a system call (PTRACE_INTERRUPT) has orig_rax
 * set and rax an -ERESTART... code: on its restart the kernel moves the PC
 * back over the syscall instruction, which it must not do at injected code.
 */
void arch_set_no_restart(struct user_regs_struct *r)
{
	r->orig_rax = (uint64_t)-1;
}

int arch_new(arch **out, rg_err *err)
{
	arch *a = xcalloc(1, sizeof(*a));

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &a->cs) != CS_ERR_OK) {
		free(a);
		return rg_error(err, "cannot start the x86_64 disassembler (capstone)");
	}
	cs_option(a->cs, CS_OPT_DETAIL, CS_OPT_ON);
	*out = a;
	return 0;
}

void arch_free(arch *a)
{
	if (!a)
		return;
	cs_close(&a->cs);
	free(a);
}

static bool has_imm_operand(const cs_x86 *x)
{
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_IMM)
			return true;
	return false;
}

/*
 * Where a RIP-relative operand's 32-bit displacement is in an instruction,
 * when capstone does not say (it leaves disp_offset 0 for some SSE and VEX
 * forms): right after a ModRM byte of mod 00, r/m 101, and equal to disp.
 * 0 unless exactly one place fits.
 */
static int riprel_disp_offset(const uint8_t *b, size_t size, int64_t disp)
{
	int32_t d = (int32_t)disp;
	int found = 0;

	if (disp != d)
		return 0;
	for (size_t k = 1; k + 4 <= size; k++)
		if ((b[k - 1] & 0xc7) == 0x05 && !memcmp(b + k, &d, 4)) {
			if (found)
				return 0;
			found = (int)k;
		}
	return found;
}

int arch_decode(arch *a, const uint8_t *code, size_t n, uint64_t addr,
		struct arch_insn *insn, rg_err *err)
{
	cs_insn *ci = NULL;
	const cs_x86 *x;
	bool jump, call;

	memset(insn, 0, sizeof(*insn));
	if (cs_disasm(a->cs, code, n, addr, 1, &ci) != 1)
		return rg_error(err, "cannot decode the instruction at 0x%llx "
				"(bytes %02x %02x %02x %02x)", (unsigned long long)addr,
				code[0], code[1], code[2], code[3]);
	x = &ci->detail->x86;
	insn->len = ci->size;
	memcpy(insn->bytes, ci->bytes, ci->size);
	snprintf(insn->text, sizeof(insn->text), "%.31s %.94s", ci->mnemonic, ci->op_str);

	jump = cs_insn_group(a->cs, ci, CS_GRP_JUMP);
	call = cs_insn_group(a->cs, ci, CS_GRP_CALL);
	if (call)
		insn->flags |= ARCH_INSN_CALL;
	if (cs_insn_group(a->cs, ci, CS_GRP_RET))
		insn->flags |= ARCH_INSN_RET;
	/*
	 * capstone 4 puts jmp/jcc/call/loop/jrcxz with an immediate target in
	 * CS_GRP_BRANCH_RELATIVE; a jump or call whose operand is an immediate
	 * is relative as well on x86_64 (there is no absolute immediate form
	 * in 64-bit mode), which covers builds that do not set the group.
	 */
	if (cs_insn_group(a->cs, ci, CS_GRP_BRANCH_RELATIVE) ||
	    ((jump || call) && has_imm_operand(x))) {
		insn->flags |= ARCH_INSN_RELBRANCH;
		for (int i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_IMM)
				insn->target = (uint64_t)x->operands[i].imm;
	} else if (jump) {
		insn->flags |= ARCH_INSN_INDIRECT;
	}
	if (ci->id == X86_INS_SYSCALL)
		insn->flags |= ARCH_INSN_SYSCALL;
	/* capstone 4 puts loop and jrcxz in no jump group: their relative
	 * target says they may go elsewhere */
	if (jump || call ||
	    (insn->flags & (ARCH_INSN_RET | ARCH_INSN_SYSCALL | ARCH_INSN_RELBRANCH)) ||
	    cs_insn_group(a->cs, ci, CS_GRP_INT) || cs_insn_group(a->cs, ci, CS_GRP_IRET) ||
	    ci->id == X86_INS_SYSENTER || ci->id == X86_INS_SYSRET ||
	    ci->id == X86_INS_UD2 || ci->id == X86_INS_HLT)
		insn->flags |= ARCH_INSN_FLOWS;

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_MEM &&
		    (op->mem.base == X86_REG_RSP || op->mem.base == X86_REG_ESP))
			insn->flags |= ARCH_INSN_SP_MEM;
		if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP) {
			int off = x->encoding.disp_size == 4 ? x->encoding.disp_offset : 0;

			if (!off)
				off = riprel_disp_offset(ci->bytes, ci->size, op->mem.disp);
			if (!off) {
				rg_error(err, "cannot relocate '%s' at 0x%llx: "
					 "unexpected displacement encoding",
					 insn->text, (unsigned long long)addr);
				cs_free(ci, 1);
				return -1;
			}
			insn->flags |= ARCH_INSN_RIPREL;
			insn->disp_off = (uint8_t)off;
			insn->riprel_target = addr + ci->size + (int64_t)op->mem.disp;
		}
	}
	cs_free(ci, 1);
	return 0;
}

int arch_relocate(const struct arch_insn *insn, uint64_t orig, uint64_t slot,
		  uint8_t *out, rg_err *err)
{
	memcpy(out, insn->bytes, insn->len);
	if (insn->flags & ARCH_INSN_RIPREL) {
		int32_t disp;
		int64_t nd;

		/* disp' = disp + orig - slot: the same absolute target. */
		memcpy(&disp, insn->bytes + insn->disp_off, 4);
		nd = (int64_t)disp + (int64_t)(orig - slot);
		if (nd < INT32_MIN || nd > INT32_MAX)
			return rg_error(err, "cannot run '%s' at 0x%llx out of line: "
					"its operand is more than 2 GiB from the "
					"scratch page at 0x%llx", insn->text,
					(unsigned long long)orig,
					(unsigned long long)slot);
		disp = (int32_t)nd;
		memcpy(out + insn->disp_off, &disp, 4);
	}
	/*
	 * A relative branch is copied unchanged: from the slot it goes to
	 * slot + len + rel, which arch_fixup_pc maps back to the true target.
	 * The CPU never fetches from that address: the single-step trap comes
	 * first.
	 */
	return 0;
}

/* int3 is one byte: RIP = bp + 1 after the trap, inside any longer instruction. */
bool arch_trap_pc_inside(const struct arch_insn *insn)
{
	return insn->len > ARCH_BP_LEN;
}

void arch_jump(uint8_t out[ARCH_JMP_LEN], uint64_t from, uint64_t to)
{
	int32_t rel = (int32_t)(int64_t)(to - (from + ARCH_JMP_LEN));

	out[0] = 0xe9;          /* jmp rel32 */
	memcpy(out + 1, &rel, 4);
}

uint64_t arch_fixup_pc(const struct arch_insn *insn, uint64_t orig,
		       uint64_t slot, uint64_t pc)
{
	if (pc == slot + insn->len)
		return orig + insn->len;  /* fell through (or branch not taken) */
	if (insn->flags & ARCH_INSN_RELBRANCH)
		return pc - slot + orig;  /* taken: slot+len+rel -> orig+len+rel */
	return pc;                        /* ret, indirect jmp/call: absolute */
}

/* ---- jump pads (tracer_int.h, pad.c) --------------------------------- */

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

uint64_t arch_thread_pointer(const struct user_regs_struct *r)
{
	return r->fs_base;
}

struct emit {
	uint8_t *out;
	size_t n;
	uint64_t at;
};

static void put(struct emit *e, const uint8_t *b, size_t n)
{
	memcpy(e->out + e->n, b, n);
	e->n += n;
}

/* A rel32 to `to`, the last 4 bytes of an instruction ending `tail` bytes on. */
static bool put_rel32(struct emit *e, uint64_t to, size_t tail)
{
	int64_t rel = (int64_t)(to - (e->at + e->n + 4 + tail));
	int32_t r32 = (int32_t)rel;

	memcpy(e->out + e->n, &r32, 4);
	e->n += 4;
	return rel == r32;
}

/* A jump of the pad's own, patched once its target is known. */
static size_t put_j32(struct emit *e, const uint8_t *op, size_t oplen)
{
	static const uint8_t zero[4];

	put(e, op, oplen);
	put(e, zero, 4);
	return e->n - 4;
}

static void fix_j32(struct emit *e, size_t where, size_t target)
{
	int32_t rel = (int32_t)((int64_t)target - (int64_t)(where + 4));

	memcpy(e->out + where, &rel, 4);
}

static void fix_j8(struct emit *e, size_t where, size_t target)
{
	int64_t rel = (int64_t)target - (int64_t)(where + 1);

	RG_ASSERT(rel >= -128 && rel <= 127);
	e->out[where] = (uint8_t)(int8_t)rel;
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

static const char *pad_cond(struct arch_pad *p, struct emit *e, size_t pass, size_t trap);

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
	p->cond_why = p->cond ? pad_cond(p, &e, pass, trap) : NULL;

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

/* ---- when: conditions in a pad (arch_pad_encode, tracer_int.h) -------- */

/*
 * The condition runs as a stack machine whose top is in %rax and the rest
 * on the thread's stack, below the registers the pad saved (%rdx at 0, %rcx
 * at 8, %rax at 16 from the pad's stack pointer, the flags at 24; the site's
 * stack pointer 160 above it) and below the slot pointer (%rcx) it pushes
 * first.  It may use %rax, %rcx, %rdx only: the pad puts them back.  Every
 * instruction's depth (words pushed) is recorded, so that the tracer can take
 * a thread out of the condition at any instruction (a load that faults, a
 * let-go) and put it on the trap path with its stack pointer back.
 */
#define COND_SAVED_RDX 0
#define COND_SAVED_RCX 8
#define COND_SAVED_RAX 16
#define COND_SITE_SP 160           /* the red zone and four saved words */
#define COND_FIX_MAX 256

struct cemit {
	struct emit *e;
	uint8_t *depth;            /* per byte from base */
	size_t base;
	size_t limit;              /* e->n may not pass it */
	unsigned words;            /* pushed below the saved registers now */
	int d;                     /* values on the evaluation stack */
	bool over;
	size_t falses[COND_FIX_MAX]; /* rel32s to the false exit (division by 0) */
	size_t nfalses;
	size_t jfix[COND_FIX_MAX]; /* rel32s of O_JZ/O_JNZ, to op jop[k] */
	size_t jop[COND_FIX_MAX];
	size_t njumps;
};

/* One instruction, its depth recorded. */
static void ci(struct cemit *c, const uint8_t *b, size_t n)
{
	if (c->over || c->e->n + n > c->limit) {
		c->over = true;
		return;
	}
	c->depth[c->e->n - c->base] = (uint8_t)c->words;
	put(c->e, b, n);
}

#define CI(c, ...) ci((c), (const uint8_t[]){ __VA_ARGS__ }, \
		      sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void c_words(struct cemit *c)
{
	c->words = 1 + (unsigned)(c->d > 1 ? c->d - 1 : 0);
}

/* An instruction ending in a 32-bit immediate or displacement. */
static void ci32(struct cemit *c, const uint8_t *op, size_t n, int32_t v)
{
	uint8_t b[16];

	memcpy(b, op, n);
	memcpy(b + n, &v, 4);
	ci(c, b, n + 4);
}

static void c_mov_imm(struct cemit *c, int64_t v)
{
	uint8_t b[10] = { 0x48, 0xb8 };

	if (v == (int32_t)v) {
		ci32(c, (const uint8_t[]){ 0x48, 0xc7, 0xc0 }, 3, (int32_t)v);
		return;
	}
	memcpy(b + 2, &v, 8);
	ci(c, b, 10);                    /* movabs $v,%rax */
}

/* Room for one more value: the top goes to the stack. */
static void c_push(struct cemit *c)
{
	if (c->d >= 1)
		CI(c, 0x50);             /* push %rax */
	c->d++;
	c_words(c);
}

/* The second value to %rcx: the top stays in %rax. */
static void c_pop_rcx(struct cemit *c)
{
	CI(c, 0x59);                     /* pop %rcx */
	c->d--;
	c_words(c);
}

/* The top is dropped: the next one to %rax. */
static void c_drop(struct cemit *c)
{
	if (c->d >= 2)
		CI(c, 0x58);             /* pop %rax */
	c->d--;
	c_words(c);
}

/* DWARF register r (x86-64 psABI numbering) to %rax. */
static const char *c_reg(struct cemit *c, uint32_t r, uint64_t site)
{
	/* DWARF 0-15 -> the x86 register number */
	static const uint8_t x86[16] = { 0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15 };
	int32_t above = (int32_t)(8 * c->words);

	if (r == 16) {
		c_mov_imm(c, (int64_t)site);
		return NULL;
	}
	if (r > 16)
		return "it reads a register other than the general ones";
	switch (x86[r]) {
	case 0:
		ci32(c, (const uint8_t[]){ 0x48, 0x8b, 0x84, 0x24 }, 4, above + COND_SAVED_RAX);
		break;
	case 1:
		ci32(c, (const uint8_t[]){ 0x48, 0x8b, 0x84, 0x24 }, 4, above + COND_SAVED_RCX);
		break;
	case 2:
		ci32(c, (const uint8_t[]){ 0x48, 0x8b, 0x84, 0x24 }, 4, above + COND_SAVED_RDX);
		break;
	case 4:                          /* lea site_sp(%rsp),%rax */
		ci32(c, (const uint8_t[]){ 0x48, 0x8d, 0x84, 0x24 }, 4, above + COND_SITE_SP);
		break;
	default:                         /* mov %reg,%rax */
		CI(c, (uint8_t)(0x48 | (x86[r] >= 8 ? 0x04 : 0)), 0x89,
		   (uint8_t)(0xc0 | ((x86[r] & 7) << 3)));
	}
	return NULL;
}

static const char *c_load(struct cemit *c, unsigned size, bool sgn)
{
	switch (size) {
	case 1:
		if (sgn)
			CI(c, 0x48, 0x0f, 0xbe, 0x00);   /* movsbq (%rax),%rax */
		else
			CI(c, 0x0f, 0xb6, 0x00);         /* movzbl (%rax),%eax */
		return NULL;
	case 2:
		if (sgn)
			CI(c, 0x48, 0x0f, 0xbf, 0x00);
		else
			CI(c, 0x0f, 0xb7, 0x00);
		return NULL;
	case 4:
		if (sgn)
			CI(c, 0x48, 0x63, 0x00);         /* movslq (%rax),%rax */
		else
			CI(c, 0x8b, 0x00);               /* mov (%rax),%eax */
		return NULL;
	case 8:
		CI(c, 0x48, 0x8b, 0x00);
		return NULL;
	}
	return "it reads a value of an odd size";
}

/* top := top's low size bytes, sign- or zero-extended (O_NORM). */
static void c_norm(struct cemit *c, unsigned size, bool sgn)
{
	uint8_t n = (uint8_t)(64 - 8 * size);

	if (size >= 8)
		return;
	if (size == 0) {
		CI(c, 0x31, 0xc0);
		return;
	}
	CI(c, 0x48, 0xc1, 0xe0, n);              /* shl $n,%rax */
	if (sgn)
		CI(c, 0x48, 0xc1, 0xf8, n);      /* sar $n,%rax */
	else
		CI(c, 0x48, 0xc1, 0xe8, n);      /* shr $n,%rax */
}

static void c_bitx(struct cemit *c, int64_t first, uint32_t width, bool sgn)
{
	if (first >= 64 || width == 0) {
		CI(c, 0x31, 0xc0);               /* xor %eax,%eax */
		return;
	}
	if (first > 0)
		CI(c, 0x48, 0xc1, 0xe8, (uint8_t)first);
	if (width >= 64)
		return;
	CI(c, 0x48, 0xc1, 0xe0, (uint8_t)(64 - width));
	if (sgn)
		CI(c, 0x48, 0xc1, 0xf8, (uint8_t)(64 - width));
	else
		CI(c, 0x48, 0xc1, 0xe8, (uint8_t)(64 - width));
}

/* %rax := %rax (cc %rcx, %rax) as 0 or 1: a compare of a (in %rcx) with b. */
static void c_setcc(struct cemit *c, uint8_t cc, bool cmp)
{
	if (cmp)
		CI(c, 0x48, 0x39, 0xc1);         /* cmp %rax,%rcx: a - b */
	else
		CI(c, 0x48, 0x85, 0xc0);         /* test %rax,%rax */
	CI(c, 0x0f, cc, 0xc0);                   /* setcc %al */
	CI(c, 0x0f, 0xb6, 0xc0);                 /* movzbl %al,%eax */
}

/* a (%rcx) shifted by b (%rax); 64 or more: 0, or the sign for sar. */
static void c_shift(struct cemit *c, int code)
{
	uint8_t ext = code == O_SHL ? 0xe0 : code == O_SHRU ? 0xe8 : 0xf8;

	CI(c, 0x48, 0x91);                       /* xchg %rax,%rcx */
	CI(c, 0x48, 0x83, 0xf9, 0x3f);           /* cmp $63,%rcx */
	CI(c, 0x77, 0x05);                       /* ja big */
	CI(c, 0x48, 0xd3, ext);                  /* shl/shr/sar %cl,%rax */
	CI(c, 0xeb, 0x04);                       /* jmp done */
	if (code == O_SHRS)                      /* big: */
		CI(c, 0x48, 0xc1, 0xf8, 0x3f);   /* sar $63,%rax */
	else
		CI(c, 0x48, 0x31, 0xc0, 0x90);   /* xor %rax,%rax; nop */
}

/* a (%rcx) divided by b (%rax) as expr_eval does. */
static void c_div(struct cemit *c, int code)
{
	bool sgn = code == O_DIVS || code == O_MODS, mod = code == O_MODS || code == O_MODU;
	unsigned w = c->words;

	CI(c, 0x48, 0x85, 0xc0);                 /* test %rax,%rax */
	CI(c, 0x75, 0x0d);                       /* jnz ok */
	/* by zero: the condition is false; the stack back to one word */
	ci32(c, (const uint8_t[]){ 0x48, 0x8d, 0xa4, 0x24 }, 4, (int32_t)(8 * (w - 1)));
	c->words = 1;
	ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
	c->words = w;
	if (c->nfalses < COND_FIX_MAX)
		c->falses[c->nfalses++] = c->e->n - 4;
	else
		c->over = true;
	if (sgn) {
		/* by -1: no idiv (INT64_MIN / -1 raises #DE): -a, remainder 0 */
		CI(c, 0x48, 0x83, 0xf8, 0xff);   /* ok: cmp $-1,%rax */
		CI(c, 0x75, 0x08);               /* jne div */
		if (mod)
			CI(c, 0x31, 0xc0, 0x90, 0x90, 0x90, 0x90); /* xor %eax,%eax */
		else
			CI(c, 0x48, 0x89, 0xc8, 0x48, 0xf7, 0xd8); /* mov %rcx,%rax; neg %rax */
		CI(c, 0xeb, 0x0a);               /* jmp done */
		CI(c, 0x48, 0x91);               /* div: xchg %rax,%rcx */
		CI(c, 0x48, 0x99);               /* cqo */
		CI(c, 0x48, 0xf7, 0xf9);         /* idiv %rcx */
	} else {
		CI(c, 0x48, 0x91);
		CI(c, 0x31, 0xd2);               /* xor %edx,%edx */
		CI(c, 0x48, 0xf7, 0xf1);         /* div %rcx */
	}
	CI(c, 0x48, 0x89, mod ? 0xd0 : 0xc0);    /* mov %rdx,%rax (or %rax,%rax); done: */
}

static const char *c_binary(struct cemit *c, int code)
{
	static const uint8_t cc[] = {
		[O_EQ] = 0x94, [O_NE] = 0x95, [O_LTS] = 0x9c, [O_LES] = 0x9e,
		[O_GTS] = 0x9f, [O_GES] = 0x9d, [O_LTU] = 0x92, [O_LEU] = 0x96,
		[O_GTU] = 0x97, [O_GEU] = 0x93,
	};

	c_pop_rcx(c);
	switch (code) {
	case O_ADD: CI(c, 0x48, 0x01, 0xc8); break;
	case O_SUB: CI(c, 0x48, 0x29, 0xc1); CI(c, 0x48, 0x89, 0xc8); break;
	case O_MUL: CI(c, 0x48, 0x0f, 0xaf, 0xc1); break;
	case O_AND: CI(c, 0x48, 0x21, 0xc8); break;
	case O_OR: CI(c, 0x48, 0x09, 0xc8); break;
	case O_XOR: CI(c, 0x48, 0x31, 0xc8); break;
	case O_SHL: case O_SHRS: case O_SHRU: c_shift(c, code); break;
	case O_DIVS: case O_DIVU: case O_MODS: case O_MODU: c_div(c, code); break;
	case O_EQ: case O_NE: case O_LTS: case O_LES: case O_GTS: case O_GES:
	case O_LTU: case O_LEU: case O_GTU: case O_GEU:
		c_setcc(c, cc[code], true);
		break;
	default:
		return "it has an op racegate's pads do not run";
	}
	return NULL;
}

/* O_JZ / O_JNZ: forward only, to an op reached with the same depth. */
static const char *c_jump(struct cemit *c, const cond_op *op, size_t i, size_t n,
			  int *expect)
{
	size_t to = (size_t)op->arg;

	if (op->arg <= (int64_t)i || to > n || c->njumps == COND_FIX_MAX)
		return "it jumps backwards or too often";
	if (expect[to] >= 0 && expect[to] != c->d)
		return "its stack depth differs between paths";
	expect[to] = c->d;
	CI(c, 0x48, 0x85, 0xc0);                 /* test %rax,%rax */
	if (op->code == O_JZ) {
		ci32(c, (const uint8_t[]){ 0x0f, 0x84 }, 2, 0);  /* jz to (with 0) */
	} else {
		CI(c, 0x74, 0x0a);               /* jz on */
		CI(c, 0xb8, 0x01, 0x00, 0x00, 0x00); /* mov $1,%eax */
		ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
	}
	c->jfix[c->njumps] = c->e->n - 4;
	c->jop[c->njumps++] = to;
	c_drop(c);                               /* on: */
	return NULL;
}

static const char *c_op(struct cemit *c, const cond_op *op, uint64_t site)
{
	static const int need[] = {
		[O_LOAD] = 1, [O_NEG] = 1, [O_NOT] = 1, [O_LNOT] = 1, [O_BOOL] = 1,
		[O_PLUS_CONST] = 1, [O_NORM] = 1, [O_BITX] = 1, [O_DUP] = 1,
		[O_DROP] = 1, [O_SWAP] = 2, [O_OVER] = 2, [O_JZ] = 1, [O_JNZ] = 1,
	};
	int k = op->code < sizeof(need) / sizeof(need[0]) ? need[op->code] : 0;

	if (op->code >= O_ADD && op->code <= O_GEU && op->code != O_NEG &&
	    op->code != O_NOT && op->code != O_LNOT && op->code != O_BOOL)
		k = 2;
	if (c->d < k)
		return "its stack underflows";
	if (c->d >= PAD_COND_WORDS)
		return "it needs more stack than a pad allows";
	switch (op->code) {
	case O_CONST: c_push(c); c_mov_imm(c, op->arg); return NULL;
	case O_REG: c_push(c); return c_reg(c, op->aux, site);
	case O_LOAD: return c_load(c, op->size, op->sgn);
	case O_NEG: CI(c, 0x48, 0xf7, 0xd8); return NULL;
	case O_NOT: CI(c, 0x48, 0xf7, 0xd0); return NULL;
	case O_LNOT: c_setcc(c, 0x94, false); return NULL;
	case O_BOOL: c_setcc(c, 0x95, false); return NULL;
	case O_PLUS_CONST:
		if (op->arg == (int32_t)op->arg) {
			ci32(c, (const uint8_t[]){ 0x48, 0x05 }, 2, (int32_t)op->arg);
		} else {
			uint8_t b[10] = { 0x48, 0xb9 };

			memcpy(b + 2, &op->arg, 8);
			ci(c, b, 10);            /* movabs $arg,%rcx */
			CI(c, 0x48, 0x01, 0xc8);
		}
		return NULL;
	case O_NORM: c_norm(c, op->size, op->sgn); return NULL;
	case O_BITX:
		if (op->arg < 0)
			return "it extracts bits before the first";
		c_bitx(c, op->arg, op->aux, op->sgn);
		return NULL;
	case O_DUP: CI(c, 0x50); c->d++; c_words(c); return NULL;
	case O_DROP: c_drop(c); return NULL;
	case O_SWAP: CI(c, 0x48, 0x87, 0x04, 0x24); return NULL;   /* xchg %rax,(%rsp) */
	case O_OVER:
		CI(c, 0x50);
		c->d++;
		c_words(c);
		CI(c, 0x48, 0x8b, 0x44, 0x24, 0x08);             /* mov 8(%rsp),%rax */
		return NULL;
	case O_BIAS: return "it names a variable of another object";
	case O_HIT: return "it uses $hit";
	case O_TID: return "it uses $tid";
	case O_THREAD: return "it uses $thread";
	case O_STREQ: return "it uses $streq";
	}
	return c_binary(c, op->code);
}

/*
 * The ops from the pad's push of %rcx on; on success the value is in %rax
 * with one word (the slot pointer) pushed.  NULL, or why not.
 */
static const char *cond_body(struct cemit *c, const cond_op *ops, size_t n, uint64_t site)
{
	int expect[PAD_COND_OPS + 1];
	size_t opoff[PAD_COND_OPS + 1];
	const char *why;

	if (n > PAD_COND_OPS)
		return "its code is over a pad's budget";
	for (size_t i = 0; i <= n; i++)
		expect[i] = -1;
	for (size_t i = 0; i < n; i++) {
		if (expect[i] >= 0 && expect[i] != c->d)
			return "its stack depth differs between paths";
		opoff[i] = c->e->n;
		if (ops[i].code == O_JZ || ops[i].code == O_JNZ)
			why = c->d < 1 ? "its stack underflows" : c_jump(c, &ops[i], i, n, expect);
		else
			why = c_op(c, &ops[i], site);
		if (why)
			return why;
		if (c->over)
			return "its code is over a pad's budget";
	}
	opoff[n] = c->e->n;
	if ((expect[n] >= 0 && expect[n] != c->d) || c->d != 1)
		return "its stack depth differs between paths";
	for (size_t k = 0; k < c->njumps; k++)
		fix_j32(c->e, c->jfix[k], opoff[c->jop[k]]);
	return NULL;
}

/*
 * The condition's block (see arch_pad_encode): from the slot (%rcx) whose
 * left is 0; falls to the pass at `pass` or the trap at `trap`.  NULL, or
 * why it cannot be in the pad (and then nothing was kept).
 */
static const char *pad_cond(struct arch_pad *p, struct emit *e, size_t pass, size_t trap)
{
	struct cemit *c = xcalloc(1, sizeof(*c));
	size_t start = e->n, j_off, j_true, tail, cfalse;
	const char *why;

	memset(p->depth, PAD_DEPTH_NONE, sizeof(p->depth));
	c->e = e;
	c->depth = p->depth;
	c->base = start;
	c->limit = PAD_CODE_MAX;
	CI(c, 0x80, 0x79, PAD_COND_OFF, 0x00);   /* cmpb $0,cond(%rcx) */
	ci32(c, (const uint8_t[]){ 0x0f, 0x84 }, 2, 0);
	j_off = e->n - 4;
	CI(c, 0x51);                              /* push %rcx */
	c->words = 1;
	why = cond_body(c, p->cond, p->ncond, p->site);
	if (!why) {
		CI(c, 0x59);                      /* pop %rcx */
		c->words = 0;
		CI(c, 0x48, 0x85, 0xc0);          /* test %rax,%rax */
		ci32(c, (const uint8_t[]){ 0x0f, 0x85 }, 2, 0);
		j_true = e->n - 4;
		tail = e->n;                      /* lock incq false(%rcx) */
		CI(c, 0xf0, 0x48, 0xff, 0x41, PAD_FALSE_OFF);
		ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
		if (!c->over)
			fix_j32(e, e->n - 4, pass);
		cfalse = e->n;
		c->words = 1;
		CI(c, 0x59);
		c->words = 0;
		ci32(c, (const uint8_t[]){ 0xe9 }, 1, 0);
		if (c->over) {
			why = "its code is over a pad's budget";
		} else {
			fix_j32(e, e->n - 4, tail);
			fix_j32(e, j_off, trap);
			fix_j32(e, j_true, trap);
			for (size_t k = 0; k < c->nfalses; k++)
				fix_j32(e, c->falses[k], cfalse);
		}
	}
	free(c);
	if (why) {
		memset(e->out + start, 0xcc, PAD_CODE_MAX - start);
		memset(p->depth, PAD_DEPTH_NONE, sizeof(p->depth));
		e->n = start;
		return why;
	}
	p->cond_lo = p->at + start;
	p->cond_hi = p->at + e->n;
	p->cond_exit = p->at + trap;
	return NULL;
}
