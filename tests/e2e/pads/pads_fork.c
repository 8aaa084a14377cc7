/*
 * pads_fork: main passes one line 3,000 times, forks, and the child's
 * thread (a copy of main, with main's thread pointer and stack) passes it
 * 3,000 times more in its own process while main passes it 1,000 more.
 * Under pads_fork.yaml the child's count starts from nothing, not from
 * main's: a followed child has a pad table of its own.  (The child's
 * 2,000th pass finds counter at 4,999.)
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long counter;

static void pass(long n)
{
	for (long i = 0; i < n; i++)
		counter++;                                      /* PASS */
}

int main(void)
{
	int status;
	pid_t pid;

	pass(3000);
	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0) {
		pass(3000);
		printf("child %ld\n", counter);
		fflush(stdout);
		_exit(0);
	}
	pass(1000);
	waitpid(pid, &status, 0);
	printf("parent %ld\n", counter);                       /* END */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
