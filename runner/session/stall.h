/*
 * stall: is the run stuck?  The session's stall watch looks at the
 * threads from /proc (never stopping them): when some threads wait, held
 * by the decider or blocked for ever (procstate.h), only on each other
 * (the wait-for graph, waitfor.h) and nothing changed in them for the
 * quiet period, they can make no more progress, whatever the other
 * threads do.  Why they are stuck, in words, is the decider's to say.
 */
#ifndef RACEGATE_STALL_H
#define RACEGATE_STALL_H

#include "procstate.h"
#include "result.h"
#include "tracer.h"
#include "waitfor.h"

#define STALL_QUIET_MS 100   /* default quiet period */

typedef struct stall_watch stall_watch;

enum stall_verdict {
	STALL_NONE,            /* some thread can still make progress */
	STALL_MAYBE,           /* some threads stuck, not yet for the quiet period */
	STALL_STUCK,           /* some threads stuck, unchanged for the quiet period */
};

stall_watch *stall_new(pid_t pid, double quiet_ms);
void stall_free(stall_watch *w);
/*
 * The processes whose threads are looked at (--follow-fork: the program's
 * first, then its followed children): a held or running thread of any of
 * them counts as of the program's.  Copied; at start, pid alone.
 */
void stall_processes(stall_watch *w, const pid_t *pids, size_t n);

/*
 * Something happened (a tracer event): the quiet period starts again, and
 * the threads are looked at again only once nothing has happened for a
 * quarter of it (at least 5 ms).
 */
void stall_touch(stall_watch *w);

/* Is tid held (by the decider: session.h)? */
typedef bool (*stall_held_fn)(void *ctx, pid_t tid);
/* What held tid needs, and from whom (*out malloc'd, freed with
 * wf_needs_free); NULL: nothing known. */
typedef size_t (*stall_needs_fn)(void *ctx, pid_t tid, wf_need **out);

/*
 * Looks at every live thread at time t_ms (ms since the run's start): a
 * thread held(ctx, tid) waits for what needs(ctx, tid) says (with no needs
 * known, for anyone); a blocked one for the owner of its mutex, the thread
 * it joins, or anyone.  *next_ms is when to look again (never -1 while the
 * program lives).
 */
enum stall_verdict stall_check(stall_watch *w, stall_held_fn held, stall_needs_fn needs,
			       void *ctx, double t_ms, double *next_ms);

/* The stuck set being watched has a thread held at a gate (the gates' doing). */
bool stall_stuck_held(const stall_watch *w);

/*
 * Nodes of the wait-for graph from what /proc says of a thread, for the
 * stall watch and for a decider's diagnosis.  Is tid gone (no /proc entry:
 * it has exited, and was reaped)?
 */
bool stall_thread_gone(pid_t tid);
/*
 * A thread of process pid in wait4/waitid: the threads of the child
 * processes it waits for (*ons, caller frees), when every such child is
 * one of those watched (tids[i] in process pids[i]); else false: a child
 * racegate does not see may end the wait.
 */
bool stall_child_wait(pid_t pid, const tracer_tstate *st, const pid_t *tids,
		      const pid_t *pids, size_t n, pid_t **ons, size_t *nons);

#endif
