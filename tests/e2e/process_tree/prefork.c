/*
 * A pre-fork server, for the end of a run in a process tree
 * (process_tree.cmake).
 *
 *   prefork PORTFILE [THREADS]
 *
 * The parent binds a listening TCP socket on 127.0.0.1, without
 * SO_REUSEADDR: at the port PORTFILE holds, or, when it holds none, at one
 * the kernel chooses (port 0), which it writes there for the next run.  It
 * forks a worker child whose THREADS threads (default 2, at most 64) accept
 * connections on it, and waits for the worker.  A port still held by a
 * process of an earlier run makes the bind fail: it says so and exits 3.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int lfd;

static void *serve(void *arg)
{
	for (;;) {
		int c = accept(lfd, NULL, NULL);              /* ACCEPT-LINE */

		if (c >= 0)
			close(c);
	}
	return arg;
}

static void worker(int nthreads)
{
	pthread_t t[64];

	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, serve, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

/* The port PORTFILE holds, or 0. */
static int port_of(const char *file)
{
	FILE *f = fopen(file, "r");
	int port = 0;

	if (f) {
		if (fscanf(f, "%d", &port) != 1 || port < 0 || port > 65535)
			port = 0;
		fclose(f);
	}
	return port;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int port, nthreads = argc > 2 ? atoi(argv[2]) : 2, status;
	pid_t pid;
	FILE *f;

	if (argc < 2 || nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "usage: prefork PORTFILE [THREADS]\n");
		return 2;
	}
	port = port_of(argv[1]);
	if ((lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return 2;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		printf("cannot bind 127.0.0.1:%d: %s\n", port, strerror(errno));
		return 3;
	}
	if (getsockname(lfd, (struct sockaddr *)&a, &len) < 0 || listen(lfd, 16) < 0)
		return 2;
	if (!port && (f = fopen(argv[1], "w"))) {
		fprintf(f, "%d\n", ntohs(a.sin_port));
		fclose(f);
	}
	printf("listening on 127.0.0.1:%d\n", ntohs(a.sin_port));
	fflush(stdout);
	if ((pid = fork()) < 0)
		return 2;
	if (pid == 0)
		worker(nthreads);
	waitpid(pid, &status, 0);
	return 0;                                             /* DONE-LINE */
}
