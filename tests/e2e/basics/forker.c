/*
 * The program forks; the child runs through a gated line.  The child is not
 * traced, so its copy of memory must not keep racegate's breakpoints (an
 * int3 would kill it with SIGTRAP).
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int work;

static void step(void)
{
	work++;                                               /* STEP-LINE */
}

int main(void)
{
	int status;
	pid_t pid;

	step();
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 10; i++)
			step();
		_exit(work == 11 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	step();
	printf("child %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ?
	       "ok" : "died");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
