/*
 * A worker waits on a condition variable for work only the producer queues;
 * the producer is held until the worker has taken it; an event loop polls
 * beside them with a timeout (trial.cmake).
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static int queued, done;
static void *event_loop(void *a)
{
	(void)a;
	int ep = epoll_create1(0);
	struct epoll_event ev;
	for (;;)
		epoll_wait(ep, &ev, 1, 40);
	return NULL;
}
static void *worker(void *a)
{
	(void)a;
	pthread_mutex_lock(&qlock);
	while (!queued)
		pthread_cond_wait(&nonempty, &qlock);
	queued--;
	done++;                                  /* TOOK */
	pthread_mutex_unlock(&qlock);
	return NULL;
}
static void *producer(void *a)
{
	(void)a;
	pthread_mutex_lock(&qlock);              /* PRODUCE */
	queued++;
	pthread_cond_signal(&nonempty);
	pthread_mutex_unlock(&qlock);
	return NULL;
}
int main(void)
{
	pthread_t l, w, p;
	pthread_create(&l, NULL, event_loop, NULL);
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(w, NULL);
	pthread_join(p, NULL);
	printf("done %d\n", done);
	return 0;
}
