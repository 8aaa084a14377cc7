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
#include <sys/wait.h>
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
	if (f->as)
		tracer_as_drop(tr, f->as);   /* gone before it was followed */
	if (f->img)
		tracer_image_put(f->img);
	*f = tr->forks[--tr->nforks];
}

/* Does child share its parent's memory?  kcmp tells; without it (an old
 * kernel, no CONFIG_KCMP), the kind of event does. */
static bool shares_memory(const struct fchild *f)
{
	long same = syscall(SYS_kcmp, f->parent, f->pid, KCMP_VM, 0L, 0L);

	return same == 0 || (same < 0 && f->vfork);
}

/*
 * A fork child's copy of memory holds the int3s of the moment it was made;
 * breakpoints were put in or taken out since, before both its first stop and
 * its parent's event came.  armed: an int3 at every breakpoint there is now
 * and the program's byte everywhere else (a followed child); else the
 * program's bytes everywhere (a child let go).
 */
static void sync_breakpoints(const struct image *img, int fd, bool armed)
{
	for (size_t i = 0; i < img->ever.cap; i++) {
		uint64_t addr = img->ever.keys[i];
		uint8_t orig = (uint8_t)img->ever.vals[i];

		if (!img->ever.used[i])
			continue;
		/* a pad's site holds its jump in the copy too, never an int3 */
		if (armed && tracer_pad_find(img, addr))
			continue;
		if (armed && tracer_bp_find(img, addr))
			tracer_mem_pwrite(fd, addr, arch_bp_insn, ARCH_BP_LEN);
		else
			tracer_mem_pwrite(fd, addr, &orig, 1);
	}
	/* a child let go gets the program's bytes under the pads' jumps */
	if (!armed)
		tracer_pad_unshare(img, fd);
}

/* The program's bytes back under every int3 in the child's copy. */
static void unshare_breakpoints(const struct image *img, pid_t child)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)child);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return;
	sync_breakpoints(img, fd, false);
	close(fd);
}

/* Follows child from its first stop on, like a thread that is not reported. */
static int follow(tracer *tr, pid_t child, pid_t parent, rg_err *err)
{
	struct tcb *c = tracer_tcb_add(tr, child);
	const struct tcb *p = tracer_tcb_find(tr, parent);

	c->tgid = child;        /* no CLONE_THREAD: a process of its own */
	c->as = p ? p->as : TRACER_MAIN_AS(tr);   /* in its parent's memory */
	c->parent = parent;
	c->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_CHILD;
	return tracer_restart(child, PTRACE_CONT, 0, err);
}

/*
 * follow_fork: a child with memory of its own is traced like the program.
 * Its memory is a copy of its parent's, int3s, scratch pages and
 * out-of-line copies included, so its address space starts as a copy of
 * the parent's; its first thread is reported (after FORK), held until the
 * caller resumes it.
 */
static int follow_process(tracer *tr, pid_t child, const struct tcb *p,
			  struct aspace *as, const struct image *img, rg_err *err)
{
	struct tcb *c;

	if (!as)
		as = tracer_as_add(tr, child, p->as, err);
	if (!as) {
		unshare_breakpoints(img, child);
		tracer_restart(child, PTRACE_DETACH, 0, NULL);
		return rg_error_prefix(err, "cannot follow process %d", child);
	}
	sync_breakpoints(as->img, as->memfd, true);
	c = tracer_tcb_add(tr, child);
	c->tgid = child;
	c->as = as;
	c->parent = p->tid;
	c->flags = TCB_STARTED | TCB_PARENT_KNOWN;
	tracer_queue_event(tr, TRACER_EV_FORK, p->tid)->child = child;
	tr->evq[tr->nev - 1].followed = true;
	tracer_report_new_thread(tr, c);
	return 0;
}

void tracer_fork_snapshot(tracer *tr, struct fchild *f, const struct tcb *parent)
{
	const struct aspace *from = parent->as ? parent->as : TRACER_MAIN_AS(tr);

	if (f->img || shares_memory(f))
		return;
	f->img = from->img;
	tracer_image_get(f->img);
	if (tr->follow_fork && parent->as && !(parent->flags & TCB_CHILD))
		f->as = tracer_as_add(tr, f->pid, parent->as, NULL);
}

int tracer_fork_finish(tracer *tr, struct fchild *f, bool follow_shared, rg_err *err)
{
	pid_t child = f->pid, parent = f->parent;
	const struct tcb *p = tracer_tcb_find(tr, parent);
	bool shared = shares_memory(f);
	struct aspace *snap = f->as;
	struct image *img = f->img;
	int rc;

	if (f->stub_ret) {
		arch_regs r;

		/* It was forked from the stub: its copy of the thread goes on
		 * where the parent will. */
		if (arch_regs_fetch(child, &r) == 0) {
			arch_set_pc(&r, f->stub_ret);
			arch_regs_store(child, &r);
		}
	}
	f->as = NULL;
	f->img = NULL;
	tracer_fork_drop(tr, f);
	if (!img)
		tracer_image_get(img = p && p->as ? p->as->img : TRACER_MAIN_AS(tr)->img);
	if (!shared && tr->follow_fork && follow_shared && p && p->as &&
	    !(p->flags & TCB_CHILD)) {
		rc = follow_process(tr, child, p, snap, img, err);
		tracer_image_put(img);
		return rc;
	}
	if (snap)
		tracer_as_drop(tr, snap);
	if (shared && follow_shared) {
		rc = follow(tr, child, parent, err);
	} else {
		if (!shared)
			unshare_breakpoints(img, child);
		rc = 0;
		if (tracer_restart_raw(child, PTRACE_DETACH, 0) < 0 && errno != ESRCH)
			rc = rg_error(err, "cannot detach forked process %d: %s",
				      child, strerror(errno));
	}
	tracer_image_put(img);
	/* a child's child is no business of the caller's */
	if (rc == 0 && (!p || !(p->flags & TCB_CHILD)))
		tracer_queue_event(tr, TRACER_EV_FORK, parent)->child = child;
	return rc;
}

/*
 * follow_fork: a child that shared its parent's memory (vfork, posix_spawn)
 * has one of its own from its exec on: it is followed as a process from
 * there, in a new image (EXEC, stopped, is its first event).
 */
static int adopt(tracer *tr, struct tcb *t, rg_err *err)
{
	struct aspace *as = tracer_as_add(tr, t->tid, NULL, err);
	tracer_event *ev;

	if (!as)
		return -1;
	t->as = as;
	t->tgid = t->tid;
	t->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_REPORTED | TCB_HELD;
	t->npending = 0;
	if (tracer_scratch_init(tr, t, tracer_read_auxv_entry(t->tid), err) < 0)
		return rg_error_prefix(err, "after the exec of process %d", (int)t->tid);
	ev = tracer_queue_event(tr, TRACER_EV_EXEC, t->tid);
	ev->pid = t->tid;
	ev->parent = t->parent;
	return 0;
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
	if (tr->follow_fork)
		return adopt(tr, t, err);
	/* signals kept while it was stepped over a breakpoint go with it */
	if (t->npending) {
		sig = t->pending[0].si_signo;
		for (int i = 1; i < t->npending; i++)
			syscall(SYS_tgkill, t->tgid, tid, t->pending[i].si_signo);
	}
	tracer_tcb_drop(tr, t);
	if (tracer_restart_raw(tid, PTRACE_DETACH, sig) < 0 && errno != ESRCH)
		return rg_error(err, "cannot let process %d go after its exec: %s",
				tid, strerror(errno));
	return 0;
}

int tracer_proc_exec(tracer *tr, struct tcb *t, rg_err *err)
{
	pid_t pid = t->tgid;
	struct aspace *as = t->as;
	tracer_event *ev;

	/*
	 * Its other threads died at the exec (the one that called it took the
	 * leader's tid, which t is): THREAD_EXIT for each.  The process goes on
	 * traced in its new image, with no breakpoint, page or copy of
	 * racegate's, stopped until the caller has armed what it wants there.
	 */
	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *o = tr->tcbs[i];

		if (o == t || o->tgid != pid || (o->flags & TCB_CHILD))
			continue;
		if ((o->flags & (TCB_REPORTED | TCB_GONE)) == TCB_REPORTED)
			tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, o->tid);
		tracer_ranges_free(tr, o, false);
		tracer_tcb_drop(tr, o);
		i--;
	}
	t->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_REPORTED | TCB_HELD;
	t->npending = 0;
	tracer_ranges_free(tr, t, false);
	tracer_as_exec(as);
	if (as->memfd >= 0)
		close(as->memfd);
	if ((as->memfd = tracer_open_mem(pid, err)) < 0)
		return -1;
	if (tracer_scratch_init(tr, t, tracer_read_auxv_entry(pid), err) < 0)
		return rg_error_prefix(err, "after the exec of process %d", (int)pid);
	ev = tracer_queue_event(tr, TRACER_EV_EXEC, t->tid);
	ev->pid = pid;
	return 0;
}

void tracer_proc_gone(tracer *tr, pid_t pid)
{
	struct aspace *as = tracer_as_find(tr, pid);

	if (as && as != TRACER_MAIN_AS(tr))
		tracer_as_drop(tr, as);
}

/*
 * Reaps tid, sent SIGKILL: each stop it makes on the way is continued until
 * its death comes, or deadline.  A thread that took the SIGKILL stops once
 * more at PTRACE_EVENT_EXIT, and no second SIGKILL wakes it (its process is
 * in its group exit already): left there, it keeps every file of its
 * process open (a listening port) for as long as racegate lives.  Its stop
 * may be among the statuses drained but not judged, which waitpid reports
 * no more: it is taken from there.
 */
static void reap_killed(tracer *tr, pid_t tid, long deadline)
{
	pid_t got;
	int status;

	if (tracer_status_forget(tr, tid))
		return;   /* its death, reaped already */
	while (tracer_wait_until(tr, tid, deadline, &got, &status) == 1 &&
	       WIFSTOPPED(status))
		tracer_restart(got, PTRACE_CONT, 0, NULL);
}

void tracer_kill_followed(tracer *tr, bool report)
{
	long deadline = tracer_now_ms() + STOP_WAIT_MS;
	pid_t *tids = xcalloc(tr->ntcbs + 1, sizeof(*tids));
	size_t n = 0;

	for (size_t i = 1; i < tr->nas; i++)
		kill(tr->as[i]->pid, SIGKILL);
	for (size_t i = 0; i < tr->ntcbs; i++) {
		struct tcb *t = tr->tcbs[i];

		if (t->tgid == tr->pid || (t->flags & TCB_CHILD) || !t->as)
			continue;
		if (report && (t->flags & (TCB_REPORTED | TCB_GONE)) == TCB_REPORTED)
			tracer_queue_event(tr, TRACER_EV_THREAD_EXIT, t->tid);
		tids[n++] = t->tid;
		tracer_ranges_free(tr, t, false);
		tracer_tcb_drop(tr, t);
		i--;
	}
	/*
	 * Each of their deaths is reaped by tid (never waitpid(-1): the
	 * program may still be traced, and its stops are not ours to take
	 * here), so that none is mistaken for anything later.
	 */
	for (int leaders = 0; leaders < 2; leaders++)
		for (size_t i = 0; i < n; i++)
			/* a leader's status waits for its threads': it comes last */
			if ((tracer_as_find(tr, tids[i]) != NULL) == leaders)
				reap_killed(tr, tids[i], deadline);
	free(tids);
	while (tr->nas > 1)
		tracer_as_drop(tr, tr->as[tr->nas - 1]);
}
