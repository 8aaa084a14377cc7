/*
 * trial_unpinned.c's order with a robust or a priority-inheritance mutex
 * (argv[1]: robust, pi), whose futex word holds the owner's tid: the held
 * inserter owns the lock the remover waits for, beside an event loop
 * (trial.cmake).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>

static pthread_mutex_t table;
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

int main(int argc, char **argv)
{
	pthread_mutexattr_t at;
	pthread_t loop, a, b;

	pthread_mutexattr_init(&at);
	if (argc > 1 && !strcmp(argv[1], "pi"))
		pthread_mutexattr_setprotocol(&at, PTHREAD_PRIO_INHERIT);
	else
		pthread_mutexattr_setrobust(&at, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&table, &at);
	pthread_create(&loop, NULL, event_loop, NULL);
	pthread_create(&a, NULL, inserter, NULL);
	pthread_create(&b, NULL, remover, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("entries=%d\n", entries);
	return 0;
}
