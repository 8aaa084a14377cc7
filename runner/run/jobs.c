/*
 * jobs: runs in parallel, each in a worker process of its own.
 *
 * A tracer reaps with waitpid(-1), so two tracers cannot live in one
 * process: each run forks a worker, which runs the program under its own
 * tracer and writes the result back over a pipe, then exits.  The parent
 * never traces anything while workers exist; it only polls the pipes and
 * reaps its workers by pid.
 *
 * The result crosses the pipe as a flat record (run_result_encode): every
 * field a report reads.  Pointers into the plan (tl_entry.where) do not
 * cross; their text does, and the parent interns it for the session.
 *
 * No worker outlives the parent (interrupt.h): when racegate is
 * interrupted, it starts no more runs, forwards the signal to each worker,
 * whose run then ends as INTERRUPTED with its program killed, and waits
 * for their results, killing any worker still there after WORKER_GRACE_MS.
 * Killed outright, the parent takes its workers with it (PR_SET_PDEATHSIG),
 * and they their programs (PTRACE_O_EXITKILL).
 */
#include "run.h"
#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the flat record ---- */

#define RESULT_MAGIC 0x72673031u   /* "rg01" */

static void put_u64(rg_buf *b, uint64_t v)
{
	rg_buf_add(b, (const char *)&v, sizeof(v));
}

static void put_i64(rg_buf *b, int64_t v)
{
	rg_buf_add(b, (const char *)&v, sizeof(v));
}

static void put_f64(rg_buf *b, double v)
{
	rg_buf_add(b, (const char *)&v, sizeof(v));
}

/* A string: its length + 1 (0 for NULL), then its bytes. */
static void put_strn(rg_buf *b, const char *s, size_t n)
{
	put_u64(b, s ? (uint64_t)n + 1 : 0);
	if (s && n)
		rg_buf_add(b, s, n);
}

static void put_str(rg_buf *b, const char *s)
{
	put_strn(b, s, s ? strlen(s) : 0);
}

void run_result_encode(rg_buf *b, const run_result *r)
{
	size_t i, j;

	put_u64(b, RESULT_MAGIC);
	put_i64(b, r->outcome);
	put_i64(b, r->exited);
	put_i64(b, r->exit_code);
	put_i64(b, r->term_signal);
	put_i64(b, r->core_dumped);
	put_f64(b, r->elapsed_ms);
	put_strn(b, r->out.s, r->out.len);
	put_strn(b, r->err.s, r->err.len);
	put_u64(b, r->ntl);
	for (i = 0; i < r->ntl; i++) {
		const tl_entry *e = &r->tl[i];

		put_f64(b, e->t_ms);
		put_i64(b, e->tid);
		put_i64(b, e->pid);
		put_str(b, e->who);
		put_str(b, e->where);
		put_str(b, e->gate);
		put_str(b, e->what);
		put_i64(b, e->kind);
		put_i64(b, e->gate_index);
		put_str(b, e->event);
		put_f64(b, e->held_ms);
	}
	put_u64(b, r->tl_dropped);
	put_str(b, r->note);
	put_u64(b, r->ndiag);
	for (i = 0; i < r->ndiag; i++) {
		const diag_thread *d = &r->diag[i];

		put_i64(b, d->tid);
		put_i64(b, d->pid);
		put_str(b, d->label);
		put_str(b, d->state);
		put_str(b, d->where);
		put_u64(b, d->nbacktrace);
		for (j = 0; j < d->nbacktrace; j++)
			put_str(b, d->backtrace[j]);
	}
	put_str(b, r->chain);
	put_u64(b, r->ngates);
	for (i = 0; i < r->ngates; i++) {
		put_i64(b, r->gate_reached ? r->gate_reached[i] : 0);
		put_i64(b, r->gate_timed_out ? r->gate_timed_out[i] : 0);
	}
	put_u64(b, r->arrivals);
	put_u64(b, r->bp_hits);
	put_u64(b, r->bp_disarmed);
	put_strn(b, r->warnings.s, r->warnings.len);
	/* when: counts, per gate */
	for (i = 0; i < r->ngates; i++) {
		put_u64(b, r->when_false ? r->when_false[i] : 0);
		put_u64(b, r->when_faults ? r->when_faults[i] : 0);
		put_str(b, r->when_fault ? r->when_fault[i] : NULL);
	}
	put_u64(b, r->nunbound);
	for (i = 0; i < r->nunbound; i++)
		put_str(b, r->unbound[i]);
	put_u64(b, RESULT_MAGIC);
}

struct reader {
	const char *s;
	size_t len, off;
	bool bad;
};

static void get_raw(struct reader *rd, void *v, size_t n)
{
	if (rd->bad || rd->len - rd->off < n) {
		rd->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, rd->s + rd->off, n);
	rd->off += n;
}

static uint64_t get_u64(struct reader *rd)
{
	uint64_t v;

	get_raw(rd, &v, sizeof(v));
	return v;
}

static int64_t get_i64(struct reader *rd)
{
	int64_t v;

	get_raw(rd, &v, sizeof(v));
	return v;
}

static double get_f64(struct reader *rd)
{
	double v;

	get_raw(rd, &v, sizeof(v));
	return v;
}

/* A count of items of at least min_size bytes each, bounded by what is left. */
static size_t get_count(struct reader *rd, size_t min_size)
{
	uint64_t n = get_u64(rd);

	if (rd->bad || n > (rd->len - rd->off) / min_size) {
		rd->bad = true;
		return 0;
	}
	return (size_t)n;
}

/* Returns a new string (NULL for NULL); *n its length. */
static char *get_strn(struct reader *rd, size_t *n)
{
	uint64_t l = get_u64(rd);
	char *s;

	if (n)
		*n = 0;
	if (rd->bad || l == 0)
		return NULL;
	if (l - 1 > rd->len - rd->off) {
		rd->bad = true;
		return NULL;
	}
	s = xstrndup(rd->s + rd->off, (size_t)(l - 1));
	rd->off += (size_t)(l - 1);
	if (n)
		*n = (size_t)(l - 1);
	return s;
}

static char *get_str(struct reader *rd)
{
	return get_strn(rd, NULL);
}

static void get_buf(struct reader *rd, rg_buf *b)
{
	size_t n;
	char *s = get_strn(rd, &n);

	if (s) {
		rg_buf_add(b, s, n);
		free(s);
	}
}

int run_result_decode(const char *s, size_t len, run_result *r,
		      const char *(*intern)(void *ctx, const char *s), void *ctx)
{
	struct reader rd = { s, len, 0, false };
	size_t i, j;

	memset(r, 0, sizeof(*r));
	r->exit_code = -1;
	if (get_u64(&rd) != RESULT_MAGIC)
		return -1;
	r->outcome = (enum run_outcome)get_i64(&rd);
	if (r->outcome < OUT_REPRODUCED || r->outcome > OUT_ERROR)
		rd.bad = true;
	r->exited = get_i64(&rd) != 0;
	r->exit_code = (int)get_i64(&rd);
	r->term_signal = (int)get_i64(&rd);
	r->core_dumped = get_i64(&rd) != 0;
	r->elapsed_ms = get_f64(&rd);
	get_buf(&rd, &r->out);
	get_buf(&rd, &r->err);
	r->ntl = get_count(&rd, 80);
	r->captl = r->ntl;
	r->tl = r->ntl ? xcalloc(r->ntl, sizeof(*r->tl)) : NULL;
	for (i = 0; i < r->ntl; i++) {
		tl_entry *e = &r->tl[i];
		char *where, *gate;

		e->t_ms = get_f64(&rd);
		e->tid = (pid_t)get_i64(&rd);
		e->pid = (pid_t)get_i64(&rd);
		e->who = get_str(&rd);
		where = get_str(&rd);
		gate = get_str(&rd);
		e->what = get_str(&rd);
		e->kind = (int)get_i64(&rd);
		e->gate_index = (int)get_i64(&rd);
		e->event = get_str(&rd);
		e->held_ms = get_f64(&rd);
		/* where and gate are borrowed in a run_result: the session owns them */
		e->where = where ? intern(ctx, where) : NULL;
		e->gate = gate ? intern(ctx, gate) : NULL;
		free(where);
		free(gate);
		if (!e->who)
			e->who = xstrdup("?");
		if (!e->what)
			e->what = xstrdup("");
	}
	r->tl_dropped = get_u64(&rd);
	r->note = get_str(&rd);
	r->ndiag = get_count(&rd, 40);
	r->diag = r->ndiag ? xcalloc(r->ndiag, sizeof(*r->diag)) : NULL;
	for (i = 0; i < r->ndiag; i++) {
		diag_thread *d = &r->diag[i];

		d->tid = (pid_t)get_i64(&rd);
		d->pid = (pid_t)get_i64(&rd);
		d->label = get_str(&rd);
		d->state = get_str(&rd);
		d->where = get_str(&rd);
		d->nbacktrace = get_count(&rd, 8);
		d->backtrace = d->nbacktrace ?
			xcalloc(d->nbacktrace, sizeof(char *)) : NULL;
		for (j = 0; j < d->nbacktrace; j++)
			d->backtrace[j] = get_str(&rd);
	}
	r->chain = get_str(&rd);
	r->ngates = get_count(&rd, 16);
	r->gate_reached = xcalloc(r->ngates, sizeof(bool));
	r->gate_timed_out = xcalloc(r->ngates, sizeof(bool));
	for (i = 0; i < r->ngates; i++) {
		r->gate_reached[i] = get_i64(&rd) != 0;
		r->gate_timed_out[i] = get_i64(&rd) != 0;
	}
	r->arrivals = get_u64(&rd);
	r->bp_hits = get_u64(&rd);
	r->bp_disarmed = get_u64(&rd);
	get_buf(&rd, &r->warnings);
	r->when_false = xcalloc(r->ngates ? r->ngates : 1, sizeof(size_t));
	r->when_faults = xcalloc(r->ngates ? r->ngates : 1, sizeof(size_t));
	r->when_fault = xcalloc(r->ngates ? r->ngates : 1, sizeof(char *));
	for (i = 0; i < r->ngates; i++) {
		r->when_false[i] = get_u64(&rd);
		r->when_faults[i] = get_u64(&rd);
		r->when_fault[i] = get_str(&rd);
	}
	r->nunbound = get_count(&rd, 8);
	r->unbound = r->nunbound ? xcalloc(r->nunbound, sizeof(char *)) : NULL;
	for (i = 0; i < r->nunbound; i++)
		if (!(r->unbound[i] = get_str(&rd)))
			r->unbound[i] = xstrdup("?");
	if (get_u64(&rd) != RESULT_MAGIC || rd.off != rd.len)
		rd.bad = true;
	return rd.bad ? -1 : 0;
}

/* ---- workers ---- */

#define WORKER_GRACE_MS 10000   /* after an interrupt, before SIGKILL */

struct slot {
	pid_t pid;             /* 0: free */
	bool told;             /* the interrupting signal forwarded to it */
	int fd;                /* read end of the result pipe */
	long no;
	double start_ms;
	rg_buf data;
};

struct jobs {
	plan *p;
	const run_opts *o;
	int njobs;
	struct slot *slots;
	char **strings;        /* interned tl_entry.where / gate texts */
	size_t nstrings, capstrings;
	struct timespec t0;
};

jobs *jobs_new(plan *p, const run_opts *o, int njobs)
{
	jobs *j = xcalloc(1, sizeof(*j));

	j->p = p;
	j->o = o;
	j->njobs = njobs < 1 ? 1 : njobs;
	j->slots = xcalloc((size_t)j->njobs, sizeof(*j->slots));
	clock_gettime(CLOCK_MONOTONIC, &j->t0);
	return j;
}

void jobs_free(jobs *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->nstrings; i++)
		free(j->strings[i]);
	free(j->strings);
	for (i = 0; i < (size_t)j->njobs; i++)
		rg_buf_release(&j->slots[i].data);
	free(j->slots);
	free(j);
}

static const char *intern(void *ctx, const char *s)
{
	jobs *j = ctx;
	size_t i;

	for (i = 0; i < j->nstrings; i++)
		if (!strcmp(j->strings[i], s))
			return j->strings[i];
	RG_GROW(j->strings, j->nstrings + 1, j->capstrings);
	j->strings[j->nstrings] = xstrdup(s);
	return j->strings[j->nstrings++];
}

static double since_start(const jobs *j)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - j->t0.tv_sec) * 1e3 +
	       (double)(t.tv_nsec - j->t0.tv_nsec) / 1e6;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void error_result(run_result *r, size_t ngates, char *note)
{
	memset(r, 0, sizeof(*r));
	r->outcome = OUT_ERROR;
	r->exit_code = -1;
	r->note = note;
	r->ngates = ngates;
	r->gate_reached = xcalloc(ngates, sizeof(bool));
	r->gate_timed_out = xcalloc(ngates, sizeof(bool));
}

/* Forks the worker for run no into slot s; on failure reports an ERROR run. */
static int spawn(jobs *j, struct slot *s, long no)
{
	int fds[2];
	pid_t pid;
	int k;

	pid_t leader = getpid();
	sigset_t old;
	int e;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	interrupt_hold(&old);
	pid = fork();
	e = errno;
	if (pid != 0)
		interrupt_release(&old);
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		run_result r;
		rg_buf b = RG_BUF_INIT;
		rg_err err = RG_ERR_INIT;

		close(fds[0]);
		for (k = 0; k < j->njobs; k++)
			if (j->slots[k].pid > 0)
				close(j->slots[k].fd);
		signal(SIGPIPE, SIG_IGN);
		if (interrupt_worker(leader, &err) < 0)
			error_result(&r, j->p->sp->ngates, xstrdup(err.msg));
		interrupt_release(&old);
		if (!err.msg[0])
			run_once(j->p, j->o, &r);
		run_result_encode(&b, &r);
		write_all(fds[1], b.s, b.len);
		/* no exit handlers, no stdio flush: they are the parent's */
		_exit(0);
	}
	close(fds[1]);
	s->pid = pid;
	s->told = false;
	s->fd = fds[0];
	s->no = no;
	s->start_ms = since_start(j);
	s->data.len = 0;
	return 0;
}

/* The worker in s is done (its pipe closed): reap it and decode its result. */
static void collect(jobs *j, struct slot *s, run_result *r)
{
	int st = 0;
	pid_t w;

	close(s->fd);
	s->fd = -1;
	while ((w = waitpid(s->pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (run_result_decode(s->data.s, s->data.len, r, intern, j) < 0) {
		run_result_release(r);
		if (w > 0 && WIFSIGNALED(st))
			error_result(r, j->p->sp->ngates,
				     xasprintf("the worker process of run %ld was "
					       "killed by %s", s->no,
					       strsignal(WTERMSIG(st))));
		else
			error_result(r, j->p->sp->ngates,
				     xasprintf("the worker process of run %ld sent "
					       "no result", s->no));
	}
	s->pid = 0;
}

static long run_inline(jobs *j, long n, jobs_done_fn done, void *ctx)
{
	long i;

	for (i = 1; i <= n; i++) {
		run_result r;
		double start = since_start(j);

		if (interrupt_signal())
			return i - 1;
		fflush(stdout);
		fflush(stderr);
		run_once(j->p, j->o, &r);
		if (done(ctx, i, start, &r))
			return i;
	}
	return n;
}

/*
 * racegate was interrupted: tell each worker once (its run then ends as
 * INTERRUPTED and it sends that back), and kill those that have not
 * answered by the deadline.  Returns how long poll may sleep (ms).
 */
static int tell_workers(jobs *j, double *deadline)
{
	double now = since_start(j);
	int k;

	if (*deadline < 0)
		*deadline = now + WORKER_GRACE_MS;
	for (k = 0; k < j->njobs; k++) {
		struct slot *s = &j->slots[k];

		if (!s->pid)
			continue;
		if (!s->told) {
			kill(s->pid, interrupt_signal());
			s->told = true;
		} else if (now >= *deadline) {
			kill(s->pid, SIGKILL);   /* its pipe closes: collected below */
		}
	}
	return now >= *deadline ? 100 : (int)(*deadline - now) + 1;
}

/* Reads what the worker in s sent; true when it is done (collected into *res). */
static bool read_worker(jobs *j, struct slot *s, run_result *res)
{
	char buf[65536];
	ssize_t r = read(s->fd, buf, sizeof(buf));

	if (r > 0) {
		rg_buf_add(&s->data, buf, (size_t)r);
		return false;
	}
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return false;
	collect(j, s, res);
	return true;
}

long jobs_run(jobs *j, long n, jobs_done_fn done, void *ctx)
{
	long next = 1;
	int active = 0, k;
	bool stop = false;
	double deadline = -1;   /* for workers to answer an interrupt */

	if (j->njobs == 1)
		return run_inline(j, n, done, ctx);
	while (active > 0 || (!stop && next <= n)) {
		struct pollfd *pfd = xcalloc((size_t)j->njobs + 1, sizeof(*pfd));
		int map[65], npfd = 0, wait_ms = -1;

		if (interrupt_signal()) {
			stop = true;
			wait_ms = tell_workers(j, &deadline);
		}
		for (k = 0; k < j->njobs && !stop && next <= n; k++) {
			struct slot *s = &j->slots[k];

			if (s->pid)
				continue;
			if (spawn(j, s, next) < 0) {
				run_result r;

				error_result(&r, j->p->sp->ngates,
					     xasprintf("cannot start a worker process "
						       "for run %ld: %s", next,
						       strerror(errno)));
				stop = done(ctx, next++, since_start(j), &r);
				continue;
			}
			next++;
			active++;
		}
		for (k = 0; k < j->njobs && npfd < 64; k++)
			if (j->slots[k].pid) {
				map[npfd] = k;
				pfd[npfd++] = (struct pollfd){ .fd = j->slots[k].fd,
							       .events = POLLIN };
			}
		if (interrupt_signal() && !stop) {
			wait_ms = 0;    /* it came since the top of the loop: act now */
		} else if (!interrupt_signal() && interrupt_fd() >= 0) {
			map[npfd] = -1;
			pfd[npfd++] = (struct pollfd){ .fd = interrupt_fd(),
						       .events = POLLIN };
		}
		if (npfd && poll(pfd, (nfds_t)npfd, wait_ms) < 0 && errno != EINTR) {
			free(pfd);
			break;
		}
		for (k = 0; k < npfd; k++) {
			run_result res;

			if (!pfd[k].revents || map[k] < 0)
				continue;
			if (read_worker(j, &j->slots[map[k]], &res)) {
				active--;
				if (done(ctx, j->slots[map[k]].no,
					 j->slots[map[k]].start_ms, &res))
					stop = true;
			}
		}
		free(pfd);
	}
	return next - 1;
}
