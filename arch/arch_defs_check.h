/*
 * What every architecture's arch_defs.h must define (arch.h includes it
 * right after that header): a folder that forgets one fails to compile
 * here, with the name of what is missing, instead of deep in tracer/.
 */
#ifndef RACEGATE_ARCH_DEFS_CHECK_H
#define RACEGATE_ARCH_DEFS_CHECK_H

#if !defined(ARCH_NAME) || !defined(ARCH_ELF_NAME) || !defined(ARCH_ELF_MACHINE)
#error "arch_defs.h must define ARCH_NAME, ARCH_ELF_NAME and ARCH_ELF_MACHINE"
#endif
#if !defined(ARCH_LIB_DIRS) || !defined(ARCH_LDCACHE_FLAGS)
#error "arch_defs.h must define ARCH_LIB_DIRS and ARCH_LDCACHE_FLAGS"
#endif
#if !defined(ARCH_MAX_INSN) || !defined(ARCH_BP_LEN) || !defined(ARCH_STUB_LEN)
#error "arch_defs.h must define ARCH_MAX_INSN, ARCH_BP_LEN and ARCH_STUB_LEN"
#endif
#if !defined(ARCH_INJECT_LEN) || !defined(ARCH_INJECT_TRAP_OFF)
#error "arch_defs.h must define ARCH_INJECT_LEN and ARCH_INJECT_TRAP_OFF"
#endif
#if !defined(ARCH_JMP_LEN) || !defined(ARCH_JMP_LEN_TEXT)
#error "arch_defs.h must define ARCH_JMP_LEN and ARCH_JMP_LEN_TEXT"
#endif
#if !defined(ARCH_NEAR_REACH) || !defined(ARCH_NEAR_REACH_TEXT) || !defined(ARCH_USER_TOP)
#error "arch_defs.h must define ARCH_NEAR_REACH, ARCH_NEAR_REACH_TEXT and ARCH_USER_TOP"
#endif
#if !defined(ARCH_GLIBC_MUTEX_OWNER_OFF) || !defined(ARCH_GLIBC_RWLOCK_WRITER_OFF)
#error "arch_defs.h must define ARCH_GLIBC_MUTEX_OWNER_OFF and ARCH_GLIBC_RWLOCK_WRITER_OFF"
#endif

#endif
