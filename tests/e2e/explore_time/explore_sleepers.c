/*
 * A server's shape, for explore's time under serialisation: main runs an
 * epoll loop with a 100 ms timeout (a timer event: every 3rd timeout it
 * counts a tick), a housekeeper sleeps 50 ms in a loop, a poller waits
 * with poll(2) 20 ms at a time for a pipe nobody writes, and two workers
 * take a request each from a counter, check-then-act, and hand it over
 * through an eventfd main's epoll waits on.
 *
 * The bug: the workers read `served`, let the lock go, and store served +
 * 1 under it again, so one request can be lost: exit 1.  -DSLEEPERS_FIXED
 * does the add under one lock.  An epoll_wait or poll that fails (EINTR
 * included: racegate must not make one) exits 3; the plain program ends
 * in well under a second.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long served;
static atomic_int quit;
static atomic_long ticks, polls;
static int done_fd;

static void serve(void)
{
#ifdef SLEEPERS_FIXED
	pthread_mutex_lock(&lock);
	served++;
	pthread_mutex_unlock(&lock);
#else
	long seen;

	pthread_mutex_lock(&lock);
	seen = served;                    /* check ... */
	pthread_mutex_unlock(&lock);
	pthread_mutex_lock(&lock);
	served = seen + 1;                /* ... then act */
	pthread_mutex_unlock(&lock);
#endif
}

static void *worker(void *arg)
{
	uint64_t one = 1;

	serve();
	if (write(done_fd, &one, sizeof(one)) != sizeof(one))
		exit(2);
	return arg;
}

static void *housekeeper(void *arg)
{
	while (!atomic_load(&quit)) {
		usleep(50 * 1000);
		atomic_fetch_add(&ticks, 1);
	}
	return arg;
}

static void *poller(void *arg)
{
	int p[2];

	if (pipe(p) < 0)
		exit(2);
	while (!atomic_load(&quit)) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };

		if (poll(&pf, 1, 20) < 0) {
			perror("poll");
			exit(3);
		}
		atomic_fetch_add(&polls, 1);
	}
	return arg;
}

int main(void)
{
	pthread_t hk, pl, w[2];
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int ep, timeouts = 0, done = 0;

	done_fd = eventfd(0, 0);
	ep = epoll_create1(0);
	ev.data.fd = done_fd;
	if (done_fd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, done_fd, &ev) < 0)
		return 2;
	pthread_create(&hk, NULL, housekeeper, NULL);
	pthread_create(&pl, NULL, poller, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	while (done < 2) {
		int n = epoll_wait(ep, &got, 1, 100);
		uint64_t v;

		if (n < 0) {
			perror("epoll_wait");
			return 3;
		}
		if (n == 0 && ++timeouts % 3 == 0)
			atomic_fetch_add(&ticks, 1);    /* the timer event */
		if (n == 1 && read(done_fd, &v, sizeof(v)) == sizeof(v))
			done += (int)v;
	}
	atomic_store(&quit, 1);
	pthread_join(hk, NULL);
	pthread_join(pl, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	printf("served %ld\n", served);
	return served == 2 ? 0 : 1;
}
