/*
 * Letting threads and children go with nothing of racegate's left in the
 * memory they run: tracer_detach_stopped (--keep-stopped leaves the program
 * stopped for a debugger), and the children sharing memory the program has
 * left at its end or its exec (tracer_detach_children).  See tracer.h.
 */
#include "procstate.h"
#include "tracer_priv.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Has tid a trap of its own queued that it has not reported yet (the int3
 * of a breakpoint, a single-step)?  An interrupt or a group-stop is
 * reported before a pending signal is dequeued, so a thread stopped so
 * right after its int3 would die of that SIGTRAP once detached.  Signals
 * the program sent (si_code <= 0) stay pending: they are the program's.
 * A trap's SIGTRAP is never blocked (the kernel unblocks it): a blocked one
 * would not be reported, and the thread would run on.
 */
static bool trap_pending(pid_t tid)
{
	struct __ptrace_peeksiginfo_args a = { .off = 0, .flags = 0, .nr = 8 };
	uint64_t blocked = 0;   /* the kernel's sigset_t: 64 bits */
	siginfo_t si[8];
	long n;

	if (ptrace(PTRACE_GETSIGMASK, tid, (void *)sizeof(blocked), &blocked) < 0 ||
	    (blocked & (1ULL << (SIGTRAP - 1))))
		return false;
	n = ptrace(PTRACE_PEEKSIGINFO, tid, &a, si);
	for (long i = 0; i < n; i++)
		if (si[i].si_signo == SIGTRAP && si[i].si_code > 0)
			return true;
	return false;
}

/*
 * tracer_detach_stopped: one wait status of a thread being stopped.  The
 * thread is left in its stop (TCB_HELD), with a trap of ours undone (PC
 * rewound to the breakpoint, or sent on from the stub) and a signal of the
 * program's kept for the detach.  The one restart is of a thread whose
 * trap is still pending: it reports it before it runs any code.  -1 when
 * the program ended or called exec meanwhile (judged as usual: its events
 * are queued).
 */
static int detach_judge(tracer *tr, pid_t tid, int status, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	const struct pad *p;
	arch_regs r;
	siginfo_t si;
	uint64_t pc, addr;
	int sig, event;

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		/* a thread's death (THREAD_EXIT), or the end of all (EXIT) */
		if (tracer_handle_status(tr, tid, status, err) < 0)
			return -1;
		return tr->exit_queued ? rg_error(err, "it has ended") : 0;
	}
	if (!WIFSTOPPED(status))
		return 0;
	sig = WSTOPSIG(status);
	event = status >> 16;
	if (event == PTRACE_EVENT_EXEC) {
		if (t && (t->flags & TCB_CHILD))
			return tracer_child_exec(tr, t, err);
		tracer_handle_status(tr, tid, status, NULL);
		return rg_error(err, "it called exec");
	}
	if (!t) {
		if (tracer_fork_first_stop(tr, tid))
			return 0;       /* let go with the rest */
		t = tracer_tcb_add(tr, tid);
	}
	t->flags = (t->flags | TCB_STARTED) & ~(TCB_REGS | TCB_REGS_DIRTY | TCB_IN_EVENT);
	switch (event) {
	case 0:
		break;
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		/* the parent stays stopped; the child is waited for too,
		 * and let go with the rest */
		tracer_new_child(tr, t, event, false, NULL);
		t->flags |= TCB_HELD | TCB_IN_EVENT;
		return 0;
	case PTRACE_EVENT_EXIT:
		/* detached there, it dies */
		t->flags = (t->flags | TCB_EXITING) & ~(TCB_HELD | TCB_AT_BP);
		if (tid == tr->pid)
			tracer_report_leader_gone(tr, t);
		return 0;
	default:
		/* an interrupt, a group-stop, a new thread's first stop */
		if (trap_pending(tid)) {
			t->flags &= ~TCB_HELD;
			return tracer_restart(tid, PTRACE_CONT, 0, err);
		}
		t->flags |= TCB_HELD;
		return 0;
	}

	/* A signal-delivery-stop. */
	t->flags |= TCB_HELD;
	if (ptrace(PTRACE_GETSIGINFO, tid, 0L, &si) < 0)
		return 0;       /* killed meanwhile, or a group-stop */
	if (sig == SIGTRAP && si.si_code > 0 && arch_regs_fetch(tid, &r) == 0) {
		pc = arch_get_pc(&r);
		addr = arch_bp_from_trap_pc(pc);
		if ((t->flags & TCB_IN_STUB) && t->as->stub &&
		    pc == ARCH_STUB_TRAP_PC(t->as->stub)) {
			/* back from a displaced syscall (tracer_step_over) */
			t->flags &= ~TCB_IN_STUB;
			arch_set_pc(&r, t->stub_ret);
		} else if (si.si_code == SI_KERNEL &&
			   (tracer_bp_find(t->as->img, addr) ||
			    tracer_bp_recently_removed(t->as->img, addr))) {
			arch_set_pc(&r, addr);  /* a breakpoint: at its instruction */
		} else if (si.si_code == SI_KERNEL && (p = tracer_pad_by_trap(t->as->img, pc))) {
			/* a pad's: every register as at its site (pad.c) */
			arch_set_pc(&r, p->site);
		} else if (si.si_code == SI_KERNEL || !tracer_stepping(t)) {
			goto program;           /* the program's own trap */
		}
		/* else the single-step of tracer_resume_past */
		if (arch_regs_store(tid, &r) < 0)
			return tracer_gone_or_error(err, "cannot set the registers "
						    "of thread %d: %s", tid,
						    strerror(errno));
		return 0;
	}
program:
	tracer_oot_fault(t, sig, &si);     /* a fault in a copy: at the breakpoint */
	t->detach_sig = sig;
	return 0;
}

/*
 * Which threads a detach takes: every one, or (children) only the
 * processes sharing the program's memory and the children not let go yet.
 */
static bool detach_takes(const struct tcb *t, bool children)
{
	return !children || (t->flags & TCB_CHILD);
}

/* Is a status of tid one a detach of children judges? */
static bool child_status(tracer *tr, pid_t tid)
{
	const struct tcb *t = tracer_tcb_find(tr, tid);

	return t ? t->flags & TCB_CHILD : tracer_is_child(tr, tid);
}

static int detach_status(tracer *tr, pid_t tid, int status, bool children, rg_err *err)
{
	/* the program's own (the threads exec kills) are judged as always */
	if (children && !child_status(tr, tid))
		return tracer_handle_status(tr, tid, status, err);
	return detach_judge(tr, tid, status, err);
}

/* A thread it takes that is not stopped yet (nor dying), or 0. */
static pid_t detach_unsettled(const tracer *tr, bool children)
{
	for (size_t i = 0; i < tr->ntcbs; i++) {
		const struct tcb *t = tr->tcbs[i];

		if (detach_takes(t, children) && !(t->flags & TCB_EXITING) &&
		    (t->flags & (TCB_STARTED | TCB_HELD)) != (TCB_STARTED | TCB_HELD))
			return t->tid;
	}
	for (size_t i = 0; i < tr->nforks; i++)
		if (!tr->forks[i].started)
			return tr->forks[i].pid;
	return 0;
}

/* Where a stopped thread is, in the program's own code: the stub and the
 * out-of-line copies are left behind.  *unrun: it is back at the start of
 * an instruction racegate was running for it (at its breakpoint). */
static uint64_t detach_pc(const struct tcb *t, uint64_t pc, bool *unrun)
{
	uint64_t site;

	*unrun = true;
	if ((t->flags & TCB_IN_STUB) && t->as->stub && pc >= t->as->stub &&
	    pc < ARCH_STUB_TRAP_PC(t->as->stub)) {
		/*
		 * Before the displaced syscall: at the program's own (same
		 * length).  After it, or inside it: behind it; if the call is
		 * restarted the kernel moves the PC back over the syscall
		 * instruction, which is then the program's.
		 */
		if (pc == t->as->stub)
			return t->stub_ret - (ARCH_STUB_LEN - ARCH_BP_LEN);
		*unrun = false;
		return t->stub_ret;
	}
	/* in a pad's copy of the site's instructions: every register is the
	 * program's there already (pad.c) */
	if (tracer_pad_fault_pc(t->as->img, pc, &site))
		return site;
	for (size_t i = 0; i < t->as->img->nbps; i++) {
		const struct bp *b = &t->as->img->bps[i];
		uint64_t oot = tracer_as_oot(t->as, b->addr);

		if (!oot)
			continue;
		if (pc == oot)
			return b->addr;
		if (pc == oot + b->insn.len) {
			*unrun = false;
			return b->addr + b->insn.len;
		}
	}
	/* the copies of breakpoints removed since, which threads may be in */
	for (size_t i = 0; i < t->as->noots_gone; i++) {
		const struct oot_gone *g = &t->as->oots_gone[i];

		if (pc == g->oot)
			return g->addr;
		if (pc == g->oot + g->len) {
			*unrun = false;
			return g->addr + g->len;
		}
	}
	*unrun = false;
	return pc;
}

/* Is pc in one of racegate's scratch pages of as? */
static bool in_scratch(const struct aspace *as, uint64_t pc)
{
	for (size_t i = 0; i < as->npages; i++)
		if (pc >= as->pages[i].base && pc < as->pages[i].base + PAGE)
			return true;
	return false;
}

void tracer_signal_leaves_scratch(tracer *tr, struct tcb *t)
{
	arch_regs r;
	uint64_t pc, to;
	bool unrun;

	if (!tr->attached || !t->as || tracer_regs_read(t, &r) < 0)
		return;
	pc = arch_get_pc(&r);
	if (!in_scratch(t->as, pc) || (to = detach_pc(t, pc, &unrun)) == pc)
		return;
	arch_set_pc(&r, to);
	t->flags &= ~(TCB_REGS | TCB_REGS_DIRTY | TCB_IN_STUB);
	if (arch_regs_store(t->tid, &r) < 0)
		return;         /* gone: its death follows */
	/* its trap there at the handler's return is no arrival (step_over) */
	if (unrun && tracer_bp_find(t->as->img, to)) {
		t->flags |= TCB_SIG_RETURN;
		t->sigret_addr = to;
		t->sigret_sp = arch_get_sp(&r);
	}
}

/*
 * Letting threads go with nothing of racegate's left in the memory they
 * run takes three steps.  detach_stop_all stops every one first, and only
 * then does detach_clean take the breakpoints out, for a thread that runs
 * meanwhile may trap on one at any time, and its trap must not reach it
 * detached.  detach_let_go then detaches the threads, left stopped till
 * then.  Statuses are collected from every thread at once, with a
 * deadline, never from one thread alone: the one that is already stopped
 * (its status in tr->raw, or in the kernel's queue) would make that wait
 * last for ever.  children: only the children (the program has ended, or
 * has called exec and left them the old memory).
 */
static int detach_stop_all(tracer *tr, bool children, rg_err *err)
{
	long deadline = tracer_now_ms() + STOP_WAIT_MS;

	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];

		if (!detach_takes(t, children) || (t->flags & TCB_EXITING) ||
		    !(t->flags & TCB_STARTED) || tracer_status_queued(tr, t->tid))
			continue;       /* dying; its first stop, a status are on their way */
		if (t->flags & TCB_HELD) {
			/* held by tracer_interrupt right after its int3 */
			if (!(t->flags & TCB_AT_BP) && trap_pending(t->tid)) {
				t->flags &= ~TCB_HELD;
				if (tracer_restart(t->tid, PTRACE_CONT, 0, err) < 0)
					return -1;
			}
			continue;
		}
		if (ptrace(PTRACE_INTERRUPT, t->tid, 0L, 0L) < 0 && errno != ESRCH)
			return rg_error(err, "cannot stop thread %d: %s", t->tid,
					strerror(errno));
	}
	while (tr->raw_head < tr->nraw) {
		struct wstat w = tr->raw[tr->raw_head++];

		if (detach_status(tr, w.tid, w.status, children, err) < 0)
			return -1;
	}
	for (;;) {
		pid_t waiting = detach_unsettled(tr, children), tid;
		int status, got;

		if (!waiting)
			return 0;
		got = tracer_wait_until(tr, -1, deadline, &tid, &status);
		if (got == 0)
			return rg_error(err, "thread %d did not stop within %d ms",
					waiting, STOP_WAIT_MS);
		if (got < 0)
			return rg_error(err, "cannot wait for thread %d: %s", waiting,
					strerror(errno));
		if (detach_status(tr, tid, status, children, err) < 0)
			return -1;
	}
}

/* How many instructions a thread inside a pad runs at most before it is out. */
#define PAD_STEPS_MAX 4096

/* step_out_of_pads, the steps: a signal met is kept for the detach. */
static int step_out(tracer *tr, struct tcb *t, rg_err *err)
{
	uint64_t pc = 0;

	for (int n = 0; n < PAD_STEPS_MAX; n++) {
		arch_regs r;
		int status;
		pid_t got;

		if (arch_regs_fetch(t->tid, &r) < 0)
			return 0;
		if (!tracer_pad_code_at(t->as->img, pc = arch_get_pc(&r))) {
			/* the pad's popped flags: the step's flag with them */
			if (n) {
				arch_clear_step(&r);
				arch_regs_store(t->tid, &r);
			}
			return 0;
		}
		if (tracer_restart(t->tid, PTRACE_SINGLESTEP, 0, err) < 0)
			return -1;
		while ((got = waitpid(t->tid, &status, __WALL)) < 0 && errno == EINTR)
			;
		if (got < 0)
			return rg_error(err, "cannot wait for thread %d: %s", t->tid,
					strerror(errno));
		if (!WIFSTOPPED(status) || (status >> 16) == PTRACE_EVENT_EXIT) {
			/* dying (killed meanwhile): its death is judged as usual */
			if (!WIFSTOPPED(status))
				return tracer_handle_status(tr, t->tid, status, err);
			t->flags = (t->flags | TCB_EXITING) & ~(TCB_HELD | TCB_AT_BP);
			return 0;
		}
		if (WSTOPSIG(status) != SIGTRAP && !(status >> 16) &&
		    t->npending < PENDING_MAX &&
		    ptrace(PTRACE_GETSIGINFO, t->tid, 0L, &t->pending[t->npending]) == 0)
			t->npending++;
	}
	return rg_error(err, "thread %d did not leave racegate's pad at 0x%llx in %d "
			"instructions", t->tid, (unsigned long long)pc, PAD_STEPS_MAX);
}

/*
 * t, stopped inside a pad's code (interrupted there, or a signal came
 * there), the pads let go by now (off, their traps no-ops): stepped till
 * it is out, which takes the pass way (its registers back, the moved
 * instructions, the jump back), so that the pad's page can go.  The
 * program's signals are blocked meanwhile: they stay queued, in order,
 * with their values; the one its stop was delivering goes with the
 * detach, with its own siginfo.
 */
static int step_out_of_pads(tracer *tr, struct tcb *t, rg_err *err)
{
	arch_regs r0;
	siginfo_t keep;
	uint64_t mask;
	bool quiet, kept;
	int rc;

	if (arch_regs_fetch(t->tid, &r0) < 0 || !tracer_pad_code_at(t->as->img, arch_get_pc(&r0)))
		return 0;
	kept = t->detach_sig && ptrace(PTRACE_GETSIGINFO, t->tid, 0L, &keep) == 0;
	quiet = tracer_signals_quiet(t, &mask);
	rc = step_out(tr, t, err);
	if (quiet && !(t->flags & TCB_EXITING))
		tracer_signals_back(t, mask);
	if (kept && !(t->flags & TCB_EXITING))
		ptrace(PTRACE_SETSIGINFO, t->tid, 0L, &keep);
	return rc;
}

/* Takes the breakpoints out of the memory of the threads detach_stop_all
 * stopped, and forgets them; lets go every child not let go yet. */
static int detach_clean(tracer *tr, bool children, rg_err *err)
{
	struct image *img = TRACER_MAIN_AS(tr)->img;
	arch_regs r;
	size_t i;
	int rc = 0;

	for (i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];
		uint64_t pc;
		bool unrun;

		if (!detach_takes(t, children) || (t->flags & TCB_EXITING))
			continue;
		/* held at a breakpoint: its PC at the breakpoint's instruction */
		tracer_regs_sync(t);
		if (arch_regs_fetch(t->tid, &r) < 0)
			continue;
		/* inside a pad's when: condition: out to its trap path, which
		 * becomes the way on once the pads are let go (pad.c) */
		if (tracer_pad_leave_cond(t->as->img, &r))
			arch_regs_store(t->tid, &r);
		pc = detach_pc(t, arch_get_pc(&r), &unrun);
		if (pc != arch_get_pc(&r)) {
			arch_set_pc(&r, pc);
			arch_regs_store(t->tid, &r);
		}
	}
	/* pads: none traps any more, and the program's bytes are back (every
	 * thread is stopped; one still inside a pad finishes it) */
	tracer_pad_let_go(tr, img, TRACER_MAIN_AS(tr)->memfd);
	for (i = 0; i < tr->ntcbs; i++)
		if (detach_takes(tr->tcbs[i], children) &&
		    !(tr->tcbs[i]->flags & TCB_EXITING) && tr->tcbs[i]->as &&
		    step_out_of_pads(tr, tr->tcbs[i], err) < 0)
			rc = -1;
	for (i = 0; i < img->nbps; i++)
		if (!tracer_pad_find(img, img->bps[i].addr) &&
		    tracer_bp_put_back(tr, TRACER_MAIN_AS(tr), TRACER_MAIN_AS(tr)->memfd,
				       &img->bps[i], err) < 0)
			rc = -1;
	/* Children not let go yet: the breakpoints out of a copy of their own
	 * (the list is still there), and go; shared memory is clean already.
	 * At the program's exec (children), a fork child to be followed has
	 * memory and breakpoints of its own (its snapshot): it is followed now
	 * if its first stop came (here, perhaps), else by that stop. */
	for (i = 0; i < tr->nforks;) {
		struct fchild *f = &tr->forks[i];

		if (children && f->as) {
			if (!f->started || !f->parent_known)
				i++;
			else if (tracer_fork_finish(tr, f, true, err) < 0)
				rc = -1;
			continue;
		}
		if (!f->parent_known)
			f->parent = tr->pid;
		if (tracer_fork_finish(tr, f, false, err) < 0)
			rc = -1;
	}
	/* the exec gives the program a new image; followed children keep this one */
	if (!children)
		img->nbps = 0;
	return rc;
}

/* Detaches the threads detach_stop_all stopped, with the signals they were
 * receiving; children's control blocks are dropped. */
static int detach_let_go(tracer *tr, bool children, rg_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];

		if (!detach_takes(t, children))
			continue;
		/* a signal its stop was delivering goes with the detach */
		if (tracer_restart(t->tid, PTRACE_DETACH, t->detach_sig, err) < 0)
			rc = -1;
		/* signals kept while it stepped past a line: pending again */
		for (int k = 0; k < t->npending; k++)
			syscall(SYS_tgkill, t->tgid, t->tid, t->pending[k].si_signo);
		t->npending = 0;
		if (t->flags & TCB_CHILD) {
			tracer_tcb_drop(tr, t);
			i--;
		}
	}
	return rc;
}

bool tracer_has_children(const tracer *tr)
{
	for (size_t i = 0; i < tr->ntcbs; i++)
		if (tr->tcbs[i]->flags & TCB_CHILD)
			return true;
	return tr->nforks > 0;
}

/*
 * The children sharing memory the program has left (its end, its exec):
 * let go clean, or, if one does not stop in time, killed (racegate's
 * breakpoints are still in that memory).
 */
void tracer_detach_children(tracer *tr)
{
	if (detach_stop_all(tr, true, NULL) < 0) {
		for (size_t i = 0; i < tr->ntcbs; i++)
			if (tr->tcbs[i]->flags & TCB_CHILD)
				kill(tr->tcbs[i]->tid, SIGKILL);
		return;
	}
	detach_clean(tr, true, NULL);
	detach_let_go(tr, true, NULL);
}

/* Lets every thread go (detach_let_go); the program is no longer traced. */
static int detach_finish(tracer *tr, int rc, rg_err *err)
{
	if (detach_let_go(tr, false, err) < 0)
		rc = -1;
	tr->ev_head = tr->nev = 0;      /* no event follows */
	tr->exit_queued = true;
	tr->reaped = true;
	return rc;
}

int tracer_detach_stopped(tracer *tr, rg_err *err)
{
	int rc;

	if (tr->exit_queued)
		return rg_error(err, "it has ended");
	/* followed fork children are not left behind with int3s: they die */
	if (tr->nas > 1)
		tracer_kill_followed(tr, false);
	if (detach_stop_all(tr, false, err) < 0)
		return -1;
	rc = detach_clean(tr, false, err);
	/* Pending until a thread runs: the first one detached stops them all. */
	kill(tr->pid, SIGSTOP);
	return detach_finish(tr, rc, err);
}

/*
 * Does a thread's stack return into one of racegate's pages (a signal
 * handler that interrupted it inside a pad)?  Then the pages stay, and
 * err says so: the program runs on, every pad passing.
 */
static bool scratch_in_frames(tracer *tr, const struct aspace *as, rg_err *err)
{
	enum { MAX_FRAMES = 256 };
	uint64_t pcs[MAX_FRAMES];

	for (size_t i = 0; i < tr->ntcbs; i++) {
		const struct tcb *t = tr->tcbs[i];
		size_t n = 0;

		if ((t->flags & (TCB_EXITING | TCB_CHILD)) || t->as != as ||
		    tracer_backtrace(tr, t->tid, pcs, MAX_FRAMES, &n, NULL) < 0)
			continue;
		for (size_t k = 1; k < n; k++)
			if (in_scratch(as, pcs[k]) || tracer_pad_code_at(as->img, pcs[k])) {
				rg_error(err, "thread %d returns into racegate's page at 0x%llx "
					 "from a signal handler: the pages stay mapped (every "
					 "pad in them passes; the program runs on)", t->tid,
					 (unsigned long long)pcs[k]);
				return true;
			}
	}
	return false;
}

/*
 * After attach: as tracer_detach_stopped, without the stop, and with the
 * scratch pages unmapped, by a thread in a plain stop (a signal its stop
 * was delivering would lose its siginfo to the calls).
 */
int tracer_detach(tracer *tr, rg_err *err)
{
	struct aspace *as = TRACER_MAIN_AS(tr);
	struct tcb *by = NULL;
	int rc;

	if (tr->exit_queued)
		return rg_error(err, "it has ended");
	/* tracer_attach follows no fork: the program's is the only memory */
	if (tr->nas > 1)
		rg_bug("an attached program has %zu followed processes", tr->nas);
	if (detach_stop_all(tr, false, err) < 0)
		return -1;
	rc = detach_clean(tr, false, err);
	/* a plain stop first; in a stopped program, one in its group-stop */
	for (size_t i = 0; i < 2 * tr->ntcbs && !by; i++) {
		struct tcb *t = tr->tcbs[i % tr->ntcbs];
		unsigned skip = i < tr->ntcbs ? TCB_GROUP_STOP : 0;

		if (!(t->flags & (TCB_CHILD | TCB_EXITING | TCB_IN_EVENT | skip)) &&
		    (t->flags & TCB_HELD) && !t->detach_sig && t->as == as)
			by = t;
	}
	if ((as->npages || as->ndata) && !by)
		rc = rg_error(err, "cannot unmap racegate's scratch pages: no thread "
			      "is in a plain stop");
	else if ((as->npages || as->ndata) && scratch_in_frames(tr, as, err))
		rc = -1;
	else if ((as->npages || as->ndata) && tracer_scratch_unmap(tr, by, err) < 0)
		rc = -1;
	return detach_finish(tr, rc, err);
}
