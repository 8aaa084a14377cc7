/* A daemon-style main that starts its workers and leaves with
 * pthread_exit(), so the process lives until the last worker is done.  The
 * last worker to finish writes the summary -- "last" decided by a counter
 * read and bumped without a lock, so sometimes nobody writes it, and the
 * process exits 1 from the atexit check.  "Sometimes the summary is
 * missing." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NWORKERS 3

static int finished;
static int summary_written;

static void check_summary(void)
{
	if (!summary_written) {
		fprintf(stderr, "no summary\n");
		_exit(1);
	}
}

static void *worker(void *arg)
{
	(void)arg;
	int f = finished;
	finished = f + 1;
	if (f + 1 == NWORKERS) {
		printf("summary: %d workers\n", NWORKERS);
		summary_written = 1;
	}
	return NULL;
}

int main(void)
{
	atexit(check_summary);
	for (int i = 0; i < NWORKERS; i++) {
		pthread_t t;
		pthread_create(&t, NULL, worker, NULL);
		pthread_detach(t);
	}
	pthread_exit(NULL);
}
