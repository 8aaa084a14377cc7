/*
 * The program's signals are its own: its SIGUSR1 and SIGTRAP handlers run
 * under racegate exactly as without it, also when the handler executes a
 * gated line, and its own raise(SIGTRAP) is not taken for a breakpoint.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t usr1, trap;
static volatile int touched;

static void touch(void)
{
	touched++;                                            /* TOUCH-LINE */
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
	touch();
}

static void on_trap(int sig)
{
	(void)sig;
	trap++;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++)
		raise(SIGUSR1);
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	pthread_t t;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	raise(SIGTRAP);
	raise(SIGTRAP);
	touch();
	printf("usr1=%d trap=%d touched=%d\n", (int)usr1, (int)trap, touched);
	return usr1 == 100 && trap == 2 && touched == 101 ? 0 : 1;
}
