/*
 * A compiled `when:` condition as a plain list of stack-machine ops: expr/
 * writes it (expr_compile; expr_code_ops hands a copy out), expr_eval runs
 * it, and the tracer's jump pads turn it into machine code run in the
 * thread (arch_pad_encode, arch/arch.h).  In common/ so that the tracer needs
 * no part of expr/ to read it: the list is a value, its meaning is this
 * header's.
 */
#ifndef RACEGATE_COND_OPS_H
#define RACEGATE_COND_OPS_H

#include <stdint.h>

enum expr_opc {
	O_CONST,      /* push arg */
	O_REG,        /* push register aux */
	O_BIAS,       /* push the load bias of object arg */
	O_LOAD,       /* pop addr; push the size-byte value there (sgn: sign-extend) */
	O_ADD, O_SUB, O_MUL, O_DIVS, O_DIVU, O_MODS, O_MODU,
	O_AND, O_OR, O_XOR, O_SHL, O_SHRS, O_SHRU,
	O_NEG, O_NOT, O_LNOT, O_BOOL,
	O_EQ, O_NE, O_LTS, O_LES, O_GTS, O_GES, O_LTU, O_LEU, O_GTU, O_GEU,
	O_PLUS_CONST, /* top += arg */
	O_NORM,       /* keep the low size bytes of top, sign- (sgn) or zero-extended */
	O_BITX,       /* top := aux bits from bit arg of top (sgn: sign-extend) */
	O_DUP, O_DROP, O_SWAP, O_OVER,
	O_JZ,         /* pop v; v == 0: push 0, jump to arg */
	O_JNZ,        /* pop v; v != 0: push 1, jump to arg */
	O_HIT, O_TID,
	O_THREAD,     /* push thread_is(strs[aux]) (sgn: negated) */
	O_STREQ,      /* pop addr; push $streq(addr, strs[aux]); arg: at most this many bytes (0: no limit) */
};

/*
 * One op as the pads see it.  Division or remainder by zero makes the
 * whole condition false; INT64_MIN / -1 is INT64_MIN (remainder 0); a
 * shift by 64 or more gives 0 (-1 for a negative value shifted right, signed).
 */
typedef struct cond_op {
	uint8_t code;             /* enum expr_opc */
	uint8_t size;             /* O_LOAD, O_NORM: bytes */
	uint8_t sgn;
	uint32_t aux;             /* O_REG: DWARF register; O_BITX: width */
	int64_t arg;              /* O_CONST, O_PLUS_CONST: value; O_BITX: first bit;
				     O_JZ/O_JNZ: op index to go to; O_BIAS: object */
} cond_op;

#endif
