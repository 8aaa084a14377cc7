/*
 * One traced run: spawn, arm, and the event loop.
 *
 * The loop has two halves, as strace's: the tracer turns wait statuses into
 * events; the gate engine decides.  This file only connects them: it maps a
 * breakpoint address to the gates there, tells the engine who arrived, and
 * restarts the threads the engine releases.
 *
 * Besides the gates, two breakpoints of racegate's own are armed:
 *  - the program's entry point: when it is reached, the dynamic linker has
 *    mapped the libraries the program was linked with, so the thread
 *    library's pthread_create can be found;
 *  - pthread_create: its third argument is the new thread's start routine
 *    (for std::thread, its fourth names the callable: starts.c), which is
 *    how {start: worker} selectors know a thread.  The clone that
 *    follows in the same thread tells the new thread's id.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diagnose.h"
#include "intmap.h"
#include "gates.h"
#include "interrupt.h"
#include "objects.h"
#include "starts.h"
#include "tracer.h"

#define TL_MAX 20000    /* timeline entries kept per run; later ones are counted */
#define NAME_POLL_MS 20 /* thread names are read again this often while threads are held */

struct thr {
	pid_t tid;
	const plan_bp *at;     /* where it last arrived at a gate location */
	char *start;           /* start routine, or NULL */
	size_t npast;          /* lines the tracer watches it get past (then_open pending) */
};

struct pending_start {
	pid_t creator;         /* thread inside pthread_create */
	char *start;           /* its start routine */
};

/* Bookkeeping of one bounded output capture (see capture()). */
struct capped {
	size_t dropped;        /* bytes of output not kept */
	size_t mark;           /* length of the marker after the head, 0 if none */
};

struct run_ctx {
	plan *p;
	const run_opts *o;
	run_result *res;
	tracer *tr;
	gate_engine *eng;
	struct timespec t0;
	run_bias bt;           /* this run's object -> load bias table */

	uint64_t entry;        /* run-time entry point (own breakpoint), 0 when done */
	uint64_t *ptc;         /* run-time pthread_create addresses */
	size_t nptc;

	struct pending_start *pend;
	size_t npend, cappend;
	struct thr *thr;
	size_t nthr, capthr;
	rg_intmap thr_ix;      /* tid -> index in thr of the latest thread with it */
	size_t nlive;

	pid_t *release;        /* threads the engine released, to restart */
	size_t nrelease, caprelease;

	/* the last ARRIVE line, which a following OPEN/HOLD of the same arrival replaces */
	size_t arrive_idx;
	pid_t arrive_tid;
	int arrive_gate;

	int outfd, errfd;      /* read ends of the capture pipes, or -1 */
	bool stuck, infeasible, timed_out, killed, failed;
	double next_gate;      /* the next gate timeout (ms), or -1 */
	struct capped out_cap, err_cap; /* see capture() */
	bool deadlock;         /* stuck with no thread held: the program's own deadlock */
	bool kept;             /* left stopped and detached (--keep-stopped) */
	pid_t kept_pid;
	stall_watch *stall;    /* is every thread held or blocked for ever? */
	bool names;            /* the spec selects threads by name: keep learning them */
	run_locs *locs;        /* shared objects and FUNCTION:return (objects.h), or NULL */
	int interrupted;       /* the signal that ended the run (interrupt.h), or 0 */
};

static double now_ms(const struct run_ctx *c)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - c->t0.tv_sec) * 1e3 +
	       (double)(t.tv_nsec - c->t0.tv_nsec) / 1e6;
}

static struct thr *thr_find(struct run_ctx *c, pid_t tid)
{
	size_t *i = rg_intmap_get(&c->thr_ix, (uint64_t)(uint32_t)tid);

	return i ? &c->thr[*i] : NULL;
}

static struct thr *thr_add(struct run_ctx *c, pid_t tid, char *start)
{
	struct thr *t;

	RG_GROW(c->thr, c->nthr + 1, c->capthr);
	*rg_intmap_ref(&c->thr_ix, (uint64_t)(uint32_t)tid, 0) = c->nthr;
	t = &c->thr[c->nthr++];
	t->tid = tid;
	t->at = NULL;
	t->start = start;
	t->npast = 0;
	return t;
}

static void tl_add(struct run_ctx *c, const gate_note *n, const char *where,
		   const char *gate, char *what)
{
	run_result *r = c->res;
	tl_entry *e;

	if (r->ntl >= TL_MAX) {
		r->tl_dropped++;
		free(what);
		return;
	}
	RG_GROW(r->tl, r->ntl + 1, r->captl);
	e = &r->tl[r->ntl++];
	e->t_ms = n->t_ms;
	e->tid = n->tid;
	e->who = xstrdup(gate_thread_label(c->eng, n->tid));
	e->where = where;
	e->gate = gate;
	e->what = what;
	e->kind = (int)n->kind;
	e->gate_index = n->gate;
	e->event = n->event ? xstrdup(n->event) : NULL;
	e->held_ms = n->held_ms;
}

/* Does any gate wait for event?  (Built-in events nobody waits for are noise.) */
static bool waited_for(const spec *sp, const char *event)
{
	size_t i, j;

	for (i = 0; i < sp->ngates; i++)
		for (j = 0; j < sp->gates[i].wait.n; j++)
			if (!strcmp(sp->gates[i].wait.v[j], event))
				return true;
	return false;
}

static void on_note(void *ctx, const gate_note *n)
{
	struct run_ctx *c = ctx;
	struct thr *t = thr_find(c, n->tid);
	const char *where = t && t->at ? t->at->where : NULL;
	const char *gate = n->gate >= 0 ? c->p->sp->gates[n->gate].name : NULL;
	char *what = NULL;
	bool replaces_arrive = false;

	switch (n->kind) {
	case GATE_NOTE_ARRIVE:
		c->arrive_idx = c->res->ntl;
		c->arrive_tid = n->tid;
		c->arrive_gate = n->gate;
		c->res->arrivals++;
		tl_add(c, n, where, gate, xstrdup("passed"));
		return;
	case GATE_NOTE_OPEN:
		if (n->gate < 0 && !waited_for(c->p->sp, n->event))
			return;
		what = xasprintf("opened %s", n->event);
		replaces_arrive = true;
		break;
	case GATE_NOTE_HOLD:
		what = xasprintf("held: %s", n->text ? n->text : "");
		replaces_arrive = true;
		break;
	case GATE_NOTE_RELEASE:
	case GATE_NOTE_TIMEOUT:
		what = xasprintf("%s after %.3f ms",
				 n->kind == GATE_NOTE_RELEASE ? "released" :
				 "released by its timeout", n->held_ms);
		RG_GROW(c->release, c->nrelease + 1, c->caprelease);
		c->release[c->nrelease++] = n->tid;
		break;
	case GATE_NOTE_BIND:
		if (n->gate < 0)
			return;   /* a threads: alias: the label says it already */
		what = xasprintf("is now '%s'", n->alias);
		break;
	}
	if (replaces_arrive && c->arrive_idx < c->res->ntl &&
	    c->arrive_tid == n->tid && c->arrive_gate == n->gate &&
	    !strcmp(c->res->tl[c->arrive_idx].what, "passed")) {
		tl_entry *e = &c->res->tl[c->arrive_idx];

		free(e->what);
		e->what = what;
		e->kind = (int)n->kind;
		e->event = n->event ? xstrdup(n->event) : NULL;
		return;
	}
	if (n->kind == GATE_NOTE_OPEN && n->gate < 0)
		where = NULL;
	tl_add(c, n, where, gate, what);
}

/*
 * Restarts tid.  When the arrival it was just released from (or passed)
 * left then_open events pending, the tracer watches it get past the gated
 * line first (TRACER_EV_RANGE_DONE, then gate_passed); with no line to
 * watch, they open now.  Threads that releases go on c->release.
 */
static void resume(struct run_ctx *c, pid_t tid)
{
	struct thr *t = thr_find(c, tid);
	rg_err err = RG_ERR_INIT;
	int rc;

	if (!t || gate_pass_depth(c->eng, tid) <= t->npast)
		rc = tracer_resume(c->tr, tid, &err);
	else if ((rc = run_resume_past(c->p, c->tr, &c->bt, tid, t->at, &err)) == 0)
		t->npast++;
	else if (rc > 0)
		gate_passed(c->eng, tid, now_ms(c));
	if (rc < 0 && !c->failed) {
		c->failed = true;
		c->res->note = xasprintf("cannot restart thread %d: %s", (int)tid,
					 err.msg);
	}
}

/* Restarts every thread the engine released since the last call. */
static void restart_released(struct run_ctx *c)
{
	size_t i;

	/* resume() may release more: they are appended, and restarted here too */
	for (i = 0; i < c->nrelease; i++)
		resume(c, c->release[i]);
	c->nrelease = 0;
}

/* The names of the program's threads now: {name: NAME} selectors bind on them. */
static void learn_names(struct run_ctx *c)
{
	char comm[64];
	size_t i;

	for (i = 0; i < c->nthr; i++)
		if (run_thread_comm(tracer_pid(c->tr), c->thr[i].tid, comm,
				    sizeof(comm)) == 0)
			gate_thread_named(c->eng, c->thr[i].tid, comm, now_ms(c));
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void arm(struct run_ctx *c, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;

	if (tracer_insert_bp(c->tr, addr, &err) < 0 && !c->failed) {
		c->failed = true;
		c->res->note = xasprintf("cannot set a breakpoint at 0x%llx: %s",
					 (unsigned long long)addr, err.msg);
	}
}

static void add_ptc(struct run_ctx *c, uint64_t a)
{
	size_t i;

	for (i = 0; i < c->nptc; i++)
		if (c->ptc[i] == a)
			return;
	c->ptc = xrealloc(c->ptc, (c->nptc + 1) * sizeof(*c->ptc));
	c->ptc[c->nptc++] = a;
	arm(c, a);
}

/*
 * At the program's entry point the libraries it was linked with are
 * mapped: find the thread library's pthread_create in each of them.
 * (Libraries opened later with dlopen are not looked at here.)
 */
static void at_entry(struct run_ctx *c)
{
	tracer_map *maps = NULL;
	size_t n = 0, i, j;
	rg_err err = RG_ERR_INIT;

	if (tracer_maps(c->tr, &maps, &n, &err) < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *b;
		dwarfx *dx;
		uint64_t addrs[4];
		size_t na;

		if (!maps[i].path || maps[i].offset != 0)
			continue;
		b = basename_of(maps[i].path);
		if (strncmp(b, "libc.so", 7) && strncmp(b, "libc-", 5) &&
		    strncmp(b, "libpthread", 10))
			continue;
		dx = plan_object(c->p, maps[i].path);
		if (!dx)
			continue;
		na = dwarfx_symbol_addrs(dx, "pthread_create", addrs, 4);
		for (j = 0; j < na && j < 4; j++)
			add_ptc(c, maps[i].start - dwarfx_load_base(dx) + addrs[j]);
	}
	tracer_maps_free(maps, n);
}

static bool is_ptc(const struct run_ctx *c, uint64_t a)
{
	size_t i;

	for (i = 0; i < c->nptc; i++)
		if (c->ptc[i] == a)
			return true;
	return false;
}

static void on_pthread_create(struct run_ctx *c, pid_t tid)
{
	struct user_regs_struct regs;
	rg_err err = RG_ERR_INIT;
	struct pending_start *ps = NULL;
	size_t i;

	if (tracer_get_regs(c->tr, tid, &regs, &err) < 0)
		return;
	for (i = 0; i < c->npend; i++)
		if (c->pend[i].creator == tid)
			ps = &c->pend[i];
	if (!ps) {
		RG_GROW(c->pend, c->npend + 1, c->cappend);
		ps = &c->pend[c->npend++];
		ps->creator = tid;
	} else {
		free(ps->start);
	}
	/* pthread_create(thread, attr, start_routine, arg) */
	ps->start = starts_name(c->p, c->tr, c->bt.exe, tracer_call_arg(&regs, 2),
				tracer_call_arg(&regs, 3));
}

static char *take_pending_start(struct run_ctx *c, pid_t creator)
{
	size_t i;

	for (i = 0; i < c->npend; i++)
		if (c->pend[i].creator == creator) {
			char *s = c->pend[i].start;

			c->pend[i] = c->pend[--c->npend];
			return s;
		}
	return NULL;
}

/*
 * A hot loop should pay for a gate only while the gate matters: once no gate
 * at bp can act on a future arrival (gate_live: once and done, waits whose
 * events are all open, ...), its int3 is taken out.  A thread that trapped
 * on it meanwhile is rewound silently by the tracer.  racegate's own
 * breakpoints (entry, pthread_create) at the same address stay.
 */
/* Is addr one of the breakpoints this file arms, which objects.c must leave in? */
static bool own_busy(void *ctx, uint64_t addr)
{
	struct run_ctx *c = ctx;

	return plan_find(c->p, run_bias_exe_site(&c->bt, addr).link_addr) ||
	       (c->entry && addr == c->entry) ||
	       is_ptc(c, addr);
}

static void locs_failed(struct run_ctx *c, const rg_err *err)
{
	if (!c->failed) {
		c->failed = true;
		c->res->note = xstrdup(err->msg);
	}
}

static void disarm_if_dead(struct run_ctx *c, const plan_bp *bp, uint64_t addr)
{
	rg_err err = RG_ERR_INIT;
	size_t i;

	for (i = 0; i < bp->ngates; i++)
		if (gate_live(c->eng, bp->gates[i]))
			return;
	if ((c->entry && addr == c->entry) || is_ptc(c, addr) ||
	    run_locs_busy(c->locs, addr))
		return;
	if (tracer_remove_bp(c->tr, addr, &err) == 0)
		c->res->bp_disarmed++;
}

static void on_breakpoint(struct run_ctx *c, pid_t tid, uint64_t addr)
{
	const plan_bp *bp = plan_find(c->p, run_bias_exe_site(&c->bt, addr).link_addr);

	if (c->entry && addr == c->entry) {
		rg_err err = RG_ERR_INIT;

		at_entry(c);
		if (run_locs_at_entry(c->locs, &err) < 0)
			locs_failed(c, &err);
		if (!bp && !run_locs_busy(c->locs, c->entry))
			tracer_remove_bp(c->tr, c->entry, &err);
		c->entry = 0;
	}
	if (is_ptc(c, addr))
		on_pthread_create(c, tid);
	if (c->locs) {
		rg_err err = RG_ERR_INIT;

		if (run_locs_on_breakpoint(c->locs, tid, addr, &bp, &err) < 0)
			locs_failed(c, &err);
	}
	if (bp) {
		struct thr *t = thr_find(c, tid);
		bool held;

		if (!t)
			t = thr_add(c, tid, NULL);
		t->at = bp;
		c->res->bp_hits++;
		if (c->names)
			learn_names(c);
		held = gate_arrive(c->eng, tid, bp->gates, bp->ngates, now_ms(c));
		restart_released(c);
		disarm_if_dead(c, bp, addr);
		if (held)
			return;
	}
	/* racegate's own breakpoints, and ones no longer known: go on */
	resume(c, tid);
	restart_released(c);
}

static int find_bias(struct run_ctx *c, rg_err *err);

/*
 * The program called exec: the breakpoints went with the old image, and
 * the new one gets none (its code is another program's, or this one's at
 * a new place).  The run goes on, and the new image's exit and output are
 * what is judged.  What pointed into the old image is forgotten; the load
 * bias is found again for a diagnosis to name places in the new image
 * when it is the same executable.
 */
static void on_exec(struct run_ctx *c)
{
	rg_err err = RG_ERR_INIT;
	size_t i;

	c->entry = 0;
	c->nptc = 0;
	for (i = 0; i < c->npend; i++)
		free(c->pend[i].start);
	c->npend = 0;
	find_bias(c, &err);   /* another executable: nothing of it is looked up */
}

static void dispatch(struct run_ctx *c, const tracer_event *ev)
{
	double t = now_ms(c);

	switch (ev->kind) {
	case TRACER_EV_BREAKPOINT:
		on_breakpoint(c, ev->tid, ev->addr);
		break;
	case TRACER_EV_THREAD_NEW: {
		char *start = take_pending_start(c, ev->parent);

		thr_add(c, ev->tid, start);
		c->nlive++;
		gate_thread_started(c->eng, ev->tid, start, false, t);
		restart_released(c);
		resume(c, ev->tid);
		break;
	}
	case TRACER_EV_THREAD_EXIT: {
		struct thr *th = thr_find(c, ev->tid);

		if (th)
			th->npast = 0;   /* the engine opens what it had not got past */
		if (c->nlive)
			c->nlive--;
		run_locs_thread_exited(c->locs, ev->tid);
		gate_thread_exited(c->eng, ev->tid, t);
		restart_released(c);
		break;
	}
	case TRACER_EV_EXIT:
		c->res->exited = !c->killed;
		c->res->exit_code = ev->exit_code;
		c->res->term_signal = ev->term_signal;
		c->res->core_dumped = ev->core_dumped;
		c->nlive = 0;
		break;
	case TRACER_EV_EXEC:
		on_exec(c);
		break;
	case TRACER_EV_RANGE_DONE: {
		struct thr *th = thr_find(c, ev->tid);

		/* the thread has got past its gated line: its then_open opens */
		if (th && th->npast)
			th->npast--;
		c->arrive_idx = (size_t)-1;   /* a line of its own, at its own time */
		gate_passed(c->eng, ev->tid, t);
		restart_released(c);
		break;
	}
	case TRACER_EV_SIGNAL:
	case TRACER_EV_FORK:
		break;
	}
}

/*
 * Captured output is bounded: a chatty program run a thousand times must
 * not take racegate's memory with it.  Past OUT_KEEP bytes, the first
 * OUT_HEAD and the latest bytes are kept with a marker between them (what
 * expect: looks for is usually at the start or the end).  Trimming only
 * when twice the bound is reached keeps it cheap.
 */
#define OUT_KEEP (8u << 20)
#define OUT_HEAD (1u << 20)

static void capture(rg_buf *b, const char *s, size_t n, struct capped *k)
{
	rg_buf_add(b, s, n);
	if (b->len > 2 * OUT_KEEP) {
		size_t tail = OUT_KEEP - OUT_HEAD;
		size_t cut = b->len - OUT_HEAD - tail;
		char mark[96];
		int m;

		k->dropped += cut - k->mark;   /* the old marker was not output */
		m = snprintf(mark, sizeof(mark), "\n[racegate: %zu bytes of output "
			     "not kept]\n", k->dropped);
		k->mark = (size_t)m;
		memmove(b->s + OUT_HEAD + m, b->s + b->len - tail, tail);
		memcpy(b->s + OUT_HEAD, mark, (size_t)m);
		b->len = OUT_HEAD + (size_t)m + tail;
		b->s[b->len] = '\0';
	}
}

static void drain_fd(struct run_ctx *c, int *fd, rg_buf *b, int to)
{
	char buf[65536];
	ssize_t n;

	while (*fd >= 0) {
		n = read(*fd, buf, sizeof(buf));
		if (n > 0) {
			capture(b, buf, (size_t)n, b == &c->res->out ?
				&c->out_cap : &c->err_cap);
			if (c->o->passthrough) {
				ssize_t off = 0;

				while (off < n) {
					ssize_t w = write(to, buf + off, (size_t)(n - off));
					if (w <= 0)
						break;
					off += w;
				}
			}
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		close(*fd);   /* EOF or error */
		*fd = -1;
	}
}

static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	return 0;
}

/* Fills the run's diagnosis (diagnose.c); unwinding stops every thread. */
static void diagnose_now(struct run_ctx *c, bool unwind)
{
	diag_input in;
	pid_t *tids = xcalloc(c->nthr + 1, sizeof(*tids));
	const plan_bp **at = xcalloc(c->nthr + 1, sizeof(*at));
	size_t i;

	for (i = 0; i < c->nthr; i++) {
		tids[i] = c->thr[i].tid;
		at[i] = c->thr[i].at;
	}
	memset(&in, 0, sizeof(in));
	in.p = c->p;
	in.tr = c->tr;
	in.eng = c->eng;
	in.bias = c->bt.exe;
	in.tids = tids;
	in.at = at;
	in.ntids = c->nthr;
	in.unwind = unwind;
	diagnose(&in, c->res);
	free(tids);
	free(at);
}

/* A verdict ends the run: say why, then kill the program or leave it stopped. */
static void end_run(struct run_ctx *c)
{
	rg_err err = RG_ERR_INIT;

	diagnose_now(c, true);
	if (c->o->keep_stopped) {
		pid_t pid = tracer_pid(c->tr);

		if (tracer_detach_stopped(c->tr, &err) == 0) {
			c->kept = true;
			c->killed = true;
			c->kept_pid = pid;
			return;
		}
		c->res->note = xasprintf("cannot leave the program stopped: %s", err.msg);
	}
	tracer_kill(c->tr);
	c->killed = true;
}

/*
 * Every live thread is held at a gate or blocked for ever, and nothing
 * changed for the quiet period (diagnose.c).  Only a gate timeout could
 * still change that, so none may be pending (next_gate_deadline < 0).
 */
static void check_stall(struct run_ctx *c, double t, double next_gate_deadline,
			double *next_check)
{
	if (next_gate_deadline >= 0) {
		stall_touch(c->stall);
		return;
	}
	if (stall_check(c->stall, c->eng, t, next_check) != STALL_STUCK)
		return;
	stall_touch(c->stall);
	if (gate_nheld(c->eng) && c->o->on_deadlock == SPEC_ON_DEADLOCK_RELEASE) {
		c->infeasible = true;
		diagnose_now(c, false);
		gate_release_all(c->eng, t);
		restart_released(c);
		return;
	}
	if (gate_nheld(c->eng))
		c->stuck = true;
	else
		c->deadlock = true;
	end_run(c);
}

/*
 * racegate got SIGINT, SIGTERM or SIGHUP: say who was where (held threads
 * are unwound, nothing else is stopped), and kill the program whatever
 * --keep-stopped says: the user wants racegate gone, and nothing traced
 * may outlive it.  The loop then reaps the program as after any kill.
 */
static void interrupt_run(struct run_ctx *c, int sig)
{
	c->interrupted = sig;
	diagnose_now(c, false);
	tracer_kill(c->tr);
	c->killed = true;
}

static void event_loop(struct run_ctx *c)
{
	const double deadline = c->o->timeout_ms > 0 ? (double)c->o->timeout_ms : -1;
	bool done = false;

	while (!done) {
		struct pollfd pfd[4];
		int npfd = 0, wait_ms = -1, r;
		double t, next, check = -1;
		tracer_event ev;
		rg_err err = RG_ERR_INIT;

		while ((r = tracer_next_event(c->tr, &ev, 0, &err)) == 1) {
			stall_touch(c->stall);
			dispatch(c, &ev);
			if (ev.kind == TRACER_EV_EXIT) {
				done = true;
				break;
			}
		}
		if (r < 0) {
			if (!c->failed) {
				c->failed = true;
				c->res->note = xstrdup(err.msg);
			}
			tracer_kill(c->tr);
			c->killed = true;
		}
		if (done)
			break;
		if (!c->killed && interrupt_signal())
			interrupt_run(c, interrupt_signal());
		if (c->failed && !c->killed) {
			tracer_kill(c->tr);
			c->killed = true;
		}

		t = now_ms(c);
		/* a name set while threads are held may be what they wait for */
		if (c->names && !c->killed && gate_nheld(c->eng))
			learn_names(c);
		/*
		 * A gate's timeout is about to let its thread go, and the run
		 * will say NOT-ENFORCED: record who waited for what at that
		 * moment (the first time; threads are not stopped to unwind,
		 * since the run goes on).
		 */
		if (!c->killed && c->next_gate >= 0 && t >= c->next_gate &&
		    !c->res->ndiag)
			diagnose_now(c, false);
		next = gate_tick(c->eng, t);
		c->next_gate = next;
		restart_released(c);
		if (!c->killed)
			check_stall(c, t, next, &check);
		if (!c->killed && deadline >= 0 && t >= deadline) {
			c->timed_out = true;
			end_run(c);
		}
		if (c->kept)
			break;

		if (next >= 0)
			wait_ms = (int)(next - t) + 1;
		if (!c->killed && check >= 0 && (wait_ms < 0 || (int)(check - t) + 1 < wait_ms))
			wait_ms = (int)(check - t) + 1;
		if (!c->killed && deadline >= 0) {
			int d = (int)(deadline - t) + 1;
			if (wait_ms < 0 || d < wait_ms)
				wait_ms = d;
		}
		if (c->killed && (wait_ms < 0 || wait_ms > 100))
			wait_ms = 100;
		if (c->names && !c->killed && gate_nheld(c->eng) &&
		    (wait_ms < 0 || wait_ms > NAME_POLL_MS))
			wait_ms = NAME_POLL_MS;
		pfd[npfd++] = (struct pollfd){ .fd = tracer_fd(c->tr), .events = POLLIN };
		if (c->outfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = c->outfd, .events = POLLIN };
		if (c->errfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = c->errfd, .events = POLLIN };
		/* readable for good once a signal came: only until it is acted on */
		if (!c->killed && interrupt_fd() >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = interrupt_fd(), .events = POLLIN };
		if (poll(pfd, (nfds_t)npfd, wait_ms) < 0 && errno != EINTR)
			break;
		drain_fd(c, &c->outfd, &c->res->out, STDOUT_FILENO);
		drain_fd(c, &c->errfd, &c->res->err, STDERR_FILENO);
	}
}

/* After the exit, take what is left in the pipes (bounded: a detached
 * child of the program may keep them open). */
static void finish_output(struct run_ctx *c)
{
	int rounds;

	for (rounds = 0; rounds < 20 && (c->outfd >= 0 || c->errfd >= 0); rounds++) {
		struct pollfd pfd[2];
		int npfd = 0;

		drain_fd(c, &c->outfd, &c->res->out, STDOUT_FILENO);
		drain_fd(c, &c->errfd, &c->res->err, STDERR_FILENO);
		if (c->outfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = c->outfd, .events = POLLIN };
		if (c->errfd >= 0)
			pfd[npfd++] = (struct pollfd){ .fd = c->errfd, .events = POLLIN };
		if (npfd && poll(pfd, (nfds_t)npfd, 10) <= 0)
			break;
	}
	if (c->outfd >= 0)
		close(c->outfd);
	if (c->errfd >= 0)
		close(c->errfd);
	c->outfd = c->errfd = -1;
}

/* Load bias of the executable: where its first mapping is, minus where it was linked. */
static int find_bias(struct run_ctx *c, rg_err *err)
{
	tracer_map *maps = NULL;
	size_t n = 0, i;
	char real[PATH_MAX];
	int ret = -1;

	if (!dwarfx_is_pie(c->p->dx)) {
		c->bt.exe = 0;
		return 0;
	}
	if (!realpath(c->p->exe, real))
		return rg_error(err, "cannot resolve the path of '%s': %s",
				c->p->exe, strerror(errno));
	if (tracer_maps(c->tr, &maps, &n, err) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (maps[i].path && maps[i].offset == 0 && !strcmp(maps[i].path, real)) {
			c->bt.exe = maps[i].start - dwarfx_load_base(c->p->dx);
			ret = 0;
			break;
		}
	tracer_maps_free(maps, n);
	if (ret < 0)
		rg_error(err, "cannot find '%s' in the program's memory map", real);
	return ret;
}

static void interrupted_note(run_result *res, int sig)
{
	const char *name = spec_signal_name(sig);
	char *n = xasprintf("racegate got %s: the program was killed%s%s",
			    name ? name : strsignal(sig),
			    res->note ? "; " : "", res->note ? res->note : "");

	res->outcome = OUT_INTERRUPTED;
	free(res->note);
	res->note = n;
}

void run_once(plan *p, const run_opts *o, run_result *res)
{
	struct run_ctx c;
	gate_hooks hooks;
	tracer_opts to;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	rg_err err = RG_ERR_INIT;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	res->ngates = p->sp->ngates;
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.o = o;
	c.res = res;
	c.outfd = c.errfd = -1;
	c.arrive_idx = (size_t)-1;
	c.next_gate = -1;
	hooks.ctx = &c;
	hooks.note = on_note;

	if (o->capture && (make_pipe(outp) < 0 || make_pipe(errp) < 0)) {
		res->outcome = OUT_ERROR;
		res->note = xasprintf("cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	memset(&to, 0, sizeof(to));
	to.argv = (const char *const *)p->argv;
	to.stdin_fd = -1;
	to.stdout_fd = outp[1];
	to.stderr_fd = errp[1];
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	if (tracer_spawn(&to, &c.tr, &err) < 0) {
		res->outcome = OUT_ERROR;
		res->note = xstrdup(err.msg);
		goto out;
	}
	if (outp[1] >= 0) {
		close(outp[1]);
		close(errp[1]);
		outp[1] = errp[1] = -1;
		c.outfd = outp[0];
		c.errfd = errp[0];
		outp[0] = errp[0] = -1;
	}
	c.eng = gate_engine_new(p->sp, &hooks);
	c.names = run_spec_uses_names(p->sp);
	c.stall = stall_new(tracer_pid(c.tr), (double)o->quiet_ms);
	if (find_bias(&c, &err) < 0) {
		c.failed = true;
		res->note = xstrdup(err.msg);
	}
	for (i = 0; i < p->nbps && !c.failed; i++) {
		plan_assert_boundary(p->dx, p->bps[i].site.link_addr);
		arm(&c, run_bias_addr(&c.bt, p->bps[i].site));
	}
	for (i = 0; i < p->npthread_create && !c.failed; i++)
		add_ptc(&c, run_bias_addr(&c.bt, (rg_site){PLAN_EXE,
							   p->pthread_create_addrs[i]}));
	c.entry = tracer_entry(c.tr);
	if (c.entry && !c.failed)
		arm(&c, c.entry);
	c.locs = run_locs_new(p, c.tr, &c.bt, own_busy, &c);
	if (!c.failed && run_locs_start(c.locs, &err) < 0)
		locs_failed(&c, &err);

	thr_add(&c, tracer_pid(c.tr), NULL);
	c.nlive = 1;
	gate_thread_started(c.eng, tracer_pid(c.tr), NULL, true, now_ms(&c));
	restart_released(&c);
	if (!c.failed)
		resume(&c, tracer_pid(c.tr));
	event_loop(&c);
	finish_output(&c);
	res->elapsed_ms = now_ms(&c);

	res->gate_reached = xcalloc(p->sp->ngates, sizeof(bool));
	res->gate_timed_out = xcalloc(p->sp->ngates, sizeof(bool));
	for (i = 0; i < p->sp->ngates; i++) {
		res->gate_reached[i] = gate_reached(c.eng, i);
		res->gate_timed_out[i] = gate_timed_out(c.eng, i);
	}
	if (c.locs) {
		res->gate_unarmed = xcalloc(p->sp->ngates, sizeof(char *));
		for (i = 0; i < p->sp->ngates; i++)
			res->gate_unarmed[i] = run_locs_unarmed(c.locs, i);
	}
	/* ^C in a terminal reaches the program too, and may kill it first */
	if (!c.interrupted && interrupt_signal() &&
	    res->term_signal == interrupt_signal())
		c.interrupted = interrupt_signal();
	if (c.failed)
		res->outcome = OUT_ERROR;
	else if (c.interrupted)
		interrupted_note(res, c.interrupted);
	else if (c.deadlock)
		res->outcome = OUT_DEADLOCK;
	judge_run(p->sp, res, c.stuck, c.infeasible, c.timed_out);
	if (c.stuck && !res->note)
		res->note = xstrdup("every live thread is held at a gate or blocked "
				    "for ever: the gated order cannot happen");
	if (c.kept || c.timed_out) {
		char *what = c.kept ? xasprintf("the program is left stopped: gdb -p %d",
						(int)c.kept_pid) :
			     xstrdup("the program was killed");
		char *n = xasprintf("%s%s%s", res->note ? res->note : "",
				    res->note ? "; " : "", what);

		free(what);
		free(res->note);
		res->note = n;
	}
out:
	run_locs_free(c.locs);
	run_bias_release(&c.bt);
	stall_free(c.stall);
	if (c.tr)
		tracer_free(c.tr);
	if (c.eng)
		gate_engine_free(c.eng);
	for (i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	if (c.outfd >= 0)
		close(c.outfd);
	if (c.errfd >= 0)
		close(c.errfd);
	for (i = 0; i < c.nthr; i++)
		free(c.thr[i].start);
	for (i = 0; i < c.npend; i++)
		free(c.pend[i].start);
	free(c.thr);
	rg_intmap_release(&c.thr_ix);
	free(c.pend);
	free(c.ptc);
	free(c.release);
}

void run_result_release(run_result *res)
{
	size_t i;

	for (i = 0; i < res->ntl; i++) {
		free(res->tl[i].who);
		free(res->tl[i].what);
		free(res->tl[i].event);
	}
	free(res->tl);
	for (i = 0; i < res->ndiag; i++) {
		diag_thread *d = &res->diag[i];

		free(d->label);
		free(d->state);
		free(d->where);
		for (size_t j = 0; j < d->nbacktrace; j++)
			free(d->backtrace[j]);
		free(d->backtrace);
	}
	free(res->diag);
	free(res->chain);
	rg_buf_release(&res->out);
	rg_buf_release(&res->err);
	free(res->note);
	free(res->gate_reached);
	free(res->gate_timed_out);
	for (i = 0; res->gate_unarmed && i < res->ngates; i++)
		free(res->gate_unarmed[i]);
	free(res->gate_unarmed);
	memset(res, 0, sizeof(*res));
}
