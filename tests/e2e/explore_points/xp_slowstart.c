/*
 * xp_slowstart: each worker computes for a while (about 100 ms of CPU)
 * before it counts itself done without a lock.  Explored with --at bump,
 * a new worker reaches its first point only after that computation: on a
 * loaded machine, much later by the clock, and a replay must still wait
 * for it rather than go on without it.
 */
#include <pthread.h>
#include <stdio.h>

static int done;
static volatile unsigned long sink;

static void bump(void)
{
	done++;	/* load, add, store: not atomic */
}

static void *worker(void *arg)
{
	unsigned long x = (unsigned long)arg;

	for (unsigned long i = 0; i < 30000000ul; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
	bump();
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("done %d\n", done);
	return done != 2;
}
