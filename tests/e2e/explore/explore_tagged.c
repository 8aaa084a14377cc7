/*
 * Two workers add one to a counter each, through a copy read first and
 * written back two steps later.  The two steps are the same code: only
 * their comments tell them apart, so the gates file explore writes can
 * anchor a stop between them on a comment's word alone.
 */
#include <pthread.h>
#include <stdio.h>

static int counter;
static volatile int steps;

static void *worker(void *arg)
{
	int v = counter;

	(void)arg;
	steps++;		/* STEP-ONE */
	steps++;		/* STEP-TWO */
	counter = v + 1;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("counter = %d\n", counter);
	return counter == 2 ? 0 : 1;
}
