/*
 * A deadlock through a mutex and a join, in the program itself or in a
 * child process (process_tree.cmake): a child's threads are
 * diagnosed in the same words as the program's.
 *
 *   child_deadlock              holder takes 'lock' and, held at a gate,
 *                               waits for 'go'; locker then blocks on
 *                               'lock'; the process's first thread joins
 *                               locker before the line that would open 'go'
 *   child_deadlock fork         a forked child does that; the parent waits
 *   child_deadlock exec [self]  a forked child runs child_deadlock_worker
 *                               (this program under another name, next to
 *                               it) with no argument, or with self; the
 *                               parent waits
 *   child_deadlock self         the same deadlock without a gate: the first
 *                               thread owns 'lock' while it joins locker
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

static int self_deadlock(void)
{
	pthread_t l;

	pthread_mutex_lock(&lock);
	pthread_create(&l, NULL, locker, NULL);
	pthread_join(l, NULL);                                /* SELF-JOIN */
	pthread_mutex_unlock(&lock);
	return 0;
}

/* In the child: child_deadlock_worker [arg], next to this program. */
static void run_worker(const char *arg)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);

	if (n <= 0)
		_exit(2);
	path[n] = '\0';
	strcpy(strrchr(path, '/') + 1, "child_deadlock_worker");
	execl(path, "child_deadlock_worker", arg, (char *)NULL);
	_exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int status;
	pid_t pid;

	if (!strcmp(mode, "self"))
		return self_deadlock();
	if (strcmp(mode, "fork") && strcmp(mode, "exec"))
		return work();
	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0) {
		if (!strcmp(mode, "exec"))
			run_worker(argc > 2 ? argv[2] : NULL);
		_exit(work());
	}
	waitpid(pid, &status, 0);                             /* PARENT-WAITS */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
