/* A bug that is no race: two workers each add 1 under a lock, and main
 * expects 3.  Every order of the threads fails, and so does every plain
 * run; explore finds it in the default order and says it fails the same
 * way in runs where racegate holds no thread. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int added;

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	added++;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	if (added != 3) {
		printf("added %d, expected 3\n", added);
		return 1;
	}
	return 0;
}
