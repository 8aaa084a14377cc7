/*
 * Gates outside the executable's own code: shared objects and returns.
 *
 *   objects.c  gates whose location is not in the executable are *pending*:
 *              resolved in each shared object as it maps, which racegate
 *              learns from the dynamic linker's rendezvous (r_debug, a
 *              breakpoint on r_brk), as debuggers do.  Also `in:`, and the
 *              static look-up in the libraries the executable is linked
 *              with, so that `racegate check` catches typos.
 *   returns.c  FUNCTION:return: a breakpoint at the function's entry notes,
 *              per thread, the return address and stack pointer; a
 *              temporary breakpoint at the return address reports the
 *              arrival for that thread and frame only.
 *
 * The plan side (plan_locs_*) lives as long as the plan and keeps what one
 * session can share: which gates are pending, each object's resolutions
 * (link-time addresses), and the strings the timeline points at.  The run
 * side (run_locs_*) is per run: objects map at other addresses every run.
 */
#ifndef RACEGATE_OBJECTS_H
#define RACEGATE_OBJECTS_H

#include "plan.h"
#include "tracer.h"

/* ---- plan side (objects.c) ---- */

/*
 * Gate i before plan.c resolves it in the executable: takes the gates that
 * are not plain executable locations (FUNCTION:return, `in:` naming another
 * object).  Returns true when it took the gate (resolved, pending, or an
 * error added to d); false when plan.c resolves it as usual.
 */
bool plan_locs_take(plan *p, size_t i, spec_diags *d);

/*
 * Gate i did not resolve in the executable: exe_status and exe_hint are
 * what dwarfx_resolve said (exe_hint NULL: the executable has no debug
 * information for a FILE:LINE location and was not asked).  When the
 * location is simply not in the executable (DWARFX_NO_ENTRY), it is looked
 * for in the libraries the executable is linked with: found, the gate is
 * pending (armed in every object that has it as it maps during a run); an
 * error there, or found nowhere, is an error added to d (with the nearest
 * name any object has).  Returns false when exe_status is a real error, or
 * when exe_hint is NULL and no library has it (plan.c reports it).
 */
bool plan_locs_pending(plan *p, size_t i, int exe_status,
		       const dwarfx_hint *exe_hint, spec_diags *d);

/* Is gate i a FUNCTION:return? */
bool plan_gate_is_return(const plan *p, size_t gate);

/* For `racegate check`: prints where gate i is armed outside p->bps. */
void plan_locs_describe(const plan *p, size_t i, FILE *f);

void plan_locs_free(plan *p);

/*
 * The libraries the executable is linked with (and theirs), as ld.so would
 * find them, canonical paths, read once: where a condition looks for a
 * global its scope does not have.  Owned by the plan.
 */
size_t plan_locs_libs(plan *p, const char *const **libs);

/* ---- run side (objects.c) ---- */

typedef struct run_locs run_locs;

/* Is addr (run-time) a breakpoint the session needs for itself (gates, entry, pthread_create)? */
typedef bool (*run_locs_busy_fn)(void *ctx, uint64_t addr);

/*
 * Per-run state; NULL when the plan needs none (no pending or return
 * gates, no condition reading a library's global) and watch is false, and
 * every run_locs_* function accepts NULL.  watch: follow the dynamic
 * linker's rendezvous whatever the plan needs (run_locs_settled).
 */
/* bt: the run's bias table, kept up to date here as objects map and unmap. */
run_locs *run_locs_new(plan *p, tracer *tr, run_bias *bt,
		       run_locs_busy_fn busy, void *busy_ctx, bool watch);
void run_locs_free(run_locs *l);
/*
 * The gate sites of shared objects as they come and go: fn hears each one
 * armed (once its object's every gate is, the highest address first), then
 * bp NULL once the object's last is told; and each one about to go with its
 * object (dlclose), while it is still known.
 */
typedef void (*run_locs_site_fn)(void *ctx, const plan_bp *bp, uint64_t at, bool armed);
void run_locs_watch_sites(run_locs *l, run_locs_site_fn fn, void *ctx);

/* At the exec stop: arms return entries and the rendezvous breakpoint. */
int run_locs_start(run_locs *l, rg_err *err);

/* At the program's entry point: the libraries it is linked with are mapped. */
int run_locs_at_entry(run_locs *l, rg_err *err);

/*
 * tid stopped at the breakpoint at addr (run-time).  *bp is the
 * executable's plan_bp there (or NULL); on return it is what tid arrives at
 * (a shared object's gates, a return, both merged, or NULL).  Returns 1 when
 * addr is also one of racegate's own breakpoints here, 0 when not, -1 on
 * error (message in err).
 */
int run_locs_on_breakpoint(run_locs *l, pid_t tid, uint64_t addr,
			   const plan_bp **bp, rg_err *err);

void run_locs_thread_exited(run_locs *l, pid_t tid);

/* Must the int3 at addr stay, whatever the gates there say? */
bool run_locs_busy(const run_locs *l, uint64_t addr);
/*
 * Was the breakpoint at addr the dynamic linker's r_brk, called with its
 * list of objects consistent (every object mapped and relocated)?  With
 * run_locs_new's watch, the first such call of a run is the dynamic
 * linker's last stop before any code of the program runs (its libraries'
 * constructors, then its entry point).
 */
bool run_locs_settled(const run_locs *l, uint64_t addr);

/*
 * Why gate i was never armed in this run ("its location never appeared in
 * any loaded object"), or NULL when it was; the caller frees.
 */
char *run_locs_unarmed(const run_locs *l, size_t i);

/* ---- returns (returns.c), used by objects.c ---- */

typedef struct ret_table ret_table;

ret_table *returns_new(tracer *tr, const run_bias *bt, run_locs_busy_fn busy,
		       void *busy_ctx);
void returns_free(ret_table *t);

/*
 * Arms the entry (a site in a mapped object) of a function whose returns
 * are gate's arrivals; where is "FN:return".
 */
int returns_add(ret_table *t, rg_site entry, size_t gate, const char *where,
		const char *function, rg_err *err);

/*
 * As run_locs_on_breakpoint, for entries and return addresses: sets *arrive
 * to the return gates' plan_bp when tid returns through the frame that set
 * the breakpoint at addr.  Returns 1 when addr is an entry or a return
 * address, 0 when not, -1 on error.
 */
int returns_on_breakpoint(ret_table *t, pid_t tid, uint64_t addr,
			  const plan_bp **arrive, rg_err *err);
void returns_thread_exited(ret_table *t, pid_t tid);
bool returns_busy(const ret_table *t, uint64_t addr);

/* "FN" when at is "FN:return" (malloc'd), else NULL. */
char *returns_function(const char *at);

/*
 * Can the returns of the function resolved (as "*FN") to locs be seen?  An
 * inlined copy is not called, so it has no return address to stop at, and
 * where it ends is no one place: -1 with the reason in err when some copy
 * is inlined (dx names the functions they are inlined into), else 0.
 */
int returns_check(dwarfx *dx, const char *where, const dwarfx_loc *locs,
		  size_t n, rg_err *err);

#endif
