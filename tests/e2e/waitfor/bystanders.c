/*
 * bystanders: threads that look stuck but are not, next to a held one.
 *  - holder owns a mutex while it naps (300 ms, a timed sleep), then lets
 *    it go and gets to its gate, which opens 'freed';
 *  - locker blocks on that mutex: it waits for holder, which will move;
 *  - waiter is held at its gate until 'freed': only holder opens it;
 *  - sleeper waits on a condition variable with no timeout; main signals
 *    it after a nap.
 * Every wait ends: the run must pass, with no deadlock verdict on the way.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int signalled, freed_seen;

static void *holder(void *arg)
{
	pthread_mutex_lock(&m);
	usleep(300 * 1000);
	pthread_mutex_unlock(&m);
	printf("holder let go\n");                            /* FREED */
	return arg;
}

static void *locker(void *arg)
{
	usleep(20 * 1000);
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	return arg;
}

static void *waiter(void *arg)
{
	freed_seen = 1;                                       /* WAITS */
	return arg;
}

static void *sleeper(void *arg)
{
	pthread_mutex_lock(&cm);
	while (!signalled)
		pthread_cond_wait(&cv, &cm);
	pthread_mutex_unlock(&cm);
	return arg;
}

int main(void)
{
	pthread_t t[4];

	pthread_create(&t[0], NULL, holder, NULL);
	pthread_create(&t[1], NULL, locker, NULL);
	pthread_create(&t[2], NULL, waiter, NULL);
	pthread_create(&t[3], NULL, sleeper, NULL);
	usleep(600 * 1000);
	pthread_mutex_lock(&cm);
	signalled = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&cm);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("freed_seen=%d\n", freed_seen);
	return 0;
}
