/*
 * diagnose: why a run of the gates is stuck, or what its threads were
 * doing when it ended (a verdict, a timeout, an interrupt): one line per
 * thread (label, tid, state, where), the wait-for chain in words, and a
 * backtrace per thread, into the run's record (run_result.diag, .chain).
 * The gates decider's: it names gates, events and aliases from the engine.
 */
#ifndef RACEGATE_DIAGNOSE_H
#define RACEGATE_DIAGNOSE_H

#include "gates.h"
#include "result.h"
#include "tracer.h"

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

#endif
