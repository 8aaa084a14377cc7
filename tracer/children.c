/*
 * The processes the program creates (fork, vfork, posix_spawn, system,
 * popen, clone without CLONE_THREAD), from the parent's event to the moment
 * racegate lets them go.
 *
 * The kernel attaches each one (PTRACE_O_TRACEFORK, _VFORK, _CLONE), and
 * its first stop and its parent's event race: either may be judged first,
 * so a child waits in tr->forks until both are seen.  Then:
 *  - a child with memory of its own (fork) gets the program's bytes back in
 *    its copy, under every int3, and is detached: it runs untraced;
 *  - a child that shares the program's memory (vfork, posix_spawn, which
 *    system() and popen() use, clone with CLONE_VM) cannot: taking the int3s
 *    out would take them out of the program too.  It is followed instead,
 *    as a control block of its own (TCB_CHILD): stepped over every
 *    breakpoint it reaches exactly as a thread is, but it never arrives at
 *    a gate and no event names it.  It is let go at its exec (its new
 *    memory has nothing of racegate's in it); its exit ends it.  If the
 *    program ends or calls exec first, detach.c lets it go with the
 *    breakpoints taken out of the memory it keeps (detach_children).
 */
#include "tracer_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/kcmp.h>

struct fchild *tracer_fork_find(tracer *tr, pid_t pid)
{
	for (size_t i = 0; i < tr->nforks; i++)
		if (tr->forks[i].pid == pid)
			return &tr->forks[i];
	return NULL;
}

struct fchild *tracer_fork_add(tracer *tr, pid_t pid)
{
	struct fchild *f;

	RG_GROW(tr->forks, tr->nforks + 1, tr->forks_cap);
	f = &tr->forks[tr->nforks++];
	memset(f, 0, sizeof(*f));
	f->pid = pid;
	return f;
}

bool tracer_is_child(tracer *tr, pid_t tid)
{
	return tracer_fork_find(tr, tid) || !tracer_is_own_thread(tr, tid);
}

struct fchild *tracer_fork_first_stop(tracer *tr, pid_t tid)
{
	struct fchild *f;

	if (!tracer_is_child(tr, tid))
		return NULL;
	if (!(f = tracer_fork_find(tr, tid)))
		f = tracer_fork_add(tr, tid);
	f->started = true;
	return f;
}

void tracer_fork_drop(tracer *tr, struct fchild *f)
{
	*f = tr->forks[--tr->nforks];
}

/* Does child share its parent's memory?  kcmp tells; without it (an old
 * kernel, no CONFIG_KCMP), the kind of event does. */
static bool shares_memory(const struct fchild *f)
{
	long same = syscall(SYS_kcmp, f->parent, f->pid, KCMP_VM, 0L, 0L);

	return same == 0 || (same < 0 && f->vfork);
}

/* The program's bytes back under every int3 in the child's copy. */
static void unshare_breakpoints(const tracer *tr, pid_t child)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return;
	for (size_t i = 0; i < tr->nbps; i++)
		tracer_mem_pwrite(fd, tr->bps[i].addr, &tr->bps[i].orig, 1);
	close(fd);
}

/* Follows child from its first stop on, like a thread that is not reported. */
static int follow(tracer *tr, pid_t child, pid_t parent, rg_err *err)
{
	struct tcb *c = tracer_tcb_add(tr, child);

	c->tgid = child;        /* no CLONE_THREAD: a process of its own */
	c->parent = parent;
	c->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_CHILD;
	return tracer_restart(child, PTRACE_CONT, 0, err);
}

int tracer_fork_finish(tracer *tr, struct fchild *f, bool follow_shared, rg_err *err)
{
	pid_t child = f->pid, parent = f->parent;
	const struct tcb *p = tracer_tcb_find(tr, parent);
	bool shared = shares_memory(f);
	int rc;

	if (f->stub_ret) {
		struct user_regs_struct r;

		/* It was forked from the stub: its copy of the thread goes on
		 * where the parent will. */
		if (ptrace(PTRACE_GETREGS, child, 0L, &r) == 0) {
			arch_set_pc(&r, f->stub_ret);
			ptrace(PTRACE_SETREGS, child, 0L, &r);
		}
	}
	tracer_fork_drop(tr, f);
	if (shared && follow_shared) {
		rc = follow(tr, child, parent, err);
	} else {
		if (!shared)
			unshare_breakpoints(tr, child);
		rc = 0;
		if (ptrace(PTRACE_DETACH, child, 0L, 0L) < 0 && errno != ESRCH)
			rc = rg_error(err, "cannot detach forked process %d: %s",
				      child, strerror(errno));
	}
	/* a child's child is no business of the caller's */
	if (rc == 0 && (!p || !(p->flags & TCB_CHILD)))
		tracer_queue_event(tr, TRACER_EV_FORK, parent)->child = child;
	return rc;
}

int tracer_child_exec(tracer *tr, struct tcb *t, rg_err *err)
{
	unsigned long former = 0;
	pid_t tid = t->tid;
	int sig = 0;

	/* a thread of the child that called exec took over its leader's tid:
	 * the other threads of the child die without a status of their own */
	if (ptrace(PTRACE_GETEVENTMSG, tid, 0L, &former) == 0 && (pid_t)former != tid) {
		struct tcb *old = tracer_tcb_find(tr, (pid_t)former);

		if (old)
			tracer_tcb_drop(tr, old);
	}
	/* signals kept while it was stepped over a breakpoint go with it */
	if (t->npending) {
		sig = t->pending[0].si_signo;
		for (int i = 1; i < t->npending; i++)
			syscall(SYS_tgkill, t->tgid, tid, t->pending[i].si_signo);
	}
	tracer_tcb_drop(tr, t);
	if (ptrace(PTRACE_DETACH, tid, 0L, (long)sig) < 0 && errno != ESRCH)
		return rg_error(err, "cannot let process %d go after its exec: %s",
				tid, strerror(errno));
	return 0;
}
