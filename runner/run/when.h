/*
 * when: `when:` conditions evaluated at arrivals (the run side of conds.h).
 *
 * The gate engine asks for a gate's condition only when the gate's other
 * filters chose the arrival (gates.h, gate_hooks.when).  The condition
 * compiled for the site the thread stopped at is evaluated over that
 * thread: its registers, read once per arrival however many conditions
 * the location has (the tracer's cache of the stop, which the step over the
 * breakpoint reuses), and its memory, read in batches (tracer_read_batch).
 * A read that faults makes the condition false for that arrival; the caller
 * reports it.  Nothing here writes to the program.
 */
#ifndef RACEGATE_WHEN_H
#define RACEGATE_WHEN_H

#include "gates.h"
#include "session.h"

typedef struct when_run when_run;

/* For one run of s (its plan's compiled conditions, its tracer once it runs), with eng. */
when_run *when_new(session *s, const gate_engine *eng);
void when_free(when_run *w);

/* A new arrival: the registers are read again by the next evaluation. */
void when_arrival(when_run *w);

/*
 * Evaluates gate's condition for tid stopped at site, its hit-th pass
 * there ($hit).  Returns 1 (true), 0 (false), or -1 when a read faulted
 * (false for this arrival; *fault gets "when: *p unreadable at 0x0",
 * malloc'd) or the registers could not be read (the thread died
 * meanwhile: *fault says so).  A site with no compiled condition is false
 * (*fault says so too).
 */
int when_eval(when_run *w, pid_t tid, size_t gate, rg_site site, unsigned long hit,
	      char **fault);

#endif
