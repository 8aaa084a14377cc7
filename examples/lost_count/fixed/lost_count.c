/* lost_count, FIXED: the count++ below is one atomic instruction.  Was:
 * `count++` once.  At -O0 that one line is three instructions: load count
 * into a register (+0), add 1 (+1), store it back (+2).  If both threads
 * load before either stores, both store 1.
 *
 * No line-level gate can split it: the race is between instructions of one
 * line.  gates.yaml puts a barrier at the store, lost_count.c:LINE+2.
 */
#include <pthread.h>
#include <stdio.h>

#define THREADS 2

static int count;

static void *worker(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&count, 1, __ATOMIC_SEQ_CST);	/* one locked add */
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
			fprintf(stderr, "lost_count: pthread_create failed\n");
			return 2;
		}
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("count = %d\n", count);
	if (count != THREADS) {
		printf("FAIL: expected count = %d: an increment was lost\n", THREADS);
		return 1;
	}
	return 0;
}
