/*
 * explore_two_preemptions: a writer stores 1, 2, 3 into x; two readers
 * read it once each.  The program fails only when one reader sees 1 and the
 * other 2: the writer must be preempted twice, once after each of its first
 * two stores.  A search bounded to one preemption cannot find it; two can.
 */
#include <pthread.h>
#include <stdio.h>

static volatile int x;
static int seen_a, seen_b;

static void *writer(void *arg)
{
	(void)arg;
	x = 1;
	x = 2;
	x = 3;
	return NULL;
}

static void *reader_a(void *arg)
{
	(void)arg;
	seen_a = x;
	return NULL;
}

static void *reader_b(void *arg)
{
	(void)arg;
	seen_b = x;
	return NULL;
}

int main(void)
{
	pthread_t w, a, b;

	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&a, NULL, reader_a, NULL);
	pthread_create(&b, NULL, reader_b, NULL);
	pthread_join(w, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if ((seen_a == 1 && seen_b == 2) || (seen_a == 2 && seen_b == 1)) {
		printf("FAIL: the readers saw %d and %d\n", seen_a, seen_b);
		return 1;
	}
	printf("ok: %d %d\n", seen_a, seen_b);
	return 0;
}
