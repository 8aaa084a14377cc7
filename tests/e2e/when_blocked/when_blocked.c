/*
 * open_when_blocked's test program: a thread goes to sleep in a system
 * call, and main acts on it only once it sleeps.
 *
 *   when_blocked cond     the waiter holds the lock, works 50 ms, then
 *                         waits on a condition (a timed wait); main signals
 *                         without the lock: "woken" when the waiter was
 *                         already waiting, "missed" when the signal came
 *                         first (a lost wake-up)
 *   when_blocked pipe     the reader blocks in read() on a pipe main writes
 *   when_blocked signal   the reader blocks in read(); main sends it SIGUSR1
 *                         (no SA_RESTART) and, once the handler ran, closes
 *                         the pipe: "interrupted" when the signal found it
 *                         blocked, "read 0" when it came before the read
 *   when_blocked exit     the worker returns without ever blocking
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int fds[2];
static volatile long sink;
static volatile sig_atomic_t handled;

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* 50 ms on a CPU: long after any signal main sends once released */
static void work(void)
{
	double t0 = now_ms();

	while (now_ms() - t0 < 50)
		sink++;
}

static void *waiter(void *arg)
{
	struct timespec until;
	int r;

	(void)arg;
	pthread_mutex_lock(&lock);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	work();                                             /* gate: waiter-works */
	r = pthread_cond_timedwait(&cond, &lock, &until);
	pthread_mutex_unlock(&lock);
	printf("%s\n", r == 0 ? "woken" : "missed");
	return NULL;
}

static void *reader(void *arg)
{
	char c;
	ssize_t n;

	(void)arg;
	n = read(fds[0], &c, 1);                            /* gate: reader-reads */
	if (n < 0 && errno == EINTR)
		printf("interrupted\n");
	else
		printf("read %zd\n", n);
	return NULL;
}

static void *quitter(void *arg)
{
	(void)arg;
	sink = 1;                                           /* gate: quitter-goes */
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
	handled = 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "cond";
	struct sigaction sa;
	pthread_t t;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;        /* no SA_RESTART: a blocked read gives EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	if (pipe(fds) < 0)
		return 2;
	if (!strcmp(mode, "cond")) {
		pthread_create(&t, NULL, waiter, NULL);
		pthread_cond_signal(&cond);                 /* gate: main-signals */
	} else if (!strcmp(mode, "pipe")) {
		pthread_create(&t, NULL, reader, NULL);
		if (write(fds[1], "x", 1) != 1)             /* gate: main-writes */
			return 2;
	} else if (!strcmp(mode, "signal")) {
		pthread_create(&t, NULL, reader, NULL);
		pthread_kill(t, SIGUSR1);                   /* gate: main-kills */
		/* the handler has run: a read it interrupted has returned */
		while (!handled)
			usleep(1000);
		close(fds[1]);
	} else {
		pthread_create(&t, NULL, quitter, NULL);
		printf("main goes on\n");                   /* gate: main-after */
	}
	pthread_join(t, NULL);
	return 0;
}
