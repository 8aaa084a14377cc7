/* A supervisor that starts its helper with vfork(), and sets the helper's
 * environment up in the child before the exec (as shells and old daemons
 * do), while a reaper thread counts started helpers without a lock.
 * "Sometimes the helper count is off by one." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int started;

static void child_setup(void)
{
	int fd_limit = 3;
	(void)fd_limit;
}

static void start_helper(void)
{
	pid_t pid = vfork();
	if (pid == 0) {
		child_setup();
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	int s = started;
	started = s + 1;
}

static void *starter(void *arg)
{
	(void)arg;
	start_helper();
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, starter, NULL);
	pthread_create(&b, NULL, starter, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d helpers started\n", started);
	return started == 2 ? 0 : 1;
}
