/*
 * Two ways a spec fails to hold the order it means (unheld.cmake).
 *
 * "late": main joins the incrementer before it starts the reader, so the
 * event the reader's gate waits for is open long before the reader gets
 * there: the wait cannot hold it, and the run must say so.
 *
 * "nojoin": main lets the writer go, then returns without joining it (the
 * classic "main exited first" mistake): the program ends while the writer,
 * released from its gate, is still on its way to the next one.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int counter;

static void *inc(void *arg)
{
	(void)arg;
	counter++;                                            /* INC-LINE */
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	printf("counter = %d\n", counter);                    /* READ-LINE */
	return NULL;
}

static void *writer(void *arg)
{
	(void)arg;
	counter = 1;                                          /* WRITE-LINE */
	usleep(3000000);
	counter = 2;                                          /* DONE-LINE */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1 && !strcmp(argv[1], "nojoin")) {
		pthread_create(&a, NULL, writer, NULL);
		counter = 0;                                  /* READY-LINE */
		return 0;
	}
	pthread_create(&a, NULL, inc, NULL);
	pthread_join(a, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(b, NULL);
	return 0;
}
