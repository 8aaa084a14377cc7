/*
 * Two failures told apart by the exit status: a lost update of the counter
 * exits 1; worker 2 done before worker 1 has begun exits 2.  A schedule
 * that loses the update has deviations which, alone, let worker 2 run
 * first: shrinking must keep the failure it found, not take the other.
 */
#include <pthread.h>
#include <stdio.h>

static int counter;
static int done2;
static int w1_saw_done2;

static void *worker(void *arg)
{
	long id = (long)arg;
	int v;

	if (id == 1)
		w1_saw_done2 = done2;
	v = counter;
	v++;
	counter = v;
	if (id == 2)
		done2 = 1;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	pthread_create(&a, NULL, worker, (void *)1);
	pthread_create(&b, NULL, worker, (void *)2);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("counter = %d\n", counter);
	if (counter != 2)
		return 1;
	return w1_saw_done2 ? 2 : 0;
}
