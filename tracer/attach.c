/*
 * Attaching to a running process (tracer_attach), and what an attach
 * leaves behind when it ends (tracer_abandon).  See tracer.h; the clean
 * detach itself is detach.c's (tracer_detach).
 *
 * The threads are seized as strace -p does: read /proc/PID/task, seize
 * each thread not seized yet, and read it again until a pass finds no new
 * one (a thread not yet seized may create threads meanwhile; one created by
 * a seized thread is attached by the kernel, PTRACE_O_TRACECLONE).  Then
 * every thread is stopped once (PTRACE_INTERRUPT) so that the first
 * scratch page can be mapped through code written over one thread's
 * current instruction: no other thread may run it meanwhile.  The caller
 * arms the breakpoints and resumes them.
 *
 * PTRACE_O_EXITKILL is not set: the program is not racegate's, and must
 * outlive it whatever happens to racegate.
 */
#include "tracer_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define ATTACH_OPTIONS (PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXIT | \
			PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | \
			PTRACE_O_TRACEVFORK | PTRACE_O_TRACESYSGOOD)

static void comm_of(long pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (!(f = fopen(path, "re")))
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

int tracer_attach_check(pid_t pid, rg_err *err)
{
	char state[64];
	long tgid;

	if (pid <= 0)
		return rg_error(err, "cannot attach to process %d: no such process", pid);
	if (pid == getpid())
		return rg_error(err, "cannot attach to process %d: it is racegate itself",
				pid);
	if (pid == getppid())
		return rg_error(err, "cannot attach to process %d: it is racegate's "
				"parent, which waits for racegate", pid);
	tgid = tracer_proc_status_field(pid, "Tgid");
	if (tgid < 0)
		return rg_error(err, "cannot attach to process %d: no such process", pid);
	if (tgid != pid)
		return rg_error(err, "cannot attach to %d: it is a thread of process "
				"%ld; give the process id (a {tid: %d} selector picks "
				"the thread)", pid, tgid, pid);
	tracer_proc_status_line(pid, "State", state, sizeof(state));
	if ((state[0] == 'Z' || state[0] == 'X') &&
	    tracer_proc_status_field(pid, "Threads") > 1)
		return rg_error(err, "cannot attach to process %d: its main thread has "
				"exited (pthread_exit) while other threads run on, and "
				"the kernel lets no tracer attach to an exited thread",
				pid);
	if (state[0] == 'Z' || state[0] == 'X')
		return rg_error(err, "cannot attach to process %d: it is a zombie (it "
				"has exited, and its parent has not reaped it yet)", pid);
	return 0;
}

/*
 * EPERM from PTRACE_SEIZE of another program's process: another tracer
 * (named), another user, Yama's scope 1 (descendants only), else what
 * spawn.c says about scopes 2 and 3 and seccomp.
 */
int tracer_attach_explain(pid_t pid, rg_err *err)
{
	char prog[64], scope[16] = "", uid[64], comm[64];
	long tracer_pid = tracer_proc_status_field(pid, "TracerPid");
	FILE *f;

	comm_of(pid, prog, sizeof(prog));
	if ((f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re"))) {
		if (!fgets(scope, sizeof(scope), f))
			scope[0] = '\0';
		scope[strcspn(scope, "\n")] = '\0';
		fclose(f);
	}
	tracer_proc_status_line(pid, "Uid", uid, sizeof(uid));
	if (tracer_pid > 0) {
		comm_of(tracer_pid, comm, sizeof(comm));
		return rg_error(err, "cannot attach to process %d (%s): it is already "
				"traced by process %ld (%s); only one tracer at a time: "
				"detach that one first", pid, prog, tracer_pid,
				comm[0] ? comm : "?");
	}
	/* the real uid is the first field of Uid: */
	if (uid[0] && strtol(uid, NULL, 10) != (long)getuid() && geteuid() != 0)
		return rg_error(err, "cannot attach to process %d (%s): it belongs to "
				"user %ld and racegate runs as user %ld; run racegate as "
				"that user, or with CAP_SYS_PTRACE", pid, prog,
				strtol(uid, NULL, 10), (long)getuid());
	if (!strcmp(scope, "1"))
		return rg_error(err, "cannot attach to process %d (%s): "
				"kernel.yama.ptrace_scope is 1, which lets a process trace "
				"only its own descendants; set 'sysctl "
				"kernel.yama.ptrace_scope=0', run racegate with "
				"CAP_SYS_PTRACE, or start the program with racegate run",
				pid, prog);
	return tracer_explain_eperm(pid, prog, err);
}

/* Seizes tid; 1 when it is gone or racegate's already (a new thread the
 * kernel attached), -1 on error. */
static int seize(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t;

	if (ptrace(PTRACE_SEIZE, tid, 0L, (long)ATTACH_OPTIONS) < 0) {
		int e = errno;

		if (e == ESRCH)
			return 1;
		if (e == EPERM && tracer_proc_status_field(tid, "TracerPid") == getpid())
			return 1;
		if (tid != tr->pid && tracer_proc_status_field(tid, "Tgid") < 0)
			return 1;
		if (e == EPERM)
			return tracer_attach_explain(tr->pid, err);
		return rg_error(err, "cannot attach to thread %d of process %d: %s",
				tid, tr->pid, strerror(e));
	}
	t = tracer_tcb_add(tr, tid);
	t->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_REPORTED;
	if (ptrace(PTRACE_INTERRUPT, tid, 0L, 0L) < 0 && errno != ESRCH)
		return rg_error(err, "cannot stop thread %d: %s", tid, strerror(errno));
	return 0;
}

/* Seizes every thread of the process until a pass of /proc/PID/task finds
 * no new one. */
static int seize_all(tracer *tr, rg_err *err)
{
	char path[64];
	bool added = true;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tr->pid);
	/* the leader first: a failure to attach at all is about it */
	switch (seize(tr, tr->pid, err)) {
	case 0:
		break;
	case 1:
		return rg_error(err, "cannot attach to process %d: no such process",
				tr->pid);
	default:
		return -1;
	}
	while (added) {
		DIR *d = opendir(path);
		struct dirent *e;

		if (!d)
			return rg_error(err, "cannot attach to process %d: it has ended",
					tr->pid);
		added = false;
		while ((e = readdir(d))) {
			pid_t tid = (pid_t)atoi(e->d_name);
			int rc;

			if (tid <= 0 || tracer_tcb_find(tr, tid))
				continue;
			if ((rc = seize(tr, tid, err)) < 0) {
				closedir(d);
				return -1;
			}
			added |= rc == 0;
		}
		closedir(d);
	}
	return 0;
}

/* Any thread seized and not yet stopped (nor with a status kept), or 0. */
static pid_t unsettled(const tracer *tr)
{
	for (size_t i = 0; i < tr->ntcbs; i++) {
		const struct tcb *t = tr->tcbs[i];

		if (!(t->flags & (TCB_HELD | TCB_EXITING)) &&
		    !tracer_status_queued(tr, t->tid))
			return t->tid;
	}
	return 0;
}

/*
 * Until every seized thread is stopped.  Any ptrace-stop takes the place
 * of the interrupt's (the kernel drops a pending interrupt at each stop).
 * The interrupt's own stop leaves the thread held, for the caller to
 * resume; any other (a signal, a clone, its exit) is kept for
 * tracer_next_event to judge as usual, and so are the first stops of the
 * threads the kernel attached.
 */
static int stop_all(tracer *tr, rg_err *err)
{
	long deadline = tracer_now_ms() + STOP_WAIT_MS;
	pid_t waiting;

	while ((waiting = unsettled(tr))) {
		struct tcb *t;
		pid_t tid;
		int status, got;

		got = tracer_wait_until(tr, -1, deadline, &tid, &status);
		if (got == 0)
			return rg_error(err, "cannot attach to process %d: thread %d did "
					"not stop within %d ms", tr->pid, waiting,
					STOP_WAIT_MS);
		if (got < 0)
			return rg_error(err, "cannot attach to process %d: %s", tr->pid,
					strerror(errno));
		t = tracer_tcb_find(tr, tid);
		/* (a new thread's first stop is events.c's to judge) */
		if (t && (t->flags & (TCB_HELD | TCB_STARTED)) == TCB_STARTED &&
		    !tracer_status_queued(tr, tid) &&
		    WIFSTOPPED(status) && (status >> 16) == PTRACE_EVENT_STOP) {
			t->flags |= TCB_HELD;
			/* the program is stopped (SIGSTOP): held inside its stop */
			if (tracer_is_stop_signal(WSTOPSIG(status)))
				t->flags |= TCB_GROUP_STOP;
			continue;
		}
		tracer_queue_status(tr, tid, status);
	}
	return 0;
}

/* Is some thread held by the interrupt, able to make the calls? */
static bool one_held(const tracer *tr)
{
	for (size_t i = 0; i < tr->ntcbs; i++)
		if ((tr->tcbs[i]->flags & (TCB_HELD | TCB_STARTED | TCB_EXITING)) ==
		    (TCB_HELD | TCB_STARTED))
			return true;
	return false;
}

/*
 * Every thread stopped for something else first (a clone, its exit: a
 * program whose threads come and go): judge those stops as usual, which
 * lets them go on (and queues their events for the caller), and stop them
 * again; a few rounds at most.
 */
static int stop_one(tracer *tr, rg_err *err)
{
	for (int round = 0; !one_held(tr); round++) {
		if (round == 8)
			return rg_error(err, "cannot set up process %d: no thread of it "
					"could be stopped", tr->pid);
		while (tr->raw_head < tr->nraw) {
			struct wstat w = tr->raw[tr->raw_head++];

			if (tracer_handle_status(tr, w.tid, w.status, err) < 0)
				return -1;
		}
		if (tr->exit_queued)
			return rg_error(err, "cannot attach to process %d: it has ended",
					tr->pid);
		for (size_t i = 0; i < tr->ntcbs; i++) {
			struct tcb *t = tr->tcbs[i];

			if ((t->flags & (TCB_HELD | TCB_EXITING | TCB_STARTED)) == TCB_STARTED &&
			    ptrace(PTRACE_INTERRUPT, t->tid, 0L, 0L) < 0 && errno != ESRCH)
				return rg_error(err, "cannot stop thread %d: %s", t->tid,
						strerror(errno));
		}
		if (stop_all(tr, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * The first scratch page, by a thread held in a plain stop: the leader if
 * it can, else another; in a stopped program (SIGSTOP) one held inside its
 * group-stop, which run_syscall puts back into it.
 */
static int map_first_page(tracer *tr, rg_err *err)
{
	rg_err last = RG_ERR_INIT;
	bool tried = false;

	for (size_t k = 0; k <= 2 * tr->ntcbs + 1; k++) {
		size_t i = k % (tr->ntcbs + 1);
		unsigned want = k <= tr->ntcbs ? TCB_HELD : TCB_HELD | TCB_GROUP_STOP;
		struct tcb *t = i == 0 ? tracer_tcb_find(tr, tr->pid) : tr->tcbs[i - 1];

		if (!t || (i > 0 && t->tid == tr->pid) ||
		    (t->flags & (TCB_HELD | TCB_GROUP_STOP | TCB_STARTED)) !=
		    (want | TCB_STARTED))
			continue;
		tried = true;
		/* its PC may be where no code can be written (the vDSO): another */
		if (tracer_scratch_attach(tr, t, &last) < 0)
			continue;
		/* the calls took it out of the group-stop: it is held in an
		 * ordinary stop now, and asked to stop again once resumed */
		if (t->flags & TCB_GROUP_STOP) {
			t->flags &= ~TCB_GROUP_STOP;
			tracer_rejoin_group_stop(t->tid);
		}
		return 0;
	}
	if (!tried)
		return rg_error(err, "cannot set up process %d: no thread of it could "
				"be stopped", tr->pid);
	return rg_error(err, "cannot set up process %d: %s", tr->pid, last.msg);
}

/*
 * The program's address space (as[0]), once its threads are seized (the
 * kernel lets a tracer read the memory; yama may not before): the threads
 * seized so far run in it, and stop_one's judging of their stops needs it.
 */
static int attach_memory(tracer *tr, rg_err *err)
{
	struct aspace *as = tracer_as_add(tr, tr->pid, NULL, err);

	if (!as)
		return -1;
	for (size_t i = 0; i < tr->ntcbs; i++)
		tr->tcbs[i]->as = as;
	return 0;
}

int tracer_attach(pid_t pid, tracer **out, rg_err *err)
{
	sigset_t chld;
	tracer *tr;

	*out = NULL;
	if (tracer_attach_check(pid, err) < 0)
		return -1;
	tr = xcalloc(1, sizeof(*tr));
	tr->sigfd = -1;
	tr->pid = pid;
	tr->attached = true;
	/* follow_fork stays false: a fork child of the program is let go with
	 * the breakpoints out of its copy (tracer.h), as in a run without it */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &tr->oldmask);
	if (arch_new(&tr->arch, err) < 0) {
		tr->reaped = true;
		tracer_release(tr);
		return -1;
	}
	tr->sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	if (tr->sigfd < 0) {
		rg_error(err, "cannot attach to process %d: %s", pid, strerror(errno));
		goto fail;
	}
	if (seize_all(tr, err) < 0 || attach_memory(tr, err) < 0 ||
	    stop_all(tr, err) < 0 || stop_one(tr, err) < 0)
		goto fail;
	tr->entry = tracer_read_auxv_entry(pid);
	if (map_first_page(tr, err) < 0)
		goto fail;
	*out = tr;
	return 0;
fail:
	tracer_abandon(tr);
	return -1;
}

/* Is THREAD_NEW of tid among the events not yet returned?  (A thread
 * created while racegate attached, reported as new.) */
static bool reported_new(const tracer *tr, pid_t tid)
{
	for (size_t i = tr->ev_head; i < tr->nev; i++)
		if (tr->evq[i].kind == TRACER_EV_THREAD_NEW && tr->evq[i].tid == tid)
			return true;
	return false;
}

size_t tracer_threads(const tracer *tr, pid_t **tids)
{
	size_t n = 0;

	*tids = xcalloc(tr->ntcbs + 1, sizeof(**tids));
	if (tracer_tcb_find(tr, tr->pid))
		(*tids)[n++] = tr->pid;
	for (size_t i = 0; i < tr->ntcbs; i++) {
		const struct tcb *t = tr->tcbs[i];

		if (t->tid != tr->pid && !(t->flags & TCB_CHILD) &&
		    (t->flags & TCB_REPORTED) && !reported_new(tr, t->tid))
			(*tids)[n++] = t->tid;
	}
	return n;
}

/*
 * The program is not racegate's: never killed.  If a clean detach
 * (tracer_detach) could not be done, the breakpoints are taken out and
 * every thread let go as it is; leaving racegate would do the same without
 * the first part (the kernel detaches a tracer's tracees at its exit).
 */
void tracer_abandon(tracer *tr)
{
	if (!tr->reaped && !tr->exit_queued) {
		if (tr->nas) {
			const struct aspace *as = TRACER_MAIN_AS(tr);

			/* a pad's site holds its jump, not an int3 */
			tracer_pad_abandon(as->img, as->memfd);
			for (size_t i = 0; i < as->img->nbps; i++)
				if (!tracer_pad_find(as->img, as->img->bps[i].addr))
					tracer_mem_pwrite(as->memfd, as->img->bps[i].addr,
							  &as->img->bps[i].orig, 1);
		}
		/* a signal a thread stopped with, not judged yet, is delivered */
		for (size_t i = tr->raw_head; i < tr->nraw; i++) {
			int st = tr->raw[i].status;

			if (WIFSTOPPED(st) && !(st >> 16) && WSTOPSIG(st) != SIGTRAP)
				tracer_restart(tr->raw[i].tid, PTRACE_DETACH, WSTOPSIG(st), NULL);
		}
		for (size_t i = 0; i < tr->ntcbs; i++) {
			tracer_regs_sync(tr->tcbs[i]);
			tracer_restart(tr->tcbs[i]->tid, PTRACE_DETACH, 0, NULL);
		}
	}
	tr->reaped = true;
	tracer_release(tr);
}

/*
 * Does the code of a file mapped executable hold a breakpoint instruction
 * where the file has another byte?  A racegate (or a debugger) killed while
 * attached leaves its int3s behind; the next thread to reach one dies.
 */
/* Is there code at addr that no file backs (an anonymous executable page)? */
static bool anon_code(const tracer_map *maps, size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (addr >= maps[i].start && addr < maps[i].end)
			return maps[i].exec && !maps[i].path;
	return false;
}

/*
 * At mem[k] (address a+k), where the file has another byte: racegate's
 * breakpoint, or a jump to a pad (a relative branch into anonymous code)?
 */
static bool stray_at(tracer *tr, const tracer_map *maps, size_t n, uint64_t at,
		     const uint8_t *mem, size_t left)
{
	struct arch_insn insn;

	if (mem[0] == arch_bp_insn[0])
		return true;
	return arch_decode(tr->arch, mem, left, at, &insn, NULL) == 0 &&
	       (insn.flags & ARCH_INSN_RELBRANCH) && anon_code(maps, n, insn.target);
}

int tracer_stray_trap(tracer *tr, uint64_t *addr, char **path, rg_err *err)
{
	tracer_map *maps;
	size_t n;
	int found = 0;

	if (tracer_read_maps(tr->pid, &maps, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && !found; i++) {
		enum { CHUNK = 4096 };
		uint8_t mem[CHUNK + ARCH_MAX_INSN], file[CHUNK];
		int fd;

		if (!maps[i].exec || !maps[i].path || maps[i].path[0] != '/')
			continue;
		if ((fd = open(maps[i].path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		for (uint64_t a = maps[i].start; a < maps[i].end && !found; a += CHUNK) {
			ssize_t nf = pread(fd, file, sizeof(file),
					   (off_t)(maps[i].offset + (a - maps[i].start)));
			int nm;

			if (nf <= 0)
				break;
			/* a jump may run on past the chunk */
			nm = tracer_mem_pread(TRACER_MAIN_AS(tr)->memfd, a, mem,
					      (size_t)nf + ARCH_MAX_INSN);
			if (nm < 0)
				break;
			for (int k = 0; k < nm && k < nf; k++)
				if (file[k] != mem[k] &&
				    stray_at(tr, maps, n, a + (uint64_t)k, mem + k, (size_t)(nm - k))) {
					*addr = a + (uint64_t)k;
					*path = xstrdup(maps[i].path);
					found = 1;
					break;
				}
		}
		close(fd);
	}
	tracer_maps_free(maps, n);
	return found;
}

/* PF_EXITING (the kernel's, include/linux/sched.h) in /proc/PID/stat's flags:
 * the thread is inside do_exit. */
#define PF_EXITING_FLAG 0x4UL

static bool leader_exiting(pid_t pid)
{
	unsigned long long flags = 0;
	int rc = tracer_proc_stat_field(pid, 9, &flags);

	return rc < 0 || (rc == 0 && (flags & PF_EXITING_FLAG));
}

enum tracer_fate tracer_thread_fate(const tracer *tr, pid_t tid)
{
	const struct tcb *t = tracer_tcb_find(tr, tid);
	char pending[64];
	siginfo_t si;
	bool stopped;

	if (!t || (t->flags & TCB_EXITING))
		return TRACER_DYING;
	stopped = ptrace(PTRACE_GETSIGINFO, tid, 0L, &si) == 0;
	/* stopped at its exit (PTRACE_EVENT_EXIT), the stop not taken yet */
	if (stopped && si.si_signo == SIGTRAP && (si.si_code >> 8) == PTRACE_EVENT_EXIT)
		return TRACER_DYING;
	tracer_proc_status_line(tid, "SigPnd", pending, sizeof(pending));
	if ((strtoull(pending, NULL, 16) & (1ULL << (SIGKILL - 1))) || leader_exiting(tid))
		return TRACER_DYING;
	return stopped ? TRACER_LIVES : TRACER_RUNS;
}

bool tracer_ending(const tracer *tr)
{
	const struct tcb *leader = tracer_tcb_find(tr, tr->pid);
	char state[64], pending[64];

	if (tr->exit_queued || !leader || (leader->flags & TCB_EXITING))
		return true;
	tracer_proc_status_line(tr->pid, "State", state, sizeof(state));
	if (!state[0] || state[0] == 'Z' || state[0] == 'X')
		return true;
	/* exit_group and fatal signals queue SIGKILL for every thread */
	tracer_proc_status_line(tr->pid, "SigPnd", pending, sizeof(pending));
	if (strtoull(pending, NULL, 16) & (1ULL << (SIGKILL - 1)))
		return true;
	/* ... which the leader may have taken already, on its way out */
	return leader_exiting(tr->pid);
}
