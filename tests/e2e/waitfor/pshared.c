/*
 * pshared: a process-shared mutex in shared memory, locked by a forked
 * child that naps 300 ms before unlocking it.  The parent's locker thread
 * blocks on it: its owner is no thread of the traced program, but it
 * exists and will let go.  A poller runs beside.  No deadlock: exit 0.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t *shared;

static void *locker(void *arg)
{
	pthread_mutex_lock(shared);                           /* LOCKS */
	pthread_mutex_unlock(shared);
	return arg;
}

static void *poller(void *arg)
{
	for (int i = 0; i < 30; i++)
		poll(NULL, 0, 20);
	return arg;
}

int main(void)
{
	pthread_mutexattr_t a;
	int go[2], c;
	pthread_t l, p;
	pid_t kid;
	char x;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || pipe(go))
		return 2;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(shared, &a);
	kid = fork();
	if (kid == 0) {
		pthread_mutex_lock(shared);
		c = write(go[1], "x", 1);
		usleep(300 * 1000);
		pthread_mutex_unlock(shared);
		_exit(c == 1 ? 0 : 1);
	}
	if (read(go[0], &x, 1) != 1)
		return 2;
	pthread_create(&p, NULL, poller, NULL);
	pthread_create(&l, NULL, locker, NULL);
	pthread_join(l, NULL);
	pthread_join(p, NULL);
	waitpid(kid, &c, 0);
	printf("unlocked by the child\n");
	return 0;
}
