/* Bank transfers between two accounts, built -O2: each transfer reads both
 * balances into locals, then writes both back, with no lock.  Two transfers
 * that overlap lose money.  "Sometimes the books do not balance." */
#include <pthread.h>
#include <stdio.h>

struct account {
	long balance;
};

static struct account acct[2] = {{100}, {100}};

__attribute__((noinline)) static void transfer(struct account *from,
					       struct account *to, long amount)
{
	long f = __atomic_load_n(&from->balance, __ATOMIC_RELAXED);
	long t = __atomic_load_n(&to->balance, __ATOMIC_RELAXED);
	__atomic_store_n(&from->balance, f - amount, __ATOMIC_RELAXED);
	__atomic_store_n(&to->balance, t + amount, __ATOMIC_RELAXED);
}

static void *teller(void *arg)
{
	long dir = (long)arg;
	if (dir)
		transfer(&acct[0], &acct[1], 10);
	else
		transfer(&acct[1], &acct[0], 20);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, teller, (void *)1L);
	pthread_create(&b, NULL, teller, (void *)0L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	long sum = acct[0].balance + acct[1].balance;
	printf("balances %ld %ld, total %ld\n", acct[0].balance, acct[1].balance, sum);
	return sum == 200 ? 0 : 1;
}
