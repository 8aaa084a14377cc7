/*
 * condping: two threads take turns ROUNDS times through one condition
 * variable, correctly.  Under racegate explore every turn is a thread
 * waiting on the condition while the other runs: the cost of a condition
 * wait per schedule (bench/explore_points.sh).
 */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 5

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn, count;

static void play(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&m);
		while (turn != me)
			pthread_cond_wait(&cv, &m);
		count++;
		turn = !me;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&m);
	}
}

static void *pong(void *arg)
{
	(void)arg;
	play(1);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, pong, NULL);
	play(0);
	pthread_join(t, NULL);
	printf("count %d\n", count);
	return count != 2 * ROUNDS;
}
