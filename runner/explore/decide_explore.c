/*
 * The explorer's scheduler as the session's decider (decide_explore.h).
 */
#include "decide_explore.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "intmap.h"
#include "procstate.h"


/*
 * A thread chosen this many decisions in a row while another could run is
 * taken to spin (a loop waiting for a flag another thread sets): it is
 * left out of the next decision where another can run, so that no
 * schedule waits for ever on a thread that waits for a thread that is
 * never chosen; the next time it is taken to spin, of the next 2, then 4,
 * ... (up to SPIN_BENCH_MAX), so that the awaited thread does not crawl,
 * one step for every SPIN_STEPS of the spinner's (pct with the spinner
 * ranked first).  The first time only one: a spinner back at once is
 * what some bugs need (examples/bounded_queue).
 */
#define SPIN_STEPS 1000
#define SPIN_BENCH_MAX 1024

/*
 * A thread that runs without having reached a point -- a new one on its
 * way to its first, a chosen one to its next -- is looked at this often
 * (give_up): a new thread, and one chosen at a thread-library point that
 * may wait (a lock, a condition, a semaphore, a barrier), every
 * BLOCK_POLL_MS, since they are the ones that block soon; any other every
 * POLL_MS.  Most reach their point before the first look.
 */
#define BLOCK_POLL_MS 1.0
#define POLL_MS 5.0

/*
 * Time under serialisation (docs/explore.md): a parked sleeper's timeout
 * fires when no held thread can run, or when one thread has been chosen
 * this many times in a row (it most likely waits for the sleeper).
 */
#define SLEEP_SPIN_STEPS 100
/* all_dying: how often a running thread is looked at, and how long apart */
#define DYING_LOOKS 5
#define DYING_PAUSE_US 200

enum xstate {
	XT_FRESH,              /* created, not yet at a point: waited for */
	XT_HELD,               /* at a point, stopped */
	XT_RUN,                /* chosen: running to its next point */
	XT_LOOSE,              /* blocked when chosen, or fresh for too long: not waited for */
	XT_PARKED,             /* stopped in a sleep racegate ends when time passes (tracer_park) */
	XT_GONE,
};

struct xthread {
	explore_thread_info info;
	pid_t pid;             /* its process (--follow-fork: a child's, maybe) */
	enum xstate st;
	size_t gate;           /* where it is held */
	long hit;              /* its arrivals there, this one included */
	uint64_t arg0;         /* first argument at a thread-library point */
	uint64_t self;         /* pthread_t (thread pointer), 0 when unknown */
	double since;          /* XT_FRESH: when it was created; XT_RUN: chosen */
	bool watch;            /* XT_RUN from a point where it may wait: polled (BLOCK_POLL_MS) */
	double polled;         /* XT_FRESH, XT_RUN: last looked at (give_up) */
	unsigned long long cpu0; /* its CPU time (ns) when it began to run, once known */
	bool cpu_known;
	bool blocked;          /* XT_LOOSE because it waited for another thread */
	unsigned long long runs_at; /* its times scheduled in, when given up (0: unknown) */
	bool asleep;           /* XT_LOOSE because it sleeps until a timeout */
	unsigned long parked;  /* XT_PARKED: its turn among the parked (first among equal wakes) */
	double wake_ms;        /* XT_PARKED: when on explore's clock its sleep ends */
	bool owed;             /* could run when time passed early: a turn before it does again */
	size_t benches;        /* decisions it is left out of when next taken to spin */
	bool woke;             /* XT_FRESH because it was woken, not created */
	int runs_looks;        /* backtraces taken to find info.runs */
	rg_intmap hits;        /* gate -> arrivals */
};

struct explore_decider {
	session *s;
	plan *p;
	const enum explore_point_kind *kinds;
	explore_sched *sc;
	struct xthread *t;     /* by logical id */
	size_t nt, capt;
	rg_intmap ix;          /* tid -> logical id */
	int running;           /* the chosen thread while it runs, or -1 */
	int last;              /* the thread chosen last (cur for the schedule), or -1 */
	int in_row;            /* the thread chosen last, turns a timeout began aside */
	size_t in_a_row;       /* decisions in a row that chose it */
	size_t spin_fired;     /* in_a_row when time last passed for it (SLEEP_SPIN_STEPS) */
	double run_max_ms;     /* a chosen thread reaching no point this long is let loose */
	bool ending;           /* the program is going down: no more choices (all_dying) */
	explore_step *steps;
	size_t nsteps, capsteps;
	explore_wake *wakes;   /* woken threads' arrivals (explore_decider_wakes) */
	size_t nwakes, capwakes;
	uint64_t hash;
	bool deadlock;
	bool end_held;         /* deadlock: the last chosen thread was held, at */
	size_t end_gate;       /* end_gate for the end_hit-th time */
	long end_hit;
	int *run_buf;          /* scratch: runnable ids */
	unsigned long nparked; /* sleepers parked so far */
	double clock_ms;       /* explore's clock: where the last sleep that fired ended */
	bool virtual_time;     /* park sleepers (else they sleep in real time) */
	int timed;             /* the thread whose turn a timeout began, or -1 */
	int benched;           /* taken to spin: left out of bench_left more decisions */
	size_t bench_left;
};

static struct xthread *find(explore_decider *x, pid_t tid)
{
	size_t *i = rg_intmap_get(&x->ix, (uint64_t)(uint32_t)tid);

	return i ? &x->t[*i] : NULL;
}

static bool alive(const struct xthread *t)
{
	return t->st != XT_GONE;
}

/* Is some live thread pid (a mutex owner), other than t? */
static bool other_live_tid(const explore_decider *x, const struct xthread *t, pid_t pid)
{
	for (size_t i = 0; i < x->nt; i++)
		if (&x->t[i] != t && alive(&x->t[i]) && x->t[i].info.tid == pid)
			return true;
	return false;
}

/* How many held threads of t's process stand at t's point kind with t's first argument? */
static unsigned held_like(const explore_decider *x, const struct xthread *t)
{
	unsigned n = 0;

	for (size_t i = 0; i < x->nt; i++)
		n += x->t[i].st == XT_HELD && x->kinds[x->t[i].gate] == x->kinds[t->gate] &&
		     x->t[i].arg0 == t->arg0 && x->t[i].pid == t->pid;
	return n;
}

/*
 * Can the held thread t go on from a point of the thread library's locks,
 * semaphores and barriers?  What cannot be read lets it try: a thread that
 * then blocks is seen blocked.
 */
static bool can_run_sync(explore_decider *x, const struct xthread *t)
{
	pid_t pid = t->pid;
	tracer_rwlock rw;
	unsigned a, b;
	bool taken;

	if (!t->arg0)
		return true;
	switch (x->kinds[t->gate]) {
	case XP_SEM_WAIT:
		return !tracer_sem_value(pid, t->arg0, &a) || a > 0;
	case XP_RDLOCK:
	case XP_WRLOCK:
		if (!tracer_rwlock_read(pid, t->arg0, &rw))
			return true;
		/* a writer at its own lock gets EDEADLK: it goes on */
		if (rw.writer && rw.writer != t->info.tid && other_live_tid(x, t, rw.writer))
			return false;
		return x->kinds[t->gate] == XP_RDLOCK || rw.write_phase || !rw.readers;
	case XP_BARRIER:
		/* the round fills when the threads held here, with those in it, are enough */
		return !tracer_barrier_read(pid, t->arg0, &a, &b) ||
		       a + held_like(x, t) >= b;
	case XP_SPIN_LOCK:
		return !tracer_spin_taken(pid, t->arg0, &taken) || !taken;
	default:
		return true;
	}
}

/* Can the held thread t go on from its point? */
static bool can_run(explore_decider *x, const struct xthread *t)
{
	pid_t owner = 0;

	switch (x->kinds[t->gate]) {
	case XP_MUTEX_LOCK:
		if (!t->arg0 || !tracer_mutex_owner(t->pid, t->arg0, &owner))
			return true;   /* not a mutex we can read: let it try */
		return !owner || !other_live_tid(x, t, (pid_t)owner);
	case XP_JOIN:
		for (size_t i = 0; i < x->nt; i++)
			/* pthread_t values repeat in a forked child */
			if (alive(&x->t[i]) && x->t[i].self && x->t[i].self == t->arg0 &&
			    x->t[i].pid == t->pid && &x->t[i] != t)
				return false;
		return true;
	default:
		return can_run_sync(x, t);
	}
}

/* May a thread that goes on from a point of kind k wait in the kernel there? */
static bool may_wait(enum explore_point_kind k)
{
	return k != XP_LINE && k != XP_SYNC && k != XP_SPIN_LOCK;
}

enum xgive {
	XG_NO,                 /* wait on for it */
	XG_BLOCKED,            /* it waits in the kernel for another thread */
	XG_ASLEEP,             /* it sleeps until a timeout (or an event) wakes it */
	XG_PARK,               /* it sleeps until a timeout racegate can fire itself */
	XG_CPU,                /* it used run_max_ms of CPU: spins or computes */
	XG_WALL,               /* it sleeps, or cannot be told: run_max_ms of wall time */
};

/*
 * Should the schedule stop waiting for t, which runs and has reached no
 * point?  Read from /proc without stopping it (procstate.h).  What counts
 * is what the thread itself did, not how long the machine took, so that a
 * replay on a loaded machine decides as the first run did: a thread that
 * is runnable but gets no CPU is waited for.
 *   - in a futex wait (a lock, a condition, a semaphore: only another
 *     thread, which must now be chosen, can end it), or in a wait that
 *     blocked.h says only the program ends: blocked;
 *   - with virtual_time, in a sleep whose timeout racegate can fire
 *     (tracer_wait_fireable): to be parked, its timeout fired when time
 *     passes (decide); in any other wait of a system call (select with
 *     a timeout, a read of a socket whose other end may be anywhere):
 *     asleep, woken by its timeout or its event while other threads run
 *     (docs/explore.md, "Time under serialisation");
 *   - run_max_ms of CPU time since it began to run: a spin-wait on a
 *     flag, or a long computation;
 *   - else asleep in a system call (a sleep, a timed wait on a file, the
 *     disk), or its CPU time unknown: run_max_ms of wall time.
 */
static enum xgive give_up(explore_decider *x, struct xthread *t, double t_ms)
{
	pid_t pid = t->pid;
	tracer_tstate st;

	tracer_tstate_read(pid, t->info.tid, &st);
	if (!st.state || st.state == 'Z' || st.state == 'X')
		return XG_NO;          /* its exit is on its way */
	t->runs_at = st.runs;
	if (st.state == 'S' && st.in_syscall) {
		unsigned arg;

		if (tracer_tstate_futex(&st) ||
		    tracer_tstate_wait(pid, &st) == TRACER_WAIT_FOREVER)
			return XG_BLOCKED;
		if (x->virtual_time)
			return tracer_wait_fireable(st.sys, st.args, &arg) ? XG_PARK : XG_ASLEEP;
	}
	if (st.cpu_ns) {
		if (!t->cpu_known) {
			t->cpu0 = st.cpu_ns;
			t->cpu_known = true;
		}
		if ((double)(st.cpu_ns - t->cpu0) / 1e6 >= x->run_max_ms)
			return XG_CPU;
	}
	/* not a page fault or a lock of the kernel's: those are the machine's */
	if (((st.state == 'S' || st.state == 'D') && st.in_syscall) || !st.cpu_ns)
		return t_ms - t->since >= x->run_max_ms ? XG_WALL : XG_NO;
	return XG_NO;
}

/*
 * Has t, given up as blocked or asleep, been woken?  A thread a futex wake made
 * runnable is 'R' at once, before it runs, so the thread that woke it
 * cannot reach its next point before this says so.
 */
static bool woken(const struct xthread *t)
{
	pid_t pid = t->pid;
	tracer_tstate st;

	tracer_tstate_read(pid, t->info.tid, &st);
	if (!st.state || st.state == 'Z' || st.state == 'X')
		return false;
	/* asleep and not scheduled in since: in the same wait (no need to
	   read what it waits on, which costs a dozen reads of /proc) */
	if (st.state == 'S' && st.runs && st.runs == t->runs_at)
		return false;
	if (t->asleep)
		return !(st.state == 'S' && st.in_syscall);
	return !(st.state == 'S' && st.in_syscall &&
		 (tracer_tstate_futex(&st) ||
		  tracer_tstate_wait(pid, &st) == TRACER_WAIT_FOREVER));
}

/* How often t is looked at while it runs to a point. */
static double poll_every(const struct xthread *t)
{
	return t->st == XT_RUN && !t->watch ? POLL_MS : BLOCK_POLL_MS;
}

/*
 * Time passes for f: its timeout fires, and it runs to its next point
 * before the next decision (as a woken thread does).  Whether and when it
 * fires depends only on the schedule (decide), so a replay fires it at
 * the same decision.
 */
static void fire(explore_decider *x, struct xthread *f, double t_ms)
{
	rg_err err = RG_ERR_INIT;

	rg_trace("explore: thread %zu's sleep ends (its timeout fires)", (size_t)(f - x->t));
	if (f->wake_ms > x->clock_ms)
		x->clock_ms = f->wake_ms;
	f->st = XT_FRESH;
	x->timed = (int)(f - x->t);
	/*
	 * not a wake the file waits for: under racegate run the sleep takes
	 * its time, and a loop may end without sleeping again (a wait for
	 * its next point could then never end)
	 */
	f->woke = false;
	f->since = f->polled = t_ms;
	f->cpu_known = false;
	if (tracer_fire(session_tracer(x->s), f->info.tid, &err) < 0)
		rg_trace("explore: %s", err.msg);
}

/* The sleeper whose sleep ends first (of two alike, the one parked
 * first), or NULL. */
static struct xthread *first_parked(explore_decider *x)
{
	struct xthread *f = NULL;

	for (size_t i = 0; i < x->nt; i++) {
		struct xthread *t = &x->t[i];

		if (t->st == XT_PARKED &&
		    (!f || t->wake_ms < f->wake_ms ||
		     (t->wake_ms == f->wake_ms && t->parked < f->parked)))
			f = t;
	}
	return f;
}

/* t is parked now: its sleep ends on explore's clock the time it asked
 * from now (the clock moves only when a timeout fires). */
static void parked(explore_decider *x, struct xthread *t)
{
	t->st = XT_PARKED;
	t->parked = x->nparked++;
	t->wake_ms = x->clock_ms +
		     (double)tracer_parked_ns(session_tracer(x->s), t->info.tid) / 1e6;
}

/*
 * The choices besides the n held threads that can run (in run_buf):
 * time passing (f, the sleeper whose sleep ends first, fires), unless a thread
 * that could run when it passed early last has not had its turn since,
 * or the thread its timeout woke has had every turn since -- loops that
 * sleep (an event loop, a housekeeper) could otherwise take every turn
 * there is.  Then a thread taken to spin is left out (SPIN_STEPS).
 * Returns how many choices there are.
 */
static size_t more_choices(explore_decider *x, const struct xthread *f, size_t n)
{
	bool owed = false;
	size_t i;

	for (i = 0; i < n; i++)
		owed |= x->t[x->run_buf[i]].owed;
	if (f && x->timed < 0 && !owed)
		x->run_buf[n++] = EXPLORE_FIRE + (int)(f - x->t);
	if (n > 1 && x->in_a_row >= SPIN_STEPS) {
		struct xthread *b = &x->t[x->in_row];

		x->benched = x->in_row;
		x->bench_left = b->benches;
		b->benches = b->benches < SPIN_BENCH_MAX ? 2 * b->benches : b->benches;
	}
	if (n > 1 && x->bench_left > 0) {
		for (i = 0; i < n; i++)
			if (x->run_buf[i] == x->benched) {
				memmove(&x->run_buf[i], &x->run_buf[i + 1], (n - i - 1) * sizeof(int));
				n--;
				break;
			}
		x->bench_left--;
	}
	return n;
}

/*
 * Nobody runs and no new thread is on its way to a point: the schedule
 * chooses.  Returns the logical id chosen, or -1 (someone runs, or no
 * held thread can run: the stall watch will say whether that is for
 * ever).
 */
static int decide(explore_decider *x, double t_ms)
{
	size_t i, n = 0;
	struct xthread *f;
	int c;

	if (x->running >= 0)
		return -1;
	/*
	 * a new thread runs to its first point first (give_up says how long),
	 * and so does one that was blocked and has been woken (by the thread
	 * that ran last): else both would run at once, in an order the
	 * machine picks
	 */
	for (i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_LOOSE && x->t[i].blocked && woken(&x->t[i])) {
			rg_trace("explore: thread %zu, given up as blocked, was woken", i);
			x->t[i].st = XT_FRESH;
			x->t[i].blocked = x->t[i].asleep = false;
			x->t[i].woke = true;
			x->t[i].since = x->t[i].polled = t_ms;
			x->t[i].cpu_known = false;
		}
	for (i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_FRESH)
			return -1;
	x->run_buf = xrealloc(x->run_buf, (x->nt ? x->nt : 1) * sizeof(int));
	for (i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_HELD && can_run(x, &x->t[i]))
			x->run_buf[n++] = (int)i;
	/* time passes by itself when no held thread can run, or one spins:
	   at every SLEEP_SPIN_STEPS of its turns in a row */
	f = first_parked(x);
	if (!n || (f && x->in_a_row >= x->spin_fired + SLEEP_SPIN_STEPS)) {
		if (f)
			fire(x, f, t_ms);
		if (n)
			x->spin_fired = x->in_a_row;
		return -1;
	}
	n = more_choices(x, f, n);
	{
		const struct xthread *cur = x->last >= 0 ? &x->t[x->last] : NULL;
		bool at = cur && cur->st == XT_HELD;

		c = explore_choose(x->sc, x->last, at ? (long)cur->gate : -1,
				   at ? cur->hit : 0, x->run_buf, n);
	}
	x->hash = explore_hash(x->hash, (uint64_t)c);
	if (c >= EXPLORE_FIRE) {
		/* those it passed over are owed a turn before time passes again */
		for (i = 0; i < n && x->run_buf[i] < EXPLORE_FIRE; i++)
			x->t[x->run_buf[i]].owed = true;
		/* no step: under racegate run the sleep is part of its stretch */
		fire(x, &x->t[c - EXPLORE_FIRE], t_ms);
		return -1;
	}
	x->t[c].owed = false;
	RG_GROW(x->steps, x->nsteps + 1, x->capsteps);
	x->steps[x->nsteps].thread = c;
	x->steps[x->nsteps].gate = x->t[c].gate;
	x->steps[x->nsteps].hit = x->t[c].hit;
	x->steps[x->nsteps].preempt = x->sc->steps[x->sc->nsteps - 1].preempt;
	x->steps[x->nsteps].prev = x->last;
	x->steps[x->nsteps].prev_stop = XS_NONE;
	if (x->last >= 0) {
		const struct xthread *p = &x->t[x->last];

		x->steps[x->nsteps].prev_stop = p->st == XT_HELD ? XS_ARRIVED :
						p->st == XT_GONE ? XS_EXITED : XS_BLOCKED;
		x->steps[x->nsteps].prev_gate = p->gate;
		x->steps[x->nsteps].prev_hit = p->hit;
	}
	x->nsteps++;
	x->hash = explore_hash(x->hash, x->t[c].gate);
	/* a turn a timeout began does not break another thread's run */
	if (c != x->timed) {
		if (c != x->in_row) {
			x->in_row = c;
			x->in_a_row = x->spin_fired = 0;
		}
		x->in_a_row++;
		x->timed = -1;
	}
	x->t[c].st = XT_RUN;
	x->t[c].since = t_ms;
	x->t[c].watch = may_wait(x->kinds[x->t[c].gate]);
	x->t[c].polled = t_ms;
	x->t[c].cpu_known = false;   /* read at the first look: few get that far */
	x->running = c;
	x->last = c;
	return c;
}

/* decide(), and let the chosen thread go (unless it is the one arriving). */
static int decide_release(explore_decider *x, double t_ms, pid_t arriving)
{
	int c = decide(x, t_ms);

	if (c >= 0 && x->t[c].info.tid != arriving)
		session_release(x->s, x->t[c].info.tid);
	return c;
}

explore_decider *explore_decider_new(session *s, const enum explore_point_kind *kinds,
				     explore_sched *sc, double run_max_ms, bool virtual_time)
{
	explore_decider *x = xcalloc(1, sizeof(*x));

	x->s = s;
	x->p = session_plan(s);
	x->kinds = kinds;
	x->sc = sc;
	x->running = -1;
	x->last = -1;
	x->in_row = -1;
	x->timed = -1;
	x->hash = EXPLORE_HASH_INIT;
	x->run_max_ms = run_max_ms;
	x->virtual_time = virtual_time;
	return x;
}

void explore_decider_free(explore_decider *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nt; i++) {
		free(x->t[i].info.start);
		free(x->t[i].info.runs);
		rg_intmap_release(&x->t[i].hits);
	}
	free(x->t);
	rg_intmap_release(&x->ix);
	free(x->steps);
	free(x->wakes);
	free(x->run_buf);
	free(x);
}

bool explore_decider_deadlock(const explore_decider *x)
{
	return x->deadlock;
}

bool explore_decider_last_stop(const explore_decider *x, size_t *gate, long *hit)
{
	if (!x->end_held)
		return false;
	*gate = x->end_gate;
	*hit = x->end_hit;
	return true;
}

size_t explore_decider_steps(const explore_decider *x, const explore_step **out)
{
	*out = x->steps;
	return x->nsteps;
}

size_t explore_decider_wakes(const explore_decider *x, const explore_wake **out)
{
	*out = x->wakes;
	return x->nwakes;
}

size_t explore_decider_nthreads(const explore_decider *x)
{
	return x->nt;
}

const explore_thread_info *explore_decider_thread(const explore_decider *x, size_t i)
{
	return &x->t[i].info;
}

uint64_t explore_decider_hash(const explore_decider *x)
{
	return x->hash;
}

/* ---- the decider's callbacks (session.h) ---- */

static bool xd_wants_names(void *d)
{
	(void)d;
	return false;
}

static void xd_thread_started(void *d, pid_t tid, const char *start, bool is_main,
			      double t_ms)
{
	explore_decider *x = d;
	struct xthread *t;
	session_proc sp;
	size_t i;

	RG_GROW(x->t, x->nt + 1, x->capt);
	t = &x->t[x->nt];
	memset(t, 0, sizeof(*t));
	t->info.tid = tid;
	t->info.start = start ? xstrdup(start) : NULL;
	t->info.is_main = is_main;
	t->pid = tracer_pid(session_tracer(x->s));
	if (session_thread_proc(x->s, tid, &sp)) {
		t->info.proc = sp.nth;
		t->pid = sp.pid ? sp.pid : t->pid;
	}
	t->info.nth = 1;
	for (i = 0; i < x->nt; i++)
		if (start && x->t[i].info.start && !strcmp(x->t[i].info.start, start) &&
		    x->t[i].info.proc == t->info.proc)
			t->info.nth++;
	t->st = XT_FRESH;
	t->benches = 1;
	t->since = t->polled = t_ms;
	t->cpu0 = 0;               /* all its CPU time is on its way to a point */
	t->cpu_known = true;
	*rg_intmap_ref(&x->ix, (uint64_t)(uint32_t)tid, 0) = x->nt;
	x->nt++;
	/* its sleeps are seen as they begin, not at a look that the
	   machine's load may make late (xd_asleep) */
	if (x->virtual_time)
		tracer_watch_sleeps(session_tracer(x->s), tid, true);
}

static void xd_thread_named(void *d, pid_t tid, const char *name, double t_ms)
{
	(void)d, (void)tid, (void)name, (void)t_ms;
}

/*
 * Is the program going down as a whole (exit_group, a fatal signal: every
 * thread left has SIGKILL pending, or is at or inside its exit)?  A choice
 * made then would only record the order in which the kernel reports the
 * deaths: no more are made.  A thread running may be between the SIGKILL
 * it took and its exit: it is looked at again, a few times, before the
 * answer is no.
 */
static bool all_dying(const explore_decider *x)
{
	for (int round = 0; round < DYING_LOOKS; round++) {
		size_t live = 0, running = 0;

		for (size_t i = 0; i < x->nt; i++) {
			enum tracer_fate f;

			if (x->t[i].st == XT_GONE)
				continue;
			live++;
			f = tracer_thread_fate(session_tracer(x->s), x->t[i].info.tid);
			if (f == TRACER_LIVES)
				return false;
			running += f == TRACER_RUNS;
		}
		if (!live)
			return false;
		if (!running)
			return true;
		usleep(DYING_PAUSE_US);
	}
	return false;
}

/*
 * Could a choice follow now: is some thread stopped for the decider (held
 * at a point, or parked)?  A thread that is not cannot arrive while the
 * program goes down (SIGKILL is pending for it), so until one stops,
 * whether it does need not be asked: all_dying's looks are for then.
 */
static bool choice_possible(const explore_decider *x)
{
	for (size_t i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_HELD || x->t[i].st == XT_PARKED)
			return true;
	return false;
}

static void xd_thread_exited(void *d, pid_t tid, double t_ms)
{
	explore_decider *x = d;
	struct xthread *t = find(x, tid);

	if (!t)
		return;
	if (x->running == (int)(t - x->t))
		x->running = -1;
	t->st = XT_GONE;
	/* its id may come back for a new thread: only the new one answers to it */
	rg_intmap_del(&x->ix, (uint64_t)(uint32_t)tid);
	if (!x->ending && choice_possible(x))
		x->ending = all_dying(x);
	if (!session_ending(x->s) && !x->ending)
		decide_release(x, t_ms, 0);
}

/* At a thread-library point: its first argument; the thread's pthread_t. */
static void read_thread(explore_decider *x, struct xthread *t, bool want_arg)
{
	arch_regs regs;
	rg_err err = RG_ERR_INIT;

	if (tracer_get_regs(session_tracer(x->s), t->info.tid, &regs, &err) < 0)
		return;
	if (!t->self)
		t->self = tracer_explore_thread_pointer(&regs);
	t->arg0 = want_arg ? tracer_call_arg(&regs, 0) : 0;
}

/*
 * What a thread started through a wrapper runs (info.runs, for runs: in
 * the file explore writes): the program's function its start routine
 * called, from a backtrace at one of its first RUNS_LOOKS points (none
 * of the program's own may be below the start routine yet: it may be in
 * the thread library).  A start routine that tail-called it is no frame
 * of its own: then the outermost of the program's frames, unless that is
 * the C++ library's (std::thread runs its callable through its own).
 */
#define RUNS_LOOKS 8
#define RUNS_DEPTH 128

static void see_runs(explore_decider *x, struct xthread *t)
{
	const run_bias *bt = session_run_bias(x->s);
	uint64_t pcs[RUNS_DEPTH];
	const char *outer = NULL, *callee = NULL, *name;
	rg_err err = RG_ERR_INIT;
	size_t n, k;

	t->runs_looks++;
	if (tracer_backtrace(session_tracer(x->s), t->info.tid, pcs, RUNS_DEPTH, &n,
			     &err) < 0)
		return;
	for (k = n; k-- > 0 && !callee;) {
		uint64_t at = run_bias_exe_site(bt, k ? pcs[k] - 1 : pcs[k]).link_addr;

		if (!(name = dwarfx_start_name_at(x->p->dx, at)))
			continue;
		if (!outer)
			outer = name;
		else
			callee = dwarfx_caller_at(x->p->dx, at);
		if (outer == name && strcmp(name, t->info.start)) {
			/* tail-called: the start routine is gone from the stack */
			if (!strncmp(name, "std::", 5))
				return;
			callee = dwarfx_caller_at(x->p->dx, at);
		}
	}
	if (!callee)
		return;
	/* as a location names it: with its parameter types when overloaded */
	{
		char *where = xasprintf("*%s", callee);
		dwarfx_loc *l = NULL;
		size_t nl = 0;
		uint64_t at = 0;

		for (k = n; k-- > 0 && !at;) {
			uint64_t a = run_bias_exe_site(bt, k ? pcs[k] - 1 : pcs[k]).link_addr;

			if (dwarfx_caller_at(x->p->dx, a) == callee)
				at = a;
		}
		if (dwarfx_resolve(x->p->dx, where, &l, &nl, NULL, &err) != DWARFX_OK && at)
			callee = dwarfx_start_name_at(x->p->dx, at);
		free(l);
		free(where);
	}
	t->info.runs = xstrdup(callee);
}

/*
 * Is t in its start routine's own code: at a point there, or at a
 * thread-library point (a function's entry) called from there?  Then the
 * start routine is the innermost of the program's frames, and see_runs
 * would find no callee: a look that needs no backtrace.  (A start routine
 * that called itself again is the one case this misses, and it would name
 * itself.)
 */
static bool at_own_start(explore_decider *x, struct xthread *t, const plan_bp *at)
{
	uint64_t link = at->site.link_addr;
	const char *name;

	if (at->site.obj != PLAN_EXE) {
		uint64_t ret, sp;
		rg_err err = RG_ERR_INIT;

		if (x->kinds[t->gate] == XP_LINE ||
		    tracer_entry_frame(session_tracer(x->s), t->info.tid, &ret, &sp, &err) < 0)
			return false;
		link = run_bias_exe_site(session_run_bias(x->s), ret - 1).link_addr;
	}
	name = dwarfx_start_name_at(x->p->dx, link);
	return name && !strcmp(name, t->info.start);
}

static enum decision xd_arrive(void *d, pid_t tid, const plan_bp *at, double t_ms)
{
	explore_decider *x = d;
	struct xthread *t = find(x, tid);
	size_t *h;
	int c;

	if (!t || !at->ngates)
		return DECIDE_PASS;
	t->gate = at->gates[0];
	h = rg_intmap_ref(&t->hits, t->gate, 0);
	t->hit = (long)++*h;
	if (!t->info.is_main && t->info.start && !t->info.runs &&
	    t->runs_looks < RUNS_LOOKS) {
		if (at_own_start(x, t, at))
			t->runs_looks++;
		else
			see_runs(x, t);
	}
	read_thread(x, t, x->kinds[t->gate] != XP_LINE);
	/* woken, and waited for; or woken and already here before a look saw it */
	if ((t->st == XT_FRESH && t->woke) || (t->st == XT_LOOSE && t->blocked)) {
		RG_GROW(x->wakes, x->nwakes + 1, x->capwakes);
		x->wakes[x->nwakes++] = (explore_wake){ x->nsteps, (int)(t - x->t),
							t->gate, t->hit };
		t->woke = t->blocked = t->asleep = false;
	}
	if (x->running == (int)(t - x->t))
		x->running = -1;
	t->st = XT_HELD;
	c = decide_release(x, t_ms, tid);
	return c == (int)(t - x->t) ? DECIDE_PASS : DECIDE_HOLD;
}

static bool xd_site_live(void *d, const plan_bp *at)
{
	(void)d, (void)at;
	return true;
}

static size_t xd_pass_depth(void *d, pid_t tid)
{
	(void)d, (void)tid;
	return 0;
}

static void xd_passed(void *d, pid_t tid, bool at_once, double t_ms)
{
	(void)d, (void)tid, (void)at_once, (void)t_ms;
}

/*
 * Stops t inside its sleep (tracer_park): 1, parked; 0, it had just woken
 * (still waited for); -1, it could not be stopped (it sleeps on in real
 * time, let loose as asleep).
 */
static int park(explore_decider *x, struct xthread *t)
{
	rg_err err = RG_ERR_INIT;
	int rc = tracer_park(session_tracer(x->s), t->info.tid, &err);

	if (rc > 0) {
		parked(x, t);
	} else if (rc < 0) {
		rg_trace("explore: %s", err.msg);
		t->st = XT_LOOSE;
		t->blocked = t->asleep = true;
		if (x->running == (int)(t - x->t))
			x->running = -1;
	}
	return rc;
}

/*
 * Looks at the threads that run to a point (a new one, the chosen one) as
 * often as poll_every says; one give_up gives up on is let loose: it no
 * longer counts as running (it goes on, and is held at its next point),
 * and another thread is chosen.  Returns when to look again.
 */
static double xd_tick(void *d, double t_ms)
{
	static const char *const why[] = {
		"", "it waits in the kernel for another thread",
		"it sleeps until a timeout or an event", "it sleeps: parked until time passes",
		"it used its CPU time", "it sleeps",
	};
	explore_decider *x = d;
	double next = -1;
	size_t i;

	if (session_ending(x->s) || x->ending)
		return -1;
	for (i = 0; i < x->nt; i++) {
		struct xthread *t = &x->t[i];
		enum xgive g;

		if ((t->st != XT_RUN && t->st != XT_FRESH) || t_ms - t->polled < poll_every(t))
			continue;
		t->polled = t_ms;
		if ((g = give_up(x, t, t_ms)) == XG_NO)
			continue;
		if (g == XG_PARK && park(x, t) <= 0)
			continue;
		rg_trace("explore: thread %zu reaches no point: %s", i, why[g]);
		if (x->running == (int)i)
			x->running = -1;
		if (g == XG_PARK)
			continue;
		t->st = XT_LOOSE;
		t->blocked = g == XG_BLOCKED || g == XG_ASLEEP;
		t->asleep = g == XG_ASLEEP;
	}
	decide_release(x, t_ms, 0);
	for (i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_RUN || x->t[i].st == XT_FRESH) {
			double due = x->t[i].polled + poll_every(&x->t[i]);

			if (next < 0 || due < next)
				next = due;
		}
	return next;
}

/*
 * t, running, enters a sleep (TRACER_EV_SLEEPS): parked there, as a look
 * finds it parked inside one (xd_tick), but whatever the machine's load.
 */
static bool xd_asleep(void *d, pid_t tid, double t_ms)
{
	explore_decider *x = d;
	struct xthread *t = find(x, tid);
	size_t i;

	if (!t || !x->virtual_time || session_ending(x->s) || x->ending ||
	    (t->st != XT_RUN && t->st != XT_FRESH && t->st != XT_LOOSE))
		return false;
	i = (size_t)(t - x->t);
	rg_trace("explore: thread %zu reaches no point: it sleeps: parked as its sleep begins", i);
	parked(x, t);
	t->blocked = t->asleep = false;
	if (x->running == (int)i)
		x->running = -1;
	decide_release(x, t_ms, 0);
	return true;
}

static bool xd_is_held(void *d, pid_t tid)
{
	explore_decider *x = d;
	struct xthread *t = find(x, tid);

	return t && (t->st == XT_HELD || t->st == XT_PARKED);
}

static size_t xd_nheld(void *d)
{
	explore_decider *x = d;
	size_t n = 0;

	for (size_t i = 0; i < x->nt; i++)
		n += x->t[i].st == XT_HELD;
	return n;
}

/*
 * Every live thread is held or blocked in the kernel, for the quiet
 * period: those not held are blocked (the chosen one included), and
 * another held thread that can run is chosen.  None: a deadlock.
 */
static bool xd_stuck(void *d, double t_ms)
{
	explore_decider *x = d;

	for (size_t i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_RUN || x->t[i].st == XT_FRESH)
			x->t[i].st = XT_LOOSE;
	x->running = -1;
	if (decide_release(x, t_ms, 0) >= 0)
		return true;
	for (size_t i = 0; i < x->nt; i++)
		if (x->t[i].st == XT_FRESH)
			return true;    /* a sleeper's timeout fired */
	x->deadlock = true;
	/* where the last stretch ended, before the end of the run kills it */
	if (x->last >= 0 && x->nsteps && x->steps[x->nsteps - 1].thread == x->last &&
	    x->t[x->last].st == XT_HELD) {
		x->end_held = true;
		x->end_gate = x->t[x->last].gate;
		x->end_hit = x->t[x->last].hit;
	}
	return false;
}

static void xd_diagnose(void *d, bool unwind)
{
	(void)d, (void)unwind;   /* the explorer reports the schedule, not the threads */
}

static const decider_names xd_names = { xd_wants_names, xd_thread_named };
static const decider_lines xd_lines = { xd_pass_depth, xd_passed };
static const decider_sleeps xd_sleeps = { xd_asleep };

const decider_ops explore_decider_ops = {
	.thread_started = xd_thread_started,
	.thread_exited = xd_thread_exited,
	.arrive = xd_arrive,
	.site_live = xd_site_live,
	.tick = xd_tick,
	.is_held = xd_is_held,
	.nheld = xd_nheld,
	.stuck = xd_stuck,
	.diagnose = xd_diagnose,
	.names = &xd_names,
	.lines = &xd_lines,
	.sleeps = &xd_sleeps,
};
