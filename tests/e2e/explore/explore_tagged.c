/*
 * Two workers add one to a counter each, through a copy read first and
 * written back two steps later; the second starts once the first has
 * read.  The two steps are the same code: only their comments tell them
 * apart, so the gates file explore writes can anchor a stop between them
 * on a comment's word alone (whole, though part of it is not ASCII).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static int counter, have_read;
static volatile int steps;

static void *worker(void *arg)
{
	int v = counter;

	(void)arg;
	__atomic_store_n(&have_read, 1, __ATOMIC_RELEASE);
	steps++;		/* STEP-ONE */
	steps++;		/* STEP-TWO-ÜBER */
	counter = v + 1;
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	pthread_create(&t[0], NULL, worker, NULL);
	while (!__atomic_load_n(&have_read, __ATOMIC_ACQUIRE))
		sched_yield();
	pthread_create(&t[1], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("counter = %d\n", counter);
	return counter == 2 ? 0 : 1;
}
