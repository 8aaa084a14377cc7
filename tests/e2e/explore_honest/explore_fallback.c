/*
 * A lost update (exit 1) whose first gates files do not reproduce it: run
 * under a gates file, the program sees its canary function unpatched (no
 * scheduling point is in it then), counts those runs in the file argv[1],
 * and hides the failure (exit 0) in the first argv[2] of them.  explore
 * replays the shrunk schedule's files first; they are turned down, and the
 * file of the schedule as found is written instead, as when the fewest
 * preemptions leave the failure to an order no gate can pin.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int canary(int x);
int canary_twin(int x);

static int counter;

static void *worker(void *arg)
{
	int v = counter;

	(void)arg;
	v++;
	counter = v;
	return NULL;
}

/* Runs under a gates file so far, this one included. */
static long replays(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	struct stat st;

	if (fd < 0 || write(fd, "r", 1) != 1 || fstat(fd, &st) < 0)
		exit(9);
	close(fd);
	return (long)st.st_size;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	/* explore's points patch every line of canary's file; a gates file's none */
	int explored = memcmp((void *)canary, (void *)canary_twin, 8) != 0;
	int hide;

	if (argc != 3)
		return 9;
	hide = !explored && replays(argv[1]) <= atol(argv[2]);
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("counter = %d\n", counter);
	return counter == 2 || hide ? 0 : 1;
}
