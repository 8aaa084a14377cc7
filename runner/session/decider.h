/*
 * decider: what the session asks of whoever decides what a thread does
 * when it arrives somewhere (docs/design.md, "A run").  The gate engine is
 * one decider (run/decide_gates.c), the explorer another
 * (explore/decide_explore.c).
 *
 * A decider is a small required core and optional capability groups.
 * Every callback of the core must be set; a group is NULL when the
 * decider does not have that capability, and when it is set, every
 * callback in it must be.  The session checks both once, when the run
 * starts (decider_check: rg_bug, a broken invariant), and calls a group
 * only through decider.c, which says in one place what its absence means.
 *
 * d is the pointer given to session_run; t_ms is the time since the
 * program started.  The session calls the decider from its loop only, one
 * call at a time, never from inside another call (session.h).
 */
#ifndef RACEGATE_DECIDER_H
#define RACEGATE_DECIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "plan.h"
#include "waitfor.h"

enum decision {
	DECIDE_PASS,           /* the thread goes on at once */
	DECIDE_HOLD,           /* it stays stopped until session_release() names it */
};

/* Thread names (comm), for deciders that select threads by them. */
typedef struct decider_names {
	/* Asked once, before the program runs: should named be called? */
	bool (*wants)(void *d);
	/* tid's name, read at arrivals and while threads are held. */
	void (*named)(void *d, pid_t tid, const char *name, double t_ms);
} decider_names;

/* Watching a thread get past the line it arrived at (then_open). */
typedef struct decider_lines {
	/*
	 * How many gated lines the decider wants tid watched past.  When the
	 * session restarts tid and this exceeds the lines it is already
	 * watching, it watches tid get past the line it last arrived at, and
	 * calls passed() when it has (at_once: as it restarts, when that
	 * line's code is not known; the thread's exit stands for it too:
	 * thread_exited).
	 */
	size_t (*pass_depth)(void *d, pid_t tid);
	void (*passed)(void *d, pid_t tid, bool at_once, double t_ms);
} decider_lines;

/*
 * What a held thread waits for, for the wait-for graph (waitfor.h).
 * Without it a thread the decider holds is stuck only when every other
 * thread is.
 */
typedef struct decider_waits {
	/* What held thread tid still needs, and which threads could give it
	 * (*out malloc'd; the session frees it with wf_needs_free). */
	size_t (*needs)(void *d, pid_t tid, wf_need **out);
} decider_waits;

/*
 * Jump pads (tracer_pad_make): hits that pass in the thread itself.
 * Without it every hit traps.
 */
typedef struct decider_fastpath {
	/*
	 * How many of tid's next arrivals at at can pass without arrive()
	 * (gate_next_interest; ULONG_MAX: all of them), asked after each of
	 * tid's arrivals at a location sharing a gate with at (a gate with
	 * several sites counts its hits across all of them); a number that is
	 * only ever too small is safe.
	 */
	unsigned long (*next_interest)(void *d, pid_t tid, const plan_bp *at);
	/* tid made k such arrivals since it was last told (told before each
	 * of tid's arrive() at a location sharing a gate with at, and before
	 * thread_exited). */
	void (*count_passes)(void *d, pid_t tid, const plan_bp *at, unsigned long k);
	/*
	 * Once next_interest's arrivals are passed, do tid's arrivals at at
	 * matter only when one gate's when: holds (*gate: gate_next_when)?  A
	 * pad that evaluates that condition then lets false ones pass,
	 * counted through count_passes.
	 */
	bool (*next_when)(void *d, pid_t tid, const plan_bp *at, size_t *gate);
	/* k of the passes count_passes was told of were gate's condition
	 * found false in the pad (for the report's counts). */
	void (*when_false)(void *d, size_t gate, unsigned long k);
} decider_fastpath;

/* Threads to see fall asleep (open_when_blocked, gates.h). */
typedef struct decider_blocking {
	/*
	 * The threads to watch (*tids malloc'd; 0 when none, and then the
	 * session looks no more often than it otherwise would).  While one is
	 * listed, the session reads their /proc state every BLOCK_POLL_MS and
	 * calls blocked() for each one that is not stopped by the tracer and
	 * sleeps in a system call (tracer_tstate_sleeps).
	 */
	size_t (*blocking)(void *d, pid_t **tids);
	void (*blocked)(void *d, pid_t tid, const char *syscall, double t_ms);
} decider_blocking;

/* Sleeps parked as they begin (tracer_watch_sleeps, which the decider
 * turns on for the threads it wants watched). */
typedef struct decider_sleeps {
	/* tid is stopped entering a sleep racegate can end (tracer_fire):
	 * true when the decider keeps it there, false to let it sleep. */
	bool (*asleep)(void *d, pid_t tid, double t_ms);
} decider_sleeps;

/* racegate attach: a run that ends once the decider is done. */
typedef struct decider_attach {
	/* Has every gate that counts (not optional) acted, with no thread
	 * held?  Then the session lets the program go. */
	bool (*done)(void *d);
} decider_attach;

/* Process trees (--follow-fork). */
typedef struct decider_processes {
	/* tid's process (a followed child) called exec: it runs another
	 * executable now (session_thread_proc), before its first instruction
	 * there.  tid is its one thread. */
	void (*execed)(void *d, pid_t tid, double t_ms);
} decider_processes;

typedef struct decider_ops {
	/* ---- the core: every decider has all of it ---- */
	/*
	 * A thread exists, before it runs its first instruction: the initial
	 * thread (is_main) first, then each in creation order.  start is its
	 * start routine as {start:} selectors name it, or NULL.
	 */
	void (*thread_started)(void *d, pid_t tid, const char *start, bool is_main,
			       double t_ms);
	/* The thread is gone: its own exit, or the program's end. */
	void (*thread_exited)(void *d, pid_t tid, double t_ms);
	/*
	 * tid is stopped at a gate location, about to execute its first
	 * instruction (session_thread_at(tid) is at from now on).
	 */
	enum decision (*arrive)(void *d, pid_t tid, const plan_bp *at, double t_ms);
	/*
	 * Could a later arrival at at still be held or act?  When not, the
	 * session takes the breakpoint out (a hot loop stops paying for it).
	 */
	bool (*site_live)(void *d, const plan_bp *at);
	/*
	 * Called on every turn of the loop: the decider's own deadlines.
	 * Returns the time it wants to be called again, or -1 for no need.
	 * While a deadline is pending the stall watch never reports stuck.
	 */
	double (*tick)(void *d, double t_ms);
	/* Is tid stopped by the decider?  How many threads are? */
	bool (*is_held)(void *d, pid_t tid);
	size_t (*nheld)(void *d);
	/*
	 * Some threads wait, held or blocked for ever, only on each other
	 * (the wait-for graph: stall.h), and nothing changed in them for the
	 * quiet period; session_stuck_held() says whether the decider holds
	 * one of them.  Returns true when the decider released some thread
	 * and the run goes on (under attach it ends there too, the threads
	 * released: the process is let go), false for a verdict: the session
	 * ends the run (diagnose, then kill, leave stopped, or let go).
	 */
	bool (*stuck)(void *d, double t_ms);
	/*
	 * Record who is where (res->diag).  unwind: the run is ending and
	 * every thread may be stopped to unwind it; otherwise nothing is
	 * stopped (a gate timeout, an interrupt, a release on deadlock).
	 */
	void (*diagnose)(void *d, bool unwind);

	/* ---- capabilities: NULL when the decider has none of it ---- */
	const decider_names *names;
	const decider_lines *lines;
	const decider_waits *waits;
	const decider_fastpath *fastpath;
	const decider_blocking *blocking;
	const decider_sleeps *sleeps;
	const decider_attach *attach;
	const decider_processes *processes;
} decider_ops;

/* Every callback of the core and of each group present is set (rg_bug). */
void decider_check(const decider_ops *ops);

/*
 * Core callbacks for a decider that never holds a thread (it only watches,
 * or lets every thread pass): no tick wanted, none held, never stuck,
 * nothing to diagnose.
 */
double decider_no_tick(void *d, double t_ms);
bool decider_holds_none(void *d, pid_t tid);
size_t decider_none_held(void *d);
bool decider_never_stuck(void *d, double t_ms);
void decider_no_diagnosis(void *d, bool unwind);

/*
 * A decider as the session holds it, and the groups' calls with what their
 * absence means, said once here: no names wanted; no line watched past;
 * no needs known; no pad (every hit traps); no thread watched for sleep;
 * every sleep slept; never done before the program ends; an exec noted by
 * nobody.
 */
typedef struct decider {
	const decider_ops *ops;
	void *d;
} decider;

bool decider_wants_names(const decider *x);
void decider_named(const decider *x, pid_t tid, const char *name, double t_ms);
size_t decider_pass_depth(const decider *x, pid_t tid);
void decider_passed(const decider *x, pid_t tid, bool at_once, double t_ms);
size_t decider_needs(const decider *x, pid_t tid, wf_need **out);
bool decider_has_fastpath(const decider *x);
unsigned long decider_next_interest(const decider *x, pid_t tid, const plan_bp *at);
void decider_count_passes(const decider *x, pid_t tid, const plan_bp *at, unsigned long k);
bool decider_next_when(const decider *x, pid_t tid, const plan_bp *at, size_t *gate);
void decider_when_false(const decider *x, size_t gate, unsigned long k);
bool decider_watches_blocking(const decider *x);
size_t decider_blocking_tids(const decider *x, pid_t **tids);
void decider_blocked(const decider *x, pid_t tid, const char *syscall, double t_ms);
bool decider_asleep(const decider *x, pid_t tid, double t_ms);
bool decider_done(const decider *x);
void decider_execed(const decider *x, pid_t tid, double t_ms);

#endif
