/*
 * Two threads pass one line 10,000 times each, at the same time.  Under the
 * hits.yaml gates, the 10,000th arrival of each thread opens an event the
 * main thread waits for before it exits: a breakpoint hit lost by a bad
 * step-over leaves main held forever and the run cannot pass.
 */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 10000

static pthread_barrier_t start_line;
static volatile long sink[2];

static void *worker(void *arg)
{
	long id = (long)arg, i;

	pthread_barrier_wait(&start_line);
	for (i = 0; i < ROUNDS; i++)
		sink[id] += i;                                /* HIT-LINE */
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	long i;

	pthread_barrier_init(&start_line, NULL, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("sums %ld %ld\n", sink[0], sink[1]);          /* END-LINE */
	return sink[0] == sink[1] && sink[0] == (long)ROUNDS * (ROUNDS - 1) / 2 ? 0 : 1;
}
