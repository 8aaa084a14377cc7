/*
 * main starts a worker, detaches it and calls pthread_exit: the process
 * lives on without its main thread (the kernel keeps it a zombie until the
 * worker ends), and ends with status 0 when the worker returns.  Under
 * main_exit.yaml the worker is held until main has exited (exited:M).
 */
#include <pthread.h>
#include <stdio.h>

static volatile int ran;

static void *worker(void *arg)
{
	(void)arg;
	ran = 1;                                              /* WORKER-LINE */
	printf("worker ran\n");
	fflush(stdout);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	pthread_detach(t);
	pthread_exit(NULL);                                   /* EXIT-LINE */
}
