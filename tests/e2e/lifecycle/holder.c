/*
 * holder DIR FAST: a program whose later runs are held for ever.
 *
 * Each run takes the next number from DIR/count (under a lock, so that
 * parallel runs count too) and appends its pid to DIR/pids.  Runs 1..FAST
 * pass the line marked open, which opens the event the waiter thread waits for
 * under holder.yaml: they end at once.  Later runs do not: their waiter is
 * held at the line marked hold for ever, main naps until it has passed
 * (main is the opener: napping, it might still open the event, so the run
 * is no deadlock), and a watcher thread naps after writing its pid to
 * DIR/held once it sees the waiter in a tracing stop: the moment to
 * interrupt racegate.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int opened, gated;
static volatile pid_t waiter_tid;
static const char *dir;

static void append(const char *name, long v)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "a");
	if (f) {
		fprintf(f, "%ld\n", v);
		fclose(f);
	}
}

static long next_run(void)
{
	char path[4096], buf[32] = "";
	long n;
	int fd;

	snprintf(path, sizeof(path), "%s/count", dir);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || flock(fd, LOCK_EX) < 0)
		exit(2);
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		exit(2);
	n = atol(buf) + 1;
	snprintf(buf, sizeof(buf), "%ld\n", n);
	if (pwrite(fd, buf, strlen(buf), 0) < 0)
		exit(2);
	close(fd);   /* and the lock with it */
	return n;
}

static char task_state(pid_t tid)
{
	char path[128], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

static void *waiter(void *arg)
{
	(void)arg;
	waiter_tid = (pid_t)syscall(SYS_gettid);
	gated = 1;                                            /* @hold */
	return NULL;
}

static void *watcher(void *arg)
{
	(void)arg;
	while (!waiter_tid || task_state(waiter_tid) != 't')
		usleep(10000);
	append("held", (long)getpid());
	for (;;)
		sleep(1);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, x;
	long n, fast;

	if (argc < 3)
		return 2;
	dir = argv[1];
	fast = atol(argv[2]);
	n = next_run();
	append("pids", (long)getpid());
	if (n <= fast)
		opened = 1;                                   /* @open */
	pthread_create(&w, NULL, waiter, NULL);
	if (n > fast)
		pthread_create(&x, NULL, watcher, NULL);
	while (!gated)
		usleep(10000);
	pthread_join(w, NULL);
	printf("run %ld: not held\n", n);
	return 0;
}
