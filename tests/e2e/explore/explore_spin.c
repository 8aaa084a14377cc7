/*
 * explore_spin: a consumer spins on a flag the producer sets.  Correct; but
 * a scheduler that keeps choosing the spinning thread never lets the
 * producer run, and would report a timeout that is its own doing.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>

static atomic_int ready;
static int data;

static void *producer(void *arg)
{
	(void)arg;
	data = 42;
	atomic_store(&ready, 1);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	while (!atomic_load(&ready))
		;
	if (data != 42)
		return (void *)1;
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	void *r;

	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(c, &r);
	pthread_join(p, NULL);
	printf("ok %p\n", r);
	return r != NULL;
}
