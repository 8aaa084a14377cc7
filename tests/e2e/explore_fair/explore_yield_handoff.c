/*
 * explore_yield_handoff: a producer hands items to a consumer through a
 * one-slot mailbox, lock-free style: each side waits for its turn by
 * re-reading the slot's flag and calling sched_yield.  The producer
 * publishes the flag before it writes the item (the bug): a consumer that
 * runs between the two reads the item before, and exits 1.  Plain runs
 * almost never show it (the window is two stores wide).
 *
 * A scheduler that keeps choosing a spinning thread lets the other one
 * move a point only now and then: each handoff costs thousands of
 * decisions, and the run ends by --timeout before the program does, a
 * failure the program does not have.  With MAILBOX_FIXED the item is
 * written first, and every order passes.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define ROUNDS 6

static volatile int full;      /* 1: item holds one for the consumer */
static volatile int item;
static int bad;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ROUNDS; i++) {
		while (full)
			sched_yield();
#ifdef MAILBOX_FIXED
		item = i;
		full = 1;
#else
		full = 1;
		item = i;
#endif
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ROUNDS; i++) {
		while (!full)
			sched_yield();
		if (item != i)
			bad = i;
		full = 0;
	}
	return NULL;
}

int main(void)
{
	pthread_t p, c;

	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	if (bad) {
		printf("item %d read before it was written\n", bad);
		return 1;
	}
	printf("%d items handed over\n", ROUNDS);
	return 0;
}
