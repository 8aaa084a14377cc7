/*
 * The explorer's scheduler (runner/explore/decide_explore.c) through its
 * decider_ops, with a fake session and a fake tracer: no program.  Threads
 * arrive at points; the tests check who the decider lets go (serialised:
 * one at a time), that a thread at a lock another thread owns or at a join
 * on a live thread is not chosen, and that nothing runnable is a deadlock.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decide_explore.h"
#include "procstate.h"

/* ---- the fake session and tracer -------------------------------------- */

struct session {
	plan p;
	pid_t released[64];
	size_t nreleased;
};

void session_release(session *s, pid_t tid)
{
	ck_assert_uint_lt(s->nreleased, 64);
	s->released[s->nreleased++] = tid;
}
double session_now(const session *s) { (void)s; return 0; }
bool session_ending(const session *s) { (void)s; return false; }
plan *session_plan(const session *s) { return (plan *)&s->p; }
tracer *session_tracer(const session *s) { (void)s; return NULL; }
/* one forked child process: threads with tids from CHILD_TID on are its */
enum { CHILD_TID = 40 };
bool session_thread_proc(const session *s, pid_t tid, session_proc *out)
{
	(void)s;
	memset(out, 0, sizeof(*out));
	out->nth = tid >= CHILD_TID;
	out->pid = tid >= CHILD_TID ? CHILD_TID : 10;
	out->initial = tid == CHILD_TID || tid == 10;
	return true;
}
/* no stack to look at: what a wrapper runs stays unknown (info.runs) */
const run_bias *session_run_bias(const session *s) { (void)s; return NULL; }
rg_site run_bias_exe_site(const run_bias *b, uint64_t addr)
{
	(void)b;
	return (rg_site){PLAN_EXE, addr};
}
int tracer_backtrace(tracer *tr, pid_t tid, uint64_t *pcs, size_t max, size_t *n,
		     rg_err *err)
{
	(void)tr, (void)tid, (void)pcs, (void)max;
	*n = 0;
	return rg_error(err, "no stack in this test");
}
int tracer_entry_frame(tracer *tr, pid_t tid, uint64_t *ret, uint64_t *sp_after,
		       rg_err *err)
{
	(void)tr, (void)tid, (void)ret, (void)sp_after;
	return rg_error(err, "no stack in this test");
}

/* Per tid (small): first argument at its point, its pthread_t. */
static uint64_t ARG0[64], SELF[64];
/* The owner field of the one mutex at MUTEX. */
#define MUTEX 0x1000
static int32_t OWNER;
enum { MAIN_PID = 10 };   /* the program (its main thread's tid) */
static pid_t REGS_TID;

int tracer_get_regs(tracer *tr, pid_t tid, arch_regs *regs, rg_err *err)
{
	(void)tr, (void)err;
	memset(regs, 0, sizeof(*regs));
	REGS_TID = tid;   /* the fakes below answer for the last thread read */
	return 0;
}
uint64_t tracer_call_arg(const arch_regs *regs, unsigned n)
{
	(void)regs;
	return n == 0 ? ARG0[REGS_TID] : 0;
}
uint64_t tracer_explore_thread_pointer(const arch_regs *regs)
{
	(void)regs;
	return SELF[REGS_TID];
}
pid_t tracer_pid(const tracer *tr) { (void)tr; return MAIN_PID; }
bool tracer_mutex_owner(pid_t pid, uint64_t mutex, pid_t *owner)
{
	ck_assert_int_eq(pid, MAIN_PID);
	ck_assert_uint_eq(mutex, MUTEX);
	*owner = OWNER;
	return true;
}

/* The one rwlock, barrier, semaphore at RWLOCK, BARRIER, SEM. */
#define RWLOCK 0x2000
#define BARRIER 0x3000
#define SEM 0x4000
static tracer_rwlock RW;
static unsigned BAR_IN, BAR_COUNT, SEM_VALUE;
/* The thread waiting in a futex, as /proc would say, or 0; CPU time (ns) per tid. */
static pid_t IN_FUTEX;
static unsigned long long CPU[64];

bool tracer_rwlock_read(pid_t pid, uint64_t rw, tracer_rwlock *out)
{
	ck_assert_int_eq(pid, MAIN_PID);
	ck_assert_uint_eq(rw, RWLOCK);
	*out = RW;
	return true;
}
bool tracer_barrier_read(pid_t pid, uint64_t bar, unsigned *waiting, unsigned *count)
{
	ck_assert_int_eq(pid, MAIN_PID);
	ck_assert_uint_eq(bar, BARRIER);
	*waiting = BAR_IN;
	*count = BAR_COUNT;
	return true;
}
bool tracer_spin_taken(pid_t pid, uint64_t lock, bool *taken)
{
	(void)pid, (void)lock;
	*taken = false;
	return false;
}
bool tracer_sem_value(pid_t pid, uint64_t sem, unsigned *value)
{
	ck_assert_int_eq(pid, MAIN_PID);
	ck_assert_uint_eq(sem, SEM);
	*value = SEM_VALUE;
	return true;
}
/* The thread asleep in nanosleep, as /proc would say, or 0; the one parked, fired. */
static pid_t ASLEEP, PARKED, FIRED;

void tracer_tstate_read(pid_t pid, pid_t tid, tracer_tstate *st)
{
	ck_assert_int_eq(pid, MAIN_PID);
	memset(st, 0, sizeof(*st));
	st->tid = tid;
	st->state = tid == IN_FUTEX || tid == ASLEEP ? 'S' : 'R';
	st->in_syscall = tid == IN_FUTEX || tid == ASLEEP;
	st->sys = tid == ASLEEP ? ARCH_SYS_NANOSLEEP : ARCH_SYS_FUTEX;
	st->cpu_ns = CPU[tid];
}
enum tracer_fire tracer_wait_fireable(enum arch_sys sys, const uint64_t args[6],
				      unsigned *arg)
{
	(void)args;
	*arg = 0;
	return sys == ARCH_SYS_NANOSLEEP ? TRACER_FIRE_RETURN : TRACER_FIRE_NO;
}
int tracer_park(tracer *tr, pid_t tid, rg_err *err)
{
	(void)tr, (void)err;
	ck_assert_int_eq(PARKED, 0);
	PARKED = tid;
	return 1;
}
/* The time each parked thread asked to sleep (ns; 10 ms when not set). */
static uint64_t SLEEP_NS[64];
uint64_t tracer_parked_ns(tracer *tr, pid_t tid)
{
	(void)tr;
	return SLEEP_NS[tid] ? SLEEP_NS[tid] : 10000000u;
}
/* The threads whose sleeps the tracer watches (tracer_watch_sleeps). */
static bool WATCHED[64];
void tracer_watch_sleeps(tracer *tr, pid_t tid, bool on)
{
	(void)tr;
	WATCHED[tid] = on;
}
/* The threads parked as their sleep began (TRACER_EV_SLEEPS). */
static bool PARKED_AT_ENTRY[64];
int tracer_fire(tracer *tr, pid_t tid, rg_err *err)
{
	(void)tr, (void)err;
	if (PARKED_AT_ENTRY[tid]) {
		PARKED_AT_ENTRY[tid] = false;
	} else {
		ck_assert_int_eq(tid, PARKED);
		PARKED = 0;
	}
	FIRED = tid;
	return 0;
}
/* the threads a fatal signal or exit_group is taking (by tid), and how
 * many looks those between the SIGKILL they took and their exit stay
 * running (then dying) */
static bool DYING[64];
static int RUNNING[64];
enum tracer_fate tracer_thread_fate(const tracer *tr, pid_t tid)
{
	(void)tr;
	if (RUNNING[tid] && !--RUNNING[tid])
		DYING[tid] = true;
	return DYING[tid] ? TRACER_DYING : RUNNING[tid] ? TRACER_RUNS : TRACER_LIVES;
}
enum tracer_wait tracer_tstate_wait(pid_t pid, const tracer_tstate *st)
{
	(void)pid, (void)st;
	return TRACER_WAIT_NONE;
}
uint64_t tracer_tstate_futex(const tracer_tstate *st)
{
	return st->in_syscall && st->sys == ARCH_SYS_FUTEX ? 0x5000 : 0;
}

/* ---- fixtures ---------------------------------------------------------- */

enum { MAIN = 10, A = 11, B = 12 };
/* points: 0 a line, 1 pthread_mutex_lock, 2 pthread_join, 3 rdlock,
 * 4 wrlock, 5 barrier wait, 6 sem_wait, 7 condition wait */
enum { NPOINTS = 8 };
static const enum explore_point_kind KINDS[NPOINTS] = {
	XP_LINE, XP_MUTEX_LOCK, XP_JOIN, XP_RDLOCK, XP_WRLOCK, XP_BARRIER, XP_SEM_WAIT, XP_WAIT,
};
static size_t GATE[NPOINTS] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static plan_bp BP[NPOINTS];
static struct session S;
static explore_sched SC;
static explore_decider *X;

static void setup(void)
{
	memset(&S, 0, sizeof(S));
	memset(ARG0, 0, sizeof(ARG0));
	memset(SELF, 0, sizeof(SELF));
	OWNER = 0;
	memset(&RW, 0, sizeof(RW));
	BAR_IN = BAR_COUNT = SEM_VALUE = 0;
	IN_FUTEX = ASLEEP = PARKED = FIRED = 0;
	memset(WATCHED, 0, sizeof(WATCHED));
	memset(SLEEP_NS, 0, sizeof(SLEEP_NS));
	memset(PARKED_AT_ENTRY, 0, sizeof(PARKED_AT_ENTRY));
	memset(DYING, 0, sizeof(DYING));
	memset(RUNNING, 0, sizeof(RUNNING));
	for (int i = 0; i < 64; i++)
		CPU[i] = 1;   /* known, and little */
	for (int i = 0; i < NPOINTS; i++) {
		memset(&BP[i], 0, sizeof(BP[i]));
		BP[i].gates = &GATE[i];
		BP[i].ngates = 1;
		BP[i].site.obj = 1;   /* a library's: no executable to ask */
	}
	explore_sched_init_forced(&SC, NULL, 0);
	X = explore_decider_new((session *)&S, KINDS, &SC, 1e9, false);
	for (pid_t t = MAIN; t <= B; t++)
		SELF[t] = 0x7000 + (uint64_t)t;
}

static void teardown(void)
{
	explore_decider_free(X);
	explore_sched_release(&SC);
}

static enum decision arrive(pid_t tid, int point)
{
	return explore_decider_ops.arrive(X, tid, &BP[point], 0);
}

static void start(pid_t tid, bool is_main)
{
	explore_decider_ops.thread_started(X, tid, is_main ? NULL : "worker", is_main, 0);
}

/* ---- tests ------------------------------------------------------------- */

/*
 * A decider (with virtual time or not), main and A started, A held at its
 * first point and main running from its own.
 */
static void main_runs(bool virtual_time)
{
	explore_decider_free(X);
	X = explore_decider_new((session *)&S, KINDS, &SC, 500, virtual_time);
	start(MAIN, true);
	start(A, false);
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);
}


/* Main alone goes on; a new thread is waited for before anyone is chosen. */
START_TEST(serialises)
{
	start(MAIN, true);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);
	start(A, false);
	/* main at its next point: A is on its way to its first, so nobody runs */
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_HOLD);
	ck_assert_uint_eq(S.nreleased, 0);
	ck_assert(explore_decider_ops.is_held(X, MAIN));
	/* A arrives: the default schedule keeps main running (no preemption) */
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], MAIN);
	ck_assert_uint_eq(explore_decider_ops.nheld(X), 1);
	/* main exits: A, the only one left, goes on */
	explore_decider_ops.thread_exited(X, MAIN, 0);
	ck_assert_uint_eq(S.nreleased, 2);
	ck_assert_int_eq(S.released[1], A);

	const explore_step *st;
	size_t n = explore_decider_steps(X, &st);

	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(st[2].thread, 1);
	ck_assert_int_eq(st[2].prev, 0);
	ck_assert_int_eq(st[2].prev_stop, XS_EXITED);
	ck_assert_str_eq(explore_decider_thread(X, 1)->start, "worker");
	ck_assert_int_eq(explore_decider_thread(X, 1)->nth, 1);
}
END_TEST

/* A thread at a lock another live thread owns is not chosen, whatever the schedule says. */
START_TEST(owned_lock_is_not_runnable)
{
	explore_dev dev = { 0, 0, 2, 1 };   /* when main is at point 0 again: run A */

	explore_sched_release(&SC);
	explore_sched_init_forced(&SC, &dev, 1);
	start(MAIN, true);
	start(A, false);
	ARG0[A] = MUTEX;
	OWNER = MAIN;
	ck_assert_int_eq(arrive(A, 1), DECIDE_HOLD);   /* main still on its way */
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS); /* only main can run */
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS); /* the deviation cannot apply */
	OWNER = 0;                                       /* main unlocked */
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);  /* hit 3: no deviation */
	ck_assert_uint_eq(S.nreleased, 0);
	ck_assert_uint_eq(SC.npreempt, 0);
}
END_TEST

/*
 * The program goes down as a whole (main's exit_group): no thread is
 * chosen as the others die, whatever order their deaths come in; one
 * still running (between its SIGKILL and its exit) is looked at again.
 */
START_TEST(no_choice_while_the_program_dies)
{
	const explore_step *st;

	start(MAIN, true);
	start(A, false);
	start(B, false);
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);
	ck_assert_int_eq(arrive(B, 0), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);
	size_t before = explore_decider_steps(X, &st), released = S.nreleased;

	DYING[A] = true;
	RUNNING[B] = 2;        /* took its SIGKILL, not yet at its exit */
	explore_decider_ops.thread_exited(X, MAIN, 0);
	ck_assert_uint_eq(explore_decider_steps(X, &st), before);
	ck_assert_uint_eq(S.nreleased, released);
	ck_assert_double_lt(explore_decider_ops.tick(X, 1e6), 0);
	explore_decider_ops.thread_exited(X, A, 0);
	ck_assert_uint_eq(explore_decider_steps(X, &st), before);
	ck_assert_uint_eq(S.nreleased, released);
}
END_TEST

/* One thread's own exit (pthread_exit) is a choice like any other. */
START_TEST(a_lone_exit_still_chooses)
{
	const explore_step *st;

	start(MAIN, true);
	start(A, false);
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);
	size_t before = explore_decider_steps(X, &st);

	explore_decider_ops.thread_exited(X, MAIN, 0);
	ck_assert_uint_eq(explore_decider_steps(X, &st), before + 1);
	ck_assert_int_eq(S.released[S.nreleased - 1], A);
}
END_TEST

/* A join on a live thread waits; the target's exit makes it runnable. */
START_TEST(join_waits_for_its_target)
{
	start(MAIN, true);
	start(A, false);
	ARG0[MAIN] = SELF[A];
	ck_assert_int_eq(arrive(MAIN, 2), DECIDE_HOLD); /* A not at a point yet */
	ck_assert_int_eq(arrive(A, 0), DECIDE_PASS);    /* main cannot run: A goes on */
	ck_assert_int_eq(arrive(A, 0), DECIDE_PASS);
	explore_decider_ops.thread_exited(X, A, 0);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], MAIN);
}
END_TEST

/*
 * --follow-fork: a forked child's threads count apart (nth within their
 * process), and a join in the child names a pthread_t that a thread of
 * the program has as well (the child's memory is a copy): only the
 * child's own thread of that value keeps it waiting.
 */
START_TEST(child_threads_counted_apart)
{
	start(MAIN, true);
	start(A, false);
	explore_decider_ops.thread_started(X, CHILD_TID, NULL, false, 0);
	start(CHILD_TID + 1, false);
	ck_assert_int_eq(explore_decider_thread(X, 1)->proc, 0);
	ck_assert_int_eq(explore_decider_thread(X, 2)->proc, 1);
	ck_assert_int_eq(explore_decider_thread(X, 3)->proc, 1);
	ck_assert_int_eq(explore_decider_thread(X, 3)->nth, 1);   /* not 2: A is the program's */
	explore_decider_ops.thread_exited(X, CHILD_TID + 1, 0);
	/* main joins A, A waits for main's mutex: neither can run */
	ARG0[MAIN] = SELF[A];
	ARG0[A] = MUTEX;
	OWNER = MAIN;
	ck_assert_int_eq(arrive(MAIN, 2), DECIDE_HOLD);
	ck_assert_int_eq(arrive(A, 1), DECIDE_HOLD);
	/* the child joins the pthread_t A has in the program: not A, it may go on */
	ARG0[CHILD_TID] = SELF[A];
	ck_assert_int_eq(arrive(CHILD_TID, 2), DECIDE_PASS);
	ck_assert(!explore_decider_deadlock(X));
}
END_TEST

/* Nothing can run: the stall watch's verdict stands, as a deadlock. */
START_TEST(nothing_runnable_is_deadlock)
{
	start(MAIN, true);
	start(A, false);
	ARG0[MAIN] = SELF[A];      /* main joins A */
	ARG0[A] = MUTEX;           /* A locks what main owns */
	OWNER = MAIN;
	ck_assert_int_eq(arrive(MAIN, 2), DECIDE_HOLD);
	ck_assert_int_eq(arrive(A, 1), DECIDE_HOLD);
	ck_assert_uint_eq(S.nreleased, 0);
	ck_assert(!explore_decider_ops.stuck(X, 100));
	ck_assert(explore_decider_deadlock(X));
}
END_TEST

/* The chosen thread blocked unseen: the stall watch lets another go. */
START_TEST(blocked_thread_gives_way)
{
	start(MAIN, true);
	start(A, false);
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);     /* main on its way */
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);  /* default: lowest, main */
	/* main blocks in the kernel without reaching a point */
	ck_assert(explore_decider_ops.stuck(X, 100));
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], A);
	ck_assert(!explore_decider_deadlock(X));

	const explore_step *st;
	size_t n = explore_decider_steps(X, &st);

	ck_assert_int_eq(st[n - 1].prev_stop, XS_BLOCKED);
}
END_TEST

/* A reader waits while another thread writes; a writer also while others read. */
START_TEST(rwlock_writer_and_readers)
{
	start(MAIN, true);
	start(A, false);
	start(B, false);
	ARG0[A] = ARG0[B] = RWLOCK;
	RW.writer = MAIN;              /* main holds it for writing */
	RW.write_phase = true;
	ck_assert_int_eq(arrive(A, 3), DECIDE_HOLD);
	ck_assert_int_eq(arrive(B, 4), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS); /* neither A nor B can run */
	RW.writer = 0;                 /* main unlocked; A gets it to read */
	RW.write_phase = false;
	explore_decider_ops.thread_exited(X, MAIN, 0);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], A);
	RW.readers = 1;                /* A reads: B, the writer, must wait */
	ck_assert_int_eq(arrive(A, 0), DECIDE_PASS);
	/* A stuck in the kernel: B cannot run either, a deadlock */
	ck_assert(!explore_decider_ops.stuck(X, 100));
	ck_assert(explore_decider_deadlock(X));
}
END_TEST

/* A thread at a barrier runs only once the threads there fill the round. */
START_TEST(barrier_fills)
{
	start(MAIN, true);
	start(A, false);
	ARG0[MAIN] = ARG0[A] = BARRIER;
	BAR_COUNT = 2;
	ck_assert_int_eq(arrive(MAIN, 5), DECIDE_HOLD);   /* A on its way */
	ck_assert(!explore_decider_ops.stuck(X, 100));    /* 1 of 2: nobody */
	ck_assert(explore_decider_deadlock(X));
	teardown();
	setup();
	start(MAIN, true);
	start(A, false);
	ARG0[MAIN] = ARG0[A] = BARRIER;
	BAR_COUNT = 2;
	ck_assert_int_eq(arrive(MAIN, 5), DECIDE_HOLD);
	ck_assert_int_eq(arrive(A, 5), DECIDE_HOLD);      /* 2 of 2: main goes */
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], MAIN);
}
END_TEST

/* sem_wait on a count of 0 waits for a post. */
START_TEST(semaphore_count)
{
	start(MAIN, true);
	start(A, false);
	ARG0[A] = SEM;
	ck_assert_int_eq(arrive(A, 6), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);   /* A cannot run */
	SEM_VALUE = 1;                                    /* main posted */
	explore_decider_ops.thread_exited(X, MAIN, 0);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], A);
}
END_TEST

/*
 * A thread chosen at a condition wait that then waits on a futex gives way
 * at the next tick, long before the run_max deadline.
 */
START_TEST(futex_wait_gives_way)
{
	explore_decider_free(X);
	X = explore_decider_new((session *)&S, KINDS, &SC, 500, false);
	start(MAIN, true);
	start(A, false);
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 7), DECIDE_PASS);   /* main goes into its wait */
	/* it runs: the decider wants to look again soon, not at 500 ms */
	ck_assert(explore_decider_ops.tick(X, 0.5) < 100);
	ck_assert_uint_eq(S.nreleased, 0);
	IN_FUTEX = MAIN;
	explore_decider_ops.tick(X, 1.5);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], A);

	const explore_step *st;
	size_t n = explore_decider_steps(X, &st);

	ck_assert_int_eq(st[n - 1].prev_stop, XS_BLOCKED);
}
END_TEST

/*
 * A thread given up as blocked that another thread woke runs to its next
 * point before anyone is chosen again: the two never run at once.
 */
START_TEST(woken_thread_is_waited_for)
{
	explore_decider_free(X);
	X = explore_decider_new((session *)&S, KINDS, &SC, 500, false);
	start(MAIN, true);
	start(A, false);
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);
	ck_assert_int_eq(arrive(MAIN, 7), DECIDE_PASS);   /* main waits on its condition */
	IN_FUTEX = MAIN;
	explore_decider_ops.tick(X, 1.5);
	ck_assert_uint_eq(S.nreleased, 1);                /* A goes on */
	IN_FUTEX = 0;                                      /* A signalled main */
	ck_assert_int_eq(arrive(A, 0), DECIDE_HOLD);       /* main is on its way */
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_HOLD);    /* default: A, which ran last */
	ck_assert_uint_eq(S.nreleased, 2);
	ck_assert_int_eq(S.released[1], A);
}
END_TEST

/* A thread chosen at a line is looked at less often; a futex wait still gives way. */
START_TEST(line_polled_slower)
{
	main_runs(false);
	IN_FUTEX = MAIN;
	ck_assert(explore_decider_ops.tick(X, 1.5) > 1.5);
	ck_assert_uint_eq(S.nreleased, 0);
	explore_decider_ops.tick(X, 5.5);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], A);
}
END_TEST

/*
 * Wall-clock time does not decide: a thread that is runnable but got no
 * CPU (a loaded machine) is waited for, new or chosen, however long; one
 * that used run_max of CPU without reaching a point is let loose.
 */
START_TEST(cpu_time_not_wall_time)
{
	explore_decider_free(X);
	X = explore_decider_new((session *)&S, KINDS, &SC, 500, false);
	start(MAIN, true);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);
	start(A, false);
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_HOLD);  /* A on its way */
	explore_decider_ops.tick(X, 60000);               /* a minute, no CPU */
	ck_assert_uint_eq(S.nreleased, 0);
	CPU[A] = 600ull * 1000 * 1000;                    /* A spins */
	explore_decider_ops.tick(X, 60010);
	ck_assert_uint_eq(S.nreleased, 1);
	ck_assert_int_eq(S.released[0], MAIN);
	/* main, chosen, runs without a point: its CPU counts from its first look */
	CPU[MAIN] = 1000;
	explore_decider_ops.tick(X, 60020);
	explore_decider_ops.tick(X, 120000);
	ck_assert(explore_decider_ops.nheld(X) == 0);
	ck_assert_uint_eq(S.nreleased, 1);
	CPU[MAIN] = 1000 + 500ull * 1000 * 1000;
	explore_decider_ops.tick(X, 120010);
	ck_assert_int_eq(arrive(A, 0), DECIDE_PASS);      /* main let loose: A goes */
}
END_TEST

/*
 * Time under serialisation: a chosen thread that goes to sleep is parked
 * in its sleep, and another thread is chosen; the sleep ends (its timeout
 * fires) only once no held thread can run, and the sleeper then runs to
 * its next point before anyone is chosen.
 */
START_TEST(sleeper_fires_when_nobody_can_run)
{
	main_runs(true);
	ASLEEP = MAIN;
	explore_decider_ops.tick(X, 5.5);
	ck_assert_int_eq(PARKED, MAIN);
	ck_assert(explore_decider_ops.is_held(X, MAIN));
	ck_assert_uint_eq(S.nreleased, 1);                /* A, at once */
	ck_assert_int_eq(S.released[0], A);
	ck_assert_int_eq(FIRED, 0);
	ck_assert_int_eq(arrive(A, 0), DECIDE_PASS);       /* A alone can run: on */
	ck_assert_int_eq(FIRED, 0);
	OWNER = MAIN;                                      /* A's lock is main's */
	ARG0[A] = MUTEX;
	ASLEEP = 0;
	ck_assert_int_eq(arrive(A, 1), DECIDE_HOLD);       /* nobody can run: time passes */
	ck_assert_int_eq(FIRED, MAIN);
	ck_assert(!explore_decider_ops.is_held(X, MAIN));
	ck_assert_int_eq(arrive(MAIN, 0), DECIDE_PASS);    /* it ran to its point */
}
END_TEST

/*
 * A sleep the tracer parks as it begins (TRACER_EV_SLEEPS) is parked at
 * once, with no look at /proc (which the machine's load could make come
 * after the sleep), and another thread is chosen; without virtual time no
 * thread is watched, and a sleep reported anyway is slept.
 */
START_TEST(sleep_parked_as_it_begins)
{
	ck_assert(!WATCHED[MAIN]);
	start(MAIN, true);
	ck_assert(!WATCHED[MAIN]);
	ck_assert(!explore_decider_ops.sleeps->asleep(X, MAIN, 1));
	main_runs(true);
	ck_assert(WATCHED[MAIN] && WATCHED[A]);
	PARKED_AT_ENTRY[MAIN] = true;                      /* main enters a sleep */
	ck_assert(explore_decider_ops.sleeps->asleep(X, MAIN, 0.5));
	ck_assert(explore_decider_ops.is_held(X, MAIN));
	ck_assert_uint_eq(S.nreleased, 1);                /* A, at once */
	ck_assert_int_eq(S.released[0], A);
	OWNER = MAIN;                                      /* A's lock is main's */
	ARG0[A] = MUTEX;
	ck_assert_int_eq(arrive(A, 1), DECIDE_HOLD);       /* nobody can run: time passes */
	ck_assert_int_eq(FIRED, MAIN);
	/* a held thread's sleep is no sleep of its stretch */
	ck_assert(!explore_decider_ops.sleeps->asleep(X, A, 1));
}
END_TEST

/*
 * Explore's clock: of two parked sleepers, the one whose sleep ends first
 * fires first, though it was parked last (a 30 s sleep does not end
 * before a 1 ms one begun after it).
 */
START_TEST(shorter_sleep_fires_first)
{
	main_runs(true);
	SLEEP_NS[MAIN] = 30000000000u;
	PARKED_AT_ENTRY[MAIN] = true;
	ck_assert(explore_decider_ops.sleeps->asleep(X, MAIN, 1));
	ck_assert_int_eq(S.released[S.nreleased - 1], A);
	SLEEP_NS[A] = 1000000u;
	PARKED_AT_ENTRY[A] = true;
	ck_assert(explore_decider_ops.sleeps->asleep(X, A, 2));   /* nobody can run */
	ck_assert_int_eq(FIRED, A);
	ck_assert(explore_decider_ops.is_held(X, MAIN));
	ck_assert_int_eq(arrive(A, 0), DECIDE_PASS);       /* A alone can run */
	SLEEP_NS[A] = 40000000000u;
	PARKED_AT_ENTRY[A] = true;
	ck_assert(explore_decider_ops.sleeps->asleep(X, A, 3));   /* 1 ms + 40 s: main's first */
	ck_assert_int_eq(FIRED, MAIN);
}
END_TEST

/* A thread chosen again and again (it spins, waiting for the sleeper) lets time pass. */
START_TEST(spinner_lets_time_pass)
{
	main_runs(true);
	ASLEEP = MAIN;
	explore_decider_ops.tick(X, 5.5);
	ck_assert_int_eq(PARKED, MAIN);
	int i;

	for (i = 0; i < 1000 && arrive(A, 0) == DECIDE_PASS; i++)
		ck_assert_int_eq(FIRED, 0);
	ck_assert_int_eq(FIRED, MAIN);                     /* held: main runs to its point */
	ck_assert_int_gt(i, 10);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("decide_explore");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, serialises);
	tcase_add_test(tc, owned_lock_is_not_runnable);
	tcase_add_test(tc, join_waits_for_its_target);
	tcase_add_test(tc, child_threads_counted_apart);
	tcase_add_test(tc, nothing_runnable_is_deadlock);
	tcase_add_test(tc, blocked_thread_gives_way);
	tcase_add_test(tc, rwlock_writer_and_readers);
	tcase_add_test(tc, barrier_fills);
	tcase_add_test(tc, semaphore_count);
	tcase_add_test(tc, futex_wait_gives_way);
	tcase_add_test(tc, line_polled_slower);
	tcase_add_test(tc, woken_thread_is_waited_for);
	tcase_add_test(tc, cpu_time_not_wall_time);
	tcase_add_test(tc, sleeper_fires_when_nobody_can_run);
	tcase_add_test(tc, spinner_lets_time_pass);
	tcase_add_test(tc, sleep_parked_as_it_begins);
	tcase_add_test(tc, shorter_sleep_fires_first);
	tcase_add_test(tc, no_choice_while_the_program_dies);
	tcase_add_test(tc, a_lone_exit_still_chooses);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
