/*
 * Stepping a thread past the line it is held on (tracer_resume_past).  See
 * tracer.h for the contract.
 */
#include "tracer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * tracer_resume_past.  A range is "stepping" (the thread runs one
 * instruction at a time, PTRACE_SINGLESTEP, and each trap comes back
 * through handle_sigtrap like any other status: nothing waits for the one
 * thread, which may block in a system call for ever) or "waiting" for the
 * return of a call made on the line: the thread runs at full speed to a
 * temporary breakpoint at the return address, and only a trap there in the
 * same frame (SP back where it was before the call) ends the wait; deeper
 * frames (recursion) and other threads trapping there are stepped over
 * silently.  Ranges stack: a gate inside the called function may start one
 * of its own, which ends first.
 */
struct range {
	struct range *outer;
	tracer_span *spans;
	size_t nspans;
	bool waiting;              /* for a call's return at ret_addr, SP back to ret_sp */
	bool after_signal;         /* ...or for a signal handler's return there */
	uint64_t ret_addr, ret_sp;
};

/* Runs one instruction at a time: signals are kept, restarts are steps. */
bool tracer_stepping(const struct tcb *t)
{
	return t->range && !t->range->waiting && !(t->flags & TCB_IN_STUB);
}

bool tracer_range_waits_at(const struct tcb *t, uint64_t addr, uint64_t sp)
{
	return t->range && t->range->waiting && t->range->ret_addr == addr &&
	       sp >= t->range->ret_sp;
}

bool tracer_range_waits_for(const struct tcb *t, uint64_t addr)
{
	for (const struct range *rg = t->range; rg; rg = rg->outer)
		if (rg->waiting && rg->ret_addr == addr)
			return true;
	return false;
}

/* How a thread that stopped for something else goes on: a thread whose
 * sleeps are watched stops at each system call (tracer_watch_sleeps). */
int tracer_cont_op(const struct tcb *t)
{
	return tracer_stepping(t) ? PTRACE_SINGLESTEP : tracer_run_op(t);
}

int tracer_run_op(const struct tcb *t)
{
	return t->flags & TCB_WATCH_SLEEP ? PTRACE_SYSCALL : PTRACE_CONT;
}

static bool in_spans(const struct range *rg, uint64_t pc)
{
	for (size_t i = 0; i < rg->nspans; i++)
		if (pc >= rg->spans[i].lo && pc < rg->spans[i].hi)
			return true;
	return false;
}

static int temp_bp_get(tracer *tr, struct tcb *t, uint64_t addr, rg_err *err)
{
	struct bp *b = tracer_bp_find(t->as->img, addr);

	if (!b) {
		if (tracer_bp_insert(tr, t->as, addr, err) < 0)
			return -1;
		b = tracer_bp_find(t->as->img, addr);
		b->user = false;
	}
	b->ntemp++;
	/* a pad there lets the thread pass unless told: it must trap */
	tracer_pad_force(t, addr, true);
	return 0;
}

static void temp_bp_put(tracer *tr, struct tcb *t, uint64_t addr)
{
	struct bp *b;
	const struct range *rg;

	if (!t->as)
		return;         /* its process is gone: so is its image */
	b = tracer_bp_find(t->as->img, addr);
	if (!b || !b->ntemp)
		return;
	/* the pad lets t pass again, unless an outer range of its waits there too */
	for (rg = t->range ? t->range->outer : NULL; rg; rg = rg->outer)
		if (rg->waiting && rg->ret_addr == addr)
			break;
	if (!rg)
		tracer_pad_force(t, addr, false);
	if (--b->ntemp == 0 && !b->user)
		tracer_bp_remove(tr, t->as, addr, NULL);
}

/* The innermost range is over; report says the thread got past it (at pc). */
void tracer_range_pop(tracer *tr, struct tcb *t, uint64_t pc, bool report)
{
	struct range *rg = t->range;

	RG_ASSERT(rg);          /* called for a thread stepping past a line */
	if (rg->waiting)
		temp_bp_put(tr, t, rg->ret_addr);
	t->range = rg->outer;
	free(rg->spans);
	free(rg);
	if (report)
		tracer_queue_event(tr, TRACER_EV_RANGE_DONE, t->tid)->addr = pc;
}

/* The thread is gone (or its image is): its ranges end unreported. */
void tracer_ranges_free(tracer *tr, struct tcb *t, bool put)
{
	while (t->range) {
		if (!put)
			t->range->waiting = false;
		tracer_range_pop(tr, t, 0, false);
	}
}

/*
 * t is stopped before the instruction at its PC, stepping past its
 * innermost range: end the range if the PC has left it, else run the next
 * instruction (out of line when a breakpoint is there; a call at full speed
 * to its return).
 */
int tracer_range_next(tracer *tr, struct tcb *t, rg_err *err)
{
	struct range *rg = t->range;
	arch_regs r;
	struct arch_insn insn;
	uint8_t code[ARCH_MAX_INSN];
	rg_err derr = RG_ERR_INIT;
	uint64_t pc;
	struct bp *b;
	struct pad *p;
	size_t n;

	RG_ASSERT(rg);          /* called for a thread stepping past a line */
	/* it runs from here on (a step, the stub, a plain restart) */
	if (tracer_regs_sync(t) < 0 || tracer_regs_read(t, &r) < 0)
		return tracer_gone_or_error(err,
					    "cannot read the registers of thread %d: %s",
					    t->tid, strerror(errno));
	pc = arch_get_pc(&r);
	/* in the copy of a pad's instruction (below), or its jump back: as
	 * at the site, a step at a time */
	if (tracer_pad_code_at(t->as->img, pc)) {
		t->flags &= ~TCB_REGS;
		return tracer_restart(t->tid, rg->waiting ? tracer_run_op(t) : PTRACE_SINGLESTEP,
				      0, err);
	}
	n = tracer_read_code(t->as, pc, code, sizeof(code));
	if (!in_spans(rg, pc) || !n ||
	    arch_decode(tr->arch, code, n, pc, &insn, &derr) < 0) {
		tracer_range_pop(tr, t, pc, true);
		return tracer_resume_pending(tr, t, err);
	}
	if (insn.flags & ARCH_INSN_CALL) {
		if (temp_bp_get(tr, t, pc + insn.len, err) < 0)
			return -1;
		rg->waiting = true;
		rg->ret_addr = pc + insn.len;
		rg->ret_sp = arch_get_sp(&r);
	}
	if ((b = tracer_bp_find(t->as->img, pc)))
		return tracer_step_over(tr, t, b, err);
	/* a pad turned off: its jump stays there, the instruction runs from
	 * the pad's copy, which comes back behind it (never through the pad's
	 * checks, which save the flags a step sets) */
	if ((p = tracer_pad_find(t->as->img, pc))) {
		arch_set_pc(&r, p->reloc);
		if (arch_regs_store(t->tid, &r) < 0)
			return tracer_gone_or_error(err, "cannot set the registers of "
						    "thread %d: %s", t->tid, strerror(errno));
	}
	if (rg->waiting)
		return tracer_resume_pending(tr, t, err);
	t->flags &= ~TCB_REGS;
	return tracer_restart(t->tid, PTRACE_SINGLESTEP, 0, err);
}

/*
 * The call made on t's line returned to ret_addr (t stopped there, PC
 * rewound).  A gate's breakpoint at that address makes it an arrival too,
 * reported after the RANGE_DONE when the address is past the line.
 */
int tracer_range_returned(tracer *tr, struct tcb *t, uint64_t addr, rg_err *err)
{
	struct range *rg = t->range;
	struct bp *b;

	rg->waiting = false;
	temp_bp_put(tr, t, addr);
	b = tracer_bp_find(t->as->img, addr);
	/* back from a handler: the thread was here already, the line goes on */
	if (!b || !b->user || rg->after_signal) {
		rg->after_signal = false;
		return tracer_range_next(tr, t, err);
	}
	if (!in_spans(rg, addr))
		tracer_range_pop(tr, t, addr, true);
	t->flags &= ~TCB_REARRIVAL;
	t->flags |= TCB_HELD | TCB_AT_BP;
	t->bp_addr = addr;
	tracer_queue_event(tr, TRACER_EV_BREAKPOINT, t->tid)->addr = addr;
	return 0;
}

/*
 * A signal the program gets, stopping t before the instruction at pc of the
 * line it steps past: delivered now, from its own signal-delivery-stop (so
 * with its own siginfo, and a queue of them is not cut short), and the
 * thread runs the handler at full speed; the range waits for the handler's
 * return to pc with the stack pointer it has now, then steps on.  0, or -1.
 */
int tracer_range_wait_signal(tracer *tr, struct tcb *t, uint64_t pc, uint64_t sp,
			     int sig, rg_err *err)
{
	struct range *rg = t->range;

	RG_ASSERT(rg && !rg->waiting);  /* a thread stepping past a line */
	if (temp_bp_get(tr, t, pc, err) < 0)
		return -1;
	rg->waiting = true;
	rg->after_signal = true;
	rg->ret_addr = pc;
	rg->ret_sp = sp;
	tracer_note_signal(tr, t, sig);
	return tracer_restart(t->tid, tracer_run_op(t), sig, err);
}

/*
 * A signal stopped a thread that is stepping: the line's own fault is
 * delivered now and ends the range (the instruction would only fault
 * again); any other signal is delivered now too, and the range waits for
 * its handler (tracer_range_wait_signal).
 */
int tracer_range_signal(tracer *tr, struct tcb *t, const siginfo_t *si, rg_err *err)
{
	arch_regs r;

	if (arch_regs_fetch(t->tid, &r) < 0)
		return 0;               /* gone: its exit follows */
	if (!tracer_is_sync_fault(si->si_signo, si))
		return tracer_range_wait_signal(tr, t, arch_get_pc(&r), arch_get_sp(&r),
						si->si_signo, err);
	if (t->npending < PENDING_MAX)
		t->pending[t->npending++] = *si;
	tracer_range_pop(tr, t, arch_get_pc(&r), true);
	return tracer_resume_pending(tr, t, err);
}

int tracer_resume_past(tracer *tr, pid_t tid, const tracer_span *spans, size_t n,
		       rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	struct range *rg;

	if (!t || (t->flags & TCB_EXITING))
		return 0;       /* dying: THREAD_EXIT follows */
	if (!n || !(t->flags & TCB_HELD) || !(t->flags & TCB_STARTED) ||
	    (t->flags & TCB_GROUP_STOP))
		return tracer_resume(tr, tid, err) < 0 ? -1 : 1;
	rg = xcalloc(1, sizeof(*rg));
	rg->spans = xcalloc(n, sizeof(*spans));
	memcpy(rg->spans, spans, n * sizeof(*spans));
	rg->nspans = n;
	rg->outer = t->range;
	t->range = rg;
	t->flags &= ~(TCB_HELD | TCB_AT_BP);
	return tracer_range_next(tr, t, err);
}
