/* Sixteen workers each record one result in a shared table: they take a
 * slot by reading the next free index and then bumping it, without a lock.
 * Two workers can take one slot and a result is lost.  "With 16 threads
 * the report sometimes has 15 lines." */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 16

static int results[NTHREADS];
static int next_slot;

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	int slot = next_slot;
	next_slot = slot + 1;
	results[slot] = id + 1;
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	int lines = 0;
	for (int i = 0; i < NTHREADS; i++)
		lines += results[i] != 0;
	printf("%d results\n", lines);
	return lines == NTHREADS ? 0 : 1;
}
