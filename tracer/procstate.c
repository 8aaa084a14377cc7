/*
 * procstate: thread states from /proc.  See procstate.h.
 *
 * /proc/PID/task/TID/syscall says "running" for a thread on a CPU, "-1 SP
 * PC" for one stopped outside a system call, and "NR A1..A6 SP PC" (hex)
 * for one blocked in a system call.  Reading it needs ptrace access, which
 * the tracer has; it never stops the thread.
 */
#include "procstate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* futex operations (linux/futex.h), without the flags */
#define FUTEX_CMD_MASK_ (~(128 | 256))
#define FUTEX_WAIT_ 0
#define FUTEX_LOCK_PI_ 6
#define FUTEX_WAIT_BITSET_ 9
#define FUTEX_WAIT_REQUEUE_PI_ 11
#define FUTEX_LOCK_PI2_ 13

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int tracer_tasks(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	size_t cap = 0;

	*tids = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((de = readdir(d))) {
		long t = strtol(de->d_name, NULL, 10);

		if (t <= 0)
			continue;
		RG_GROW(*tids, *n + 1, cap);
		(*tids)[(*n)++] = (pid_t)t;
	}
	closedir(d);
	if (*n)
		qsort(*tids, *n, sizeof(**tids), cmp_pid);
	return 0;
}

void tracer_tstate_read(pid_t pid, pid_t tid, tracer_tstate *st)
{
	char path[96], buf[512], *p;
	unsigned long long a[8];
	long nr;

	memset(st, 0, sizeof(*st));
	st->tid = tid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	if (read_small(path, buf, sizeof(buf)) <= 0)
		return;
	/* "tid (comm) S ...": comm may hold spaces and parentheses */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ' || !p[2])
		return;
	st->state = p[2];
	if (st->state == 'Z' || st->state == 'X')
		return;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	if (read_small(path, buf, sizeof(buf)) > 0)
		sscanf(buf, "%*u %*u %llu", &st->runs);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	if (read_small(path, buf, sizeof(buf)) <= 0 || !strncmp(buf, "running", 7))
		return;
	if (sscanf(buf, "%ld %llx %llx %llx %llx %llx %llx %llx %llx", &nr,
		   &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]) == 9 &&
	    nr >= 0) {
		st->in_syscall = true;
		st->nr = nr;
		for (int i = 0; i < 6; i++)
			st->args[i] = a[i];
		st->sp = a[6];
		st->pc = a[7];
	}
}

uint64_t tracer_tstate_futex(const tracer_tstate *st)
{
	int cmd;

	if (!st->in_syscall || st->nr != SYS_futex)
		return 0;
	cmd = (int)st->args[1] & FUTEX_CMD_MASK_;
	if (cmd == FUTEX_WAIT_ || cmd == FUTEX_WAIT_BITSET_ || cmd == FUTEX_LOCK_PI_ ||
	    cmd == FUTEX_LOCK_PI2_ || cmd == FUTEX_WAIT_REQUEUE_PI_)
		return st->args[0];
	return 0;
}

/* Is racegate itself holding the file open at fd of pid (stdin handed down)? */
static bool inherited_from_us(pid_t pid, int fd)
{
	char path[64];
	struct stat theirs, ours;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	if (stat(path, &theirs) < 0)
		return true;   /* cannot tell: assume the outside world can wake it */
	if (!S_ISFIFO(theirs.st_mode) && !S_ISSOCK(theirs.st_mode))
		return true;   /* a terminal, a file, a device: not ours to judge */
	for (i = 0; i < 3; i++) {
		char self[32];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", i);
		if (stat(self, &ours) == 0 && ours.st_ino == theirs.st_ino &&
		    ours.st_dev == theirs.st_dev)
			return true;
	}
	return false;
}

enum tracer_wait tracer_tstate_wait(pid_t pid, const tracer_tstate *st)
{
	const uint64_t *a = st->args;

	if (st->state != 'S' && st->state != 'D')
		return TRACER_WAIT_NONE;
	if (!st->in_syscall)
		return TRACER_WAIT_NONE;
	switch (st->nr) {
	case SYS_futex:
		if (!tracer_tstate_futex(st))
			return TRACER_WAIT_NONE;
		return a[3] ? TRACER_WAIT_TIMED : TRACER_WAIT_FOREVER;
#ifdef SYS_futex_waitv
	case SYS_futex_waitv:
		return a[3] ? TRACER_WAIT_TIMED : TRACER_WAIT_FOREVER;
#endif
	case SYS_nanosleep:
	case SYS_clock_nanosleep:
		return TRACER_WAIT_TIMED;
	case SYS_poll:
		return (int)a[2] < 0 ? TRACER_WAIT_FOREVER : TRACER_WAIT_TIMED;
	case SYS_ppoll:
		return a[2] ? TRACER_WAIT_TIMED : TRACER_WAIT_FOREVER;
	case SYS_select:
	case SYS_pselect6:
		return a[4] ? TRACER_WAIT_TIMED : TRACER_WAIT_FOREVER;
	case SYS_epoll_wait:
	case SYS_epoll_pwait:
		return (int)a[3] < 0 ? TRACER_WAIT_FOREVER : TRACER_WAIT_TIMED;
#ifdef SYS_epoll_pwait2
	case SYS_epoll_pwait2:
		return a[3] ? TRACER_WAIT_TIMED : TRACER_WAIT_FOREVER;
#endif
	case SYS_read:
	case SYS_readv:
	case SYS_recvfrom:
	case SYS_recvmsg:
	case SYS_accept:
	case SYS_accept4:
		/* a pipe or socket of the program's own: only it can write */
		return inherited_from_us(pid, (int)a[0]) ? TRACER_WAIT_NONE :
		       TRACER_WAIT_FOREVER;
	default:
		return TRACER_WAIT_NONE;
	}
}

const char *tracer_syscall_name(long nr, char *buf, size_t len)
{
	static const struct { long nr; const char *name; } names[] = {
		{ SYS_read, "read" }, { SYS_readv, "readv" }, { SYS_write, "write" },
		{ SYS_futex, "futex" }, { SYS_nanosleep, "nanosleep" },
		{ SYS_clock_nanosleep, "clock_nanosleep" }, { SYS_poll, "poll" },
		{ SYS_ppoll, "ppoll" }, { SYS_select, "select" },
		{ SYS_pselect6, "pselect6" }, { SYS_epoll_wait, "epoll_wait" },
		{ SYS_epoll_pwait, "epoll_pwait" }, { SYS_recvfrom, "recvfrom" },
		{ SYS_recvmsg, "recvmsg" }, { SYS_accept, "accept" },
		{ SYS_accept4, "accept4" }, { SYS_wait4, "wait4" },
		{ SYS_waitid, "waitid" }, { SYS_pause, "pause" },
		{ SYS_rt_sigsuspend, "rt_sigsuspend" },
		{ SYS_rt_sigtimedwait, "rt_sigtimedwait" }, { SYS_flock, "flock" },
		{ SYS_fcntl, "fcntl" }, { SYS_connect, "connect" },
		{ SYS_sched_yield, "sched_yield" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].nr == nr)
			return names[i].name;
	snprintf(buf, len, "syscall %ld", nr);
	return buf;
}
