/*
 * For tests/arch/cross_check.sh only: libunwind's generic interface, as
 * tracer/unwind.c uses it (libunwind(3), libunwind-ptrace(3)).  The
 * machine's own libunwind.h is installed for x86-64 only and names its
 * registers; this one names none, so tracer/unwind.c compiles against the
 * stub architecture with no x86-64 header in reach.
 */
#ifndef RACEGATE_CHECK_LIBUNWIND_PTRACE_H
#define RACEGATE_CHECK_LIBUNWIND_PTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint64_t unw_word_t;
typedef int unw_regnum_t;
typedef struct unw_addr_space *unw_addr_space_t;
typedef struct unw_cursor {
	unw_word_t opaque[127];
} unw_cursor_t;
typedef struct unw_proc_info unw_proc_info_t;
typedef struct {
	unw_word_t opaque[2];
} unw_fpreg_t;
/* the accessors a remote unwind reads the target through (tracer/unwind.c
 * replaces access_mem) */
typedef struct unw_accessors {
	int (*find_proc_info)(unw_addr_space_t, unw_word_t, unw_proc_info_t *, int, void *);
	void (*put_unwind_info)(unw_addr_space_t, unw_proc_info_t *, void *);
	int (*get_dyn_info_list_addr)(unw_addr_space_t, unw_word_t *, void *);
	int (*access_mem)(unw_addr_space_t, unw_word_t, unw_word_t *, int, void *);
	int (*access_reg)(unw_addr_space_t, unw_regnum_t, unw_word_t *, int, void *);
	int (*access_fpreg)(unw_addr_space_t, unw_regnum_t, unw_fpreg_t *, int, void *);
	int (*resume)(unw_addr_space_t, unw_cursor_t *, void *);
	int (*get_proc_name)(unw_addr_space_t, unw_word_t, char *, size_t, unw_word_t *,
			     void *);
} unw_accessors_t;

/* the PC of the frame, whatever the machine numbers it */
#define UNW_REG_IP ((unw_regnum_t)-1)

extern unw_accessors_t _UPT_accessors;
void *_UPT_create(pid_t pid);
void _UPT_destroy(void *arg);
int _UPT_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
		    void *arg);
unw_addr_space_t unw_create_addr_space(unw_accessors_t *a, int byte_order);
void unw_destroy_addr_space(unw_addr_space_t as);
typedef enum { UNW_CACHE_NONE, UNW_CACHE_GLOBAL, UNW_CACHE_PER_THREAD } unw_caching_policy_t;
int unw_set_caching_policy(unw_addr_space_t as, unw_caching_policy_t policy);
int unw_init_remote(unw_cursor_t *c, unw_addr_space_t as, void *arg);
int unw_get_reg(unw_cursor_t *c, unw_regnum_t reg, unw_word_t *val);
int unw_step(unw_cursor_t *c);
const char *unw_strerror(int err);

#endif
