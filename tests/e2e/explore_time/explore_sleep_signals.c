/*
 * Signals and an exit against parked sleepers (explore --virtual-time): a
 * sleeper naps 20 ms twenty times, counting under a lock, while a kicker
 * sends it SIGUSR1 (a handler, no SA_RESTART) ten times; a nanosleep the
 * signal cuts returns EINTR, which the program tolerates.  Every run must
 * end with the count whole (exit 0).  With an argument, main exits while
 * the sleeper sleeps.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static pthread_t sleeper_t;
static int counter;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void on_usr1(int s) { (void)s; got++; }

static void *sleeper(void *a)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int eintr = 0;

	for (int i = 0; i < 20; i++) {
		if (nanosleep(&ts, NULL) < 0 && errno == EINTR)
			eintr++;
		pthread_mutex_lock(&m);
		counter++;
		pthread_mutex_unlock(&m);
	}
	printf("sleeper eintr %d\n", eintr);
	return a;
}

static void *kicker(void *a)
{
	for (int i = 0; i < 10; i++) {
		pthread_kill(sleeper_t, SIGUSR1);
		usleep(5000);
	}
	return a;
}

int main(int argc, char **argv)
{
	pthread_t k;
	struct sigaction sa;

	(void)argv;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_create(&sleeper_t, NULL, sleeper, NULL);
	pthread_create(&k, NULL, kicker, NULL);
	if (argc > 1) {        /* exit while the sleeper sleeps */
		usleep(30000);
		printf("exit early\n");
		exit(0);
	}
	pthread_join(k, NULL);
	pthread_join(sleeper_t, NULL);
	printf("counter %d got %d\n", counter, (int)got);
	return counter == 20 ? 0 : 1;
}
