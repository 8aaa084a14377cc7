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

#include "decider.h"
#include "result.h"
#include "tracer.h"

typedef struct session session;

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

/*
 * explore's fork server (session_copy.c).  session_snapshot spawns the
 * program and runs it until the dynamic linker has mapped and relocated
 * every library, before any of the program's code (a library's
 * constructor, its entry point) runs; there it stays stopped: the
 * template, or an error that says why the program cannot be one (it
 * follows forks, the dynamic linker was not seen to finish, a descriptor
 * its copies would share is open, it does not load glibc).  session_copy
 * makes the stopped program fork itself (*child, left stopped for the
 * next call); session_run_copy, in a fork of racegate made after that
 * call, runs the copy from there with ops/d deciding, filling res and end
 * as session_run does.  session_copy_clear throws away what an earlier
 * copy left in the output pipes: call it once that copy is dead, before a
 * copy runs.  session_copy_early: may a copy be made while an earlier one
 * runs (not when the copies read bytes racegate gives them on stdin:
 * session_copy rewinds it, and its offset is theirs too)?
 */
int session_snapshot(session *s, rg_err *err);

/*
 * A read-only descriptor at the start of a file that holds len bytes of
 * data, a program's stdin (run_opts.stdin_data): a memfd, else an
 * unlinked temporary file.  -1 with errno.
 */
int session_stdin_file(const char *data, size_t len);
int session_copy(session *s, pid_t *child, rg_err *err);
void session_copy_clear(session *s);
bool session_copy_early(const session *s);
void session_run_copy(session *s, pid_t child, const decider_ops *ops, void *d,
		      run_result *res, session_end *end);

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
