/*
 * diagnose: is the run stuck, and why.
 *
 *   stall_*    watches the threads from /proc (never stopping them): when
 *              some threads wait, held at gates or blocked for ever
 *              (procstate.h), only on each other (the wait-for graph,
 *              gates/waitfor.h) and nothing changed in them for the quiet
 *              period, they can make no more progress, whatever the
 *              other threads do.
 *   diagnose   at a verdict: one line per thread (label, tid, state, where),
 *              the wait-for chain in words, and a backtrace per thread.
 */
#ifndef RACEGATE_DIAGNOSE_H
#define RACEGATE_DIAGNOSE_H

#include "gates.h"
#include "result.h"
#include "tracer.h"

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
/* What held tid needs, and from whom (gate_needs); NULL: nothing known. */
typedef size_t (*stall_needs_fn)(void *ctx, pid_t tid, gate_need **out);

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

/* A process of the tree that runs another image than the program's (a
 * followed child after its exec): where its code is described. */
typedef struct diag_image {
	pid_t pid;
	plan *p;                   /* the plan of its image, or NULL: none describes
				      it (its files are named by their own symbols) */
	uint64_t bias;             /* p's executable's load bias */
} diag_image;

typedef struct diag_input {
	plan *p;
	tracer *tr;
	const gate_engine *eng;
	uint64_t bias;             /* of the executable */
	const pid_t *tids;         /* every thread the run has seen, in creation order */
	const plan_bp *const *at;  /* per tids[i]: its last gate location, or NULL */
	const pid_t *pids;         /* per tids[i]: its process (--follow-fork), or NULL:
				      every thread is the program's */
	size_t ntids;
	const diag_image *images;  /* the processes not in the program's image */
	size_t nimages;
	bool unwind;               /* stop blocked threads and unwind them all (ends the run) */
} diag_input;

/*
 * Fills res->diag, res->ndiag and res->chain (replacing what was there).
 * With unwind, running threads are stopped: call it only when the run ends.
 */
void diagnose(const diag_input *in, run_result *res);

/* Prints res's diagnosis, if any: thread lines, the chain, backtraces. */
void diag_print(FILE *f, const run_result *res);

#endif
