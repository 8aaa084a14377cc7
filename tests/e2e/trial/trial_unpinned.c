/*
 * A held thread owns a mutex; the only thread that could open what it
 * waits for blocks on that mutex; an event loop beside them polls with a
 * timeout.  Whether racegate can call this a schedule deadlock depends on
 * whether the opening gate names its thread (trial.cmake).
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;
static int entries;

static void *event_loop(void *arg)
{
	struct epoll_event ev;
	int ep = epoll_create1(0);

	(void)arg;
	for (;;)
		epoll_wait(ep, &ev, 1, 50);
	return NULL;
}

static void *inserter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&table);
	entries++;                                       /* INSERTED */
	pthread_mutex_unlock(&table);
	return NULL;
}

static void *remover(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&table);
	entries--;                                       /* REMOVED */
	pthread_mutex_unlock(&table);
	return NULL;
}

int main(void)
{
	pthread_t loop, a, b;

	pthread_create(&loop, NULL, event_loop, NULL);
	pthread_create(&a, NULL, inserter, NULL);
	pthread_create(&b, NULL, remover, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("entries=%d\n", entries);
	return 0;
}
