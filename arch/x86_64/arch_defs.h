/*
 * x86-64: what the contract (arch/arch.h) needs sized or spelled at compile
 * time.  Everything else of the architecture is behind arch.h's functions,
 * in this folder's .c files.
 */
#ifndef RACEGATE_ARCH_DEFS_H
#define RACEGATE_ARCH_DEFS_H

#include <elf.h>
#include <sys/user.h>

/* How racegate names the machine in its messages ("racegate supports x86_64"),
 * and how it names its ELF files ("not an x86-64 ELF file"). */
#define ARCH_NAME "x86_64"
#define ARCH_ELF_NAME "x86-64"
#define ARCH_ELF_MACHINE EM_X86_64
/* Where ld.so looks when nothing else says (Debian's multiarch folders
 * first), and the flags of an ld.so.cache entry for this machine
 * (FLAG_ELF_LIBC6 | FLAG_X8664_LIB64). */
#define ARCH_LIB_DIRS "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:" \
		      "/lib64:/usr/lib64:/lib:/usr/lib"
#define ARCH_LDCACHE_FLAGS 0x0303

/* The longest instruction. */
#define ARCH_MAX_INSN 16
/* int3 */
#define ARCH_BP_LEN 1
/* syscall; int3 */
#define ARCH_STUB_LEN 3
/* mov $nr,%eax; syscall; int3; int3 (the first int3's trap: PC at 8) */
#define ARCH_INJECT_LEN 9
#define ARCH_INJECT_TRAP_OFF 8
/* jmp rel32 */
#define ARCH_JMP_LEN 5
#define ARCH_JMP_LEN_TEXT "5"
/* A signed 32-bit displacement: what a RIP-relative operand, a jmp rel32
 * and a relocated jcc reach. */
#define ARCH_NEAR_REACH (1ULL << 31)
#define ARCH_NEAR_REACH_TEXT "2 GiB"
/* The highest page user space may map (47-bit virtual addresses). */
#define ARCH_USER_TOP 0x7ffffffff000ULL

/*
 * glibc's lock layouts where they differ by architecture (procstate.c
 * reads them): pthread_mutex_t's int __owner (struct __pthread_mutex_s),
 * pthread_rwlock_t's int __cur_writer (x86's own struct
 * __pthread_rwlock_arch_t: six unsigned words before it).
 */
#define ARCH_GLIBC_MUTEX_OWNER_OFF 8
#define ARCH_GLIBC_RWLOCK_WRITER_OFF 24

/* A stopped thread's general registers, as PTRACE_GETREGSET's NT_PRSTATUS
 * gives them; read only through arch.h's accessors. */
struct arch_regs {
	struct user_regs_struct r;
};

#endif
