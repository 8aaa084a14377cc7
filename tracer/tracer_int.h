/*
 * What tracer/'s files share about the machine: the contract of arch/
 * (arch.h: registers, instructions, the breakpoint, jump pads' code and
 * table), and pad.c's analysis of the instructions a pad's jump covers.
 */
#ifndef RACEGATE_TRACER_INT_H
#define RACEGATE_TRACER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch.h"
#include "msg.h"

/*
 * pad.c's analysis, on bytes (pure, for tests too).  tracer_pad_cover: the
 * instructions from site in code[0..n) that a jump must cover (insn[],
 * *ninsn <= PAD_INSNS_MAX; more than the first only when more), or why
 * they cannot be moved (one that never moves, a jump, call or return that
 * is not the last; not decodable).
 * tracer_pad_jumps_into: why no pad may cover [site, site+covered) given a
 * piece of its function's code, code[0..n) at lo: a direct jump into the
 * covered bytes past site, a jump whose target is not written in it, code
 * that does not decode; NULL when none.  Both return fixed strings.
 */
const char *tracer_pad_cover(arch *a, uint64_t site, const uint8_t *code, size_t n,
			     bool more, struct arch_insn *insn, size_t *ninsn);
const char *tracer_pad_jumps_into(arch *a, uint64_t lo, const uint8_t *code, size_t n,
				  uint64_t site, size_t covered);

/*
 * A jump over short instructions: when fewer than ARCH_JMP_LEN bytes of
 * instructions can move (a jump, call or return, or code that never moves, comes next;
 * a jump target lies inside), the jump replaces only those, and its last
 * bytes are the program's next instructions, left as they are (instruction
 * punning).  Those bytes fix the top of its displacement: the pad goes at
 * an address they allow.  tracer_pad_pun_cover: the instructions (insn[],
 * *ninsn; the first alone unless more), or why not (no movable first
 * instruction shorter than the jump; a call whose return address would be
 * among the kept bytes, which may get an int3).  Where the pad may then
 * start: arch_pad_pun_window.
 */
const char *tracer_pad_pun_cover(arch *a, uint64_t site, const uint8_t *code, size_t n,
				 bool more, struct arch_insn *insn, size_t *ninsn);

/*
 * What the other files of tracer/ need from tracer.c.  A thread held at a
 * breakpoint has its PC rewound in tracer.c's cache only: before reading its
 * registers through ptrace (libunwind), write them.  0, or -1 (errno).
 */
struct tracer;
int tracer_sync_regs(struct tracer *tr, pid_t tid);

#endif
