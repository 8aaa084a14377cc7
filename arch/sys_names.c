/*
 * The names of the calls arch_sys.h knows: the same on every architecture
 * (only the numbers differ, arch/ARCH/sys.c).
 */
#include "arch_sys.h"

#include <stddef.h>

const char *arch_sys_name(enum arch_sys s)
{
	static const char *const names[ARCH_SYS_COUNT] = {
		[ARCH_SYS_READ] = "read", [ARCH_SYS_READV] = "readv",
		[ARCH_SYS_WRITE] = "write", [ARCH_SYS_FUTEX] = "futex",
		[ARCH_SYS_FUTEX_WAITV] = "futex_waitv",
		[ARCH_SYS_NANOSLEEP] = "nanosleep",
		[ARCH_SYS_CLOCK_NANOSLEEP] = "clock_nanosleep",
		[ARCH_SYS_POLL] = "poll", [ARCH_SYS_PPOLL] = "ppoll",
		[ARCH_SYS_SELECT] = "select", [ARCH_SYS_PSELECT6] = "pselect6",
		[ARCH_SYS_EPOLL_WAIT] = "epoll_wait",
		[ARCH_SYS_EPOLL_PWAIT] = "epoll_pwait",
		[ARCH_SYS_EPOLL_PWAIT2] = "epoll_pwait2",
		[ARCH_SYS_RECVFROM] = "recvfrom", [ARCH_SYS_RECVMSG] = "recvmsg",
		[ARCH_SYS_ACCEPT] = "accept", [ARCH_SYS_ACCEPT4] = "accept4",
		[ARCH_SYS_WAIT4] = "wait4", [ARCH_SYS_WAITID] = "waitid",
		[ARCH_SYS_PAUSE] = "pause", [ARCH_SYS_RT_SIGSUSPEND] = "rt_sigsuspend",
		[ARCH_SYS_RT_SIGTIMEDWAIT] = "rt_sigtimedwait",
		[ARCH_SYS_FLOCK] = "flock", [ARCH_SYS_FCNTL] = "fcntl",
		[ARCH_SYS_CONNECT] = "connect", [ARCH_SYS_SCHED_YIELD] = "sched_yield",
		[ARCH_SYS_OPENAT] = "openat", [ARCH_SYS_OPEN] = "open",
		[ARCH_SYS_EXECVE] = "execve", [ARCH_SYS_EXECVEAT] = "execveat",
		[ARCH_SYS_VFORK] = "vfork", [ARCH_SYS_CLONE] = "clone",
		[ARCH_SYS_WRITEV] = "writev", [ARCH_SYS_SENDTO] = "sendto",
		[ARCH_SYS_SENDMSG] = "sendmsg", [ARCH_SYS_MSGRCV] = "msgrcv",
		[ARCH_SYS_MSGSND] = "msgsnd", [ARCH_SYS_SEMOP] = "semop",
		[ARCH_SYS_SEMTIMEDOP] = "semtimedop",
		[ARCH_SYS_MQ_TIMEDRECEIVE] = "mq_timedreceive",
		[ARCH_SYS_MQ_TIMEDSEND] = "mq_timedsend",
		[ARCH_SYS_KILL] = "kill", [ARCH_SYS_TGKILL] = "tgkill",
		[ARCH_SYS_TKILL] = "tkill", [ARCH_SYS_RT_SIGPROCMASK] = "rt_sigprocmask",
		[ARCH_SYS_GETPID] = "getpid", [ARCH_SYS_GETTID] = "gettid",
		[ARCH_SYS_MMAP] = "mmap", [ARCH_SYS_MUNMAP] = "munmap",
		[ARCH_SYS_EXIT] = "exit", [ARCH_SYS_EXIT_GROUP] = "exit_group",
		[ARCH_SYS_CLOSE] = "close",
		[ARCH_SYS_PRCTL] = "prctl", [ARCH_SYS_LSEEK] = "lseek",
		[ARCH_SYS_SET_ROBUST_LIST] = "set_robust_list",
	};

	return s > ARCH_SYS_NONE && s < ARCH_SYS_COUNT ? names[s] : NULL;
}
