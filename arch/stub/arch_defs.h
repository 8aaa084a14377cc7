/*
 * The stub architecture: a second arch_defs.h, deliberately unlike
 * x86-64's (other lengths, another register set, no multiarch folder), for
 * the check that compiles every file outside arch/ against it with another
 * machine's compiler and C library (tests/arch/).  racegate is never built
 * to run with it (arch/CMakeLists.txt refuses).
 */
#ifndef RACEGATE_ARCH_DEFS_H
#define RACEGATE_ARCH_DEFS_H

#include <elf.h>
#include <stdint.h>

#define ARCH_NAME "stub"
#define ARCH_ELF_NAME "stub"
#define ARCH_ELF_MACHINE EM_NONE
#define ARCH_LIB_DIRS "/lib:/usr/lib"
#define ARCH_LDCACHE_FLAGS 0x0003

#define ARCH_MAX_INSN 4
#define ARCH_BP_LEN 4
#define ARCH_STUB_LEN 8
#define ARCH_INJECT_LEN 16
#define ARCH_INJECT_TRAP_OFF 12
#define ARCH_JMP_LEN 4
#define ARCH_JMP_LEN_TEXT "4"
#define ARCH_NEAR_REACH (1ULL << 27)
#define ARCH_NEAR_REACH_TEXT "128 MiB"
#define ARCH_USER_TOP 0xfffffffff000ULL

#define ARCH_GLIBC_MUTEX_OWNER_OFF 8
#define ARCH_GLIBC_RWLOCK_WRITER_OFF 28

/* Registers no file outside arch/ can name. */
struct arch_regs {
	uint64_t opaque[34];
};

#endif
