/*
 * procstate: what a thread of the program is doing, read from
 * /proc/PID/task/TID/{stat,syscall,schedstat,wchan} without stopping it,
 * and a backtrace of a stopped thread (libunwind's ptrace backend).
 *
 * Whether a thread is blocked for ever is decided by blocked.c (blocked.h
 * says how) from what tracer_tstate_wait gathers here: the files the
 * thread waits on and who else holds them.
 */
#ifndef RACEGATE_PROCSTATE_H
#define RACEGATE_PROCSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blocked.h"
#include "tracer.h"

typedef struct tracer_tstate {
	pid_t tid;
	char state;            /* /proc stat: R S D T t Z X, or 0 when the thread is gone */
	bool in_syscall;       /* stopped inside a system call (nr, args valid) */
	long nr;               /* system call number, the architecture's */
	enum arch_sys sys;     /* which call that is (ARCH_SYS_NONE: one racegate does not know) */
	uint64_t args[6];
	uint64_t sp, pc;       /* user stack pointer and PC at the system call */
	unsigned long long runs; /* times scheduled in: changes whenever it runs */
	unsigned long long cpu_ns; /* time it has run on a CPU (0: unknown) */
} tracer_tstate;

/* The live threads of process pid, from /proc/PID/task; caller frees *tids. */
int tracer_tasks(pid_t pid, pid_t **tids, size_t *n);

/* Reads tid's state; st->state is 0 when it is gone.  Never stops it. */
void tracer_tstate_read(pid_t pid, pid_t tid, tracer_tstate *st);

/*
 * Is the thread asleep in a system call: state S or D (so not stopped by
 * ptrace, which reads t, nor on a CPU) with a system call under way (a
 * futex wait, a read, a join, a sleep)?  A thread stopped outside a system
 * call or gone is not.  What open_when_blocked waits for.
 */
bool tracer_tstate_sleeps(const tracer_tstate *st);

/* How long st's wait lasts (blocked.h); pid's fds are looked at for reads
 * and polls. */
enum tracer_wait tracer_tstate_wait(pid_t pid, const tracer_tstate *st);

/* "futex", "nanosleep", ...; "syscall N" for the rest (static buffer-free: buf). */
const char *tracer_syscall_name(long nr, char *buf, size_t len);

/*
 * A thread blocked waiting for its child processes (wait4 or waitid,
 * without WNOHANG): *child is the one child it waits for, or -1 for any.
 * False for anything else (a process group: racegate does not tell).
 */
bool tracer_tstate_waits_child(const tracer_tstate *st, pid_t *child);

/* The child processes of process pid (of all its threads), from /proc;
 * caller frees *kids.  -1 when /proc does not say. */
int tracer_children(pid_t pid, pid_t **kids, size_t *n);

/* Whether syscall nr waits on the fd in its first argument (a read, a
 * receive, an accept). */
bool tracer_syscall_reads_fd(long nr);

/* FUTEX_WAIT-like futex call: its address, else 0. */
uint64_t tracer_tstate_futex(const tracer_tstate *st);

/*
 * Backtrace of a stopped thread (tracer_is_stopped): up to max program
 * counters, innermost first (return addresses as they are, not minus one).
 */
int tracer_backtrace(tracer *tr, pid_t tid, uint64_t *pcs, size_t max,
		     size_t *n, rg_err *err);

/*
 * Who st's futex wait (tracer_tstate_futex) waits for (blocked.h): the
 * words are read from pid's memory as glibc lays out a pthread_mutex_t; *who is the owner or the joined thread.
 */
enum tracer_futex_kind tracer_tstate_futex_on(pid_t pid, const tracer_tstate *st,
					      pid_t *who);

/* The owner field of the pthread_mutex_t at mutex in pid; false if unreadable. */
bool tracer_mutex_owner(pid_t pid, uint64_t mutex, pid_t *owner);

/*
 * A pthread_rwlock_t in pid, as glibc keeps it: writer is the tid of the
 * writer that holds it (0: none); readers counts the readers that hold it
 * or are about to wait for it; write_phase says the lock is (or is being
 * handed over) in writing, so that readers counts waiting readers only.
 * False when it cannot be read.
 */
typedef struct tracer_rwlock {
	pid_t writer;
	unsigned readers;
	bool write_phase;
} tracer_rwlock;
bool tracer_rwlock_read(pid_t pid, uint64_t rw, tracer_rwlock *out);

/*
 * A pthread_barrier_t in pid: count is the number of threads a round
 * needs, waiting the threads already waiting in the current round.
 */
bool tracer_barrier_read(pid_t pid, uint64_t bar, unsigned *waiting, unsigned *count);

/* A pthread_spinlock_t in pid: is it taken? */
bool tracer_spin_taken(pid_t pid, uint64_t lock, bool *taken);

/* A sem_t in pid: its count (what sem_getvalue says). */
bool tracer_sem_value(pid_t pid, uint64_t sem, unsigned *value);

#endif
