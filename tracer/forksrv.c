/*
 * Copies of a program stopped before it has a second thread: the fork
 * server of racegate explore (docs/design.md, "The fork server").
 *
 * The template is the program stopped by its tracer at a breakpoint, one
 * thread, every breakpoint and pad in place.  tracer_copy makes the
 * program fork itself there: a clone run in its thread, made as the C
 * library's fork() makes it (the child's thread id written where the
 * thread library keeps it, so that the copy's raise() and recursive
 * mutexes see their own thread), with racegate's process as its parent
 * (CLONE_PARENT), as a program racegate starts has.  The copy is left
 * asleep and no longer traced; a fork of racegate, whose
 * memory holds the template's tracer as it was, takes it (tracer_adopt).
 * Every fact that tracer holds of the template's memory (breakpoints,
 * pads, scratch pages, the bias of each object) then holds of the copy,
 * whose memory is the template's; what the clone itself changed in the
 * copy (its registers, its signal mask, the code written at its PC) is put
 * back, and the tracer's thread and process ids become the copy's.
 * Between the two tracers the copy sleeps in pause() (park), untraced,
 * set to die with racegate.
 */
#include "tracer_priv.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PR_GET_TID_ADDRESS
#define PR_GET_TID_ADDRESS 40
#endif

#define ADOPT_OPTIONS (PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT | \
		       PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
		       PTRACE_O_TRACESYSGOOD)

/* Well below the stack pointer, past what a function may use there
 * unannounced (the ABI's red zone): where the kernel's answer goes. */
#define BELOW_STACK 512

/* The template's one thread, or NULL (with why) when it cannot be copied. */
static struct tcb *template_thread(const tracer *tr, rg_err *err)
{
	if (tr->attached || tr->exit_queued || tr->reaped)
		return rg_error(err, "the program is not racegate's to copy"), NULL;
	if (tr->ntcbs != 1 || tr->nas != 1 || tr->nforks)
		return rg_error(err, "the program has more than one thread or process "
				"by then"), NULL;
	if (tr->raw_head < tr->nraw || tr->ev_head < tr->nev)
		return rg_error(err, "the program has events racegate has not taken"), NULL;
	if (!(tr->tcbs[0]->flags & TCB_HELD) || tr->tcbs[0]->npending)
		return rg_error(err, "the program's thread is not stopped cleanly"), NULL;
	return tr->tcbs[0];
}

/* Until the copy's next stop: 0, or -1 (said) when it ended instead. */
static int copy_stopped(pid_t pid, const char *ended, rg_err *err)
{
	int status;

	if (tracer_wait_tid(pid, &status) < 0)
		return rg_error(err, "cannot wait for the program's copy %d: %s", (int)pid,
				strerror(errno));
	if (!WIFSTOPPED(status))
		return rg_error(err, "the program's copy %d %s", (int)pid, ended);
	return 0;
}

/* Where the thread library keeps t's thread id: the address the kernel
 * clears at the thread's exit (set_tid_address), asked of the kernel. */
static int find_tid_at(tracer *tr, struct tcb *t, rg_err *err)
{
	uint64_t a[6] = { PR_GET_TID_ADDRESS, 0, 0, 0, 0, 0 }, at = 0;
	void *head = NULL;
	size_t len = 0;
	arch_regs r;
	int64_t ret = -1;
	int rc;

	if (tracer_regs_read(t, &r) < 0)
		return rg_error(err, "cannot read the registers of thread %d: %s", t->tid,
				strerror(errno));
	a[1] = (arch_get_sp(&r) - BELOW_STACK) & ~(uint64_t)7;
	rc = tracer_inject_stopped(tr, t, ARCH_SYS_PRCTL, a, &ret, NULL, err);
	if (rc)
		return rc < 0 ? -1 : rg_error(err, "the program ended");
	if (ret < 0)
		return rg_error(err, "the kernel does not say where the thread's id is kept "
				"(prctl PR_GET_TID_ADDRESS: %s)", strerror((int)-ret));
	if (tracer_mem_pread(t->as->memfd, a[1], &at, sizeof(at)) != sizeof(at) || !at)
		return rg_error(err, "the program's thread library keeps no thread id "
				"racegate can find");
	tr->tid_at = at;
	/* and its robust mutex list (none registered: robust_len stays 0) */
	if (syscall(SYS_get_robust_list, t->tid, &head, &len) == 0 && head) {
		tr->robust_at = (uint64_t)(uintptr_t)head;
		tr->robust_len = len;
	}
	return 0;
}

/* Sets pid's registers to make system call nr (a0, a1) at code at. */
static int call_at(pid_t pid, int fd, uint64_t at, long nr, uint64_t a0, uint64_t a1)
{
	uint8_t code[ARCH_INJECT_LEN];
	arch_regs r;

	arch_inject_code(code, nr);
	if (tracer_mem_pwrite(fd, at, code, sizeof(code)) < 0 || arch_regs_fetch(pid, &r) < 0)
		return -1;
	arch_set_syscall_args(&r, nr, a0, a1, 0, 0, 0, 0);
	arch_set_pc(&r, at);
	return arch_regs_store(pid, &r);
}

/*
 * The copy, at its first stop, at the code the clone ran (its own copy of
 * it): it is made to die with racegate (PR_SET_PDEATHSIG: racegate is
 * its parent), its robust mutex list registered again, as glibc's fork
 * child does, then it is sent into pause(), where it sleeps untraced, its
 * signals blocked as the clone left them, until its new tracer interrupts
 * the call.  A copy stopped by SIGSTOP instead would stay in a group-stop
 * its threads are born into.
 */
/* Runs system call nr (a0, a1) in pid, stopped, at code at, to its end. */
static int run_at(pid_t pid, int fd, uint64_t at, long nr, uint64_t a0, uint64_t a1)
{
	int status;

	if (call_at(pid, fd, at, nr, a0, a1) < 0 || tracer_restart_raw(pid, PTRACE_CONT, 0) < 0 ||
	    tracer_wait_tid(pid, &status) < 0)
		return -1;
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
		errno = ESRCH;
		return -1;
	}
	return 0;
}

static int park(const tracer *tr, pid_t pid, uint64_t at, rg_err *err)
{
	int fd, rc;

	if (!at)
		return rg_error(err, "no code of racegate's to park it in");
	if ((fd = tracer_open_mem(pid, err)) < 0)
		return -1;
	rc = run_at(pid, fd, at, arch_sys_nr(ARCH_SYS_PRCTL), PR_SET_PDEATHSIG, SIGKILL);
	/* the robust mutex list, which a fork does not keep (glibc's fork
	 * child registers it again) */
	if (rc == 0 && tr->robust_len)
		rc = run_at(pid, fd, at, arch_sys_nr(ARCH_SYS_SET_ROBUST_LIST), tr->robust_at,
			    tr->robust_len);
	if (rc == 0)
		rc = call_at(pid, fd, at, arch_sys_nr(ARCH_SYS_PAUSE), 0, 0);
	if (rc < 0)
		rg_error(err, "cannot park the program's copy %d: %s", (int)pid, strerror(errno));
	close(fd);
	return rc;
}

int tracer_copy(tracer *tr, bool rewind_stdin, pid_t *child, rg_err *err)
{
	struct tcb *t = template_thread(tr, err);
	uint64_t a[6];
	int64_t ret = -1;
	int rc;
	pid_t pid;

	*child = 0;
	if (!t || (!tr->tid_at && find_tid_at(tr, t, err) < 0))
		return -1;
	if (rewind_stdin) {
		const uint64_t seek[6] = { 0, 0, SEEK_SET, 0, 0, 0 };

		if ((rc = tracer_inject_stopped(tr, t, ARCH_SYS_LSEEK, seek, &ret, NULL, err)))
			return rc < 0 ? -1 : rg_error(err, "the program ended");
		if (ret < 0)
			return rg_error(err, "cannot read the program's stdin from its start: %s",
					strerror((int)-ret));
	}
	if (!tr->copy)
		tr->copy = xcalloc(1, sizeof(*tr->copy));
	arch_fork_args(a, CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | CLONE_PARENT | SIGCHLD,
		       tr->tid_at);
	rc = tracer_inject_stopped(tr, t, ARCH_SYS_CLONE, a, &ret, tr->copy, err);
	if (rc)
		return rc < 0 ? -1 : rg_error(err, "the program ended");
	if (ret <= 0)
		return rg_error(err, "the program cannot fork: %s", strerror((int)-ret));
	pid = (pid_t)ret;
	/* attached by the kernel (PTRACE_O_TRACEFORK): its first stop */
	if (copy_stopped(pid, "ended at once", err) < 0 || park(tr, pid, tr->copy->code_at, err) < 0)
		goto fail;
	if (tracer_restart_raw(pid, PTRACE_DETACH, 0) < 0) {
		rg_error(err, "cannot hand the program's copy %d over: %s", (int)pid,
			 strerror(errno));
		goto fail;
	}
	*child = pid;
	return 0;
fail:
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
	return -1;
}

/* The copy's registers, signal mask and code as the template's. */
static int put_back(tracer *tr, pid_t pid, rg_err *err)
{
	const struct tracer_injected *k = tr->copy;
	struct aspace *as = TRACER_MAIN_AS(tr);

	if (arch_regs_store(pid, &k->regs) < 0)
		return rg_error(err, "cannot set the registers of the program's copy %d: %s",
				(int)pid, strerror(errno));
	if (k->masked && ptrace(PTRACE_SETSIGMASK, pid, (void *)sizeof(k->mask), &k->mask) < 0)
		return rg_error(err, "cannot set the signal mask of the program's copy %d: %s",
				(int)pid, strerror(errno));
	if (k->code_at && tracer_mem_pwrite(as->memfd, k->code_at, k->code, sizeof(k->code)) < 0)
		return rg_error(err, "cannot restore the code at 0x%llx in the program's copy "
				"%d: %s", (unsigned long long)k->code_at, (int)pid, strerror(errno));
	return 0;
}

/* The template's thread and process become the copy's, pid. */
static int rebind(tracer *tr, pid_t pid, rg_err *err)
{
	struct aspace *as = TRACER_MAIN_AS(tr);
	struct tcb *t = tr->tcbs[0];
	pid_t old = tr->pid;

	if (as->memfd >= 0)
		close(as->memfd);
	if ((as->memfd = tracer_open_mem(pid, err)) < 0)
		return -1;
	tracer_unwind_forget(as);
	as->pid = pid;
	tr->pid = pid;
	rg_intmap_del(&tr->tcb_ix, (uint64_t)(uint32_t)old);
	*rg_intmap_ref(&tr->tcb_ix, (uint64_t)(uint32_t)pid, 0) = 0;
	t->tid = t->tgid = pid;
	for (size_t i = 0; i < as->npadslots; i++)
		for (size_t j = 0; j < as->padslots[i].nslots; j++)
			if (as->padslots[i].slots[j].tid == old)
				as->padslots[i].slots[j].tid = pid;
	return 0;
}

int tracer_adopt(tracer *tr, pid_t pid, rg_err *err)
{
	if (!tr->copy || tr->ntcbs != 1)
		return rg_error(err, "no copy of the program to take");
	if (ptrace(PTRACE_SEIZE, pid, 0L, (long)ADOPT_OPTIONS) < 0 ||
	    ptrace(PTRACE_INTERRUPT, pid, 0L, 0L) < 0)
		return rg_error(err, "cannot trace the program's copy %d: %s", (int)pid,
				strerror(errno));
	/* out of its pause(), stopped for its new tracer */
	if (copy_stopped(pid, "ended before it ran", err) < 0)
		return -1;
	if (rebind(tr, pid, err) < 0 || put_back(tr, pid, err) < 0)
		return -1;
	return 0;
}
