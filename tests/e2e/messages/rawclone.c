/*
 * A thread made with clone(2) directly, as a runtime of its own might:
 * the thread library's pthread_create is there (libc) but never called, so
 * {start: worker} cannot name this thread, and racegate must say so.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static int counter;
static volatile pid_t child_tid = 1;    /* the kernel zeroes it at exit */

static int worker(void *arg)
{
	(void)arg;
	counter++;                              /* gated */
	return 0;
}

int main(void)
{
	size_t size = 1 << 16;
	char *stack = malloc(size);
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		    CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_CLEARTID;

	if (clone(worker, stack + size, flags, NULL, NULL, NULL,
		  (pid_t *)&child_tid) < 0) {
		perror("clone");
		return 2;
	}
	while (child_tid)   /* as pthread_join waits: on the cleared tid */
		syscall(SYS_futex, &child_tid, FUTEX_WAIT, child_tid, NULL, NULL, 0);
	printf("counter = %d\n", counter);
	return 0;
}
