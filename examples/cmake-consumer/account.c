/* account: two clerks deposit into one account at the same time.
 *
 * Bug report #42: "after two deposits of 100 the balance is sometimes 100".
 * deposit() reads the balance, adds, and writes it back: when both clerks
 * read before either writes, one deposit is lost.  With ACCOUNT_FIXED a
 * mutex makes the read-add-write one step.
 */
#include <pthread.h>
#include <stdio.h>

static long balance;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void deposit(long amount)
{
#ifdef ACCOUNT_FIXED
	pthread_mutex_lock(&lock);
#endif
	long b = balance;                   /* read */
	b += amount;
	balance = b;                        /* write: line 21, gated */
#ifdef ACCOUNT_FIXED
	pthread_mutex_unlock(&lock);
#endif
}

/*
 * Each clerk notes that it has worked, without a lock: both store the same
 * value, read for a log line once both are joined.  ThreadSanitizer reports
 * it (race/tsan-fixed.txt, of account_fixed); racegate triage calls it
 * BENIGN, and CMakeLists.txt keeps that as a test.
 */
static int busy;

static void *clerk(void *arg)
{
	(void)arg;
	deposit(100);
	busy = 1;                           /* a benign race: both store 1 */
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, clerk, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	(void)lock;
	printf("balance = %ld\n", balance);
	if (busy)
		printf("the clerks were busy\n");
	return balance == 200 ? 0 : 1;
}
