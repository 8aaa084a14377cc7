/*
 * A worker is held until main has got something from outside its own
 * threads; main meanwhile blocks in the kernel.  stall MODE:
 *   popen   - fgets on popen("sleep 0.3; echo hello"): a child writes later;
 *   accept  - accept on a loopback socket; a forked child connects later;
 *   pipe    - read on a pipe only the program holds: nobody will write;
 *   pair    - read on a socketpair only the program holds: nobody will write.
 * The first two must finish (not a deadlock), the last two are stuck.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
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

static int serve(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int one = 1, s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), c;
	pid_t pid;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s < 0 || bind(s, (void *)&a, sizeof(a)) || listen(s, 1) ||
	    getsockname(s, (void *)&a, &len))
		return -1;
	pid = fork();
	if (pid == 0) {
		int k = socket(AF_INET, SOCK_STREAM, 0);

		usleep(300000);
		_exit(connect(k, (void *)&a, sizeof(a)) ? 1 : 0);
	}
	c = accept(s, NULL, NULL);                            /* BLOCKS-HERE */
	waitpid(pid, NULL, 0);
	close(s);
	return c < 0 ? -1 : (close(c), 1);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "popen";
	pthread_t t;
	char buf[64] = "";
	int fds[2];

	if (!strcmp(mode, "pipe") && pipe(fds))
		return 2;
	if (!strcmp(mode, "pair") && socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
		return 2;
	if (!strcmp(mode, "pipe") || !strcmp(mode, "pair"))
		wfd = fds[1];
	pthread_create(&t, NULL, worker, NULL);
	if (!strcmp(mode, "popen")) {
		FILE *f = popen("sleep 0.3; echo hello", "r");

		if (!f || !fgets(buf, sizeof(buf), f))       /* BLOCKS-HERE */
			return 2;
		pclose(f);
		got = 1;
	} else if (!strcmp(mode, "accept")) {
		got = serve();
	} else if (read(fds[0], buf, 1) == 1) {              /* BLOCKS-HERE */
		got = 1;
	}
	printf("main got=%d\n", got);                         /* GOT-IT */
	pthread_join(t, NULL);
	return got == 1 ? 0 : 1;
}
