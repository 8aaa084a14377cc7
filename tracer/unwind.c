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
#include <stdlib.h>
#include <string.h>

#include <libunwind-ptrace.h>

/*
 * libunwind's ptrace backend reads the program's memory a word at a time
 * (PTRACE_PEEKDATA): hundreds of system calls for one backtrace, most of
 * a schedule's in explore.  Its reads go through a page cache here
 * instead, filled from /proc/PID/mem a page at a time; the rest of the
 * accessors are its own.  A cache lives for one backtrace (the thread is
 * stopped throughout).
 */
#define UNW_PAGES 4

struct unw_mem {
	void *upt;                 /* _UPT_create's: the backtrace's own */
	int fd;                    /* the address space's /proc/PID/mem */
	uint64_t page[UNW_PAGES];  /* cached pages (0: none) */
	uint8_t buf[UNW_PAGES][PAGE];
	unsigned next;             /* the slot the next page takes */
};

static int mem_word(struct unw_mem *m, unw_word_t addr, unw_word_t *val)
{
	uint64_t page = addr & ~(PAGE - 1), off = addr - page;
	unsigned i;

	if (off + sizeof(*val) > PAGE)
		return -1;
	for (i = 0; i < UNW_PAGES && m->page[i] != page; i++)
		;
	if (i == UNW_PAGES) {
		i = m->next++ % UNW_PAGES;
		m->page[i] = 0;
		if (tracer_mem_pread(m->fd, page, m->buf[i], PAGE) != PAGE)
			return -1;
		m->page[i] = page;
	}
	memcpy(val, m->buf[i] + off, sizeof(*val));
	return 0;
}

/* The backtrace under way (racegate unwinds one thread at a time). */
static struct unw_mem *unwinding;

/* libunwind hands each accessor the argument it was given: its own
 * _UPT_create info, also from inside _UPT_find_proc_info. */
static int cached_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val,
			     int write, void *arg)
{
	struct unw_mem *m = unwinding;

	if (!write && m && arg == m->upt && m->fd >= 0 && addr && mem_word(m, addr, val) == 0)
		return 0;
	return _UPT_access_mem(as, addr, val, write, arg);
}

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
	struct unw_mem *m;
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
		static unw_accessors_t acc;

		if (!acc.access_mem) {
			acc = _UPT_accessors;
			acc.access_mem = cached_access_mem;
		}
		if (!(as = unw_create_addr_space(&acc, 0)))
			return rg_error(err, "cannot unwind thread %d: libunwind has no "
					"address space", tid);
		unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
		if (t && t->as)
			t->as->unw = as;
		else
			own = as;
	}
	m = xcalloc(1, sizeof(*m));
	m->fd = t && t->as ? t->as->memfd : -1;
	if (!(m->upt = _UPT_create(tid))) {
		free(m);
		if (own)
			unw_destroy_addr_space(own);
		return rg_error(err, "cannot unwind thread %d: out of memory", tid);
	}
	unwinding = m;
	rc = unw_init_remote(&cur, as, m->upt);
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
	unwinding = NULL;
	_UPT_destroy(m->upt);
	free(m);
	if (own)
		unw_destroy_addr_space(own);
	return rc < 0 ? -1 : 0;
}
