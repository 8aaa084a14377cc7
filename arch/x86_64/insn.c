/*
 * x86-64's instructions for tracer/: int3, the stub and the injected system
 * call, the PC after a trap, and decoding/relocating one instruction with
 * capstone for displaced stepping.
 */
#include "arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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


/* int3 is a trap, not a fault: RIP points past it. */
uint64_t arch_bp_from_trap_pc(uint64_t pc)
{
	return pc - ARCH_BP_LEN;
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
