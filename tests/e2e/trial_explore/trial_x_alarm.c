/* A progress ticker: SIGALRM every millisecond bumps a tick count that the
 * main thread prints, while a worker and main both add to a total without
 * a lock.  The signals must keep coming while threads wait; the lost
 * update shows only in some interleavings.  "Sometimes total is 1." */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static int total;

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static void add_one(void)
{
	int t = total;
	t = t + 1;
	total = t;
}

static void *worker(void *arg)
{
	(void)arg;
	add_one();
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 1000}, {0, 1000}};
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	add_one();
	pthread_join(t, NULL);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	printf("total %d (ticks seen: %s)\n", total, ticks > 0 ? "some" : "none");
	return total == 2 ? 0 : 1;
}
