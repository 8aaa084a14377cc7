/*
 * explore_condq: two consumers, producers created one at a time, and a
 * consumer that waits on its condition with `if`, not `while`.  When the
 * first producer's item goes to the second consumer, the first one waits
 * for ever, and main, joining it before it makes the second producer,
 * with it: a deadlock behind a condition variable.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int items, taken;

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	if (items == 0)                 /* bug: if, not while */
		pthread_cond_wait(&cv, &m);
	items--;
	taken++;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *producer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	items++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t c1, c2, p1, p2;

	pthread_create(&c1, NULL, consumer, NULL);
	pthread_create(&c2, NULL, consumer, NULL);
	pthread_create(&p1, NULL, producer, NULL);
	pthread_join(c1, NULL);
	pthread_create(&p2, NULL, producer, NULL);
	pthread_join(c2, NULL);
	pthread_join(p2, NULL);
	printf("items %d taken %d\n", items, taken);
	return items < 0;
}
