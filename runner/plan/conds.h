/*
 * conds: gates' `when:` conditions, on the plan's side.
 *
 * A condition is parsed once (expr_parse) and compiled once per site of its
 * gate: each function instance of the location (inlined copies, clones of
 * an -O2 build) has its own scope, so a variable may live in a register in
 * one instance, on the stack in another, and be optimized out in a third.
 * Every instance is compiled before the program runs (plan_build, for run
 * and check): an error in any of them is a spec error positioned in the
 * condition's text, and one that only some instances have says which
 * (function and address) and what is available there.  Gates in objects
 * only known once they map (dlopen) are compiled when armed; an error there
 * ends the run.
 *
 * Names a scope does not have are looked for among the globals of the
 * program's other objects known before it runs (the executable and the
 * libraries it is linked with).  The compiled form names such an object by
 * a number (expr_env.var's obj), which conds_obj_site turns back into the
 * plan's object, whose bias the run knows.
 *
 * The compiled codes live as long as the plan.
 */
#ifndef RACEGATE_CONDS_H
#define RACEGATE_CONDS_H

#include "expr.h"
#include "plan.h"

/*
 * Parses every gate's condition and refuses the ones that cannot be
 * evaluated (FUNCTION:return, an unknown alias in `$thread == ALIAS`).
 * Errors are added to d.  Called by plan_build before gates resolve.
 */
void conds_parse(plan *p, spec_diags *d);

/* Does gate i have a condition that parsed? */
bool conds_has(const plan *p, size_t gate);

/* The parsed condition of gate i, or NULL. */
const expr *conds_expr(const plan *p, size_t gate);

/*
 * Does a condition read a global of a library (not of the object its gate
 * is in)?  Then a run must know where every library maps (objects.h).
 */
bool conds_read_libraries(const plan *p);

/* One instance of a gate's location, to compile at. */
typedef struct conds_site {
	rg_site site;
	const char *where;      /* "queue.c:40", for messages */
	dwarfx_loc loc;         /* as dwarfx_resolve placed it (file and line: the
				   line's own scope where an inlined copy starts),
				   or all zero: the scope at the address */
} conds_site;

/*
 * Compiles gate's condition at each of sites[0..n) (the instances of its
 * location in one object), keeping what compiled.  With d (check time),
 * errors are spec errors; with d NULL (an object mapped during a run),
 * the first error is put in err, "FILE:LINE:COL: text", and -1 returned.
 * 0 when every instance compiled (or the gate has no condition).
 */
int conds_compile(plan *p, size_t gate, const conds_site *sites, size_t n,
		  spec_diags *d, rg_err *err);

/* The compiled condition of gate at site, or NULL (none, or not compiled). */
const expr_code *conds_code(const plan *p, size_t gate, rg_site site);

/*
 * The object an expr_env object number of a condition compiled at site
 * stands for (0: site's own object), as a site at link-time address 0
 * (run_bias_addr of it is that object's bias).
 */
rg_site conds_obj_site(rg_site at, int obj);

void conds_free(plan *p);

#endif
