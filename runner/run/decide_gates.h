/*
 * decide_gates: the gate engine (gates/) as the session's decider
 * (session.h).  It maps a gate location to its gates, records what the
 * engine decided as the run's timeline, answers the stall watch with the
 * on_deadlock policy, and fills the per-gate results judge.c reads.
 */
#ifndef RACEGATE_DECIDE_GATES_H
#define RACEGATE_DECIDE_GATES_H

#include "gates.h"
#include "report.h"
#include "session.h"

typedef struct gates_decider gates_decider;

extern const decider_ops gates_decider_ops;

/* A decider for s's plan; o->on_deadlock says what a stuck schedule does. */
gates_decider *gates_decider_new(session *s, const run_opts *o);
void gates_decider_free(gates_decider *g);

/*
 * After the run: fills res->gate_reached, gate_timed_out and unbound (the
 * threads: aliases no thread was bound to); *v (report.h).
 */
void gates_decider_finish(gates_decider *g, run_result *res, judge_verdict *v);

/*
 * After judge_run: when the program ended by itself and the run did not
 * meet its expectation (or the order did not take hold), adds to the note
 * the threads that had got past a gate and were still running when main
 * exited, short of a gate that selects them and was never reached ("main
 * exited while 'w2' (released from gate 'w2-write' at +1.203 ms, not yet
 * at 'w2-done') was still running").
 */
void gates_decider_explain(gates_decider *g, run_result *res);

/*
 * What held thread tid still needs (gate_needs), as the wait-for graph
 * takes it (*out malloc'd, freed with wf_needs_free); 0 when not held.
 */
size_t gates_wf_needs(const gate_engine *e, pid_t tid, wf_need **out);

/*
 * Last: names each threads: alias that was never bound in the note (the
 * outcome line), with its selector ("thread alias 'w' was never bound: no
 * thread matched {start: worker, nth: 3}"): why its gates were not reached.
 */
void gates_decider_note_unbound(gates_decider *g, run_result *res);

#endif
