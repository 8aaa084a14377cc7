/*
 * Ungated threads: T threads spin on arithmetic for R rounds each; worker 0
 * calls bench_mark() once, where the gate is.  Under racegate only that one
 * arrival should cost anything.
 *
 *   cputhreads T R   prints a checksum
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long rounds;
static volatile long marks;

__attribute__((noinline)) void bench_mark(void)
{
	marks++;                                               /* MARK */
}

static void *worker(void *arg)
{
	unsigned long x = (unsigned long)arg + 1, i;

	if (arg == 0)
		bench_mark();
	for (i = 0; i < (unsigned long)rounds; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return (void *)x;
}

int main(int argc, char **argv)
{
	long t = argc > 1 ? atol(argv[1]) : 2, i;
	pthread_t th[64];
	unsigned long sum = 0;

	rounds = argc > 2 ? atol(argv[2]) : 100000000;
	if (t < 1 || t > 64)
		return 2;
	for (i = 0; i < t; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (i = 0; i < t; i++) {
		void *r;

		pthread_join(th[i], &r);
		sum += (unsigned long)r;
	}
	printf("checksum %lx marks %ld\n", sum, marks);
	return marks == 1 ? 0 : 1;
}
