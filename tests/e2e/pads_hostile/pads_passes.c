/*
 * No lost or doubled hits (issue 15): THREADS workers pass one gated line
 * PASSES times each, at once, and count their own passes.  Whatever the
 * gate site is made of (an int3 or a jump to a pad), racegate's counts and
 * the program's must agree, and every hit: gate must act at exactly the
 * pass it names (the specs check that with `when:` over counts[]).
 *
 *   pads_passes MODE THREADS PASSES
 *
 * MODE:
 *   call    each pass is a call of pass(), whose first line is the site
 *   loop    the site is the first line of a `for` body: the loop's jump
 *           target
 *   signal  as call, and a thread sends SIGUSR1 to the workers in a tight
 *           loop (tgkill) while they run; the handler passes the site too
 *           (on the thread it interrupts, which may be inside the site)
 *   alarm   as call, with SIGALRM from setitimer(ITIMER_REAL) every 50 µs
 *           instead, blocked in main: a worker takes it
 *   bind    as call, and worker 3 passes bind_point() halfway through its
 *           passes, where the spec binds an alias to it (`as:`): gates
 *           for that alias start to match a thread that has passed the
 *           site already
 *   longjmp as signal, but the handler siglongjmps out of whatever the
 *           worker was doing (the site included) back to its loop, which
 *           goes on until PASSES passes are complete; prints "slack J", J
 *           the number of jumps: an arrival may be cut off before its pass
 *   exit    the workers pass the site until the sender, once each has made
 *           PASSES passes, has them end with a raw exit system call from
 *           the handler, wherever they are (the site included); then main
 *           passes the site PASSES times itself; "slack" is the number of
 *           workers
 *   serial  as call, but one worker at a time: each is joined before the
 *           next is made, so the thread library gives the next one the
 *           same stack and thread pointer (TCB): a count kept by thread
 *           pointer must start again from 0
 *
 * Prints "thread K passes N" for each worker, then "total passes N"; exits
 * 0 when every worker's count is what it must be (exactly PASSES in call
 * and loop modes; at least PASSES with signals).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#define MAXT 512

static volatile long counts[MAXT];
static __thread int my_id = -1;
static volatile pid_t tids[MAXT];
static volatile int finished[MAXT];
static volatile int stop_sender;
static volatile long binds;
static volatile long jumps[MAXT];
/* longjmp mode: signals a worker has got over (landed back from its jump,
 * or returned from a handler that did not jump); the sender sends the next
 * one only then.  siglongjmp unblocks the signal before it leaves the
 * handler's stack, so a signal always pending (ptrace makes each delivery
 * slow) would nest handlers until the stack runs out. */
static volatile long landed[MAXT];
static __thread sigjmp_buf back;
static __thread volatile int armed;
static int on_sig;          /* 0: pass, 1: siglongjmp, 2: exit */
static long passes;
static int nthreads;
static const char *mode;
static pthread_barrier_t start_line;

/* one pass: a single locked add, so a handler that interrupts it and
 * passes too is never lost in a read-modify-write */
__attribute__((noinline)) static void pass(void)
{
	__atomic_add_fetch(&counts[my_id], 1, __ATOMIC_RELAXED);     /* PASS-SITE */
}

__attribute__((noinline)) static void bind_point(void)
{
	__atomic_add_fetch(&binds, 1, __ATOMIC_RELAXED);             /* BIND-SITE */
}

static void on_signal(int sig)
{
	(void)sig;
	if (my_id < 0)
		return;
	if (on_sig == 2 && counts[my_id] >= passes)
		syscall(SYS_exit, 0);
	if (on_sig == 1 && armed) {
		jumps[my_id]++;
		siglongjmp(back, 1);
	}
	if (on_sig == 1)
		landed[my_id]++;
	if (on_sig == 0)
		pass();
}

static void *worker(void *arg)
{
	long i;

	my_id = (int)(long)arg;
	tids[my_id] = (pid_t)syscall(SYS_gettid);
	if (strcmp(mode, "serial"))
		pthread_barrier_wait(&start_line);
	if (on_sig == 1) {
		if (sigsetjmp(back, 1))
			landed[my_id]++;
		armed = 1;
		while (counts[my_id] < passes)
			pass();
		armed = 0;
	} else if (on_sig == 2) {
		for (;;)
			pass();
	} else if (!strcmp(mode, "loop")) {
		for (i = 0; i < passes; i++) {
			__atomic_add_fetch(&counts[my_id], 1, __ATOMIC_RELAXED); /* LOOP-SITE */
		}
	} else {
		for (i = 0; i < passes; i++) {
			if (i == passes / 2 && my_id == 2 && !strcmp(mode, "bind"))
				bind_point();
			pass();
		}
	}
	finished[my_id] = 1;
	return NULL;
}

/* SIGUSR1 to each running worker in turn, until all have finished */
static void *sender(void *arg)
{
	long sent = 0, sent_to[MAXT] = { 0 };
	int k, left;

	(void)arg;
	do {
		left = 0;
		for (k = 0; k < nthreads; k++) {
			if (finished[k])
				continue;
			if (on_sig == 2 && tids[k] && syscall(SYS_tgkill, getpid(), tids[k], 0) != 0) {
				finished[k] = 1;        /* gone */
				continue;
			}
			left++;
			if (on_sig == 2 && counts[k] < passes)
				continue;
			if (on_sig == 1 && landed[k] < sent_to[k])
				continue;
			if (syscall(SYS_tgkill, getpid(), tids[k], SIGUSR1) == 0) {
				sent++;
				sent_to[k]++;
			}
		}
	} while (left && !stop_sender);
	fprintf(stderr, "signals sent %ld\n", sent);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAXT], s;
	struct sigaction sa;
	sigset_t alrm;
	long total = 0;
	int k, bad = 0, sig;

	if (argc != 4 || (nthreads = atoi(argv[2])) < 1 || nthreads > MAXT
	    || (passes = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: pads_passes call|loop|signal|alarm|serial THREADS PASSES\n");
		return 2;
	}
	mode = argv[1];
	on_sig = !strcmp(mode, "longjmp") ? 1 : !strcmp(mode, "exit") ? 2 : 0;
	sig = !strcmp(mode, "signal") || !strcmp(mode, "alarm") || on_sig;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	if (!strcmp(mode, "serial")) {
		for (k = 0; k < nthreads; k++) {
			pthread_create(&t[k], NULL, worker, (void *)(long)k);
			pthread_join(t[k], NULL);
		}
		goto counted;
	}
	pthread_barrier_init(&start_line, NULL, (unsigned)nthreads + 1);
	for (k = 0; k < nthreads; k++)
		pthread_create(&t[k], NULL, worker, (void *)(long)k);
	/* the workers inherited an open mask; main takes no SIGALRM */
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	if (!strcmp(mode, "alarm")) {
		struct itimerval it = {{0, 50}, {0, 50}};
		setitimer(ITIMER_REAL, &it, NULL);
	}
	pthread_barrier_wait(&start_line);
	if (!strcmp(mode, "signal") || on_sig)
		pthread_create(&s, NULL, sender, NULL);
	for (k = 0; k < nthreads; k++)
		pthread_join(t[k], NULL);
	if (!strcmp(mode, "alarm")) {
		struct itimerval off = {{0, 0}, {0, 0}};
		setitimer(ITIMER_REAL, &off, NULL);
	}
	if (!strcmp(mode, "signal") || on_sig) {
		stop_sender = 1;
		pthread_join(s, NULL);
	}
	if (on_sig == 2) {
		/* the workers are gone, some from inside the site: main's own
		 * passes, counted in counts[nthreads] */
		my_id = nthreads;
		for (long i = 0; i < passes; i++)
			pass();
		printf("main passes %ld\n", counts[nthreads]);
		total += counts[nthreads];
		printf("slack %d\n", nthreads);
	}
	if (on_sig == 1) {
		long j = 0;

		for (k = 0; k < nthreads; k++)
			j += jumps[k];
		printf("slack %ld\n", j);
	}
counted:
	for (k = 0; k < nthreads; k++) {
		if (nthreads <= 16 || k < 3 || k == nthreads - 1)
			printf("thread %d passes %ld\n", k + 1, counts[k]);
		total += counts[k];
		if (sig ? counts[k] < passes : counts[k] != passes)
			bad = 1;
	}
	printf("total passes %ld\n", total);                    /* END-SITE */
	return bad;
}
