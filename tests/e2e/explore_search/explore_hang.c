/*
 * Two workers each count themselves done without a lock; main spins until
 * both have.  When one update is lost main spins for ever: a hang that is
 * no deadlock (every thread can run), so only the run's timeout ends it.
 */
#include <pthread.h>
#include <stdio.h>

static volatile int done;

static void *worker(void *arg)
{
	int d = done;                   /* read ... */

	(void)arg;
	done = d + 1;                   /* ... and write back: not atomic */
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	while (done < 2)
		;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("both done\n");
	return 0;
}
