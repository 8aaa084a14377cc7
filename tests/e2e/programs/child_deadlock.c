/*
 * A deadlock through a mutex and a join, in the program itself or in a
 * forked child (tests/e2e/process_tree.cmake): a child's threads are
 * diagnosed in the same words as the program's.
 *
 *   child_deadlock [fork]
 *
 * holder takes 'lock' and, held at a gate, waits for 'go'; locker then
 * blocks on 'lock'; the process's first thread joins locker before the
 * line that would open 'go'.  With fork, a child process does all that and
 * the parent waits for it.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int done;

static void *holder(void *arg)
{
	pthread_mutex_lock(&lock);
	done++;                                               /* HOLDS */
	pthread_mutex_unlock(&lock);
	return arg;
}

static void *locker(void *arg)
{
	pthread_mutex_lock(&lock);                            /* LOCKS */
	done++;
	pthread_mutex_unlock(&lock);
	return arg;
}

static int work(void)
{
	pthread_t h, l;

	pthread_create(&h, NULL, holder, NULL);
	pthread_create(&l, NULL, locker, NULL);
	pthread_join(l, NULL);
	printf("done=%d\n", done);                            /* OPENS */
	pthread_join(h, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2 || strcmp(argv[1], "fork"))
		return work();
	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0)
		_exit(work());
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
