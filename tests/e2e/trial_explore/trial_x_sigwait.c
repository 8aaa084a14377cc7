/* A service with a dedicated signal thread: SIGUSR1 asks for a reload of
 * the configuration, handled by that thread with sigwait(); the worker
 * reads the configuration's two fields, which the reload writes one at a
 * time with no lock.  "Sometimes a request sees the new host with the old
 * port." */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

struct conf {
	int host;
	int port;
};

static struct conf conf = {1, 1001};
static int torn;

static void *signals(void *arg)
{
	sigset_t *set = arg;
	int sig;
	if (sigwait(set, &sig) == 0 && sig == SIGUSR1) {
		conf.host = 2;
		conf.port = 1002;
	}
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	int host = conf.host;
	int port = conf.port;
	if (port != 1000 + host)
		torn = 1;
	return NULL;
}

int main(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_t s, w;
	pthread_create(&s, NULL, signals, &set);
	pthread_create(&w, NULL, worker, NULL);
	pthread_kill(s, SIGUSR1);
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	printf("%s\n", torn ? "torn configuration" : "ok");
	return torn;
}
