/*
 * The thread that would open the awaited event first opens a named FIFO
 * (argv[1]) nobody writes to, and stays in open(2) for ever; racegate's
 * diagnosis must name that system call (trial.cmake).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *fifo;
static int got;

static void *reader(void *arg)
{
	int fd;

	(void)arg;
	fd = open(fifo, O_RDONLY);
	got = fd >= 0;                                   /* OPENED */
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	got++;                                           /* WAITS */
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t r, w;

	if (argc < 2)
		return 2;
	fifo = argv[1];
	unlink(fifo);
	if (mkfifo(fifo, 0600) < 0)
		return 2;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, waiter, NULL);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	unlink(fifo);
	printf("got=%d\n", got);
	return 0;
}
