/*
 * arch: everything racegate knows about the machine, behind one contract.
 *
 * tracer/ and dwarf/ ask this header, and nothing else, about registers,
 * instructions, the breakpoint, the jump, the code racegate writes into the
 * program (the stub, injected system calls, jump pads), system call numbers,
 * the ELF machine and where its libraries live.  The facts themselves are in
 * one folder per architecture, arch/ARCH/ (x86_64 the one real one; stub a
 * stand-in that compiles on any machine, for the check that proves the rest
 * of racegate names no fact of x86-64's: tests/arch/): its arch_defs.h for
 * what must be known at compile time (sizes, strings, the register set's
 * type), its .c files for the rest.  CMake picks the folder (RACEGATE_ARCH).
 * Nothing here includes tracer/ or dwarf/; it includes common/ and, in the
 * architecture's own files, capstone.
 */
#ifndef RACEGATE_ARCH_H
#define RACEGATE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch_defs.h"
#include "arch_defs_check.h"
#include "arch_regs.h"
#include "arch_sys.h"
#include "cond_ops.h"
#include "msg.h"

/* ---- code racegate writes (regs.c, insn.c) ---------------------------- */

/* The breakpoint instruction (ARCH_BP_LEN bytes). */
extern const uint8_t arch_bp_insn[];
/* An instruction as long that does nothing (a pad's breakpoint once
 * racegate lets go). */
extern const uint8_t arch_nop_insn[];

/* A system call instruction followed by a breakpoint: the stub every scratch
 * page starts with (tracer/scratch.c).  ARCH_STUB_LEN bytes. */
extern const uint8_t arch_stub[];
/* Where the PC is after the stub's breakpoint trapped. */
#define ARCH_STUB_TRAP_PC(stub) ((stub) + ARCH_STUB_LEN)

/*
 * Code the tracer writes over the current instruction at the exec stop (the
 * only time the process is known to be single-threaded) to make one system
 * call, number in the code itself, arguments in registers; ends with a
 * breakpoint.  At the exec stop the thread is still inside execve, whose
 * return value overwrites the syscall number register on the way out: that
 * is why the number is loaded by the injected code.  A second breakpoint
 * follows the first: a thread stopped at the first when racegate is
 * killed outright goes on past it (the kernel drops the trap of a stop
 * whose tracer died), and must trap again, not run the program's bytes
 * from the middle of an instruction.  The PC after the (first) trap is
 * start + ARCH_INJECT_TRAP_OFF.
 */
void arch_inject_code(uint8_t code[ARCH_INJECT_LEN], long nr);

/* The address of the breakpoint that trapped, from the PC after the trap. */
uint64_t arch_bp_from_trap_pc(uint64_t pc);

/* ---- registers (regs.c) ----------------------------------------------- */

/*
 * The general registers of stopped thread tid, read and written whole with
 * PTRACE_GETREGSET / PTRACE_SETREGSET (NT_PRSTATUS).  0, or -1 with errno.
 */
int arch_regs_fetch(pid_t tid, arch_regs *r);
int arch_regs_store(pid_t tid, const arch_regs *r);

uint64_t arch_get_pc(const arch_regs *r);
void arch_set_pc(arch_regs *r, uint64_t pc);
/*
 * Clears the single-step flag a thread may hold in its own flags: one
 * stepped through racegate's code that saves and restores them (a pad)
 * took the flag the kernel set for the step into its saved copy.
 */
void arch_clear_step(arch_regs *r);
uint64_t arch_get_sp(const arch_regs *r);
void arch_set_sp(arch_regs *r, uint64_t sp);
/*
 * At the exact entry of a function: where its return address is (*in_mem:
 * the address of the stack slot; else *ret is the return address, held in a
 * register), and the stack pointer once it has returned.
 */
void arch_entry_frame(const arch_regs *r, bool *in_mem, uint64_t *ret,
		      uint64_t *sp_after);
/*
 * The registers as DWARF numbers them (the psABI's numbering): out[i] is
 * DWARF register i.  Fills at most max; returns how many the architecture
 * numbers from 0 without a gap (the rest are not general registers).  The
 * last of them is the PC (what a jump pad's condition reads as its site).
 */
size_t arch_dwarf_regs(const arch_regs *r, uint64_t *out, size_t max);
/*
 * The n-th (from 0) integer or pointer argument of a function, for a thread
 * stopped at its first instruction (the calling convention).  0 past the
 * ones passed in registers.
 */
uint64_t arch_call_arg(const arch_regs *r, unsigned n);
/* The thread pointer (what a jump pad compares: its thread's key). */
uint64_t arch_thread_pointer(const arch_regs *r);
/* What glibc's pthread_self() returns in that thread (a pthread_t). */
uint64_t arch_pthread_self(const arch_regs *r);
/*
 * The arguments of a clone that makes a fork as the C library's fork()
 * does: flags (with the exit signal), no new stack, the child's thread id
 * written at child_tid and cleared there at its exit.
 */
void arch_fork_args(uint64_t a[6], uint64_t flags, uint64_t child_tid);
void arch_set_syscall_args(arch_regs *r, long nr,
			   uint64_t a0, uint64_t a1, uint64_t a2,
			   uint64_t a3, uint64_t a4, uint64_t a5);
int64_t arch_syscall_result(const arch_regs *r);
/* Put the registers back in the state execve returns to user space with. */
void arch_set_exec_return(arch_regs *r);
/* Registers a stopped thread is restarted with at code of racegate's: no
 * system call of the thread's is to be restarted there. */
void arch_set_no_restart(arch_regs *r);
/*
 * A thread stopped while inside a system call (PTRACE_INTERRUPT): the
 * call's number, or -1 when it was stopped elsewhere.
 */
long arch_syscall_stopped_in(const arch_regs *r);
/* ... that call's argument n (from 0; 0 from 6 on), as it was made. */
uint64_t arch_syscall_arg(const arch_regs *r, unsigned n);
/* ... that call returns v when the thread goes on (no restart). */
void arch_syscall_set_return(arch_regs *r, int64_t v);
/*
 * ... that call is made again when the thread goes on, with its argument
 * n (from 0; none from 6 on) set to v: the kernel's restart (result
 * -ERESTARTNOINTR, given here) moves the PC back over the call's
 * instruction.
 */
void arch_syscall_restart_with(arch_regs *r, unsigned n, uint64_t v);

/* ---- instructions (insn.c): one at a time, for a displaced step ------- */

enum {
	ARCH_INSN_RIPREL     = 1 << 0, /* a memory operand relative to the PC */
	ARCH_INSN_RELBRANCH  = 1 << 1, /* jmp/jcc/call/loop with a PC-relative target */
	ARCH_INSN_CALL       = 1 << 2, /* pushes a return address */
	ARCH_INSN_SYSCALL    = 1 << 3, /* the syscall instruction: run it in the stub */
	ARCH_INSN_RET        = 1 << 4, /* informational */
	ARCH_INSN_FLOWS      = 1 << 5, /* may go elsewhere than the next instruction:
					  any jump, call, return, interrupt, system call */
	ARCH_INSN_INDIRECT   = 1 << 6, /* a jump whose target is in a register or memory */
	ARCH_INSN_SP_MEM     = 1 << 7, /* a memory operand addressed from the stack pointer */
};

struct arch_insn {
	uint8_t bytes[ARCH_MAX_INSN];
	uint8_t len;
	uint8_t disp_off;       /* RIPREL: where the displacement is */
	unsigned flags;
	uint64_t riprel_target; /* RIPREL: the address the operand points to */
	uint64_t target;        /* RELBRANCH: where it goes when taken */
	char text[128];         /* mnemonic and operands, for messages */
};

/* The decoder of tracer/ (one per tracer: it keeps the disassembler). */
typedef struct arch arch;

int arch_new(arch **out, rg_err *err);
void arch_free(arch *a);

/* Decodes the instruction at addr from code[0..n). */
int arch_decode(arch *a, const uint8_t *code, size_t n, uint64_t addr,
		struct arch_insn *insn, rg_err *err);

/* Does the PC after the breakpoint's trap at this instruction lie inside
 * the instruction (never on an instruction boundary)?  Then no other stop
 * than the breakpoint's can have that PC (see surely_our_trap in events.c). */
bool arch_trap_pc_inside(const struct arch_insn *insn);

/* Writes into out[0..insn->len) the instruction re-encoded to run at slot
 * instead of at orig.  Fails if a displacement no longer fits. */
int arch_relocate(const struct arch_insn *insn, uint64_t orig, uint64_t slot,
		  uint8_t *out, rg_err *err);

/* The jump that ends an out-of-line copy (and replaces a pad's site): from
 * `from` to `to`, within ARCH_NEAR_REACH.  Writes ARCH_JMP_LEN bytes. */
void arch_jump(uint8_t out[ARCH_JMP_LEN], uint64_t from, uint64_t to);

/* Where the thread really is after the instruction ran at slot with the PC
 * now at pc (fall-through and relative branches are mapped back). */
uint64_t arch_fixup_pc(const struct arch_insn *insn, uint64_t orig,
		       uint64_t slot, uint64_t pc);

/* ---- instructions (flow.c): where code goes, for dwarf/ --------------- */

/*
 * arch_decoder_next returns the length of the instruction in code[0..size)
 * at address pc, 0 when the bytes are no instruction it knows; text (when
 * not NULL) gets its assembly ("mov dword ptr [...], 0"); flow (when not
 * NULL) where execution goes after it, and *target a direct jump's
 * destination, or a direct call's (whose flow is NEXT; *target is left
 * alone otherwise).
 */
enum arch_flow {
	ARCH_FLOW_NEXT,        /* the next instruction (calls included) */
	ARCH_FLOW_JUMP,        /* *target only */
	ARCH_FLOW_BRANCH,      /* *target or the next instruction */
	ARCH_FLOW_STOP,        /* nowhere this function says: ret, indirect jump, ud2 */
};
typedef struct arch_decoder arch_decoder;
/* NULL when the disassembler cannot start. */
arch_decoder *arch_decoder_new(void);
void arch_decoder_free(arch_decoder *d);
size_t arch_decoder_next(arch_decoder *d, const uint8_t *code, size_t size,
			 uint64_t pc, char *text, size_t len, enum arch_flow *flow,
			 uint64_t *target);
/*
 * How the instruction arch_decoder_next decoded last touches memory
 * another thread may see: ARCH_READS and/or ARCH_WRITES, 0 for none.  A
 * data access whose address is neither on the thread's own stack (based
 * on the stack or frame pointer) nor in its thread-local storage.  Not:
 * an address computed but not accessed (lea, a nop's operand), a jump or
 * call through memory (code pointers), the stack that push, pop, call and
 * ret use.  A local reached through another register counts: which
 * memory a register points to is not in the instruction.
 */
enum { ARCH_READS = 1, ARCH_WRITES = 2 };
unsigned arch_decoded_access(const arch_decoder *d);
/*
 * Every place in code[0..size) (at address pc) whose bytes read as the
 * opcode of a direct jump or call, were an instruction to start there (or
 * at the prefixes before it): add(ctx, the opcode's address, its target).
 * A fast superset of the direct jumps and calls, many of them not
 * instructions at all: the caller checks those it cares about by decoding.
 */
void arch_branch_scan(const uint8_t *code, size_t size, uint64_t pc,
		      void (*add)(void *ctx, uint64_t op, uint64_t target), void *ctx);

/* ---- jump pads (pad.c, pad_cond.c; tracer/pad.c) ----------------------- */

/*
 * A gated instruction of ARCH_JMP_LEN bytes or more is replaced by a jump to
 * a pad that decides in the thread whether the hit must trap.  The pad's
 * table (the program writes it: a page of its own, read-write, within reach
 * of the pad's code) is shared with tracer/pad.c:
 *
 *   table + 0                  one byte: not 0 = the pad is off, every hit passes
 *   table + PAD_SLOT0 + 48*i   slot i: key (the thread pointer, 8 bytes at 0),
 *                              left (passes still allowed, 8 bytes at 8: the
 *                              pad takes one with a compare-and-swap), the
 *                              stack its thread runs on, [lo, hi) (8 bytes at
 *                              16 and 32), state (a byte at 24: 0 end of the
 *                              table, 1 live, 2 dead), force (a byte at 25:
 *                              not 0 = trap), cond (a byte at 26: not 0 = with
 *                              left 0, run the pad's when: condition), falses
 *                              (8 bytes at 40: arrivals it found false, each a
 *                              pass; the pad adds to it with a locked add)
 *
 * The pads of sites with the same gates read one table's slots (the first
 * pad's: struct arch_pad.slots), each its own off byte: a thread's count is
 * taken at whichever of those sites it comes to.
 *
 * A thread passes when its slot is live, its stack pointer in the slot's
 * stack, force 0 and left not 0; any other hit (no slot for its thread
 * pointer, a thread pointer of 0, another stack: a thread that took another's
 * thread pointer, a handler on an alternate stack) traps on the pad's
 * breakpoint, with every register as it was at the site.
 */
#define PAD_SLOT0 32
#define PAD_SLOT_SIZE 48
#define PAD_SLOTS 24                 /* live or dead; one more, always 0, ends it */
#define PAD_TABLE_SIZE (PAD_SLOT0 + (PAD_SLOTS + 1) * PAD_SLOT_SIZE)
#define PAD_KEY_OFF 0
#define PAD_LEFT_OFF 8
#define PAD_LO_OFF 16
#define PAD_HI_OFF 32
#define PAD_STATE_OFF 24
#define PAD_FORCE_OFF 25
#define PAD_COND_OFF 26              /* a byte: not 0 = left 0 runs the when: condition */
#define PAD_FALSE_OFF 40             /* 8 bytes: arrivals whose condition was false */
#define PAD_CODE_MAX 1024            /* room for a pad's code, its condition's too */
#define PAD_COND_WORDS 32            /* evaluation stack of a condition, in words */
#define PAD_COND_OPS 256             /* ops of a condition a pad runs */

/* Can this machine run pads?  false and *why when not (a fixed string). */
bool arch_pad_supported(const char **why);

#define PAD_INSNS_MAX ARCH_JMP_LEN  /* instructions a jump may cover */

/*
 * How an instruction moves into a pad (arch_pad_movable): on its own terms
 * (anything that does not change the flow, and a conditional jump, which
 * falls through to the next), only as the last one the jump covers (a jump,
 * a call, a return: the bytes after it are reached from elsewhere, or a
 * return address points at them), or not at all (why).
 */
enum { ARCH_PAD_NEVER, ARCH_PAD_MOVES, ARCH_PAD_ENDS };
int arch_pad_movable(const struct arch_insn *insn, const char **why);

struct arch_pad {
	uint64_t at;                 /* where the pad's code goes */
	uint64_t site;               /* the gated instruction */
	/* the instructions from the site on that the jump covers (their
	 * lengths add up to ARCH_JMP_LEN or more), each movable */
	const struct arch_insn *insn;
	size_t ninsn;
	uint64_t table;              /* its table (layout above) */
	/* the slots it reads (0: its table's); another pad's, whose gates are
	 * the same: a pass through either counts against one count */
	uint64_t slots;
	uint64_t trap;               /* out: the pad's breakpoint */
	uint64_t reloc;              /* out: the instructions, relocated */
	/* out: where each relocated instruction starts, from reloc (a jump
	 * or call may grow there: it goes where it went at the site) */
	uint8_t reloc_off[PAD_INSNS_MAX];
	size_t len;                  /* out: bytes of code */
	/*
	 * A when: condition to run in the pad (NULL: none): when a thread's
	 * left is 0 and its slot's cond byte is set, the pad evaluates it;
	 * false adds one to the slot's false count (atomically) and passes,
	 * true (or a division by zero: false) traps.  O_REG for the general
	 * registers arch_dwarf_regs numbers (its last, the PC, is the site),
	 * no O_BIAS (the caller puts constants in), no
	 * O_HIT/O_TID/O_THREAD/O_STREQ.
	 */
	const struct cond_op *cond;
	size_t ncond;
	const char *cond_why;        /* out: why the condition was left out (NULL: in) */
	uint64_t cond_lo, cond_hi;   /* out: [lo, hi) the condition's code */
	/* out: for each byte of [cond_lo, cond_hi) that starts an instruction,
	 * how many 8-byte words the code has pushed below the pad's saved
	 * registers (PAD_DEPTH_NONE elsewhere): the stack pointer to put back
	 * when a thread must leave the condition for the trap */
	uint8_t depth[PAD_CODE_MAX];
	uint64_t cond_exit;          /* out: where to put it (the trap path) */
};
#define PAD_DEPTH_NONE 0xff

/* The pad's code into out[0..PAD_CODE_MAX); fails if a displacement does
 * not reach (the table, the instruction's operand, the way back). */
int arch_pad_encode(struct arch_pad *p, uint8_t *out, rg_err *err);

/*
 * A jump over short instructions (instruction punning): when fewer than
 * ARCH_JMP_LEN bytes of instructions can move, the jump replaces only
 * those (len bytes), and its last bytes are the program's next
 * instructions, left as they are: code[0..ARCH_JMP_LEN) at site.  Those
 * bytes fix part of the jump's target: [*lo, *hi] is where the pad may
 * start.  false when that is below address 0.
 */
bool arch_pad_pun_window(uint64_t site, const uint8_t code[ARCH_JMP_LEN], size_t len,
			 uint64_t *lo, uint64_t *hi);

/* ---- glibc (glibc.c) --------------------------------------------------- */

/* Is a pthread_spinlock_t whose word is v taken?  (Its free value is the
 * architecture's: glibc has assembly of its own for some.) */
bool arch_glibc_spin_taken(int32_t v);

#endif
