/*
 * Backtraces of stopped threads with libunwind's ptrace backend: it reads
 * the registers and memory of the thread through ptrace and unwinds with the
 * objects' .eh_frame, as gdb does for code without frame pointers.
 *
 * One libunwind address space per address space of the program, kept
 * with its caches: finding and parsing the unwind tables of an object is
 * most of an unwind's cost (about a millisecond), and a {runs:} selector
 * may unwind a thread at each of its arrivals.  An exec (another program)
 * or the process's end drops it.
 */
#include "procstate.h"
#include "tracer_priv.h"

#include <errno.h>
#include <string.h>

#include <libunwind-ptrace.h>

void tracer_unwind_forget(struct aspace *as)
{
	if (as->unw)
		unw_destroy_addr_space(as->unw);
	as->unw = NULL;
}

int tracer_backtrace(tracer *tr, pid_t tid, uint64_t *pcs, size_t max,
		     size_t *n, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	unw_addr_space_t as, own = NULL;
	unw_cursor_t cur;
	void *ui;
	int rc;

	*n = 0;
	if (!tracer_is_stopped(tr, tid))
		return rg_error(err, "cannot unwind thread %d: it is not stopped", tid);
	/* libunwind reads the registers through ptrace: the PC rewound to a
	 * breakpoint must be in the thread */
	if (tracer_sync_regs(tr, tid) < 0)
		return rg_error(err, "cannot unwind thread %d: %s", tid, strerror(errno));
	as = t && t->as ? t->as->unw : NULL;
	if (!as) {
		if (!(as = unw_create_addr_space(&_UPT_accessors, 0)))
			return rg_error(err, "cannot unwind thread %d: libunwind has no "
					"address space", tid);
		unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
		if (t && t->as)
			t->as->unw = as;
		else
			own = as;
	}
	if (!(ui = _UPT_create(tid))) {
		if (own)
			unw_destroy_addr_space(own);
		return rg_error(err, "cannot unwind thread %d: out of memory", tid);
	}
	rc = unw_init_remote(&cur, as, ui);
	if (rc < 0) {
		rg_error(err, "cannot unwind thread %d: %s", tid, unw_strerror(rc));
	} else {
		do {
			unw_word_t ip = 0;

			if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || !ip)
				break;
			pcs[(*n)++] = ip;
		} while (*n < max && unw_step(&cur) > 0);
	}
	_UPT_destroy(ui);
	if (own)
		unw_destroy_addr_space(own);
	return rc < 0 ? -1 : 0;
}
