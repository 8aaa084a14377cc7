/* A server that never ends by itself: a listener thread queues requests
 * and the main thread serves them, under a mutex, until it is killed. */
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long pending, served;

static void *listener(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		pending++;
		pthread_mutex_unlock(&mu);
		usleep(1000);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, listener, NULL);
	for (;;) {
		pthread_mutex_lock(&mu);
		if (pending > 0) {
			pending--;
			served++;
		}
		pthread_mutex_unlock(&mu);
		usleep(1000);
	}
}
