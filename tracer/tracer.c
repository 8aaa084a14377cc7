/*
 * tracer: one program under ptrace.  See tracer.h for the contract.
 *
 * Shape (after strace's strace.c): every wait status goes through
 * tracer_handle_status(), which updates the thread's control block and either
 * restarts the thread at once (clone of the parent side, signals passed
 * through, group-stops, exit stops) or leaves it stopped and queues an event
 * for the caller (breakpoint, new thread).  tracer_next_event() first drains
 * every status the kernel has (WNOHANG) into a queue, then judges them one at
 * a time, in order.
 *
 * Breakpoints are never taken out to step over them: the original
 * instruction runs out of line, in a "slot" of a scratch page mapped into the
 * tracee near the code (displaced stepping, as gdb does), so a thread that
 * reaches the breakpoint while another one is being stepped over still traps.
 */
#include "tracer_priv.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long one poll() sleeps at most before waitpid is asked again. */
#define POLL_SLICE_MS 100

/* ---- small helpers ---------------------------------------------------- */

struct tcb *tracer_tcb_find(const tracer *tr, pid_t tid)
{
	const size_t *i = rg_intmap_get(&tr->tcb_ix, (uint64_t)(uint32_t)tid);

	return i ? tr->tcbs[*i] : NULL;
}

struct tcb *tracer_tcb_add(tracer *tr, pid_t tid)
{
	struct tcb *t = xcalloc(1, sizeof(*t));

	t->tid = tid;
	t->tgid = tr->pid;
	RG_GROW(tr->tcbs, tr->ntcbs + 1, tr->tcbs_cap);
	*rg_intmap_ref(&tr->tcb_ix, (uint64_t)(uint32_t)tid, 0) = tr->ntcbs;
	tr->tcbs[tr->ntcbs++] = t;
	return t;
}

void tracer_tcb_drop(tracer *tr, struct tcb *t)
{
	size_t *ix = rg_intmap_get(&tr->tcb_ix, (uint64_t)(uint32_t)t->tid);

	tracer_ranges_free(tr, t, true);
	if (ix && tr->tcbs[*ix] == t) {
		size_t i = *ix;

		rg_intmap_del(&tr->tcb_ix, (uint64_t)(uint32_t)t->tid);
		tr->tcbs[i] = tr->tcbs[--tr->ntcbs];
		if (i < tr->ntcbs)
			*rg_intmap_get(&tr->tcb_ix, (uint64_t)(uint32_t)tr->tcbs[i]->tid) = i;
	}
	free(t);
}

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

int tracer_wait_tid(pid_t tid, int *status)
{
	for (;;) {
		pid_t r = waitpid(tid, status, __WALL);

		if (r == tid)
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		return -1;
	}
}

/*
 * Restarts tid.  ESRCH is not an error: the thread was killed while stopped
 * (a SIGKILL wakes it from a ptrace-stop) and its death is on its way
 * through waitpid (strace's ptrace_restart).
 */
int tracer_restart(pid_t tid, int op, int sig, rg_err *err)
{
	const char *what = op == PTRACE_CONT ? "resume" :
			   op == PTRACE_SINGLESTEP ? "single-step" :
			   op == PTRACE_LISTEN ? "listen to" : "detach";

	if (ptrace(op, tid, 0L, (long)sig) == 0 || errno == ESRCH)
		return 0;
	/*
	 * LISTEN fails with EIO when the thread is no longer in the group-stop
	 * it reported: only a SIGKILL (the program's exit_group, its end) takes
	 * a thread out of a stop racegate has not restarted, and its next stop
	 * or its death follows as for ESRCH.
	 */
	if (op == PTRACE_LISTEN && errno == EIO)
		return 0;
	return rg_error(err, "cannot %s thread %d: %s", what, tid, strerror(errno));
}

int tracer_regs_fetch(pid_t tid, struct user_regs_struct *r)
{
	return ptrace(PTRACE_GETREGS, tid, 0L, r) < 0 ? -1 : 0;
}

int tracer_regs_store(pid_t tid, const struct user_regs_struct *r)
{
	return ptrace(PTRACE_SETREGS, tid, 0L, r) < 0 ? -1 : 0;
}

/*
 * The registers of t at this stop: the cache, else read (and cached).
 *
 * At a breakpoint the PC is rewound (bp + 1 -> bp) in the cache only
 * (TCB_REGS_DIRTY): a pass-through thread leaves with its PC set to the
 * out-of-line copy anyway (step_over_oot), so one PTRACE_SETREGS per hit
 * does both.  Everything else that lets the thread run or lets someone read
 * its registers through ptrace (libunwind, a debugger after
 * tracer_detach_stopped, the stub, a single-step) calls tracer_regs_sync first.
 */
int tracer_regs_read(struct tcb *t, struct user_regs_struct *r)
{
	if (!(t->flags & TCB_REGS)) {
		if (tracer_regs_fetch(t->tid, &t->regs) < 0)
			return -1;
		t->flags |= TCB_REGS;
	}
	*r = t->regs;
	return 0;
}

/* Writes the cached registers if the thread's own differ (TCB_REGS_DIRTY). */
int tracer_regs_sync(struct tcb *t)
{
	if (!(t->flags & TCB_REGS_DIRTY))
		return 0;
	t->flags &= ~TCB_REGS_DIRTY;
	return tracer_regs_store(t->tid, &t->regs);
}

int tracer_mem_pread(int fd, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(addr + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	return (int)done;
}

int tracer_mem_pwrite(int fd, uint64_t addr, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done,
				   (off_t)(addr + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/* The program's bytes: our int3s are shown as what they replaced. */
size_t tracer_read_code(tracer *tr, uint64_t addr, uint8_t *buf, size_t len)
{
	int n = tracer_mem_pread(tr->memfd, addr, buf, len);

	if (n <= 0)
		return 0;
	for (size_t i = tracer_bp_lower(tr, addr); i < tr->nbps &&
	     tr->bps[i].addr < addr + (size_t)n; i++)
		buf[tr->bps[i].addr - addr] = tr->bps[i].orig;
	return (size_t)n;
}

/* "Tgid:" of /proc/TID/status, or -1 when the thread is gone. */
long tracer_proc_status_field(pid_t tid, const char *field)
{
	char path[64], line[256];
	size_t flen = strlen(field);
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, flen) && line[flen] == ':') {
			val = strtol(line + flen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

bool tracer_is_own_thread(const tracer *tr, pid_t tid)
{
	long tgid = tracer_proc_status_field(tid, "Tgid");

	return tgid < 0 || tgid == tr->pid;
}

int tracer_open_mem(pid_t pid, rg_err *err)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return rg_error(err, "cannot open '%s': %s", path, strerror(errno));
	return fd;
}

uint64_t tracer_read_auxv_entry(pid_t pid)
{
	char path[64];
	Elf64_auxv_t av;
	uint64_t entry = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	while (read(fd, &av, sizeof(av)) == sizeof(av) && av.a_type != AT_NULL) {
		if (av.a_type == AT_ENTRY) {
			entry = av.a_un.a_val;
			break;
		}
	}
	close(fd);
	return entry;
}

void tracer_release(tracer *tr)
{
	if (tr->sigfd >= 0)
		close(tr->sigfd);
	if (tr->memfd >= 0)
		close(tr->memfd);
	pthread_sigmask(SIG_SETMASK, &tr->oldmask, NULL);
	for (size_t i = 0; i < tr->ntcbs; i++) {
		tracer_ranges_free(tr, tr->tcbs[i], false);
		free(tr->tcbs[i]);
	}
	free(tr->tcbs);
	rg_intmap_release(&tr->tcb_ix);
	free(tr->forks);
	free(tr->bps);
	free(tr->pages);
	free(tr->raw);
	free(tr->evq);
	arch_free(tr->arch);
	free(tr);
}

/* Kills a child of racegate's, and reaps it. */
void tracer_kill_and_reap(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	for (;;) {
		pid_t r = waitpid(pid, &status, __WALL);

		if (r < 0 && errno == EINTR)
			continue;
		/* a tracee may stop once more on its way out (PTRACE_EVENT_EXIT) */
		if (r == pid && WIFSTOPPED(status)) {
			ptrace(PTRACE_CONT, pid, 0L, 0L);
			continue;
		}
		return;
	}
}

pid_t tracer_pid(const tracer *tr)
{
	return tr->pid;
}

uint64_t tracer_entry(const tracer *tr)
{
	return tr->entry;
}

int tracer_fd(const tracer *tr)
{
	return tr->sigfd;
}

bool tracer_is_stopped(const tracer *tr, pid_t tid)
{
	const struct tcb *t = tracer_tcb_find(tr, tid);

	return t && (t->flags & TCB_HELD);
}

/* ---- judging wait statuses -------------------------------------------- */

static void report_new_thread(tracer *tr, struct tcb *t)
{
	t->flags |= TCB_REPORTED | TCB_HELD;
	tracer_queue_event(tr, TRACER_EV_THREAD_NEW, t->tid)->parent = t->parent;
}

static int handle_new_child(tracer *tr, struct tcb *parent, int event, rg_err *err)
{
	unsigned long msg = 0;
	pid_t child;

	if (ptrace(PTRACE_GETEVENTMSG, parent->tid, 0L, &msg) < 0)
		return tracer_restart(parent->tid, tracer_cont_op(parent), 0, err);
	child = (pid_t)msg;
	if (event == PTRACE_EVENT_CLONE && !tracer_fork_find(tr, child) &&
	    tracer_is_own_thread(tr, child)) {
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
		t->parent = parent->tid;
		t->flags |= TCB_PARENT_KNOWN;
		if (parent->flags & TCB_IN_STUB) {
			/* Cloned from the stub: it returns from the syscall there too. */
			t->flags |= TCB_IN_STUB;
			t->stub_ret = parent->stub_ret;
		}
		if (!(t->flags & TCB_REPORTED))
			report_new_thread(tr, t);
	} else {
		struct fchild *f = tracer_fork_find(tr, child);

		if (!f)
			f = tracer_fork_add(tr, child);
		f->parent = parent->tid;
		f->parent_known = true;
		f->vfork = event == PTRACE_EVENT_VFORK;
		f->stub_ret = (parent->flags & TCB_IN_STUB) ? parent->stub_ret : 0;
		if (f->started && tracer_fork_finish(tr, f, true, err) < 0) {
			tracer_restart(parent->tid, tracer_cont_op(parent), 0, NULL);
			return -1;
		}
	}
	return tracer_restart(parent->tid, tracer_cont_op(parent), 0, err);
}

static int handle_exec(tracer *tr, struct tcb *t, rg_err *err)
{
	unsigned long former = 0;

	if (t->flags & TCB_CHILD)
		return tracer_child_exec(tr, t, err);
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
	tr->nbps = 0;
	tracer_ranges_free(tr, t, false);      /* the line is gone with the old image */
	tr->nremoved = 0;
	tr->removed_next = 0;
	/* The old /proc/PID/mem still points at the old memory. */
	if (tr->memfd >= 0)
		close(tr->memfd);
	if ((tr->memfd = tracer_open_mem(tr->pid, err)) < 0)
		return -1;
	tr->entry = tracer_read_auxv_entry(tr->pid);
	if (tracer_scratch_init(tr, t, err) < 0)
		return rg_error_prefix(err, "after exec");
	tracer_queue_event(tr, TRACER_EV_EXEC, t->tid);
	return tracer_resume_pending(tr, t, err);
}

static int handle_sigtrap(tracer *tr, struct tcb *t, const siginfo_t *si, rg_err *err)
{
	struct user_regs_struct r;
	uint64_t pc, addr;
	struct bp *b;

	if (tracer_stepping(t) && si->si_code > 0 && si->si_code != SI_KERNEL)
		return tracer_range_next(tr, t, err);  /* one more instruction of the line ran */
	if (si->si_code != SI_KERNEL || tracer_regs_read(t, &r) < 0)
		goto pass;              /* raise(SIGTRAP), kill, the program's own TF */
	pc = arch_get_pc(&r);
	addr = arch_bp_from_trap_pc(pc);
	if ((t->flags & TCB_IN_STUB) && tr->stub && pc == ARCH_STUB_TRAP_PC(tr->stub)) {
		/* Back from a displaced syscall (tracer_step_over). */
		t->flags &= ~(TCB_IN_STUB | TCB_REGS);
		arch_set_pc(&r, t->stub_ret);
		tracer_regs_store(t->tid, &r);
		return tracer_resume_pending(tr, t, err);
	}
	if ((b = tracer_bp_find(tr, addr))) {
		/* rewound in the cache only: see tracer_regs_read */
		arch_set_pc(&t->regs, addr);
		t->flags |= TCB_REGS_DIRTY;
		r = t->regs;
		if (tracer_range_waits_at(t, addr, arch_get_sp(&r)))
			return tracer_range_returned(tr, t, addr, err);
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
	if (tracer_bp_recently_removed(tr, addr)) {
		/* It trapped before the int3 was taken out: run the real byte. */
		t->flags &= ~TCB_REGS;
		arch_set_pc(&r, addr);
		tracer_regs_store(t->tid, &r);
		return tracer_restart(t->tid, tracer_cont_op(t), 0, err);
	}
pass:
	t->flags &= ~TCB_REGS;
	if (tracer_stepping(t))
		return tracer_range_signal(tr, t, si, err);
	tracer_note_signal(tr, t, SIGTRAP);
	return tracer_restart(t->tid, PTRACE_CONT, SIGTRAP, err);
}

/*
 * Is this SIGTRAP stop the int3 of one of our breakpoints, for sure, with no
 * PTRACE_GETSIGINFO (one system call less per hit)?  Only when the PC after
 * the trap lies inside the breakpoint's original instruction
 * (arch_trap_pc_inside: on x86_64, an instruction longer than the int3):
 * that is never an instruction boundary, so no other stop can have that PC
 * (a SIGTRAP the program sends itself is delivered at a boundary, its own
 * trap flag stops after a whole instruction).  A one-byte instruction, or
 * one not decoded yet (its first step decodes it), still needs the siginfo
 * to tell.  The registers read here are kept for handle_sigtrap.
 */
static bool surely_our_trap(tracer *tr, struct tcb *t)
{
	struct user_regs_struct r;
	const struct bp *b;

	if (tracer_stepping(t) || (t->flags & TCB_IN_STUB) || tracer_regs_read(t, &r) < 0)
		return false;
	b = tracer_bp_find(tr, arch_bp_from_trap_pc(arch_get_pc(&r)));
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

int tracer_handle_status(tracer *tr, pid_t tid, int status, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);
	struct fchild *f;
	int sig, event;

	siginfo_t si;

	/* a new stop: the cached registers are old (a held thread's only
	 * other stop is its death, for which they do not matter) */
	if (t)
		t->flags &= ~(TCB_REGS | TCB_REGS_DIRTY);

	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		if (tid == tr->pid) {
			report_exit(tr, status);
		} else if (t) {
			if (t->flags & TCB_REPORTED)
				tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, tid);
			tracer_tcb_drop(tr, t);
		} else if ((f = tracer_fork_find(tr, tid))) {
			tracer_fork_drop(tr, f);
		}
		return 0;
	}
	if (!WIFSTOPPED(status))
		return 0;
	sig = WSTOPSIG(status);
	event = status >> 16;

	if (!t) {
		f = tracer_fork_find(tr, tid);
		if (!f && !tracer_is_own_thread(tr, tid))
			f = tracer_fork_add(tr, tid);
		if (f) {
			/* A forked child's first stop. */
			f->started = true;
			if (f->parent_known)
				return tracer_fork_finish(tr, f, true, err);
			return 0;
		}
		t = tracer_tcb_add(tr, tid);
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
				report_new_thread(tr, t);
			return 0;
		}
	}

	switch (event) {
	case 0:
		break;
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		return handle_new_child(tr, t, event, err);
	case PTRACE_EVENT_EXEC:
		return handle_exec(tr, t, err);
	case PTRACE_EVENT_EXIT:
		/* Let it die; the leader may stay a zombie until the others die. */
		t->flags = (t->flags | TCB_EXITING) & ~(TCB_HELD | TCB_AT_BP);
		if (tid == tr->pid)
			tracer_report_leader_gone(tr, t);
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

	/* A signal-delivery-stop. */
	if (sig == SIGTRAP && surely_our_trap(tr, t)) {
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
	tracer_oot_fault(tr, t, sig, &si);
	tracer_note_signal(tr, t, sig);
	return tracer_restart(tid, PTRACE_CONT, sig, err);
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

long tracer_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
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

/* ---- registers, memory, the end --------------------------------------- */

int tracer_get_regs(tracer *tr, pid_t tid, struct user_regs_struct *regs, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);

	if (!t || !(t->flags & TCB_HELD))
		return rg_error(err, "cannot read the registers of thread %d: "
				"it is not stopped", tid);
	if (tracer_regs_read(t, regs) < 0)
		return rg_error(err, "cannot read the registers of thread %d: %s",
				tid, strerror(errno));
	return 0;
}

int tracer_get_sp(tracer *tr, pid_t tid, uint64_t *sp, rg_err *err)
{
	struct user_regs_struct r;

	if (tracer_get_regs(tr, tid, &r, err) < 0)
		return -1;
	*sp = arch_get_sp(&r);
	return 0;
}

int tracer_entry_frame(tracer *tr, pid_t tid, uint64_t *ret, uint64_t *sp_after,
		       rg_err *err)
{
	struct user_regs_struct r;
	uint64_t where;
	bool in_mem;

	if (tracer_get_regs(tr, tid, &r, err) < 0)
		return -1;
	arch_entry_frame(&r, &in_mem, &where, sp_after);
	if (!in_mem) {
		*ret = where;
		return 0;
	}
	if (tracer_read_mem(tr, where, ret, sizeof(*ret), err) < 0)
		return rg_error_prefix(err, "cannot read the return address of "
				       "thread %d", (int)tid);
	return 0;
}

int tracer_read_mem(tracer *tr, uint64_t addr, void *buf, size_t len, rg_err *err)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(tr->pid, &local, 1, &remote, 1, 0);

	if (n != (ssize_t)len && tracer_mem_pread(tr->memfd, addr, buf, len) != (int)len)
		return rg_error(err, "cannot read %zu bytes at 0x%llx in process %d",
				len, (unsigned long long)addr, tr->pid);
	/* Show the program's bytes, not our int3s. */
	for (size_t i = tracer_bp_lower(tr, addr); i < tr->nbps &&
	     tr->bps[i].addr < addr + len; i++)
		((uint8_t *)buf)[tr->bps[i].addr - addr] = tr->bps[i].orig;
	return 0;
}

void tracer_kill(tracer *tr)
{
	if (!tr->reaped)
		kill(tr->pid, SIGKILL);
}

int tracer_sync_regs(tracer *tr, pid_t tid)
{
	struct tcb *t = tracer_tcb_find(tr, tid);

	return t ? tracer_regs_sync(t) : 0;
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
	/* A signal, a group-stop or its death came first: judge it later. */
	tracer_queue_status(tr, tid, status);
	return rg_error(err, "cannot stop thread %d: it is %s", tid,
			WIFSTOPPED(status) ? "receiving a signal" : "exiting");
}

/* Is the leader's last status among the statuses drained but not judged? */
static bool leader_status_queued(const tracer *tr)
{
	for (size_t i = tr->raw_head; i < tr->nraw; i++)
		if (tr->raw[i].tid == tr->pid &&
		    (WIFEXITED(tr->raw[i].status) || WIFSIGNALED(tr->raw[i].status)))
			return true;
	return false;
}

void tracer_free(tracer *tr)
{
	if (!tr)
		return;
	if (!tr->reaped && !leader_status_queued(tr)) {
		int status;
		pid_t pid;

		/*
		 * SIGKILL wakes threads held in a ptrace-stop; with
		 * PTRACE_O_TRACEEXIT some kernels still stop them once more
		 * at PTRACE_EVENT_EXIT, so every stop is resumed until the
		 * leader's status comes (after every other thread's).
		 */
		kill(tr->pid, SIGKILL);
		for (size_t i = 0; i < tr->nforks; i++)
			kill(tr->forks[i].pid, SIGKILL);
		for (size_t i = 0; i < tr->ntcbs; i++)
			if (tr->tcbs[i]->flags & TCB_CHILD)
				kill(tr->tcbs[i]->tid, SIGKILL);
		for (;;) {
			pid = waitpid(-1, &status, __WALL);
			if (pid < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			if (WIFSTOPPED(status)) {
				ptrace(PTRACE_CONT, pid, 0L, 0L);
				continue;
			}
			if (pid == tr->pid)
				break;
		}
	}
	/* Children still attached (not let go yet, or followed: racegate's
	 * breakpoints are in their memory) die with the program. */
	for (size_t i = 0; i < tr->nforks; i++)
		tracer_kill_and_reap(tr->forks[i].pid);
	tr->nforks = 0;
	for (size_t i = 0; i < tr->ntcbs; i++)
		if (tr->tcbs[i]->flags & TCB_CHILD)
			tracer_kill_and_reap(tr->tcbs[i]->tid);
	tracer_release(tr);
}
