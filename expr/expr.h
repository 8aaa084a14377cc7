/*
 * expr: `when:` conditions -- parsed once, type-checked and compiled for
 * each place a gate's breakpoint sits (one compiled form per function
 * instance), evaluated at each arrival over the stopped thread's registers
 * and memory.  No expression writes program memory or calls program code:
 * the compiled form can only read.
 *
 * The language is a side-effect-free subset of C (docs/gates.md, "Conditions"
 * has the grammar): names visible at the location, `.` `->` `*` `&` `[]`,
 * casts to integer and pointer types, sizeof, C's integer promotions and
 * usual arithmetic conversions, comparisons, `&& || !`, enumerators, C++
 * `this` / members of this / references / `ns::name`, and the built-ins
 * `$hit`, `$tid`, `$thread == ALIAS`, `$streq(p, "text")`.
 *
 * Library module: never prints.  Errors come back with the byte offset in
 * the condition's text they are about, so the spec loader and the runner
 * can place them in gates.yaml.
 */
#ifndef RACEGATE_EXPR_H
#define RACEGATE_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dwarfx_vars.h"
#include "expr_syntax.h"

typedef struct expr_code expr_code; /* compiled for one scope */

/*
 * What a condition may name, for the compiler: the runner answers from the
 * scope of the breakpoint's address (dwarfx_vars.h) and the program's other
 * objects; unit tests answer from hand-made types.  where is the location
 * as messages name it ("queue.c:40").
 *   var         a variable by name as written ("q", "ns::count",
 *               "Queue::instances"); *obj receives an opaque number of the
 *               object it lives in, given back to expr_host.bias at run
 *               time.  NULL when the name is not visible.
 *   type        a named type ("uint32_t", "struct queue", "Queue"), or NULL
 *               (the compiler knows C's own: int, unsigned long, char, ...).
 *   enumerator  an enumerator's value and type; false when none.
 *   visible     the names worth suggesting there (locals, parameters),
 *               for "visible there: ..."; returns how many (max stored).
 */
typedef struct expr_env {
	void *ctx;
	const char *where;
	const dwarfx_var *(*var)(void *ctx, const char *name, int *obj);
	const dwarfx_type *(*type)(void *ctx, const char *name);
	bool (*enumerator)(void *ctx, const char *name, int64_t *value,
			   const dwarfx_type **type);
	size_t (*visible)(void *ctx, const char **names, size_t max);
} expr_env;

/*
 * Type-checks e in env and compiles it.  0, or -1 with err filled (unknown
 * name with the names visible there, member not in the struct with the
 * nearest one, a pointer compared with an integer, a variable optimized out
 * at this address, ...).  A variable that is optimized out fails here, so
 * the runner can say which instances lack it.  *out: free with
 * expr_code_free.
 */
int expr_compile(const expr *e, const expr_env *env, expr_code **out, expr_error *err);
void expr_code_free(expr_code *c);

/*
 * The stopped thread, for evaluation.  regs[i] is the value of DWARF
 * register i (nregs of them, read once per arrival).  read fills buf from
 * the program's memory at each of n (addr, len) requests, as one batch
 * (process_vm_readv); returns how many requests were read whole (a request
 * that cannot be read and every later one are not).  bias gives the load
 * bias of an object number from expr_env (0: the scope's own).
 * thread_is answers `$thread == ALIAS` for this thread.
 */
typedef struct expr_read {
	uint64_t addr;
	void *buf;
	size_t len;
} expr_read;

typedef struct expr_host {
	const uint64_t *regs;
	size_t nregs;
	void *ctx;
	size_t (*read)(void *ctx, const expr_read *reqs, size_t n);
	uint64_t (*bias)(void *ctx, int obj);
	bool (*thread_is)(void *ctx, const char *alias);
	pid_t tid;             /* $tid */
	uint64_t hit;          /* $hit: this thread's passes at this location, this one included */
} expr_host;

/* Why an evaluation could not finish: a read that faulted. */
typedef struct expr_fault {
	size_t off, len;       /* the subexpression read, as a span of the text ("*p") */
	uint64_t addr;         /* the address that could not be read */
} expr_fault;

/*
 * Evaluates c.  Returns 1 (true) or 0 (false); -1 when a read faulted
 * (fault says which; the condition then counts as false).  Division by
 * zero gives 0, not -1: nothing to report.  Reads: at most one host->read
 * batch for every read whose address needs no other read (more only after
 * a failed request), then one call per other read reached.  Never loops:
 * time is bounded by the compiled size.
 */
int expr_eval(const expr_code *c, const expr_host *h, expr_fault *fault);

/*
 * c's ops as a plain list (common/cond_ops.h), for code that compiles them
 * further (the tracer's jump pads).  Returns how many there are; fills
 * out[0..min(that, max)).
 */
struct cond_op;
size_t expr_code_ops(const expr_code *c, struct cond_op *out, size_t max);

#endif
