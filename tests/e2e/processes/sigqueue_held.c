/*
 * Signals queued for a thread while a gate holds it: every one reaches the
 * program's handler with its own value, as without racegate.  The holder
 * is released once the sender is done; then its queued real-time signals
 * (200, more than the kernel coalesces or racegate could keep) are
 * delivered while racegate steps it over its breakpoint.
 *   sigqueue_held        the held line is "x++" (then_open: stepped past)
 *   sigqueue_held call   the held line is a call (stepped over out of line)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NSIG_SENT 200

static volatile int got, sum;
static volatile int x;
static pthread_t victim;
static int call_mode;

static void on_rt(int s, siginfo_t *si, void *u)
{
	(void)s;
	(void)u;
	got++;
	sum += si->si_value.sival_int;
}

static void tick(void)
{
	x++;
}

static void *held(void *arg)
{
	(void)arg;
	if (call_mode)
		tick();                                       /* CALL-LINE */
	else
		x++;                                          /* INC-LINE */
	for (int i = 0; i < 500 && got < NSIG_SENT; i++)
		usleep(10000);
	return NULL;
}

static void *sender(void *arg)
{
	(void)arg;
	for (int i = 0; i < NSIG_SENT; i++) {
		union sigval v = {.sival_int = i};

		if (pthread_sigqueue(victim, SIGRTMIN, v))
			perror("pthread_sigqueue");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	pthread_t s;

	call_mode = argc > 1 && !strcmp(argv[1], "call");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGRTMIN, &sa, NULL);
	pthread_create(&victim, NULL, held, NULL);
	usleep(50000);
	pthread_create(&s, NULL, sender, NULL);
	pthread_join(s, NULL);
	pthread_join(victim, NULL);
	printf("signals %d sum %d x %d\n", got, sum, x);
	return !(got == NSIG_SENT && sum == NSIG_SENT * (NSIG_SENT - 1) / 2 && x == 1);
}
