/*
 * Scale in threads: T threads each pass bench_pass() once.  The bench spec
 * puts a barrier of T there, so the run ends only if every arrival was seen.
 *
 *   manythreads T   prints "passed T"
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long passed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void bench_pass(void)
{
	pthread_mutex_lock(&lock);                             /* PASS */
	passed++;
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	(void)arg;
	bench_pass();
	return NULL;
}

int main(int argc, char **argv)
{
	long t = argc > 1 ? atol(argv[1]) : 100, i;
	pthread_t *th = calloc((size_t)t, sizeof(*th));
	pthread_attr_t a;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (i = 0; i < t; i++)
		if (pthread_create(&th[i], &a, worker, NULL)) {
			perror("pthread_create");
			return 2;
		}
	for (i = 0; i < t; i++)
		pthread_join(th[i], NULL);
	printf("passed %ld\n", passed);
	free(th);
	return passed == t ? 0 : 1;
}
