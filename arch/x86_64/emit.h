/*
 * Writing x86-64 code into a buffer that will run at a known address: what
 * the jump pad (pad.c) and its when: condition (pad_cond.c) share.
 */
#ifndef RACEGATE_ARCH_X86_64_EMIT_H
#define RACEGATE_ARCH_X86_64_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arch.h"

struct emit {
	uint8_t *out;
	size_t n;
	uint64_t at;
};

static inline void put(struct emit *e, const uint8_t *b, size_t n)
{
	memcpy(e->out + e->n, b, n);
	e->n += n;
}

/* A rel32 to `to`, the last 4 bytes of an instruction ending `tail` bytes on. */
static inline bool put_rel32(struct emit *e, uint64_t to, size_t tail)
{
	int64_t rel = (int64_t)(to - (e->at + e->n + 4 + tail));
	int32_t r32 = (int32_t)rel;

	memcpy(e->out + e->n, &r32, 4);
	e->n += 4;
	return rel == r32;
}

/* A jump of the pad's own, patched once its target is known. */
static inline size_t put_j32(struct emit *e, const uint8_t *op, size_t oplen)
{
	static const uint8_t zero[4];

	put(e, op, oplen);
	put(e, zero, 4);
	return e->n - 4;
}

static inline void fix_j32(struct emit *e, size_t where, size_t target)
{
	int32_t rel = (int32_t)((int64_t)target - (int64_t)(where + 4));

	memcpy(e->out + where, &rel, 4);
}

static inline void fix_j8(struct emit *e, size_t where, size_t target)
{
	int64_t rel = (int64_t)target - (int64_t)(where + 1);

	RG_ASSERT(rel >= -128 && rel <= 127);
	e->out[where] = (uint8_t)(int8_t)rel;
}

/*
 * The condition's block of a pad (pad_cond.c): from the slot (%rcx) whose
 * left is 0; falls to the pass at `pass` or the trap at `trap`.  NULL, or
 * why it cannot be in the pad (and then nothing was kept).
 */
const char *arch_x86_pad_cond(struct arch_pad *p, struct emit *e, size_t pass, size_t trap);

#endif
