/*
 * glibc on x86-64, where it differs from its generic C (arch.h; the lock
 * layouts are arch_defs.h's).
 */
#include "arch.h"

/*
 * pthread_spinlock_t: an int that pthread_spin_init and _unlock set to 1
 * and _lock decrements, spinning while it is not above 0 (x86 has its own
 * assembly; the generic C version uses 0 for free).
 */
bool arch_glibc_spin_taken(int32_t v)
{
	return v <= 0;
}
