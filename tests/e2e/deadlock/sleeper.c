/*
 * A waiter thread reaches WAIT-LINE while a napper thread sleeps NAPS
 * seconds (argv[1], default 1) and then reaches NAPPED-LINE; main joins
 * both.  Under sleeper.yaml the waiter is held until the napper has napped:
 * a thread asleep with a timeout is not a deadlock.  With a second argument
 * main writes "ok" to that file at the end (tests that continue a program
 * left stopped by --keep-stopped).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int waited, napped;

static void *waiter(void *arg)
{
	(void)arg;
	waited = 1;                                           /* WAIT-LINE */
	return NULL;
}

static void *napper(void *arg)
{
	long naps = (long)arg, i;

	for (i = 0; i < naps; i++)
		sleep(1);
	napped = 1;                                           /* NAPPED-LINE */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;
	long naps = argc > 1 ? atol(argv[1]) : 1;

	pthread_create(&t1, NULL, waiter, NULL);
	pthread_create(&t2, NULL, napper, (void *)naps);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	printf("waited=%d napped=%d\n", waited, napped);
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");

		if (f) {
			fputs("ok\n", f);
			fclose(f);
		}
	}
	return waited && napped ? 0 : 1;
}
