/*
 * A small threaded server for racegate attach (attach.cmake, attach.sh):
 * started plainly, attached to, raced, let go, then asked to serve on.
 *
 *   attach_server SOCKET
 *
 * Listens on the unix socket SOCKET.  Two worker threads named worker-1 and
 * worker-2 (pthread_setname_np) serve the connections, the first accepted
 * one by worker-1, the second by worker-2, then in turn; the main thread
 * accepts (poll with a timeout, as servers do), and a housekeeper naps.
 * A request is a line: "add" adds 1 to the total, unlocked (the race: two
 * adds at once can lose one), "get" answers the total, "pid" the process
 * id, "fork" forks a child that runs add_one and answers its wait status
 * (0 when its copy of the code is clean), "plugin" opens
 * libe2e_plugin.so (next to the program) with dlopen the first time and
 * answers its count after a plugin_add, "quit" ends the server with
 * exit 0, "exit3" with exit 3, "exec" answers "ok" and runs the server
 * afresh with exec (a server's upgrade in place), on the same socket.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static long total;
static int queue_fd[2][2];          /* per worker: a pipe of connection fds */

static void reply(FILE *out, const char *fmt, long v)
{
	fprintf(out, fmt, v);
	fflush(out);
}

static void add_one(void)
{
	long v = total;                 /* LOAD */

	total = v + 1;                  /* STORE */
}

/* The child's own copy of the code runs add_one, where the gates are: an
 * int3 left in it would kill the child (its status says so). */
static void forked_child(void)
{
	add_one();
	_exit(0);
}

static const char *self_path;
static const char *sock_path;

/* libe2e_plugin.so, opened on first use: a library loaded after an attach. */
static long plugin(void)
{
	static void (*add)(void);
	static int (*count)(void);
	char path[4096];
	const char *slash = strrchr(self_path, '/');
	void *h;

	if (!add) {
		snprintf(path, sizeof(path), "%.*s/libe2e_plugin.so",
			 slash ? (int)(slash - self_path) : 1, slash ? self_path : ".");
		if (!(h = dlopen(path, RTLD_NOW)))
			return -1;
		add = (void (*)(void))dlsym(h, "plugin_add");
		count = (int (*)(void))dlsym(h, "plugin_count");
		if (!add || !count)
			return -1;
	}
	add();
	return count();
}

static void serve(int fd)
{
	FILE *in = fdopen(dup(fd), "r"), *out = fdopen(fd, "w");
	char line[64];

	while (in && out && fgets(line, sizeof(line), in)) {
		if (!strncmp(line, "add", 3)) {
			add_one();
			reply(out, "ok\n", 0);
		} else if (!strncmp(line, "get", 3)) {
			reply(out, "%ld\n", total);
		} else if (!strncmp(line, "pid", 3)) {
			reply(out, "%ld\n", (long)getpid());
		} else if (!strncmp(line, "fork", 4)) {
			pid_t c = fork();
			int st = 0;

			if (c == 0)
				forked_child();
			waitpid(c, &st, 0);
			reply(out, "child status %ld\n", (long)st);
		} else if (!strncmp(line, "plugin", 6)) {
			reply(out, "plugin %ld\n", plugin());
		} else if (!strncmp(line, "quit", 4)) {
			exit(0);
		} else if (!strncmp(line, "exit3", 5)) {
			exit(3);
		} else if (!strncmp(line, "exec", 4)) {
			reply(out, "ok\n", 0);
			execl(self_path, self_path, sock_path, (char *)NULL);
			exit(4);
		} else {
			reply(out, "?\n", 0);
		}
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

static void *worker(void *arg)
{
	long k = (long)arg;
	char name[16];
	int fd;

	snprintf(name, sizeof(name), "worker-%d", (int)(k + 1) % 10);
	pthread_setname_np(pthread_self(), name);
	while (read(queue_fd[k][0], &fd, sizeof(fd)) == sizeof(fd))
		serve(fd);
	return NULL;
}

static void *housekeeper(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "housekeeper");
	for (;;)
		usleep(50 * 1000);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	pthread_t t;
	long next = 0;
	int ls;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: attach_server SOCKET\n");
		return 2;
	}
	self_path = argv[0];
	sock_path = argv[1];
	signal(SIGPIPE, SIG_IGN);
	strcpy(sa.sun_path, argv[1]);
	unlink(argv[1]);
	ls = socket(AF_UNIX, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(ls, 64) < 0) {
		perror("attach_server");
		return 2;
	}
	for (long k = 0; k < 2; k++) {
		if (pipe(queue_fd[k]) < 0)
			return 2;
		pthread_create(&t, NULL, worker, (void *)k);
	}
	pthread_create(&t, NULL, housekeeper, NULL);
	for (;;) {
		struct pollfd p = { .fd = ls, .events = POLLIN };
		int c;

		if (poll(&p, 1, 200) <= 0)
			continue;
		if ((c = accept(ls, NULL, NULL)) < 0)
			continue;
		if (write(queue_fd[next % 2][1], &c, sizeof(c)) != sizeof(c))
			close(c);
		next++;
	}
}
