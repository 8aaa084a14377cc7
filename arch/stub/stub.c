/*
 * The stub architecture's functions (arch.h): each compiles, and none
 * runs: what must answer gives the answer "none" or an error, the rest is
 * a bug.  They exist so that the check in tests/arch/ compiles the whole
 * contract against a second architecture.
 */
#include "arch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const uint8_t arch_bp_insn[ARCH_BP_LEN];
const uint8_t arch_nop_insn[ARCH_BP_LEN];
const uint8_t arch_stub[ARCH_STUB_LEN];

struct arch {
	int none;
};

struct arch_decoder {
	int none;
};

void arch_inject_code(uint8_t code[ARCH_INJECT_LEN], long nr)
{
	(void)code;
	rg_bug("the stub architecture injects no system call %ld", nr);
}

uint64_t arch_bp_from_trap_pc(uint64_t pc)
{
	return pc;
}

int arch_regs_fetch(pid_t tid, arch_regs *r)
{
	(void)tid;
	memset(r, 0, sizeof(*r));
	errno = ENOSYS;
	return -1;
}

int arch_regs_store(pid_t tid, const arch_regs *r)
{
	(void)tid;
	(void)r;
	errno = ENOSYS;
	return -1;
}

uint64_t arch_get_pc(const arch_regs *r)
{
	return r->opaque[0];
}

void arch_set_pc(arch_regs *r, uint64_t pc)
{
	r->opaque[0] = pc;
}

void arch_clear_step(arch_regs *r)
{
	(void)r;
}

uint64_t arch_get_sp(const arch_regs *r)
{
	return r->opaque[1];
}

void arch_set_sp(arch_regs *r, uint64_t sp)
{
	r->opaque[1] = sp;
}

void arch_entry_frame(const arch_regs *r, bool *in_mem, uint64_t *ret,
		      uint64_t *sp_after)
{
	*in_mem = false;
	*ret = r->opaque[2];
	*sp_after = r->opaque[1];
}

size_t arch_dwarf_regs(const arch_regs *r, uint64_t *out, size_t max)
{
	(void)r;
	(void)out;
	(void)max;
	return 0;
}

uint64_t arch_call_arg(const arch_regs *r, unsigned n)
{
	(void)r;
	(void)n;
	return 0;
}

uint64_t arch_thread_pointer(const arch_regs *r)
{
	(void)r;
	return 0;
}

uint64_t arch_pthread_self(const arch_regs *r)
{
	(void)r;
	return 0;
}

void arch_fork_args(uint64_t a[6], uint64_t flags, uint64_t child_tid)
{
	(void)a;
	(void)flags;
	(void)child_tid;
	rg_bug("the stub architecture makes no fork");
}

void arch_set_syscall_args(arch_regs *r, long nr, uint64_t a0, uint64_t a1, uint64_t a2,
			   uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)r;
	(void)a0;
	(void)a1;
	(void)a2;
	(void)a3;
	(void)a4;
	(void)a5;
	rg_bug("the stub architecture makes no system call %ld", nr);
}

int64_t arch_syscall_result(const arch_regs *r)
{
	(void)r;
	return -ENOSYS;
}

void arch_set_exec_return(arch_regs *r)
{
	(void)r;
}

void arch_set_no_restart(arch_regs *r)
{
	(void)r;
}

int arch_new(arch **out, rg_err *err)
{
	*out = NULL;
	return rg_error(err, "racegate was built for no real machine (arch/stub)");
}

void arch_free(arch *a)
{
	free(a);
}

int arch_decode(arch *a, const uint8_t *code, size_t n, uint64_t addr,
		struct arch_insn *insn, rg_err *err)
{
	(void)a;
	(void)code;
	(void)n;
	memset(insn, 0, sizeof(*insn));
	return rg_error(err, "cannot decode the instruction at 0x%llx (arch/stub)",
			(unsigned long long)addr);
}

bool arch_trap_pc_inside(const struct arch_insn *insn)
{
	(void)insn;
	return false;
}

int arch_relocate(const struct arch_insn *insn, uint64_t orig, uint64_t slot,
		  uint8_t *out, rg_err *err)
{
	(void)insn;
	(void)orig;
	(void)slot;
	(void)out;
	return rg_error(err, "cannot relocate an instruction (arch/stub)");
}

void arch_jump(uint8_t out[ARCH_JMP_LEN], uint64_t from, uint64_t to)
{
	(void)out;
	rg_bug("the stub architecture has no jump from 0x%llx to 0x%llx",
	       (unsigned long long)from, (unsigned long long)to);
}

uint64_t arch_fixup_pc(const struct arch_insn *insn, uint64_t orig,
		       uint64_t slot, uint64_t pc)
{
	(void)insn;
	(void)orig;
	(void)slot;
	return pc;
}

arch_decoder *arch_decoder_new(void)
{
	return NULL;
}

void arch_decoder_free(arch_decoder *d)
{
	free(d);
}

size_t arch_decoder_next(arch_decoder *d, const uint8_t *code, size_t size,
			 uint64_t pc, char *text, size_t len, enum arch_flow *flow,
			 uint64_t *target)
{
	(void)d;
	(void)code;
	(void)size;
	(void)pc;
	(void)text;
	(void)len;
	(void)flow;
	(void)target;
	return 0;
}

unsigned arch_decoded_access(const arch_decoder *d)
{
	(void)d;
	return ARCH_READS | ARCH_WRITES;
}

void arch_branch_scan(const uint8_t *code, size_t size, uint64_t pc,
		      void (*add)(void *ctx, uint64_t op, uint64_t target), void *ctx)
{
	(void)code;
	(void)size;
	(void)pc;
	(void)add;
	(void)ctx;
}

bool arch_pad_supported(const char **why)
{
	*why = "racegate was built for no real machine (arch/stub)";
	return false;
}

int arch_pad_movable(const struct arch_insn *insn, const char **why)
{
	(void)insn;
	*why = "racegate was built for no real machine (arch/stub)";
	return ARCH_PAD_NEVER;
}

int arch_pad_encode(struct arch_pad *p, uint8_t *out, rg_err *err)
{
	(void)p;
	(void)out;
	return rg_error(err, "no pads (arch/stub)");
}

bool arch_pad_pun_window(uint64_t site, const uint8_t code[ARCH_JMP_LEN], size_t len,
			 uint64_t *lo, uint64_t *hi)
{
	(void)site;
	(void)code;
	(void)len;
	*lo = *hi = 0;
	return false;
}

long arch_sys_nr(enum arch_sys s)
{
	(void)s;
	return -1;
}

enum arch_sys arch_sys_of(long nr)
{
	(void)nr;
	return ARCH_SYS_NONE;
}

bool arch_glibc_spin_taken(int32_t v)
{
	return v != 0;
}

long arch_syscall_stopped_in(const arch_regs *r)
{
	(void)r;
	return -1;
}

uint64_t arch_syscall_arg(const arch_regs *r, unsigned n)
{
	(void)r, (void)n;
	return 0;
}

void arch_syscall_set_return(arch_regs *r, int64_t v)
{
	(void)r, (void)v;
}

void arch_syscall_restart_with(arch_regs *r, unsigned n, uint64_t v)
{
	(void)r, (void)n, (void)v;
}
