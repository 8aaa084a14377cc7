/*
 * runner/plan/selectors.c: what each thread selector's start: and runs: stand
 * for in the program, resolved when the plan is built (check and run
 * alike), so a selector that can match nothing is an error that lists
 * what could, not a run that waits for a thread that never comes.
 *
 *   start: NAME            a function as locations name it ("worker",
 *                          "Worker::run", "Worker::run(int)"), or a
 *                          std::thread's lambda or function object by its
 *                          type ("main::{lambda()#1}")
 *   start: T::operator()   the lambda or function object T (what gdb and
 *                          `racegate lines` print for its code)
 *   start: FILE:LINE       the function or lambda defined on that line
 *   runs: NAME             a function of the program or a library it is
 *                          linked with, as locations name it: its code
 */
#ifndef RACEGATE_SELECTORS_H
#define RACEGATE_SELECTORS_H

#include "plan.h"

/*
 * Resolves the start: and runs: of every selector of p's spec (threads:
 * and the gates' inline ones), once per distinct text; errors (with the
 * program's start routines, "did you mean") go to d at the selector.
 */
void plan_selectors(plan *p, spec_diags *d);
void plan_selectors_free(plan *p);

/*
 * Does a thread whose start routine is start (starts_name) match {start:
 * want}, want a text plan_selectors resolved?  (The gate engine's
 * start_is hook.)
 */
bool plan_start_is(const plan *p, const char *want, const char *start);

/*
 * What {start: text} stands for when it is not a name as written: the
 * lambda's type of a "T::operator()", the names of what FILE:LINE defines
 * (*names, owned by p), for check to show; 0 otherwise.
 */
size_t plan_start_names(const plan *p, const char *text, const char *const **names);

/*
 * Is the run-time address pc (in the main process, whose biases are bt)
 * in the code runs: names?  A text plan_selectors did not resolve: no.
 */
bool plan_runs_at(const plan *p, const run_bias *bt, const char *runs, uint64_t pc);

/*
 * What to say of a location or a name (what, as written) that p's
 * executable does not have, when it was built without debug information
 * (malloc'd, DWARFX_NO_DEBUG's words); NULL when it has some.  *only: what
 * can only be found through debug information (FILE:LINE, a C++ name), so
 * this is the whole reason; else a C name's symbol could have been there,
 * and this is a second one.
 */
char *plan_nodebug_why(const plan *p, const char *what, bool *only);

#endif
