/*
 * decide_explore: `racegate explore`'s serialising scheduler as the
 * session's decider (session.h).
 *
 * Every gate location of the plan is a scheduling point.  A thread that
 * arrives at one is held; once no thread runs (every live thread is held
 * at a point, gone, or known to be blocked), the schedule
 * (explore_strategy.h) picks one runnable held thread and only that one
 * goes on, to its next point.  So one traced thread runs at a time, and
 * the order of the points is the schedule's.
 *
 * Two kinds of thread run without having been chosen: a new thread, from
 * its creation to its first point (the explorer waits for it to get there
 * before choosing, unless it is given up on as below: a thread that never
 * meets a point must not stall the schedule), and a thread that blocked in
 * the kernel and was given up on and then woke up.  Both are held at
 * their next point.
 *
 * Who cannot run: a thread at pthread_mutex_lock whose mutex another live
 * thread owns (the owner read from the mutex, tracer.h), and a thread at
 * pthread_join whose target is alive (its pthread_t is its thread
 * pointer); at sem_wait on a semaphore whose count is 0; at an rwlock
 * another live thread holds for writing (or, for a writer, that readers
 * hold); at a barrier whose round the threads held there and those
 * already in it do not fill; at a spin lock that is taken (procstate.h
 * reads these).  A thread that runs to a point (new, or chosen) is
 * looked at in /proc while it does: inside a futex wait, or a wait only
 * the program can end, it is blocked; with run_max_ms of CPU time used
 * (a spin, a long computation), or run_max_ms asleep in a wait that ends
 * by itself, it is let loose; never for wall-clock time while it is
 * runnable, so that a loaded machine does not change a replay's choices.
 * Either no longer counts as running, and another thread is chosen; one
 * chosen many times in a row while others could run is taken to spin
 * and left out of the next choice.  When no held
 * thread can run and nothing else can move, the stall watch ends the run
 * as a deadlock.
 */
#ifndef RACEGATE_DECIDE_EXPLORE_H
#define RACEGATE_DECIDE_EXPLORE_H

#include "explore_strategy.h"
#include "session.h"

/* What a scheduling point is (per gate of the explore plan). */
enum explore_point_kind {
	XP_LINE,               /* a source line or location from --at */
	XP_MUTEX_LOCK,         /* pthread_mutex_lock: not runnable while another owns it */
	XP_JOIN,               /* pthread_join: not runnable while its target lives */
	XP_SYNC,               /* another thread-library operation: always runnable */
	XP_WAIT,               /* a wait (condition, timed): runnable, but may block at once */
	XP_SEM_WAIT,           /* sem_wait: not runnable while the count is 0 */
	XP_RDLOCK,             /* pthread_rwlock_rdlock: not runnable while another writes */
	XP_WRLOCK,             /* pthread_rwlock_wrlock: nor while others read */
	XP_BARRIER,            /* pthread_barrier_wait: not runnable before the round fills */
	XP_SPIN_LOCK,          /* pthread_spin_lock: not runnable while taken */
};

/* How the thread chosen before a decision had stopped running. */
enum explore_stop {
	XS_NONE,               /* no thread was chosen before */
	XS_ARRIVED,            /* it arrived at a point (prev_gate, prev_hit) */
	XS_EXITED,             /* it is gone */
	XS_BLOCKED,            /* it blocked in the kernel (the stall watch said) */
};

/* One decision as the explorer saw it: what the gates.yaml writer reads. */
typedef struct explore_step {
	int thread;            /* logical id */
	size_t gate;           /* the point it went on from (a gate index) */
	long hit;              /* its arrival count at that point, from 1 */
	bool preempt;          /* another thread could have gone on instead */
	int prev;              /* the thread chosen before, or -1 */
	enum explore_stop prev_stop;
	size_t prev_gate;      /* XS_ARRIVED: where prev stood, its arrival there */
	long prev_hit;
} explore_step;

/*
 * A thread that was given up as blocked, was woken (by the stretch that
 * ran: a condition signal, a mutex let go, a thread's exit) and ran to a
 * point before decision `before` was made: the order a gates file must
 * keep, though no decision says it.
 */
typedef struct explore_wake {
	size_t before;         /* the decision it arrived before (may be nsteps) */
	int thread;            /* logical id */
	size_t gate;           /* the point it arrived at, its arrival there */
	long hit;
} explore_wake;

/* A thread of the run, by logical id. */
typedef struct explore_thread_info {
	pid_t tid;
	char *start;           /* start routine, or NULL (the initial thread) */
	int nth;               /* among the threads with the same start in its
				  process, from 1 */
	bool is_main;          /* the program's initial thread */
	char *runs;            /* the program's function its start routine called
				  (what a wrapper runs), as a location names it,
				  once seen at one of its points; or NULL */
	int proc;              /* its process (--follow-fork): 0 the program's,
				  K the K-th child (session_thread_proc) */
} explore_thread_info;

typedef struct explore_decider explore_decider;

extern const decider_ops explore_decider_ops;

/*
 * A decider for s's plan: kinds[g] is the kind of gate g's point; sc is
 * the schedule, which must outlive the decider.  A chosen thread that
 * reaches no point for run_max_ms is let loose (above).  virtual_time:
 * a thread asleep in a sleep whose timeout can be fired is parked, and
 * its timeout fires when no held thread can run (docs/explore.md, "Time
 * under serialisation"); else a sleep is part of its thread's stretch.
 */
explore_decider *explore_decider_new(session *s, const enum explore_point_kind *kinds,
				     explore_sched *sc, double run_max_ms, bool virtual_time);
void explore_decider_free(explore_decider *x);

/* After the run.  Did the run end because no thread could move? */
bool explore_decider_deadlock(const explore_decider *x);
/* The decisions, in order (owned by x). */
size_t explore_decider_steps(const explore_decider *x, const explore_step **out);
/* The woken threads' arrivals, in order (owned by x). */
size_t explore_decider_wakes(const explore_decider *x, const explore_wake **out);
/* How many threads the run had; thread i by logical id (owned by x). */
size_t explore_decider_nthreads(const explore_decider *x);
const explore_thread_info *explore_decider_thread(const explore_decider *x, size_t i);
/*
 * Where the last stretch ended, when its thread is held at a point at the
 * end of the run (a deadlock: it arrived where it cannot go on): true and
 * *gate, *hit (its arrival count there).  False when it ran on, blocked
 * in the kernel or exited, or no thread was chosen.
 */
bool explore_decider_last_stop(const explore_decider *x, size_t *gate, long *hit);

/* The hash of the interleaving: the sequence of (thread, point) decisions. */
uint64_t explore_decider_hash(const explore_decider *x);

#endif
