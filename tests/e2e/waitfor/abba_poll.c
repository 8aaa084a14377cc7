/*
 * abba_poll: two workers take two mutexes in opposite orders and deadlock
 * (a barrier makes sure each holds its first lock before taking the
 * second), while a third thread polls with a timeout for ever and a fourth
 * naps in a loop, as a server's event loop and housekeeper do.  No gate
 * holds anyone: the deadlock is the program's own, and it must be seen
 * although two threads keep waking up.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both;

static void *forward(void *arg)
{
	pthread_mutex_lock(&lock_a);
	pthread_barrier_wait(&both);
	pthread_mutex_lock(&lock_b);                          /* FORWARD-SECOND */
	pthread_mutex_unlock(&lock_b);
	pthread_mutex_unlock(&lock_a);
	return arg;
}

static void *backward(void *arg)
{
	pthread_mutex_lock(&lock_b);
	pthread_barrier_wait(&both);
	pthread_mutex_lock(&lock_a);                          /* BACKWARD-SECOND */
	pthread_mutex_unlock(&lock_a);
	pthread_mutex_unlock(&lock_b);
	return arg;
}

static void *poller(void *arg)
{
	int fds[2];
	struct pollfd p;

	if (pipe(fds))
		return arg;
	p.fd = fds[0];
	p.events = POLLIN;
	for (;;)
		poll(&p, 1, 20);                              /* POLLS */
}

static void *napper(void *arg)
{
	for (;;)
		usleep(50 * 1000);
	return arg;
}

int main(void)
{
	pthread_t f, b, p, n;

	pthread_barrier_init(&both, NULL, 2);
	pthread_create(&p, NULL, poller, NULL);
	pthread_create(&n, NULL, napper, NULL);
	pthread_create(&f, NULL, forward, NULL);
	pthread_create(&b, NULL, backward, NULL);
	pthread_join(f, NULL);
	pthread_join(b, NULL);
	printf("no deadlock\n");
	return 0;
}
