/*
 * explore --jobs J: schedules run J at a time, each in a worker process of
 * its own (explore.h).
 *
 * A tracer reaps with waitpid(-1), so two traced programs cannot share a
 * process (jobs.c says the same for run --jobs): each schedule forks a
 * worker, which runs it under its own session and writes what the search
 * needs back over a pipe as a flat record, then exits.  The parent traces
 * nothing while workers exist; it polls their pipes and reaps them by pid.
 *
 * Results reach the search in schedule order, whatever order the workers
 * end in: a result waits until every schedule before it has been handed
 * over.  So the search sees what one process running the schedules one
 * after another would see, and stops at the same first failure with any J;
 * the workers still running past it are killed, and their schedules never
 * counted.  Killed outright, the parent takes its workers with it
 * (PR_SET_PDEATHSIG), and they their programs (PTRACE_O_EXITKILL).
 */
#include "explore.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interrupt.h"

#define XJOB_MAGIC 0x78723031u   /* "xr01" */

struct xjob {
	pid_t pid;             /* 0: the slot is free */
	int fd;                /* the pipe from the worker, -1 once read to its end */
	long k;                /* which schedule */
	rg_buf in;             /* its record, as read */
	bool ended;            /* read and reaped: waiting its turn */
};

/* ---- the flat record ---- */

static void put(rg_buf *b, const void *p, size_t n)
{
	rg_buf_add(b, (const char *)p, n);
}

static void put_str(rg_buf *b, const char *s)
{
	uint64_t n = s ? strlen(s) + 1 : 0;

	put(b, &n, sizeof(n));
	if (n)
		put(b, s, n - 1);
}

void explore_record_put(rg_buf *b, int rc, const explore_run *r, const explore_dev *devs,
			size_t ndevs)
{
	uint32_t magic = XJOB_MAGIC;

	put(b, &magic, sizeof(magic));
	put(b, &rc, sizeof(rc));
	put(b, &r->fail, sizeof(r->fail));
	put(b, &r->exit_code, sizeof(r->exit_code));
	put(b, &r->signo, sizeof(r->signo));
	put(b, &r->timed_out, sizeof(r->timed_out));
	put(b, &r->flaky_timeout, sizeof(r->flaky_timeout));
	put(b, &r->forked, sizeof(r->forked));
	put(b, &r->npreempt, sizeof(r->npreempt));
	put(b, &r->hash, sizeof(r->hash));
	put(b, &r->nsteps, sizeof(r->nsteps));
	put(b, r->steps, r->nsteps * sizeof(*r->steps));  /* plain values: one binary */
	put(b, &r->nthreads, sizeof(r->nthreads));
	for (size_t i = 0; i < r->nthreads; i++) {
		put(b, &r->threads[i].tid, sizeof(r->threads[i].tid));
		put(b, &r->threads[i].nth, sizeof(r->threads[i].nth));
		put(b, &r->threads[i].proc, sizeof(r->threads[i].proc));
		put(b, &r->threads[i].is_main, sizeof(r->threads[i].is_main));
		put_str(b, r->threads[i].start);
		put_str(b, r->threads[i].runs);
	}
	put_str(b, r->out);
	put_str(b, r->err);
	put(b, &ndevs, sizeof(ndevs));
	put(b, devs, ndevs * sizeof(*devs));
}

struct rd {
	const char *p, *end;
};

static bool get(struct rd *d, void *out, size_t n)
{
	if ((size_t)(d->end - d->p) < n)
		return false;
	memcpy(out, d->p, n);
	d->p += n;
	return true;
}

static bool get_str(struct rd *d, char **out)
{
	uint64_t n;

	*out = NULL;
	if (!get(d, &n, sizeof(n)) || (n && (uint64_t)(d->end - d->p) < n - 1))
		return false;
	if (n) {
		*out = xstrndup(d->p, (size_t)n - 1);
		d->p += n - 1;
	}
	return true;
}

/* 0, or -1 when the record is short or not one (r is then released). */
int explore_record_get(const char *p, size_t n, int *rc, explore_run *r,
		       explore_dev **devs, size_t *ndevs)
{
	struct rd d = { p, p + n };
	uint32_t magic = 0;
	bool ok;

	memset(r, 0, sizeof(*r));
	*devs = NULL;
	*ndevs = 0;
	ok = n && get(&d, &magic, sizeof(magic)) && magic == XJOB_MAGIC &&
	     get(&d, rc, sizeof(*rc)) && get(&d, &r->fail, sizeof(r->fail)) &&
	     get(&d, &r->exit_code, sizeof(r->exit_code)) &&
	     get(&d, &r->signo, sizeof(r->signo)) &&
	     get(&d, &r->timed_out, sizeof(r->timed_out)) &&
	     get(&d, &r->flaky_timeout, sizeof(r->flaky_timeout)) &&
	     get(&d, &r->forked, sizeof(r->forked)) &&
	     get(&d, &r->npreempt, sizeof(r->npreempt)) &&
	     get(&d, &r->hash, sizeof(r->hash)) && get(&d, &r->nsteps, sizeof(r->nsteps)) &&
	     r->nsteps <= (size_t)(d.end - d.p) / sizeof(*r->steps);
	if (ok) {
		r->steps = xcalloc(r->nsteps ? r->nsteps : 1, sizeof(*r->steps));
		ok = get(&d, r->steps, r->nsteps * sizeof(*r->steps)) &&
		     get(&d, &r->nthreads, sizeof(r->nthreads)) &&
		     r->nthreads <= (size_t)(d.end - d.p);
	}
	if (ok) {
		r->threads = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(*r->threads));
		for (size_t i = 0; i < r->nthreads && ok; i++)
			ok = get(&d, &r->threads[i].tid, sizeof(r->threads[i].tid)) &&
			     get(&d, &r->threads[i].nth, sizeof(r->threads[i].nth)) &&
			     get(&d, &r->threads[i].proc, sizeof(r->threads[i].proc)) &&
			     get(&d, &r->threads[i].is_main, sizeof(r->threads[i].is_main)) &&
			     get_str(&d, &r->threads[i].start) &&
			     get_str(&d, &r->threads[i].runs);
	}
	ok = ok && get_str(&d, &r->out) && get_str(&d, &r->err) && get(&d, ndevs, sizeof(*ndevs)) &&
	     *ndevs <= (size_t)(d.end - d.p) / sizeof(**devs);
	if (ok && *ndevs) {
		*devs = xcalloc(*ndevs, sizeof(**devs));
		ok = get(&d, *devs, *ndevs * sizeof(**devs));
	}
	if (!ok) {
		explore_run_release(r);
		free(*devs);
		*devs = NULL;
		*ndevs = 0;
		return -1;
	}
	return 0;
}

/* ---- workers ---- */

void explore_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Forks the worker of schedule k into slot j; false when it cannot. */
static bool start(struct xjob *j, int slot, long k, const explore_jobs_ops *ops, void *ctx)
{
	int fds[2];
	pid_t parent = getpid();

	if (pipe(fds) < 0)
		return false;
	if (ops->before_fork)
		ops->before_fork(ctx, slot);
	fflush(NULL);   /* nothing buffered is written twice */
	j->pid = fork();
	if (j->pid < 0) {
		j->pid = 0;
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (j->pid == 0) {
		explore_run r;
		explore_dev *devs = NULL;
		size_t ndevs = 0;
		rg_buf b = RG_BUF_INIT;
		int rc;

		close(fds[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		rc = ops->run(ctx, k, &r, &devs, &ndevs);
		explore_record_put(&b, rc, &r, devs, ndevs);
		explore_write_all(fds[1], b.s, b.len);
		_exit(0);
	}
	close(fds[1]);
	j->fd = fds[0];
	j->k = k;
	j->ended = false;
	rg_buf_release(&j->in);
	return true;
}

/* Reads what slot j's worker sent; at its end, reaps it. */
static void drain(struct xjob *j)
{
	char buf[65536];
	ssize_t n = read(j->fd, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return;
	if (n > 0) {
		rg_buf_add(&j->in, buf, (size_t)n);
		return;
	}
	close(j->fd);
	j->fd = -1;
	while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR)
		;
	j->ended = true;
}

static void kill_all(struct xjob *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (!v[i].pid)
			continue;
		if (!v[i].ended) {
			kill(v[i].pid, SIGKILL);
			if (v[i].fd >= 0)
				close(v[i].fd);
			while (waitpid(v[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		rg_buf_release(&v[i].in);
		v[i].pid = 0;
	}
}

/* Hands slot j's result to the search; true to stop. */
static bool hand_over(struct xjob *j, const explore_jobs_ops *ops, void *ctx, int *status)
{
	explore_run r;
	explore_dev *devs;
	size_t ndevs;
	int rc;
	bool stop;

	if (explore_record_get(j->in.s, j->in.len, &rc, &r, &devs, &ndevs) < 0) {
		rg_say("a worker of explore --jobs ended without its result "
		       "(schedule %ld)", j->k);
		*status = -1;
		return true;
	}
	if (rc) {
		explore_run_release(&r);
		free(devs);
		*status = rc;
		return true;
	}
	stop = ops->take(ctx, j->k, &r, devs, ndevs);
	rg_buf_release(&j->in);
	j->pid = 0;
	return stop;
}

int explore_jobs_run(int njobs, const explore_jobs_ops *ops, void *ctx)
{
	struct xjob *v = xcalloc((size_t)njobs, sizeof(*v));
	struct pollfd *pf = xcalloc((size_t)njobs + 1, sizeof(*pf));
	long next = 0, turn = 0;
	int status = 0, running = 0;
	bool stop = false;

	for (;;) {
		int np = 0;

		for (int i = 0; i < njobs && !stop && !interrupt_signal(); i++)
			if (!v[i].pid && ops->more(ctx, next)) {
				if (!start(&v[i], i, next, ops, ctx)) {
					rg_say("cannot start a worker of explore --jobs: %s",
					       strerror(errno));
					status = -1;
					stop = true;
					break;
				}
				next++;
				running++;
			}
		if (interrupt_signal()) {
			status = 1;
			break;
		}
		if (stop || !running)
			break;
		/* in schedule order: the one whose turn it is, once it ended */
		for (int i = 0; i < njobs && !stop; i++)
			if (v[i].pid && v[i].ended && v[i].k == turn) {
				stop = hand_over(&v[i], ops, ctx, &status);
				running--;
				turn++;
				np = -1;   /* a slot is free: start the next first */
				i = -1;
			}
		if (stop)
			break;
		if (np < 0)
			continue;
		for (int i = 0; i < njobs; i++)
			if (v[i].pid && !v[i].ended) {
				pf[np].fd = v[i].fd;
				pf[np].events = POLLIN;
				np++;
			}
		/* a signal ends the wait too, not only a worker's end */
		pf[np].fd = interrupt_fd();
		pf[np].events = POLLIN;
		if (np && poll(pf, (nfds_t)np + (pf[np].fd >= 0), -1) < 0 && errno != EINTR) {
			status = -1;
			break;
		}
		for (int i = 0, q = 0; i < njobs; i++)
			if (v[i].pid && !v[i].ended && q < np) {
				if (pf[q].revents)
					drain(&v[i]);
				q++;
			}
	}
	kill_all(v, njobs);   /* past the stop: never counted */
	free(pf);
	free(v);
	return status;
}
