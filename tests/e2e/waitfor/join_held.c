/*
 * join_held: main joins a thread held at a gate, and would open the event
 * that thread waits for only after the join; a napper keeps waking.  The
 * gated order is impossible: a cycle through pthread_join.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int done;

static void *waiter(void *arg)
{
	done = 1;                                             /* WAITS */
	return arg;
}

static void *napper(void *arg)
{
	for (;;)
		usleep(30 * 1000);
	return arg;
}

int main(void)
{
	pthread_t w, n;

	pthread_create(&n, NULL, napper, NULL);
	pthread_create(&w, NULL, waiter, NULL);
	pthread_join(w, NULL);
	printf("done=%d\n", done);                            /* OPENS */
	return 0;
}
