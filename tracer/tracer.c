/*
 * tracer: the core of tracer/ (see tracer.h for the contract, its header
 * comment for the files): the control blocks of the threads, their
 * registers (cached at a stop), the program's memory, a few /proc facts,
 * the public accessors, and the end (tracer_free).
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
#include <stdarg.h>
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

/* ---- small helpers ---------------------------------------------------- */

struct tcb *tracer_tcb_find(const tracer *tr, pid_t tid)
{
	const size_t *i = rg_intmap_get(&tr->tcb_ix, (uint64_t)(uint32_t)tid);

	return i ? tr->tcbs[*i] : NULL;
}

struct tcb *tracer_tcb_add(tracer *tr, pid_t tid)
{
	struct tcb *t;

	/* every caller looked first: a second block would orphan the first */
	RG_ASSERT(!tracer_tcb_find(tr, tid));
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->tgid = tr->pid;
	t->as = tr->nas ? TRACER_MAIN_AS(tr) : NULL;
	RG_GROW(tr->tcbs, tr->ntcbs + 1, tr->tcbs_cap);
	*rg_intmap_ref(&tr->tcb_ix, (uint64_t)(uint32_t)tid, 0) = tr->ntcbs;
	tr->tcbs[tr->ntcbs++] = t;
	return t;
}

void tracer_tcb_drop(tracer *tr, struct tcb *t)
{
	size_t *ix = rg_intmap_get(&tr->tcb_ix, (uint64_t)(uint32_t)t->tid);

	size_t i;

	/* only blocks of tr->tcbs are dropped, each once */
	RG_ASSERT(ix && tr->tcbs[*ix] == t);
	tracer_ranges_free(tr, t, true);
	i = *ix;
	rg_intmap_del(&tr->tcb_ix, (uint64_t)(uint32_t)t->tid);
	tr->tcbs[i] = tr->tcbs[--tr->ntcbs];
	if (i < tr->ntcbs)
		*rg_intmap_get(&tr->tcb_ix, (uint64_t)(uint32_t)tr->tcbs[i]->tid) = i;
	free(t);
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
 * The one ptrace call that lets a stopped thread run (or go): every restart
 * of tracer/ passes here, through tracer_restart or, where the caller must
 * tell a thread that is gone apart or words the failure itself, directly.
 */
int tracer_restart_raw(pid_t tid, int op, int sig)
{
	return ptrace(op, tid, 0L, (long)sig) < 0 ? -1 : 0;
}

/*
 * Restarts tid.  ESRCH is not an error: the thread was killed while stopped
 * (a SIGKILL wakes it from a ptrace-stop) and its death is on its way
 * through waitpid (strace's ptrace_restart).
 */
int tracer_restart(pid_t tid, int op, int sig, rg_err *err)
{
	const char *what = op == PTRACE_CONT || op == PTRACE_SYSCALL ? "resume" :
			   op == PTRACE_SINGLESTEP ? "single-step" :
			   op == PTRACE_LISTEN ? "listen to" : "detach";

	if (tracer_restart_raw(tid, op, sig) == 0 || errno == ESRCH)
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

int tracer_gone_or_error(rg_err *err, const char *fmt, ...)
{
	va_list ap;

	if (errno == ESRCH)
		return 0;
	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * The registers of t at this stop: the cache, else read (and cached).
 *
 * At a breakpoint the PC is rewound (bp + 1 -> bp) in the cache only
 * (TCB_REGS_DIRTY): a pass-through thread leaves with its PC set to the
 * out-of-line copy anyway (step_over_oot), so one register write per hit
 * does both.  Everything else that lets the thread run or lets someone read
 * its registers through ptrace (libunwind, a debugger after
 * tracer_detach_stopped, the stub, a single-step) calls tracer_regs_sync first.
 */
int tracer_regs_read(struct tcb *t, arch_regs *r)
{
	if (!(t->flags & TCB_REGS)) {
		if (arch_regs_fetch(t->tid, &t->regs) < 0)
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
	return arch_regs_store(t->tid, &t->regs);
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

void tracer_show_orig(const struct image *img, uint64_t addr, uint8_t *buf, size_t n)
{
	for (size_t i = tracer_bp_lower(img, addr); i < img->nbps && img->bps[i].addr < addr + n;
	     i++)
		buf[img->bps[i].addr - addr] = img->bps[i].orig;
	tracer_pad_show_orig(img, addr, buf, n);
}

/* The program's bytes: our int3s are shown as what they replaced. */
size_t tracer_read_code(const struct aspace *as, uint64_t addr, uint8_t *buf, size_t len)
{
	int n = tracer_mem_pread(as->memfd, addr, buf, len);

	if (n <= 0)
		return 0;
	tracer_show_orig(as->img, addr, buf, (size_t)n);
	return (size_t)n;
}

void tracer_proc_status_line(pid_t pid, const char *key, char *buf, size_t len)
{
	char path[64], *line = NULL;
	size_t cap = 0, klen = strlen(key);
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "re")))
		return;
	while (getline(&line, &cap, f) > 0)
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			const char *v = line + klen + 1;

			v += strspn(v, " \t");
			snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
			break;
		}
	free(line);
	fclose(f);
}

/* "Tgid:" of /proc/TID/status, or -1 when the thread is gone. */
long tracer_proc_status_field(pid_t tid, const char *field)
{
	char v[64];

	tracer_proc_status_line(tid, field, v, sizeof(v));
	return v[0] ? strtol(v, NULL, 10) : -1;
}

int tracer_proc_stat_field(pid_t pid, int field, unsigned long long *val)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, k = 2;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* field 2, the command name, may hold spaces and parentheses: the
	 * fields go on after its last ')' (field 3, the state, is a letter) */
	if (!(p = strrchr(buf, ')')))
		return 1;
	for (p++; *p && k < field; p++)
		k += *p == ' ';
	if (k != field || field < 4 || sscanf(p, "%llu", val) != 1)
		return 1;
	return 0;
}

bool tracer_is_own_thread(const tracer *tr, pid_t tid)
{
	long tgid = tracer_proc_status_field(tid, "Tgid");

	return tgid < 0 || tracer_as_find(tr, (pid_t)tgid);
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
	/* children whose first stop never came: their snapshots (their
	 * address spaces are in tr->as, dropped below) */
	for (size_t i = 0; i < tr->nforks; i++)
		if (tr->forks[i].img)
			tracer_image_put(tr->forks[i].img);
	while (tr->nas)
		tracer_as_drop(tr, tr->as[tr->nas - 1]);
	free(tr->as);
	pthread_sigmask(SIG_SETMASK, &tr->oldmask, NULL);
	for (size_t i = 0; i < tr->ntcbs; i++) {
		tracer_ranges_free(tr, tr->tcbs[i], false);
		free(tr->tcbs[i]);
	}
	free(tr->tcbs);
	rg_intmap_release(&tr->tcb_ix);
	free(tr->forks);

	free(tr->raw);
	free(tr->evq);
	free(tr->rewrites);
	free(tr->copy);
	free(tr->frames);
	free(tr->pads_gone);
	arch_free(tr->arch);
	free(tr);
}

/* ---- address spaces ---------------------------------------------------- */

static void image_put(struct image *img)
{
	if (--img->refs)
		return;
	free(img->bps);
	rg_intmap_release(&img->ever);
	tracer_pads_free(img);
	free(img);
}

void tracer_image_get(struct image *img)
{
	img->refs++;
}

void tracer_image_put(struct image *img)
{
	image_put(img);
}

struct aspace *tracer_as_add(tracer *tr, pid_t pid, const struct aspace *from,
			     rg_err *err)
{
	struct aspace *as = xcalloc(1, sizeof(*as));

	as->pid = pid;
	if ((as->memfd = tracer_open_mem(pid, err)) < 0) {
		free(as);
		return NULL;
	}
	as->img = from ? from->img : xcalloc(1, sizeof(*as->img));
	as->img->refs++;
	if (from) {
		/* fork copied the memory: the pages and copies are there too */
		as->npages = as->pages_cap = from->npages;
		as->pages = xcalloc(from->npages + 1, sizeof(*as->pages));
		memcpy(as->pages, from->pages, from->npages * sizeof(*as->pages));
		as->stub = from->stub;
		for (size_t i = 0; i < from->oot.cap; i++)
			if (from->oot.used[i])
				*rg_intmap_ref(&as->oot, from->oot.keys[i], 0) =
					from->oot.vals[i];
		as->noots_gone = as->oots_gone_cap = from->noots_gone;
		as->oots_gone = xcalloc(from->noots_gone + 1, sizeof(*as->oots_gone));
		if (from->noots_gone)
			memcpy(as->oots_gone, from->oots_gone,
			       from->noots_gone * sizeof(*as->oots_gone));
		as->ndata = as->data_cap = from->ndata;
		as->data = xcalloc(from->ndata + 1, sizeof(*as->data));
		if (from->ndata)
			memcpy(as->data, from->data, from->ndata * sizeof(*as->data));
		tracer_pad_fork(as, from);
	}
	RG_GROW(tr->as, tr->nas + 1, tr->as_cap);
	tr->as[tr->nas++] = as;
	return as;
}

struct aspace *tracer_as_find(const tracer *tr, pid_t pid)
{
	for (size_t i = 0; i < tr->nas; i++)
		if (tr->as[i]->pid == pid)
			return tr->as[i];
	return NULL;
}

void tracer_as_drop(tracer *tr, struct aspace *as)
{
	size_t i;

	for (i = 0; i < tr->ntcbs; i++)
		if (tr->tcbs[i]->as == as)
			tr->tcbs[i]->as = NULL;
	for (i = 0; i < tr->nas && tr->as[i] != as; i++)
		;
	if (i < tr->nas)
		memmove(&tr->as[i], &tr->as[i + 1], (tr->nas - i - 1) * sizeof(*tr->as));
	tr->nas--;
	if (as->memfd >= 0)
		close(as->memfd);
	tracer_unwind_forget(as);
	tracer_pad_as_gone(tr, as);
	image_put(as->img);
	free(as->pages);
	free(as->data);
	free(as->padslots);
	rg_intmap_release(&as->oot);
	free(as->oots_gone);
	free(as);
}

void tracer_as_exec(struct aspace *as)
{
	image_put(as->img);
	as->img = xcalloc(1, sizeof(*as->img));
	as->img->refs = 1;
	as->npages = 0;
	as->ndata = 0;
	as->stub = 0;
	free(as->padslots);
	as->padslots = NULL;
	as->npadslots = 0;
	rg_intmap_release(&as->oot);
	as->noots_gone = 0;
	tracer_unwind_forget(as);
}

uint64_t tracer_as_oot(const struct aspace *as, uint64_t addr)
{
	const size_t *v = rg_intmap_get(&as->oot, addr);

	return v ? (uint64_t)*v : 0;
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
			tracer_restart(pid, PTRACE_CONT, 0, NULL);
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

long tracer_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* ---- registers, memory, the end --------------------------------------- */

int tracer_get_regs(tracer *tr, pid_t tid, arch_regs *regs, rg_err *err)
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
	arch_regs r;

	if (tracer_get_regs(tr, tid, &r, err) < 0)
		return -1;
	*sp = arch_get_sp(&r);
	return 0;
}

int tracer_entry_frame(tracer *tr, pid_t tid, uint64_t *ret, uint64_t *sp_after,
		       rg_err *err)
{
	arch_regs r;
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

/*
 * len bytes at addr of as through /proc/PID/mem, for what process_vm_readv
 * did not read (a kernel without it, or memory it cannot read): only from
 * mappings the program may read.  Through the file the kernel lets a
 * tracer read a PROT_NONE page too (FOLL_FORCE), where the program itself
 * would fault: such bytes are no value of the program's.
 */
static bool read_readable(const struct aspace *as, uint64_t addr, void *buf, size_t len)
{
	tracer_map *m;
	size_t n, i;
	uint64_t at = addr, end = addr + len;

	if (end < addr || tracer_read_maps(as->pid, &m, &n, NULL) < 0)
		return false;
	/* the maps are in address order: [addr, end) must be readable throughout */
	for (i = 0; i < n && at < end; i++)
		if (m[i].start <= at && at < m[i].end) {
			if (!m[i].read)
				break;
			at = m[i].end;
		}
	tracer_maps_free(m, n);
	return at >= end && tracer_mem_pread(as->memfd, addr, buf, len) == (int)len;
}

int tracer_read_mem(tracer *tr, uint64_t addr, void *buf, size_t len, rg_err *err)
{
	const struct image *img = TRACER_MAIN_AS(tr)->img;
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(tr->pid, &local, 1, &remote, 1, 0);

	if (n != (ssize_t)len && !read_readable(TRACER_MAIN_AS(tr), addr, buf, len))
		return rg_error(err, "cannot read %zu bytes at 0x%llx in process %d",
				len, (unsigned long long)addr, tr->pid);
	/* Show the program's bytes, not our int3s. */
	for (size_t i = tracer_bp_lower(img, addr); i < img->nbps &&
	     img->bps[i].addr < addr + len; i++)
		((uint8_t *)buf)[img->bps[i].addr - addr] = img->bps[i].orig;
	return 0;
}

uint64_t tracer_call_arg(const arch_regs *regs, unsigned n)
{
	return arch_call_arg(regs, n);
}

uint64_t tracer_explore_thread_pointer(const arch_regs *regs)
{
	return arch_pthread_self(regs);
}

int tracer_dwarf_regs(tracer *tr, pid_t tid, uint64_t *out, size_t max, size_t *n,
		      rg_err *err)
{
	arch_regs r;

	*n = 0;
	if (tracer_get_regs(tr, tid, &r, err) < 0)
		return -1;
	*n = arch_dwarf_regs(&r, out, max);
	return 0;
}

/* Shows the program's bytes, not our int3s, in buf (len bytes read at addr). */
static void unmask_bps(const struct image *img, uint64_t addr, void *buf, size_t len)
{
	for (size_t i = tracer_bp_lower(img, addr); i < img->nbps &&
	     img->bps[i].addr < addr + len; i++)
		((uint8_t *)buf)[img->bps[i].addr - addr] = img->bps[i].orig;
}

/*
 * reqs[0..n) with one process_vm_readv (n <= IOV_MAX): how many came whole.
 * The kernel reads the iovecs in order and stops at the first byte it
 * cannot read, so the count of whole requests follows from the total.
 */
static size_t read_vm_batch(pid_t pid, const tracer_read_req *reqs, size_t n)
{
	struct iovec local[64], remote[64];
	size_t i, whole = 0;
	ssize_t got;

	if (n > 64)
		n = 64;
	for (i = 0; i < n; i++) {
		local[i].iov_base = reqs[i].buf;
		local[i].iov_len = reqs[i].len;
		remote[i].iov_base = (void *)(uintptr_t)reqs[i].addr;
		remote[i].iov_len = reqs[i].len;
	}
	got = process_vm_readv(pid, local, n, remote, n, 0);
	if (got <= 0)
		return 0;
	for (i = 0; i < n && (size_t)got >= reqs[i].len; i++) {
		got -= (ssize_t)reqs[i].len;
		whole++;
	}
	return whole;
}

size_t tracer_read_batch(tracer *tr, pid_t tid, const tracer_read_req *reqs, size_t n)
{
	const struct tcb *t = tracer_tcb_find(tr, tid);
	const struct aspace *as = t ? tracer_as_find(tr, t->tgid) : NULL;
	size_t done = 0;

	if (!as)
		as = TRACER_MAIN_AS(tr);
	while (done < n) {
		size_t k = read_vm_batch(as->pid, reqs + done, n - done);

		if (!k) {
			/* a request across an unreadable page, or no process_vm_readv */
			const tracer_read_req *q = &reqs[done];

			if (!read_readable(as, q->addr, q->buf, q->len))
				break;
			k = 1;
		}
		for (size_t i = done; i < done + k; i++)
			unmask_bps(as->img, reqs[i].addr, reqs[i].buf, reqs[i].len);
		done += k;
	}
	return done;
}

void tracer_kill(tracer *tr)
{
	if (tr->reaped)
		return;
	if (tr->attached)
		rg_bug("a program racegate attached to is never killed (tracer_detach)");
	kill(tr->pid, SIGKILL);
	/* followed fork children go with it (their deaths follow) */
	for (size_t i = 1; i < tr->nas; i++)
		kill(tr->as[i]->pid, SIGKILL);
	/* children in its memory (vfork, CLONE_VM), followed until their
	 * exec, go with it: they would run on with racegate's int3s */
	for (size_t i = 0; i < tr->ntcbs; i++)
		if (tr->tcbs[i]->flags & TCB_CHILD)
			kill(tr->tcbs[i]->tid, SIGKILL);
	/* and so do children not followed yet, when they are to be */
	for (size_t i = 0; i < tr->nforks; i++)
		if (tr->forks[i].vfork || tr->follow_fork)
			kill(tr->forks[i].pid, SIGKILL);
}

int tracer_hold(tracer *tr, pid_t tid, rg_err *err)
{
	struct tcb *t = tracer_tcb_find(tr, tid);

	if (!t || !(t->flags & TCB_HELD))
		return 0;
	if (tracer_regs_sync(t) < 0)
		return tracer_gone_or_error(err, "cannot set the registers of "
					    "thread %d: %s", tid, strerror(errno));
	return 0;
}

int tracer_sync_regs(tracer *tr, pid_t tid)
{
	struct tcb *t = tracer_tcb_find(tr, tid);

	return t ? tracer_regs_sync(t) : 0;
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
	if (tr->attached) {
		tracer_abandon(tr);
		return;
	}
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
		for (size_t i = 1; i < tr->nas; i++)
			kill(tr->as[i]->pid, SIGKILL);
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
				tracer_restart(pid, PTRACE_CONT, 0, NULL);
				continue;
			}
			if (pid == tr->pid)
				break;
		}
	}
	/* Children still attached (not let go yet, or followed: racegate's
	 * breakpoints are in their memory) die with the program. */
	if (tr->nas > 1)
		tracer_kill_followed(tr, false);
	for (size_t i = 0; i < tr->nforks; i++)
		if (!tracer_status_forget(tr, tr->forks[i].pid))
			tracer_kill_and_reap(tr->forks[i].pid);
	tr->nforks = 0;
	for (size_t i = 0; i < tr->ntcbs; i++)
		if ((tr->tcbs[i]->flags & TCB_CHILD) &&
		    !tracer_status_forget(tr, tr->tcbs[i]->tid))
			tracer_kill_and_reap(tr->tcbs[i]->tid);
	tracer_release(tr);
}
