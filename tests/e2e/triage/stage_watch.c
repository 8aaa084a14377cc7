/*
 * stage_watch: a worker steps a stage counter through 0, 1, 2; a watcher
 * polls it and aborts when it sees a stage skipped.  The counter is a
 * plain int (the data race TSan reports: the worker's write against the
 * watcher's read), and the watcher is only right while it polls faster than
 * the worker steps (every 10ms; it polls every 1ms, 100 times at most;
 * argv: other lengths, in us): a watcher delayed past two steps aborts.  Forcing the two orders
 * of the first write and the first read cannot show it (each order holds
 * only the first arrival); a search between the two lines can.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int stage = -1, step_us = 10000, poll_us = 1000;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		stage = i;                      /* step */
		usleep(step_us);
	}
	return NULL;
}

static void *watcher(void *arg)
{
	int last = -1, seen = 0;

	(void)arg;
	for (int n = 0; n < 100 && last < 2; n++) {
		int s = stage;                  /* poll */

		if (s > last + 1) {             /* a stage skipped */
			fprintf(stderr, "stage_watch: stage %d after %d\n", s, last);
			abort();
		}
		seen += s != last;
		last = s;
		usleep(poll_us);
	}
	printf("saw %d stages\n", seen);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, v;

	if (argc > 2) {
		step_us = atoi(argv[1]);
		poll_us = atoi(argv[2]);
	}

	pthread_create(&v, NULL, watcher, NULL);
	pthread_create(&w, NULL, worker, NULL);
	pthread_join(w, NULL);
	pthread_join(v, NULL);
	return 0;
}
