/* A job launcher: two threads each start a helper command (fork and exec)
 * and count it in a shared tally without a lock.  The helpers run fine;
 * the tally sometimes says 1.  "Sometimes we report one job, not two." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int launched;

static int run_helper(const char *what)
{
	pid_t pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", what, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void *launcher(void *arg)
{
	const char *what = arg;
	int n = launched;
	if (run_helper(what) == 0)
		launched = n + 1;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "exit 0";
	pthread_t a, b;
	pthread_create(&a, NULL, launcher, (void *)cmd);
	pthread_create(&b, NULL, launcher, (void *)cmd);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d jobs launched\n", launched);
	return launched == 2 ? 0 : 1;
}
