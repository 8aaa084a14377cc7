/*
 * A server-like process: an event loop that polls with a timeout, and,
 * round after round, two threads that take one mutex.  racegate attaches
 * to it with gates whose order the mutex makes impossible (trial.cmake).
 * Each round prints "round N counter C" (C is 2N+2 when nothing is lost).
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *event_loop(void *arg)
{
	struct epoll_event ev;
	int ep = epoll_create1(0);

	(void)arg;
	for (;;)
		epoll_wait(ep, &ev, 1, 40);
	return NULL;
}

static void *inserter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&table);
	counter++;                                       /* INSERTED */
	pthread_mutex_unlock(&table);
	return NULL;
}

static void *remover(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&table);
	counter++;                                       /* REMOVED */
	pthread_mutex_unlock(&table);
	return NULL;
}

int main(void)
{
	pthread_t loop, a, b;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_create(&loop, NULL, event_loop, NULL);
	for (int round = 0;; round++) {
		pthread_create(&a, NULL, inserter, NULL);
		pthread_create(&b, NULL, remover, NULL);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		printf("round %d counter %d\n", round, counter);
		usleep(50 * 1000);
	}
}
