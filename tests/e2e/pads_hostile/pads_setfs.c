/*
 * A thread that changes its thread pointer (issue 15), as a user-level
 * thread runtime does: the worker passes the gated site PASSES times with
 * its own fs base, then sets its fs base to main's (arch_prctl
 * ARCH_SET_FS) and passes it PASSES times more, while main passes it
 * PASSES times; then it puts its own back.  Hits are per thread: main's
 * hit: gates must act at main's own passes, the worker's at its own.  The
 * code run under the borrowed fs base touches no thread-local state.
 *
 *   pads_setfs PASSES
 *
 * Prints "main passes N", "worker passes N", "total passes N"; exits 0
 * when the counts are PASSES and 2 x PASSES.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <asm/prctl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile long counts[2];
static unsigned long main_fs;
static volatile int borrowed, main_done;
static long passes;

__attribute__((noinline)) static void pass(long who)
{
	__atomic_add_fetch(&counts[who], 1, __ATOMIC_RELAXED);        /* PASS-SITE */
}

static void *worker(void *arg)
{
	unsigned long own;
	long i;

	(void)arg;
	for (i = 0; i < passes; i++)
		pass(1);
	syscall(SYS_arch_prctl, ARCH_GET_FS, &own);
	/* from here until ARCH_SET_FS own: no libc call, no TLS */
	syscall(SYS_arch_prctl, ARCH_SET_FS, main_fs);
	borrowed = 1;
	for (i = 0; i < passes; i++)
		pass(1);
	while (!main_done)
		;
	syscall(SYS_arch_prctl, ARCH_SET_FS, own);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	long i;

	passes = argc > 1 ? atol(argv[1]) : 10000;
	syscall(SYS_arch_prctl, ARCH_GET_FS, &main_fs);
	pthread_create(&t, NULL, worker, NULL);
	while (!borrowed)
		;
	for (i = 0; i < passes; i++)
		pass(0);
	main_done = 1;
	pthread_join(t, NULL);
	printf("main passes %ld\nworker passes %ld\n", counts[0], counts[1]);
	printf("total passes %ld\n", counts[0] + counts[1]);  /* END-SITE */
	return counts[0] != passes || counts[1] != 2 * passes;
}
