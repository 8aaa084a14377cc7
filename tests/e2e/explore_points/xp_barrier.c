/*
 * xp_barrier: two workers meet at a barrier, then each adds its share to a
 * total without a lock.  The barrier makes them start the addition
 * together, which is what loses one of them.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t start_line;
static int total;

static void *worker(void *arg)
{
	int share = *(int *)arg;

	pthread_barrier_wait(&start_line);
	total += share;	/* load, add, store: not atomic */
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int share[2] = { 1, 2 };

	pthread_barrier_init(&start_line, NULL, 2);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &share[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("total %d\n", total);
	return total != 3;
}
