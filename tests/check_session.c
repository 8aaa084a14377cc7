/*
 * runner/session: the wait-for graph (waitfor.h) over made-up threads,
 * the stall watch (stall.h) over this process's own threads, and the
 * decider interface's check (decider.h).  Nothing is traced.
 */
#include <check.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "decider.h"
#include "stall.h"
#include "waitfor.h"

/* ---- the wait-for graph ---------------------------------------------- */

/* A node: R runs, T waits for one thread, A waits for anyone. */
static wf_node wnode(pid_t tid, char kind, pid_t on)
{
	wf_node n = { .tid = tid, .on = on };

	n.kind = kind == 'R' ? WF_RUNS : kind == 'T' ? WF_ON_THREAD :
		 kind == 'H' ? WF_HELD : WF_ON_ANYONE;
	return n;
}

/* "1 2" : the tids marked stuck, in node order. */
static const char *stuck_of(wf_node *v, size_t n)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	wf_solve(v, n);
	for (size_t i = 0; i < n; i++)
		if (v[i].stuck)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d",
						len ? " " : "", (int)v[i].tid);
	return buf;
}

/* Two threads each blocked on a mutex the other owns: stuck, bystanders or not. */
START_TEST(wf_mutex_cycle)
{
	wf_node v[4] = { wnode(1, 'R', 0), wnode(2, 'T', 3), wnode(3, 'T', 2),
			      wnode(4, 'A', 0) };

	ck_assert_str_eq(stuck_of(v, 4), "2 3");
	ck_assert_uint_eq(v[1].next, 2);
	ck_assert_uint_eq(v[2].next, 1);
	/* a chain into the cycle is stuck with it; one to a runner is not */
	wf_node w[4] = { wnode(1, 'R', 0), wnode(2, 'T', 3), wnode(3, 'T', 2),
			      wnode(5, 'T', 2) };
	ck_assert_str_eq(stuck_of(w, 4), "2 3 5");
	wf_node x[3] = { wnode(1, 'R', 0), wnode(2, 'T', 1), wnode(3, 'T', 2) };
	ck_assert_str_eq(stuck_of(x, 3), "");
	/* an owner that is gone never unlocks; a self-relock never returns */
	wf_node y[3] = { wnode(1, 'R', 0), wnode(2, 'T', 99), wnode(3, 'T', 3) };
	ck_assert_str_eq(stuck_of(y, 3), "2 3");
}
END_TEST

/* Waiting for anyone is stuck only when everybody is (the old rule). */
START_TEST(wf_anyone)
{
	wf_node v[3] = { wnode(1, 'A', 0), wnode(2, 'T', 1), wnode(3, 'R', 0) };
	wf_node w[2] = { wnode(1, 'A', 0), wnode(2, 'T', 1) };
	wf_node x[1] = { wnode(1, 'A', 0) };

	ck_assert_str_eq(stuck_of(v, 3), "");
	ck_assert_str_eq(stuck_of(w, 2), "1 2");
	ck_assert_str_eq(stuck_of(x, 1), "1");
}
END_TEST

/* A parent in wait4 for a child process: any of the child's threads can end
 * the wait; it is stuck when all of them are, and free when none is left. */
START_TEST(wf_any_of)
{
	pid_t child[] = { 5, 6 };
	pid_t by_parent[] = { 1 };
	wf_need need = { .event = "parent-went", .gate = 0, .by = by_parent, .nby = 1 };
	wf_node v[3] = { wnode(1, 'R', 0), wnode(5, 'H', 0), wnode(6, 'R', 0) };

	v[0].kind = WF_ON_ANY_OF;
	v[0].ons = child;
	v[0].nons = 2;
	v[1].needs = &need;
	v[1].nneeds = 1;
	/* the child's other thread runs: the child may still exit */
	ck_assert_str_eq(stuck_of(v, 3), "");
	/* it is blocked for good too: parent and child wait on each other */
	v[2] = wnode(6, 'T', 5);
	ck_assert_str_eq(stuck_of(v, 3), "1 5 6");
	ck_assert_uint_eq(v[0].next, 1);
	/* no thread of the child is left: its wait ends */
	child[0] = 50;
	child[1] = 60;
	ck_assert_str_eq(stuck_of(v, 3), "");
}
END_TEST

/* Held threads: their needs, who could meet them, and anyone. */
START_TEST(wf_held)
{
	pid_t by_incr[] = { 3 };
	wf_need need = { .event = "deleted", .gate = 1, .by = by_incr, .nby = 1 };
	wf_node v[4] = { wnode(1, 'R', 0), wnode(2, 'H', 0), wnode(3, 'T', 2),
			      wnode(4, 'R', 0) };

	/* held 2 waits for what only 3 does; 3 waits for the mutex 2 owns */
	v[1].needs = &need;
	v[1].nneeds = 1;
	ck_assert_str_eq(stuck_of(v, 4), "2 3");
	ck_assert_int_eq(v[1].blocked_need, 0);
	ck_assert_uint_eq(v[1].next, 2);
	/* ... unless any thread could do it: the runners might */
	need.anyone = true;
	ck_assert_str_eq(stuck_of(v, 4), "");
	need.anyone = false;
	/* or 3 runs */
	v[2] = wnode(3, 'R', 0);
	ck_assert_str_eq(stuck_of(v, 4), "");
	/* the only one who could is gone */
	by_incr[0] = 77;
	ck_assert_str_eq(stuck_of(v, 4), "2");
	ck_assert_uint_eq(v[1].next, (size_t)-1);
	/* no needs known: as anyone */
	v[1].nneeds = 0;
	ck_assert_str_eq(stuck_of(v, 4), "");
	v[0] = wnode(1, 'A', 0);
	v[2] = wnode(3, 'A', 0);
	v[3] = wnode(4, 'H', 0);
	ck_assert_str_eq(stuck_of(v, 4), "1 2 3 4");
}
END_TEST

/* Two held threads, each the only opener of what the other waits for. */
START_TEST(wf_held_cycle)
{
	pid_t b1[] = { 2 }, b2[] = { 1 };
	wf_need n1 = { .event = "b", .by = b1, .nby = 1 };
	wf_need n2[2] = { { .event = "x", .anyone = true }, { .event = "a", .by = b2, .nby = 1 } };
	wf_node v[3] = { wnode(1, 'H', 0), wnode(2, 'H', 0), wnode(3, 'R', 0) };

	v[0].needs = &n1;
	v[0].nneeds = 1;
	v[1].needs = n2;
	v[1].nneeds = 2;
	/* one need that cannot be met is enough */
	ck_assert_str_eq(stuck_of(v, 3), "1 2");
	ck_assert_int_eq(v[1].blocked_need, 1);
}
END_TEST

/* ---- the decider interface ---------------------------------------------- */

static void nop_started(void *d, pid_t t, const char *s, bool m, double ms)
{ (void)d; (void)t; (void)s; (void)m; (void)ms; }
static void nop_exited(void *d, pid_t t, double ms) { (void)d; (void)t; (void)ms; }
static enum decision nop_arrive(void *d, pid_t t, const plan_bp *at, double ms)
{ (void)d; (void)t; (void)at; (void)ms; return DECIDE_PASS; }
static bool nop_live(void *d, const plan_bp *at) { (void)d; (void)at; return true; }
static double nop_tick(void *d, double ms) { (void)d; (void)ms; return -1; }
static bool nop_held(void *d, pid_t t) { (void)d; (void)t; return false; }
static size_t nop_nheld(void *d) { (void)d; return 0; }
static bool nop_stuck(void *d, double ms) { (void)d; (void)ms; return false; }
static void nop_diagnose(void *d, bool u) { (void)d; (void)u; }
static size_t two_needs(void *d, pid_t t, wf_need **out)
{
	(void)d; (void)t;
	*out = calloc(2, sizeof(**out));
	return 2;
}

#define CORE .thread_started = nop_started, .thread_exited = nop_exited,        \
	.arrive = nop_arrive, .site_live = nop_live, .tick = nop_tick,          \
	.is_held = nop_held, .nheld = nop_nheld, .stuck = nop_stuck,            \
	.diagnose = nop_diagnose

/* ---- the stall watch, on this process's threads ------------------- */

/* Two threads of this process that deadlock for good: each holds one mutex
   and locks the other's (Check runs each test in a fork, which ends them). */
static pthread_mutex_t abba[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t never_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t abba_locked;

static void *abba_thread(void *arg)
{
	int i = (int)(intptr_t)arg;

	pthread_mutex_lock(&abba[i]);
	pthread_barrier_wait(&abba_locked);     /* both hold theirs */
	pthread_mutex_lock(&abba[1 - i]);
	return NULL;
}

/* A thread that waits on a condition nobody signals: for anyone. */
static void *never_thread(void *arg)
{
	pthread_mutex_lock(&never_m);
	for (;;)
		pthread_cond_wait(&never, &never_m);
	return arg;
}

/*
 * How many threads but this one are asleep in a futex wait for ever, and
 * the sum of their run counts.  One look is no snapshot: a thread seen
 * asleep in the barrier may be woken by one read after it.
 */
static size_t asleep_now(unsigned long long *runs)
{
	pid_t self = (pid_t)syscall(SYS_gettid), *tids;
	size_t n, asleep = 0;

	*runs = 0;
	ck_assert_int_eq(tracer_tasks(getpid(), &tids, &n), 0);
	for (size_t i = 0; i < n; i++) {
		tracer_tstate st;

		memset(&st, 0, sizeof(st));
		tracer_tstate_read(getpid(), tids[i], &st);
		if (tids[i] != self && st.state == 'S' &&
		    tracer_tstate_wait(getpid(), &st) == TRACER_WAIT_FOREVER) {
			asleep++;
			*runs += st.runs;
		}
	}
	free(tids);
	return asleep == n - 1 ? asleep : 0;
}

/* Every thread but this one asleep in a futex wait: two looks agree (none
   ran in between), so at an instant all were, and none is to wake. */
static void others_asleep(void)
{
	unsigned long long runs = 0, before = 0;
	size_t was = 0;

	for (int tries = 0; tries < 500; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		size_t now = asleep_now(&runs);

		if (now && now == was && runs == before)
			return;
		was = now;
		before = runs;
		nanosleep(&ts, NULL);
	}
	ck_abort_msg("the test's threads never all went to sleep");
}

static bool held_self(void *ctx, pid_t tid)
{
	(void)ctx;
	return tid == (pid_t)syscall(SYS_gettid);
}

static void start_abba(void)
{
	pthread_t th;

	pthread_barrier_init(&abba_locked, NULL, 2);
	for (intptr_t i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&th, NULL, abba_thread, (void *)i), 0);
}

/* The verdicts of looks at t_ms, one after the other: "MMS" */
static const char *looks(stall_watch *w, stall_held_fn held, const double *t, size_t n)
{
	static char buf[16];
	double next;

	for (size_t i = 0; i < n; i++) {
		enum stall_verdict v = stall_check(w, held, NULL, NULL, t[i], &next);

		buf[i] = v == STALL_STUCK ? 'S' : v == STALL_MAYBE ? 'M' : 'N';
	}
	buf[n] = '\0';
	return buf;
}

/* A mutex cycle is sure: stuck at the second look that agrees, with the
   default quiet period; one given is waited out. */
START_TEST(stall_sure_cycle)
{
	static const double t[] = { 1000, 1006, 1050, 1101 };
	stall_watch *w;
	double next;

	start_abba();
	others_asleep();
	w = stall_new(getpid(), 0);
	ck_assert_int_eq(stall_check(w, held_self, NULL, NULL, 1000, &next), STALL_MAYBE);
	ck_assert(next <= 1000 + 5 + 50);   /* looked at again soon, not a step later */
	ck_assert_int_eq(stall_check(w, held_self, NULL, NULL, 1006, &next), STALL_STUCK);
	stall_free(w);
	w = stall_new(getpid(), 100);
	ck_assert_str_eq(looks(w, held_self, t, 4), "MMMS");
	stall_free(w);
}
END_TEST

/* A thread that waits for anyone in the set: the quiet period, default or not. */
START_TEST(stall_anyone_waits_out)
{
	static const double t[] = { 1000, 1006, 1050, 1101 };
	pthread_t th;
	stall_watch *w;

	start_abba();
	ck_assert_int_eq(pthread_create(&th, NULL, never_thread, NULL), 0);
	others_asleep();
	w = stall_new(getpid(), 0);
	ck_assert_str_eq(looks(w, held_self, t, 4), "MMMS");
	stall_free(w);
}
END_TEST

/* A core alone is a decider; each group it lacks means what decider.h says. */
START_TEST(decider_core_alone)
{
	static const decider_ops ops = { CORE };
	decider x = { &ops, NULL };
	pid_t *tids = (pid_t *)&x;
	wf_need *needs = (wf_need *)&x;
	size_t gate = 7;

	decider_check(&ops);
	ck_assert(!decider_wants_names(&x));
	ck_assert_uint_eq(decider_pass_depth(&x, 1), 0);
	ck_assert_uint_eq(decider_needs(&x, 1, &needs), 0);
	ck_assert_ptr_null(needs);
	ck_assert(!decider_has_fastpath(&x));
	ck_assert_uint_eq(decider_next_interest(&x, 1, NULL), 0);
	ck_assert(!decider_next_when(&x, 1, NULL, &gate));
	ck_assert(!decider_watches_blocking(&x));
	ck_assert_uint_eq(decider_blocking_tids(&x, &tids), 0);
	ck_assert_ptr_null(tids);
	ck_assert(!decider_done(&x));
	ck_assert(!decider_asleep(&x, 1, 0));      /* it sleeps its time */
	/* the calls whose group is missing do nothing */
	decider_named(&x, 1, "n", 0);
	decider_passed(&x, 1, false, 0);
	decider_count_passes(&x, 1, NULL, 3);
	decider_when_false(&x, 0, 3);
	decider_blocked(&x, 1, "futex", 0);
	decider_execed(&x, 1, 0);
}
END_TEST

/* A group present is asked. */
START_TEST(decider_group_asked)
{
	static const decider_waits waits = { two_needs };
	static const decider_ops ops = { CORE, .waits = &waits };
	decider x = { &ops, NULL };
	wf_need *needs = NULL;

	decider_check(&ops);
	ck_assert_uint_eq(decider_needs(&x, 1, &needs), 2);
	wf_needs_free(needs, 2);
}
END_TEST

/* A core with a hole, or a group not whole, is a broken invariant. */
START_TEST(decider_core_hole)
{
	decider_ops ops = { CORE };

	ops.stuck = NULL;
	decider_check(&ops);
}
END_TEST

START_TEST(decider_group_hole)
{
	static const decider_fastpath fp = { .next_interest = NULL };
	static const decider_ops ops = { CORE, .fastpath = &fp };

	decider_check(&ops);
}
END_TEST

static Suite *session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("waitfor");

	tcase_add_test(tc, wf_mutex_cycle);
	tcase_add_test(tc, wf_anyone);
	tcase_add_test(tc, wf_held);
	tcase_add_test(tc, wf_any_of);
	tcase_add_test(tc, wf_held_cycle);
	suite_add_tcase(s, tc);

	tc = tcase_create("stall");
	tcase_add_test(tc, stall_sure_cycle);
	tcase_add_test(tc, stall_anyone_waits_out);
	suite_add_tcase(s, tc);

	tc = tcase_create("decider");
	tcase_add_test(tc, decider_core_alone);
	tcase_add_test(tc, decider_group_asked);
	tcase_add_test_raise_signal(tc, decider_core_hole, SIGABRT);
	tcase_add_test_raise_signal(tc, decider_group_hole, SIGABRT);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(session_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
