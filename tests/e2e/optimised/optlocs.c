/* optlocs: function-scoped anchors in -O1 code (built -O1 by
 * optimised.cmake), where a function's first statement shares
 * its address with the line of its opening brace, and an inline-only
 * function whose copies have no call and no return.
 */
#include <pthread.h>
#include <stdio.h>

static volatile long balance;
static volatile long tally;

__attribute__((noinline)) static void deposit(long v)
{
	long b = balance;	/* DEPOSIT: read */
	balance = b + v;	/* DEPOSIT: write */
}

static inline __attribute__((always_inline)) void count(long by)
{
	long t = tally;		/* COUNT: read */
	tally = t + by;		/* COUNT: write */
}

static void *worker(void *arg)
{
	deposit(1);
	count(1);
	return arg;
}

int main(void)
{
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("balance = %ld, tally = %ld\n", balance, tally);
	return 0;
}
