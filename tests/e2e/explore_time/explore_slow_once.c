/*
 * A program whose first run hangs and every later one ends: it hangs
 * when the marker file (argv[1]) does not exist yet, after creating it.
 * A timeout its replay does not repeat, as a machine slowed for a moment
 * gives one: explore must not count it as a failure.  "-" for argv[1]:
 * every run hangs.
 */
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

static int shared;

static void *worker(void *arg)
{
	shared++;
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int fd;

	if (argc < 2)
		return 2;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	fd = strcmp(argv[1], "-") ? open(argv[1], O_WRONLY | O_CREAT | O_EXCL, 0600) : 0;
	if (fd >= 0) {
		if (fd)
			close(fd);
		/* the first run: hangs (in a wait explore leaves in real time:
		   a sleep's timeout it would fire) */
		struct timeval tv = { 100, 0 };

		select(0, NULL, NULL, NULL, &tv);
	}
	return 0;
}
