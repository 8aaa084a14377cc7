/*
 * A hostile program for racegate attach (attach_spin.cmake,
 * attach_spin.sh): threads that never stop arriving at a gate, and a flood
 * of queued real-time signals, while racegate attaches, holds, and lets go
 * (or is killed).
 *
 *   attach_spin STATUS [one|any [IDLE]]
 *
 * Four threads named spin-1 .. spin-4 run spin_once for ever, and spin-1
 * lone_once besides.  The line to gate in each (marked) is one
 * instruction, a movabs whose immediate holds a ud2: run from its first
 * byte it only loads rax; run from its second byte (a thread let go with
 * its PC one byte into the instruction, behind the int3) it is a shorter
 * mov, then the ud2, so the process dies of SIGILL at once.  A breakpoint
 * left at the line kills it by SIGTRAP instead.
 *
 * SIGRTMIN is counted by a handler (SA_SIGINFO): its si_value is the
 * sender's sequence number, 1, 2, 3 ...  With "one" (the default) only
 * the main thread takes it, the one whose code racegate borrows first for
 * its system calls (every other thread blocks it), so the numbers must
 * come in order; with "any" the spinners take it too, and each number must
 * come once.  Every 20 ms a thread named reporter writes "got N bad B
 * spins S" to STATUS (through a rename): N signals counted, B of them out
 * of order, repeated or not queued (si_code not SI_QUEUE), S calls of
 * spin_once and lone_once so far.
 *
 * SIGUSR1 is taken by spin-3 alone, whose handler naps 300 ms and counts
 * it ("naps N" at the end of the status line): a handler racegate lets
 * the process go in the middle of, which must return where spin-3 was.
 *
 * IDLE more threads (0 by default) only sleep: a crowd that makes every
 * stop and let-go of all threads take longer.
 *
 *   attach_spin send PID SECONDS
 *
 * sends SIGRTMIN with sigqueue to PID, numbered from 1, about 20,000 a
 * second (waiting while the queue is full), for SECONDS or until SIGTERM,
 * then prints "sent N".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SEEN_MAX (1L << 24)
#define USAGE "usage: attach_spin STATUS [one|any [IDLE]] | send PID SECONDS\n"

static volatile long spins[4], lone;
static volatile long got, bad, last, naps;
static unsigned char *seen;
static int ordered = 1;

/* 48 b8 11 22 33 44 0f 0b 90 90: from its second byte, mov $0x44332211,
 * %eax; ud2 (an instruction, not .byte: the line table marks instructions) */
#define TRAPDOOR "movabs $0x90900b0f44332211, %%rax"

__attribute__((noinline)) static void spin_once(long k)
{
	__asm__ volatile(TRAPDOOR ::: "rax"); /* SPIN */
	spins[k]++;
}

/* spin-1's alone */
__attribute__((noinline)) static void lone_once(void)
{
	__asm__ volatile(TRAPDOOR ::: "rax"); /* LONE */
	lone++;
}

static void *spinner(void *arg)
{
	long k = (long)arg;
	char name[16];
	sigset_t usr1;

	snprintf(name, sizeof(name), "spin-%d", (int)(k + 1) % 10);
	pthread_setname_np(pthread_self(), name);
	/* spin-3 alone takes SIGUSR1 (born with it blocked) */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (k == 2)
		pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	for (;;) {
		spin_once(k);
		if (k == 0)
			lone_once();
	}
	return NULL;
}

/* SIGUSR1: a nap of 300 ms in the handler, then back where it was */
static void on_nap(int sig)
{
	struct timespec ts = { 0, 300 * 1000 * 1000 };

	(void)sig;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	__atomic_add_fetch(&naps, 1, __ATOMIC_RELAXED);
}

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	long v = si->si_value.sival_int;

	(void)sig;
	(void)uc;
	__atomic_add_fetch(&got, 1, __ATOMIC_RELAXED);
	if (si->si_code != SI_QUEUE || v <= 0 || v >= SEEN_MAX ||
	    __atomic_exchange_n(&seen[v], 1, __ATOMIC_RELAXED) ||
	    (ordered && v != last + 1))
		__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
	if (ordered)
		last = v;
}

static void write_status(const char *path)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(f = fopen(tmp, "w")))
		return;
	fprintf(f, "got %ld bad %ld spins %ld naps %ld\n", got, bad,
		spins[0] + spins[1] + spins[2] + spins[3] + lone, naps);
	fclose(f);
	rename(tmp, path);
}

static void *idler(void *arg)
{
	(void)arg;
	for (;;)
		sleep(60);
	return NULL;
}

static void *reporter(void *path)
{
	pthread_setname_np(pthread_self(), "reporter");
	for (;;) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		write_status(path);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static volatile sig_atomic_t stop_sending;

static void on_term(int sig)
{
	(void)sig;
	stop_sending = 1;
}

static int send_main(pid_t pid, double seconds)
{
	struct timespec t0, t;
	long sent = 0;

	signal(SIGTERM, on_term);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!stop_sending) {
		union sigval v = { .sival_int = (int)(sent + 1) };

		if (sigqueue(pid, SIGRTMIN, v) == 0) {
			sent++;
		} else if (errno == EAGAIN) {
			usleep(1000);   /* the queue is full: let it drain */
		} else {
			perror("sigqueue");
			break;
		}
		if ((sent % 20) == 0) {
			usleep(1000);
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((double)(t.tv_sec - t0.tv_sec) +
			    (double)(t.tv_nsec - t0.tv_nsec) / 1e9 > seconds)
				break;
		}
	}
	printf("sent %ld\n", sent);
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t rt;
	pthread_t t;

	if (argc == 4 && !strcmp(argv[1], "send"))
		return send_main((pid_t)atoi(argv[2]), atof(argv[3]));
	if (argc < 2 || argc > 4) {
		fputs(USAGE, stderr);   /* never run by the tests */
		return 2;
	}
	ordered = argc < 3 || strcmp(argv[2], "any");
	seen = calloc(SEEN_MAX, 1);
	if (!seen)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	sa.sa_handler = on_nap;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&rt);
	sigaddset(&rt, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &rt, NULL);  /* for good, but in spin-3 */
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	/* the reporter never takes it (it must write), nor, with "one", the
	 * spinners: main does, the thread whose code racegate borrows first */
	pthread_sigmask(SIG_BLOCK, &rt, NULL);
	pthread_create(&t, NULL, reporter, argv[1]);
	if (!ordered)
		pthread_sigmask(SIG_UNBLOCK, &rt, NULL);
	for (long k = 0; k < 4; k++)
		pthread_create(&t, NULL, spinner, (void *)k);
	for (int k = 0; argc > 3 && k < atoi(argv[3]); k++)
		pthread_create(&t, NULL, idler, NULL);
	pthread_sigmask(SIG_UNBLOCK, &rt, NULL);
	for (;;)
		pause();
}
