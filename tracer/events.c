/*
 * Wait statuses into events.  See tracer.h for the contract.
 *
 * Shape (after strace's strace.c): every wait status goes through
 * tracer_handle_status(), which updates the thread's control block and
 * either restarts the thread at once (clone of the parent side, signals
 * passed through, group-stops, exit stops) or leaves it stopped and queues
 * an event for the caller (breakpoint, new thread).  tracer_next_event()
 * first drains every status the kernel has (WNOHANG) into a queue, then
 * judges them one at a time, in order.
 */
#include "tracer_priv.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long one poll() sleeps at most before waitpid is asked again. */
#define POLL_SLICE_MS 100

void tracer_queue_status(tracer *tr, pid_t tid, int status)
{
	if (tr->raw_head == tr->nraw)
		tr->raw_head = tr->nraw = 0;
	RG_GROW(tr->raw, tr->nraw + 1, tr->raw_cap);
	tr->raw[tr->nraw].tid = tid;
	tr->raw[tr->nraw].status = status;
	tr->nraw++;
}

tracer_event *tracer_queue_event(tracer *tr, enum tracer_ev_kind kind, pid_t tid)
{
	tracer_event *ev;

	if (tr->ev_head == tr->nev)
		tr->ev_head = tr->nev = 0;
	RG_GROW(tr->evq, tr->nev + 1, tr->ev_cap);
	ev = &tr->evq[tr->nev++];
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->tid = tid;
	ev->exit_code = -1;
	return ev;
}

/* SIGNAL is informational, and about the program's threads only. */
void tracer_note_signal(tracer *tr, const struct tcb *t, int sig)
{
	if (!(t->flags & TCB_CHILD))
		tracer_queue_event(tr, TRACER_EV_SIGNAL, t->tid)->signo = sig;
}

bool tracer_is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* A group-stop: the program stops (SIGSTOP, SIGTSTP...) until a SIGCONT. */
bool tracer_is_group_stop(int status)
{
	return WIFSTOPPED(status) && (status >> 16) == PTRACE_EVENT_STOP &&
	       tracer_is_stop_signal(WSTOPSIG(status));
}

/*
 * A group-stop that came while racegate ran a thread synchronously (a
 * step over a breakpoint, a system call of its own) was cut short by the
 * next step: once that step is done, the thread is asked to stop again.
 * PTRACE_INTERRUPT on a stopped thread takes effect at its next restart,
 * before it runs any code; tracer_handle_status then puts it back into the stop
 * (PTRACE_LISTEN) if the program is still stopped, or lets it go on if a
 * SIGCONT came meanwhile.  So a thread released from a gate while the
 * program is stopped stays stopped with it, as natively.
 */
void tracer_rejoin_group_stop(pid_t tid)
{
	ptrace(PTRACE_INTERRUPT, tid, 0L, 0L);
}

void tracer_report_new_thread(tracer *tr, struct tcb *t)
{
	tracer_event *ev;

	t->flags |= TCB_REPORTED | TCB_HELD;
	ev = tracer_queue_event(tr, TRACER_EV_THREAD_NEW, t->tid);
	ev->parent = t->parent;
	ev->pid = t->tgid;
}

int tracer_new_child(tracer *tr, struct tcb *parent, int event, bool restart,
		     rg_err *err)
{
	unsigned long msg = 0;
	pid_t child;

	if (ptrace(PTRACE_GETEVENTMSG, parent->tid, 0L, &msg) < 0)
		goto out;
	child = (pid_t)msg;
	if (event == PTRACE_EVENT_CLONE && !tracer_is_child(tr, child)) {
		struct tcb *t = tracer_tcb_find(tr, child);

		/*
		 * The child's first stop and this event race: either may be
		 * judged first.  The thread is reported here, at its parent's
		 * clone event, so that THREAD_NEW events come in creation order
		 * (the parent may clone again before this child's first stop is
		 * seen).  A resume that comes before that first stop waits for it.
		 */
		if (!t)
			t = tracer_tcb_add(tr, child);
		/* a thread of a followed child process is in its memory */
		t->tgid = parent->tgid;
		t->as = parent->as;
		t->parent = parent->tid;
		t->flags |= TCB_PARENT_KNOWN;
		if (parent->flags & TCB_IN_STUB) {
			/* Cloned from the stub: it returns from the syscall there too. */
			t->flags |= TCB_IN_STUB;
			t->stub_ret = parent->stub_ret;
		}
		if (restart && !(t->flags & TCB_REPORTED))
			tracer_report_new_thread(tr, t);
	} else {
		struct fchild *f = tracer_fork_find(tr, child);

		if (!f)
			f = tracer_fork_add(tr, child);
		f->parent = parent->tid;
		f->parent_known = true;
		f->vfork = event == PTRACE_EVENT_VFORK;
		/* it may run the pads with its parent's thread pointer */
		if (event != PTRACE_EVENT_FORK)
			tracer_pad_child_shares(tr, parent);
		f->stub_ret = (parent->flags & TCB_IN_STUB) ? parent->stub_ret : 0;
		tracer_fork_snapshot(tr, f, parent);
		if (restart && f->started && tracer_fork_finish(tr, f, true, err) < 0) {
			tracer_restart(parent->tid, tracer_cont_op(parent), 0, NULL);
			return -1;
		}
	}
out:
	if (!restart)
		return 0;
	return tracer_restart(parent->tid, tracer_cont_op(parent), 0, err);
}

static int handle_exec(tracer *tr, struct tcb *t, rg_err *err)
{
	unsigned long former = 0;

	if (t->flags & TCB_CHILD)
		return tracer_child_exec(tr, t, err);
	if (t->tgid != tr->pid)
		return tracer_proc_exec(tr, t, err);
	/*
	 * Children still sharing the old memory keep it (a vfork child whose
	 * parent thread exec killed): let them go with it clean, through the
	 * old /proc/PID/mem, before the breakpoints are forgotten.
	 */
	if (tracer_has_children(tr))
		tracer_detach_children(tr);

	/*
	 * A non-leader thread that calls exec takes over the leader's tid;
	 * the old leader's death is reported only if the kernel stopped it at
	 * PTRACE_EVENT_EXIT (tracer_report_leader_gone; kernels differ), and the
	 * other threads' deaths are (before or after this event).
	 */
	if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0L, &former) == 0 &&
	    (pid_t)former != t->tid) {
		struct tcb *old = tracer_tcb_find(tr, (pid_t)former);

		if (old) {
			if ((old->flags & (TCB_REPORTED | TCB_GONE)) == TCB_REPORTED)
				tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, old->tid);
			tracer_tcb_drop(tr, old);
		}
	}
	t->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_REPORTED;
	t->npending = 0;
	tracer_ranges_free(tr, t, false);      /* the line is gone with the old image */
	/* A new image: no breakpoint (fork children running the old one keep
	 * theirs); the old /proc/PID/mem still points at the old memory, and
	 * the scratch pages and copies are gone with it. */
	tracer_as_exec(t->as);
	if (t->as->memfd >= 0)
		close(t->as->memfd);
	if ((t->as->memfd = tracer_open_mem(tr->pid, err)) < 0)
		return -1;
	tr->entry = tracer_read_auxv_entry(tr->pid);
	if (tracer_scratch_init(tr, t, tr->entry, err) < 0)
		return rg_error_prefix(err, "after exec");
	tracer_queue_event(tr, TRACER_EV_EXEC, t->tid)->pid = tr->pid;
	return tracer_resume_pending(tr, t, err);
}

static int handle_sigtrap(tracer *tr, struct tcb *t, const siginfo_t *si, rg_err *err)
{
	arch_regs r;
	uint64_t pc, addr;
	struct bp *b;
	struct pad *p;

	if (tracer_stepping(t) && si->si_code > 0 && si->si_code != SI_KERNEL)
		return tracer_range_next(tr, t, err);  /* one more instruction of the line ran */
	if (si->si_code != SI_KERNEL || tracer_regs_read(t, &r) < 0)
		goto pass;              /* raise(SIGTRAP), kill, the program's own TF */
	pc = arch_get_pc(&r);
	addr = arch_bp_from_trap_pc(pc);
	if ((t->flags & TCB_IN_STUB) && t->as->stub && pc == ARCH_STUB_TRAP_PC(t->as->stub)) {
		/* Back from a displaced syscall (tracer_step_over). */
		t->flags &= ~(TCB_IN_STUB | TCB_REGS);
		arch_set_pc(&r, t->stub_ret);
		if (arch_regs_store(t->tid, &r) < 0)
			return tracer_gone_or_error(err, "cannot set the registers "
						    "of thread %d: %s", t->tid,
						    strerror(errno));
		return tracer_resume_pending(tr, t, err);
	}
	if ((p = tracer_pad_by_trap(t->as->img, pc)))
		return tracer_pad_trapped(tr, t, p, err);   /* pad.c */
	if ((b = tracer_bp_find(t->as->img, addr))) {
		/* rewound in the cache only: see tracer_regs_read */
		arch_set_pc(&t->regs, addr);
		t->flags |= TCB_REGS_DIRTY;
		r = t->regs;
		if (tracer_range_waits_at(t, addr, arch_get_sp(&r)))
			return tracer_range_returned(tr, t, addr, err);
		if ((t->flags & TCB_SIG_RETURN) && addr == t->sigret_addr &&
		    arch_get_sp(&r) == t->sigret_sp) {
			/* back from the handler of a signal that came before
			 * the step: not a second arrival (see slot_signal) */
			t->flags &= ~TCB_SIG_RETURN;
			return tracer_step_over(tr, t, b, err);
		}
		/* another range's return breakpoint; a child never arrives */
		if (!b->user || (t->flags & TCB_CHILD))
			return tracer_step_over(tr, t, b, err);
		/* A re-arrival after a fault in the step (TCB_REARRIVAL) is
		 * reported like any other: see tracer_step_over. */
		t->flags &= ~TCB_REARRIVAL;
		t->flags |= TCB_HELD | TCB_AT_BP;
		t->bp_addr = addr;
		tracer_queue_event(tr, TRACER_EV_BREAKPOINT, t->tid)->addr = addr;
		return 0;
	}
	if (tracer_bp_recently_removed(t->as->img, addr)) {
		/* It trapped before the int3 was taken out: run the real byte. */
		t->flags &= ~TCB_REGS;
		arch_set_pc(&r, addr);
		if (arch_regs_store(t->tid, &r) < 0)
			return tracer_gone_or_error(err, "cannot set the registers "
						    "of thread %d: %s", t->tid,
						    strerror(errno));
		return tracer_restart(t->tid, tracer_cont_op(t), 0, err);
	}
pass:
	t->flags &= ~TCB_REGS;
	if (tracer_stepping(t))
		return tracer_range_signal(tr, t, si, err);
	tracer_note_signal(tr, t, SIGTRAP);
	return tracer_restart(t->tid, tracer_run_op(t), SIGTRAP, err);
}

/*
 * Is this SIGTRAP stop the int3 of one of our breakpoints, for sure, with no
 * PTRACE_GETSIGINFO (one system call less per hit)?  Only when the PC after
 * the trap lies inside the breakpoint's original instruction
 * (arch_trap_pc_inside: an instruction longer than the breakpoint):
 * that is never an instruction boundary, so no other stop can have that PC
 * (a SIGTRAP the program sends itself is delivered at a boundary, its own
 * trap flag stops after a whole instruction).  A one-byte instruction, or
 * one not decoded yet (its first step decodes it), still needs the siginfo
 * to tell.  The registers read here are kept for handle_sigtrap.
 */
static bool surely_our_trap(struct tcb *t)
{
	arch_regs r;
	const struct bp *b;

	if (tracer_stepping(t) || (t->flags & TCB_IN_STUB) || tracer_regs_read(t, &r) < 0)
		return false;
	/* a pad's int3 is in racegate's page: no other stop has that PC */
	if (tracer_pad_by_trap(t->as->img, arch_get_pc(&r)))
		return true;
	b = tracer_bp_find(t->as->img, arch_bp_from_trap_pc(arch_get_pc(&r)));
	return b && b->decoded && arch_trap_pc_inside(&b->insn);
}

/*
 * The leader passed its exit (PTRACE_EVENT_EXIT): pthread_exit in main, or
 * the process's end.  Its own status comes only once every other thread has
 * died (the kernel keeps it a zombie until then), and that one is the EXIT
 * event: its THREAD_EXIT is reported now, once, so that the threads still
 * running see it gone.
 */
void tracer_report_leader_gone(tracer *tr, struct tcb *t)
{
	if ((t->flags & (TCB_REPORTED | TCB_GONE)) == TCB_REPORTED)
		tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, t->tid);
	t->flags |= TCB_GONE;
}

static void report_exit(tracer *tr, int status)
{
	tracer_event *ev;

	/* Followed fork children die with it (docs/gates.md, "Processes"). */
	if (tr->nas > 1)
		tracer_kill_followed(tr, true);
	/* The leader's status comes only once every other thread was reaped;
	 * threads still listed died without a status of their own. */
	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];

		if (t->flags & TCB_CHILD)
			continue;
		if (t->tid != tr->pid && (t->flags & TCB_REPORTED))
			tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, t->tid);
		tracer_tcb_drop(tr, t);
		i--;
	}
	/* Children that outlive it (clone(CLONE_VM), a vfork child of a
	 * thread killed by the end), and children whose parent's event never
	 * came: let them go. */
	if (tracer_has_children(tr))
		tracer_detach_children(tr);
	ev = tracer_queue_event(tr, TRACER_EV_EXIT, tr->pid);
	if (WIFEXITED(status)) {
		ev->exit_code = WEXITSTATUS(status);
	} else {
		ev->term_signal = WTERMSIG(status);
		ev->core_dumped = WCOREDUMP(status);
	}
	tr->exit_queued = true;
	tr->reaped = true;
}

/* tid (t, or a fork child not yet known as a thread) exited or was killed. */
static void handle_death(tracer *tr, struct tcb *t, pid_t tid, int status)
{
	struct fchild *f;

	if (tid == tr->pid) {
		report_exit(tr, status);
	} else if (t) {
		bool leader = t->tgid == tid && !(t->flags & TCB_CHILD);

		if (t->flags & TCB_REPORTED)
			tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, tid);
		tracer_tcb_drop(tr, t);
		if (leader)
			tracer_proc_gone(tr, tid);
	} else if ((f = tracer_fork_find(tr, tid))) {
		tracer_fork_drop(tr, f);
	}
}

int tracer_handle_status(tracer *tr, pid_t tid, int status, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	struct fchild *f;
	int sig, event;

	siginfo_t si;

	tr->nstatus++;
	/* a new stop: the cached registers are old (a held thread's only
	 * other stop is its death, for which they do not matter) */
	if (t)
		t->flags &= ~(TCB_REGS | TCB_REGS_DIRTY);

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		handle_death(tr, t, tid, status);
		return 0;
	}
	if (!WIFSTOPPED(status))
		return 0;
	sig = WSTOPSIG(status);
	event = status >> 16;

	if (!t) {
		if ((f = tracer_fork_first_stop(tr, tid)))
			return f->parent_known ? tracer_fork_finish(tr, f, true, err) : 0;
		t = tracer_tcb_add(tr, tid);   /* a new thread's first stop */
	}
	if (!(t->flags & TCB_STARTED)) {
		t->flags |= TCB_STARTED;
		if (event == PTRACE_EVENT_STOP) {
			/* born into the program's group-stop: it stays in it */
			if (tracer_is_stop_signal(sig))
				t->flags |= TCB_GROUP_STOP;
			if (t->flags & TCB_RESUME_ON_START) {
				t->flags &= ~TCB_RESUME_ON_START;
				t->flags |= TCB_HELD;
				return tracer_resume(tr, t->tid, err);
			}
			/* Left stopped until its parent's clone event is seen
			 * and the caller resumes it. */
			if ((t->flags & TCB_PARENT_KNOWN) && !(t->flags & TCB_REPORTED))
				tracer_report_new_thread(tr, t);
			return 0;
		}
	}

	switch (event) {
	case 0:
		break;
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		return tracer_new_child(tr, t, event, true, err);
	case PTRACE_EVENT_EXEC:
		return handle_exec(tr, t, err);
	case PTRACE_EVENT_EXIT:
		/* Let it die; the leader may stay a zombie until the others die. */
		t->flags = (t->flags | TCB_EXITING) & ~(TCB_HELD | TCB_AT_BP);
		/* its memory is still there: its passes in pads are read now */
		tracer_pad_thread_exiting(tr, t);
		if (tid == tr->pid) {
			/* the last look at its code: did it rewrite ours? */
			tracer_rewrites_check(tr);
			tracer_report_leader_gone(tr, t);
		}
		return tracer_restart(tid, PTRACE_CONT, 0, err);
	case PTRACE_EVENT_STOP:
		/*
		 * SEIZE reports group-stops as PTRACE_EVENT_STOP with the stop
		 * signal: LISTEN keeps the thread stopped without making the
		 * tracer hold it.  After SIGCONT (or PTRACE_INTERRUPT) the
		 * same event comes with SIGTRAP: just go on.
		 */
		if (tracer_is_stop_signal(sig))
			return tracer_restart(tid, PTRACE_LISTEN, 0, err);
		return tracer_restart(tid, tracer_cont_op(t), 0, err);
	default:
		return tracer_restart(tid, tracer_cont_op(t), 0, err);
	}

	if (sig == (SIGTRAP | 0x80))   /* PTRACE_O_TRACESYSGOOD */
		return tracer_syscall_stop(tr, t, err);
	/* A signal-delivery-stop. */
	if (sig == SIGTRAP && surely_our_trap(t)) {
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGTRAP;
		si.si_code = SI_KERNEL;
		return handle_sigtrap(tr, t, &si, err);
	}
	if (ptrace(PTRACE_GETSIGINFO, tid, 0L, &si) < 0) {
		if (errno == ESRCH)
			return 0;       /* killed meanwhile */
		/* EINVAL: a group-stop without the event bit (not with SEIZE). */
		return tracer_restart(tid, PTRACE_LISTEN, 0, err);
	}
	if (sig == SIGTRAP)
		return handle_sigtrap(tr, t, &si, err);
	if (tracer_stepping(t))
		return tracer_range_signal(tr, t, &si, err);
	/* a load of a pad's when: condition faulted: racegate's, not the
	 * program's; the thread goes to the pad's trap instead (pad.c) */
	if (tracer_pad_cond_fault(t, sig, &si))
		return tracer_restart(tid, tracer_run_op(t), 0, err);
	tracer_oot_fault(t, sig, &si);
	/* a program that rewrote its code where racegate patched it faults
	 * there, likely: see whether it did (rewrite.c) */
	if (tracer_is_sync_fault(sig, &si) && !(t->flags & TCB_CHILD))
		tracer_rewrites_check(tr);
	tracer_signal_leaves_scratch(tr, t);
	tracer_note_signal(tr, t, sig);
	return tracer_restart(tid, tracer_run_op(t), sig, err);
}

/*
 * Collects every status the kernel has: first the SIGCHLD in the signalfd,
 * then waitpid (WNOHANG) until it has nothing.  Afterwards the signalfd is
 * readable only for a status that came since (tr->quiet).
 */
static void drain(tracer *tr)
{
	struct signalfd_siginfo ssi[8];
	int status;
	pid_t pid;

	/* SIGCHLD is queued once at most: one read takes it (one system call
	 * per breakpoint hit counts, see bench/) */
	while (read(tr->sigfd, ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi))
		;
	for (;;) {
		pid = waitpid(-1, &status, __WALL | WNOHANG);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		tracer_queue_status(tr, pid, status);
	}
	tr->quiet = true;
}

int tracer_next_event(tracer *tr, tracer_event *ev, int timeout_ms, rg_err *err)
{
	long deadline = timeout_ms > 0 ? tracer_now_ms() + timeout_ms : 0;

	for (;;) {
		struct pollfd pfd = { .fd = tr->sigfd, .events = POLLIN };
		long wait;

		if (tr->ev_head < tr->nev) {
			*ev = tr->evq[tr->ev_head++];
			return 1;
		}
		if (tr->exit_queued)
			return 0;
		/*
		 * Drain before judging: collect everything, then judge in
		 * order.  Right after a drain (tr->quiet), until this returns
		 * 0, draining again is skipped: whatever came since made the
		 * signalfd readable, so the caller's poll returns at once and
		 * the next call drains.  That spares a read and a waitpid that
		 * return nothing, per breakpoint hit (bench/).
		 */
		if (!tr->quiet)
			drain(tr);
		if (tr->raw_head < tr->nraw) {
			while (tr->raw_head < tr->nraw && tr->ev_head == tr->nev) {
				struct wstat w = tr->raw[tr->raw_head++];

				if (tracer_handle_status(tr, w.tid, w.status, err) < 0)
					return -1;
			}
			continue;
		}
		tr->quiet = false;
		if (timeout_ms == 0)
			return 0;
		/*
		 * Sleep on the signalfd, in slices: a SIGCHLD taken by another
		 * thread of racegate that does not block it never reaches the
		 * signalfd, and waitpid is asked again after each slice anyway.
		 */
		wait = POLL_SLICE_MS;
		if (timeout_ms > 0) {
			long left = deadline - tracer_now_ms();

			if (left <= 0)
				return 0;
			if (left < wait)
				wait = left;
		}
		poll(&pfd, 1, (int)wait);
	}
}

/* Is a status of tid among those drained but not judged?  Then tid is in a
 * stop (or dead), and no other status comes from it until it is resumed. */
bool tracer_status_queued(const tracer *tr, pid_t tid)
{
	for (size_t i = tr->raw_head; i < tr->nraw; i++)
		if (tr->raw[i].tid == tid)
			return true;
	return false;
}

bool tracer_status_forget(tracer *tr, pid_t tid)
{
	bool dead = false;

	for (size_t i = tr->raw_head; i < tr->nraw; i++) {
		if (tr->raw[i].tid != tid)
			continue;
		if (WIFSTOPPED(tr->raw[i].status))
			tracer_restart(tid, PTRACE_CONT, 0, NULL);
		else
			dead = true;
		memmove(&tr->raw[i], &tr->raw[i + 1], (tr->nraw - i - 1) * sizeof(*tr->raw));
		tr->nraw--;
		i--;
	}
	return dead;
}

/*
 * waitpid(which, __WALL) until deadline (tracer_now_ms): 1 with *tid and *status,
 * 0 when nothing came in time, -1 when there is nothing to wait for.  It
 * sleeps on the signalfd, whose SIGCHLD may be for another thread: the next
 * tracer_next_event drains again (tr->quiet).
 */
int tracer_wait_until(tracer *tr, pid_t which, long deadline, pid_t *tid, int *status)
{
	struct signalfd_siginfo ssi[8];

	for (;;) {
		struct pollfd pfd = { .fd = tr->sigfd, .events = POLLIN };
		pid_t r = waitpid(which, status, __WALL | WNOHANG);
		long left;

		if (r > 0) {
			*tid = r;
			return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		left = deadline - tracer_now_ms();
		if (left <= 0)
			return 0;
		poll(&pfd, 1, left < 10 ? (int)left : 10);
		while (read(tr->sigfd, ssi, sizeof(ssi)) > 0)
			;
		tr->quiet = false;
	}
}

int tracer_interrupt(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	pid_t got;
	int status, rc;

	if (!t || tr->exit_queued || (t->flags & TCB_EXITING))
		return rg_error(err, "cannot stop thread %d: it is exiting", tid);
	if (t->flags & TCB_HELD)
		return 0;
	if (!(t->flags & TCB_STARTED))
		return rg_error(err, "cannot stop thread %d: it has not started", tid);
	/* Stopped already, for a status not judged yet: an interrupt would
	 * only be reported once it runs again. */
	if (tracer_status_queued(tr, tid))
		return rg_error(err, "cannot stop thread %d: it is stopped for "
				"something else", tid);
	if (ptrace(PTRACE_INTERRUPT, tid, 0L, 0L) < 0)
		return rg_error(err, "cannot stop thread %d: %s", tid, strerror(errno));
	tr->frames_at = 0;      /* it stops elsewhere than it was: frames are old */
	rc = tracer_wait_until(tr, tid, tracer_now_ms() + STOP_WAIT_MS, &got, &status);
	if (rc == 0)    /* its stop, when it comes, is judged like any (restarted) */
		return rg_error(err, "cannot stop thread %d: it did not stop within "
				"%d ms", tid, STOP_WAIT_MS);
	if (rc < 0)
		return rg_error(err, "cannot stop thread %d: %s", tid, strerror(errno));
	if (WIFSTOPPED(status) && (status >> 16) == PTRACE_EVENT_STOP) {
		/* in a group-stop of the program's it is stopped just as well,
		 * and goes back into it when resumed */
		t->flags = (t->flags | TCB_HELD) & ~TCB_REGS;
		if (tracer_is_stop_signal(WSTOPSIG(status)))
			t->flags |= TCB_GROUP_STOP;
		return 0;
	}
	if (WIFSTOPPED(status) && WSTOPSIG(status) == (SIGTRAP | 0x80)) {
		/*
		 * Its sleeps are watched (PTRACE_SYSCALL): the call the
		 * interrupt cut stops at its exit first, its result (-EINTR,
		 * -ERESTART...) in the registers, as the interrupt's own stop
		 * would have it; it is held there.  That stop comes once it
		 * runs again, and is let go as any PTRACE_EVENT_STOP is.
		 */
		t->flags = (t->flags | TCB_HELD) & ~TCB_REGS;
		return 0;
	}
	/* A signal, a group-stop or its death came first: judge it later. */
	tracer_queue_status(tr, tid, status);
	return rg_error(err, "cannot stop thread %d: it is %s", tid,
			WIFSTOPPED(status) ? "receiving a signal" : "exiting");
}
