/*
 * x86-64's registers: struct user_regs_struct, read and written whole with
 * PTRACE_GETREGSET (NT_PRSTATUS), and what each one means to racegate.
 */
#include "arch.h"

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

/*
 * The kernel gives the register set of the tracee's own mode: a 32-bit
 * process's is shorter (struct user_regs_struct32).  racegate knows the
 * 64-bit one only, and never uses registers it read in part.
 */
int arch_regs_fetch(pid_t tid, arch_regs *ar)
{
	struct iovec io = { &ar->r, sizeof(ar->r) };

	if (ptrace(PTRACE_GETREGSET, tid, (void *)(uintptr_t)NT_PRSTATUS, &io) < 0)
		return -1;
	if (io.iov_len != sizeof(ar->r)) {
		errno = ENOEXEC;
		return -1;
	}
	return 0;
}

int arch_regs_store(pid_t tid, const arch_regs *ar)
{
	struct iovec io = { (void *)&ar->r, sizeof(ar->r) };

	return ptrace(PTRACE_SETREGSET, tid, (void *)(uintptr_t)NT_PRSTATUS, &io) < 0 ? -1 : 0;
}

/* The pad's key (pad.c): the same fs base. */
uint64_t arch_thread_pointer(const arch_regs *ar)
{
	return ar->r.fs_base;
}

/* System V AMD64: rdi, rsi, rdx, rcx, r8, r9. */
uint64_t arch_call_arg(const arch_regs *ar, unsigned n)
{
	switch (n) {
	case 0: return ar->r.rdi;
	case 1: return ar->r.rsi;
	case 2: return ar->r.rdx;
	case 3: return ar->r.rcx;
	case 4: return ar->r.r8;
	case 5: return ar->r.r9;
	default: return 0;
	}
}

/*
 * x86_64 keeps the thread pointer in the fs base, and glibc's
 * pthread_self() is that pointer (its struct pthread starts with the TCB).
 */
uint64_t arch_pthread_self(const arch_regs *ar)
{
	return ar->r.fs_base;
}

uint64_t arch_get_pc(const arch_regs *ar)
{
	return ar->r.rip;
}

void arch_set_pc(arch_regs *ar, uint64_t pc)
{
	ar->r.rip = pc;
}

void arch_clear_step(arch_regs *ar)
{
	ar->r.eflags &= ~0x100ULL;      /* TF */
}

uint64_t arch_get_sp(const arch_regs *ar)
{
	return ar->r.rsp;
}

void arch_set_sp(arch_regs *ar, uint64_t sp)
{
	ar->r.rsp = sp;
}

/* call pushed the return address; ret pops it. */
void arch_entry_frame(const arch_regs *ar, bool *in_mem,
		      uint64_t *ret, uint64_t *sp_after)
{
	*in_mem = true;
	*ret = ar->r.rsp;
	*sp_after = ar->r.rsp + 8;
}

/*
 * x86-64 psABI, figure 3.36: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi,
 * 6 rbp, 7 rsp, 8-15 r8-r15, 16 the return address column (the PC).
 */
size_t arch_dwarf_regs(const arch_regs *ar, uint64_t *out, size_t max)
{
	const uint64_t v[] = {
		ar->r.rax, ar->r.rdx, ar->r.rcx, ar->r.rbx, ar->r.rsi, ar->r.rdi, ar->r.rbp, ar->r.rsp,
		ar->r.r8, ar->r.r9, ar->r.r10, ar->r.r11, ar->r.r12, ar->r.r13, ar->r.r14, ar->r.r15,
		ar->r.rip,
	};
	size_t n = sizeof(v) / sizeof(v[0]);

	if (n > max)
		n = max;
	memcpy(out, v, n * sizeof(*out));
	return n;
}

void arch_set_syscall_args(arch_regs *ar, long nr,
			   uint64_t a0, uint64_t a1, uint64_t a2,
			   uint64_t a3, uint64_t a4, uint64_t a5)
{
	ar->r.rax = nr;
	ar->r.rdi = a0;
	ar->r.rsi = a1;
	ar->r.rdx = a2;
	ar->r.r10 = a3;
	ar->r.r8 = a4;
	ar->r.r9 = a5;
}

int64_t arch_syscall_result(const arch_regs *ar)
{
	return (int64_t)ar->r.rax;
}

/*
 * The registers saved at the exec stop belong to a thread still inside
 * execve: orig_rax is the syscall number and rax is about to become its
 * return value.  Restoring them at a later, non-syscall stop must not make
 * the kernel think a syscall is to be restarted.
 */
void arch_set_exec_return(arch_regs *ar)
{
	ar->r.rax = 0;
	ar->r.orig_rax = (uint64_t)-1;
}

/*
 * A thread stopped inside a system call (PTRACE_INTERRUPT) has orig_rax
 * set and rax an -ERESTART... code: on its restart the kernel moves the PC
 * back over the syscall instruction, which it must not do at injected code.
 */
void arch_set_no_restart(arch_regs *ar)
{
	ar->r.orig_rax = (uint64_t)-1;
}


long arch_syscall_stopped_in(const arch_regs *ar)
{
	return (long)ar->r.orig_rax;
}

uint64_t arch_syscall_arg(const arch_regs *ar, unsigned n)
{
	/* the kernel keeps them across the call (it clobbers rax, rcx, r11) */
	const unsigned long long arg[] = {
		ar->r.rdi, ar->r.rsi, ar->r.rdx, ar->r.r10, ar->r.r8, ar->r.r9,
	};

	return n < 6 ? arg[n] : 0;
}

void arch_syscall_set_return(arch_regs *ar, int64_t v)
{
	ar->r.rax = (uint64_t)v;
	ar->r.orig_rax = (uint64_t)-1;
}

void arch_syscall_restart_with(arch_regs *ar, unsigned n, uint64_t v)
{
	unsigned long long *arg[] = {
		&ar->r.rdi, &ar->r.rsi, &ar->r.rdx, &ar->r.r10, &ar->r.r8, &ar->r.r9,
	};

	if (n < 6)
		*arg[n] = v;
	ar->r.rax = (uint64_t)-513;    /* -ERESTARTNOINTR: restarted whatever happens */
}
