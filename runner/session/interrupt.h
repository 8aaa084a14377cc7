/*
 * interrupt: SIGINT, SIGTERM and SIGHUP during a session of runs.
 *
 * racegate must not die with a program under ptrace and a thread held, nor
 * without saying what happened.  While a session runs (batch.c), these
 * signals are caught: the run in progress ends as INTERRUPTED with its
 * timeline so far and its program killed (session.c), no run starts after it,
 * workers are told and waited for (jobs.c), the reports are written with
 * every run that ended, and racegate then ends by the signal it got, so
 * that the shell sees 128+N and a script or loop running racegate stops too.
 *
 * The leader (the racegate the user started) takes a second signal as
 * "now": it ends by it at once; the kernel then kills the programs it
 * traced (PTRACE_O_EXITKILL) and its workers (PR_SET_PDEATHSIG), whose own
 * tracees die the same way.  A worker takes any number of signals as one:
 * ^C in a terminal signals the leader and the workers together, and the
 * leader forwards the signal besides; the worker must outlive both to send
 * its interrupted run back.
 *
 * racegate attach guards the process it does not own: while racegate's
 * breakpoints, scratch pages or a held thread are in it, no signal ends
 * racegate (interrupt_guard).  The first lets the process go as always;
 * each one more is said on stderr, and racegate ends by the first once
 * the process is let go.  Only a signal racegate does not catch (SIGKILL,
 * SIGQUIT) ends it at once then (docs/design.md, "Ending an attach", says
 * what that leaves).
 */
#ifndef RACEGATE_INTERRUPT_H
#define RACEGATE_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "msg.h"

/*
 * Catches SIGINT, SIGTERM and SIGHUP in the leader; 0, or -1 with err.
 * Within an install (triage runs explore's search), an install and its
 * uninstall only count: the outer one's handlers and signal stay.
 */
int interrupt_install(rg_err *err);

/* Puts the default actions back and closes the pipe; the signal stays known. */
void interrupt_uninstall(void);

/*
 * From now on no signal ends racegate at once: each one after the first
 * is said on stderr as "got SIGTERM: WHY" (why: what racegate does
 * first, copied), and SIGPIPE is ignored (a write to a closed pipe fails
 * instead).  NULL: a second signal ends racegate again, and SIGPIPE is
 * what it was.
 */
void interrupt_guard(const char *why);

/* The first signal caught since interrupt_install, or 0. */
int interrupt_signal(void);

/*
 * A descriptor that becomes readable, and stays so, when a signal is
 * caught: poll it beside what a loop waits for.  -1 when none is installed.
 */
int interrupt_fd(void);

/*
 * Around fork() of a worker: the three signals are held (blocked) so that
 * none is taken by the child before it has its own pipe.  Both sides call
 * interrupt_release after the fork.
 */
void interrupt_hold(sigset_t *old);
void interrupt_release(const sigset_t *old);

/*
 * In a worker just forked (signals held): a pipe of its own, every signal
 * taken as the first, and death with the leader (PR_SET_PDEATHSIG).  Ends
 * the worker when the leader is already gone; -1 with err on failure.
 */
int interrupt_worker(pid_t leader, rg_err *err);

/* Ends racegate by sig (its default action), or exit 128+sig failing that. */
_Noreturn void interrupt_die(int sig);

#endif
