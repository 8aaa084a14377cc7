/*
 * Pass-through hit cost where the site is not the executable's (issue 26):
 * bench_lib_hit() in libbenchpad.so (padlib.c), passed N times, the loop
 * timed by the program itself (a traced process's start is not part of
 * it).  It prints "ns/hit X" and "sum S" (S = N*(N-1)/2, so a lost or
 * doubled iteration shows).
 *
 *   padwhere run N      the loop
 *   padwhere wait N     prints "ready", then waits for SIGUSR1 (a tracer
 *                       attaches meanwhile), then the loop
 *   padwhere fork N     a forked child runs the loop; the parent waits
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void bench_lib_hit(long i);
long bench_lib_sum(void);

static int loop(long n)
{
	struct timespec a, b;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		bench_lib_hit(i);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("ns/hit %.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) /
	       (n ? (double)n : 1.0));
	printf("sum %ld\n", bench_lib_sum());                        /* END */
	return bench_lib_sum() == n * (n - 1) / 2 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "run";
	long n = argc > 2 ? atol(argv[2]) : 1000;
	int status, sig;
	sigset_t set;
	pid_t pid;

	if (!strcmp(mode, "wait")) {
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		printf("ready\n");
		fflush(stdout);
		sigwait(&set, &sig);
	}
	if (strcmp(mode, "fork"))
		return loop(n);
	fflush(stdout);
	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0) {
		status = loop(n);
		fflush(stdout);
		_exit(status);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
