/*
 * System calls by name, not by number: the calls racegate makes in the
 * program (mmap, munmap: scratch.c) and the ones it recognises a thread
 * waiting in (/proc/TID/syscall: procstate.c, blocked.c).  The numbers are
 * the architecture's (arch/ARCH/sys.c); some calls exist on one
 * architecture only (poll, select, open, pause, vfork have no number on
 * arm64, whose libc makes ppoll, pselect6, openat, rt_sigsuspend and clone
 * of them).
 */
#ifndef RACEGATE_ARCH_SYS_H
#define RACEGATE_ARCH_SYS_H

enum arch_sys {
	ARCH_SYS_NONE,         /* a call racegate does not know */
	ARCH_SYS_READ, ARCH_SYS_READV, ARCH_SYS_WRITE, ARCH_SYS_FUTEX,
	ARCH_SYS_FUTEX_WAITV, ARCH_SYS_NANOSLEEP, ARCH_SYS_CLOCK_NANOSLEEP,
	ARCH_SYS_POLL, ARCH_SYS_PPOLL, ARCH_SYS_SELECT, ARCH_SYS_PSELECT6,
	ARCH_SYS_EPOLL_WAIT, ARCH_SYS_EPOLL_PWAIT, ARCH_SYS_EPOLL_PWAIT2,
	ARCH_SYS_RECVFROM, ARCH_SYS_RECVMSG, ARCH_SYS_ACCEPT, ARCH_SYS_ACCEPT4,
	ARCH_SYS_WAIT4, ARCH_SYS_WAITID, ARCH_SYS_PAUSE, ARCH_SYS_RT_SIGSUSPEND,
	ARCH_SYS_RT_SIGTIMEDWAIT, ARCH_SYS_FLOCK, ARCH_SYS_FCNTL, ARCH_SYS_CONNECT,
	ARCH_SYS_SCHED_YIELD, ARCH_SYS_OPENAT, ARCH_SYS_OPEN, ARCH_SYS_EXECVE,
	ARCH_SYS_EXECVEAT, ARCH_SYS_VFORK, ARCH_SYS_CLONE, ARCH_SYS_WRITEV,
	ARCH_SYS_SENDTO, ARCH_SYS_SENDMSG, ARCH_SYS_MSGRCV, ARCH_SYS_MSGSND,
	ARCH_SYS_SEMOP, ARCH_SYS_SEMTIMEDOP, ARCH_SYS_MQ_TIMEDRECEIVE,
	ARCH_SYS_MQ_TIMEDSEND, ARCH_SYS_KILL, ARCH_SYS_TGKILL, ARCH_SYS_TKILL,
	ARCH_SYS_RT_SIGPROCMASK, ARCH_SYS_GETPID, ARCH_SYS_GETTID, ARCH_SYS_MMAP,
	ARCH_SYS_MUNMAP, ARCH_SYS_EXIT, ARCH_SYS_EXIT_GROUP, ARCH_SYS_CLOSE,
	ARCH_SYS_PRCTL, ARCH_SYS_LSEEK, ARCH_SYS_SET_ROBUST_LIST,
	ARCH_SYS_COUNT
};

/* The architecture's number for s; -1 when it has no such call. */
long arch_sys_nr(enum arch_sys s);

/* Which call number nr (the program's, as /proc shows it) is;
 * ARCH_SYS_NONE for one racegate does not know. */
enum arch_sys arch_sys_of(long nr);

/* Its name for messages ("futex"); NULL for ARCH_SYS_NONE. */
const char *arch_sys_name(enum arch_sys s);

#endif
