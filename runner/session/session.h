/*
 * session: one traced program and its event loop, shared by every driver.
 *
 * The session owns what any driver needs to run a program under racegate:
 * the tracer, the table of the program's threads (with the start routine of
 * each and the gate location it last arrived at), racegate's own
 * breakpoints (the entry point, the thread library's pthread_create),
 * the plan's breakpoints and their run-time side (objects.h: shared
 * objects, FUNCTION:return), output capture, the whole-run timeout, the
 * stall watch and the end of the run (kill, or --keep-stopped).
 *
 * What to do when a thread arrives somewhere is not the session's business:
 * a *decider* says it.  The gate engine is one decider (decide_gates.c,
 * `run` and `check`); the explorer and attach mode plug in the same way
 * (docs/design.md, "A run").
 *
 * Contract.  The session calls the decider from its loop only, one call at
 * a time, never from inside another call.  A decider keeps threads it
 * holds stopped simply by answering DECIDE_HOLD; to let a held thread go it
 * calls session_release(), from any callback (or from a hook of its own
 * run inside one): the session restarts released threads, in the order
 * they were released, as soon as the callback returns.  A decider may
 * query the session (session_now, session_thread_at, session_threads, ...)
 * at any time while it runs, but must not stop, resume or kill threads
 * through the tracer itself.  The session owns the run_result's exit
 * status, output, counters and note on failure; the decider owns the
 * timeline and the diagnosis; run.c judges.  The plan_bp a decider is
 * shown belongs to the plan (or to objects.c's run side) and lives as long
 * as the session.  The whole-run timeout, an interrupt and a stuck verdict
 * all end the run the same way: diagnose(), then the program is killed
 * (and reaped by the loop, which goes on reporting its threads' exits)
 * or left stopped and detached with --keep-stopped (the loop ends there).
 *
 * The session starts the program itself (session_run spawns it), or, with
 * run_opts.attach_pid, attaches to a running one: the same loop, whose
 * every end (the gates done, --for, an interrupt, a verdict, an error)
 * lets the program go on (tracer_detach) instead of killing it.
 */
#ifndef RACEGATE_SESSION_H
#define RACEGATE_SESSION_H

#include "result.h"
#include "tracer.h"

typedef struct session session;
struct gate_need;              /* gates.h */

enum decision {
	DECIDE_PASS,           /* the thread goes on at once */
	DECIDE_HOLD,           /* it stays stopped until session_release() names it */
};

/*
 * The decider's side.  d is the pointer given to session_run; t_ms is the
 * time since the program started.  Every callback is required.
 */
typedef struct decider_ops {
	/* Asked once, before the program runs: should thread_named be called? */
	bool (*wants_names)(void *d);
	/*
	 * A thread exists, before it runs its first instruction: the initial
	 * thread (is_main) first, then each in creation order.  start is its
	 * start routine as {start:} selectors name it, or NULL.
	 */
	void (*thread_started)(void *d, pid_t tid, const char *start, bool is_main,
			       double t_ms);
	/* Its name (comm), read at arrivals and while threads are held. */
	void (*thread_named)(void *d, pid_t tid, const char *name, double t_ms);
	/* The thread is gone: its own exit, or the program's end. */
	void (*thread_exited)(void *d, pid_t tid, double t_ms);
	/*
	 * May be NULL.  tid's process (a followed child) called exec: it runs
	 * another executable now (session_thread_proc), before its first
	 * instruction there.  tid is its one thread.
	 */
	void (*thread_exec)(void *d, pid_t tid, double t_ms);
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
	 * How many gated lines the decider wants tid watched past.  When the
	 * session restarts tid and this exceeds the lines it is already
	 * watching, it watches tid get past the line it last arrived at, and
	 * calls passed() when it has (at_once: as it restarts, when that
	 * line's code is not known; the thread's exit stands for it too:
	 * thread_exited).
	 */
	size_t (*pass_depth)(void *d, pid_t tid);
	void (*passed)(void *d, pid_t tid, bool at_once, double t_ms);
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
	 * (the wait-for graph: diagnose.h), and nothing changed in them for
	 * the quiet period; session_stuck_held() says whether the decider
	 * holds one of them.  Returns true when the decider released some
	 * thread and the run goes on (under attach it ends there too, the
	 * threads released: the process is let go), false for a verdict: the
	 * session ends the run (diagnose, then kill, leave stopped, or let go).
	 */
	bool (*stuck)(void *d, double t_ms);
	/*
	 * For the wait-for graph: what held thread tid still needs, and which
	 * threads could give it (gate_needs; the session frees it with
	 * gate_needs_free).  May be NULL: then a thread the decider holds is
	 * stuck only when every other thread is.
	 */
	size_t (*needs)(void *d, pid_t tid, struct gate_need **out);
	/*
	 * Record who is where (res->diag).  unwind: the run is ending and
	 * every thread may be stopped to unwind it; otherwise nothing is
	 * stopped (a gate timeout, an interrupt, a release on deadlock).
	 */
	void (*diagnose)(void *d, bool unwind);
	/*
	 * racegate attach: has every gate that counts (not optional) acted,
	 * with no thread held?  Then the session lets the program go.
	 */
	bool (*done)(void *d);
	/*
	 * Jump pads (tracer_pad_make): may both be NULL, then every hit
	 * traps.  next_interest: how many of tid's next arrivals at at can
	 * pass without arrive() (gate_next_interest; ULONG_MAX: all of them),
	 * asked after each of tid's arrivals at a location sharing a gate with
	 * at (a gate with several sites counts its hits across all of them);
	 * a number that is only ever too small is safe.  count_passes: tid
	 * made k such arrivals since it was last told (told before each of
	 * tid's arrive() at a location sharing a gate with at, and before
	 * thread_exited).
	 */
	unsigned long (*next_interest)(void *d, pid_t tid, const plan_bp *at);
	void (*count_passes)(void *d, pid_t tid, const plan_bp *at, unsigned long k);
	/*
	 * May be NULL.  Once next_interest's arrivals are passed, do tid's
	 * arrivals at at matter only when one gate's when: holds (*gate:
	 * gate_next_when)?  A pad that evaluates that condition then lets
	 * false ones pass, counted through count_passes.
	 */
	bool (*next_when)(void *d, pid_t tid, const plan_bp *at, size_t *gate);
	/* k of the passes count_passes was told of were gate's condition
	 * found false in the pad (for the report's counts).  May be NULL. */
	void (*when_false)(void *d, size_t gate, unsigned long k);
	/*
	 * open_when_blocked (gates.h).  May both be NULL.  blocking: the
	 * threads to watch (*tids malloc'd; 0 when none, and then the session
	 * looks no more often than it otherwise would).  While one is listed,
	 * the session reads their /proc state every BLOCK_POLL_MS and calls
	 * blocked() for each one that is not stopped by the tracer and sleeps
	 * in a system call (tracer_tstate_sleeps).
	 */
	size_t (*blocking)(void *d, pid_t **tids);
	void (*blocked)(void *d, pid_t tid, const char *syscall, double t_ms);
} decider_ops;

/* How the run ended, for judging (run.c). */
typedef struct session_end {
	bool started;          /* the program ran (else res->note says why not) */
	bool failed;           /* racegate could not trace it: res->note says why */
	int interrupted;       /* the signal that ended the run (interrupt.h), or 0 */
	bool timed_out;        /* the whole-run timeout ended it */
	bool kept;             /* left stopped and detached (--keep-stopped) */
	bool detached;         /* attach: let go, clean or not (res->note says) */
	bool completed;        /* attach: let go because every gate that counts acted */
	char execed[256];      /* attach: let go because the process ran exec: the
				  new program (empty: it did not) */
	pid_t kept_pid;
} session_end;

session *session_new(plan *p, const run_opts *o, run_result *res);
void session_free(session *s);

/*
 * Spawns the program, arms every breakpoint, runs the loop with ops/d
 * deciding until the program is gone (or left stopped), and takes the rest
 * of its output.  Fills res's exit status, output, elapsed time, counters
 * (bp_hits, bp_disarmed) and gate_unarmed; end says how it ended.
 */
void session_run(session *s, const decider_ops *ops, void *d, session_end *end);

/* ---- for the decider ---- */

/*
 * The process a thread is in (--follow-fork): nth 0 is the program's, K the
 * K-th child process the tree made; exe the file name of the image it ran
 * when racegate met it; initial: the process's first thread.  False for a
 * thread the session has not seen.
 */
typedef struct session_proc {
	pid_t pid;
	int nth;
	const char *exe;
	bool initial;
	/*
	 * The image it runs, where that is not the program's (session_plan,
	 * session_bias): after its exec, the plan of the gates that name its
	 * executable and that executable's load bias; or img NULL and foreign
	 * when no plan describes it (no gate names the executable).  After
	 * the program's own exec, a child still in the old image has the
	 * program's plan and its old bias.
	 */
	plan *img;
	uint64_t bias;
	bool foreign;
} session_proc;
bool session_thread_proc(const session *s, pid_t tid, session_proc *out);
/* How many processes the run has followed, the program's included. */
size_t session_nprocs(const session *s);

/* Restart tid (held by the decider) once the current callback returns. */
void session_release(session *s, pid_t tid);
double session_now(const session *s);
/* The gate location tid last arrived at, or NULL. */
const plan_bp *session_thread_at(const session *s, pid_t tid);
/*
 * Every thread the run has seen, in creation order, with the location each
 * last arrived at; the caller frees both arrays.
 */
size_t session_threads(const session *s, pid_t **tids, const plan_bp ***at);
/* Is the run ending (the program killed or left stopped)? */
bool session_ending(const session *s);
plan *session_plan(const session *s);
tracer *session_tracer(const session *s);
uint64_t session_bias(const session *s);   /* of the executable */
run_result *session_result(const session *s);
/* At a stuck verdict (decider_ops.stuck): is a thread the decider holds
 * among the stuck ones?  (If not, the program deadlocked by itself.) */
bool session_stuck_held(const session *s);
/* This run's object -> load bias table (kept up to date as objects map). */
const run_bias *session_run_bias(const session *s);

#endif
