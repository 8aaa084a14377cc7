/*
 * A thread is held at a gate that never opens while the main thread
 * crashes: the run must end at once with the program's own SIGSEGV, with
 * no hang and no process left behind.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile int *nowhere;
static volatile int stage;

static void never_called(void)
{
	stage = 99;                                           /* NEVER-LINE */
}

static void *stuck(void *arg)
{
	(void)arg;
	stage = 1;                                            /* HELD-LINE */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	(void)argv;
	if (argc > 5)
		never_called();
	pthread_create(&t, NULL, stuck, NULL);
	usleep(20000);
	printf("crashing now\n");
	fflush(stdout);
	*nowhere = 1;                                         /* CRASH-LINE */
	pthread_join(t, NULL);
	return 0;
}
