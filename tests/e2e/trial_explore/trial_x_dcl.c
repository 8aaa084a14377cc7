/* Lazy initialisation with double-checked locking: the configuration is
 * made by whoever needs it first.  The pointer is published before the
 * object is filled in, so a second thread that sees the pointer set skips
 * the lock and reads a port of 0.  "Sometimes we connect to port 0." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct config {
	int port;
	int retries;
};

static struct config *config;
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;

static struct config *get_config(void)
{
	if (config == NULL) {
		pthread_mutex_lock(&config_lock);
		if (config == NULL) {
			config = calloc(1, sizeof *config);
			config->port = 8080;
			config->retries = 3;
		}
		pthread_mutex_unlock(&config_lock);
	}
	return config;
}

static int bad;

static void *client(void *arg)
{
	(void)arg;
	struct config *c = get_config();
	if (c->port == 0) {
		printf("connecting to port %d\n", c->port);
		__atomic_store_n(&bad, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;
	pthread_create(&t1, NULL, client, NULL);
	pthread_create(&t2, NULL, client, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return bad;
}
