/*
 * Threads born and dying all the time, for racegate attach to seize while
 * the set changes under it (attach.sh churn): main creates a short-lived
 * churner thread after another, two at a time, for ever; each one runs
 * churn_once and exits.  Every 1,000 threads, main writes the count to the
 * file given as argv[1] (rewritten), so a test can see it still works.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long churned;

__attribute__((noinline)) static void churn_once(void)
{
	__atomic_add_fetch(&churned, 1, __ATOMIC_RELAXED);     /* CHURN */
}

static void *churner(void *arg)
{
	(void)arg;
	churn_once();
	return NULL;
}

int main(int argc, char **argv)
{
	for (long n = 1;; n++) {
		pthread_t a, b;

		if (pthread_create(&a, NULL, churner, NULL) ||
		    pthread_create(&b, NULL, churner, NULL))
			return 1;
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		if (argc > 1 && n % 1000 == 0) {
			FILE *f = fopen(argv[1], "w");

			if (f) {
				fprintf(f, "%ld\n", churned);
				fclose(f);
			}
		}
	}
}
