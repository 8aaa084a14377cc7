/*
 * The program forks, then calls exec; its child goes on in the old image
 * and passes a gated line after the exec (process_tree.cmake).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int n;

static void step(void)
{
	n++;                                                  /* STEP-LINE */
}

int main(int argc, char **argv)
{
	if (argc > 1) {                 /* the new image: waits for the child */
		int st;
		wait(&st);
		printf("child %d\n", WEXITSTATUS(st));
		return 0;
	}
	if (fork() == 0) {
		usleep(200000);         /* after the parent's exec */
		for (int i = 0; i < 5; i++)
			step();
		_exit(n);
	}
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	return 2;
}
