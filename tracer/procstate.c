/*
 * procstate: thread states from /proc.  See procstate.h.
 *
 * /proc/PID/task/TID/syscall says "running" for a thread on a CPU, "-1 SP
 * PC" for one stopped outside a system call, and "NR A1..A6 SP PC" (hex)
 * for one blocked in a system call.  Reading it needs ptrace access, which
 * the tracer has; it never stops the thread.
 */
#include "procstate.h"
#include "arch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <poll.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

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
		sscanf(buf, "%llu %*u %llu", &st->cpu_ns, &st->runs);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	if (read_small(path, buf, sizeof(buf)) <= 0 || !strncmp(buf, "running", 7))
		return;
	if (sscanf(buf, "%ld %llx %llx %llx %llx %llx %llx %llx %llx", &nr,
		   &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]) == 9 &&
	    nr >= 0) {
		st->in_syscall = true;
		st->nr = nr;
		st->sys = arch_sys_of(nr);
		for (int i = 0; i < 6; i++)
			st->args[i] = a[i];
		st->sp = a[6];
		st->pc = a[7];
	}
}

bool tracer_tstate_sleeps(const tracer_tstate *st)
{
	return (st->state == 'S' || st->state == 'D') && st->in_syscall;
}

uint64_t tracer_tstate_futex(const tracer_tstate *st)
{
	return st->in_syscall ? tracer_futex_wait_addr(st->sys, st->args) : 0;
}

/*
 * glibc's pthread_mutex_t (struct __pthread_mutex_s): int __lock (the
 * futex word: 0 free, 1 locked, 2 locked with waiters) at 0; int __owner,
 * the owner's tid, where the architecture's layout puts it (arch_defs.h).
 * The one place racegate reads it.
 */
#define MUTEX_OWNER_OFF ARCH_GLIBC_MUTEX_OWNER_OFF

static bool peek(pid_t pid, uint64_t addr, void *buf, size_t len);

enum tracer_futex_kind tracer_tstate_futex_on(pid_t pid, const tracer_tstate *st,
					      pid_t *who)
{
	uint64_t a = tracer_tstate_futex(st);
	struct tracer_futex_words w = { .expected = (uint32_t)st->args[2] };

	*who = 0;
	if (!a)
		return TRACER_FUTEX_OTHER;
	w.have_word = peek(pid, a, &w.word, sizeof(w.word));
	w.have_owner = peek(pid, a + MUTEX_OWNER_OFF, &w.owner, sizeof(w.owner));
	return tracer_futex_classify(&w, st->tid, who);
}

bool tracer_mutex_owner(pid_t pid, uint64_t mutex, pid_t *owner)
{
	int32_t o = 0;

	*owner = 0;
	if (!peek(pid, mutex + MUTEX_OWNER_OFF, &o, sizeof(o)))
		return false;
	*owner = o;
	return true;
}

/*
 * glibc's pthread_rwlock_t (struct __pthread_rwlock_arch_t, glibc 2.25 on):
 * unsigned __readers at 0, whose bit 0 is the write phase, bit 1
 * "write-locked" and bits 3 and up the readers; int __cur_writer, the tid
 * of the writer that holds it (set once it has it, 0 after), where the
 * architecture's layout puts it (arch_defs.h).
 */
#define RWLOCK_WRPHASE 1u
#define RWLOCK_READER_SHIFT 3
#define RWLOCK_CUR_WRITER_OFF ARCH_GLIBC_RWLOCK_WRITER_OFF

bool tracer_rwlock_read(pid_t pid, uint64_t rw, tracer_rwlock *out)
{
	uint32_t readers;
	int32_t writer;

	memset(out, 0, sizeof(*out));
	if (!peek(pid, rw, &readers, sizeof(readers)) ||
	    !peek(pid, rw + RWLOCK_CUR_WRITER_OFF, &writer, sizeof(writer)))
		return false;
	out->writer = writer;
	out->readers = readers >> RWLOCK_READER_SHIFT;
	out->write_phase = readers & RWLOCK_WRPHASE;
	return true;
}

/*
 * glibc's pthread_barrier_t (struct pthread_barrier, glibc 2.25 on):
 * unsigned in (arrivals so far), current_round (the arrivals at which the
 * round began), count.  A round is complete when in reaches
 * current_round + count.
 */
bool tracer_barrier_read(pid_t pid, uint64_t bar, unsigned *waiting, unsigned *count)
{
	uint32_t w[3];

	*waiting = *count = 0;
	if (!peek(pid, bar, w, sizeof(w)))
		return false;
	*waiting = w[0] - w[1];
	*count = w[2];
	return true;
}

/* glibc's pthread_spinlock_t: an int whose free value is the
 * architecture's (arch_glibc_spin_taken). */
bool tracer_spin_taken(pid_t pid, uint64_t lock, bool *taken)
{
	int32_t v = 0;

	*taken = false;
	if (!peek(pid, lock, &v, sizeof(v)))
		return false;
	*taken = arch_glibc_spin_taken(v);
	return true;
}

/*
 * glibc's sem_t on a 64-bit machine with 64-bit atomics (struct new_sem):
 * uint64_t data, the count in its low 32 bits and the waiters in the high
 * ones.
 */
bool tracer_sem_value(pid_t pid, uint64_t sem, unsigned *value)
{
	uint64_t data = 0;

	*value = 0;
	if (!peek(pid, sem, &data, sizeof(data)))
		return false;
	*value = (unsigned)(data & 0xffffffffu);
	return true;
}

/* ---- who else could wake a read ----------------------------------------
 *
 * A read, recv or accept (and poll, select, epoll_wait with no timeout) is
 * blocked for ever only when no process but the program itself can make the
 * file ready:
 *  - a pipe (pipe:[ino]) whose write end no other process holds: racegate
 *    itself (any end: a pipe racegate has came from outside), the program's
 *    descendants (/proc/PID/task/T/children, recursively) and the other
 *    processes of its session (a background child whose parent exited);
 *  - a connected AF_UNIX socket whose peer (sock_diag) no other such process
 *    holds;
 *  - for poll and friends, an eventfd while the program has no descendant.
 * Anything else may wake: a named FIFO, a listening socket (accept: a client
 * can connect), an inet or unbound socket, a terminal, a file, a device, or
 * whatever /proc does not tell (no permission, a missing children file, too
 * many processes).  These looks cost a few /proc reads; they are made only
 * for a thread in one of these calls, i.e. when the watcher suspects a stall.
 */

#define MAX_PROCS 4096         /* more descendants than this: cannot tell */
#define MAX_POLLFDS 1024

/* pid's session id (field 6 of stat), or -1 */
static long proc_session(pid_t pid)
{
	char path[64], buf[512], *p;
	long sid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_small(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	if (sscanf(p + 1, " %*c %*d %*d %ld", &sid) != 1)
		return -1;
	return sid;
}

/* Is pid's fd open for writing (fdinfo flags)?  Unknown: yes. */
static bool fd_writable(pid_t pid, long fd)
{
	char path[96], buf[256], *p;
	unsigned long flags;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%ld", (int)pid, fd);
	if (read_small(path, buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "flags:")) ||
	    sscanf(p + 6, " %lo", &flags) != 1)
		return true;
	return (flags & O_ACCMODE) != O_RDONLY;
}

/*
 * Does process pid hold an fd whose link is link ("pipe:[123]")?  With
 * writer, only one open for writing counts.  -1: its fds cannot be read.
 */
static int proc_holds(pid_t pid, const char *link, bool writer)
{
	char path[64], sub[96], got[64];
	DIR *d;
	struct dirent *de;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!(d = opendir(path)))
		return errno == ENOENT ? 0 : -1;  /* gone: holds nothing */
	while (!found && (de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		ssize_t n;

		if (end == de->d_name || *end || fd < 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%ld", path, fd);
		n = readlink(sub, got, sizeof(got) - 1);
		if (n <= 0)
			continue;
		got[n] = '\0';
		if (!strcmp(got, link) && (!writer || fd_writable(pid, fd)))
			found = 1;
	}
	closedir(d);
	return found;
}

/* Appends pid's children (every thread's) to *v; false when unreadable. */
static bool add_children(pid_t pid, pid_t **v, size_t *n, size_t *cap)
{
	char path[96], buf[4096], *p, *e;
	pid_t *tids;
	size_t nt, i;
	bool ok = true;

	if (tracer_tasks(pid, &tids, &nt) < 0) {
		free(tids);
		return errno == ENOENT;   /* exited meanwhile: no children */
	}
	for (i = 0; i < nt && ok; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid,
			 (int)tids[i]);
		if (read_small(path, buf, sizeof(buf)) < 0) {
			/* fine if the thread is gone, not if the file is missing */
			snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid,
				 (int)tids[i]);
			ok = access(path, F_OK) < 0;
			continue;
		}
		if (strlen(buf) >= sizeof(buf) - 2) {
			ok = false;               /* too many to read at once */
			break;
		}
		for (p = buf; *p; p = e) {
			long c = strtol(p, &e, 10);

			if (e == p)
				break;
			if (c > 0) {
				if (*n >= MAX_PROCS) {
					ok = false;
					break;
				}
				RG_GROW(*v, *n + 1, *cap);
				(*v)[(*n)++] = (pid_t)c;
			}
		}
	}
	free(tids);
	return ok;
}

/*
 * Could a process other than pid write to the file whose link is link?
 * racegate holding it in any way counts; the program's descendants and
 * session mates count when they hold it open for writing (writer) or at all.
 */
static bool held_elsewhere(pid_t pid, const char *link, bool writer)
{
	pid_t *v = NULL, self = getpid();
	size_t n = 0, cap = 0, i;
	bool held = false;
	long sid;
	DIR *d;
	struct dirent *de;

	if (proc_holds(self, link, false) != 0)
		return true;
	/* descendants, breadth first: v grows while it is walked */
	if (!add_children(pid, &v, &n, &cap)) {
		free(v);
		return true;
	}
	for (i = 0; i < n && !held; i++) {
		if (v[i] == self)
			continue;
		if (proc_holds(v[i], link, writer) != 0 ||
		    !add_children(v[i], &v, &n, &cap))
			held = true;
	}
	/* the rest of its session (a background child whose parent exited) */
	if (!held && (sid = proc_session(pid)) > 0 && (d = opendir("/proc"))) {
		while (!held && (de = readdir(d))) {
			long q = strtol(de->d_name, NULL, 10);
			bool seen = q == pid || q == self;

			if (q <= 0)
				continue;
			for (i = 0; i < n && !seen; i++)
				seen = v[i] == q;
			if (!seen && proc_session((pid_t)q) == sid &&
			    proc_holds((pid_t)q, link, writer) != 0)
				held = true;
		}
		closedir(d);
	}
	free(v);
	return held;
}

/* Has pid any child process? (Unknown: yes.) */
static bool has_children(pid_t pid)
{
	pid_t *v = NULL;
	size_t n = 0, cap = 0;
	bool ok = add_children(pid, &v, &n, &cap);

	free(v);
	return !ok || n > 0;
}

/* The inode of the peer of AF_UNIX socket ino (sock_diag), or 0. */
static unsigned long unix_peer(unsigned long ino)
{
	struct {
		struct nlmsghdr nh;
		struct unix_diag_req req;
	} q;
	union {
		struct nlmsghdr nh;
		char b[8192];
	} r;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	unsigned long peer = 0;
	ssize_t len;
	int s;

	if (ino > UINT32_MAX)
		return 0;
	s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (s < 0)
		return 0;
	memset(&q, 0, sizeof(q));
	q.nh.nlmsg_len = sizeof(q);
	q.nh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	q.nh.nlmsg_flags = NLM_F_REQUEST;
	q.req.sdiag_family = AF_UNIX;
	q.req.udiag_ino = (uint32_t)ino;
	q.req.udiag_show = UDIAG_SHOW_PEER;
	q.req.udiag_cookie[0] = q.req.udiag_cookie[1] = ~0U;
	if (sendto(s, &q, sizeof(q), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto out;
	do
		len = recv(s, &r, sizeof(r), 0);
	while (len < 0 && errno == EINTR);
	if (len > 0 && NLMSG_OK(&r.nh, (size_t)len) &&
	    r.nh.nlmsg_type == SOCK_DIAG_BY_FAMILY) {
		struct unix_diag_msg *m = NLMSG_DATA(&r.nh);
		struct rtattr *a = (struct rtattr *)(m + 1);
		int alen = (int)r.nh.nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));

		if (m->udiag_ino == ino)
			for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen))
				if (a->rta_type == UNIX_DIAG_PEER &&
				    RTA_PAYLOAD(a) >= sizeof(uint32_t))
					peer = *(uint32_t *)RTA_DATA(a);
	}
out:
	close(s);
	return peer;
}

/* What pid's fd is, and (where the decision needs it for use) who else
 * holds it: blocked.c decides from that. */
static void fd_gather(pid_t pid, int fd, enum tracer_wait_use use,
		      struct tracer_wait_fd *out)
{
	char path[64], link[64], peer[64];
	struct stat sb;
	ssize_t n;
	unsigned long ino, p;

	memset(out, 0, sizeof(*out));
	out->fd = fd;
	out->kind = TRACER_FD_OTHER;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	if (stat(path, &sb) < 0 || (n = readlink(path, link, sizeof(link) - 1)) <= 0)
		return;
	link[n] = '\0';
	if (S_ISFIFO(sb.st_mode)) {
		if (strncmp(link, "pipe:[", 6))
			return;                /* a named FIFO: anyone may open it */
		out->kind = TRACER_FD_PIPE;
		/* a poll may wait to write, too: then any other holder counts */
		out->ours = proc_holds(pid, link, true) == 1;
		out->outside = !out->ours ||
			       held_elsewhere(pid, link, use != TRACER_USE_POLL);
		return;
	}
	if (S_ISSOCK(sb.st_mode)) {
		if (use == TRACER_USE_ACCEPT || sscanf(link, "socket:[%lu]", &ino) != 1 ||
		    !(p = unix_peer(ino)))
			return;                /* listening, inet, unconnected */
		snprintf(peer, sizeof(peer), "socket:[%lu]", p);
		/*
		 * A socketpair (or a connection to itself): the program holds
		 * the peer, and nobody else holds either end (a peer held by a
		 * server outside, or an end racegate has, may wake it).
		 */
		out->kind = TRACER_FD_UNIX;
		out->ours = proc_holds(pid, peer, false) == 1;
		out->outside = !out->ours || held_elsewhere(pid, peer, false) ||
			       held_elsewhere(pid, link, false);
		return;
	}
	if (!strcmp(link, "anon_inode:[eventfd]")) {
		out->kind = TRACER_FD_EVENTFD;
		out->outside = use != TRACER_USE_POLL || has_children(pid);
	}
}

/* The files a wait is on, gathered until the first that may wake. */
struct gathered {
	pid_t pid;
	enum tracer_wait_use use;
	struct tracer_wait_fd *v;
	size_t n, cap;
	bool woke;                 /* the last one may wake: stop */
};

static void gather(struct gathered *g, int fd)
{
	RG_GROW(g->v, g->n + 1, g->cap);
	fd_gather(g->pid, fd, g->use, &g->v[g->n]);
	g->woke = tracer_wait_fd_may_wake(&g->v[g->n++], g->use);
}

/* Reads len bytes at addr of pid's memory. */
static bool peek(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len }, r = { (void *)(uintptr_t)addr, len };

	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)len;
}

/* poll/ppoll on fds[nfds]: false when they cannot all be read */
static bool gather_poll(struct gathered *g, uint64_t fds, uint64_t nfds)
{
	struct pollfd *v;
	bool ok = true;

	if (!nfds)
		return true;               /* waits for a signal alone */
	if (nfds > MAX_POLLFDS)
		return false;
	v = xcalloc(nfds, sizeof(*v));
	if (!peek(g->pid, fds, v, nfds * sizeof(*v)))
		ok = false;
	for (uint64_t i = 0; i < nfds && ok && !g->woke; i++)
		if (v[i].fd >= 0)
			gather(g, v[i].fd);
	free(v);
	return ok;
}

/* select/pselect6 on the three fd_sets at sets[], nfds */
static bool gather_select(struct gathered *g, uint64_t nfds, const uint64_t sets[3])
{
	uint64_t bits[3][FD_SETSIZE / 64];
	size_t words = (nfds + 63) / 64;

	if (nfds > FD_SETSIZE)
		return false;
	memset(bits, 0, sizeof(bits));
	for (int k = 0; k < 3; k++)
		if (sets[k] && words && !peek(g->pid, sets[k], bits[k], words * 8))
			return false;
	for (uint64_t fd = 0; fd < nfds && !g->woke; fd++)
		if (((bits[0][fd / 64] | bits[1][fd / 64] | bits[2][fd / 64]) >>
		     (fd % 64)) & 1)
			gather(g, (int)fd);
	return true;
}

/* epoll_wait on epfd: every registered fd ("tfd:" in fdinfo) */
static bool gather_epoll(struct gathered *g, int epfd)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	bool ok = true;
	int fd, n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)g->pid, epfd);
	if (!(f = fopen(path, "re")))
		return false;
	while (ok && !g->woke && getline(&line, &cap, f) > 0) {
		if (sscanf(line, "tfd: %d", &fd) != 1)
			continue;
		if (++n > MAX_POLLFDS)
			ok = false;
		else
			gather(g, fd);
	}
	free(line);
	fclose(f);
	return ok;
}

enum tracer_wait tracer_tstate_wait(pid_t pid, const tracer_tstate *st)
{
	struct tracer_wait_call c = { st->state, st->in_syscall, st->sys,
				      { 0 }, NULL, 0, true };
	struct gathered g = { .pid = pid };
	enum tracer_wait_src src = TRACER_SRC_NONE;
	enum tracer_wait w;

	memcpy(c.args, st->args, sizeof(c.args));
	if ((st->state == 'S' || st->state == 'D') && st->in_syscall)
		src = tracer_wait_source(&c, &g.use);
	if (src == TRACER_SRC_FD)
		gather(&g, (int)c.args[0]);
	else if (src == TRACER_SRC_POLL)
		c.fds_complete = gather_poll(&g, c.args[0], c.args[1]);
	else if (src == TRACER_SRC_SELECT)
		c.fds_complete = gather_select(&g, c.args[0], &c.args[1]);
	else if (src == TRACER_SRC_EPOLL)
		c.fds_complete = gather_epoll(&g, (int)c.args[0]);
	c.fds = g.v;
	c.nfds = g.n;
	w = tracer_wait_decide(&c).wait;
	free(g.v);
	return w;
}

const char *tracer_syscall_name(long nr, char *buf, size_t len)
{
	const char *name = arch_sys_name(arch_sys_of(nr));

	if (name)
		return name;
	snprintf(buf, len, "syscall %ld", nr);
	return buf;
}

bool tracer_syscall_reads_fd(long nr)
{
	struct tracer_wait_call c = { .sys = arch_sys_of(nr) };
	enum tracer_wait_use use;

	/* blocked.c's list of the calls that wait on the fd in args[0] */
	return tracer_wait_source(&c, &use) == TRACER_SRC_FD;
}

bool tracer_tstate_waits_child(const tracer_tstate *st, pid_t *child)
{
	enum { WNOHANG_ = 1, P_ALL_ = 0, P_PID_ = 1 };

	if (!st->in_syscall || (st->state != 'S' && st->state != 'D'))
		return false;
	if (st->sys == ARCH_SYS_WAIT4 && !(st->args[2] & WNOHANG_)) {
		*child = (pid_t)(int)st->args[0];
		return *child > 0 || *child == -1;
	}
	if (st->sys == ARCH_SYS_WAITID && !(st->args[3] & WNOHANG_) &&
	    (st->args[0] == P_ALL_ || st->args[0] == P_PID_)) {
		*child = st->args[0] == P_ALL_ ? -1 : (pid_t)(int)st->args[1];
		return *child != 0;
	}
	return false;
}

int tracer_children(pid_t pid, pid_t **kids, size_t *n)
{
	pid_t *tids = NULL;
	size_t ntids = 0, cap = 0;
	int ret = 0;

	*kids = NULL;
	*n = 0;
	if (tracer_tasks(pid, &tids, &ntids) < 0)
		return -1;
	for (size_t i = 0; i < ntids && ret == 0; i++) {
		char path[96], buf[4096], *p, *end;
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid,
			 (int)tids[i]);
		if ((len = read_small(path, buf, sizeof(buf))) < 0 ||
		    (size_t)len >= sizeof(buf) - 1) {
			ret = -1;      /* no such file, or too many to read whole */
			break;
		}
		for (p = buf; ; p = end) {
			long k = strtol(p, &end, 10);

			if (end == p)
				break;
			RG_GROW(*kids, *n + 1, cap);
			(*kids)[(*n)++] = (pid_t)k;
		}
	}
	free(tids);
	if (ret < 0) {
		free(*kids);
		*kids = NULL;
		*n = 0;
	}
	return ret;
}
