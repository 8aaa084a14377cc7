/*
 * xp_spin: a check-then-act across two critical sections of a spin lock.
 * Each worker reads the balance under the lock, lets go of it, and writes
 * the new balance under the lock again: a withdrawal in between is lost.
 */
#include <pthread.h>
#include <stdio.h>

static pthread_spinlock_t lock;
static int balance = 100;

static void *withdraw(void *arg)
{
	int amount = *(int *)arg, seen;

	pthread_spin_lock(&lock);
	seen = balance;
	pthread_spin_unlock(&lock);
	pthread_spin_lock(&lock);
	balance = seen - amount;
	pthread_spin_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	int amount[2] = { 10, 20 };

	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, withdraw, &amount[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("balance %d\n", balance);
	return balance != 70;
}
