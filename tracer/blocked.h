/*
 * blocked: is a thread of the program blocked for ever?  The decision alone,
 * from plain values: no /proc, no ptrace.  procstate.c gathers the facts
 * (the system call a thread waits in, its arguments, the files it waits on
 * and who else holds them); this file decides, and says why.
 *
 * Blocked for ever: a futex wait with no timeout; a read/recv on a pipe
 * whose write end no other process holds (racegate, the program's
 * descendants, its session), or on a socketpair only the program holds;
 * poll/epoll/select with no timeout on such files only (an eventfd counts
 * while the program has no child process).  accept, a socket connected
 * elsewhere, a named FIFO, a terminal may wake.  Sleeps and timed waits are
 * not: time alone wakes them.  Anything not known is "may wake", so a
 * deadlock verdict is never drawn from a guess.
 */
#ifndef RACEGATE_BLOCKED_H
#define RACEGATE_BLOCKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch_sys.h"

enum tracer_wait {
	TRACER_WAIT_NONE = 0,  /* running, or blocked in a way that may end by itself */
	TRACER_WAIT_TIMED,     /* blocked with a timeout (sleep, timed wait) */
	TRACER_WAIT_FOREVER,   /* blocked until another thread acts */
};

/* How a call waits on a file. */
enum tracer_wait_use {
	TRACER_USE_READ,       /* read, readv, recvfrom, recvmsg */
	TRACER_USE_ACCEPT,     /* accept, accept4 */
	TRACER_USE_POLL,       /* poll, ppoll, select, pselect6, epoll_wait... */
};

/* Which files the verdict on a call depends on (tracer_wait_source). */
enum tracer_wait_src {
	TRACER_SRC_NONE,       /* none: decided from the call alone */
	TRACER_SRC_FD,         /* the fd in args[0] */
	TRACER_SRC_POLL,       /* the struct pollfd[args[1]] at args[0] */
	TRACER_SRC_SELECT,     /* the fd_sets at args[1..3], below args[0] */
	TRACER_SRC_EPOLL,      /* the files registered with the epoll fd args[0] */
};

enum tracer_fd_kind {
	TRACER_FD_OTHER = 0,   /* may wake: a terminal, a file, a device, a named
				  FIFO, a listening, inet or unconnected socket,
				  or whatever /proc did not tell */
	TRACER_FD_PIPE,        /* an anonymous pipe */
	TRACER_FD_UNIX,        /* a connected AF_UNIX socket */
	TRACER_FD_EVENTFD,
};

/* One file a call waits on, as procstate.c found it. */
struct tracer_wait_fd {
	int fd;
	enum tracer_fd_kind kind;
	bool ours;             /* PIPE: the program holds a write end itself;
				  UNIX: it holds the peer end */
	bool outside;          /* another process could make it ready: PIPE, one
				  holding a write end (for a poll: any end);
				  UNIX, one holding either end; racegate holding
				  it counts; EVENTFD: the program has a child */
};

/* A thread's wait, with the files of tracer_wait_source gathered. */
struct tracer_wait_call {
	char state;            /* /proc stat: only S and D wait */
	bool in_syscall;
	enum arch_sys sys;     /* the system call (arch_sys.h) */
	uint64_t args[6];
	const struct tracer_wait_fd *fds;
	size_t nfds;
	bool fds_complete;     /* fds holds every file the call waits on, or
				  stops at the first that may wake */
};

struct tracer_wait_verdict {
	enum tracer_wait wait;
	const char *reason;    /* static text, for messages and tests */
};

/* The files c's verdict depends on, and how the call waits on them
 * (TRACER_SRC_NONE: it depends on none). */
enum tracer_wait_src tracer_wait_source(const struct tracer_wait_call *c,
					enum tracer_wait_use *use);

/* May a wait (use) on this file end without the program's own doing?
 * Decided file by file, so a gatherer can stop at the first that may. */
bool tracer_wait_fd_may_wake(const struct tracer_wait_fd *fd,
			     enum tracer_wait_use use);

/* The verdict on c (see above). */
struct tracer_wait_verdict tracer_wait_decide(const struct tracer_wait_call *c);

/*
 * explore's time (docs/explore.md, "Time under serialisation"): can a
 * thread asleep in this call be made to end its sleep now, as its timeout
 * would?  RETURN: a sleep (nanosleep, clock_nanosleep) returns 0, slept;
 * AGAIN: a wait for files with a timeout (poll, epoll_wait, epoll_pwait)
 * is made again with the timeout argument *arg set to 0, so that what is
 * ready is still returned.  NO: any other call, or a wait with no timeout
 * (select, ppoll and epoll_pwait2 keep their timeout in memory; a timed
 * futex is a lock's or a condition's, whose timeout is an error).
 */
enum tracer_fire {
	TRACER_FIRE_NO = 0,
	TRACER_FIRE_RETURN,
	TRACER_FIRE_AGAIN,
};
enum tracer_fire tracer_wait_fireable(enum arch_sys sys, const uint64_t args[6],
				      unsigned *arg);

/* A FUTEX_WAIT-like futex call (sys, args): the address it waits on, else 0. */
uint64_t tracer_futex_wait_addr(enum arch_sys sys, const uint64_t args[6]);

/*
 * Who a futex wait waits for.  The words around the futex, as the caller
 * read them (procstate.c knows glibc's layout), and the value the call
 * expects the word to hold (args[2]).
 */
enum tracer_futex_kind {
	TRACER_FUTEX_OTHER = 0, /* a condition, a semaphore, a futex of the
				   program's own: anyone might wake it */
	TRACER_FUTEX_MUTEX,     /* a contended mutex: its owner unlocks it */
	TRACER_FUTEX_JOIN,      /* pthread_join: the joined thread's exit */
};

struct tracer_futex_words {
	uint32_t expected;     /* the call's expected value */
	bool have_word;        /* word read */
	int32_t word;          /* the futex word */
	bool have_owner;       /* owner read */
	int32_t owner;         /* the mutex's owner field, if it is one */
};

/*
 * A contended lock (word and expected value 2, glibc's lll_lock_wait) with
 * an owner tid: MUTEX, *who = owner (which may be gone, or the caller
 * itself).  A word that holds a tid and is expected to (the thread
 * descriptor's tid field that pthread_join waits on): JOIN, *who = that
 * tid; the caller makes sure it is a live thread.  A robust or PI mutex
 * (the word is the owner's tid with FUTEX_WAITERS, matching the owner
 * field): MUTEX too.  Else OTHER.
 */
enum tracer_futex_kind tracer_futex_classify(const struct tracer_futex_words *w,
					     pid_t self, pid_t *who);

#endif
