/*
 * Like stall.c, but main waits on the pipe through poll, epoll or select
 * with no timeout; the worker, held until main has got it, is the only
 * other writer.  stall_poll MODE:
 *   poll, epoll, select - only the program holds the pipe: stuck;
 *   pollchild           - a forked child writes it later: it finishes.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

static int got;
static int wfd = -1;

static void *worker(void *arg)
{
	(void)arg;
	printf("worker sees got=%d\n", got);                  /* HOLD-HERE */
	if (wfd >= 0 && write(wfd, "x", 1) != 1)
		return NULL;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "poll";
	pthread_t t;
	int fds[2];
	pid_t kid = -1;

	if (pipe(fds))
		return 2;
	wfd = fds[1];
	if (!strcmp(mode, "pollchild")) {
		kid = fork();
		if (kid == 0) {
			usleep(300000);
			_exit(write(fds[1], "y", 1) == 1 ? 0 : 1);
		}
	}
	pthread_create(&t, NULL, worker, NULL);
	if (!strcmp(mode, "poll") || !strcmp(mode, "pollchild")) {
		struct pollfd p = { fds[0], POLLIN, 0 };
		if (poll(&p, 1, -1) == 1)                     /* BLOCKS-HERE */
			got = 1;
	} else if (!strcmp(mode, "epoll")) {
		int ep = epoll_create1(0);
		struct epoll_event ev = { .events = EPOLLIN }, out;
		epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev);
		if (epoll_wait(ep, &out, 1, -1) == 1)
			got = 1;
	} else {
		fd_set r;
		FD_ZERO(&r);
		FD_SET(fds[0], &r);
		if (select(fds[0] + 1, &r, NULL, NULL, NULL) == 1)
			got = 1;
	}
	printf("main got=%d\n", got);                         /* GOT-IT */
	if (kid > 0)
		waitpid(kid, NULL, 0);
	pthread_join(t, NULL);
	return got == 1 ? 0 : 1;
}
