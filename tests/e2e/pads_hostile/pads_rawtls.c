/*
 * Two threads with one thread pointer (issue 15): a thread made with
 * clone(2) without CLONE_SETTLS keeps its creator's fs base, so the thread
 * pointer does not tell it from main.  Both pass one gated site PASSES
 * times at once; hits are per thread, so main's hit: gates must act at
 * main's own passes (the spec's `when:` reads main's count), whatever the
 * other thread does meanwhile.  The clone's code uses no thread-local
 * state (no errno, no libc call that needs its own TLS).
 *
 *   pads_rawtls PASSES
 *
 * Prints "main passes N", "clone passes N", "total passes N"; exits 0 when
 * both made exactly PASSES.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile long counts[2];
static volatile pid_t child_tid = 1;    /* the kernel zeroes it at exit */
static volatile int go;
static long passes;

__attribute__((noinline)) static void pass(long who)
{
	__atomic_add_fetch(&counts[who], 1, __ATOMIC_RELAXED);        /* PASS-SITE */
}

static int other(void *arg)
{
	long i;

	(void)arg;
	while (!go)
		;
	for (i = 0; i < passes; i++)
		pass(1);
	return 0;
}

int main(int argc, char **argv)
{
	size_t size = 1 << 16;
	char *stack = malloc(size);
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		    CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_CLEARTID;
	long i;

	passes = argc > 1 ? atol(argv[1]) : 10000;
	if (clone(other, stack + size, flags, NULL, NULL, NULL,
		  (pid_t *)&child_tid) < 0) {
		perror("clone");
		return 2;
	}
	go = 1;
	for (i = 0; i < passes; i++)
		pass(0);
	while (child_tid)
		syscall(SYS_futex, &child_tid, FUTEX_WAIT, child_tid, NULL, NULL, 0);
	printf("main passes %ld\nclone passes %ld\n", counts[0], counts[1]);
	printf("total passes %ld\n", counts[0] + counts[1]);  /* END-SITE */
	return counts[0] != passes || counts[1] != passes;
}
