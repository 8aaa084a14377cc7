/*
 * x86-64's instructions for dwarf/: capstone in x86-64 mode.  dwarf/ asks
 * only "how long is the instruction here, what is it, and where can
 * execution go next" (arch.h), and where direct jumps may land.
 */
#include "arch.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arch_decoder {
	csh cs;
	cs_insn *insn;
};

arch_decoder *arch_decoder_new(void)
{
	arch_decoder *d = xcalloc(1, sizeof(*d));

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d);
		return NULL;
	}
	/* operands: where a jump goes */
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->cs);
	return d;
}

void arch_decoder_free(arch_decoder *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

/* Where execution goes after d->insn: *target for a direct jump. */
static enum arch_flow flow_of(arch_decoder *d, uint64_t *target)
{
	const cs_insn *ci = d->insn;
	const cs_x86 *x = &ci->detail->x86;
	bool direct = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;

	if (cs_insn_group(d->cs, ci, CS_GRP_RET) || cs_insn_group(d->cs, ci, CS_GRP_IRET) ||
	    ci->id == X86_INS_UD2 || ci->id == X86_INS_HLT)
		return ARCH_FLOW_STOP;
	if (cs_insn_group(d->cs, ci, CS_GRP_CALL)) {
		if (direct)
			*target = (uint64_t)x->operands[0].imm;
		return ARCH_FLOW_NEXT;   /* calls return */
	}
	if (!cs_insn_group(d->cs, ci, CS_GRP_JUMP))
		return ARCH_FLOW_NEXT;   /* traps come back */
	if (direct)
		*target = (uint64_t)x->operands[0].imm;
	if (ci->id == X86_INS_JMP || ci->id == X86_INS_LJMP)
		return direct ? ARCH_FLOW_JUMP : ARCH_FLOW_STOP;
	/* jcc, loop, jrcxz: always direct */
	return direct ? ARCH_FLOW_BRANCH : ARCH_FLOW_NEXT;
}

size_t arch_decoder_next(arch_decoder *d, const uint8_t *code, size_t size,
			 uint64_t pc, char *text, size_t len, enum arch_flow *flow,
			 uint64_t *target)
{
	const uint8_t *p = code;
	size_t n = size;
	uint64_t at = pc;

	if (!size || !cs_disasm_iter(d->cs, &p, &n, &at, d->insn))
		return 0;
	if (text && len)
		snprintf(text, len, "%s%s%s", d->insn->mnemonic,
			 d->insn->op_str[0] ? " " : "", d->insn->op_str);
	if (flow)
		*flow = flow_of(d, target);
	return d->insn->size;
}

unsigned arch_decoded_access(const arch_decoder *d)
{
	const cs_insn *ci = d->insn;
	const cs_x86 *x = &ci->detail->x86;
	unsigned how = 0;

	if (ci->id == X86_INS_LEA || ci->id == X86_INS_NOP ||
	    cs_insn_group(d->cs, ci, CS_GRP_JUMP) || cs_insn_group(d->cs, ci, CS_GRP_CALL) ||
	    cs_insn_group(d->cs, ci, CS_GRP_RET))
		return 0;
	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		x86_reg b = op->mem.base;

		if (op->type != X86_OP_MEM)
			continue;
		/* fs: and gs: are the thread's own storage (TLS) on x86-64 Linux */
		if (op->mem.segment == X86_REG_FS || op->mem.segment == X86_REG_GS)
			continue;
		if (b == X86_REG_RSP || b == X86_REG_RBP || b == X86_REG_ESP ||
		    b == X86_REG_EBP)
			continue;
		/* an operand the disassembler says nothing of is read and written */
		how |= (op->access & CS_AC_READ) || !op->access ? ARCH_READS : 0;
		how |= (op->access & CS_AC_WRITE) || !op->access ? ARCH_WRITES : 0;
	}
	return how;
}

void arch_branch_scan(const uint8_t *code, size_t size, uint64_t pc,
		      void (*add)(void *ctx, uint64_t op, uint64_t target), void *ctx)
{
	for (size_t i = 0; i < size; i++) {
		uint8_t b = code[i];
		int32_t d;

		if ((b == 0xe8 || b == 0xe9) && i + 5 <= size) {
			/* call/jmp rel32 */
			memcpy(&d, code + i + 1, 4);
			add(ctx, pc + i, pc + i + 5 + (uint64_t)(int64_t)d);
		} else if (b == 0x0f && i + 6 <= size && (code[i + 1] & 0xf0) == 0x80) {
			/* jcc rel32 */
			memcpy(&d, code + i + 2, 4);
			add(ctx, pc + i, pc + i + 6 + (uint64_t)(int64_t)d);
		} else if ((b == 0xeb || (b & 0xf0) == 0x70 || (b >= 0xe0 && b <= 0xe3)) &&
			   i + 2 <= size) {
			/* jmp, jcc, loop, jrcxz rel8 */
			add(ctx, pc + i, pc + i + 2 + (uint64_t)(int64_t)(int8_t)code[i + 1]);
		}
	}
}
