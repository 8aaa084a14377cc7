/*
 * x86-64's system call numbers for arch_sys.h's calls (<sys/syscall.h> of
 * the x86-64 build: the program runs on the machine racegate runs on).
 */
#include "arch.h"

#include <sys/syscall.h>

static const long nrs[ARCH_SYS_COUNT] = {
	[ARCH_SYS_NONE] = -1,
	[ARCH_SYS_READ] = SYS_read, [ARCH_SYS_READV] = SYS_readv,
	[ARCH_SYS_WRITE] = SYS_write, [ARCH_SYS_FUTEX] = SYS_futex,
	[ARCH_SYS_FUTEX_WAITV] = 449,            /* Linux 5.16 */
	[ARCH_SYS_NANOSLEEP] = SYS_nanosleep,
	[ARCH_SYS_CLOCK_NANOSLEEP] = SYS_clock_nanosleep,
	[ARCH_SYS_POLL] = SYS_poll, [ARCH_SYS_PPOLL] = SYS_ppoll,
	[ARCH_SYS_SELECT] = SYS_select, [ARCH_SYS_PSELECT6] = SYS_pselect6,
	[ARCH_SYS_EPOLL_WAIT] = SYS_epoll_wait, [ARCH_SYS_EPOLL_PWAIT] = SYS_epoll_pwait,
	[ARCH_SYS_EPOLL_PWAIT2] = 441,           /* Linux 5.11 */
	[ARCH_SYS_RECVFROM] = SYS_recvfrom, [ARCH_SYS_RECVMSG] = SYS_recvmsg,
	[ARCH_SYS_ACCEPT] = SYS_accept, [ARCH_SYS_ACCEPT4] = SYS_accept4,
	[ARCH_SYS_WAIT4] = SYS_wait4, [ARCH_SYS_WAITID] = SYS_waitid,
	[ARCH_SYS_PAUSE] = SYS_pause, [ARCH_SYS_RT_SIGSUSPEND] = SYS_rt_sigsuspend,
	[ARCH_SYS_RT_SIGTIMEDWAIT] = SYS_rt_sigtimedwait,
	[ARCH_SYS_FLOCK] = SYS_flock, [ARCH_SYS_FCNTL] = SYS_fcntl,
	[ARCH_SYS_CONNECT] = SYS_connect, [ARCH_SYS_SCHED_YIELD] = SYS_sched_yield,
	[ARCH_SYS_OPENAT] = SYS_openat, [ARCH_SYS_OPEN] = SYS_open,
	[ARCH_SYS_EXECVE] = SYS_execve, [ARCH_SYS_EXECVEAT] = SYS_execveat,
	[ARCH_SYS_VFORK] = SYS_vfork, [ARCH_SYS_CLONE] = SYS_clone,
	[ARCH_SYS_WRITEV] = SYS_writev, [ARCH_SYS_SENDTO] = SYS_sendto,
	[ARCH_SYS_SENDMSG] = SYS_sendmsg, [ARCH_SYS_MSGRCV] = SYS_msgrcv,
	[ARCH_SYS_MSGSND] = SYS_msgsnd, [ARCH_SYS_SEMOP] = SYS_semop,
	[ARCH_SYS_SEMTIMEDOP] = SYS_semtimedop,
	[ARCH_SYS_MQ_TIMEDRECEIVE] = SYS_mq_timedreceive,
	[ARCH_SYS_MQ_TIMEDSEND] = SYS_mq_timedsend,
	[ARCH_SYS_KILL] = SYS_kill, [ARCH_SYS_TGKILL] = SYS_tgkill,
	[ARCH_SYS_TKILL] = SYS_tkill, [ARCH_SYS_RT_SIGPROCMASK] = SYS_rt_sigprocmask,
	[ARCH_SYS_GETPID] = SYS_getpid, [ARCH_SYS_GETTID] = SYS_gettid,
	[ARCH_SYS_MMAP] = SYS_mmap, [ARCH_SYS_MUNMAP] = SYS_munmap,
	[ARCH_SYS_EXIT] = SYS_exit, [ARCH_SYS_EXIT_GROUP] = SYS_exit_group,
	[ARCH_SYS_CLOSE] = SYS_close, [ARCH_SYS_PRCTL] = SYS_prctl,
	[ARCH_SYS_LSEEK] = SYS_lseek, [ARCH_SYS_SET_ROBUST_LIST] = SYS_set_robust_list,
};

long arch_sys_nr(enum arch_sys s)
{
	return s > ARCH_SYS_NONE && s < ARCH_SYS_COUNT ? nrs[s] : -1;
}

enum arch_sys arch_sys_of(long nr)
{
	for (int s = ARCH_SYS_NONE + 1; s < ARCH_SYS_COUNT; s++)
		if (nrs[s] == nr)
			return (enum arch_sys)s;
	return ARCH_SYS_NONE;
}

/* x86-64's clone(flags, stack, parent_tid, child_tid, tls). */
void arch_fork_args(uint64_t a[6], uint64_t flags, uint64_t child_tid)
{
	a[0] = flags;
	a[1] = a[2] = a[4] = a[5] = 0;
	a[3] = child_tid;
}
