/*
 * Starting the program under ptrace: fork, PTRACE_SEIZE, exec, up to the
 * exec stop where the first scratch page is mapped.  See tracer.h.
 *
 * When the kernel refuses PTRACE_SEIZE (EPERM), the error says why and what
 * to change, after strace's diagnose_attach_eperm: another tracer, Yama's
 * ptrace_scope, a seccomp filter.
 */
#include "tracer_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

struct child_err {
	int stage;                 /* 0 exec, 1 chdir, 2 dup */
	int errnum;
};

static void child_fail(int fd, int stage)
{
	struct child_err ce = { stage, errno };
	ssize_t unused = write(fd, &ce, sizeof(ce));

	(void)unused;
	_exit(127);
}

/* One past the highest fd this process has open (read before fork: the
 * child may only make async-signal-safe calls). */
static int fd_bound(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int end = 3;

	if (!d)
		return 1024;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);

		if (fd >= end)
			end = fd + 1;
	}
	closedir(d);
	return end;
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child_run(const tracer_opts *opts, int go_fd, int go_wr, int err_fd,
		      int fd_end, const sigset_t *mask)
{
	int want[3] = { opts->stdin_fd, opts->stdout_fd, opts->stderr_fd };
	int tmp[3];
	char c;

	sigprocmask(SIG_SETMASK, mask, NULL);
	/*
	 * Wait until the parent has seized us.  A pipe rather than
	 * raise(SIGSTOP): a seized task that stopped itself must be sent
	 * SIGCONT, and both job-control signals then show up as stops the
	 * tracer would have to tell apart from the program's own.  Its write
	 * end is the parent's alone: a racegate killed before it writes
	 * leaves the pipe with no writer, and the read ends this child.
	 */
	close(go_wr);
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	/* Move the fds out of the way first: stdout_fd may be 0, and so on. */
	for (int i = 0; i < 3; i++) {
		tmp[i] = -1;
		if (want[i] >= 0 && (tmp[i] = fcntl(want[i], F_DUPFD_CLOEXEC, 3)) < 0)
			child_fail(err_fd, 2);
	}
	for (int i = 0; i < 3; i++) {
		if (tmp[i] >= 0 && dup2(tmp[i], i) < 0)
			child_fail(err_fd, 2);
		if (want[i] == TRACER_FD_CLOSED)
			close(i);
	}
	/* racegate's own files (libdwarf keeps the ELF file open) are not the
	 * program's: it gets what racegate was given, as without racegate */
	for (int fd = 3; opts->inherit && fd < fd_end; fd++)
		if (fd != err_fd && !(fd < opts->ninherit && opts->inherit[fd]))
			close(fd);
	if (opts->cwd && chdir(opts->cwd) < 0)
		child_fail(err_fd, 1);
	execvp(opts->argv[0], (char *const *)opts->argv);
	child_fail(err_fd, 0);
}

static void read_line_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Why PTRACE_SEIZE said EPERM, in words, with what to change (strace's
 * diagnose_attach_eperm). */
int tracer_explain_eperm(pid_t pid, const char *prog, rg_err *err)
{
	rg_buf b = RG_BUF_INIT;
	char scope[16], comm[64], path[64];
	long tracer_pid = tracer_proc_status_field(pid, "TracerPid");
	long self_tracer = tracer_proc_status_field(getpid(), "TracerPid");
	long seccomp = tracer_proc_status_field(getpid(), "Seccomp");

	rg_buf_printf(&b, "cannot trace '%s': ptrace refused by the kernel (EPERM)", prog);
	read_line_file("/proc/sys/kernel/yama/ptrace_scope", scope, sizeof(scope));
	if (tracer_pid > 0) {
		snprintf(path, sizeof(path), "/proc/%ld/comm", tracer_pid);
		read_line_file(path, comm, sizeof(comm));
		rg_buf_printf(&b, ": it is already traced by process %ld (%s); "
			      "only one tracer at a time", tracer_pid,
			      comm[0] ? comm : "?");
	} else if (!strcmp(scope, "3")) {
		rg_buf_puts(&b, ": kernel.yama.ptrace_scope is 3, which disables "
			    "ptrace until the next reboot");
	} else if (!strcmp(scope, "2")) {
		rg_buf_puts(&b, ": kernel.yama.ptrace_scope is 2 (admin only): run "
			    "racegate with CAP_SYS_PTRACE, or set "
			    "'sysctl kernel.yama.ptrace_scope=1'");
	} else if (seccomp > 0) {
		rg_buf_puts(&b, ": racegate runs under a seccomp filter that may "
			    "forbid ptrace; in a container, allow it (for example "
			    "'docker run --cap-add=SYS_PTRACE --security-opt "
			    "seccomp=unconfined')");
	} else {
		rg_buf_printf(&b, ": no obvious reason (kernel.yama.ptrace_scope is %s%s); "
			      "a security module (SELinux, AppArmor) may forbid it",
			      scope[0] ? scope : "not set",
			      self_tracer > 0 ? ", racegate is itself traced" : "");
	}
	rg_error(err, "%s", b.s);
	rg_buf_release(&b);
	return -1;
}

/*
 * Until the child's exec stop.  If exec (or the set-up before it) fails,
 * the child ends, and what failed comes through err_fd.
 */
static int wait_exec(pid_t pid, int err_fd, const tracer_opts *opts, rg_err *err)
{
	const char *prog = opts->argv[0];
	struct child_err ce;
	int status;

	for (;;) {
		if (tracer_wait_tid(pid, &status) < 0)
			return rg_error(err, "cannot run '%s': %s", prog, strerror(errno));
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if ((status >> 16) == PTRACE_EVENT_EXEC)
			return 0;
		/* Anything else before exec belongs to racegate's copy: let it go. */
		tracer_restart(pid, PTRACE_CONT, (status >> 16) ? 0 : WSTOPSIG(status), NULL);
	}
	if (read(err_fd, &ce, sizeof(ce)) != sizeof(ce))
		return rg_error(err, "cannot run '%s': it ended before exec", prog);
	if (ce.stage == 1)
		return rg_error(err, "cannot run '%s': cannot change to directory "
				"'%s': %s", prog, opts->cwd, strerror(ce.errnum));
	if (ce.stage == 2)
		return rg_error(err, "cannot run '%s': cannot set up its standard "
				"streams: %s", prog, strerror(ce.errnum));
	return rg_error(err, "cannot run '%s': %s", prog, strerror(ce.errnum));
}

int tracer_spawn(const tracer_opts *opts, tracer **out, rg_err *err)
{
	const long options = PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE |
		PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK |
		PTRACE_O_TRACEVFORK | PTRACE_O_TRACESYSGOOD;
	const char *prog = opts->argv && opts->argv[0] ? opts->argv[0] : "";
	int go[2] = { -1, -1 }, ep[2] = { -1, -1 }, fd_end;
	sigset_t chld;
	struct tcb *leader;
	tracer *tr;
	pid_t pid;

	*out = NULL;
	if (!prog[0])
		return rg_error(err, "no program to run");
	tr = xcalloc(1, sizeof(*tr));
	tr->sigfd = -1;
	tr->follow_fork = opts->follow_fork;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &tr->oldmask);
	if (arch_new(&tr->arch, err) < 0) {
		tracer_release(tr);
		return -1;
	}
	tr->sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	if (tr->sigfd < 0 || pipe2(go, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0) {
		rg_error(err, "cannot run '%s': %s", prog, strerror(errno));
		goto fail_fds;
	}
	fd_end = opts->inherit ? fd_bound() : 0;
	pid = fork();
	if (pid < 0) {
		rg_error(err, "cannot run '%s': fork: %s", prog, strerror(errno));
		goto fail_fds;
	}
	if (pid == 0)
		child_run(opts, go[0], go[1], ep[1], fd_end, &tr->oldmask);
	close(go[0]);
	close(ep[1]);
	go[0] = ep[1] = -1;
	tr->pid = pid;

	if (ptrace(PTRACE_SEIZE, pid, 0L, options) < 0) {
		int e = errno;

		tracer_kill_and_reap(pid);
		if (e == EPERM)
			tracer_explain_eperm(pid, prog, err);
		else
			rg_error(err, "cannot trace '%s': %s", prog, strerror(e));
		goto fail_fds;
	}
	if (write(go[1], "g", 1) != 1) {
		rg_error(err, "cannot run '%s': %s", prog, strerror(errno));
		tracer_kill_and_reap(pid);
		goto fail_fds;
	}
	close(go[1]);
	go[1] = -1;

	if (wait_exec(pid, ep[0], opts, err) < 0)
		goto fail_fds;
	close(ep[0]);
	ep[0] = -1;

	if (!tracer_as_add(tr, pid, NULL, err))
		goto fail_traced;
	tr->entry = tracer_read_auxv_entry(pid);
	leader = tracer_tcb_add(tr, pid);
	leader->flags = TCB_STARTED | TCB_PARENT_KNOWN | TCB_REPORTED | TCB_HELD;
	if (tracer_scratch_init(tr, leader, tr->entry, err) < 0)
		goto fail_traced;
	*out = tr;
	return 0;

fail_traced:
	rg_error_prefix(err, "cannot set up '%s'", prog);
	tracer_free(tr);
	return -1;
fail_fds:
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	tr->reaped = true;
	tracer_release(tr);
	return -1;
}
